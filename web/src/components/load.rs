//! One resource type for every view's data. Each distinct `LocalResource` type (one per call
//! site of `LocalResource::new`) brings its own copy of leptos' async machinery into the
//! wasm, so every view loads through [`load`], the one call site, with its data as a
//! [`Loaded`] variant (docs/console.md, "Size").

use crate::api::{
    Agent, BackendError, Capabilities, MailRow, Mailbox, Project, Reservation, SearchHit,
    UnifiedRow,
};
use crate::model::Response;
use leptos::prelude::*;
use std::future::Future;
use std::pin::Pin;

/// What a view loaded.
#[derive(Debug, Clone, PartialEq)]
pub enum Loaded {
    /// What the server offers and its projects.
    Projects(Capabilities, Vec<Project>),
    /// A project's agents (with what the server offers, for compose).
    Agents(Capabilities, Vec<Agent>),
    /// Search hits.
    Hits(Vec<SearchHit>),
    /// File reservations.
    Reservations(Vec<Reservation>),
    /// The operator's unified inbox.
    Unified(Vec<UnifiedRow>),
    /// An agent's mailbox.
    Mailbox(Mailbox),
    /// One message.
    Message(MailRow),
    /// An engine answer (its failures are [`Response::Failed`]).
    Engine(Response),
}

/// A view's data: `None` while loading, `Some(None)` when there is nothing to load.
pub type Data = LocalResource<Option<Result<Loaded, BackendError>>>;

/// A boxed load: what [`load`] runs.
pub type Fetch = Pin<Box<dyn Future<Output = Option<Result<Loaded, BackendError>>>>>;

/// Loads a view's data with `fetch` (re-run when the signals it reads change).
pub fn load(fetch: impl Fn() -> Fetch + 'static) -> Data {
    let fetch: Box<dyn Fn() -> Fetch> = Box::new(fetch);
    LocalResource::new(fetch)
}

/// A fetch from a future.
pub fn fetch(
    future: impl Future<Output = Option<Result<Loaded, BackendError>>> + 'static,
) -> Fetch {
    Box::pin(future)
}
