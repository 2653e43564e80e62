//! Builder exports: `build` (any registry type from its own fields, with what the protocol
//! derives filled in) and `errorReply` (each family's answer to an invalid message), over
//! [`switchboard_core::protocol::builders`]. The JS layer supplies `now` and the random bytes of
//! a message id (the core reads no clock); each returns `{ok}` or `{error}` ([`crate::reply`]).

use crate::reply::{reply, time, CallError, ErrorCode};
use crate::report::{report_from_json, JsReport};
use serde::Deserialize;
use serde_json::Value;
use switchboard_core::protocol::builders::build::{self as core_build, BuildError, BuildOptions};
use switchboard_core::protocol::builders::reply::{error_reply, ReplyError, ReplyOptions};
use switchboard_core::protocol::FamilyId;
use wasm_bindgen::prelude::*;

/// The options of both builders as the JS layer sends them.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct JsOptions {
    /// Milliseconds since the epoch.
    now: Option<f64>,
    random: Option<[u8; 16]>,
    sender: Option<String>,
    to: Option<String>,
    agent_id: Option<String>,
    task_id: Option<String>,
    family: Option<String>,
}

impl JsOptions {
    fn read(json: &str) -> Result<JsOptions, CallError> {
        serde_json::from_str(json)
            .map_err(|e| CallError::new(ErrorCode::NotJson, format!("the options: {e}")))
    }

    fn build_options(self) -> Result<BuildOptions, CallError> {
        Ok(BuildOptions {
            now: self.now.map(time).transpose()?,
            random: self.random,
            sender: self.sender,
            to: self.to,
            agent_id: self.agent_id,
            task_id: self.task_id,
        })
    }
}

impl From<BuildError> for CallError {
    fn from(e: BuildError) -> Self {
        match &e {
            BuildError::UnknownKey { key, known } => CallError::new(ErrorCode::UnknownKey, &e)
                .with("key", key)
                .with("known", known),
            BuildError::NotAnObject { found } => {
                CallError::new(ErrorCode::NotAnObject, &e).with("found", found)
            }
            BuildError::Conflict { member, option } => CallError::new(ErrorCode::Conflict, &e)
                .with("member", member)
                .with("option", option),
            BuildError::MissingOption { member, option } => {
                CallError::new(ErrorCode::MissingOption, &e)
                    .with("member", member)
                    .with("option", option)
            }
            BuildError::Invalid { report, message } => {
                CallError::new(ErrorCode::InvalidMessage, &e)
                    .with("report", JsReport::of(report, false))
                    .with("built", message)
            }
        }
    }
}

impl From<ReplyError> for CallError {
    fn from(e: ReplyError) -> Self {
        match e {
            ReplyError::Valid => CallError::new(ErrorCode::MessageValid, &e),
            ReplyError::NoErrorReply { family } => CallError::new(ErrorCode::NoErrorReply, &e)
                .with("family", family.map(FamilyId::as_str)),
            ReplyError::Build { cause } => {
                let mut error = CallError::from(cause);
                error.message = format!("the reply cannot be built: {}", error.message);
                error
            }
        }
    }
}

/// The message of type `key` (`family/TYPE`) from its own fields (JSON text; for Pair, the
/// body), with the derived members filled from `options` (JSON text), validated strictly.
#[wasm_bindgen(js_name = build)]
pub fn build(key: &str, fields: &str, options: &str) -> String {
    let result = (|| {
        let options = JsOptions::read(options)?.build_options()?;
        let fields: Value = serde_json::from_str(fields)
            .map_err(|e| CallError::new(ErrorCode::NotJson, format!("the fields: {e}")))?;
        Ok(core_build::build(key, &fields, &options)?.to_value())
    })();
    reply(result)
}

/// The error reply to `original` (JSON text), which `report` (a report of this package, JSON
/// text) found invalid, in the receiver's protocol (`options.family`, else the message's).
#[wasm_bindgen(js_name = errorReply)]
pub fn error_reply_export(report: &str, original: &str, options: &str) -> String {
    let result = (|| {
        let report =
            report_from_json(report).map_err(|e| CallError::new(ErrorCode::BadReport, e))?;
        let original: Value = serde_json::from_str(original)
            .map_err(|e| CallError::new(ErrorCode::NotJson, format!("the original: {e}")))?;
        let mut options = JsOptions::read(options)?;
        let family = match options.family.take() {
            None => None,
            Some(f) => Some(FamilyId::parse(&f).ok_or_else(|| {
                CallError::new(ErrorCode::NoErrorReply, format!("unknown family {f:?}"))
            })?),
        };
        let options = ReplyOptions {
            family,
            build: options.build_options()?,
        };
        Ok(error_reply(&report, &original, &options)?)
    })();
    reply(result)
}
