//! The File System Access API through `js_sys::Reflect` (web-sys marks its bindings unstable):
//! the directory picker, read permission, and walking a `FileSystemDirectoryHandle` one name
//! at a time.

use js_sys::{Array, Function, Object, Promise, Reflect};
use switchboard_core::evidence::path::FolderPath;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// Whether the browser may read a linked folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Permission {
    /// It may.
    Granted,
    /// It must ask the reviewer again (after a reload, or when they took it back).
    Prompt,
    /// The reviewer refused.
    Denied,
}

/// Whether this browser has the directory picker (`window.showDirectoryPicker`).
#[must_use]
pub fn can_pick() -> bool {
    cfg!(target_arch = "wasm32")
        && web_sys::window().is_some_and(|w| {
            Reflect::get(&w, &"showDirectoryPicker".into()).is_ok_and(|f| f.is_function())
        })
}

/// Calls `target.method(...args)` and awaits what it returns (a promise or a value).
async fn call(target: &JsValue, method: &str, args: &[JsValue]) -> Result<JsValue, JsValue> {
    let function: Function = Reflect::get(target, &method.into())?
        .dyn_into()
        .map_err(|_| JsValue::from_str(&format!("The browser has no {method}.")))?;
    let returned = function.apply(target, &args.iter().collect::<Array>())?;
    JsFuture::from(Promise::resolve(&returned)).await
}

/// `{mode: "read"}`.
fn read_only() -> JsValue {
    let options = Object::new();
    let _ = Reflect::set(&options, &"mode".into(), &"read".into());
    options.into()
}

/// The picked directory's handle; `None` when the reviewer cancelled (`AbortError`).
pub(super) async fn pick() -> Result<Option<JsValue>, JsValue> {
    let window = web_sys::window().ok_or("no window")?;
    match call(&window, "showDirectoryPicker", &[read_only()]).await {
        Ok(handle) => Ok(Some(handle)),
        Err(error) if error_name(&error) == "AbortError" => Ok(None),
        Err(error) => Err(error),
    }
}

/// A handle's name.
pub(super) fn name(handle: &JsValue) -> String {
    Reflect::get(handle, &"name".into())
        .ok()
        .and_then(|n| n.as_string())
        .unwrap_or_default()
}

/// The read permission (`queryPermission`), or asks for it (`requestPermission`).
pub(super) async fn permission(root: &JsValue, ask: bool) -> Result<Permission, JsValue> {
    let method = if ask {
        "requestPermission"
    } else {
        "queryPermission"
    };
    let state = call(root, method, &[read_only()]).await?;
    Ok(match state.as_string().as_deref() {
        Some("granted") => Permission::Granted,
        Some("denied") => Permission::Denied,
        _ => Permission::Prompt,
    })
}

/// The directory handle of `names` under `root`.
async fn directory<'a>(
    root: &JsValue,
    names: impl Iterator<Item = &'a str>,
) -> Result<JsValue, JsValue> {
    let mut dir = root.clone();
    for name in names {
        dir = call(&dir, "getDirectoryHandle", &[name.into()]).await?;
    }
    Ok(dir)
}

/// The file at `path` under `root` (its size known, nothing read yet).
pub(super) async fn file(root: &JsValue, path: &FolderPath) -> Result<web_sys::File, JsValue> {
    let names: Vec<&str> = path.names().collect();
    let (last, dirs) = names.split_last().ok_or("an empty path")?;
    let dir = directory(root, dirs.iter().copied()).await?;
    let handle = call(&dir, "getFileHandle", &[(*last).into()]).await?;
    Ok(call(&handle, "getFile", &[]).await?.unchecked_into())
}

/// The names of the files and folders directly in `dir` under `root` (`None`: the root),
/// sorted.
pub(super) async fn names(root: &JsValue, dir: Option<&str>) -> Result<Vec<String>, JsValue> {
    let dir = directory(root, dir.into_iter().flat_map(|d| d.split('/'))).await?;
    // `values()` is an async iterator of the entries' handles.
    let entries = call(&dir, "values", &[]).await?;
    let mut names = Vec::new();
    loop {
        let step = call(&entries, "next", &[]).await?;
        if Reflect::get(&step, &"done".into())?.is_truthy() {
            break;
        }
        names.push(name(&Reflect::get(&step, &"value".into())?));
    }
    names.sort();
    Ok(names)
}

/// A `DOMException`'s (or error's) name (`NotFoundError`, `NotAllowedError`, …).
fn error_name(error: &JsValue) -> String {
    Reflect::get(error, &"name".into())
        .ok()
        .and_then(|n| n.as_string())
        .unwrap_or_default()
}

/// Whether the browser said there is no such file or folder.
pub(super) fn is_not_found(error: &JsValue) -> bool {
    error_name(error) == "NotFoundError"
}

/// What the browser said, in its words: an error's message, else its name, else the value.
pub(crate) fn words(error: &JsValue) -> String {
    if let Some(text) = error.as_string() {
        return text;
    }
    let message = Reflect::get(error, &"message".into())
        .ok()
        .and_then(|m| m.as_string())
        .unwrap_or_default();
    match (error_name(error), message) {
        (name, message) if message.is_empty() && name.is_empty() => {
            "the browser gave no reason".to_owned()
        }
        (name, message) if message.is_empty() => name,
        (name, message) if name.is_empty() || name == "Error" => message,
        (name, message) => format!("{message} ({name})"),
    }
}
