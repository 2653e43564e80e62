//! Decisions typed for checkpoints that are no longer open (decided elsewhere, timed out, or
//! opened again by a newer message): kept in this browser until discarded, each with what
//! became of its checkpoint (written by the engine: `ask::KeptDrafts`), so a card that closes
//! while the reviewer types loses nothing.

use crate::ask;
use crate::components::drafts::{forget, kept};
use crate::components::html::EngineHtml;
use crate::components::route::Here;
use crate::components::traffic::{answer, engine_call};
use crate::model::TrafficKey;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// The drafts kept for the project's checkpoints no longer open (`server`: the drafts' names'
/// server part), each with a Discard button.
pub fn kept_drafts(here: Here, key: TrafficKey, server: String) -> impl IntoView {
    let discarded = RwSignal::new(0_u32);
    let data = engine_call(here, move || {
        discarded.track();
        let drafts = kept(&server, &key.project);
        Some(ask::KeptDrafts {
            key: key.clone(),
            drafts,
        })
    });
    // One handler for every Discard button the engine wrote.
    let discard = move |ev: leptos::ev::MouseEvent| {
        let name = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|el| el.closest("[data-discard]").ok().flatten())
            .and_then(|el| el.get_attribute("data-discard"));
        if let Some(name) = name {
            forget(&name);
            discarded.update(|n| *n += 1);
        }
    };
    view! { <div on:click=discard>{answer(data, |html| view! { <EngineHtml html /> }.into_any())}</div> }
}
