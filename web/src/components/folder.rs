//! The project's linked folder as the views see it: the links of this page by server and
//! project ([`FolderLinks`], restored from what the browser kept), the linked folder of the
//! route's project ([`use_linked_folder`]), and the control in the project's header that
//! links a folder, asks for the browser's permission again, and unlinks ([`FolderLink`]).
//!
//! The demo has no link: its sessions read the demo's own virtual folder.

use crate::components::route::Here;
use crate::folder::linked::{can_pick, kept, LinkedFolder, Permission};
use crate::routes::Source;
use crate::session::Session;
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::collections::BTreeMap;

/// Which project a link belongs to: the server (its MCP endpoint) and the project's slug.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct FolderKey {
    /// The server's MCP endpoint (`http://127.0.0.1:8765/mcp/`).
    pub server: String,
    /// The project's slug.
    pub project: String,
}

/// Where a project's link stands.
#[derive(Debug, Clone, PartialEq)]
pub enum LinkState {
    /// Looking for a link the browser kept.
    Restoring,
    /// No folder linked.
    Unlinked,
    /// A folder the console may read.
    Linked(LinkedFolder),
    /// A kept folder the browser must ask the reviewer about again before it is read (after
    /// a reload, or when they took the permission back).
    NeedsPermission(LinkedFolder),
    /// A folder read once before this page loaded (its name): it must be linked again.
    ReadOnceBefore(String),
}

/// The folder links of this page, provided with the [`crate::session::Session`].
#[derive(Clone, Copy)]
pub struct FolderLinks {
    states: RwSignal<BTreeMap<FolderKey, LinkState>>,
    /// The last link, permission or unlink failure, in words (shown in the header).
    pub trouble: RwSignal<Option<String>>,
}

impl Default for FolderLinks {
    fn default() -> Self {
        Self::new()
    }
}

impl FolderLinks {
    /// No links yet (each project's kept link is restored when a view first asks).
    #[must_use]
    pub fn new() -> Self {
        Self {
            states: RwSignal::new(BTreeMap::new()),
            trouble: RwSignal::new(None),
        }
    }

    /// A project's link state (tracked); [`LinkState::Restoring`] before [`Self::restore`].
    #[must_use]
    pub fn state(&self, key: &FolderKey) -> LinkState {
        self.states
            .with(|s| s.get(key).cloned())
            .unwrap_or(LinkState::Restoring)
    }

    fn set(&self, key: &FolderKey, state: LinkState) {
        self.states.update(|s| {
            s.insert(key.clone(), state);
        });
    }

    /// Looks for the link the browser kept for a project, once per page.
    pub fn restore(&self, key: &FolderKey) {
        if self.states.with_untracked(|s| s.contains_key(key)) {
            return;
        }
        self.set(key, LinkState::Restoring);
        let (links, key) = (*self, key.clone());
        spawn_local(async move {
            let state = match kept::restore(&key.server, &key.project).await {
                Ok(Some(kept::Kept::Folder(folder))) => links.checked(folder).await,
                Ok(Some(kept::Kept::ReadOnce(name))) => LinkState::ReadOnceBefore(name),
                Ok(None) => LinkState::Unlinked,
                Err(why) => {
                    links.trouble.try_set(Some(format!(
                        "The browser's kept links could not be read: {why}"
                    )));
                    LinkState::Unlinked
                }
            };
            links.set(&key, state);
        });
    }

    /// A folder's state after asking the browser whether it may still be read.
    async fn checked(&self, folder: LinkedFolder) -> LinkState {
        match folder.permission(false).await {
            Ok(Permission::Granted) => LinkState::Linked(folder),
            Ok(_) => LinkState::NeedsPermission(folder),
            Err(why) => {
                self.trouble.try_set(Some(why));
                LinkState::NeedsPermission(folder)
            }
        }
    }

    /// Links a folder to a project and keeps the link (a picked folder's handle, or a folder
    /// read once by name).
    pub fn link(&self, key: &FolderKey, folder: LinkedFolder) {
        self.set(key, LinkState::Linked(folder.clone()));
        self.trouble.set(None);
        let (links, key) = (*self, key.clone());
        spawn_local(async move {
            if let Err(why) = kept::keep(&key.server, &key.project, &folder).await {
                links.trouble.try_set(Some(format!(
                    "Linked for this page only: the browser did not keep the link ({why})."
                )));
            }
        });
    }

    /// Asks the browser for permission to read the project's kept folder again (in answer
    /// to the reviewer's click).
    pub fn ask_again(&self, key: &FolderKey) {
        let LinkState::NeedsPermission(folder) = self.state_untracked(key) else {
            return;
        };
        let (links, key) = (*self, key.clone());
        spawn_local(async move {
            match folder.permission(true).await {
                Ok(Permission::Granted) => {
                    links.trouble.try_set(None);
                    links.set(&key, LinkState::Linked(folder));
                }
                Ok(_) => {
                    let name = folder.name();
                    links
                        .trouble
                        .try_set(Some(format!("The browser was not allowed to read {name}.")));
                }
                Err(why) => {
                    links.trouble.try_set(Some(why));
                }
            }
        });
    }

    /// Asks the browser whether the project's folder may still be read (after a read was
    /// refused): a permission taken back turns the link into [`LinkState::NeedsPermission`].
    pub fn recheck(&self, key: &FolderKey) {
        let LinkState::Linked(folder) = self.state_untracked(key) else {
            return;
        };
        let (links, key) = (*self, key.clone());
        spawn_local(async move {
            let state = links.checked(folder.clone()).await;
            // Only if the link is still the one checked.
            if links.state_untracked(&key) == LinkState::Linked(folder) {
                links.set(&key, state);
            }
        });
    }

    /// Unlinks the project's folder and forgets the kept link.
    pub fn unlink(&self, key: &FolderKey) {
        self.set(key, LinkState::Unlinked);
        self.trouble.set(None);
        let (links, key) = (*self, key.clone());
        spawn_local(async move {
            if let Err(why) = kept::forget(&key.server, &key.project).await {
                links.trouble.try_set(Some(format!(
                    "Unlinked for this page, but the browser still keeps the link ({why})."
                )));
            }
        });
    }

    fn state_untracked(&self, key: &FolderKey) -> LinkState {
        self.states
            .with_untracked(|s| s.get(key).cloned())
            .unwrap_or(LinkState::Restoring)
    }
}

/// The route's project as a link key (tracked); `None` on the demo, outside a project, or
/// before connecting.
#[must_use]
pub fn folder_key(here: Here) -> Option<FolderKey> {
    let project = here.project.get();
    if here.src.get() != Source::Live || project.is_empty() {
        return None;
    }
    let server = here.backend().ok()?.capabilities().endpoint;
    Some(FolderKey { server, project })
}

/// The route's project's link key and state (tracked), its kept link restored on first use.
#[must_use]
pub fn use_link_state() -> Signal<Option<(FolderKey, LinkState)>> {
    let here = Here::new();
    let links = here.session.folders;
    let key = Memo::new(move |_| folder_key(here));
    Effect::new(move || {
        if let Some(key) = key.get() {
            links.restore(&key);
        }
    });
    Signal::derive(move || key.get().map(|key| (key.clone(), links.state(&key))))
}

/// The folder linked to a project of the connected server, when the console may read it
/// (tracked: a reactive computation calling it runs again when the link changes). `None`
/// outside the app, before connecting, or with no readable link. The project header
/// ([`FolderLink`], on every project view) restores the kept link.
#[must_use]
pub fn linked_folder(project: &str) -> Option<LinkedFolder> {
    let session = use_context::<Session>()?;
    session.revision.track();
    let server = session.backend(Source::Live).ok()?.capabilities().endpoint;
    let key = FolderKey {
        server,
        project: project.to_owned(),
    };
    match session.folders.state(&key) {
        LinkState::Linked(folder) => Some(folder),
        _ => None,
    }
}

/// The folder linked to the route's project, when the console may read it (tracked). A new
/// link (the same folder linked again) is a new value, so what was read from it is read again.
#[must_use]
pub fn use_linked_folder() -> Signal<Option<LinkedFolder>> {
    let state = use_link_state();
    Signal::derive(move || match state.get() {
        Some((_, LinkState::Linked(folder))) => Some(folder),
        _ => None,
    })
}

/// The project header's folder control: what is linked and its state, with Link folder (the
/// browser's picker, where it has one), Read a folder once (a directory input), Allow reading
/// (permission asked again) and Unlink.
#[component]
pub fn FolderLink() -> impl IntoView {
    let here = Here::new();
    let links = here.session.folders;
    let state = use_link_state();
    let pick = move |key: FolderKey| {
        spawn_local(async move {
            match LinkedFolder::pick().await {
                Ok(Some(folder)) => links.link(&key, folder),
                Ok(None) => {}
                Err(why) => {
                    links.trouble.try_set(Some(why));
                }
            }
        });
    };
    let read_once = move |key: FolderKey, again: bool| {
        let on_change = move |ev: leptos::ev::Event| {
            let input: web_sys::HtmlInputElement = event_target(&ev);
            if let Some(list) = input.files() {
                match LinkedFolder::from_input(&list) {
                    Ok(folder) => links.link(&key, folder),
                    Err(why) => links.trouble.set(Some(why)),
                }
            }
            // The File objects stay readable; clearing lets the same folder be chosen again.
            input.set_value("");
        };
        view! {
            <label class="folder-input">
                {if again { "Read it again" } else { "Read a folder once" }}
                <input type="file" prop:webkitdirectory=true on:change=on_change />
            </label>
        }
    };
    let link_buttons = move |key: FolderKey, again: bool| {
        let picker = can_pick().then(|| {
            let key = key.clone();
            view! {
                <button type="button" class="secondary" on:click=move |_| pick(key.clone())>
                    "Link folder"
                </button>
            }
        });
        view! { {picker} {read_once(key, again)} }
    };
    let unlink = move |key: FolderKey| {
        view! {
            <button type="button" class="secondary" on:click=move |_| links.unlink(&key)>"Unlink"</button>
        }
    };
    let body = move || {
        let Some((key, state)) = state.get() else {
            return if here.src.get() == Source::Demo {
                view! { <span>"Folder: the demo's own"</span> }.into_any()
            } else {
                ().into_any()
            };
        };
        match state {
            LinkState::Restoring => {
                view! { <span>"Folder: looking for the linked one…"</span> }.into_any()
            }
            LinkState::Unlinked => view! {
                <span>"No folder linked"</span>
                {link_buttons(key, false)}
            }
            .into_any(),
            LinkState::Linked(folder) => {
                let once = folder.read_once();
                view! {
                    <span>"Folder: " <strong class="folder-name">{folder.name()}</strong></span>
                    {once.then(|| view! {
                        <span class="note">" (read once: read it again after a reload or when its files change)"</span>
                    })}
                    {once.then(|| read_once(key.clone(), true))}
                    {unlink(key)}
                }
                .into_any()
            }
            LinkState::NeedsPermission(folder) => {
                let ask_key = key.clone();
                view! {
                    <span>"Folder: " <strong class="folder-name">{folder.name()}</strong>
                        " — the browser asks again before it is read"</span>
                    <button type="button" on:click=move |_| links.ask_again(&ask_key)>"Allow reading"</button>
                    {unlink(key)}
                }
                .into_any()
            }
            LinkState::ReadOnceBefore(name) => view! {
                <span>"Folder " <strong class="folder-name">{name}</strong>
                    " was read once before this page loaded: link it again"</span>
                {link_buttons(key.clone(), false)}
                {unlink(key)}
            }
            .into_any(),
        }
    };
    let data_state = move || match state.get() {
        None if here.src.get() == Source::Demo => "demo",
        None => "none",
        Some((_, LinkState::Restoring)) => "restoring",
        Some((_, LinkState::Unlinked)) => "unlinked",
        Some((_, LinkState::Linked(_))) => "linked",
        Some((_, LinkState::NeedsPermission(_))) => "permission",
        Some((_, LinkState::ReadOnceBefore(_))) => "read-once-before",
    };
    view! {
        <div class="folder-link" data-state=data_state
            title="The project's working tree, read in this browser only, never sent anywhere">
            {body}
            {move || links.trouble.get().map(|why| view! { <span class="error" role="alert">{why}</span> })}
        </div>
    }
}
