//! How the views name a Pair session's phase and human checkpoint and show a contract's
//! integrity.

use crate::model::IntegrityView;
use leptos::prelude::*;
use switchboard_core::protocol::registry::families::pair::Phase;
use switchboard_core::session::pair::checkpoint::Checkpoint;
use switchboard_core::session::pair::IntegrityStatus;

/// A phase as the seed names it (`-`: none yet).
#[must_use]
pub fn phase(phase: Option<Phase>) -> &'static str {
    phase.map_or("-", Phase::as_str)
}

/// `Contract review`, `Implementation review`, `Change-order review`.
#[must_use]
pub const fn title(checkpoint: Checkpoint) -> &'static str {
    match checkpoint {
        Checkpoint::ContractReview => "Contract review",
        Checkpoint::ImplementationReview => "Implementation review",
        Checkpoint::ChangeOrderReview => "Change-order review",
    }
}

/// `#1 Contract review`.
#[must_use]
pub fn label(checkpoint: Checkpoint) -> String {
    format!("#{} {}", checkpoint.number(), title(checkpoint))
}

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
