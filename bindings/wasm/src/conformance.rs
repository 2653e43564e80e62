//! The conformance export: a message log in, the core's conformance report out (per agent
//! and family, every rule of the seeds with its status and the messages that decide it), as
//! `switchboard conformance --compact` prints it (see [`crate::reply`]).

use crate::reply::{reply, CallError, ErrorCode};
use switchboard_core::agent_mail::read_log;
use switchboard_core::conformance::{check, Baseline, BaselineError, Options};
use switchboard_core::protocol;
use switchboard_core::session::agents::{AgentsError, Registry};
use switchboard_core::session::pair_claude::PairClaudeConfig;
use switchboard_core::time::Timestamp;
use wasm_bindgen::prelude::*;

impl From<AgentsError> for CallError {
    fn from(e: AgentsError) -> Self {
        CallError::new(ErrorCode::BadAgents, e)
    }
}

impl From<BaselineError> for CallError {
    fn from(e: BaselineError) -> Self {
        CallError::new(ErrorCode::BadBaseline, e)
    }
}

/// A count from JS (checked there: a non-negative whole number), or `None` when negative.
fn given(n: f64) -> Option<f64> {
    (n >= 0.0).then_some(n.min(9.0e15))
}

/// The conformance report of a log. `agents` and `baseline` are JSON texts (as the CLI's
/// `--agents FILE` and `--baseline FILE` read them) or absent; `now_ms` is when the log is
/// judged (milliseconds since the epoch; NaN: at its last message); the numbers are negative
/// for the core's defaults.
#[allow(clippy::too_many_arguments)]
#[wasm_bindgen(js_name = conformance)]
pub fn conformance(
    log: &[u8],
    lenient: bool,
    agents: Option<String>,
    baseline: Option<String>,
    now_ms: f64,
    permission_timeout_ms: f64,
    tool_timeout_ms: f64,
    navigator_max_turns: f64,
    driver_max_turns: f64,
) -> String {
    let result = (|| {
        let envelopes = read_log(
            log,
            &protocol::Options {
                family: None,
                lenient,
            },
        )?;
        let mut config = PairClaudeConfig::default();
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        {
            if let Some(ms) = given(permission_timeout_ms) {
                config.permission_timeout_ms = ms as i64;
            }
            if let Some(ms) = given(tool_timeout_ms) {
                config.tool_timeout_ms = ms as i64;
            }
            if let Some(n) = given(navigator_max_turns) {
                config.navigator_max_turns = n.min(f64::from(u32::MAX)) as u32;
            }
            if let Some(n) = given(driver_max_turns) {
                config.driver_max_turns = n.min(f64::from(u32::MAX)) as u32;
            }
        }
        let options = Options {
            config,
            agents: agents
                .map(|a| Registry::from_json(a.as_bytes()))
                .transpose()?,
            baseline: baseline
                .map(|b| Baseline::from_json(b.as_bytes()))
                .transpose()?,
            factory: None,
            contract_checked: false,
            #[allow(clippy::cast_possible_truncation)]
            now: now_ms.is_finite().then_some(Timestamp(now_ms as i64)),
        };
        Ok::<_, CallError>(check(&envelopes, &options))
    })();
    reply(result)
}
