//! What a view reads from its route: path parameters (decoded once, by the router), query
//! values (decoded once, by the console), and [`Here`], the parameters most views need with
//! the console's session.

use crate::api::{Backend, BackendError};
use crate::model::TrafficKey;
use crate::percent::decode;
use crate::routes::Source;
use crate::session::Session;
use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_params_map};
use leptos_router::params::ParamsMap;
use std::rc::Rc;

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

/// The route parameters most views need.
#[derive(Clone, Copy)]
pub struct Here {
    /// The demo or the connected server (the router matches no other source).
    pub src: Signal<Source>,
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
        let src = param("src");
        Self {
            // Routes match `:src` only where it names a source; elsewhere no view asks.
            src: Signal::derive(move || src.with(|s| Source::parse(s)).unwrap_or(Source::Demo)),
            project: param("project"),
            agent: param("agent"),
            session: Session::get(),
        }
    }

    /// The route's project traffic (tracked).
    #[must_use]
    pub fn key(&self) -> TrafficKey {
        TrafficKey {
            src: self.src.get(),
            project: self.project.get(),
        }
    }

    /// The backend of this route's source (tracks the session revision).
    ///
    /// # Errors
    /// Not connected.
    pub fn backend(&self) -> Result<Rc<dyn Backend>, BackendError> {
        self.session.revision.track();
        self.session.backend(self.src.get())
    }

    /// The source's clock ([`Backend::now_ms`]), ticking every second while the view lives.
    #[must_use]
    pub fn clock(&self) -> ReadSignal<i64> {
        let source = self.session.backend(self.src.get_untracked()).ok();
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

#[cfg(test)]
mod tests {
    use super::query_value;

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
