//! The project's linked folder as the views see it: the links of this page by server and
//! project ([`FolderLinks`], restored from what the browser kept), the linked folder of a
//! project ([`linked_folder`]) and the folder the evidence views read ([`of_project`]),
//! and the control in the project's header that links a folder, asks for the browser's
//! permission again, and unlinks ([`FolderLink`]).
//!
//! The demo has no link: its sessions read the demo's own virtual folder.

use crate::components::route::Here;
use crate::folder::linked::{can_pick, LinkedFolder};
use crate::folder::links::{FolderKey, FolderLinks, LinkState};
use crate::folder::{DemoFolder, Folder};
use crate::link::EngineLink;
use crate::routes::Source;
use crate::session::Session;
use leptos::prelude::*;
use leptos::task::spawn_local;

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

/// The folder of a project the evidence views read: the demo's virtual folder for a demo
/// project; `None` while no folder is linked.
#[must_use]
pub fn of_project(src: Source, project: &str, link: EngineLink) -> Option<Folder> {
    match src {
        Source::Demo => Some(Folder::Demo(DemoFolder {
            link,
            project: project.to_owned(),
        })),
        Source::Live => linked_folder(project).map(Folder::Linked),
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
