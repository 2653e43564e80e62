//! One message: header, a validation badge from the core (`switchboard_core::protocol`:
//! family, type, each issue with its path), the body rendered as safe Markdown, and the
//! actions (acknowledge, mark read, reply in thread) when seen from an agent's mailbox.

use super::common::{
    param, query_param, run_action, typing_in_field, ErrorNote, Here, NavBar, Progress,
    ProgressNote,
};
use crate::backend::{BackendError, Message};
use crate::markdown;
use crate::routes;
use leptos::prelude::*;
use serde_json::json;
use switchboard_core::protocol::{self, IssueCode, Options, Report};

/// What the validation badge says.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// The body carries no protocol message (plain Markdown).
    Plain,
    /// A valid protocol message.
    Valid(Report),
    /// An invalid (or unrecognized) protocol message.
    Invalid(Report),
}

/// Validates the protocol message carried in a message's `body_md`.
#[must_use]
pub fn verdict(message: &Message) -> Verdict {
    let row = json!({"subject": message.subject, "body_md": message.body_md});
    let report = protocol::validate(&row, &Options::default());
    let plain = report.issues.len() == 1 && report.issues[0].code == IssueCode::NoProtocolMessage;
    if plain {
        Verdict::Plain
    } else if report.valid {
        Verdict::Valid(report)
    } else {
        Verdict::Invalid(report)
    }
}

fn describe(report: &Report) -> String {
    let family = report.family_name().unwrap_or("unknown family");
    let kind = report.message_type.unwrap_or("unknown type");
    match &report.version {
        Some(version) => format!("{family} {version} · {kind}"),
        None => format!("{family} · {kind}"),
    }
}

/// The validation badge.
#[component]
pub fn Badge(verdict: Verdict) -> impl IntoView {
    match verdict {
        Verdict::Plain => view! { <p class="badge plain">"Plain message (no protocol payload)"</p> }.into_any(),
        Verdict::Valid(report) => view! {
            <p class="badge valid">{format!("Valid · {}", describe(&report))}</p>
        }
        .into_any(),
        Verdict::Invalid(report) => view! {
            <div class="badge invalid">
                <p>{format!("Invalid · {}", describe(&report))}</p>
                <ul class="issues">
                    {report.issues.iter().map(|issue| {
                        let path = issue.path.to_pointer();
                        view! {
                            <li>
                                <code>{if path.is_empty() { "(root)".to_string() } else { path }}</code>
                                " " {issue.message.clone()} " "
                                <span class="code">{format!("({})", issue.code.as_str())}</span>
                            </li>
                        }
                    }).collect_view()}
                </ul>
            </div>
        }
        .into_any(),
    }
}

/// The message body, rendered by [`markdown::render`] (raw HTML escaped, links filtered).
#[component]
pub fn Body(markdown_text: String) -> impl IntoView {
    view! { <div class="body" inner_html=markdown::render(&markdown_text)></div> }
}

/// Message `id` from the route's backend, as seen by the route's agent if any; `None` while
/// `id` names no message. One resource type for the message and thread views.
pub fn message_resource(
    here: Here,
    id: Signal<Option<u64>>,
) -> LocalResource<Option<Result<Message, BackendError>>> {
    LocalResource::new(move || {
        let backend = here.backend();
        let (project, agent, id) = (here.project.get(), here.agent.get(), id.get());
        async move {
            let id = id?;
            let agent = (!agent.is_empty()).then_some(agent);
            Some(match backend {
                Ok(backend) => backend.message(&project, agent.as_deref(), id).await,
                Err(error) => Err(error),
            })
        }
    })
}

/// The message view.
#[component]
pub fn MessageView() -> impl IntoView {
    let here = Here::new();
    let id = param("id");
    let reply_asked = query_param("reply");
    let data = message_resource(here, Signal::derive(move || id.get().parse().ok()));
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

    let act = move |what: &'static str, id: u64| {
        let (project, agent) = (here.project.get_untracked(), here.agent.get_untracked());
        let body = reply.get_untracked();
        let busy = match what {
            "ack" => format!("Acknowledging message {id}…"),
            "read" => format!("Marking message {id} read…"),
            _ => "Sending reply…".to_string(),
        };
        run_action(here, progress, busy, move |backend| async move {
            Ok(match what {
                "ack" => {
                    backend.acknowledge(&project, &agent, id).await?;
                    format!("Message {id} acknowledged.")
                }
                "read" => {
                    backend.mark_read(&project, &agent, id).await?;
                    format!("Message {id} marked read.")
                }
                _ => {
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
        let Some(Some(Ok(message))) = data.get_untracked() else {
            return;
        };
        match ev.key().as_str() {
            "a" if message.ack_required => act("ack", message.id),
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
            Some(Some(Ok(message))) => {
                let (src, project, agent) = (here.src.get(), here.project.get(), here.agent.get());
                let id = message.id;
                let thread_link = message.thread_id.clone().filter(|_| !agent.is_empty()).map(|t| view! {
                    <a href=routes::thread(&src, &project, &agent, &t)>{t.clone()}</a>
                });
                let verdict = verdict(&message);
                view! {
                    <article class="message" aria-labelledby="message-title">
                        <h2 id="message-title">{message.subject.clone()}</h2>
                        <dl class="meta">
                            <dt>"From"</dt><dd>{message.from.clone()}</dd>
                            <dt>"To"</dt><dd>{message.to.join(", ")}</dd>
                            <dt>"Sent"</dt><dd><time>{message.created_ts.clone()}</time></dd>
                            <dt>"Importance"</dt><dd>{message.importance.clone()}</dd>
                            <dt>"Acknowledgement"</dt><dd>{if message.ack_required { "requested" } else { "not requested" }}</dd>
                            <dt>"Thread"</dt><dd>{thread_link}{message.thread_id.is_none().then_some("none")}</dd>
                        </dl>
                        <Badge verdict />
                        <Body markdown_text=message.body_md.clone() />
                    </article>
                    {(!agent.is_empty()).then(|| view! {
                        <section class="actions" aria-label="Actions">
                            <ProgressNote progress />
                            <div class="buttons">
                                {message.ack_required.then(|| view! {
                                    <button type="button" on:click=move |_| act("ack", id)>"Acknowledge"</button>
                                })}
                                <button type="button" on:click=move |_| act("read", id)>"Mark read"</button>
                            </div>
                            <form class="reply" on:submit=move |ev| { ev.prevent_default(); act("reply", id); }>
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
