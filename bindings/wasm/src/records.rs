//! Review trail export: a trail's check, as `switchboard records verify --compact` prints it
//! (see [`crate::reply`]).

use crate::reply::{reply, CallError, ErrorCode};
use switchboard_core::evidence::trail::verify;
use switchboard_core::fingerprint::Sha256Digest;
use wasm_bindgen::prelude::*;

/// The check of a review trail (JSON Lines in chain order): `{valid, records, head,
/// problems}`; with `head` (64 hex digits, `sha256:` allowed), the trail must end there.
#[wasm_bindgen(js_name = verifyRecords)]
pub fn verify_records(trail: &str, head: Option<String>) -> String {
    let head = match head.as_deref().filter(|h| !h.is_empty()) {
        None => Ok(None),
        Some(h) => Sha256Digest::from_hex(h.strip_prefix("sha256:").unwrap_or(h))
            .map(Some)
            .ok_or_else(|| {
                CallError::new(
                    ErrorCode::BadFingerprints,
                    format!("head {h}: expected 64 hex digits"),
                )
            }),
    };
    reply(head.map(|head| verify(trail, head)))
}
