//! The audit reports the demo's mail carries: the core's audit of each session's diff
//! against its contract ([`super::fixtures`]).

use super::fixtures::contracts;
use switchboard_core::audit::{self, Contract};

/// The core's audit of a session's diff against its contract, as pretty JSON.
#[must_use]
pub fn audit_report(thread: &str) -> String {
    let contract = contracts()
        .into_iter()
        .find(|c| c.thread == thread)
        .expect("the session has a contract");
    let files = Contract::from_files(
        contract
            .files
            .iter()
            .map(|(p, text)| (p.as_str(), text.as_str())),
    )
    .expect("demo contract paths are relative");
    let diff = audit::parse_diff(&contract.diff).expect("demo diffs parse");
    let report = audit::audit(&files, &diff, &[]);
    serde_json::to_string_pretty(&report).unwrap_or_default()
}
