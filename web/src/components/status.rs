//! Loading and failure states.

use leptos::prelude::*;

/// "Loading…", in a live region.
#[component]
pub fn Loading() -> impl IntoView {
    view! { <p class="loading" role="status">"Loading…"</p> }
}

/// A failure that is no backend error (the engine's), as an alert.
#[component]
pub fn Problem(
    /// What went wrong.
    text: String,
) -> impl IntoView {
    view! { <div class="error" role="alert"><p>{text}</p></div> }
}
