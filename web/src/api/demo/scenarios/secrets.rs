//! Mail that carries secrets, as agents send it by mistake (seed 004, Security 4 forbids it):
//! a droid error report quoting an AWS access key, and a note whose subject and body hold a
//! GitHub token. Every view masks them until the reviewer reveals them; the error report is
//! invalid (`secret_in_message`).

use super::plan::{pretty, Plan};
use crate::api::demo::gen::{built, Lcg};
use serde_json::{json, Value};
use switchboard_core::protocol::builders::build::BuildOptions;
use switchboard_core::time::Timestamp;

/// The example key of the AWS documentation (never a real one).
const AWS_KEY: &str = "AKIAIOSFODNN7EXAMPLE";
/// A GitHub token of the classic form (made up).
const GITHUB_TOKEN: &str = "ghp_0123456789abcdefghijABCDEFGHIJ012345";

/// The messages, added to `plan` (dated minutes before now by `clock`, the newest of the
/// demo).
pub fn leaked(plan: &mut Plan, clock: &dyn Fn(u64) -> Timestamp) {
    let options = BuildOptions {
        now: Some(clock(3)),
        random: Some(Lcg::new(993).bytes()),
        sender: Some("OliveMarsh".to_owned()),
        ..BuildOptions::default()
    };
    let mut report = built(
        "droid/error_report",
        json!({"task_id": "bd-93", "severity": "high",
            "error": {"code": "S3_UPLOAD_DENIED", "message": "Uploading the nightly export failed",
                "context": {"client": "boto3", "region": "us-east-1"}},
            "attempted_solutions": [{"solution": "Retried with the same credentials", "result": "failed"}],
            "reproduction_steps": ["Run scripts/export.py"],
            "needs_human_intervention": false}),
        &options,
    );
    // Added after building: the builder refuses a message that carries a secret.
    if let Some(context) = report
        .pointer_mut("/error/context")
        .and_then(Value::as_object_mut)
    {
        context.insert(
            "detail".to_owned(),
            json!(format!("boto3 used the hard-coded key {AWS_KEY}")),
        );
    }
    plan.raw(
        3,
        2,
        "OliveMarsh",
        "CrimsonPeak",
        "error_report bd-93".to_owned(),
        pretty(&report),
        "bd-93",
    );
    plan.raw(
        2,
        0,
        "GreenCastle",
        "BlueLake",
        format!("Staging deploy token {GITHUB_TOKEN}"),
        format!(
            "The deploy job needs a token; I used mine for now:\n\n    GITHUB_TOKEN={GITHUB_TOKEN}\n\nPlease rotate it after the release."
        ),
        "chat-secret",
    );
}
