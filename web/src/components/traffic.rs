//! A protocol view's data: the route's project traffic (read on first use, then kept up to
//! date), its progress while it is read, the engine's answers for the view, and the links
//! between the protocol views.

use super::load::{fetch, load, Data, Loaded};
use super::status::Problem;
use crate::api::BackendError;
use crate::model::{Request, Response, TrafficKey};
use crate::routes;
use crate::store::TrafficState;
#[cfg(target_arch = "wasm32")]
use crate::store::POLL_MS;
use crate::views::common::{ErrorNote, Here};
use leptos::prelude::*;

/// The route's traffic: its key and state. Reads it when first asked, asks for newer mail
/// after every action and every [`POLL_MS`] while the view lives.
pub fn use_traffic(here: Here) -> (Memo<TrafficKey>, Memo<Option<TrafficState>>) {
    let session = here.session;
    // The engine will fold the traffic: have its worker ready when the mail arrives.
    session.link().warm();
    let key = Memo::new(move |_| TrafficKey {
        src: here.src.get(),
        project: here.project.get(),
    });
    Effect::new(move |_| {
        session.revision.track();
        session.traffic.refresh(session, key.get());
    });
    #[cfg(target_arch = "wasm32")]
    {
        let poll = set_interval_with_handle(
            move || session.traffic.refresh(session, key.get_untracked()),
            std::time::Duration::from_millis(u64::from(POLL_MS)),
        );
        if let Ok(handle) = poll {
            on_cleanup(move || handle.clear());
        }
    }
    let state = Memo::new(move |_| session.traffic.state(&key.get()));
    (key, state)
}

/// The engine's answer to `request` (re-asked when the traffic changes or a signal the
/// request reads changes); `None` until the traffic is in the engine. One resource type for
/// every protocol view.
pub fn engine_resource(
    here: Here,
    state: Memo<Option<TrafficState>>,
    request: impl Fn() -> Request + 'static,
) -> Data {
    engine_call(here, move || {
        matches!(state.get(), Some(TrafficState::Ready { .. })).then(&request)
    })
}

/// The engine's answer to the request `request` makes (`None`: nothing to ask yet),
/// re-asked when a signal it reads changes.
pub fn engine_call(here: Here, request: impl Fn() -> Option<Request> + 'static) -> Data {
    let session = here.session;
    load(move || {
        let request = request();
        let link = session.link();
        fetch(async move {
            let response = match link.call(request?).await {
                Ok(response) => response,
                Err(text) => Response::Failed(text),
            };
            Some(Ok(Loaded::Engine(response)))
        })
    })
}

/// The engine's answer in a [`Data`] value: `None` before it is asked, its failure as text.
#[must_use]
pub fn engine_of(
    loaded: Option<Option<Result<Loaded, BackendError>>>,
) -> Option<Option<Result<Response, String>>> {
    Some(match loaded? {
        None => None,
        Some(Ok(Loaded::Engine(Response::Failed(text)))) => Some(Err(text)),
        Some(Ok(Loaded::Engine(response))) => Some(Ok(response)),
        Some(Ok(_)) => Some(Err("The engine answered off topic.".into())),
        Some(Err(error)) => Some(Err(error.to_string())),
    })
}

/// The traffic's state: a progress indicator while it is read, the error if it failed,
/// its size once loaded.
#[component]
pub fn TrafficNote(
    /// The state.
    state: Memo<Option<TrafficState>>,
) -> impl IntoView {
    move || {
        match state.get() {
        None => view! { <p class="traffic" role="status">"Reading the project's mail…"</p> }.into_any(),
        Some(TrafficState::Loading(p)) => view! {
            <div class="traffic loading" role="status" aria-live="polite">
                <p>
                    {if p.mailboxes == 0 {
                        "Reading the project's mail…".to_string()
                    } else {
                        format!(
                            "Reading the project's mail: {} of {} mailboxes, {} messages so far…",
                            p.mailboxes_read, p.mailboxes, p.messages
                        )
                    }}
                </p>
                <progress max=p.mailboxes.max(1) value=p.mailboxes_read></progress>
            </div>
        }
        .into_any(),
        Some(TrafficState::Failed(error)) => view! { <ErrorNote error /> }.into_any(),
        Some(TrafficState::Ready { summary, notes, .. }) => view! {
            <p class="traffic muted">
                {format!(
                    "{} messages read from the project's mail, {} Pair sessions; new mail is read as it arrives.",
                    summary.messages, summary.sessions
                )}
            </p>
            {notes.into_iter().map(|n| view! { <p class="warning">{n}</p> }).collect_view()}
        }
        .into_any(),
    }
    }
}

/// Shows an engine answer: `render` for the expected variant, a problem otherwise, nothing
/// before the traffic is loaded (the [`TrafficNote`] says why).
pub fn answer(
    data: Data,
    render: impl Fn(Response) -> Option<AnyView> + Send + Sync + 'static,
) -> impl IntoView {
    move || match engine_of(data.get()) {
        None | Some(None) => ().into_any(),
        Some(Some(Err(text))) => view! { <Problem text /> }.into_any(),
        Some(Some(Ok(response))) => render(response).unwrap_or_else(|| {
            view! { <Problem text="The engine answered off topic.".to_string() /> }.into_any()
        }),
    }
}

/// Links between a project's protocol views and its agents; `current` is marked.
#[component]
pub fn ProtocolNav(
    /// The route.
    here: Here,
    /// `sessions`, `checkpoints`, `audits` or `tasks`.
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
            <a href=move || routes::project_page(&here.src.get(), &here.project.get(), page)
                aria-current=(page == current).then_some("page")>{label}</a>
        }
    };
    view! {
        <nav class="filters protocol-nav" aria-label="Protocol views">
            {link("sessions", "Sessions")}
            <a href=move || routes::project_page(&here.src.get(), &here.project.get(), "checkpoints")
                aria-current=("checkpoints" == current).then_some("page")>
                {move || format!("Checkpoints ({})", open())}
            </a>
            {link("audits", "Audit reports")}
            {link("tasks", "Task boards")}
            <a href=move || routes::project(&here.src.get(), &here.project.get())>"Agents"</a>
        </nav>
    }
}
