//! One resource type for every view's data. Each distinct `LocalResource` type (one per call
//! site of `LocalResource::new`) brings its own copy of leptos' async machinery into the
//! wasm, so every view loads through [`load`], the one call site: the value is held type-
//! erased and handed back as the type it was loaded as ([`Data`]) (docs/console.md, "Size").

use super::route::Here;
use crate::api::{Backend, BackendError};
use leptos::prelude::*;
use std::any::Any;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::rc::Rc;

/// A loaded value, whatever its type (only [`Data`] reads it, as the type it stored).
pub type Erased = Rc<dyn Any>;

/// What the one resource holds: `None` while nothing is to be loaded.
pub type Held = Option<Result<Erased, BackendError>>;

/// A boxed load of a `T`: `None` when there is nothing to load.
pub type Fetch<T> = Pin<Box<dyn Future<Output = Option<Result<T, BackendError>>>>>;

/// A view's data of type `T`.
pub struct Data<T> {
    resource: LocalResource<Held>,
    loads: PhantomData<fn() -> T>,
}

impl<T> Clone for Data<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Data<T> {}

impl<T: Clone + 'static> Data<T> {
    /// `None` while loading, `Some(None)` when there is nothing to load, else what was
    /// loaded or why it failed (tracked).
    #[must_use]
    pub fn get(&self) -> Option<Option<Result<T, BackendError>>> {
        self.resource.get().map(read)
    }

    /// [`Data::get`], untracked.
    #[must_use]
    pub fn get_untracked(&self) -> Option<Option<Result<T, BackendError>>> {
        self.resource.get_untracked().map(read)
    }
}

/// The value as the `T` it was stored as ([`load`] stores nothing else).
fn read<T: Clone + 'static>(held: Held) -> Option<Result<T, BackendError>> {
    match held? {
        Ok(value) => value.downcast_ref::<T>().cloned().map(Ok),
        Err(error) => Some(Err(error)),
    }
}

/// Loads a view's data with `fetch` (re-run when the signals it reads change).
pub fn load<T: 'static>(fetch: impl Fn() -> Fetch<T> + 'static) -> Data<T> {
    Data {
        resource: resource(Box::new(move || {
            let loading = fetch();
            Box::pin(async move {
                let loaded = loading.await?;
                Some(loaded.map(|value| Rc::new(value) as Erased))
            })
        })),
        loads: PhantomData,
    }
}

/// Loads a view's data of type `T` with `fetch`, which yields it already erased (its
/// callers build the value as a `T`: [`crate::components::traffic::engine_call`] decodes the
/// engine's answer, one non-generic loader for every question).
pub fn load_erased<T>(fetch: Box<dyn Fn() -> Pin<Box<dyn Future<Output = Held>>>>) -> Data<T> {
    Data {
        resource: resource(fetch),
        loads: PhantomData,
    }
}

/// The one `LocalResource` call site.
fn resource(fetch: Box<dyn Fn() -> Pin<Box<dyn Future<Output = Held>>>>) -> LocalResource<Held> {
    LocalResource::new(fetch)
}

/// A fetch from a future.
pub fn fetch<T>(
    future: impl Future<Output = Option<Result<T, BackendError>>> + 'static,
) -> Fetch<T> {
    Box::pin(future)
}

/// Loads a `T` from the route's backend with `call` (or the reason there is no backend),
/// re-run when the signals `call` reads, or the session's revision, change.
pub fn from_backend<T: 'static, F>(
    here: Here,
    call: impl Fn(Rc<dyn Backend>) -> F + 'static,
) -> Data<T>
where
    F: Future<Output = Result<T, BackendError>> + 'static,
{
    load_erased(Box::new(move || {
        let loading = here.backend().map(&call);
        Box::pin(async move {
            Some(match loading {
                Ok(loading) => loading.await.map(|value| Rc::new(value) as Erased),
                Err(error) => Err(error),
            })
        })
    }))
}
