//! IndexedDB as the console uses it: an object store opened in a transaction of its own (the
//! database created on first use), a request's result awaited, and a write awaited until its
//! transaction has committed.

use crate::folder::linked::words;
use js_sys::Promise;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{IdbDatabase, IdbObjectStore, IdbRequest, IdbTransactionMode};

/// The store `name` of `database` (which holds that one store), in a transaction of its own.
///
/// # Errors
/// IndexedDB's refusal, in the browser's words.
pub async fn store(
    database: &str,
    name: &str,
    mode: IdbTransactionMode,
) -> Result<IdbObjectStore, String> {
    let factory = web_sys::window()
        .ok_or("no window")?
        .indexed_db()
        .map_err(|e| words(&e))?
        .ok_or("This browser keeps no IndexedDB for this page.")?;
    let open = factory.open_with_u32(database, 1).map_err(|e| words(&e))?;
    let opening = open.clone();
    let store = name.to_owned();
    let upgrade = Closure::once_into_js(move || {
        if let Ok(db) = opening.result() {
            let _ = db
                .unchecked_into::<IdbDatabase>()
                .create_object_store(&store);
        }
    });
    open.set_onupgradeneeded(Some(upgrade.unchecked_ref()));
    let db: IdbDatabase = done(&open).await?.unchecked_into();
    db.transaction_with_str_and_mode(name, mode)
        .and_then(|t| t.object_store(name))
        .map_err(|e| words(&e))
}

/// A request's result once it succeeded, or its error in the browser's words.
///
/// # Errors
/// The request's error.
pub async fn done(request: &IdbRequest) -> Result<JsValue, String> {
    let finished = Promise::new(&mut |resolve, reject| {
        request.set_onsuccess(Some(&resolve));
        request.set_onerror(Some(&reject));
    });
    let outcome = JsFuture::from(finished).await;
    request.set_onsuccess(None);
    request.set_onerror(None);
    match outcome {
        Ok(_) => request.result().map_err(|e| words(&e)),
        Err(_) => Err(match request.error() {
            Ok(Some(error)) => words(&error.into()),
            _ => "IndexedDB failed without saying why".to_owned(),
        }),
    }
}

/// Waits until the transaction of `store` has committed: from then on its writes survive a
/// reload (a page reloaded before the commit loses them). Await it straight after making the
/// transaction's requests, before anything else yields.
///
/// # Errors
/// The transaction's error (or its abort), in the browser's words.
pub async fn committed(store: &IdbObjectStore) -> Result<(), String> {
    let transaction = store.transaction();
    let finished = Promise::new(&mut |resolve, reject| {
        transaction.set_oncomplete(Some(&resolve));
        transaction.set_onerror(Some(&reject));
        transaction.set_onabort(Some(&reject));
    });
    let outcome = JsFuture::from(finished).await;
    transaction.set_oncomplete(None);
    transaction.set_onerror(None);
    transaction.set_onabort(None);
    outcome.map(drop).map_err(|_| match transaction.error() {
        Some(error) => words(&error.into()),
        None => "IndexedDB did not keep the change, without saying why".to_owned(),
    })
}
