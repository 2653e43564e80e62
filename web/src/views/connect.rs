//! The connect screen: where a reviewer points the console at an Agent Mail server (with an
//! optional bearer token, per-agent tokens and a project), or opens the built-in demo.
//! Connecting runs the capability probe; failures are diagnosed in words a user can act on.
//! Once connected it opens `?next=` when that is a live page (the page a reload left).

use super::common::{Progress, ProgressNote};
use crate::api::mcp::{ConnectConfig, McpBackend};
use crate::components::route::query_param;
use crate::routes::{self, Source};
use crate::session::{self, Session};
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use std::rc::Rc;

/// Reconnects with settings remembered in sessionStorage (when the user ticked "remember").
pub fn restore_remembered(session: Session) {
    if let Some(config) = session::remembered() {
        leptos::task::spawn_local(async move {
            if let Ok(backend) = McpBackend::connect(config).await {
                session.set_live(Rc::new(backend));
            }
        });
    }
}

/// The connect form and the demo entry.
#[component]
pub fn ConnectScreen() -> impl IntoView {
    let remembered = session::remembered().unwrap_or_default();
    let server_url = RwSignal::new(remembered.server.clone());
    let token = RwSignal::new(remembered.bearer.clone().unwrap_or_default());
    let project = RwSignal::new(remembered.project.clone().unwrap_or_default());
    let agent_tokens = RwSignal::new(
        remembered
            .agent_tokens
            .iter()
            .map(|(agent, token)| format!("{agent}={token}"))
            .collect::<Vec<_>>()
            .join("\n"),
    );
    let show_tokens = RwSignal::new(false);
    let remember = RwSignal::new(!remembered.server.is_empty());
    let progress = RwSignal::new(Progress::Idle);
    let navigate = use_navigate();
    let next = query_param("next");
    let session = Session::get();

    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let tokens = match ConnectConfig::parse_agent_tokens(&agent_tokens.get_untracked()) {
            Ok(tokens) => tokens,
            Err(text) => return progress.set(Progress::Failed(text)),
        };
        let non_empty = |s: String| Some(s.trim().to_string()).filter(|s| !s.is_empty());
        let config = ConnectConfig {
            server: server_url.get_untracked().trim().to_string(),
            bearer: non_empty(token.get_untracked()),
            agent_tokens: tokens,
            project: non_empty(project.get_untracked()),
        };
        let navigate = navigate.clone();
        let keep = remember.get_untracked();
        let next = next.get_untracked().filter(|n| routes::is_live_page(n));
        progress.set(Progress::Busy(format!("Connecting to {}…", config.server)));
        leptos::task::spawn_local(async move {
            match McpBackend::connect(config).await {
                Ok(backend) => {
                    let caps = crate::api::Backend::capabilities(&backend);
                    if keep {
                        session::remember(backend.config());
                    } else {
                        session::forget();
                    }
                    let target = match (next, &backend.config().project) {
                        (Some(next), _) => next,
                        (None, Some(project)) => routes::project(Source::Live, project),
                        (None, None) => routes::projects(Source::Live),
                    };
                    progress.set(Progress::Done(format!(
                        "Connected: {}.",
                        caps.variant.label()
                    )));
                    session.set_live(Rc::new(backend));
                    navigate(&target, Default::default());
                }
                Err(err) => progress.set(Progress::Failed(err.to_string())),
            }
        });
    };

    view! {
        <section class="connect" aria-labelledby="connect-title">
            <h2 id="connect-title">"Connect to an Agent Mail server"</h2>
            {move || session.live_endpoint().map(|server| view! {
                <p class="connected">"Connected to " {server} ". "
                    <button type="button" class="secondary" on:click=move |_| session.disconnect()>
                        "Disconnect"
                    </button>
                </p>
            })}
            <form class="connect-form" on:submit=submit>
                <label for="server-url">"Server URL"</label>
                <input id="server-url" name="server-url" type="url" required
                    placeholder="http://127.0.0.1:8765"
                    bind:value=server_url />
                <label for="bearer-token">"Bearer token (optional)"</label>
                <input id="bearer-token" name="bearer-token" type="password" autocomplete="off"
                    bind:value=token />
                <label for="agent-tokens">"Agent tokens (optional, one Agent=token per line)"</label>
                // A textarea cannot be type=password: the tokens are masked by CSS
                // (`.secret`, -webkit-text-security) until "Show agent tokens" is ticked.
                <textarea id="agent-tokens" name="agent-tokens" rows="3" autocomplete="off"
                    autocapitalize="off" spellcheck="false" class="secret"
                    class:shown=show_tokens bind:value=agent_tokens></textarea>
                <label for="show-agent-tokens">"Show agent tokens"</label>
                <input id="show-agent-tokens" name="show-agent-tokens" type="checkbox"
                    bind:checked=show_tokens />
                <label for="project">"Project (optional)"</label>
                <input id="project" name="project" type="text" bind:value=project />
                <label for="remember">"Remember for this tab (sessionStorage)"</label>
                <input id="remember" name="remember" type="checkbox" bind:checked=remember />
                <label for="keep-traffic">"Keep read mail in this browser (IndexedDB)"</label>
                <input id="keep-traffic" name="keep-traffic" type="checkbox" prop:checked=crate::store::kept::enabled()
                    on:change=move |ev| crate::store::kept::enable(event_target_checked(&ev)) />
                <button type="submit" disabled=move || matches!(progress.get(), Progress::Busy(_))>"Connect"</button>
            </form>
            <ProgressNote progress />
        </section>
        <section class="demo-entry" aria-labelledby="demo-title">
            <h2 id="demo-title">"No server at hand?"</h2>
            <p>"Explore the built-in demo: several projects and agents, every protocol family."</p>
            <a class="button" href="/demo">"Open the demo"</a>
        </section>
    }
}
