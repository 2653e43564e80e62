//! The task boards: Agent-PO tasks with plan revisions and fix retries against their limits
//! and each GO / NEXT gate's problems (blocked tasks first and highlighted); Agent Mail
//! (droid) tasks by status with progress, error reports by severity
//! (`needs_human_intervention` first) and reservation conflicts; Pair Claude permission
//! requests (approved, denied, timed out) and code reviews (pass, fail); and per agent the
//! acknowledgement debt (as the engine writes them: `engine::html::boards`).

use super::common::NavBar;
use crate::ask::TaskBoards;
use crate::components::html::EngineHtml;
use crate::components::route::Here;
use crate::components::time::REFRESH_MS;
use crate::components::traffic::{answer, engine_resource, use_traffic, ProtocolNav, TrafficNote};
use crate::routes::{self, Source};
use leptos::prelude::*;

/// The task boards view.
#[component]
pub fn TasksView() -> impl IntoView {
    let here = Here::new();
    let (key, state) = use_traffic(here);
    let now = here.clock();
    let data = engine_resource(here, state, move || TaskBoards {
        key: key.get(),
        now_ms: now.get() / REFRESH_MS * REFRESH_MS,
        reveal: here.session.reveal.get(),
    });
    view! {
        <NavBar />
        <section class="tasks" aria-labelledby="tasks-title">
            <h2 id="tasks-title">{move || format!("Task boards of {}", here.project.get())}</h2>
            <ProtocolNav here current="tasks" />
            {move || (here.src.get() == Source::Demo).then(|| view! {
                <p class="muted">"The demo's boards: "
                    <a href=routes::project_page(Source::Demo, "po-factory", "tasks")>"po-factory (Agent-PO)"</a> " · "
                    <a href=routes::project_page(Source::Demo, "droid-fleet", "tasks")>"droid-fleet (droid tasks)"</a> " · "
                    <a href=routes::project_page(Source::Demo, "pair-lab", "tasks")>"pair-lab (Pair Claude)"</a>
                </p>
            })}
            <TrafficNote state />
            {answer(data, move |html| view! { <EngineHtml html now /> }.into_any())}
        </section>
    }
}
