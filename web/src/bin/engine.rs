//! The engine worker (trunk builds it with `data-type="worker"`): it answers the UI's
//! requests ([`switchboard_web::ask::Request`] with an id, as
//! [`switchboard_web::link::decode_request`] reads them) with the engine's answers, one at a time, and says `ready` once its handler
//! is set.

use std::cell::RefCell;
use switchboard_web::engine::Engine;
use switchboard_web::link::{decode_request, frame, unframe};
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
            let out = match decode_request(&bytes) {
                Ok((id, request)) => frame(id, &engine.borrow_mut().handle(request)),
                // Any answer type reads this as its `Err`; without an id nobody waits.
                Err(_) => match unframe(&bytes) {
                    Some((id, _)) => frame(id, &not_understood()),
                    None => return,
                },
            };
            let _ = reply.post_message(&js_sys::Uint8Array::from(out.as_slice()));
        });
    scope.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    onmessage.forget();
    let _ = scope.post_message(&JsValue::from_str("ready"));
}

/// The engine's refusal of a request it could not read, as every answer type reads it.
fn not_understood() -> Vec<u8> {
    let refusal: Result<(), String> = Err("The engine did not understand the request.".into());
    postcard::to_allocvec(&refusal).unwrap_or_default()
}
