//! Links kept across reloads, in the browser's IndexedDB (database `switchboard-folders`,
//! store `links`), keyed by server and project: a picked folder's directory handle (the
//! browser stores the handle itself, never the files), or, for a folder read once, only its
//! name, so that the console can say which folder to link again.

use super::LinkedFolder;
use crate::idb::{committed, done};
use js_sys::Array;
use wasm_bindgen::JsValue;
use web_sys::{IdbObjectStore, IdbTransactionMode};

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

/// Keeps a project's link (replacing what was kept), once the browser has committed it.
///
/// # Errors
/// IndexedDB's refusal, in the browser's words.
pub async fn keep(server: &str, project: &str, folder: &LinkedFolder) -> Result<(), String> {
    let store = store(IdbTransactionMode::Readwrite).await?;
    store
        .put_with_key(&folder.kept_value(), &key(server, project))
        .map_err(|e| super::handle::words(&e))?;
    committed(&store).await
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

/// Forgets a project's link, once the browser has committed it.
///
/// # Errors
/// IndexedDB's refusal, in the browser's words.
pub async fn forget(server: &str, project: &str) -> Result<(), String> {
    let store = store(IdbTransactionMode::Readwrite).await?;
    store
        .delete(&key(server, project))
        .map_err(|e| super::handle::words(&e))?;
    committed(&store).await
}

/// `[server, project]`: IndexedDB compares array keys member by member.
fn key(server: &str, project: &str) -> JsValue {
    Array::of2(&server.into(), &project.into()).into()
}

/// The store, in a transaction of its own.
async fn store(mode: IdbTransactionMode) -> Result<IdbObjectStore, String> {
    crate::idb::store(DATABASE, STORE, mode).await
}
