//! One Pair session in full: its phase timeline (each message placed on it with the phase
//! after it, invalid ones with their issues, rule breaks with their violation), planner and
//! builder, checkpoints and their decisions, change orders and their outcomes, the contract
//! with its fingerprints and integrity (naming the tampered files), what the session waits
//! for with a live countdown and what happens at each timeout step, and its audit reports.

use super::common::NavBar;
use crate::ask;
use crate::components::audit::AuditReport;
use crate::components::checkpoint::{integrity, label, phase};
use crate::components::fields::Issues;
use crate::components::review::ReviewRecords;
use crate::components::route::{param, Here};
use crate::components::status::Problem;
use crate::components::time::{step_text, Countdown, Time, REFRESH_MS};
use crate::components::traffic::{answer, engine_resource, use_traffic, ProtocolNav, TrafficNote};
use crate::model::{ChangeOrderView, SessionDetail, Step};
use crate::routes;
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
                Some(detail) => detail_view(here, detail, now),
                None => {
                    let text = format!("No Pair session {} in this project's mail.", id.get_untracked());
                    view! { <Problem text /> }.into_any()
                }
            })}
        </section>
    }
}

fn detail_view(here: Here, d: SessionDetail, now: ReadSignal<i64>) -> AnyView {
    let (src, project) = (here.src.get_untracked(), here.project.get_untracked());
    let row = d.row.clone();
    let message_link = {
        let project = project.clone();
        move |id: Option<u64>| {
            id.map(|id| view! { <a href=routes::message(src, &project, None, id)>{format!("message {id}")}</a> })
        }
    };
    let thread_link = row
        .thread_id
        .clone()
        .zip(row.planner.clone())
        .map(|(t, planner)| {
            view! { <a href=routes::thread(src, &project, &planner, &t)>{t.clone()}</a> }
        });
    view! {
        <dl class="meta session-meta">
            <dt>"Task"</dt><dd>{row.task.clone().unwrap_or_else(|| "(no PAIR_INIT seen)".into())}</dd>
            <dt>"Planner"</dt><dd>{row.planner.clone().unwrap_or_else(|| "?".into())}</dd>
            <dt>"Builder"</dt><dd>{row.builder.clone().unwrap_or_else(|| "?".into())}</dd>
            <dt>"Phase"</dt><dd><span class="phase">{phase(row.phase)}</span> " · " <span class="status">{row.status.as_str()}</span></dd>
            <dt>"Thread"</dt><dd>{thread_link}{row.thread_id.is_none().then_some("none")}</dd>
            <dt>"Checkpoint"</dt><dd>{match row.checkpoint {
                Some(c) => view! {
                    <strong class="checkpoint">{format!("{} is open", label(c))}</strong>
                    " · " <a href=routes::project_page(src, &project, "checkpoints")>"decide"</a>
                }.into_any(),
                None => "none open".into_any(),
            }}</dd>
            <dt>"Contract"</dt><dd class="integrity" data-integrity=row.integrity.status.as_str()>
                {integrity(row.integrity.clone())}
            </dd>
        </dl>
        {d.waiting.clone().map(|w| view! {
            <section class="waiting" aria-label="Waiting">
                <h3>"Waiting"</h3>
                <p>
                    {format!("For {} from {} (the response to {}), since ", w.expected, w.from.clone().unwrap_or_else(|| "?".into()), w.response_to)}
                    <Time ms=w.since_ms />
                    ". Deadline " <Time ms=w.deadline_ms /> " (" <Countdown at_ms=w.deadline_ms now /> ")"
                    {(w.warnings_sent > 0).then(|| format!("; {} warning(s) sent", w.warnings_sent))} "."
                </p>
            </section>
        })}
        {(!d.due.is_empty() || row.next.is_some()).then(|| view! {
            <section class="timeouts" aria-label="Timeout steps">
                <h3>"Timeout steps"</h3>
                <ul>
                    {d.due.iter().cloned().map(|s| step_item(s, now, true)).collect_view()}
                    {row.next.clone().map(|s| step_item(s, now, false))}
                </ul>
            </section>
        })}
        <section aria-label="Timeline">
            <h3>"Phase timeline"</h3>
            <ol class="timeline">
                {d.timeline.into_iter().map(|t| {
                    let invalid = !t.issues.is_empty();
                    let broke = t.violation.is_some();
                    let kind = t.message_type.clone().unwrap_or_default();
                    view! {
                        <li class="timeline-item" class:invalid=invalid class:violation=broke
                            data-type=kind>
                            <span class="phase">{phase(t.phase)}</span>
                            " ← " <strong>{t.message_type.clone().unwrap_or_else(|| "(unknown type)".into())}</strong>
                            " from " {t.from.clone().unwrap_or_else(|| "?".into())}
                            {t.at_ms.map(|ms| view! { " · " <Time ms /> })}
                            " · " {message_link(t.id)}
                            {invalid.then(|| view! { <p class="flag">"Invalid:"</p> })}
                            <Issues issues=t.issues />
                            {t.violation.map(|v| view! {
                                <p class="violation-note"><span class="code">{v.code.as_str()}</span> " " {v.message}</p>
                            })}
                        </li>
                    }
                }).collect_view()}
            </ol>
        </section>
        <section aria-label="Checkpoints">
            <h3>"Checkpoints"</h3>
            {d.checkpoints.is_empty().then(|| view! { <p class="muted">"None opened yet."</p> })}
            <ul class="checkpoint-history">
                {d.checkpoints.into_iter().map(|c| view! {
                    <li>
                        {format!("{} ", label(c.checkpoint))}
                        {c.opened_at_ms.map(|ms| view! { "opened " <Time ms /> })}
                        {match c.decision {
                            Some(decision) => view! {
                                " · " <strong class="decision">{decision.keyword()}</strong>
                                {c.text.map(|t| view! { ": " <span class="text">{t}</span> })}
                                {c.closed_at_ms.map(|ms| view! { " · " <Time ms /> })}
                            }.into_any(),
                            None => view! { " · " <strong class="open">"open"</strong> }.into_any(),
                        }}
                    </li>
                }).collect_view()}
            </ul>
        </section>
        <ReviewRecords here session=row.id.clone() />
        <section aria-label="Change orders">
            <h3>"Change orders"</h3>
            {d.change_orders.is_empty().then(|| view! { <p class="muted">"None."</p> })}
            {d.change_orders.into_iter().map(change_order).collect_view()}
        </section>
        {d.contract.map(|c| view! {
            <section aria-label="Contract">
                <h3>{format!("Contract (revision {})", c.revision)}</h3>
                <dl class="meta">
                    <dt>"Spec"</dt><dd><code>{c.spec.unwrap_or_default()}</code></dd>
                    <dt>"Tests"</dt><dd><code>{c.tests.unwrap_or_default()}</code></dd>
                </dl>
                {(!c.fingerprints.is_empty()).then(|| view! {
                    <table class="fingerprints">
                        <thead><tr><th scope="col">"Fingerprinted file"</th><th scope="col">"Digest"</th></tr></thead>
                        <tbody>{c.fingerprints.into_iter().map(|(path, digest)| view! {
                            <tr><th scope="row"><code>{path}</code></th><td><code>{digest}</code></td></tr>
                        }).collect_view()}</tbody>
                    </table>
                })}
                <ul class="integrity-changes">
                    {d.integrity_changes.into_iter().map(|c| view! { <li class="flag">{c}</li> }).collect_view()}
                </ul>
            </section>
        })}
        <section aria-label="Audit reports">
            <h3>"Audit reports"</h3>
            {d.audits.is_empty().then(|| view! { <p class="muted">"None in the mail."</p> })}
            {d.audits.into_iter().map(|card| view! {
                <AuditReport card src project=project.clone() />
            }).collect_view()}
        </section>
        {(!d.violations.is_empty()).then(|| view! {
            <section aria-label="Violations">
                <h3>"Violations"</h3>
                <ul class="violations">
                    {d.violations.into_iter().map(|v| view! {
                        <li><span class="code">{v.code.as_str()}</span> " " {v.message}</li>
                    }).collect_view()}
                </ul>
            </section>
        })}
    }
    .into_any()
}

fn step_item(step: Step, now: ReadSignal<i64>, due: bool) -> impl IntoView {
    view! {
        <li class="step" class:due=due>
            <strong>{step_text(&step.action, step.warning, step.from.as_deref()).trim_start_matches("then ").to_string()}</strong>
            {step.to.map(|t| format!(" to {t}"))} " · " <Time ms=step.at_ms /> " (" <Countdown at_ms=step.at_ms now /> ")"
            {step.message.map(|m| view! {
                <details><summary>"The message it sends"</summary><pre class="raw">{m}</pre></details>
            })}
        </li>
    }
}

/// A change order with its evidence, attempted fixes and outcome.
pub fn change_order(order: ChangeOrderView) -> impl IntoView {
    let outcome = order.outcome.as_str();
    view! {
        <article class="change-order" data-outcome=outcome>
            <p>
                <strong class="failure-mode">{order.failure_mode}</strong> " · "
                <span class="outcome">{outcome}</span>
                {order.requested_at_ms.map(|ms| view! { " · " <Time ms /> })}
                {order.revision.map(|r| format!(" · contract revision {r}"))}
            </p>
            <dl class="meta">
                <dt>"Evidence"</dt><dd class="evidence">{order.evidence}</dd>
                <dt>"Attempted fixes"</dt>
                <dd><ul class="attempted">{order.attempted_fixes.into_iter().map(|f| view! { <li>{f}</li> }).collect_view()}</ul></dd>
                <dt>"Requested changes"</dt><dd class="requested">{order.requested_changes}</dd>
                {order.reasoning.map(|r| view! { <dt>"Reasoning"</dt><dd>{r}</dd> })}
                {order.strategy.map(|s| view! { <dt>"Suggested strategy"</dt><dd>{s}</dd> })}
            </dl>
        </article>
    }
}
