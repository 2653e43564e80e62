//! Reading members of a validated protocol message: the registry has already checked their
//! types, so a member of another type reads as absent.

use serde_json::Value;

/// The string member `key`, or `""`.
pub(crate) fn text<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or_default()
}

/// The string member `key`, when there is one.
pub(crate) fn opt_text(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::to_owned)
}

/// The array member `key`'s items (none when absent).
pub(crate) fn items<'a>(v: &'a Value, key: &str) -> impl Iterator<Item = &'a Value> {
    v.get(key).and_then(Value::as_array).into_iter().flatten()
}

/// The strings of the array member `key`.
pub(crate) fn texts(v: &Value, key: &str) -> Vec<String> {
    items(v, key)
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect()
}

/// The unsigned integer member `key` (saturating at `u32::MAX`).
pub(crate) fn count(v: &Value, key: &str) -> Option<u32> {
    v.get(key)
        .and_then(Value::as_u64)
        .map(|n| u32::try_from(n).unwrap_or(u32::MAX))
}
