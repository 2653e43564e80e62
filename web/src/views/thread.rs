//! A thread seen from an agent's mailbox: the pane's thread view (`thread_only` with the
//! thread as the active thread), oldest first, with continuity gaps flagged.

use super::common::{param, ErrorNote, Here, NavBar};
use super::mailbox::{mailbox_resource, snapshot};
use crate::backend::BackendError;
use crate::routes;
use leptos::prelude::*;
use switchboard_core::pane::{Direction, EventKind, FilterMode};

/// The thread view.
#[component]
pub fn ThreadView() -> impl IntoView {
    let here = Here::new();
    let thread = param("thread");
    let data = mailbox_resource(here);
    let state = Memo::new(move |_| {
        data.get().map(|loaded| {
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
                            {snap.thread_messages.iter().map(|m| {
                                let href = routes::message(&src, &project, Some(&agent), m.id);
                                let dir = if m.direction == Direction::Inbox { "received" } else { "sent" };
                                view! {
                                    <li class="thread-item" data-direction=dir>
                                        <a href=href>{m.subject.clone()}</a>
                                        <span class="from">{format!("{} · {dir}", m.from)}</span>
                                        <time>{m.created_ts.clone()}</time>
                                        {m.ack_required.then_some(if m.acknowledged { "acknowledged" } else { "ack required" })}
                                    </li>
                                }
                            }).collect_view()}
                        </ol>
                        <p>
                            <a href=routes::mailbox(&src, &project, &agent, false, FilterMode::ThreadOnly, Some(&thread.get()))>
                                "Inbox filtered to this thread"
                            </a>
                        </p>
                    }.into_any()
                }
            }}
        </section>
    }
}
