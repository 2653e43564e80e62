//! Agent-PO gate exports: a task definition and a PLAN_SUBMISSION or COMPLETION_REPORT (bare,
//! or carried in an Agent Mail row) in, the gate's verdict, problems and directive out, as
//! `switchboard gate go|next --compact` prints them (see [`crate::reply`]).

use crate::reply::{invalid_message, reply, time, CallError, ErrorCode};
use serde_json::Value;
use switchboard_core::protocol::{self, Options};
use switchboard_core::session::agent_po::gate::{go_gate, next_gate, TaskSpec};
use wasm_bindgen::prelude::*;

/// The valid protocol message in `json` (the message itself, or the one an Agent Mail row
/// carries).
fn message(json: &str, what: &str) -> Result<Value, CallError> {
    let value: Value = serde_json::from_str(json)
        .map_err(|e| CallError::new(ErrorCode::NotJson, format!("the {what} is not JSON: {e}")))?;
    protocol::valid_message(value, &Options::default()).map_err(|r| invalid_message(what, &r))
}

/// The GO gate: a PLAN_SUBMISSION against the task, at `now_ms`.
#[wasm_bindgen(js_name = goGate)]
pub fn go(task: &str, plan: &str, now_ms: f64) -> String {
    let result = time(now_ms).and_then(|now| {
        let task = TaskSpec::from_json(task)?;
        let plan = message(plan, "plan")?;
        Ok(go_gate(&task, &plan, now)?)
    });
    reply(result)
}

/// The NEXT gate: a COMPLETION_REPORT against the task and the files GO authorized (JSON array
/// of paths; `undefined` for the task's file scope), after `fixes` FIX_DIRECTIVEs, at `now_ms`.
#[wasm_bindgen(js_name = nextGate)]
pub fn next(
    task: &str,
    report: &str,
    authorized: Option<Vec<String>>,
    fixes: u32,
    now_ms: f64,
) -> String {
    let result = time(now_ms).and_then(|now| {
        let task = TaskSpec::from_json(task)?;
        let report = message(report, "report")?;
        let authorized = authorized.unwrap_or_else(|| task.file_scope.clone());
        Ok(next_gate(&task, &authorized, &report, fixes, now)?)
    });
    reply(result)
}
