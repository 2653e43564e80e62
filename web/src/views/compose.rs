//! Compose a new message: as one of the project's agents, or as the human overseer where
//! the server offers it (operator mode). A failed send keeps what was typed.

use super::common::{run_action, NavBar, Progress, ProgressNote};
use crate::api::{Draft, Importance};
use crate::components::route::Here;
use crate::components::status::ErrorNote;
use leptos::prelude::*;

/// The sender value that means "the human overseer".
const OVERSEER: &str = "(overseer)";

/// The compose view.
#[component]
pub fn ComposeView() -> impl IntoView {
    let here = Here::new();
    let data = super::agents::agents_data(here);
    let sender = RwSignal::new(String::new());
    let to = RwSignal::new(String::new());
    let subject = RwSignal::new(String::new());
    let body = RwSignal::new(String::new());
    let thread = RwSignal::new(String::new());
    let ack = RwSignal::new(false);
    let importance = RwSignal::new("normal".to_string());
    let progress = RwSignal::new(Progress::Idle);

    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let project = here.project.get_untracked();
        let from = sender.get_untracked();
        let draft = Draft {
            sender: (from != OVERSEER && !from.is_empty()).then_some(from),
            to: to
                .get_untracked()
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect(),
            subject: subject.get_untracked(),
            body_md: body.get_untracked(),
            thread_id: Some(thread.get_untracked()).filter(|t| !t.trim().is_empty()),
            ack_required: ack.get_untracked(),
            importance: Importance::parse(&importance.get_untracked()).unwrap_or_default(),
        };
        run_action(
            here,
            progress,
            "Sending…".into(),
            move |backend| async move {
                let id = backend.send(&project, draft).await?;
                subject.set(String::new());
                body.set(String::new());
                Ok(format!("Sent (message {id})."))
            },
        );
    };

    view! {
        <NavBar />
        <section aria-labelledby="compose-title">
            <h2 id="compose-title">"Compose"</h2>
            {move || match data.get() {
                Some(Some(Err(error))) => view! { <ErrorNote error /> }.into_any(),
                Some(Some(Ok((caps, agents)))) => {
                    if sender.get_untracked().is_empty() {
                        sender.set(if caps.overseer_send { OVERSEER.to_string() } else { agents.first().map(|a| a.name.clone()).unwrap_or_default() });
                    }
                    view! {
                        <form class="compose" on:submit=submit>
                            <label for="compose-from">"From"</label>
                            <select id="compose-from" bind:value=sender>
                                {caps.overseer_send.then(|| view! { <option value=OVERSEER>"Human overseer"</option> })}
                                {agents.iter().map(|a| view! { <option value=a.name.clone()>{a.name.clone()}</option> }).collect_view()}
                            </select>
                            <label for="compose-to">"To (comma-separated agents)"</label>
                            <input id="compose-to" type="text" required bind:value=to />
                            <label for="compose-subject">"Subject"</label>
                            <input id="compose-subject" type="text" required bind:value=subject />
                            <label for="compose-thread">"Thread (optional)"</label>
                            <input id="compose-thread" type="text" bind:value=thread />
                            <label for="compose-importance">"Importance"</label>
                            <select id="compose-importance" bind:value=importance>
                                <option value="low">"low"</option>
                                <option value="normal">"normal"</option>
                                <option value="high">"high"</option>
                                <option value="urgent">"urgent"</option>
                            </select>
                            <label for="compose-ack">"Ask for acknowledgement"</label>
                            <input id="compose-ack" type="checkbox" bind:checked=ack />
                            <label for="compose-body">"Body (Markdown)"</label>
                            <textarea id="compose-body" rows="8" bind:value=body></textarea>
                            <button type="submit" disabled=move || matches!(progress.get(), Progress::Busy(_))>"Send"</button>
                        </form>
                        <ProgressNote progress />
                    }.into_any()
                }
                _ => view! { <p class="loading">"Loading…"</p> }.into_any(),
            }}
        </section>
    }
}
