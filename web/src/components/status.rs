//! Loading and failure states.

use crate::api::BackendError;
use crate::routes;
use leptos::prelude::*;
use leptos_router::hooks::use_location;

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

/// An error, with a way back to the connect screen when not connected.
#[component]
pub fn ErrorNote(error: BackendError) -> impl IntoView {
    let reconnect = matches!(
        error,
        BackendError::NotConnected
            | BackendError::TokenRequired { .. }
            | BackendError::Unauthorized { .. }
    );
    // Back to this page once connected (a reload loses an unremembered connection).
    let location = use_location();
    let here = format!(
        "{}{}",
        location.pathname.get_untracked(),
        location.search.get_untracked()
    );
    let connect = if routes::is_live_page(&here) {
        routes::connect_then(&here)
    } else {
        "/".to_string()
    };
    view! {
        <div class="error" role="alert">
            <p>{error.to_string()}</p>
            {reconnect.then(|| view! { <p><a href=connect>"Go to the connect screen"</a></p> })}
        </div>
    }
}
