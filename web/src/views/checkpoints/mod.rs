//! The queue of open human checkpoints across the project's sessions — contract review (#1),
//! implementation review (#2), change-order review (#3) — each with what the reviewer needs
//! (the opening message's artifacts, build result or evidence, the change order, the
//! contract's integrity, audit reports) and the decisions it allows.
//!
//! A decision is typed as the seed writes it (`REVISE: add expiry tests`) and read here, once,
//! into the core's `Decision`; the engine answers the messages it sends, built by the core
//! and shown exactly as they will be sent; Send hands the decision to the backend (a server
//! is sent those messages; the demo decides and sends in one call), as the planner, in the
//! session's thread.
//!
//! A new answer (the mail read page by page, new mail, a refreshed queue) updates the cards in
//! place, each kept by its checkpoint: a card still open keeps its evidence, its preview, its
//! fields and their focus, so nothing is redrawn under the reviewer's hands.
//!
//! One decision per checkpoint, no typed word lost: what is typed is kept in localStorage
//! per checkpoint until sent or discarded (`components::drafts`), so it survives a reload, a
//! link and a card that closes (kept drafts are listed under the queue with what became of
//! their checkpoint). Before sending, the view reads the newest mail and asks the engine what
//! became of the checkpoint (`ask::CheckpointFate`): decided elsewhere or timed out, it says
//! by whom and when and sends nothing. While a send is in flight nothing else is sent, by any
//! key or button. A send that fails is read back the same way: stored (its reply was lost),
//! it counts as sent once; not stored, Send tries again. Approving over what the evidence
//! shows (tampered contract, CRITICAL findings, failing tests, missing evidence) needs a
//! typed reason and is recorded as an override. Each decision sent is recorded, signed, in the
//! project's review trail (`components::review`). Keys: `j`/`k` move between checkpoints,
//! `Enter` goes to the decision field, `Ctrl+Enter` in it sends.

mod kept;
mod send;

use super::common::{move_selection, typing_in_field, NavBar, Progress, ProgressNote};
use crate::api::{CheckpointDecision, Draft};
use crate::ask::{self, Drafts};
use crate::components::checkpoint::integrity;
use crate::components::drafts::{self, DraftKey, DECISION, REASON};
use crate::components::evidence::{EvidencePanel, Reviewed};
use crate::components::html::EngineHtml;
use crate::components::load::{fetch, load, Data};
use crate::components::route::Here;
use crate::components::status::ErrorNote;
use crate::components::time::{Countdown, Time};
use crate::components::traffic::{engine_resource, use_traffic, ProtocolNav, TrafficNote};
use crate::components::watch::{notifications_allowed, notifications_supported};
use crate::model::{CheckpointCard, TrafficKey};
use crate::routes;
use crate::words::title;
use kept::kept_drafts;
use leptos::prelude::*;
use send::{approves, approving, send_once, Sending};
use std::collections::HashMap;
use switchboard_core::evidence::record::Outcome;
use switchboard_core::session::pair::checkpoint::Decision;

/// The message that opened a card's checkpoint (its log position when it has no id): what
/// names the checkpoint's draft.
fn opened(card: &CheckpointCard) -> u64 {
    card.opened_by.unwrap_or(card.at.entry as u64)
}

/// A card's typed decision and override reason, each kept in storage as it changes.
type Typed = (RwSignal<String>, RwSignal<String>);

/// The checkpoints view.
#[component]
pub fn CheckpointsView() -> impl IntoView {
    let here = Here::new();
    let (key, state) = use_traffic(here);
    let now = here.clock();
    // Asked again only when new mail arrives (not as the clock runs: the countdowns tick in
    // the page), so a decision being typed is not redrawn under the reviewer's hands.
    let data = engine_resource(here, state, move || ask::Checkpoints {
        key: key.get(),
        now_ms: now.get_untracked(),
        reveal: here.session.reveal.get(),
    });
    let server = move || {
        let endpoint = here.backend().map(|b| b.capabilities().endpoint);
        drafts::server_of(here.src.get_untracked(), &endpoint.unwrap_or_default())
    };
    // What was typed at each checkpoint survives redraws and failed sends (the signals belong
    // to the view, not to the list that is redrawn) and reloads (kept in localStorage as it is
    // typed).
    let typed: StoredValue<HashMap<String, Typed>> = StoredValue::new(HashMap::new());
    let owner = Owner::current();
    let typed_for = move |name: String| {
        typed
            .with_value(|t| t.get(&name).copied())
            .unwrap_or_else(|| {
                let make = || {
                    let field = |f: &'static str| {
                        let signal = RwSignal::new(drafts::load(&name, f));
                        let name = name.clone();
                        Effect::new(move |_| drafts::save(&name, f, &signal.get()));
                        signal
                    };
                    (field(DECISION), field(REASON))
                };
                let made = owner.as_ref().map_or_else(make, |o| o.with(make));
                typed.update_value(|t| {
                    t.insert(name.clone(), made);
                });
                made
            })
    };
    let reviewer = RwSignal::new(drafts::reviewer());
    Effect::new(move |_| drafts::set_reviewer(&reviewer.get()));
    let progress = RwSignal::new(Progress::Idle);
    let selected = RwSignal::new(0_usize);
    // The open checkpoints in queue order, each named by its draft: the checkpoint itself
    // (server, project, session, number, opening message), what keeps its card.
    let queue = Memo::new(move |_| match data.get() {
        Some(Some(Ok(cards))) => {
            let (key, server) = (key.get(), server());
            cards
                .into_iter()
                .map(|card| {
                    let name = DraftKey {
                        server: server.clone(),
                        project: key.project.clone(),
                        session: card.session.id.clone(),
                        checkpoint: card.at.checkpoint.number(),
                        opened: opened(&card),
                    }
                    .name();
                    (name, card)
                })
                .collect::<Vec<_>>()
        }
        _ => Vec::new(),
    });
    let count = Memo::new(move |_| queue.with(Vec::len));
    // Nothing yet, the error, or the queue: only a change of which redraws the section. A new
    // answer updates the cards in place (`ForEnumerate`, keyed by checkpoint), so a card being
    // decided is not made again, with its evidence unread, its preview gone and its override
    // field replaced while the reviewer types in it.
    let shown = Memo::new(move |_| data.get().map(|d| d.map(|r| r.map(|_| ()))));
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
            <p class="reviewer-name">
                <label for="reviewer">"Reviewing as"</label>
                <input id="reviewer" autocomplete="name" required placeholder="Your name"
                    bind:value=reviewer />
                <span class="muted">" Required to send: the review trail records who decided."</span>
            </p>
            <TrafficNote state />
            <ProgressNote progress />
            {move || match shown.get() {
                None | Some(None) => ().into_any(),
                Some(Some(Err(error))) => view! { <ErrorNote error /> }.into_any(),
                Some(Some(Ok(()))) => {
                    let typed_for = typed_for.clone();
                    view! {
                        <p class="summary">{move || format!("{} open checkpoint(s)", count.get())}</p>
                        {move || (count.get() == 0).then(|| view! { <p class="muted">"No human checkpoint is open."</p> })}
                        <ol class="checkpoint-queue">
                            <ForEnumerate
                                each=move || queue.get()
                                key=|(name, _)| name.clone()
                                children=move |i, (name, first)| {
                                    let typed = typed_for(name.clone());
                                    // This checkpoint's card in the newest answer (the last one
                                    // while the list lets it go).
                                    let card = Memo::new(move |last: Option<&CheckpointCard>| {
                                        queue.with(|q| q.iter().find(|(n, _)| *n == name).map(|(_, c)| c.clone()))
                                            .or_else(|| last.cloned())
                                            .unwrap_or_else(|| first.clone())
                                    });
                                    view! { <Card card i selected here key=key.get_untracked() now typed reviewer progress /> }
                                }
                            />
                        </ol>
                        <p class="hint">"Keys: j/k move · Enter goes to the decision · Ctrl+Enter sends it"</p>
                        // Asked again when the queue changes: a card that closed may leave a draft.
                        {move || {
                            queue.track();
                            kept_drafts(here, key.get_untracked(), server())
                        }}
                    }.into_any()
                }
            }}
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

/// What a typed text decides at a checkpoint: why it is no decision, or the decision and
/// the messages it sends.
#[derive(Clone)]
enum Preview {
    Refused(String),
    Ready(Decision, Vec<Draft>),
}

/// One open checkpoint with its decision form: `card` is the checkpoint in the newest answer
/// (its session row, evidence from the mail and log position change as mail arrives), `i` its
/// place in the queue.
#[component]
fn Card(
    card: Memo<CheckpointCard>,
    i: ReadSignal<usize>,
    selected: RwSignal<usize>,
    here: Here,
    key: TrafficKey,
    now: ReadSignal<i64>,
    typed: Typed,
    reviewer: RwSignal<String>,
    progress: RwSignal<Progress>,
) -> impl IntoView {
    let (text, reason) = typed;
    let (src, project) = (key.src, key.project.clone());
    // What names the card stays as it is (its checkpoint); the rest is read from `card`.
    let (checkpoint, session_id) = card.with_untracked(|c| (c.at.checkpoint, c.at.session.clone()));
    let field_ref = NodeRef::<leptos::html::Textarea>::new();

    // Every edit reads the typed text, once, into the core's decision and asks the engine for
    // the messages it sends; the answer names the text it answers, so an answer to an
    // earlier text is never shown beside a newer one.
    let link = here.session.link();
    let ask_key = key.clone();
    let reviewed: Reviewed = RwSignal::new(None);
    let answered: Data<(String, Preview)> = load(move || {
        let typed = text.get();
        // Asked again when the checkpoint's log position moves (mail read before it); the
        // answer shown meanwhile is the same checkpoint's, for the same text.
        let ask_at = card.with(|c| c.at.clone());
        // APPROVED carries the fingerprints of the tests shown: nothing is previewed (or sent)
        // before the folder was read.
        let seen = reviewed.get();
        let ready = seen.is_some();
        let fingerprints = seen.and_then(|s| s.fingerprints);
        let (link, key, at) = (link.clone(), ask_key.clone(), ask_at);
        fetch(async move {
            if typed.trim().is_empty() || !ready {
                return None;
            }
            let preview = match Decision::parse(checkpoint, &typed) {
                Err(refused) => Preview::Refused(refused.to_string()),
                Ok(decision) => {
                    let asked = Drafts {
                        key,
                        decision: CheckpointDecision::at(&at, &decision)
                            .with_reviewed(approving(&decision, fingerprints)),
                    };
                    match link.ask(asked).await {
                        Ok(drafts) => Preview::Ready(decision, drafts),
                        Err(why) => Preview::Refused(why),
                    }
                }
            };
            Some(Ok((typed, preview)))
        })
    });
    let preview = move || match answered.get()?? {
        Ok((typed, preview)) if text.with(|t| *t == typed) => Some(preview),
        _ => None,
    };
    // What an approval would override: the mail's concerns (as of the newest mail) and the
    // folder's.
    let outcome_with = move |decision: &Decision, reason: &str| {
        let mut concerns = card.with(|c| c.concerns.clone());
        let seen = reviewed.with(|s| s.as_ref().map(|s| s.concerns.clone()));
        for c in seen.unwrap_or_default() {
            if !concerns.contains(&c) {
                concerns.push(c);
            }
        }
        Outcome::of(approves(decision.kind), concerns, reason)
    };
    let outcome = move |decision: &Decision| outcome_with(decision, &reason.get());
    // Whether the decision previewed overrides the evidence, and so needs a reason. The
    // reason's field is shown by this alone: typing in it neither removes it (as asking
    // whether a reason is still missing did, at the first character) nor makes it again.
    let needs_reason = Memo::new(move |_| match preview() {
        Some(Preview::Ready(decision, _)) => outcome_with(&decision, "").is_none(),
        _ => false,
    });
    // Everything a send needs, or nothing: the one check every key and button goes through.
    let ready = move || {
        if matches!(progress.get(), Progress::Busy(_)) || reviewer.with(|r| r.trim().is_empty()) {
            return None;
        }
        match preview()? {
            Preview::Ready(decision, drafts) if !drafts.is_empty() => {
                let outcome = outcome(&decision)?;
                Some((decision, drafts, outcome))
            }
            _ => None,
        }
    };
    let send_key = key.clone();
    let send = move || {
        let Some((decision, drafts, outcome)) = untrack(ready) else {
            return;
        };
        let (at, opened) = card.with_untracked(|c| (c.at.clone(), c.opened_by));
        let busy = format!(
            "Reading the thread, then sending {} for {}…",
            decision.literal(),
            at.session
        );
        let sending = Sending {
            key: send_key.clone(),
            at,
            opened,
            decision,
            drafts,
            seen: reviewed.get_untracked().unwrap_or_default(),
            reviewer: reviewer.get_untracked().trim().to_owned(),
            outcome,
        };
        let session = here.session;
        super::common::run_action(here, progress, busy, move |backend| async move {
            let done = send_once(backend, session, sending).await?;
            // Sent: the typed decision is done with (and forgotten by this browser).
            text.set(String::new());
            reason.set(String::new());
            Ok(done)
        });
    };
    let send_on_key = send.clone();

    let message_project = project.clone();
    view! {
        <li class="checkpoint-card" id=move || format!("checkpoint-{}", i.get()) tabindex="-1"
            data-session=session_id.clone() data-checkpoint=checkpoint.number()
            class:selected=move || selected.get() == i.get() on:focusin=move |_| selected.set(i.get_untracked())>
            <h3>
                {format!("#{} {} · ", checkpoint.number(), title(checkpoint))}
                <a href=routes::session(src, &project, &session_id)>{session_id.clone()}</a>
            </h3>
            <p class="muted">
                {move || {
                    let card = card.get();
                    let row = card.session;
                    view! {
                        {row.task.unwrap_or_default()}
                        " · planner " {row.planner.unwrap_or_else(|| "?".into())}
                        " · builder " {row.builder.unwrap_or_else(|| "?".into())}
                        {card.opened_at_ms.map(|ms| view! { " · opened " <Time ms /> })}
                        {card.opened_by.map(|id| view! {
                            " by " <a href=routes::message(src, &message_project, None, id)>{format!("message {id}")}</a>
                        })}
                        {row.next.map(|s| view! { " · next timeout " <Countdown at_ms=s.at_ms now /> })}
                    }
                }}
            </p>
            <div class="needs">
                <h4>"What to review"</h4>
                // A change order shows as one (evidence, attempted fixes); other checkpoints
                // show the opening message's artifacts or build result.
                {move || card.with(|c| match c.change_order.clone() {
                    Some(html) => view! { <EngineHtml html /> }.into_any(),
                    None => view! { <EngineHtml html=c.fields.clone() /> }.into_any(),
                })}
                // The mail's word on the contract, until the folder's files were read: then the
                // evidence panel computes it.
                {move || (!reviewed.with(|seen| seen.as_ref().is_some_and(|s| s.read))).then(|| {
                    let integrity_row = card.with(|c| c.session.integrity.clone());
                    let status = integrity_row.status.as_str();
                    view! {
                        <p class="integrity" data-integrity=status>
                            "Contract integrity: " {integrity(integrity_row)}
                        </p>
                    }
                })}
                {move || view! { <EngineHtml html=card.with(|c| c.audits.clone()) /> }}
                <EvidencePanel here key=key.clone() session=session_id.clone() checkpoint reviewed />
            </div>
            <form class="decision" on:submit=move |ev| { ev.prevent_default(); send(); }>
                <p class="decisions">
                    "Allowed: "
                    {checkpoint.decisions().iter().map(|&kind| view! {
                        <button type="button" class="choice" data-decision=kind.keyword()
                            on:click=move |_| {
                                text.set(kind.template());
                                if let Some(el) = field_ref.get_untracked() { let _ = el.focus(); }
                            }>{kind.literal()}</button>
                        " "
                    }).collect_view()}
                </p>
                <label for=move || format!("decision-{}", i.get())>{format!("Decision for {session_id} (as the seed writes it)")}</label>
                <textarea id=move || format!("decision-{}", i.get()) rows="2" node_ref=field_ref bind:value=text
                    on:keydown=move |ev| if ev.key() == "Enter" && (ev.ctrl_key() || ev.meta_key()) {
                        ev.prevent_default();
                        send_on_key();
                    }></textarea>
                {move || preview().map(|p| view! {
                    <div class="preview" aria-live="polite">{match p {
                        Preview::Refused(why) => view! { <p class="error">{why}</p> }.into_any(),
                        Preview::Ready(decision, drafts) => view! {
                            <p>"Decision: " <strong class="literal">{decision.literal()}</strong></p>
                            {drafts.into_iter().map(outgoing).collect_view()}
                        }.into_any(),
                    }}</div>
                })}
                {move || needs_reason.get().then(|| view! {
                    <div class="override">
                        <p class="warning">"This approval overrides what the evidence shows (see above): give your reason."</p>
                        <label for=move || format!("reason-{}", i.get())>"Reason for the override (recorded in the review trail)"</label>
                        <textarea id=move || format!("reason-{}", i.get()) rows="2" bind:value=reason></textarea>
                    </div>
                })}
                <button type="submit" class="send" disabled=move || ready().is_none()>"Send decision"</button>
            </form>
        </li>
    }
}

/// A message the decision sends, exactly as it will be sent (built by the core, so valid).
fn outgoing(draft: Draft) -> impl IntoView {
    view! {
        <div class="outgoing" data-subject=draft.subject.clone()>
            <p>
                "Will send " <strong>{draft.subject.clone()}</strong>
                {format!(" from {} to {}", draft.sender.unwrap_or_default(), draft.to.join(", "))}
                {draft.thread_id.map(|t| format!(" in thread {t}"))}
                " · " <span class="badge valid">"valid"</span>
            </p>
            <pre class="raw body-md">{draft.body_md}</pre>
        </div>
    }
}
