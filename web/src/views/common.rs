//! What the views share: the navigation bar, actions with their progress, keyboard
//! helpers, and links followed with their encoding kept.

use crate::api::{Backend, BackendError};
use crate::components::folder::FolderLink;
use crate::components::route::Here;
use crate::routes::{self, Source};
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use std::future::Future;
use std::rc::Rc;

/// Follows a click on a same-origin link with the router, keeping the link's path exactly
/// as written. leptos_router 0.8 pushes the path through `decodeURI` before it goes to the
/// address bar, so a link to thread `a%25b` (the thread `a%b`) left `…/a%b` there and a
/// reload opened another thread. Only links whose path `decodeURI` would change are taken
/// over; the router follows every other click as before.
pub fn follow_link_exactly(ev: &web_sys::MouseEvent, navigate: &dyn Fn(&str)) {
    use wasm_bindgen::JsCast;
    if ev.default_prevented()
        || ev.button() != 0
        || ev.meta_key()
        || ev.alt_key()
        || ev.ctrl_key()
        || ev.shift_key()
    {
        return;
    }
    let Some(anchor) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|el| el.closest("a[href]").ok().flatten())
        .and_then(|el| el.dyn_into::<web_sys::HtmlAnchorElement>().ok())
    else {
        return;
    };
    let external = anchor
        .get_attribute("rel")
        .is_some_and(|rel| rel.split_ascii_whitespace().any(|r| r == "external"));
    if !anchor.target().is_empty() || anchor.has_attribute("download") || external {
        return;
    }
    let Ok(url) = web_sys::Url::new(&anchor.href()) else {
        return;
    };
    let here = window().location().origin().unwrap_or_default();
    let path = url.pathname();
    let unchanged = js_sys::decode_uri(&path).is_ok_and(|decoded| decoded == path.as_str());
    if url.origin() != here || unchanged {
        return;
    }
    ev.prevent_default();
    navigate(&format!("{path}{}{}", url.search(), url.hash()));
}

/// The progress and outcome of an action.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Progress {
    /// Nothing happening.
    #[default]
    Idle,
    /// Running (what).
    Busy(String),
    /// Succeeded (what happened).
    Done(String),
    /// Failed (why).
    Failed(String),
}

/// Runs an action against the route's backend with its progress shown: `busy` while it
/// runs, then the text the action returns, or its error. A success reloads the views.
pub fn run_action<F, Fut>(here: Here, progress: RwSignal<Progress>, busy: String, action: F)
where
    F: FnOnce(Rc<dyn Backend>) -> Fut + 'static,
    Fut: Future<Output = Result<String, BackendError>> + 'static,
{
    let session = here.session;
    let backend = here.backend();
    progress.set(Progress::Busy(busy));
    leptos::task::spawn_local(async move {
        let outcome = match backend {
            Ok(backend) => action(backend).await,
            Err(error) => Err(error),
        };
        // The view may be gone by now (navigated away): its progress with it.
        match outcome {
            Ok(text) => {
                progress.try_set(Progress::Done(text));
                session.bump();
            }
            Err(error) => {
                progress.try_set(Progress::Failed(error.to_string()));
            }
        }
    });
}

/// Shows a [`Progress`] in a live region.
#[component]
pub fn ProgressNote(progress: RwSignal<Progress>) -> impl IntoView {
    view! {
        <p class="progress" role="status" aria-live="polite" data-state=move || match progress.get() {
            Progress::Idle => "idle",
            Progress::Busy(_) => "busy",
            Progress::Done(_) => "done",
            Progress::Failed(_) => "failed",
        }>
            {move || match progress.get() {
                Progress::Idle => String::new(),
                Progress::Busy(text) | Progress::Done(text) => text,
                Progress::Failed(text) => format!("Failed: {text}"),
            }}
        </p>
    }
}

/// The navigation bar: where we are, the agent's pages, project search (`/` focuses it),
/// and the project's linked folder.
#[component]
pub fn NavBar() -> impl IntoView {
    let here = Here::new();
    let navigate = use_navigate();
    let query = RwSignal::new(String::new());
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let url = format!(
            "{}?q={}",
            routes::project_page(
                here.src.get_untracked(),
                &here.project.get_untracked(),
                "search"
            ),
            crate::percent::encode(&query.get_untracked())
        );
        navigate(&url, Default::default());
    };
    let source_label = move || {
        if here.src.get() == Source::Demo {
            "Demo"
        } else {
            "Server"
        }
    };
    view! {
        <nav class="navbar" aria-label="Location">
            <ol class="crumbs">
                <li><a href="/">"Connect"</a></li>
                <li><a href=move || routes::projects(here.src.get())>{source_label}</a></li>
                <Show when=move || !here.project.get().is_empty()>
                    <li>
                        <a href=move || routes::project(here.src.get(), &here.project.get())>
                            {move || here.project.get()}
                        </a>
                    </li>
                </Show>
                <Show when=move || !here.agent.get().is_empty()>
                    <li>
                        <a href=move || routes::agent_page(here.src.get(), &here.project.get(), &here.agent.get(), "inbox")>
                            {move || here.agent.get()}
                        </a>
                        " ("
                        <a href=move || routes::agent_page(here.src.get(), &here.project.get(), &here.agent.get(), "inbox")>"inbox"</a>
                        " · "
                        <a href=move || routes::agent_page(here.src.get(), &here.project.get(), &here.agent.get(), "outbox")>"outbox"</a>
                        " · "
                        <a href=move || routes::agent_page(here.src.get(), &here.project.get(), &here.agent.get(), "contacts")>"contacts"</a>
                        ")"
                    </li>
                </Show>
            </ol>
            <Show when=move || !here.project.get().is_empty()>
                <form class="search-form" role="search" on:submit=submit.clone()>
                    <label for="search">"Search messages"</label>
                    <input id="search" name="q" type="search" placeholder="Press / to search"
                        bind:value=query />
                    <button type="submit">"Search"</button>
                </form>
                // Secrets in mail (keys, tokens, passwords) are masked in every view until
                // the reviewer reveals them.
                <button type="button" class="reveal secondary"
                    aria-pressed=move || here.session.reveal.get().to_string()
                    title="Keys, tokens and passwords in mail are masked in every view"
                    on:click=move |_| here.session.reveal.update(|r| *r = !*r)>
                    {move || if here.session.reveal.get() { "Mask secrets" } else { "Reveal secrets" }}
                </button>
                <FolderLink />
            </Show>
        </nav>
    }
}

/// Whether a key event comes from a text field (where shortcuts must not fire).
#[must_use]
pub fn typing_in_field(ev: &web_sys::KeyboardEvent) -> bool {
    use wasm_bindgen::JsCast;
    let Some(target) = ev.target() else {
        return false;
    };
    let Ok(element) = target.dyn_into::<web_sys::Element>() else {
        return false;
    };
    let tag = element.tag_name().to_ascii_lowercase();
    matches!(tag.as_str(), "input" | "textarea" | "select")
        || element.has_attribute("contenteditable")
}

/// Moves a list's selection for `j`/`k` and the arrow keys (`count` rows); whether the key
/// was one of them.
pub fn move_selection(
    ev: &web_sys::KeyboardEvent,
    selected: RwSignal<usize>,
    count: usize,
) -> bool {
    match moved_selection(ev, selected.get_untracked(), count) {
        Some(to) => {
            if count > 0 {
                selected.set(to);
            }
            true
        }
        None => false,
    }
}

/// Where `j`/`k` and the arrow keys move a list's selection from row `at` (`count` rows; the
/// key's default action prevented when there are rows); `None` for any other key.
pub fn moved_selection(ev: &web_sys::KeyboardEvent, at: usize, count: usize) -> Option<usize> {
    let step: fn(usize, usize) -> usize = match ev.key().as_str() {
        "j" | "ArrowDown" => |s, count| (s + 1).min(count - 1),
        "k" | "ArrowUp" => |s, _| s.saturating_sub(1),
        _ => return None,
    };
    if count == 0 {
        return Some(at);
    }
    ev.prevent_default();
    Some(step(at, count))
}

/// Focuses the navigation bar's search field (the `/` shortcut).
pub fn focus_search() {
    use wasm_bindgen::JsCast;
    if let Some(input) = document()
        .get_element_by_id("search")
        .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = input.focus();
    }
}
