//! Agent conformance: per agent its level, how many of its MUST rules were actually tested and
//! its counts, opening to every rule of the seeds for the families it took part in — status,
//! MUST or SHOULD, the rule's id with the seed's own words quoted under it, what broke it or why
//! it could not be tested, the checks that decide it, the seed's section, and the deciding
//! messages linked to the message view (failures first, rules that do not apply last).

use super::panel;
use crate::model::{AgentConformance, Html, RuleRow, TrafficKey};
use crate::routes;
use maud::{html, Markup};

/// The report of `key`'s project (`reading`: the mail is still arriving, no verdict yet).
#[must_use]
pub fn report(agents: &[AgentConformance], key: &TrafficKey, reading: bool) -> Html {
    panel(html! {
        @if reading {
            p.reading role="status" {
                "Still reading the project's mail: conformance is judged on all of it, when it has arrived."
            }
        } @else if agents.is_empty() {
            p.muted { "No agent sent protocol mail in this project." }
        }
        @for a in agents { (agent(a, key)) }
    })
}

/// An agent's line (level, name, MUST rules tested, counts), opening to its rules.
fn agent(a: &AgentConformance, key: &TrafficKey) -> Markup {
    let [fail, warning, untested, pass, none] = a.counts;
    let (tested, applicable) = a.must_tested;
    html! {
        details.agent-conformance data-level=(a.level.as_str()) data-agent=(a.agent) {
            summary {
                span.level { (a.level.as_str()) } " " (a.agent)
                @if a.registered == Some(false) { " (not registered)" }
                " — MUST rules tested " (tested) " of " (applicable) " · " (fail) " fail · "
                (warning) " warning · " (untested) " not tested · " (pass) " pass · " (none) " n/a"
            }
            table.rules { tbody { @for r in &a.rules { (rule(r, key)) } } }
        }
    }
}

/// A rule: status, level, id with the seed's words, details, checks, section, messages.
fn rule(r: &RuleRow, key: &TrafficKey) -> Markup {
    html! {
        tr.rule data-status=(r.status.as_str()) data-rule=(r.id) {
            td.rule-status { (r.status.as_str()) }
            td.rule-level { (r.level.as_str()) }
            td {
                span.rule-id { (r.id) }
                blockquote.seed-words cite=(r.section) { (r.quote) }
                div.rule-details { (r.details.join("\n")) }
                div.rule-checks { (r.checks.join(" · ")) }
            }
            td.seed { (r.section) }
            td.messages {
                @for id in &r.messages {
                    a href=(routes::message(key.src, &key.project, None, *id)) { "#" (id) } " "
                }
                @if r.more > 0 { "+" (r.more) " more" }
            }
        }
    }
}
