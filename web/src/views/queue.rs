//! The server's queue: every open human checkpoint across the server's projects, the oldest
//! first, each with its countdown (as the engine writes it: `engine::html::queue`). Opening
//! it reads every project's traffic, kept up to date while it is open, so the tab title's
//! count and the notifications (`components::watch`) cover the whole server.

use super::common::NavBar;
use crate::ask;
use crate::components::html::EngineHtml;
use crate::components::load::from_backend;
use crate::components::route::Here;
use crate::components::status::ErrorNote;
use crate::components::time::REFRESH_MS;
use crate::components::traffic::{answer, engine_call, keep_reading};
use crate::model::TrafficKey;
use crate::store::TrafficState;
use leptos::prelude::*;

/// The queue view.
#[component]
pub fn QueueView() -> impl IntoView {
    let here = Here::new();
    let session = here.session;
    let projects = from_backend(here, |backend| async move { backend.projects().await });
    let keys = Memo::new(move |_| match projects.get() {
        Some(Some(Ok(list))) => list
            .iter()
            .map(|p| TrafficKey {
                src: here.src.get(),
                project: p.slug.clone(),
            })
            .collect(),
        _ => Vec::new(),
    });
    keep_reading(here, move || keys.get());
    // What the engine holds of each project: asked again when a project takes a page.
    let generations = Memo::new(move |_| {
        keys.get()
            .iter()
            .map(|key| match session.traffic.state(key) {
                Some(TrafficState::Ready {
                    generation,
                    reading,
                    ..
                }) => Some((generation, reading.is_none())),
                _ => None,
            })
            .collect::<Vec<_>>()
    });
    let now = here.clock();
    let data = engine_call(here, move || {
        let held = generations.with(|g| g.iter().any(Option::is_some));
        held.then(|| ask::Queue {
            keys: keys.get(),
            now_ms: now.get() / REFRESH_MS * REFRESH_MS,
            reveal: session.reveal.get(),
        })
    });
    let read = move || {
        let (all, whole) = generations.with(|g| {
            let whole = g
                .iter()
                .filter(|s| s.is_some_and(|(_, whole)| whole))
                .count();
            (g.len(), whole)
        });
        // Why the last ask for newer mail failed, in the first project where it did.
        match keys.with(|k| k.iter().find_map(|key| session.traffic.poll_failed(key))) {
            Some(words) => {
                format!("{whole} of {all} project(s) read in full. {words}")
            }
            None => {
                format!("{whole} of {all} project(s) read in full; new mail is read as it arrives.")
            }
        }
    };
    view! {
        <NavBar />
        <section class="queue-view" aria-labelledby="queue-title">
            <h2 id="queue-title">"Open checkpoints on this server"</h2>
            {move || match projects.get() {
                Some(Some(Err(error))) => view! { <ErrorNote error /> }.into_any(),
                Some(Some(Ok(_))) => view! { <p class="muted read">{read}</p> }.into_any(),
                _ => view! { <p class="loading">"Loading…"</p> }.into_any(),
            }}
            {answer(data, move |html| view! { <EngineHtml html now /> }.into_any())}
        </section>
    }
}
