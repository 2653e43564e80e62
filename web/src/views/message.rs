//! One message: header, what it carries as the engine lays it out (the core's validation:
//! family, type and version; its fields as labelled values with each issue beside the field
//! it concerns; the raw JSON one click away; the session and phase, or the task, it belongs
//! to), the body rendered as safe Markdown, and the actions (acknowledge, mark read, reply
//! in thread) when seen from an agent's mailbox.

use super::common::{run_action, typing_in_field, NavBar, Progress, ProgressNote};
use crate::api::{BackendError, MailRow};
use crate::ask::Inspect;
use crate::components::html::EngineHtml;
use crate::components::load::{fetch, load, Data};
use crate::components::route::{param, query_param, Here};
use crate::components::secrets::mask;
use crate::components::status::{ErrorNote, Loading};
use crate::components::traffic::engine_call;
use crate::model::InspectedMessage;
use crate::routes;
use leptos::prelude::*;

/// The engine's inspection of a loaded message (`None` until there is one), `full` with its
/// members and raw JSON. A Pair message's session needs the project's traffic: it is read
/// then, and the inspection renewed.
pub fn inspection_resource(
    here: Here,
    full: bool,
    message: impl Fn() -> Option<MailRow> + 'static,
) -> Data<InspectedMessage> {
    let session = here.session;
    let state = Memo::new(move |_| session.traffic.state(&here.key()));
    engine_call(here, move || {
        // A new load of the traffic may place the message in its session.
        state.track();
        message().map(|message| Inspect {
            key: here.key(),
            message,
            reveal: here.session.reveal.get(),
            full,
        })
    })
}

/// Reads the project's traffic when an inspection shows a Pair message and it is not read.
pub fn need_session(here: Here, inspected: &InspectedMessage) {
    let key = untrack(|| here.key());
    if inspected.wants_traffic && here.session.traffic.state_untracked(&key).is_none() {
        here.session.refresh_traffic(key);
    }
}

/// Message `id` from the route's backend, as seen by the route's agent if any, with its
/// subject as shown (secrets masked unless revealed); nothing while `id` names no message.
/// One resource type for the message and thread views.
pub fn message_resource(here: Here, id: Signal<Option<u64>>) -> Data<(MailRow, String)> {
    load(move || {
        let backend = here.backend();
        let (project, agent, id) = (here.project.get(), here.agent.get(), id.get());
        here.session.reveal.track();
        fetch(async move {
            let id = id?;
            let agent = (!agent.is_empty()).then_some(agent);
            Some(
                async {
                    let message = backend?.message(&project, agent.as_deref(), id).await?;
                    let mut subject = message.subject.clone();
                    mask(here.session, vec![&mut subject]).await?;
                    Ok((message, subject))
                }
                .await,
            )
        })
    })
}

/// What the message view does to a message, as the agent of its mailbox.
#[derive(Clone, Copy)]
enum Action {
    Acknowledge,
    MarkRead,
    Reply,
}

/// The message view.
#[component]
pub fn MessageView() -> impl IntoView {
    let here = Here::new();
    let id = param("id");
    let reply_asked = query_param("reply");
    let data = message_resource(here, Signal::derive(move || id.get().parse().ok()));
    let inspected = inspection_resource(here, true, move || match data.get() {
        Some(Some(Ok((message, _)))) => Some(message),
        _ => None,
    });
    let progress = RwSignal::new(Progress::Idle);
    let reply = RwSignal::new(String::new());
    let reply_ref = NodeRef::<leptos::html::Textarea>::new();
    let wants_reply = move || reply_asked.with(Option::is_some);
    Effect::new(move |_| {
        if wants_reply() && data.get().is_some() {
            if let Some(el) = reply_ref.get() {
                let _ = el.focus();
            }
        }
    });

    let act = move |action: Action, id: u64| {
        let (project, agent) = (here.project.get_untracked(), here.agent.get_untracked());
        let body = reply.get_untracked();
        let busy = match action {
            Action::Acknowledge => format!("Acknowledging message {id}…"),
            Action::MarkRead => format!("Marking message {id} read…"),
            Action::Reply => "Sending reply…".to_string(),
        };
        run_action(here, progress, busy, move |backend| async move {
            Ok(match action {
                Action::Acknowledge => {
                    backend.acknowledge(&project, &agent, id).await?;
                    format!("Message {id} acknowledged.")
                }
                Action::MarkRead => {
                    backend.mark_read(&project, &agent, id).await?;
                    format!("Message {id} marked read.")
                }
                Action::Reply => {
                    let new_id = backend.reply(&project, &agent, id, &body).await?;
                    // The typed reply stays in the field unless it was sent.
                    reply.set(String::new());
                    format!("Reply sent (message {new_id}).")
                }
            })
        });
    };

    let handle = window_event_listener(leptos::ev::keydown, move |ev| {
        if ev.ctrl_key()
            || ev.meta_key()
            || ev.alt_key()
            || typing_in_field(&ev)
            || here.agent.get_untracked().is_empty()
        {
            return;
        }
        let Some(Some(Ok((message, _)))) = data.get_untracked() else {
            return;
        };
        match ev.key().as_str() {
            "a" if message.ack_required => act(Action::Acknowledge, message.id),
            "r" => {
                ev.prevent_default();
                if let Some(el) = reply_ref.get_untracked() {
                    let _ = el.focus();
                }
            }
            "/" => {
                ev.prevent_default();
                super::common::focus_search();
            }
            _ => {}
        }
    });
    on_cleanup(move || handle.remove());

    view! {
        <NavBar />
        {move || match data.get() {
            None => view! { <p class="loading">"Loading…"</p> }.into_any(),
            Some(None) => {
                let error = BackendError::NotFound("that message".into());
                view! { <ErrorNote error /> }.into_any()
            }
            Some(Some(Err(error))) => view! { <ErrorNote error /> }.into_any(),
            Some(Some(Ok((message, subject)))) => {
                let (src, project, agent) = (here.src.get(), here.project.get(), here.agent.get());
                let id = message.id;
                // A thread is a view of an agent's mail: a message opened from the project's
                // search (no agent) names its thread without a link.
                let thread = match message.thread_id.clone() {
                    Some(t) if !agent.is_empty() => view! {
                        <a href=routes::thread(src, &project, &agent, &t)>{t.clone()}</a>
                    }.into_any(),
                    Some(t) => t.into_any(),
                    None => "none".into_any(),
                };
                view! {
                    <article class="message" aria-labelledby="message-title">
                        <h2 id="message-title">{subject}</h2>
                        <dl class="meta">
                            <dt>"From"</dt><dd>{message.from.clone()}</dd>
                            <dt>"To"</dt><dd>{message.to.join(", ")}</dd>
                            <dt>"Sent"</dt><dd><time>{message.created_ts.clone()}</time></dd>
                            <dt>"Importance"</dt><dd>{message.importance.clone()}</dd>
                            <dt>"Acknowledgement"</dt><dd>{if message.ack_required { "requested" } else { "not requested" }}</dd>
                            <dt>"Thread"</dt><dd>{thread}</dd>
                        </dl>
                        {move || match inspected.get() {
                            Some(Some(Ok(inspected))) => {
                                need_session(here, &inspected);
                                view! { <EngineHtml html=inspected.html /> }.into_any()
                            }
                            Some(Some(Err(error))) => view! { <p class="error">{error.to_string()}</p> }.into_any(),
                            _ => view! { <Loading /> }.into_any(),
                        }}
                    </article>
                    {(!agent.is_empty()).then(|| view! {
                        <section class="actions" aria-label="Actions">
                            <ProgressNote progress />
                            <div class="buttons">
                                {message.ack_required.then(|| view! {
                                    <button type="button" on:click=move |_| act(Action::Acknowledge, id)>"Acknowledge"</button>
                                })}
                                <button type="button" on:click=move |_| act(Action::MarkRead, id)>"Mark read"</button>
                            </div>
                            <form class="reply" on:submit=move |ev| { ev.prevent_default(); act(Action::Reply, id); }>
                                <label for="reply-body">{format!("Reply as {agent}")}</label>
                                <textarea id="reply-body" rows="5" node_ref=reply_ref bind:value=reply></textarea>
                                <button type="submit" disabled=move || matches!(progress.get(), Progress::Busy(_))>"Send reply"</button>
                            </form>
                        </section>
                    })}
                }.into_any()
            }
        }}
    }
}
