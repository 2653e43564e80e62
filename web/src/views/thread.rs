//! A thread seen from an agent's mailbox: the pane's thread view (`thread_only` with the
//! thread as the active thread), oldest first, with continuity gaps flagged. Each message
//! expands to its validation badge and body, fetched when first opened; the newest is open.

use super::common::NavBar;
use super::mailbox::{mailbox_resource, snapshot};
use super::message::{inspection_resource, message_resource};
use crate::api::BackendError;
use crate::components::html::EngineHtml;
use crate::components::route::{param, Here};
use crate::components::status::{ErrorNote, Loading};
use crate::routes;
use leptos::prelude::*;
use switchboard_core::pane::{Direction, EventKind, FilterMode, MessageItem};

/// The thread view.
#[component]
pub fn ThreadView() -> impl IntoView {
    let here = Here::new();
    let thread = param("thread");
    let data = mailbox_resource(here);
    let state = Memo::new(move |_| {
        data.get().flatten().map(|loaded| {
            let mailbox = loaded?;
            snapshot(&mailbox, FilterMode::ThreadOnly, Some(&thread.get()))
                .map_err(BackendError::Invalid)
        })
    });
    view! {
        <NavBar />
        <section aria-labelledby="thread-title">
            <h2 id="thread-title">{move || format!("Thread {}", thread.get())}</h2>
            {move || match state.get() {
                None => view! { <p class="loading">"Loading…"</p> }.into_any(),
                Some(Err(error)) => view! { <ErrorNote error /> }.into_any(),
                Some(Ok(snap)) => {
                    let gap = snap.events.iter().any(|e| e.event_kind == EventKind::ThreadContinuityGap);
                    let (src, project, agent) = (here.src.get(), here.project.get(), here.agent.get());
                    // A thread that starts with a reply is missing its beginning here.
                    let starts_mid = snap.thread_messages.first().is_some_and(|m| m.subject.starts_with("Re:"));
                    view! {
                        {gap.then(|| view! {
                            <p class="warning" role="alert">"Continuity gap: this thread has no visible messages in this mailbox."</p>
                        })}
                        {starts_mid.then(|| view! {
                            <p class="warning" role="alert">"Continuity gap: the thread starts with a reply; earlier messages are not in this mailbox."</p>
                        })}
                        <ol class="thread">
                            {snap.thread_messages.iter().enumerate().map(|(i, m)| view! {
                                <ThreadItem here item=m.clone() open=i + 1 == snap.thread_messages.len() />
                            }).collect_view()}
                        </ol>
                        <p>
                            <a href=routes::mailbox(src, &project, &agent, false, FilterMode::ThreadOnly, Some(&thread.get()))>
                                "Inbox filtered to this thread"
                            </a>
                        </p>
                    }.into_any()
                }
            }}
        </section>
    }
}

/// One message of a thread: a summary line (subject linking to the message, sender,
/// direction, time, acknowledgement) that expands to the badge and the rendered body.
#[component]
fn ThreadItem(here: Here, item: MessageItem, open: bool) -> impl IntoView {
    // Set on the first opening and never reset: a closed item keeps what it fetched.
    let opened = RwSignal::new(open);
    let id = item.id;
    let body = message_resource(here, Signal::derive(move || opened.get().then_some(id)));
    let inspected = inspection_resource(here, false, move || match body.get() {
        Some(Some(Ok((message, _)))) => Some(message),
        _ => None,
    });
    let href = routes::message(
        here.src.get_untracked(),
        &here.project.get_untracked(),
        Some(&here.agent.get_untracked()),
        id,
    );
    let dir = if item.direction == Direction::Inbox {
        "received"
    } else {
        "sent"
    };
    let ack = item.ack_required.then_some(if item.acknowledged {
        "acknowledged"
    } else {
        "ack required"
    });
    view! {
        <li class="thread-item" data-direction=dir>
            <details open=open on:toggle=move |ev| {
                if event_target::<web_sys::HtmlDetailsElement>(&ev).open() {
                    opened.set(true);
                }
            }>
                <summary>
                    <a href=href>{item.subject}</a>
                    <span class="from">{format!("{} · {dir}", item.from)}</span>
                    <time>{item.created_ts}</time>
                    {ack.map(|a| view! { <span class="ack-state">{a}</span> })}
                </summary>
                {move || match (body.get(), inspected.get()) {
                    (Some(Some(Err(error))), _) => view! { <ErrorNote error /> }.into_any(),
                    (_, Some(Some(Ok(inspected)))) => view! { <EngineHtml html=inspected.html /> }.into_any(),
                    (_, Some(Some(Err(error)))) => view! { <p class="error">{error.to_string()}</p> }.into_any(),
                    _ => view! { <Loading /> }.into_any(),
                }}
            </details>
        </li>
    }
}
