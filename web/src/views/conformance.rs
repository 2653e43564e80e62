//! Agent conformance: does each agent of the project follow the protocols? Per agent its
//! level, how many of its MUST rules were actually tested, and every rule of the seeds for the
//! families it took part in: the rule's stable id, MUST or SHOULD, the seed's section and own
//! words, its status (a rule that could not be decided says `not tested` and why, never
//! `pass`) and the messages that decide it (linked to the message view); failing agents and
//! rules first, rules that do not apply last. Computed in the engine by the core's
//! conformance report over the project's traffic, with the server's registered agents.

use super::common::NavBar;
use crate::ask::Conformance;
use crate::components::route::Here;
use crate::components::traffic::{answer, engine_resource, use_traffic, ProtocolNav, TrafficNote};
use crate::model::{AgentConformance, RuleRow};
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

/// An agent's level and tally, then its rules (failures first, those that do not apply last).
fn agent_view(a: AgentConformance, src: Source, project: &str) -> impl IntoView {
    let [fail, warning, untested, pass, none] = a.counts;
    let (tested, applicable) = a.must_tested;
    let head = format!(
        "{}{} — MUST rules tested {tested} of {applicable} · {fail} fail · {warning} warning · {untested} not tested · {pass} pass · {none} n/a",
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
            <table class="rules">
                <tbody>{a.rules.into_iter().map(|r| rule_row(r, src, project)).collect_view()}</tbody>
            </table>
        </details>
    }
}

/// A rule: its status and level, its id with the seed's own words (the section it comes
/// from), what broke it or why it could not be tested, the checks that decide it, and the
/// messages.
fn rule_row(r: RuleRow, src: Source, project: &str) -> impl IntoView {
    let details = r.details.join("\n");
    let links = r
        .messages
        .into_iter()
        .map(|id| view! { <a href=routes::message(src, project, None, id)>{format!("#{id}")}</a> " " })
        .collect_view();
    let more = (r.more > 0).then(|| format!("+{} more", r.more));
    let id = r.id.clone();
    view! {
        <tr class="rule" data-status=r.status.as_str() data-rule=id>
            <td class="rule-status">{r.status.as_str()}</td>
            <td class="rule-level">{r.level.as_str()}</td>
            <td><span class="rule-id">{r.id}</span>
                <blockquote class="seed-words" cite=r.section.clone()>{r.quote}</blockquote>
                <div class="rule-details">{details}</div>
                <div class="rule-checks">{r.checks.join(" · ")}</div></td>
            <td class="seed">{r.section}</td>
            <td class="messages">{links}{more}</td>
        </tr>
    }
}
