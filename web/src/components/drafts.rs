//! What a reviewer typed at a checkpoint, kept in this browser's localStorage until it is
//! sent or discarded — one decision text (and override reason) per checkpoint, named by the
//! server, project, session and the message that opened the checkpoint — so a reload, a link
//! followed or a card that closes loses no typed word. Also the reviewer's name, set once.

use crate::routes::Source;

const PREFIX: &str = "switchboard.draft|";
const REVIEWER: &str = "switchboard.reviewer";

/// This browser's localStorage (none outside a browser, or when it is disabled).
#[must_use]
pub fn local_storage() -> Option<web_sys::Storage> {
    if cfg!(target_arch = "wasm32") {
        web_sys::window()?.local_storage().ok()?
    } else {
        None
    }
}

/// Which checkpoint a draft is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DraftKey {
    /// The server (its MCP endpoint; `demo` for the demo).
    pub server: String,
    /// The project.
    pub project: String,
    /// The session.
    pub session: String,
    /// The checkpoint's number.
    pub checkpoint: u8,
    /// The message that opened it.
    pub opened: u64,
}

impl DraftKey {
    /// The draft's name in storage (`|`-separated, each part percent-encoded).
    #[must_use]
    pub fn name(&self) -> String {
        use crate::percent::encode;
        format!(
            "{PREFIX}{}|{}|{}|{}|{}",
            encode(&self.server),
            encode(&self.project),
            encode(&self.session),
            self.checkpoint,
            self.opened
        )
    }
}

/// The text kept for the draft `name` ([`DraftKey::name`]) in `field` ([`DECISION`],
/// [`REASON`]; empty: none).
#[must_use]
pub fn load(name: &str, field: &str) -> String {
    local_storage()
        .and_then(|s| s.get_item(&format!("{name}|{field}")).ok()?)
        .unwrap_or_default()
}

/// Keeps `text` for the draft `name` in `field` (empty: forgets it). Full storage loses only
/// the copy.
pub fn save(name: &str, field: &str, text: &str) {
    if let Some(storage) = local_storage() {
        let item = format!("{name}|{field}");
        let _ = if text.is_empty() {
            storage.remove_item(&item)
        } else {
            storage.set_item(&item, text)
        };
    }
}

/// Forgets the draft named `name` ([`DraftKey::name`]): sent, or discarded.
pub fn forget(name: &str) {
    for field in [DECISION, REASON] {
        save(name, field, "");
    }
}

/// The field of a decision's text.
pub const DECISION: &str = "decision";
/// The field of an override's reason.
pub const REASON: &str = "reason";

/// The server part of a draft's key.
#[must_use]
pub fn server_of(src: Source, endpoint: &str) -> String {
    match src {
        Source::Demo => "demo".to_owned(),
        Source::Live => endpoint.to_owned(),
    }
}

/// Every decision kept for `server` and `project`: its name ([`DraftKey::name`]) and text.
/// The engine reads the names (`engine::trail::kept`).
#[must_use]
pub fn kept(server: &str, project: &str) -> Vec<(String, String)> {
    let Some(storage) = local_storage() else {
        return Vec::new();
    };
    let start = DraftKey {
        server: server.to_owned(),
        project: project.to_owned(),
        session: String::new(),
        checkpoint: 0,
        opened: 0,
    }
    .name();
    // The name up to the session: `switchboard.draft|server|project|`.
    let prefix = &start[..start.len() - "|0|0".len()];
    let suffix = format!("|{DECISION}");
    (0..storage.length().unwrap_or(0))
        .filter_map(|i| storage.key(i).ok()?)
        .filter(|name| name.starts_with(prefix) && name.ends_with(&suffix))
        .filter_map(|name| {
            let text = storage.get_item(&name).ok()??;
            Some((name[..name.len() - suffix.len()].to_owned(), text))
        })
        .collect()
}

/// The reviewer's name, as set in this browser (empty: not yet).
#[must_use]
pub fn reviewer() -> String {
    local_storage()
        .and_then(|s| s.get_item(REVIEWER).ok()?)
        .unwrap_or_default()
}

/// Keeps the reviewer's name.
pub fn set_reviewer(name: &str) {
    if let Some(storage) = local_storage() {
        let _ = storage.set_item(REVIEWER, name.trim());
    }
}
