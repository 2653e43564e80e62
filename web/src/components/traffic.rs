//! A protocol view's data: the route's project traffic (read on first use, then kept up to
//! date), its progress while it is read, the engine's answers for the view, and the links
//! between the protocol views.

use super::load::{load_erased, Data, Held};
use super::route::Here;
use super::status::ErrorNote;
use crate::api::{BackendError, TrafficProgress};
use crate::ask::{Ask, Request};
use crate::model::TrafficKey;
use crate::routes;
use crate::store::TrafficState;
#[cfg(target_arch = "wasm32")]
use crate::store::POLL_MS;
use leptos::prelude::*;
use std::future::Future;
use std::pin::Pin;

/// The route's traffic: its key and state. Reads it when first asked, asks for newer mail
/// after every action and every [`POLL_MS`] while the view lives.
pub fn use_traffic(here: Here) -> (Memo<TrafficKey>, Memo<Option<TrafficState>>) {
    let key = Memo::new(move |_| TrafficKey {
        src: here.src.get(),
        project: here.project.get(),
    });
    keep_reading(here, move || vec![key.get()]);
    let state = Memo::new(move |_| here.session.traffic.state(&key.get()));
    (key, state)
}

/// Reads the traffic of each project `keys` names when first asked, and asks for newer mail
/// after every action and every [`POLL_MS`] while the view lives.
pub fn keep_reading(here: Here, keys: impl Fn() -> Vec<TrafficKey> + Copy + 'static) {
    let session = here.session;
    // The engine will fold the traffic: have its worker ready when the mail arrives.
    session.link().warm();
    Effect::new(move |_| {
        session.revision.track();
        for key in keys() {
            session.refresh_traffic(key);
        }
    });
    #[cfg(target_arch = "wasm32")]
    {
        let poll = set_interval_with_handle(
            move || {
                for key in untrack(keys) {
                    session.refresh_traffic(key);
                }
            },
            std::time::Duration::from_millis(u64::from(POLL_MS)),
        );
        if let Ok(handle) = poll {
            on_cleanup(move || handle.clear());
        }
    }
}

/// The engine's answer to the question `ask` makes (re-asked when the engine takes a page
/// of the traffic or a signal `ask` reads changes, not on the read's progress); nothing
/// until the first page is in the engine.
pub fn engine_resource<Q: Ask + 'static>(
    here: Here,
    state: Memo<Option<TrafficState>>,
    ask: impl Fn() -> Q + 'static,
) -> Data<Q::Answer> {
    let generation = Memo::new(move |_| match state.get() {
        Some(TrafficState::Ready { generation, .. }) => Some(generation),
        _ => None,
    });
    engine_call(here, move || generation.get().map(|_| ask()))
}

/// The engine's answer to the question `ask` makes (`None`: nothing to ask yet), re-asked
/// when a signal it reads changes.
pub fn engine_call<Q: Ask + 'static>(
    here: Here,
    ask: impl Fn() -> Option<Q> + 'static,
) -> Data<Q::Answer> {
    load_erased(engine_fetch(here, Box::new(move || ask().map(Q::request))))
}

/// The loader of every engine answer: asks what `request` makes, keeps the answer erased
/// (the engine answers each question with its own type, which [`Data`] reads it as).
fn engine_fetch(
    here: Here,
    request: Box<dyn Fn() -> Option<Request>>,
) -> Box<dyn Fn() -> Pin<Box<dyn Future<Output = Held>>>> {
    let session = here.session;
    Box::new(move || {
        let asked = request().map(|request| session.link().answer(request));
        Box::pin(async move { Some(asked?.await.map_err(BackendError::from)) })
    })
}

/// The traffic's state: a progress indicator while it is read, the error if it failed,
/// its size once loaded.
#[component]
pub fn TrafficNote(
    /// The state.
    state: Memo<Option<TrafficState>>,
) -> impl IntoView {
    move || match state.get() {
        None => {
            view! { <p class="traffic" role="status">"Reading the project's mail…"</p> }.into_any()
        }
        Some(TrafficState::Loading(p)) => reading(p, None).into_any(),
        Some(TrafficState::Failed(error)) => view! { <ErrorNote error /> }.into_any(),
        Some(TrafficState::Ready {
            summary,
            notes,
            reading: arriving,
            poll_failed,
            ..
        }) => {
            let then = if poll_failed.is_some() {
                "."
            } else {
                "; new mail is read as it arrives."
            };
            view! {
                {match arriving {
                    Some(p) => reading(p, Some(summary.messages)).into_any(),
                    None => view! {
                        <p class="traffic muted">
                            {format!(
                                "{} messages read from the project's mail, {} Pair sessions{then}",
                                summary.messages, summary.sessions
                            )}
                        </p>
                    }
                    .into_any(),
                }}
                {notes.into_iter().chain(poll_failed).map(|n| view! { <p class="warning">{n}</p> }).collect_view()}
            }
            .into_any()
        }
    }
}

/// The read still arriving: how far it got, and (once the engine holds `shown` messages)
/// what the views show meanwhile.
fn reading(p: TrafficProgress, shown: Option<usize>) -> impl IntoView {
    let text = if p.mailboxes == 0 {
        "Reading the project's mail…".to_string()
    } else {
        format!(
            "Reading the project's mail: {} of {} mailboxes, {} messages so far…",
            p.mailboxes_read, p.mailboxes, p.messages
        )
    };
    view! {
        <div class="traffic loading" role="status" aria-live="polite">
            <p>{text}</p>
            {shown.map(|shown| view! {
                <p>"Shown so far: " {shown} " messages; a session still being read says so."</p>
            })}
            <progress max=p.mailboxes.max(1) value=p.mailboxes_read></progress>
        </div>
    }
}

/// Shows a view's data: `render` for the value, the error otherwise, nothing while it
/// loads or before the traffic is loaded (the [`TrafficNote`] says why).
pub fn answer<T: Clone + 'static>(
    data: Data<T>,
    render: impl Fn(T) -> AnyView + Send + Sync + 'static,
) -> impl IntoView {
    move || match data.get() {
        None | Some(None) => ().into_any(),
        Some(Some(Err(error))) => view! { <ErrorNote error /> }.into_any(),
        Some(Some(Ok(value))) => render(value),
    }
}

/// Links between a project's protocol views and its agents; `current` is marked.
#[component]
pub fn ProtocolNav(
    /// The route.
    here: Here,
    /// `sessions`, `checkpoints`, `audits`, `tasks` or `conformance`.
    current: &'static str,
) -> impl IntoView {
    let open = move || {
        let key = TrafficKey {
            src: here.src.get(),
            project: here.project.get(),
        };
        match here.session.traffic.state(&key) {
            Some(TrafficState::Ready { summary, .. }) => summary.open.len(),
            _ => 0,
        }
    };
    let link = move |page: &'static str, label: &'static str| {
        view! {
            <a href=move || routes::project_page(here.src.get(), &here.project.get(), page)
                aria-current=(page == current).then_some("page")>{label}</a>
        }
    };
    view! {
        <nav class="filters protocol-nav" aria-label="Protocol views">
            {link("sessions", "Sessions")}
            <a href=move || routes::project_page(here.src.get(), &here.project.get(), "checkpoints")
                aria-current=("checkpoints" == current).then_some("page")>
                {move || format!("Checkpoints ({})", open())}
            </a>
            {link("audits", "Audit reports")}
            {link("tasks", "Task boards")}
            {link("conformance", "Conformance")}
            <a href=move || routes::project(here.src.get(), &here.project.get())>"Agents"</a>
        </nav>
    }
}
