//! The open checkpoints of every loaded project, watched: the tab title carries their
//! number (`(3) Switchboard`), and a reviewer who allowed it gets a desktop notification
//! when a new one opens (not for those already open when a project is first read).

use crate::api::OpenCheckpoint;
use crate::model::TrafficKey;
use crate::session::Session;
use leptos::prelude::*;

/// The tab title for `open` checkpoints.
#[must_use]
pub fn title(open: usize) -> String {
    match open {
        0 => "Switchboard".to_string(),
        n => format!("({n}) Switchboard"),
    }
}

/// The projects loaded and the checkpoints open at the last look.
type Seen = (Vec<TrafficKey>, Vec<(TrafficKey, OpenCheckpoint)>);

/// Starts watching (for the app's lifetime).
pub fn watch_checkpoints(session: Session) {
    let seen: StoredValue<Option<Seen>> = StoredValue::new(None);
    Effect::new(move |_| {
        let open = session.traffic.open_checkpoints();
        let keys = session.traffic.ready_keys();
        document().set_title(&title(open.len()));
        let fresh: Vec<(TrafficKey, OpenCheckpoint)> = seen.with_value(|before| match before {
            Some((known_keys, known)) => open
                .iter()
                .filter(|item| known_keys.contains(&item.0) && !known.contains(item))
                .cloned()
                .collect(),
            None => Vec::new(),
        });
        seen.set_value(Some((keys, open)));
        if session.notify.get_untracked() {
            for (key, checkpoint) in fresh {
                notify(&key, &checkpoint);
            }
        }
    });
}

fn notify(key: &TrafficKey, open: &OpenCheckpoint) {
    let options = web_sys::NotificationOptions::new();
    options.set_body(&format!(
        "Session {} in {} waits for checkpoint #{} ({}).",
        open.session,
        key.project,
        open.checkpoint.number(),
        crate::words::title(open.checkpoint)
    ));
    options.set_tag(&format!("{}:{}:{}", key.project, open.session, open.entry));
    let _ = web_sys::Notification::new_with_options("Checkpoint open", &options);
}

/// Whether the browser lets this page notify.
#[must_use]
pub fn notifications_allowed() -> bool {
    notifications_supported()
        && web_sys::Notification::permission() == web_sys::NotificationPermission::Granted
}

/// Whether the browser has notifications at all.
#[must_use]
pub fn notifications_supported() -> bool {
    js_sys::Reflect::has(&window(), &wasm_bindgen::JsValue::from_str("Notification"))
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_title_counts_open_checkpoints() {
        assert_eq!(super::title(0), "Switchboard");
        assert_eq!(super::title(3), "(3) Switchboard");
    }
}
