//! The queue of open human checkpoints across the project's sessions — contract review (#1),
//! implementation review (#2), change-order review (#3) — each with what the reviewer needs
//! (the opening message's artifacts, build result or evidence, the change order, the
//! contract's integrity, audit reports) and the decisions it allows.
//!
//! A decision is typed as the seed writes it (`REVISE: add expiry tests`); the core turns it
//! into the protocol messages it implies, which are shown exactly as they will be sent and
//! validated before; only valid messages are sent, through the backend, as the planner, in
//! the session's thread. The typed text stays in its field until the send succeeds. Keys:
//! `j`/`k` move between checkpoints, `Enter` goes to the decision field, `Ctrl+Enter` in it
//! sends.

use super::common::{move_selection, typing_in_field, Here, NavBar, Progress, ProgressNote};
use super::session::change_order;
use crate::components::audit::AuditReport;
use crate::components::fields::{Fields, Issues};
use crate::components::time::{Countdown, Time};
use crate::components::traffic::{answer, engine_resource, use_traffic, ProtocolNav, TrafficNote};
use crate::components::watch::{notifications_allowed, notifications_supported};
use crate::model::{CheckpointCard, DecisionPreview, Request, Response, TrafficKey};
use crate::routes;
use leptos::prelude::*;
use std::collections::HashMap;

/// The checkpoints view.
#[component]
pub fn CheckpointsView() -> impl IntoView {
    let here = Here::new();
    let (key, state) = use_traffic(here);
    let now = here.clock();
    // Asked again only when new mail arrives (not as the clock runs: the countdowns tick in
    // the page), so a decision being typed is not redrawn under the reviewer's hands.
    let data = engine_resource(here, state, move || Request::Checkpoints {
        key: key.get(),
        now_ms: now.get_untracked(),
    });
    // What was typed for each session survives redraws and failed sends: the signals belong
    // to the view, not to the list that is redrawn.
    let texts: StoredValue<HashMap<String, RwSignal<String>>> = StoredValue::new(HashMap::new());
    let owner = Owner::current();
    let text_for = move |session: &str| {
        texts
            .with_value(|t| t.get(session).copied())
            .unwrap_or_else(|| {
                let make = || RwSignal::new(String::new());
                let signal = owner.as_ref().map_or_else(make, |o| o.with(make));
                texts.update_value(|t| {
                    t.insert(session.to_owned(), signal);
                });
                signal
            })
    };
    let progress = RwSignal::new(Progress::Idle);
    let selected = RwSignal::new(0_usize);
    let count = Memo::new(move |_| match data.get() {
        Some(Some(Ok(crate::components::load::Loaded::Engine(Response::Checkpoints(cards))))) => {
            cards.len()
        }
        _ => 0,
    });
    let handle = window_event_listener(leptos::ev::keydown, move |ev| {
        if ev.ctrl_key() || ev.meta_key() || ev.alt_key() || typing_in_field(&ev) {
            return;
        }
        let n = count.get_untracked();
        if move_selection(&ev, selected, n) {
            if n > 0 {
                focus_card(selected.get_untracked(), false);
            }
            return;
        }
        match ev.key().as_str() {
            "Enter" if n > 0 => {
                ev.prevent_default();
                focus_card(selected.get_untracked(), true);
            }
            _ => {}
        }
    });
    on_cleanup(move || handle.remove());
    view! {
        <NavBar />
        <section class="checkpoints" aria-labelledby="checkpoints-title">
            <h2 id="checkpoints-title">{move || format!("Open checkpoints in {}", here.project.get())}</h2>
            <ProtocolNav here current="checkpoints" />
            <NotifyToggle here />
            <TrafficNote state />
            <ProgressNote progress />
            {answer(data, move |response| {
                let Response::Checkpoints(cards) = response else { return None };
                Some(view! {
                    <p class="summary">{format!("{} open checkpoint(s)", cards.len())}</p>
                    {cards.is_empty().then(|| view! { <p class="muted">"No human checkpoint is open."</p> })}
                    <ol class="checkpoint-queue">
                        {cards.into_iter().enumerate().map(|(i, card)| {
                            let text = text_for(&card.session.id);
                            view! { <Card card i selected here key=key.get_untracked() now text progress /> }
                        }).collect_view()}
                    </ol>
                    <p class="hint">"Keys: j/k move · Enter goes to the decision · Ctrl+Enter sends it"</p>
                }.into_any())
            })}
        </section>
    }
}

fn focus_card(i: usize, field: bool) {
    use wasm_bindgen::JsCast;
    let id = if field {
        format!("decision-{i}")
    } else {
        format!("checkpoint-{i}")
    };
    if let Some(el) = document()
        .get_element_by_id(&id)
        .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = el.focus();
    }
}

/// Asks for a desktop notification when a new checkpoint opens.
#[component]
fn NotifyToggle(here: Here) -> impl IntoView {
    let session = here.session;
    let ask = move |_| {
        if notifications_allowed() {
            session.notify.set(true);
            return;
        }
        if let Ok(promise) = web_sys::Notification::request_permission() {
            leptos::task::spawn_local(async move {
                let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
                session.notify.set(notifications_allowed());
            });
        }
    };
    notifications_supported().then(|| {
        view! {
            <p class="notify">
                {move || if session.notify.get() {
                    view! { <span>"You will get a desktop notification when a checkpoint opens."</span>
                        " " <button type="button" on:click=move |_| session.notify.set(false)>"Stop notifications"</button> }.into_any()
                } else {
                    view! { <button type="button" on:click=ask>"Notify me when a checkpoint opens"</button> }.into_any()
                }}
            </p>
        }
    })
}

/// One open checkpoint with its decision form.
#[component]
fn Card(
    card: CheckpointCard,
    i: usize,
    selected: RwSignal<usize>,
    here: Here,
    key: TrafficKey,
    now: ReadSignal<i64>,
    text: RwSignal<String>,
    progress: RwSignal<Progress>,
) -> impl IntoView {
    let (src, project) = (key.src.clone(), key.project.clone());
    let session_id = card.session.id.clone();
    let preview: RwSignal<Option<DecisionPreview>> = RwSignal::new(None);
    let asked = StoredValue::new(0_u64);
    let field_ref = NodeRef::<leptos::html::Textarea>::new();

    // Every edit asks the core what the text decides; only the latest answer is shown.
    let link = here.session.link();
    let (decide_key, decide_session) = (key.clone(), session_id.clone());
    Effect::new(move |_| {
        let typed = text.get();
        asked.update_value(|n| *n += 1);
        let ticket = asked.get_value();
        if typed.trim().is_empty() {
            preview.set(None);
            return;
        }
        let request = Request::Decide {
            key: decide_key.clone(),
            session: decide_session.clone(),
            text: typed,
        };
        let link = link.clone();
        leptos::task::spawn_local(async move {
            let answer = link.call(request).await;
            // The card may be gone (redrawn on new mail) or the text changed meanwhile.
            if asked.try_get_value() != Some(ticket) {
                return;
            }
            preview.try_set(Some(match answer {
                Ok(Response::Decision(p)) => p,
                Ok(Response::Failed(e)) | Err(e) => DecisionPreview {
                    literal: None,
                    error: Some(e),
                    messages: Vec::new(),
                },
                Ok(_) => DecisionPreview {
                    literal: None,
                    error: Some("The engine answered off topic.".into()),
                    messages: Vec::new(),
                },
            }));
        });
    });

    let sendable = move || {
        preview.with(|p| {
            p.as_ref().is_some_and(|p| {
                p.error.is_none() && !p.messages.is_empty() && p.messages.iter().all(|m| m.valid)
            })
        }) && !matches!(progress.get(), Progress::Busy(_))
    };
    let send_project = project.clone();
    let send = move || {
        let Some(p) = preview.get_untracked() else {
            return;
        };
        if p.error.is_some() || p.messages.is_empty() || p.messages.iter().any(|m| !m.valid) {
            progress.set(Progress::Failed(
                "Nothing was sent: the decision's messages are not valid.".into(),
            ));
            return;
        }
        let project = send_project.clone();
        let busy = format!(
            "Sending {} for {}…",
            p.literal.clone().unwrap_or_default(),
            p.messages[0].thread_id.clone().unwrap_or_default()
        );
        super::common::run_action(here, progress, busy, move |backend| async move {
            let mut sent = Vec::new();
            for m in p.messages {
                let id = backend.send(&project, m.draft()).await?;
                sent.push(format!("{} to {} (message {id})", m.subject, m.to));
            }
            // Sent: the typed decision is done with.
            text.set(String::new());
            Ok(format!("Sent {}.", sent.join(", ")))
        });
    };
    let send_on_click = send.clone();

    let c = card.checkpoint.clone();
    let row = card.session.clone();
    let tampered = row.integrity.status == "tampered";
    view! {
        <li class="checkpoint-card" id=format!("checkpoint-{i}") tabindex="-1"
            data-session=session_id.clone() data-checkpoint=c.number
            class:selected=move || selected.get() == i on:focusin=move |_| selected.set(i)>
            <h3>
                {format!("#{} {} · ", c.number, c.title())}
                <a href=routes::session(&src, &project, &session_id)>{session_id.clone()}</a>
            </h3>
            <p class="muted">
                {row.task.clone().unwrap_or_default()}
                " · planner " {row.planner.clone().unwrap_or_else(|| "?".into())}
                " · builder " {row.builder.clone().unwrap_or_else(|| "?".into())}
                {card.opened_at_ms.map(|ms| view! { " · opened " <Time ms /> })}
                {card.opened_by.map(|id| view! {
                    " by " <a href=routes::message(&src, &project, None, id)>{format!("message {id}")}</a>
                })}
                {row.next.clone().map(|s| view! { " · next timeout " <Countdown at_ms=s.at_ms now /> })}
            </p>
            <div class="needs">
                <h4>"What to review"</h4>
                // A change order shows as one (evidence, attempted fixes); other checkpoints
                // show the opening message's artifacts or build result.
                {match card.change_order {
                    Some(order) => change_order(order).into_any(),
                    None => view! { <Fields fields=card.fields /> }.into_any(),
                }}
                <p class="integrity" data-integrity=row.integrity.status.clone()>
                    "Contract integrity: "
                    {if tampered {
                        view! { <strong class="flag">"tampered: "</strong> <code>{row.integrity.files.join(", ")}</code> }.into_any()
                    } else {
                        row.integrity.status.clone().into_any()
                    }}
                </p>
                {card.audits.into_iter().map(|card| view! {
                    <AuditReport card src=src.clone() project=project.clone() />
                }).collect_view()}
            </div>
            <form class="decision" on:submit=move |ev| { ev.prevent_default(); send(); }>
                <p class="decisions">
                    "Allowed: "
                    {card.decisions.into_iter().map(|d| {
                        let literal = match &d.requires {
                            Some(what) => format!("{}: <{what}>", d.keyword),
                            None => d.keyword.clone(),
                        };
                        let start = match &d.requires {
                            Some(_) => format!("{}: ", d.keyword),
                            None => d.keyword.clone(),
                        };
                        view! {
                            <button type="button" class="choice" data-decision=d.keyword.clone()
                                on:click=move |_| {
                                    text.set(start.clone());
                                    if let Some(el) = field_ref.get_untracked() { let _ = el.focus(); }
                                }>{literal}</button>
                            " "
                        }
                    }).collect_view()}
                </p>
                <label for=format!("decision-{i}")>{format!("Decision for {} (as the seed writes it)", card.session.id)}</label>
                <textarea id=format!("decision-{i}") rows="2" node_ref=field_ref bind:value=text
                    on:keydown=move |ev| if ev.key() == "Enter" && (ev.ctrl_key() || ev.meta_key()) {
                        ev.prevent_default();
                        send_on_click();
                    }></textarea>
                {move || preview.get().map(|p| view! {
                    <div class="preview" aria-live="polite">
                        {p.error.map(|e| view! { <p class="error">{e}</p> })}
                        {p.literal.map(|l| view! { <p>"Decision: " <strong class="literal">{l}</strong></p> })}
                        {p.messages.into_iter().map(|m| view! {
                            <div class="outgoing" class:invalid=!m.valid data-subject=m.subject.clone()>
                                <p>
                                    "Will send " <strong>{m.subject.clone()}</strong>
                                    {format!(" from {} to {}", m.from, m.to)}
                                    {m.thread_id.clone().map(|t| format!(" in thread {t}"))}
                                    " · "
                                    {if m.valid { view! { <span class="badge valid">"valid"</span> }.into_any() }
                                     else { view! { <span class="badge invalid">"invalid: not sent"</span> }.into_any() }}
                                </p>
                                <pre class="raw body-md">{m.body_md}</pre>
                                <Issues issues=m.issues />
                            </div>
                        }).collect_view()}
                    </div>
                })}
                <button type="submit" disabled=move || !sendable()>"Send decision"</button>
            </form>
        </li>
    }
}
