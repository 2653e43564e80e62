//! Pair Protocol messages: what a human checkpoint decision or a timeout implies, and the
//! agents' own messages (PAIR_INIT, CONTRACT_DRAFT, BUILD_COMPLETE, CHANGE_ORDER).

use super::{ArtifactPath, Text};
use crate::fingerprint::Fingerprints;
use crate::protocol::registry::families::pair::{Phase, Role};
use serde::Serialize;
use serde_json::{json, Map, Value};

/// A Pair message ready to send: sender, recipient, type and body. Over Agent Mail it travels
/// as subject = type and `body_md` = the body's JSON ([`PairMessage::body_md`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairMessage {
    /// The sending agent.
    pub from: String,
    /// The receiving agent.
    pub to: String,
    /// The message type (the mail subject).
    pub subject: &'static str,
    /// The body.
    pub body: Value,
}

impl PairMessage {
    /// The message in the seed's transport form `{to, subject, body}`.
    #[must_use]
    pub fn to_value(&self) -> Value {
        json!({"to": self.to, "subject": self.subject, "body": self.body})
    }

    /// The body as the JSON text an Agent Mail `body_md` carries.
    #[must_use]
    pub fn body_md(&self) -> String {
        self.body.to_string()
    }
}

fn message(from: &Text, to: &Text, subject: &'static str, body: Value) -> PairMessage {
    PairMessage {
        from: from.as_str().to_owned(),
        to: to.as_str().to_owned(),
        subject,
        body,
    }
}

/// Adds the contract's test fingerprints (extension member `test_fingerprints`) when known.
fn with_fingerprints(mut body: Value, fingerprints: Option<&Fingerprints>) -> Value {
    if let (Some(f), Value::Object(map)) = (fingerprints, &mut body) {
        if !f.is_empty() {
            map.insert(
                "test_fingerprints".into(),
                serde_json::to_value(f).unwrap_or_else(|_| Value::Object(Map::new())),
            );
        }
    }
    body
}

/// The contract's spec and tests.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ContractArtifacts {
    /// The specification.
    pub spec: ArtifactPath,
    /// The test suite.
    pub tests: ArtifactPath,
}

/// CONTRACT_FINAL: checkpoint #1 APPROVED.
#[must_use]
pub fn contract_final(
    from: &Text,
    to: &Text,
    artifacts: &ContractArtifacts,
    fingerprints: Option<&Fingerprints>,
) -> PairMessage {
    let body = json!({
        "phase": "CONTRACT_FINALIZED",
        "artifacts": {"spec": artifacts.spec, "tests": artifacts.tests},
        "contract_immutable": true,
        "status": "READY_FOR_BUILD",
    });
    message(
        from,
        to,
        "CONTRACT_FINAL",
        with_fingerprints(body, fingerprints),
    )
}

/// CONTRACT_REVISION_REQUESTED (extension): checkpoint #1 REVISE, to the planner.
#[must_use]
pub fn contract_revision_requested(from: &Text, to: &Text, feedback: &Text) -> PairMessage {
    let body = json!({
        "phase": "CONTRACT_GENERATION",
        "decision": "REVISE",
        "feedback": feedback,
        "status": "REVISION_REQUESTED",
    });
    message(from, to, "CONTRACT_REVISION_REQUESTED", body)
}

/// SESSION_COMPLETE: checkpoint #2 MERGE APPROVED.
#[must_use]
pub fn session_complete(from: &Text, to: &Text, note: &Text) -> PairMessage {
    let body = json!({"phase": "MERGED", "status": "SUCCESS", "message": note});
    message(from, to, "SESSION_COMPLETE", body)
}

/// BUILD_REJECTED (extension): checkpoint #2 REJECT.
#[must_use]
pub fn build_rejected(from: &Text, to: &Text, reason: &Text) -> PairMessage {
    let body = json!({
        "phase": "BUILD_REJECTED",
        "decision": "REJECTED",
        "reason": reason,
        "status": "RETRY_BUILD",
    });
    message(from, to, "BUILD_REJECTED", body)
}

/// CHANGE_ORDER_ACCEPTED: checkpoint #3 ACCEPT CHANGE, with the contract's next version.
#[must_use]
pub fn change_order_accepted(
    from: &Text,
    to: &Text,
    updated: &ContractArtifacts,
    reasoning: &Text,
    fingerprints: Option<&Fingerprints>,
) -> PairMessage {
    let body = json!({
        "phase": "CONTRACT_REVISED",
        "decision": "ACCEPTED",
        "updated_artifacts": {"spec": updated.spec, "tests": updated.tests},
        "reasoning": reasoning,
        "status": "READY_FOR_BUILD",
    });
    message(
        from,
        to,
        "CHANGE_ORDER_ACCEPTED",
        with_fingerprints(body, fingerprints),
    )
}

/// CHANGE_ORDER_REJECTED: checkpoint #3 REJECT CHANGE, with the strategy to follow.
#[must_use]
pub fn change_order_rejected(
    from: &Text,
    to: &Text,
    reasoning: &Text,
    strategy: &Text,
) -> PairMessage {
    let body = json!({
        "phase": "CHANGE_ORDER_REJECTED",
        "decision": "REJECTED",
        "reasoning": reasoning,
        "suggested_strategy": strategy,
        "status": "RETRY_BUILD",
    });
    message(from, to, "CHANGE_ORDER_REJECTED", body)
}

/// SESSION_ABORT in `phase` (any phase but [`Phase::Aborted`], which is no body phase; it is
/// written as the contract-generation phase).
#[must_use]
pub fn session_abort(from: &Text, to: &Text, phase: Phase, reason: &Text) -> PairMessage {
    let phase = match phase {
        Phase::Aborted => Phase::ContractGeneration,
        p => p,
    };
    let body = json!({
        "phase": phase.as_str(),
        "reason": reason,
        "status": "ABORTED",
        "cleanup_required": true,
    });
    message(from, to, "SESSION_ABORT", body)
}

/// TIMEOUT_WARNING number `warning` of `max_warnings` (both at least 1), after waiting
/// `waited_minutes`, with `grace_minutes` left before the next step.
#[must_use]
pub fn timeout_warning(
    from: &Text,
    to: &Text,
    phase: Phase,
    waited_minutes: i64,
    grace_minutes: i64,
    warning: u32,
    max_warnings: u32,
) -> PairMessage {
    let phase = match phase {
        Phase::Aborted => Phase::ContractGeneration,
        p => p,
    };
    let body = json!({
        "phase": phase.as_str(),
        "status": "TIMEOUT",
        "message": format!(
            "No response received within {waited_minutes} minute timeout period. Please respond within {grace_minutes} minutes or session will abort."
        ),
        "warnings_sent": warning.clamp(1, 1_000),
        "max_warnings": max_warnings.clamp(1, 1_000),
    });
    message(from, to, "TIMEOUT_WARNING", body)
}

/// A draft contract's artifacts: the safety reasoning, the spec and the tests.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DraftArtifacts {
    /// The safety reasoning behind the contract.
    pub safety_reasoning: ArtifactPath,
    /// The specification.
    pub spec: ArtifactPath,
    /// The test suite.
    pub tests: ArtifactPath,
}

/// PAIR_INIT from the agent taking `my_role` to its partner (protocol 3.1).
#[must_use]
pub fn pair_init(from: &Text, to: &Text, task: &Text, my_role: Role) -> PairMessage {
    let body = json!({
        "protocol_version": "3.1",
        "task": task,
        "my_role": my_role.wire(),
        "your_role": my_role.other().wire(),
        "status": "INITIALIZED",
    });
    message(from, to, "PAIR_INIT", body)
}

/// CONTRACT_DRAFT: the planner's draft, which opens human checkpoint #1.
#[must_use]
pub fn contract_draft(
    from: &Text,
    to: &Text,
    artifacts: &DraftArtifacts,
    fingerprints: Option<&Fingerprints>,
) -> PairMessage {
    let body = json!({
        "phase": "CONTRACT_GENERATION",
        "artifacts": {
            "safety_reasoning": artifacts.safety_reasoning,
            "spec": artifacts.spec,
            "tests": artifacts.tests,
        },
        "status": "AWAITING_HUMAN_REVIEW",
    });
    message(
        from,
        to,
        "CONTRACT_DRAFT",
        with_fingerprints(body, fingerprints),
    )
}

/// BUILD_COMPLETE: all tests pass; `first` and `more` are the implementation files (at least
/// one), `fingerprints` the contract's test files as the builder found them.
#[must_use]
pub fn build_complete(
    from: &Text,
    to: &Text,
    first: &Text,
    more: &[Text],
    fingerprints: Option<&Fingerprints>,
) -> PairMessage {
    let files: Vec<&Text> = std::iter::once(first).chain(more).collect();
    let body = json!({
        "phase": "BUILD_COMPLETE",
        "test_results": "ALL_PASS",
        "implementation_files": files,
        "status": "READY_FOR_REVIEW",
    });
    message(
        from,
        to,
        "BUILD_COMPLETE",
        with_fingerprints(body, fingerprints),
    )
}

/// Why a builder asks to change the contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailureMode {
    /// The spec asks for something impossible.
    LogicImpossible,
    /// A dependency the contract does not allow is needed.
    DependencyMissing,
    /// A contract test is flaky.
    TestFlakiness,
}

impl FailureMode {
    /// The wire name.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            FailureMode::LogicImpossible => "logic_impossible",
            FailureMode::DependencyMissing => "dependency_missing",
            FailureMode::TestFlakiness => "test_flakiness",
        }
    }
}

/// What a change order asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangeRequest {
    /// Why.
    pub failure_mode: FailureMode,
    /// What failed.
    pub evidence: Text,
    /// What the builder tried (may be empty).
    pub attempted_fixes: Vec<Text>,
    /// What the builder asks to change.
    pub requested_changes: Text,
}

/// CHANGE_ORDER: the builder asks to change the contract, which opens human checkpoint #3.
#[must_use]
pub fn change_order(from: &Text, to: &Text, request: &ChangeRequest) -> PairMessage {
    let body = json!({
        "phase": "BUILD_BLOCKED",
        "change_order": {
            "status": "CHANGE_ORDER_REQUIRED",
            "failure_mode": request.failure_mode.as_str(),
            "evidence": request.evidence,
            "attempted_fixes": request.attempted_fixes,
            "requested_changes": request.requested_changes,
        },
        "status": "AWAITING_MEDIATION",
    });
    message(from, to, "CHANGE_ORDER", body)
}
