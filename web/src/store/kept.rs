//! A live server's traffic kept in this browser, so that a later visit does not read the
//! whole project again: each page of mail the engine took, in IndexedDB (database
//! `switchboard-traffic`, store `pages`) under `[server, project, n]` (`n` growing with the
//! clock), as the bytes of its
//! load (postcard, the engine seam's format). A later visit hands the pages to the engine in
//! the order they came, then asks the server only for newer mail. Kept unless the reviewer
//! switched it off (localStorage `switchboard.keep-traffic` = `off`); dropped on Disconnect,
//! when switched off, and when the server's mail no longer matches.

use crate::idb::{done, store};
use js_sys::{Array, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{IdbKeyRange, IdbTransactionMode};

const DATABASE: &str = "switchboard-traffic";
const STORE: &str = "pages";
const SWITCH: &str = "switchboard.keep-traffic";

/// Whether the reviewer lets the console keep traffic in this browser.
#[must_use]
pub fn enabled() -> bool {
    local_storage().is_some_and(|s| s.get_item(SWITCH).ok().flatten().is_none())
}

/// Lets the console keep traffic, or not (forgetting all it kept).
pub fn enable(keep: bool) {
    if let Some(storage) = local_storage() {
        let _ = if keep {
            storage.remove_item(SWITCH)
        } else {
            storage.set_item(SWITCH, "off")
        };
    }
    if !keep {
        leptos::task::spawn_local(async {
            let _ = forget(JsValue::UNDEFINED).await;
        });
    }
}

/// The pages kept for a project, in the order they came.
///
/// # Errors
/// IndexedDB's refusal, in the browser's words.
pub async fn pages(server: &str, project: &str) -> Result<Vec<Vec<u8>>, String> {
    let store = store(DATABASE, STORE, IdbTransactionMode::Readonly).await?;
    let request = store
        .get_all_with_key(&range(&[server, project])?.into())
        .map_err(|e| crate::folder::linked::words(&e))?;
    let values: Array = done(&request).await?.unchecked_into();
    Ok(values
        .iter()
        .filter_map(|v| v.dyn_into::<Uint8Array>().ok())
        .map(|bytes| bytes.to_vec())
        .collect())
}

/// Keeps a page of a project, after those kept before.
///
/// # Errors
/// IndexedDB's refusal (a full disk), in the browser's words.
pub async fn keep(server: &str, project: &str, page: &[u8]) -> Result<(), String> {
    let store = store(DATABASE, STORE, IdbTransactionMode::Readwrite).await?;
    let key = Array::of3(&server.into(), &project.into(), &next_number().into());
    let request = store
        .put_with_key(&Uint8Array::from(page), &key)
        .map_err(|e| crate::folder::linked::words(&e))?;
    done(&request).await.map(drop)
}

/// Forgets what was kept of a project.
///
/// # Errors
/// IndexedDB's refusal, in the browser's words.
pub async fn forget_project(server: &str, project: &str) -> Result<(), String> {
    forget(range(&[server, project])?.into()).await
}

/// Forgets what was kept of every project of a server.
///
/// # Errors
/// IndexedDB's refusal, in the browser's words.
pub async fn forget_server(server: &str) -> Result<(), String> {
    forget(range(&[server])?.into()).await
}

/// Deletes the keys in `range` (undefined: every key).
async fn forget(range: JsValue) -> Result<(), String> {
    let store = store(DATABASE, STORE, IdbTransactionMode::Readwrite).await?;
    let request = if range.is_undefined() {
        store.clear()
    } else {
        store.delete(&range)
    }
    .map_err(|e| crate::folder::linked::words(&e))?;
    done(&request).await.map(drop)
}

/// Every key that starts with `prefix`: IndexedDB orders an array after every number and
/// string, so `[..prefix, []]` is above every key under the prefix.
fn range(prefix: &[&str]) -> Result<IdbKeyRange, String> {
    let lower: Array = prefix.iter().map(|p| JsValue::from_str(p)).collect();
    let upper = lower.slice(0, lower.length());
    upper.push(&Array::new());
    IdbKeyRange::bound(&lower, &upper).map_err(|e| crate::folder::linked::words(&e))
}

/// A page's number: the clock in ms, made to grow within a page's life (pages kept in the
/// same ms), so pages sort as they were kept.
fn next_number() -> f64 {
    thread_local!(static LAST: std::cell::Cell<f64> = const { std::cell::Cell::new(0.0) });
    LAST.with(|last| {
        let n = js_sys::Date::now().max(last.get() + 1.0);
        last.set(n);
        n
    })
}

fn local_storage() -> Option<web_sys::Storage> {
    if cfg!(target_arch = "wasm32") {
        web_sys::window()?.local_storage().ok()?
    } else {
        None
    }
}
