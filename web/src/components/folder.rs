//! The project's linked folder as the views see it: the links of this page by server and
//! project ([`FolderLinks`], restored from what the browser kept), the linked folder of a
//! project ([`linked_folder`], which the evidence views read through `folder::of_project`),
//! and the control in the project's header that links a folder, asks for the browser's
//! permission again, and unlinks ([`FolderLink`]).
//!
//! The demo has no link: its sessions read the demo's own virtual folder.

use crate::components::route::Here;
use crate::folder::linked::{can_pick, kept, LinkedFolder, Permission};
use crate::routes::Source;
use crate::session::Session;
use leptos::prelude::*;
use leptos::task::spawn_local;

/// Which project a link belongs to: the server (its MCP endpoint) and the project's slug.
#[derive(Debug, Clone, PartialEq, Eq)]
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

/// The folder links of this page, provided with the [`Session`].
#[derive(Clone, Copy)]
pub struct FolderLinks {
    /// Few projects per page: a list, looked up by key.
    states: RwSignal<Vec<(FolderKey, LinkState)>>,
    /// The last link, permission or unlink failure, in words (shown in the header).
    pub trouble: RwSignal<Option<String>>,
}

impl Default for FolderLinks {
    fn default() -> Self {
        Self::new()
    }
}

impl FolderLinks {
    /// No links yet (each project's kept link is restored when its header first shows).
    #[must_use]
    pub fn new() -> Self {
        Self {
            states: RwSignal::new(Vec::new()),
            trouble: RwSignal::new(None),
        }
    }

    /// A project's link state (tracked); [`LinkState::Restoring`] before [`Self::check`].
    #[must_use]
    pub fn state(&self, key: &FolderKey) -> LinkState {
        self.states
            .with(|s| find(s, key))
            .unwrap_or(LinkState::Restoring)
    }

    fn set(&self, key: &FolderKey, state: LinkState) {
        self.states
            .update(|s| match s.iter_mut().find(|(k, _)| k == key) {
                Some(entry) => entry.1 = state,
                None => s.push((key.clone(), state)),
            });
    }

    /// Restores the link the browser kept for a project (first time), or asks the browser
    /// whether a linked folder may still be read (a permission taken back turns it into
    /// [`LinkState::NeedsPermission`]). The header calls it on every project view.
    pub fn check(&self, key: &FolderKey) {
        let before = self.states.with_untracked(|s| find(s, key));
        let checking = match &before {
            None => None,
            Some(LinkState::Linked(folder)) if !folder.read_once() => Some(folder.clone()),
            Some(_) => return,
        };
        if before.is_none() {
            self.set(key, LinkState::Restoring);
        }
        let (links, key) = (*self, key.clone());
        spawn_local(async move {
            let folder = match checking {
                Some(folder) => folder,
                None => match kept::restore(&key.server, &key.project).await {
                    Ok(Some(kept::Kept::Folder(folder))) => folder,
                    Ok(Some(kept::Kept::ReadOnce(name))) => {
                        return links.set(&key, LinkState::ReadOnceBefore(name));
                    }
                    Ok(None) => return links.set(&key, LinkState::Unlinked),
                    Err(why) => {
                        links.trouble.try_set(Some(format!(
                            "The browser's kept links could not be read: {why}"
                        )));
                        return links.set(&key, LinkState::Unlinked);
                    }
                },
            };
            let state = match folder.permission(false).await {
                Ok(Permission::Granted) => LinkState::Linked(folder.clone()),
                Ok(_) => LinkState::NeedsPermission(folder.clone()),
                Err(why) => {
                    links.trouble.try_set(Some(why));
                    LinkState::NeedsPermission(folder.clone())
                }
            };
            // Unless the reviewer linked or unlinked meanwhile.
            let now = links.states.with_untracked(|s| find(s, &key));
            if matches!(now, Some(LinkState::Restoring)) || now == Some(LinkState::Linked(folder)) {
                links.set(&key, state);
            }
        });
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
        let Some(LinkState::NeedsPermission(folder)) = self.states.with_untracked(|s| find(s, key))
        else {
            return;
        };
        let (links, key) = (*self, key.clone());
        spawn_local(async move {
            let trouble = match folder.permission(true).await {
                Ok(Permission::Granted) => {
                    links.set(&key, LinkState::Linked(folder));
                    None
                }
                Ok(_) => Some(format!(
                    "The browser was not allowed to read {}.",
                    folder.name()
                )),
                Err(why) => Some(why),
            };
            links.trouble.try_set(trouble);
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
}

fn find(states: &[(FolderKey, LinkState)], key: &FolderKey) -> Option<LinkState> {
    states
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, s)| s.clone())
}

/// The key of a project of the connected server (tracked); `None` before connecting.
fn live_key(session: Session, project: String) -> Option<FolderKey> {
    session.revision.track();
    let server = session.backend(Source::Live).ok()?.capabilities().endpoint;
    Some(FolderKey { server, project })
}

/// The folder linked to a project of the connected server, when the console may read it
/// (tracked: a reactive computation calling it runs again when the link changes). `None`
/// outside the app, before connecting, or with no readable link. The project header
/// ([`FolderLink`], on every project view) restores the kept link.
#[must_use]
pub fn linked_folder(project: &str) -> Option<LinkedFolder> {
    let session = use_context::<Session>()?;
    match session
        .folders
        .state(&live_key(session, project.to_owned())?)
    {
        LinkState::Linked(folder) => Some(folder),
        _ => None,
    }
}

/// The project header's folder control: what is linked and its state, with Link folder (the
/// browser's picker, where it has one), Read a folder once (a directory input), Allow reading
/// (permission asked again) and Unlink. One fixed element tree; the state shows and hides its
/// parts.
#[component]
pub fn FolderLink() -> impl IntoView {
    let here = Here::new();
    let links = here.session.folders;
    let key = Memo::new(move |_| {
        let project = here.project.get();
        (here.src.get() == Source::Live && !project.is_empty())
            .then(|| live_key(here.session, project))
            .flatten()
    });
    Effect::new(move || {
        if let Some(key) = key.get() {
            links.check(&key);
        }
    });
    let state = move || key.get().map(|k| links.state(&k));
    let with_key = move |act: fn(&FolderLinks, &FolderKey)| {
        if let Some(key) = key.get_untracked() {
            act(&links, &key);
        }
    };
    let pick = move |_| {
        let Some(key) = key.get_untracked() else {
            return;
        };
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
    let on_files = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        if let (Some(key), Some(list)) = (key.get_untracked(), input.files()) {
            match LinkedFolder::from_input(&list) {
                Ok(folder) => links.link(&key, folder),
                Err(why) => links.trouble.set(Some(why)),
            }
        }
        // The File objects stay readable; clearing lets the same folder be chosen again.
        input.set_value("");
    };
    let name = move || match state() {
        Some(LinkState::Linked(f) | LinkState::NeedsPermission(f)) => Some(f.name()),
        Some(LinkState::ReadOnceBefore(name)) => Some(name),
        _ => None,
    };
    let read_once = move || matches!(state(), Some(LinkState::Linked(f)) if f.read_once());
    let (lead, tail, data_state) = {
        let parts = move || match state() {
            None if here.src.get() == Source::Demo => ("Folder: the demo's own", "", "demo"),
            None => ("", "", "none"),
            Some(LinkState::Restoring) => ("Folder: looking for the linked one…", "", "restoring"),
            Some(LinkState::Unlinked) => ("No folder linked", "", "unlinked"),
            Some(LinkState::Linked(f)) if f.read_once() => (
                "Folder:",
                " (read once: read it again after a reload or when its files change)",
                "linked",
            ),
            Some(LinkState::Linked(_)) => ("Folder:", "", "linked"),
            Some(LinkState::NeedsPermission(_)) => (
                "Folder:",
                " — the browser asks again before it is read",
                "permission",
            ),
            Some(LinkState::ReadOnceBefore(_)) => (
                "Folder",
                " was read once before this page loaded: link it again",
                "read-once-before",
            ),
        };
        (move || parts().0, move || parts().1, move || parts().2)
    };
    let can_link = move || {
        matches!(
            state(),
            Some(LinkState::Unlinked | LinkState::ReadOnceBefore(_))
        )
    };
    let linked = move || {
        matches!(
            state(),
            Some(
                LinkState::Linked(_) | LinkState::NeedsPermission(_) | LinkState::ReadOnceBefore(_)
            )
        )
    };
    view! {
        <div class="folder-link" data-state=data_state
            title="The project's working tree, read in this browser only, never sent anywhere">
            <span>{lead} " "<strong class="folder-name" hidden=move || name().is_none()>{move || name().unwrap_or_default()}</strong>{tail}</span>
            <button type="button" class="secondary" hidden=move || !(can_link() && can_pick()) on:click=pick>
                "Link folder"
            </button>
            <label class="folder-input" hidden=move || !(can_link() || read_once())>
                {move || if read_once() { "Read it again" } else { "Read a folder once" }}
                <input type="file" prop:webkitdirectory=true on:change=on_files />
            </label>
            <button type="button" hidden=move || !matches!(state(), Some(LinkState::NeedsPermission(_)))
                on:click=move |_| with_key(FolderLinks::ask_again)>
                "Allow reading"
            </button>
            <button type="button" class="secondary" hidden=move || !linked()
                on:click=move |_| with_key(FolderLinks::unlink)>
                "Unlink"
            </button>
            <span class="error" role="alert" hidden=move || links.trouble.with(Option::is_none)>
                {move || links.trouble.get().unwrap_or_default()}
            </span>
        </div>
    }
}
