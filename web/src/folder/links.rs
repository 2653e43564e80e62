//! The project folders linked in this page, by server and project: each link's state
//! ([`LinkState`]: restoring what the browser kept, linked, waiting for the browser's
//! permission again, read once before this page, or unlinked), and linking, asking again and
//! unlinking, with the link kept in IndexedDB. Provided with the `Session`; the project
//! header (`components::folder`) shows and changes it.

use super::linked::{kept, LinkedFolder, Permission};
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
    /// read once by name). The header shows it linked once the browser has kept the link (a
    /// few milliseconds; at once if it cannot): shown at the pick, a reload straight after
    /// could lose it.
    pub fn link(&self, key: &FolderKey, folder: LinkedFolder) {
        self.trouble.set(None);
        let (links, key) = (*self, key.clone());
        spawn_local(async move {
            if let Err(why) = kept::keep(&key.server, &key.project, &folder).await {
                links.trouble.try_set(Some(format!(
                    "Linked for this page only: the browser did not keep the link ({why})."
                )));
            }
            links.set(&key, LinkState::Linked(folder));
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

    /// Unlinks the project's folder and forgets the kept link. The header shows it unlinked
    /// once the browser has forgotten the link (a few milliseconds): shown at the click, a
    /// reload straight after could bring the link back.
    pub fn unlink(&self, key: &FolderKey) {
        self.trouble.set(None);
        let (links, key) = (*self, key.clone());
        spawn_local(async move {
            if let Err(why) = kept::forget(&key.server, &key.project).await {
                links.trouble.try_set(Some(format!(
                    "Unlinked for this page, but the browser still keeps the link ({why})."
                )));
            }
            links.set(&key, LinkState::Unlinked);
        });
    }
}

fn find(states: &[(FolderKey, LinkState)], key: &FolderKey) -> Option<LinkState> {
    states
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, s)| s.clone())
}
