//! A contract's integrity as the views show it (the names of phases and checkpoints are
//! [`crate::words`]').

use crate::model::IntegrityView;
use leptos::prelude::*;
use switchboard_core::session::pair::IntegrityStatus;

/// A contract's integrity: `tampered:` flagged with the files, else its status.
pub fn integrity(integrity: IntegrityView) -> AnyView {
    match integrity.status {
        IntegrityStatus::Tampered => view! {
            <strong class="flag">"tampered: "</strong> <code>{integrity.files.join(", ")}</code>
        }
        .into_any(),
        status => status.as_str().into_any(),
    }
}
