//! Session exports: a message log (JSON array, server payload or JSON Lines, of bare messages
//! or Agent Mail rows) in, the core's sessions, task boards or a checkpoint decision's messages
//! out, as `switchboard session` / `switchboard tasks` print them (see [`crate::reply`]).

use crate::reply::{reply, time, CallError, ErrorCode};
use switchboard_core::agent_mail::read_log;
use switchboard_core::protocol::Options;
use switchboard_core::session::pair_claude::PairClaudeConfig;
use switchboard_core::session::Book;
use switchboard_core::time::Timestamp;
use wasm_bindgen::prelude::*;

/// The log folded into a book, with the Pair Claude permission timeout given (or the core's
/// default when negative).
fn book(log: &[u8], lenient: bool, permission_timeout_ms: f64) -> Result<Book, CallError> {
    let options = Options {
        family: None,
        lenient,
    };
    let envelopes = read_log(log, &options)?;
    let mut config = PairClaudeConfig::default();
    if permission_timeout_ms >= 0.0 {
        // Checked by the JS layer: a whole number of milliseconds.
        #[allow(clippy::cast_possible_truncation)]
        let ms = permission_timeout_ms.min(9.0e15) as i64;
        config.permission_timeout_ms = ms;
    }
    Ok(Book::replay(&envelopes, config))
}

/// The log folded at `now_ms`, or the error that stops it.
fn folded(
    log: &[u8],
    now_ms: f64,
    lenient: bool,
    permission_timeout_ms: f64,
) -> Result<(Timestamp, Book), CallError> {
    let now = time(now_ms)?;
    Ok((now, book(log, lenient, permission_timeout_ms)?))
}

/// Every protocol session of a log at `now_ms` (ms since the epoch), as `switchboard session
/// --now … --compact` prints it.
#[wasm_bindgen(js_name = sessions)]
pub fn sessions(log: &[u8], now_ms: f64, lenient: bool) -> String {
    match folded(log, now_ms, lenient, -1.0) {
        Ok((now, book)) => reply(Ok(book.sessions(now))),
        Err(e) => reply::<()>(Err(e)),
    }
}

/// The task boards of a log at `now_ms`, as `switchboard tasks --now … --compact` prints them;
/// `permission_timeout_ms` negative for the core's default.
#[wasm_bindgen(js_name = taskBoards)]
pub fn task_boards(log: &[u8], now_ms: f64, lenient: bool, permission_timeout_ms: f64) -> String {
    match folded(log, now_ms, lenient, permission_timeout_ms) {
        Ok((now, book)) => reply(Ok(book.boards(now))),
        Err(e) => reply::<()>(Err(e)),
    }
}

/// The messages a human checkpoint decision (`APPROVED`, `REVISE: …`, …) implies in the Pair
/// session `session_id` of a log.
#[wasm_bindgen(js_name = decide)]
pub fn decide(log: &[u8], session_id: &str, text: &str, lenient: bool) -> String {
    let result = book(log, lenient, -1.0).and_then(|book| {
        let session = book.pair.get(session_id).ok_or_else(|| {
            let ids: Vec<&str> = book.pair.sessions().iter().map(|s| s.id.as_str()).collect();
            CallError::new(
                ErrorCode::UnknownSession,
                format!(
                    "no Pair session {session_id:?} in the log (sessions: {})",
                    ids.join(", ")
                ),
            )
            .with("sessions", ids)
        })?;
        Ok(session.decide_text(text)?)
    });
    reply(result)
}

/// A time as the core reads it (RFC 3339, or the forms Agent Mail servers write), in
/// milliseconds since the epoch; `undefined` when it is not one.
#[wasm_bindgen(js_name = parseTime)]
pub fn parse_time(text: &str) -> Option<f64> {
    // Years 0000–9999 in milliseconds are below 2^53: exact in an f64.
    #[allow(clippy::cast_precision_loss)]
    Timestamp::parse(text).map(|t| t.0 as f64)
}
