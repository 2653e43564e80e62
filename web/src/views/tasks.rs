//! The task boards: Agent-PO tasks with plan revisions and fix retries against their limits
//! and each GO / NEXT gate's problems (blocked tasks first and highlighted); Agent Mail
//! (droid) tasks by status with progress, error reports by severity
//! (`needs_human_intervention` first) and reservation conflicts; Pair Claude permission
//! requests (approved, denied, timed out) and code reviews (pass, fail); and per agent the
//! acknowledgement debt.

use super::common::NavBar;
use crate::ask::TaskBoards;
use crate::components::route::Here;
use crate::components::time::{span, step_text, Countdown, Time, REFRESH_MS};
use crate::components::traffic::{answer, engine_resource, use_traffic, ProtocolNav, TrafficNote};
use crate::model::{Boards, PoTaskView, RequestView};
use crate::routes::{self, Source};
use leptos::prelude::*;
use switchboard_core::session::agent_po::Status as TaskState;

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
            {answer(data, move |boards| boards_view(boards, now))}
        </section>
    }
}

fn boards_view(b: Boards, now: ReadSignal<i64>) -> AnyView {
    let empty = b.agent_po.is_empty()
        && b.droid.is_empty()
        && b.permissions.is_empty()
        && b.reviews.is_empty();
    view! {
        {empty.then(|| view! { <p class="muted">"No Agent-PO, droid or Pair Claude traffic in this project."</p> })}
        {(!b.agent_po.is_empty()).then(|| view! {
            <section aria-label="Agent-PO tasks">
                <h3>"Agent-PO tasks"</h3>
                <table class="po-tasks">
                    <thead><tr>
                        <th scope="col">"Task"</th><th scope="col">"Status"</th>
                        <th scope="col">"Plan revisions"</th><th scope="col">"Fix retries"</th>
                        <th scope="col">"Gates"</th><th scope="col">"Next"</th>
                    </tr></thead>
                    <tbody>{b.agent_po.into_iter().map(|t| po_row(t, now)).collect_view()}</tbody>
                </table>
            </section>
        })}
        {(!b.droid.is_empty()).then(|| view! {
            <section aria-label="Agent Mail tasks">
                <h3>"Agent Mail tasks by status"</h3>
                <div class="columns">
                    {b.droid.into_iter().map(|col| view! {
                        <div class="column" data-status=col.status.as_str()>
                            <h4>{format!("{} ({})", col.status.as_str().replace('_', " "), col.tasks.len())}</h4>
                            <ul>
                                {col.tasks.into_iter().map(|t| { let id = t.task_id.clone(); view! {
                                    <li class="droid-task" class:overdue=t.overdue data-task=id>
                                        <strong>{t.task_id}</strong>
                                        {t.priority.map(|p| view! { " " <span class="priority">{p}</span> })}
                                        {t.description.map(|d| view! { <div>{d}</div> })}
                                        {t.percentage.map(|p| view! { <progress max="100" value=p></progress> {format!(" {p:.0}%")} })}
                                        {t.summary.map(|s| view! { <div class="muted">{s}</div> })}
                                        {(!t.assignees.is_empty()).then(|| view! { <div class="muted">{format!("assigned to {}", t.assignees.join(", "))}</div> })}
                                        {(!t.waiting_on.is_empty()).then(|| view! { <div>{format!("waiting on {}", t.waiting_on.join(", "))}</div> })}
                                        {(!t.blockers.is_empty()).then(|| view! { <div class="flag">{format!("blockers: {}", t.blockers.join("; "))}</div> })}
                                        {t.overdue.then(|| view! { <div class="flag">"overdue"</div> })}
                                        {(t.errors > 0).then(|| view! { <div class="flag">{format!("{} error report(s)", t.errors)}</div> })}
                                    </li>
                                }}).collect_view()}
                            </ul>
                        </div>
                    }).collect_view()}
                </div>
            </section>
        })}
        {(!b.errors.is_empty()).then(|| view! {
            <section aria-label="Error reports">
                <h3>"Error reports"</h3>
                <table class="errors">
                    <thead><tr><th scope="col">"Task"</th><th scope="col">"Severity"</th><th scope="col">"Code"</th><th scope="col">"Message"</th><th scope="col">"Reported"</th></tr></thead>
                    <tbody>{b.errors.into_iter().map(|e| { let severity = e.severity.clone(); view! {
                        <tr class:needs-human=e.needs_human data-severity=severity>
                            <th scope="row">{e.task_id}</th>
                            <td>{e.severity}{e.needs_human.then(|| view! { " " <strong class="flag">"needs a human"</strong> })}</td>
                            <td><code>{e.code}</code></td>
                            <td class="message">{e.message}</td>
                            <td>{e.sender.unwrap_or_default()} {e.at_ms.map(|ms| view! { " · " <Time ms /> })}</td>
                        </tr>
                    }}).collect_view()}</tbody>
                </table>
            </section>
        })}
        {(!b.conflicts.is_empty()).then(|| view! {
            <section aria-label="Reservation conflicts">
                <h3>"Reservation conflicts"</h3>
                <ul class="conflicts">{b.conflicts.into_iter().map(|c| view! {
                    <li class="conflict">
                        <strong>{c.holders.0}</strong> " (" {c.modes.0} ", " <code>{c.patterns.0}</code> ") and "
                        <strong>{c.holders.1}</strong> " (" {c.modes.1} ", " <code>{c.patterns.1}</code> ")"
                    </li>
                }).collect_view()}</ul>
            </section>
        })}
        {(!b.permissions.is_empty() || !b.reviews.is_empty()).then(|| view! {
            <section aria-label="Pair Claude">
                <h3>"Pair Claude permission requests"</h3>
                {requests(b.permissions, "permissions")}
                <h3>"Pair Claude code reviews"</h3>
                {requests(b.reviews, "reviews")}
            </section>
        })}
        {(!b.ack_debt.is_empty()).then(|| view! {
            <section aria-label="Acknowledgement debt">
                <h3>"Acknowledgement debt"</h3>
                <table class="ack-debt">
                    <thead><tr><th scope="col">"Agent"</th><th scope="col">"Waiting"</th><th scope="col">"Oldest waits"</th></tr></thead>
                    <tbody>{b.ack_debt.into_iter().map(|d| view! {
                        <tr><th scope="row">{d.agent}</th><td>{d.waiting}</td><td>{d.oldest_age_ms.map(span)}</td></tr>
                    }).collect_view()}</tbody>
                </table>
            </section>
        })}
    }
    .into_any()
}

fn po_row(t: PoTaskView, now: ReadSignal<i64>) -> impl IntoView {
    let blocked = t.phase == TaskState::Blocked;
    let count = |(current, max): (u32, u32)| format!("{current} of {max}");
    view! {
        <tr class="po-task" class:blocked=blocked class:at-limit=t.at_limit data-task=t.task.clone()>
            <th scope="row">
                {t.task.clone()}
                <div class="muted">{t.agent.clone()} {t.po.clone().map(|p| format!(" · PO {p}"))}</div>
            </th>
            <td>
                <span class="status">{t.status.clone()}</span> " · " {t.phase.as_str()}
                {t.blocked.clone().map(|(by, reason)| view! { <div class="flag">{format!("blocked by {by}: ")}<span class="reason">{reason}</span></div> })}
                {t.progress.clone().map(|(status, pct, activity)| view! {
                    <div><progress max="100" value=pct></progress> {format!(" {pct}% {status}: ")} {activity}</div>
                })}
                {(!t.violations.is_empty()).then(|| view! {
                    <ul class="violations">{t.violations.clone().into_iter().map(|v| view! { <li><span class="code">{v.code.as_str()}</span> " " {v.message}</li> }).collect_view()}</ul>
                })}
            </td>
            <td>{count(t.plan_revisions)}</td>
            <td>{count(t.fix_retries)}{t.at_limit.then(|| view! { " " <strong class="flag">"at the limit"</strong> })}</td>
            <td>
                <ul class="gates">{t.gates.into_iter().map(|g| view! {
                    <li>
                        <strong>{g.directive}</strong>
                        {g.at_ms.map(|ms| view! { " · " <Time ms /> })}
                        {(!g.problems.is_empty()).then(|| view! {
                            <ul class="problems">{g.problems.into_iter().map(|(kind, message)| view! {
                                <li><span class="code">{kind}</span> " " {message}</li>
                            }).collect_view()}</ul>
                        })}
                    </li>
                }).collect_view()}</ul>
            </td>
            <td>{t.next.map(|s| view! {
                <Countdown at_ms=s.at_ms now />
                <div class="muted">{step_text(&s.action, s.warning, s.from.as_deref())}</div>
            })}</td>
        </tr>
    }
}

fn requests(rows: Vec<RequestView>, class: &'static str) -> impl IntoView {
    view! {
        {rows.is_empty().then(|| view! { <p class="muted">"None."</p> })}
        <ul class=class>
            {rows.into_iter().map(|r| view! {
                <li data-status=r.status.as_str()>
                    <strong class="request-status">{r.status.as_str().replace('_', " ")}</strong>
                    {r.tool.map(|t| view! { " · " <code>{t}</code> })}
                    {r.subject.map(|s| view! { " · " <span class="subject">{s}</span> })}
                    {r.requested_at_ms.map(|ms| view! { " · " <Time ms /> })}
                    {r.comment.map(|c| view! { " · " <span class="comment">{c}</span> })}
                </li>
            }).collect_view()}
        </ul>
    }
}
