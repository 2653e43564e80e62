//! One Pair session in full: its phase timeline (each message placed on it with the phase
//! after it, invalid ones with their issues, rule breaks with their violation), planner and
//! builder, checkpoints and their decisions, change orders and their outcomes, the contract
//! with its fingerprints and integrity (naming the tampered files), what the session waits
//! for with a live countdown and what happens at each timeout step, and its audit reports
//! (as the engine writes them: `engine::html::session`); the session's review trail, kept in
//! the project's mail, between them.

use super::common::NavBar;
use crate::ask;
use crate::components::html::EngineHtml;
use crate::components::review::ReviewRecords;
use crate::components::route::{param, Here};
use crate::components::status::Problem;
use crate::components::time::REFRESH_MS;
use crate::components::traffic::{answer, engine_resource, use_traffic, ProtocolNav, TrafficNote};
use leptos::prelude::*;

/// The session view.
#[component]
pub fn SessionView() -> impl IntoView {
    let here = Here::new();
    let id = param("session");
    let (key, state) = use_traffic(here);
    let now = here.clock();
    let data = engine_resource(here, state, move || ask::Session {
        key: key.get(),
        id: id.get(),
        now_ms: now.get() / REFRESH_MS * REFRESH_MS,
        reveal: here.session.reveal.get(),
    });
    view! {
        <NavBar />
        <section class="session" aria-labelledby="session-title">
            <h2 id="session-title">{move || format!("Session {}", id.get())}</h2>
            <ProtocolNav here current="sessions" />
            <TrafficNote state />
            {answer(data, move |detail| match detail {
                Some(page) => view! {
                    <EngineHtml html=page.upper now />
                    <ReviewRecords here key=key.get_untracked() state session=id.get_untracked() />
                    <EngineHtml html=page.lower />
                }.into_any(),
                None => {
                    let text = format!("No Pair session {} in this project's mail.", id.get_untracked());
                    view! { <Problem text /> }.into_any()
                }
            })}
        </section>
    }
}
