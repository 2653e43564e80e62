//! Validation exports: JSON bytes in, a result code out (see [`crate::report`]); and one mail
//! message read whole for an agent's guard (`readMail`).

use crate::report::{self, JsReport, Target};
use serde::Serialize;
use serde_json::Value;
use std::cell::RefCell;
use switchboard_core::agent_mail::Carried;
use switchboard_core::protocol::{self, Report};
use wasm_bindgen::prelude::*;

fn unknown_options(word: u32) -> JsError {
    JsError::new(&format!("unknown options word {word:#x}"))
}

/// Validates one message given as JSON bytes.
pub fn validate_target(bytes: &[u8], target: Target) -> Report {
    match target {
        Target::Detect(options) => protocol::validate_slice(bytes, &options),
        Target::Type {
            family,
            spec,
            lenient,
        } => protocol::validate_slice_as(bytes, family, spec, lenient),
    }
}

/// Validates one message given as JSON bytes (UTF-8); returns its result code. Text crosses as
/// bytes too: the JS layer encodes it with `TextEncoder.encodeInto`, which is faster than
/// wasm-bindgen's string passing for message-sized text.
#[wasm_bindgen(js_name = validateBytes)]
pub fn validate_bytes(bytes: &[u8], options: u32) -> Result<u32, JsError> {
    let target = report::decode(options).ok_or_else(|| unknown_options(options))?;
    report::clear();
    Ok(report::keep(validate_target(bytes, target)))
}

/// Validates JSON Lines bytes (one message per non-blank line, as `switchboard validate
/// --jsonl`); returns two numbers per message: its input line (1-based, blank lines counted)
/// and its result code.
#[wasm_bindgen(js_name = validateLines)]
pub fn validate_lines(bytes: &[u8], options: u32) -> Result<Vec<u32>, JsError> {
    let Some(Target::Detect(options)) = report::decode(options) else {
        return Err(unknown_options(options));
    };
    report::clear();
    let mut out = Vec::new();
    for line in protocol::validate_lines(bytes, &options) {
        // Inputs are at most 256 MiB (the JS layer refuses more), so a line number fits.
        out.push(u32::try_from(line.line).unwrap_or(u32::MAX));
        out.push(report::keep(line.report));
    }
    Ok(out)
}

thread_local! {
    /// The table of the reports [`take_reports`] packed, until the JS layer takes it.
    static TABLE: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
}

/// The reports whose codes were not simple, packed ([`crate::packed`]): returns the text; the
/// table waits for [`take_report_table`], which the JS layer calls next.
#[wasm_bindgen(js_name = takeReports)]
pub fn take_reports(segments: bool) -> String {
    let packed = report::take_reports(segments);
    TABLE.with(|t| *t.borrow_mut() = packed.table);
    packed.text
}

/// The table of the reports [`take_reports`] packed last.
#[wasm_bindgen(js_name = takeReportTable)]
pub fn take_report_table() -> Vec<u32> {
    TABLE.with(|t| std::mem::take(&mut *t.borrow_mut()))
}

/// One mail message as [`read_mail`] returns it.
#[derive(Serialize)]
struct Mail<'a> {
    /// `message` (a valid protocol message), `invalid`, or `plain` (no JSON message in it).
    kind: &'static str,
    report: JsReport<'a>,
    /// The protocol message (for an Agent Mail row, the one it carries; a Pair body as
    /// `{subject, body}`), when it is JSON.
    message: Option<&'a Value>,
}

/// Reads one mail message, an Agent Mail row or a bare protocol message, given as JSON bytes
/// ([`Carried::read`]); returns `{kind, report, message}` as JSON text.
#[wasm_bindgen(js_name = readMail)]
pub fn read_mail(bytes: &[u8], options: u32) -> Result<String, JsError> {
    let Some(Target::Detect(options)) = report::decode(options) else {
        return Err(unknown_options(options));
    };
    let text = match serde_json::from_slice::<Value>(bytes) {
        Ok(value) => {
            let (report, carried) = Carried::read(value, &options);
            let (kind, message) = match &carried {
                Carried::Message(m) => ("message", Some(&m.value)),
                Carried::Invalid(invalid) => ("invalid", invalid.message.as_ref()),
                Carried::Plain { .. } => ("plain", None),
            };
            mail_json(kind, &report, message)
        }
        // Not JSON: its `not_json` report, as `validateBytes` gives it.
        Err(_) => mail_json("invalid", &protocol::validate_slice(bytes, &options), None),
    };
    text.map_err(|e| JsError::new(&e.to_string()))
}

fn mail_json(
    kind: &'static str,
    report: &Report,
    message: Option<&Value>,
) -> serde_json::Result<String> {
    serde_json::to_string(&Mail {
        kind,
        report: JsReport::of(report, false),
        message,
    })
}
