//! Agent conformance: does each agent of the project follow the protocols? Per agent its
//! level, how many of its MUST rules were actually tested, and every rule of the seeds for the
//! families it took part in: the rule's stable id, MUST or SHOULD, the seed's section and own
//! words, its status (a rule that could not be decided says `not tested` and why, never
//! `pass`) and the messages that decide it (linked to the message view); failing agents and
//! rules first, rules that do not apply last. Computed in the engine by the core's
//! conformance report over the project's traffic, with the server's registered agents.

use super::common::NavBar;
use crate::ask::Conformance;
use crate::components::html::EngineHtml;
use crate::components::route::Here;
use crate::components::traffic::{answer, engine_resource, use_traffic, ProtocolNav, TrafficNote};
use leptos::prelude::*;

/// The agent conformance view (as the engine writes it: `engine::html::conformance`).
#[component]
pub fn ConformanceView() -> impl IntoView {
    let here = Here::new();
    let (key, state) = use_traffic(here);
    let data = engine_resource(here, state, move || Conformance {
        key: key.get(),
        reveal: here.session.reveal.get(),
    });
    view! {
        <NavBar />
        <section class="conformance" aria-labelledby="conformance-title">
            <h2 id="conformance-title">{move || format!("Agent conformance in {}", here.project.get())}</h2>
            <ProtocolNav here current="conformance" />
            <TrafficNote state />
            {answer(data, move |html| view! { <EngineHtml html /> }.into_any())}
        </section>
    }
}
