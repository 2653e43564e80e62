//! Links kept across reloads, in the browser's IndexedDB (database `switchboard-folders`,
//! store `links`), keyed by server and project: a picked folder's directory handle (the
//! browser stores the handle itself, never the files), or, for a folder read once, only its
//! name, so that the console can say which folder to link again.

use super::LinkedFolder;
use js_sys::{Array, Promise};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{IdbDatabase, IdbObjectStore, IdbRequest, IdbTransactionMode};

const DATABASE: &str = "switchboard-folders";
const STORE: &str = "links";

/// What was kept for a project.
#[derive(Debug, Clone, PartialEq)]
pub enum Kept {
    /// A picked folder: readable again once the browser's permission allows it.
    Folder(LinkedFolder),
    /// A folder read once (a directory input), by name: it must be linked again.
    ReadOnce(String),
}

/// Keeps a project's link (replacing what was kept).
///
/// # Errors
/// IndexedDB's refusal, in the browser's words.
pub async fn keep(server: &str, project: &str, folder: &LinkedFolder) -> Result<(), String> {
    let store = store(IdbTransactionMode::Readwrite).await?;
    let request = store
        .put_with_key(&folder.kept_value(), &key(server, project))
        .map_err(|e| super::handle::words(&e))?;
    done(&request).await.map(drop)
}

/// What was kept for a project, if anything.
///
/// # Errors
/// IndexedDB's refusal, in the browser's words.
pub async fn restore(server: &str, project: &str) -> Result<Option<Kept>, String> {
    let store = store(IdbTransactionMode::Readonly).await?;
    let request = store
        .get(&key(server, project))
        .map_err(|e| super::handle::words(&e))?;
    let value = done(&request).await?;
    Ok(if let Some(name) = value.as_string() {
        Some(Kept::ReadOnce(name))
    } else if value.is_object() {
        Some(Kept::Folder(LinkedFolder::from_handle(value)))
    } else {
        None
    })
}

/// Forgets a project's link.
///
/// # Errors
/// IndexedDB's refusal, in the browser's words.
pub async fn forget(server: &str, project: &str) -> Result<(), String> {
    let store = store(IdbTransactionMode::Readwrite).await?;
    let request = store
        .delete(&key(server, project))
        .map_err(|e| super::handle::words(&e))?;
    done(&request).await.map(drop)
}

/// `[server, project]`: IndexedDB compares array keys member by member.
fn key(server: &str, project: &str) -> JsValue {
    Array::of2(&server.into(), &project.into()).into()
}

/// The store, in a transaction of its own.
async fn store(mode: IdbTransactionMode) -> Result<IdbObjectStore, String> {
    let words = |e: JsValue| super::handle::words(&e);
    let factory = web_sys::window()
        .ok_or("no window")?
        .indexed_db()
        .map_err(words)?
        .ok_or("This browser keeps no IndexedDB for this page.")?;
    let open = factory.open_with_u32(DATABASE, 1).map_err(words)?;
    let opening = open.clone();
    let upgrade = Closure::once_into_js(move || {
        if let Ok(db) = opening.result() {
            let _ = db
                .unchecked_into::<IdbDatabase>()
                .create_object_store(STORE);
        }
    });
    open.set_onupgradeneeded(Some(upgrade.unchecked_ref()));
    let db: IdbDatabase = done(&open).await?.unchecked_into();
    db.transaction_with_str_and_mode(STORE, mode)
        .and_then(|t| t.object_store(STORE))
        .map_err(words)
}

/// A request's result once it succeeded, or its error in the browser's words.
async fn done(request: &IdbRequest) -> Result<JsValue, String> {
    let finished = Promise::new(&mut |resolve, reject| {
        request.set_onsuccess(Some(&resolve));
        request.set_onerror(Some(&reject));
    });
    let outcome = JsFuture::from(finished).await;
    request.set_onsuccess(None);
    request.set_onerror(None);
    match outcome {
        Ok(_) => request.result().map_err(|e| super::handle::words(&e)),
        Err(_) => Err(match request.error() {
            Ok(Some(error)) => super::handle::words(&error.into()),
            _ => "IndexedDB failed without saying why".to_owned(),
        }),
    }
}
