//! One module per screen of the console; [`common`] holds what they share.

pub mod agents;
pub mod audits;
pub mod checkpoints;
pub mod common;
pub mod compose;
pub mod conformance;
pub mod connect;
pub mod contacts;
pub mod mailbox;
pub mod message;
pub mod operator;
pub mod projects;
pub mod queue;
pub mod reservations;
pub mod search;
pub mod session;
pub mod sessions;
pub mod tasks;
pub mod thread;

use leptos::prelude::*;
use leptos_router::components::Redirect;

/// The demo's short URLs (`/demo/sessions`, …): the project where that view is populated.
#[component]
pub fn DemoShort(
    /// `sessions`, `checkpoints`, `audits` or `tasks`.
    page: &'static str,
) -> impl IntoView {
    use crate::routes::{demo_project_of, project_page, Source};
    let path = project_page(Source::Demo, demo_project_of(page), page);
    view! { <Redirect path /> }
}
