//! The UI's end of the engine ([`crate::engine`]): a question ([`crate::ask`]) goes to the
//! engine worker as bytes (`(id, request)` in postcard's serde format, far less code to
//! decode than JSON) and its answer comes back the same way (`(id, answer)`), matched by id
//! and read as the question's own answer type. The worker is started on the first request
//! (the main module never loads the engine's code); messages posted before it says `ready`
//! wait in a queue, because a worker drops messages that arrive before its wasm has set its
//! handler. Component tests run the engine in the page instead ([`EngineLink::inline`]).
//!
//! - [`demo`]: the demo as the UI sees it, a backend whose server runs in the engine.

pub mod demo;

use crate::ask::{answer_of, decode, Ask, Refusal, Request};
use futures::FutureExt;
use std::any::Any;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Where the worker's loader is served (trunk's `data-loader-shim` output).
pub const WORKER_URL: &str = "/switchboard-engine_loader.js";

type Resolvers = HashMap<u64, (js_sys::Function, js_sys::Function)>;

/// Reads a request as it crosses to the worker: its id, then the request
/// ([`request_bytes`]), in postcard's format.
///
/// # Errors
/// Bytes that are not such a request.
pub fn decode_request(bytes: &[u8]) -> Result<(u64, Request), String> {
    postcard::from_bytes(bytes).map_err(|e| e.to_string())
}

/// Reads what [`request_bytes`] wrote (the engine run in the page).
///
/// # Errors
/// Bytes that are not a request.
pub fn decode_request_bytes(bytes: &[u8]) -> Result<Request, String> {
    postcard::from_bytes(bytes).map_err(|e| e.to_string())
}

/// A request as the engine reads it (what [`EngineLink::answer_bytes`] sends).
///
/// # Errors
/// Only for types postcard cannot write (none of the model's).
pub fn request_bytes(request: &Request) -> Result<Vec<u8>, String> {
    postcard::to_allocvec(request).map_err(|e| e.to_string())
}

/// An answer as it crosses: its request's id, then the answer's bytes
/// ([`crate::ask::encode_answer`]).
#[must_use]
pub fn frame(id: u64, answer: &[u8]) -> Vec<u8> {
    let mut out = postcard::to_allocvec(&id).unwrap_or_default();
    out.extend_from_slice(answer);
    out
}

/// The id and the answer's bytes of what [`frame`] wrote.
#[must_use]
pub fn unframe(bytes: &[u8]) -> Option<(u64, &[u8])> {
    postcard::take_from_bytes::<u64>(bytes).ok()
}

#[derive(Default)]
struct Worker {
    handle: RefCell<Option<web_sys::Worker>>,
    ready: Cell<bool>,
    queue: RefCell<Vec<js_sys::Uint8Array>>,
    pending: Rc<RefCell<Resolvers>>,
    next: Cell<u64>,
    failed: Rc<RefCell<Option<String>>>,
}

/// The engine run in the page: a request's bytes to the answer's.
type InlineEngine = Box<dyn FnMut(&[u8]) -> Vec<u8>>;

enum Transport {
    Worker(Rc<Worker>),
    Inline(RefCell<InlineEngine>),
}

/// A handle on the engine, shared by the whole app.
#[derive(Clone)]
pub struct EngineLink(Rc<Transport>);

impl EngineLink {
    /// The engine in its worker (started on the first request).
    #[must_use]
    pub fn worker() -> EngineLink {
        EngineLink(Rc::new(Transport::Worker(Rc::new(Worker::default()))))
    }

    /// The engine run in the page by `handle`, which answers a request's bytes
    /// ([`request_bytes`]) with the answer's bytes (component tests).
    #[must_use]
    pub fn inline(handle: impl FnMut(&[u8]) -> Vec<u8> + 'static) -> EngineLink {
        EngineLink(Rc::new(Transport::Inline(RefCell::new(Box::new(handle)))))
    }

    /// Starts the worker ahead of the first request (a view about to need it).
    pub fn warm(&self) {
        if let Transport::Worker(worker) = &*self.0 {
            if worker.handle.borrow().is_none() {
                if let Ok(handle) = worker.start() {
                    worker.on_message(&handle);
                }
            }
        }
    }

    /// Asks the engine; its answer, or why there is none.
    ///
    /// # Errors
    /// The worker failed to start or to answer, or the engine could not answer.
    pub fn ask<Q: Ask>(&self, question: Q) -> impl Future<Output = Result<Q::Answer, String>> {
        self.answer(question.request()).map(|answer| {
            match answer.and_then(answer_of::<Q::Answer>) {
                Ok(answer) => Ok(answer),
                Err(Refusal::Engine(why)) => Err(why),
                Err(Refusal::Demo(error)) => Err(error.to_string()),
            }
        })
    }

    /// The engine's answer to `request`, decoded and erased (one copy of the transport and
    /// the decoding for every question; [`answer_of`] gives it its type).
    ///
    /// # Errors
    /// The worker failed, or the engine or the demo server refused.
    pub fn answer(&self, request: Request) -> Answered {
        match request_bytes(&request) {
            Ok(bytes) => self.answer_bytes(bytes),
            Err(why) => Box::pin(std::future::ready(Err(Refusal::Engine(why)))),
        }
    }

    /// The engine's answer to a request as [`request_bytes`] wrote it (a request kept as
    /// bytes is sent as it is), decoded and erased.
    ///
    /// # Errors
    /// The worker failed, or the engine or the demo server refused.
    pub fn answer_bytes(&self, request: Vec<u8>) -> Answered {
        let reply = self.call(request);
        Box::pin(async move {
            let bytes = reply.await.map_err(Refusal::Engine)?;
            decode(&bytes)
        })
    }

    /// The bytes of the engine's answer to `request` (the transport, one copy for every
    /// question: only the decoding depends on the question).
    ///
    /// # Errors
    /// The worker failed to start or to answer.
    pub fn call(&self, request: Vec<u8>) -> Reply {
        match &*self.0 {
            Transport::Inline(handle) => {
                Box::pin(std::future::ready(Ok((handle.borrow_mut())(&request))))
            }
            Transport::Worker(worker) => {
                let worker = worker.clone();
                Box::pin(async move { worker.call(&request).await })
            }
        }
    }
}

/// An answer on its way, decoded and erased, or why it will not come.
pub type Answered = Pin<Box<dyn Future<Output = Result<Rc<dyn Any>, Refusal>>>>;

/// The bytes of an answer on their way, or why they will not come.
pub type Reply = Pin<Box<dyn Future<Output = Result<Vec<u8>, String>>>>;

impl Worker {
    fn start(&self) -> Result<web_sys::Worker, String> {
        if let Some(handle) = self.handle.borrow().as_ref() {
            return Ok(handle.clone());
        }
        let handle = web_sys::Worker::new(WORKER_URL)
            .map_err(|e| format!("The engine worker could not start: {e:?}"))?;
        let pending = self.pending.clone();
        let failed = self.failed.clone();
        let fail_all = move |why: String| {
            for (_, (_, reject)) in pending.borrow_mut().drain() {
                let _ = reject.call1(&JsValue::NULL, &JsValue::from_str(&why));
            }
            *failed.borrow_mut() = Some(why);
        };
        let fail = fail_all.clone();
        let onerror =
            Closure::<dyn Fn(web_sys::ErrorEvent)>::new(move |ev: web_sys::ErrorEvent| {
                fail(format!("The engine worker failed: {}", ev.message()));
            });
        handle.set_onerror(Some(onerror.as_ref().unchecked_ref()));
        onerror.forget();
        *self.handle.borrow_mut() = Some(handle.clone());
        Ok(handle)
    }

    fn on_message(self: &Rc<Self>, handle: &web_sys::Worker) {
        let this = Rc::downgrade(self);
        let onmessage =
            Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
                let Some(this) = this.upgrade() else { return };
                let data = ev.data();
                if data.as_string().as_deref() == Some("ready") {
                    this.ready.set(true);
                    let handle = this.handle.borrow().clone();
                    for queued in this.queue.borrow_mut().drain(..) {
                        if let Some(handle) = &handle {
                            let _ = handle.post_message(&queued);
                        }
                    }
                    return;
                }
                let bytes = js_sys::Uint8Array::new(&data);
                // The id is the first field: peek it without decoding the rest here.
                let Some((id, _)) = unframe(&bytes.to_vec()) else {
                    return;
                };
                let resolver = this.pending.borrow_mut().remove(&id);
                if let Some((resolve, _)) = resolver {
                    let _ = resolve.call1(&JsValue::NULL, &bytes);
                }
            });
        handle.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
        onmessage.forget();
    }

    /// The answer's bytes to `request` ([`request_bytes`]).
    async fn call(self: &Rc<Self>, request: &[u8]) -> Result<Vec<u8>, String> {
        if let Some(why) = self.failed.borrow().clone() {
            return Err(why);
        }
        let fresh = self.handle.borrow().is_none();
        let handle = self.start()?;
        if fresh {
            self.on_message(&handle);
        }
        let id = self.next.get();
        self.next.set(id + 1);
        // `(id, request)` as postcard writes it: the id, then the request.
        let mut bytes = postcard::to_allocvec(&id).map_err(|e| e.to_string())?;
        bytes.extend_from_slice(request);
        let message = js_sys::Uint8Array::from(bytes.as_slice());
        let pending = self.pending.clone();
        let promise = js_sys::Promise::new(&mut |resolve, reject| {
            pending.borrow_mut().insert(id, (resolve, reject));
        });
        if self.ready.get() {
            handle
                .post_message(&message)
                .map_err(|e| format!("The engine worker refused a request: {e:?}"))?;
        } else {
            self.queue.borrow_mut().push(message);
        }
        let reply = wasm_bindgen_futures::JsFuture::from(promise)
            .await
            .map_err(|e| e.as_string().unwrap_or_else(|| format!("{e:?}")))?;
        let bytes = js_sys::Uint8Array::new(&reply).to_vec();
        unframe(&bytes)
            .map(|(_, answer)| answer.to_vec())
            .ok_or_else(|| "The engine's answer was not understood.".into())
    }
}
