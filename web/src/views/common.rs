//! What the views share: route parameters, the navigation bar, error and progress display.

use crate::api::{Backend, BackendError};
use crate::routes;
use crate::session::Session;
use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_navigate, use_params_map};
use leptos_router::params::ParamsMap;
use std::future::Future;
use std::rc::Rc;

/// Percent-decodes a URL component once (invalid escapes are kept as they are; bytes that
/// are not UTF-8 become U+FFFD).
#[must_use]
pub fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| char::from(b).to_digit(16);
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push(u8::try_from(h * 16 + l).unwrap_or(b'?'));
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A route parameter as the router hands it over (empty when absent). leptos_router 0.8
/// already decodes path parameters once (`decodeURIComponent` in `ParamsMap::insert`), so
/// the value is used as it is: decoding it again opened thread `a/b` for `a%2Fb`.
#[must_use]
pub fn route_param(params: &ParamsMap, name: &str) -> String {
    params.get(name).unwrap_or_default()
}

/// A route parameter of the current route (see [`route_param`]).
#[must_use]
pub fn param(name: &'static str) -> Memo<String> {
    let params = use_params_map();
    Memo::new(move |_| params.with(|p| route_param(p, name)))
}

/// The first value of `name` in a raw query string (with or without its `?`), decoded once
/// as a browser's `URLSearchParams` does (`+` is a space). leptos_router 0.8's
/// `use_query_map` decodes query values twice (`URLSearchParams`, then `decodeURIComponent`),
/// so the console reads the raw query itself.
#[must_use]
pub fn query_value(search: &str, name: &str) -> Option<String> {
    let form = |text: &str| decode(&text.replace('+', " "));
    search
        .strip_prefix('?')
        .unwrap_or(search)
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| pair.split_once('=').unwrap_or((pair, "")))
        .find(|(key, _)| form(key) == name)
        .map(|(_, value)| form(value))
}

/// A query parameter of the current URL (see [`query_value`]).
#[must_use]
pub fn query_param(name: &'static str) -> Memo<Option<String>> {
    let location = use_location();
    Memo::new(move |_| location.search.with(|search| query_value(search, name)))
}

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

/// The route parameters most views need.
#[derive(Clone, Copy)]
pub struct Here {
    /// `demo` or `live`.
    pub src: Memo<String>,
    /// Project slug.
    pub project: Memo<String>,
    /// Agent name (empty outside a mailbox).
    pub agent: Memo<String>,
    /// The session (captured here: keyboard handlers run outside the reactive owner).
    pub session: Session,
}

impl Here {
    /// Reads the current route.
    #[must_use]
    pub fn new() -> Self {
        Self {
            src: param("src"),
            project: param("project"),
            agent: param("agent"),
            session: Session::get(),
        }
    }

    /// The backend of this route's source (tracks the session revision).
    ///
    /// # Errors
    /// Not connected, or an unknown source.
    pub fn backend(&self) -> Result<Rc<dyn Backend>, BackendError> {
        self.session.revision.track();
        self.session.backend(&self.src.get())
    }

    /// The source's clock ([`Backend::now_ms`]), ticking every second while the view lives.
    #[must_use]
    pub fn clock(&self) -> ReadSignal<i64> {
        let source = self.session.backend(&self.src.get_untracked()).ok();
        crate::components::time::use_clock(move || match &source {
            Some(backend) => backend.now_ms(),
            None => crate::clock::now_ms() as i64,
        })
    }
}

impl Default for Here {
    fn default() -> Self {
        Self::new()
    }
}

/// An error, with a way back to the connect screen when not connected.
#[component]
pub fn ErrorNote(error: BackendError) -> impl IntoView {
    let reconnect = matches!(
        error,
        BackendError::NotConnected
            | BackendError::TokenRequired { .. }
            | BackendError::Unauthorized { .. }
    );
    // Back to this page once connected (a reload loses an unremembered connection).
    let location = use_location();
    let here = format!(
        "{}{}",
        location.pathname.get_untracked(),
        location.search.get_untracked()
    );
    let connect = if routes::is_live_page(&here) {
        routes::connect_then(&here)
    } else {
        "/".to_string()
    };
    view! {
        <div class="error" role="alert">
            <p>{error.to_string()}</p>
            {reconnect.then(|| view! { <p><a href=connect>"Go to the connect screen"</a></p> })}
        </div>
    }
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

/// The navigation bar: where we are, the agent's pages, and project search (`/` focuses it).
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
                &here.src.get_untracked(),
                &here.project.get_untracked(),
                "search"
            ),
            crate::routes::encode(&query.get_untracked())
        );
        navigate(&url, Default::default());
    };
    let source_label = move || {
        if here.src.get() == "demo" {
            "Demo"
        } else {
            "Server"
        }
    };
    view! {
        <nav class="navbar" aria-label="Location">
            <ol class="crumbs">
                <li><a href="/">"Connect"</a></li>
                <li><a href=move || routes::projects(&here.src.get())>{source_label}</a></li>
                <Show when=move || !here.project.get().is_empty()>
                    <li>
                        <a href=move || routes::project(&here.src.get(), &here.project.get())>
                            {move || here.project.get()}
                        </a>
                    </li>
                </Show>
                <Show when=move || !here.agent.get().is_empty()>
                    <li>
                        <a href=move || routes::agent_page(&here.src.get(), &here.project.get(), &here.agent.get(), "inbox")>
                            {move || here.agent.get()}
                        </a>
                        " ("
                        <a href=move || routes::agent_page(&here.src.get(), &here.project.get(), &here.agent.get(), "inbox")>"inbox"</a>
                        " · "
                        <a href=move || routes::agent_page(&here.src.get(), &here.project.get(), &here.agent.get(), "outbox")>"outbox"</a>
                        " · "
                        <a href=move || routes::agent_page(&here.src.get(), &here.project.get(), &here.agent.get(), "contacts")>"contacts"</a>
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
    let step: fn(usize, usize) -> usize = match ev.key().as_str() {
        "j" | "ArrowDown" => |s, count| (s + 1).min(count - 1),
        "k" | "ArrowUp" => |s, _| s.saturating_sub(1),
        _ => return false,
    };
    if count > 0 {
        ev.prevent_default();
        selected.update(|s| *s = step(*s, count));
    }
    true
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

#[cfg(test)]
mod tests {
    use super::{decode, query_value};

    #[test]
    fn decodes_percent_escapes() {
        assert_eq!(decode("a%2Fb%20c"), "a/b c");
        assert_eq!(decode("100%"), "100%");
        assert_eq!(decode("%zz"), "%zz");
        assert_eq!(decode("%C3%BC"), "ü");
    }

    #[test]
    fn query_values_are_decoded_once() {
        let search = "?filter=thread_only&thread=a%252Fb%20c+d&empty=&flag";
        assert_eq!(query_value(search, "thread").as_deref(), Some("a%2Fb c d"));
        assert_eq!(
            query_value(search, "filter").as_deref(),
            Some("thread_only")
        );
        assert_eq!(query_value(search, "empty").as_deref(), Some(""));
        assert_eq!(query_value(search, "flag").as_deref(), Some(""));
        assert_eq!(query_value(search, "missing"), None);
        assert_eq!(query_value("q=1&q=2", "q").as_deref(), Some("1"));
        assert_eq!(query_value("", "q"), None);
    }
}
