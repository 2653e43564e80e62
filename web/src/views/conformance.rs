//! Agent conformance: does each agent of the project follow the protocols? Per agent its
//! level (fail, warning, pass) and every check of the families it sent, with the check's
//! stable id, seed section, status and the messages that decide it (linked to the message
//! view); failing agents and failing checks first, checks that do not apply last.
//! Computed in the engine by the core's conformance report over the project's traffic, with
//! the server's registered agents (`any.registered-agent`, INVALID_AGENT).

use super::common::NavBar;
use crate::ask::Conformance;
use crate::components::route::Here;
use crate::components::traffic::{answer, engine_resource, use_traffic, ProtocolNav, TrafficNote};
use crate::model::{AgentConformance, CheckRow};
use crate::routes::{self, Source};
use leptos::prelude::*;

/// The agent conformance view.
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
            {answer(data, move |report| {
                let (src, project) = (here.src.get_untracked(), here.project.get_untracked());
                report_view(report, src, &project)
            })}
        </section>
    }
}

fn report_view(agents: Vec<AgentConformance>, src: Source, project: &str) -> AnyView {
    agents
        .into_iter()
        .map(|a| agent_view(a, src, project))
        .collect_view()
        .into_any()
}

/// An agent's level, then its checks (failures first, those that do not apply last).
fn agent_view(a: AgentConformance, src: Source, project: &str) -> impl IntoView {
    let [fail, warning, pass, none] = a.counts;
    let head = format!(
        "{}{} — {fail} fail · {warning} warning · {pass} pass · {none} n/a",
        a.agent,
        if a.registered == Some(false) {
            " (not registered)"
        } else {
            ""
        },
    );
    view! {
        <details class="agent-conformance" data-level=a.level.as_str() data-agent=a.agent>
            <summary><span class="level">{a.level.as_str()}</span> " " {head}</summary>
            <table class="checks">
                <tbody>{a.checks.into_iter().map(|c| check_row(c, src, project)).collect_view()}</tbody>
            </table>
        </details>
    }
}

fn check_row(c: CheckRow, src: Source, project: &str) -> impl IntoView {
    let details = c.details.join("\n");
    let links = c
        .messages
        .into_iter()
        .map(|id| view! { <a href=routes::message(src, project, None, id)>{format!("#{id}")}</a> " " })
        .collect_view();
    let more = (c.more > 0).then(|| format!("+{} more", c.more));
    let id = c.id.clone();
    view! {
        <tr class="check" data-status=c.status.as_str() data-check=id>
            <td class="check-status">{c.status.as_str()}</td>
            <td><span class="check-id">{c.id}</span> " " {c.title}
                <div class="check-details">{details}</div></td>
            <td class="seed">{c.seed}</td>
            <td class="messages">{links}{more}</td>
        </tr>
    }
}
