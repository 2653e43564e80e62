//! Validation exports: JSON bytes in, a result code out (see [`crate::report`]); and one mail
//! message read whole for an agent's guard (`readMail`).

use crate::report::{self, JsReport, Target};
use serde::Serialize;
use serde_json::Value;
use std::cell::RefCell;
use switchboard_core::agent_mail::Carried;
use switchboard_core::protocol::{self, IssueLog, Report, Verdict};
use wasm_bindgen::prelude::*;

fn unknown_options(word: u32) -> JsError {
    JsError::new(&format!("unknown options word {word:#x}"))
}

/// The result code of one message given as JSON bytes ([`report::keep_validated`]).
fn validated(bytes: &[u8], target: Target, segments: bool) -> u32 {
    report::keep_validated(segments, |log| validate_target(bytes, target, log))
}

/// Validates one message given as JSON bytes, its issues listed in `log`.
fn validate_target(bytes: &[u8], target: Target, log: &mut IssueLog) -> Verdict {
    match target {
        Target::Detect(options) => protocol::validate_slice_into(bytes, &options, log),
        Target::Type {
            family,
            spec,
            lenient,
        } => protocol::validate_slice_as_into(bytes, family, spec, lenient, log),
    }
}

/// Validates one message given as JSON bytes (UTF-8); returns its result code. The JS layer
/// passes message-sized input through [`input_buffer`] and [`validate_input`] instead, and
/// larger input (over 4 MiB) here.
#[wasm_bindgen(js_name = validateBytes)]
pub fn validate_bytes(bytes: &[u8], options: u32) -> Result<u32, JsError> {
    let target = report::decode(options).ok_or_else(|| unknown_options(options))?;
    report::clear();
    Ok(validated(bytes, target, report::segments(options)))
}

/// What [`validate_input`] returns for an unknown options word or a length past the buffer
/// (no result code has every bit set).
pub const BAD_CALL: u32 = u32::MAX;

thread_local! {
    /// The input buffer: the JS layer writes a message's bytes straight into wasm memory here
    /// (`TextEncoder.encodeInto` for text), so a message crosses with one copy and no
    /// allocation.
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// The four words [`packed_reports`] returns the address of.
    static WHERE: RefCell<[u32; 4]> = const { RefCell::new([0; 4]) };
}

/// The module's memory, where the JS layer writes input and reads packed reports.
#[wasm_bindgen(js_name = linearMemory)]
pub fn linear_memory() -> JsValue {
    wasm_bindgen::memory()
}

/// The address of an input buffer of at least `capacity` bytes, for the JS layer to write the
/// next message into (it moves when it grows).
#[wasm_bindgen(js_name = inputBuffer)]
pub fn input_buffer(capacity: usize) -> *mut u8 {
    INPUT.with(|b| {
        let mut b = b.borrow_mut();
        if b.len() < capacity {
            b.resize(capacity, 0);
        }
        b.as_mut_ptr()
    })
}

/// `read` of the first `len` bytes of the input buffer; `None` when it holds fewer.
pub(crate) fn with_input<T>(len: usize, read: impl FnOnce(&[u8]) -> T) -> Option<T> {
    INPUT.with(|b| b.borrow().get(..len).map(read))
}

/// Validates the first `len` bytes of the input buffer as [`validate_bytes`] validates bytes;
/// returns the result code, or [`BAD_CALL`].
#[wasm_bindgen(js_name = validateInput)]
pub fn validate_input(len: usize, options: u32) -> u32 {
    let Some(target) = report::decode(options) else {
        return BAD_CALL;
    };
    report::clear();
    with_input(len, |bytes| {
        validated(bytes, target, report::segments(options))
    })
    .unwrap_or(BAD_CALL)
}

/// Validates JSON Lines bytes (one message per non-blank line, as `switchboard validate
/// --jsonl`); returns two numbers per message: its input line (1-based, blank lines counted)
/// and its result code.
#[wasm_bindgen(js_name = validateLines)]
pub fn validate_lines(bytes: &[u8], options: u32) -> Result<Vec<u32>, JsError> {
    let segments = report::segments(options);
    let Some(Target::Detect(options)) = report::decode(options) else {
        return Err(unknown_options(options));
    };
    report::clear();
    let mut out = Vec::new();
    for line in protocol::validate_lines(bytes, &options) {
        // Inputs are at most 256 MiB (the JS layer refuses more), so a line number fits.
        out.push(u32::try_from(line.line).unwrap_or(u32::MAX));
        out.push(report::keep_report(&line.report, segments));
    }
    Ok(out)
}

/// Where the reports the last call packed are ([`crate::packed`]): the address of four words,
/// the table's address and length in words, the text's address and length in bytes (UTF-8).
/// The JS layer reads them before its next call.
#[wasm_bindgen(js_name = packedReports)]
pub fn packed_reports() -> *const u32 {
    let address = |ptr: usize| u32::try_from(ptr).unwrap_or_default();
    let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    let words = report::with_packed(|packed| {
        [
            address(packed.table.as_ptr() as usize),
            count(packed.table.len()),
            address(packed.text.as_ptr() as usize),
            count(packed.text.len()),
        ]
    });
    WHERE.with(|w| {
        *w.borrow_mut() = words;
        w.as_ptr().cast_const().cast()
    })
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
