//! URLs of every view. Path segments are percent-encoded; the router decodes them.
//!
//! - `/` connect screen (`?next=` a live page to return to); `/demo` and `/live` project lists;
//!   `/{src}/queue` every open checkpoint of the server's projects
//! - `/{src}/p/{project}` agents; `…/reservations`, `…/search?q=`, `…/compose`
//! - `/{src}/p/{project}/a/{agent}/inbox|outbox?filter=…&thread=…`
//! - `/{src}/p/{project}/a/{agent}/thread/{thread}`, `…/a/{agent}/m/{id}`, `…/a/{agent}/contacts`
//! - `/{src}/p/{project}/m/{id}` a message outside any mailbox (search results)
//! - `/{src}/p/{project}/sessions`, `…/sessions/{id}`, `…/checkpoints`, `…/audits`, `…/tasks`,
//!   `…/conformance` the protocol views; the demo also answers `/demo/sessions`,
//!   `/demo/checkpoints`, `/demo/audits` and `/demo/tasks` (the project where each is
//!   populated)
//!
//! `{src}` is a [`Source`]: the router matches only `demo` and `live` there
//! ([`SourceSegment`]), so a view never sees another.

use crate::percent::encode;
use leptos_router::{ParamSegment, PartialPathMatch, PathSegment, PossibleRouteMatch};
use serde::{Deserialize, Serialize};
use std::fmt;
use switchboard_core::pane::FilterMode;

/// Where the console's data come from: the built-in demo or the connected server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Source {
    /// The built-in demo (`/demo/…`).
    Demo,
    /// The connected server (`/live/…`).
    Live,
}

impl Source {
    /// The URL segment: `demo` or `live`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Source::Demo => "demo",
            Source::Live => "live",
        }
    }

    /// The source a URL segment names.
    #[must_use]
    pub fn parse(segment: &str) -> Option<Source> {
        [Source::Demo, Source::Live]
            .into_iter()
            .find(|s| s.as_str() == segment)
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The route segment `:src` that matches a [`Source`] only (`/demo`, `/live`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SourceSegment;

impl PossibleRouteMatch for SourceSegment {
    fn optional(&self) -> bool {
        false
    }

    fn test<'a>(&self, path: &'a str) -> Option<PartialPathMatch<'a>> {
        let segment = path.strip_prefix('/').unwrap_or(path).split('/').next()?;
        Source::parse(segment)?;
        ParamSegment("src").test(path)
    }

    fn generate_path(&self, path: &mut Vec<PathSegment>) {
        ParamSegment("src").generate_path(path);
    }
}

/// The project list of a source.
#[must_use]
pub fn projects(src: Source) -> String {
    format!("/{src}")
}

/// A project's page (its agents).
#[must_use]
pub fn project(src: Source, project: &str) -> String {
    format!("/{src}/p/{}", encode(project))
}

/// The server's queue: every open checkpoint across its projects.
#[must_use]
pub fn queue(src: Source) -> String {
    format!("/{src}/queue")
}

/// A sub-page of a project (`reservations`, `search`, `compose`, `sessions`, `checkpoints`,
/// `audits`, `tasks`, `conformance`).
#[must_use]
pub fn project_page(src: Source, project: &str, page: &str) -> String {
    format!("{}/{page}", self::project(src, project))
}

/// One Pair session.
#[must_use]
pub fn session(src: Source, project: &str, id: &str) -> String {
    format!("{}/sessions/{}", self::project(src, project), encode(id))
}

/// The demo project where a protocol view (`sessions`, `checkpoints`, `audits`, `tasks`) is
/// populated, for the demo's short URLs (`/demo/sessions`).
#[must_use]
pub const fn demo_project_of(page: &str) -> &'static str {
    match page.as_bytes() {
        b"tasks" => "po-factory",
        _ => "pair-lab",
    }
}

/// An agent's page (`inbox`, `outbox`, `contacts`).
#[must_use]
pub fn agent_page(src: Source, project: &str, agent: &str, page: &str) -> String {
    format!("{}/a/{}/{page}", self::project(src, project), encode(agent))
}

/// A mailbox with its filter and thread in the query.
#[must_use]
pub fn mailbox(
    src: Source,
    project: &str,
    agent: &str,
    outbox: bool,
    mode: FilterMode,
    thread: Option<&str>,
) -> String {
    let page = if outbox { "outbox" } else { "inbox" };
    let mut url = agent_page(src, project, agent, page);
    let mut sep = '?';
    if mode != FilterMode::All {
        url.push_str(&format!("?filter={}", mode.as_str()));
        sep = '&';
    }
    if let Some(thread) = thread {
        url.push_str(&format!("{sep}thread={}", encode(thread)));
    }
    url
}

/// A thread seen from an agent's mailbox.
#[must_use]
pub fn thread(src: Source, project: &str, agent: &str, thread: &str) -> String {
    format!(
        "{}/a/{}/thread/{}",
        self::project(src, project),
        encode(agent),
        encode(thread)
    )
}

/// A message, from an agent's mailbox or (no agent) from the project.
#[must_use]
pub fn message(src: Source, project: &str, agent: Option<&str>, id: u64) -> String {
    match agent {
        Some(agent) => format!("{}/a/{}/m/{id}", self::project(src, project), encode(agent)),
        None => format!("{}/m/{id}", self::project(src, project)),
    }
}

/// The connect screen, returning to the live page `next` once connected.
#[must_use]
pub fn connect_then(next: &str) -> String {
    format!("/?next={}", encode(next))
}

/// Whether `next` (from the connect screen's query) is a live page of this console; anything
/// else (another origin, `//host`, the demo) is ignored rather than followed.
#[must_use]
pub fn is_live_page(next: &str) -> bool {
    next == "/live" || next.starts_with("/live/") || next.starts_with("/live?")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_stable_and_encoded() {
        assert_eq!(
            mailbox(
                Source::Demo,
                "pair-lab",
                "BlueLake",
                false,
                FilterMode::All,
                None
            ),
            "/demo/p/pair-lab/a/BlueLake/inbox"
        );
        assert_eq!(
            mailbox(
                Source::Live,
                "p",
                "A",
                true,
                FilterMode::UnackedOnly,
                Some("FEAT 1")
            ),
            "/live/p/p/a/A/outbox?filter=unacked_only&thread=FEAT%201"
        );
        assert_eq!(
            thread(Source::Demo, "p", "A", "a/b"),
            "/demo/p/p/a/A/thread/a%2Fb"
        );
        assert_eq!(message(Source::Demo, "p", None, 7), "/demo/p/p/m/7");
        assert_eq!(
            project_page(Source::Demo, "p", "search"),
            "/demo/p/p/search"
        );
        assert_eq!(
            session(Source::Live, "p", "pair:a+b#1"),
            "/live/p/p/sessions/pair%3Aa%2Bb%231"
        );
        assert_eq!(
            connect_then("/live/p/p/m/7?reply"),
            "/?next=%2Flive%2Fp%2Fp%2Fm%2F7%3Freply"
        );
    }

    #[test]
    fn only_live_pages_are_returned_to() {
        for ok in ["/live", "/live/p/x/a/A/inbox?filter=all", "/live?x"] {
            assert!(is_live_page(ok), "{ok}");
        }
        for bad in [
            "//evil.example/live/",
            "https://evil.example/live/",
            "/demo/p/x",
            "/lively",
            "",
            "live/p",
        ] {
            assert!(!is_live_page(bad), "{bad}");
        }
    }
}
