//! Contract exports: fingerprints of files and their verification, and the audit of a diff
//! against the contract, as `switchboard fingerprint` / `switchboard audit` print them (see
//! [`crate::reply`]). Files cross as one byte array with their paths and lengths.

use crate::reply::{reply, CallError, ErrorCode};
use switchboard_core::audit::{self, Contract};
use switchboard_core::fingerprint::{fingerprint as take, verify, Fingerprints};
use wasm_bindgen::prelude::*;

/// `(path, bytes)` pairs from paths, byte lengths and the concatenated bytes.
fn files<'a>(
    paths: &'a [String],
    lengths: &[u32],
    bytes: &'a [u8],
) -> Result<Vec<(&'a str, &'a [u8])>, CallError> {
    let mut out = Vec::with_capacity(paths.len());
    let mut at = 0usize;
    for (path, &len) in paths.iter().zip(lengths) {
        let end = at + len as usize;
        let content = bytes.get(at..end).ok_or_else(|| {
            CallError::new(ErrorCode::BadFiles, "file lengths exceed the bytes given")
        })?;
        out.push((path.as_str(), content));
        at = end;
    }
    if paths.len() != lengths.len() || at != bytes.len() {
        return Err(CallError::new(
            ErrorCode::BadFiles,
            "paths, lengths and bytes disagree",
        ));
    }
    Ok(out)
}

/// The SHA-256 fingerprints of files, as `switchboard fingerprint DIR` prints them.
#[wasm_bindgen(js_name = fingerprint)]
pub fn fingerprint(paths: Vec<String>, lengths: &[u32], bytes: &[u8]) -> String {
    let result = files(&paths, lengths, bytes).and_then(|files| Ok(take(files)?));
    reply(result)
}

/// The verification of `current` fingerprints against a `baseline` (both as the JSON
/// `fingerprint` gives), as `switchboard fingerprint DIR --verify FILE` prints it.
#[wasm_bindgen(js_name = verifyFingerprints)]
pub fn verify_fingerprints(baseline: &str, current: &str) -> String {
    let result = Fingerprints::from_json(baseline)
        .and_then(|baseline| Ok(verify(&baseline, &Fingerprints::from_json(current)?)))
        .map_err(CallError::from);
    reply(result)
}

/// The audit of a diff against a contract's files (text; invalid UTF-8 becomes U+FFFD, as
/// the CLI reads them), with the dependencies accepted change orders approved, as `switchboard
/// audit --compact` prints it.
#[wasm_bindgen(js_name = audit)]
pub fn audit(
    paths: Vec<String>,
    lengths: &[u32],
    bytes: &[u8],
    diff: &str,
    approved: Vec<String>,
) -> String {
    let result = files(&paths, lengths, bytes).and_then(|files| {
        let texts: Vec<(&str, String)> = files
            .iter()
            .map(|(p, b)| (*p, String::from_utf8_lossy(b).into_owned()))
            .collect();
        let contract = Contract::from_files(texts.iter().map(|(p, t)| (*p, t.as_str())))?;
        let diff = audit::parse_diff(diff)?;
        let approved: Vec<&str> = approved.iter().map(String::as_str).collect();
        Ok(audit::audit(&contract, &diff, &approved))
    });
    reply(result)
}
