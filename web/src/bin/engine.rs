//! The engine worker (trunk builds it with `data-type="worker"`): it answers the UI's
//! requests ([`switchboard_web::model::Request`], as [`switchboard_web::link::encode`]
//! writes them) with the engine's responses, one at a time, and says `ready` once its
//! handler is set.

use std::cell::RefCell;
use switchboard_web::engine::Engine;
use switchboard_web::link::{decode, encode};
use switchboard_web::model::{Request, Response};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

fn main() {
    console_error_panic_hook::set_once();
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let reply = scope.clone();
    let engine = RefCell::new(Engine::new());
    let onmessage =
        Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
            let bytes = js_sys::Uint8Array::new(&ev.data()).to_vec();
            let (id, response) = match decode::<Request>(&bytes) {
                Ok((id, request)) => (id, engine.borrow_mut().handle(request)),
                // Without an id nobody waits for the answer.
                Err(_) => match postcard::take_from_bytes::<u64>(&bytes) {
                    Ok((id, _)) => (
                        id,
                        Response::Failed("The engine did not understand the request.".into()),
                    ),
                    Err(_) => return,
                },
            };
            let out = encode(id, &response)
                .or_else(|e| encode(id, &Response::Failed(e)))
                .unwrap_or_default();
            let _ = reply.post_message(&js_sys::Uint8Array::from(out.as_slice()));
        });
    scope.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    onmessage.forget();
    let _ = scope.post_message(&JsValue::from_str("ready"));
}
