//! The UI's end of the engine ([`crate::engine`]): a request goes to the engine worker as
//! bytes (`(id, request)` in postcard's serde format, far less code to decode than JSON) and
//! its response comes back the same way, matched by id. The
//! worker is started on the first request (the main module never loads the engine's code);
//! messages posted before it says `ready` wait in a queue, because a worker drops messages
//! that arrive before its wasm has set its handler. Component tests run the engine in the
//! page instead ([`EngineLink::inline`]).

use crate::model::{Request, Response};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Where the worker's loader is served (trunk's `data-loader-shim` output).
pub const WORKER_URL: &str = "/switchboard-engine_loader.js";

type Resolvers = HashMap<u64, (js_sys::Function, js_sys::Function)>;

/// A request or response as it crosses: its id and the message, in postcard's format.
///
/// # Errors
/// Only for types postcard cannot write (none of the model's).
pub fn encode<T: serde::Serialize>(id: u64, message: &T) -> Result<Vec<u8>, String> {
    postcard::to_allocvec(&(id, message)).map_err(|e| e.to_string())
}

/// Reads what [`encode`] wrote.
///
/// # Errors
/// Bytes that are not such a message.
pub fn decode<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<(u64, T), String> {
    postcard::from_bytes(bytes).map_err(|e| e.to_string())
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

enum Transport {
    Worker(Rc<Worker>),
    Inline(RefCell<Box<dyn FnMut(Request) -> Response>>),
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

    /// The engine run in the page by `handle` (component tests).
    #[must_use]
    pub fn inline(handle: impl FnMut(Request) -> Response + 'static) -> EngineLink {
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

    /// Sends a request; the engine's response, or why there is none.
    ///
    /// # Errors
    /// The worker failed to start or to answer.
    pub async fn call(&self, request: Request) -> Result<Response, String> {
        match &*self.0 {
            Transport::Inline(handle) => Ok((handle.borrow_mut())(request)),
            Transport::Worker(worker) => worker.call(&request).await,
        }
    }

    /// Sends a request and picks the expected answer out of the response (`pick` returns
    /// `None` for any other variant); [`Response::Failed`] becomes its text.
    ///
    /// # Errors
    /// The worker failed, the engine could not serve the request, or answered off topic.
    pub async fn ask<T>(
        &self,
        request: Request,
        pick: impl FnOnce(Response) -> Option<T>,
    ) -> Result<T, String> {
        match self.call(request).await? {
            Response::Failed(text) => Err(text),
            response => pick(response).ok_or_else(|| "The engine answered off topic.".into()),
        }
    }
}

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
                let Ok((id, _)) = postcard::take_from_bytes::<u64>(&bytes.to_vec()) else {
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

    async fn call(self: &Rc<Self>, request: &Request) -> Result<Response, String> {
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
        let bytes = encode(id, request)?;
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
        decode::<Response>(&bytes)
            .map(|(_, response)| response)
            .map_err(|e| format!("The engine's answer was not understood: {e}"))
    }
}
