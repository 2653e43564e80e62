//! Pair Protocol 3.1 (seed 000, plus CLARIFICATION_* and the audit report per protocol-notes §2.1).
//!
//! Transport form `{to, subject, body}`; `subject` names the type. Every field a type's example
//! shows is required unless noted; `status` and `phase` are constants per type (SESSION_ABORT and
//! TIMEOUT_WARNING take any phase).

use super::{
    arr, arr1, konst, obj, one_of, opt, pattern, req, strict, ANY_OBJECT, BOOL, NON_EMPTY, TEXT,
    TEXTS,
};
use crate::protocol::registry::formats::{COMMIT_SHA, PAIR_ARTIFACT};
use crate::protocol::registry::spec::{
    CrossCheck, Deviation, Discriminator, ErrorCodeSpec, FamilyId, FamilySpec, MessageTypeSpec,
    ObjectSpec, Str, Ty,
};

/// Pair-examples CHANGE_ORDER bodies omit `status`, `phase` and `change_order.status`.
pub static CHANGE_ORDER_BARE: Deviation = Deviation {
    id: "pair_change_order_bare",
    description: "Pair CHANGE_ORDER examples omit status, phase or change_order.status",
};

/// The seed's shell `send_message` example abbreviates the CONTRACT_FINAL body.
pub static CLI_ABBREVIATED: Deviation = Deviation {
    id: "pair_cli_abbreviated_body",
    description:
        "the Pair send_message shell example sends CONTRACT_FINAL with phase and status only",
};

/// Pair audit reports use severity `NONE` on PASS, outside the enum.
pub static AUDIT_SEVERITY_NONE: Deviation = Deviation {
    id: "audit_severity_none",
    description: "Pair audit reports use severity NONE on PASS, outside CRITICAL|MAJOR|MINOR",
};

const ROLES: &[&str] = &["PLANNER", "BUILDER"];

/// A Pair session role (PAIR_INIT `my_role` / `your_role`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Writes the contract, reviews and merges.
    Planner,
    /// Implements against the contract.
    Builder,
}

impl Role {
    /// The role's name in PAIR_INIT (`PLANNER`, `BUILDER`).
    #[must_use]
    pub const fn wire(self) -> &'static str {
        match self {
            Role::Planner => "PLANNER",
            Role::Builder => "BUILDER",
        }
    }

    /// The other role.
    #[must_use]
    pub const fn other(self) -> Role {
        match self {
            Role::Planner => Role::Builder,
            Role::Builder => Role::Planner,
        }
    }

    /// The role named `wire` in PAIR_INIT.
    #[must_use]
    pub fn parse(wire: &str) -> Option<Role> {
        match wire {
            "PLANNER" => Some(Role::Planner),
            "BUILDER" => Some(Role::Builder),
            _ => None,
        }
    }
}

/// A Pair session phase: the phase names the seed's bodies carry, plus `ABORTED` (the status
/// of SESSION_ABORT) for an aborted session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Phase {
    /// Phase 0: clarifying questions are out.
    Clarification,
    /// Phase 0 answered.
    ClarificationComplete,
    /// The planner writes the contract (and the human reviews it).
    ContractGeneration,
    /// The contract is final: the builder builds.
    ContractFinalized,
    /// The builder asked for a change order.
    BuildBlocked,
    /// A change order was accepted: the builder builds against the revised contract.
    ContractRevised,
    /// A change order was rejected: the builder retries with the suggested strategy.
    ChangeOrderRejected,
    /// The builder reports all tests pass: audit and implementation review.
    BuildComplete,
    /// Extension: the implementation review sent the build back.
    BuildRejected,
    /// Merged: the session ended successfully.
    Merged,
    /// Aborted: the session ended early.
    Aborted,
}

impl Phase {
    /// The phase name.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Phase::Clarification => "CLARIFICATION",
            Phase::ClarificationComplete => "CLARIFICATION_COMPLETE",
            Phase::ContractGeneration => "CONTRACT_GENERATION",
            Phase::ContractFinalized => "CONTRACT_FINALIZED",
            Phase::BuildBlocked => "BUILD_BLOCKED",
            Phase::ContractRevised => "CONTRACT_REVISED",
            Phase::ChangeOrderRejected => "CHANGE_ORDER_REJECTED",
            Phase::BuildComplete => "BUILD_COMPLETE",
            Phase::BuildRejected => "BUILD_REJECTED",
            Phase::Merged => "MERGED",
            Phase::Aborted => "ABORTED",
        }
    }

    /// Every phase, in protocol order.
    pub const ALL: &'static [Phase] = &[
        Phase::Clarification,
        Phase::ClarificationComplete,
        Phase::ContractGeneration,
        Phase::ContractFinalized,
        Phase::BuildBlocked,
        Phase::ContractRevised,
        Phase::ChangeOrderRejected,
        Phase::BuildComplete,
        Phase::BuildRejected,
        Phase::Merged,
        Phase::Aborted,
    ];

    /// The phase named `name`.
    #[must_use]
    pub fn parse(name: &str) -> Option<Phase> {
        Phase::ALL.iter().copied().find(|p| p.as_str() == name)
    }

    /// Whether the session has ended in this phase.
    #[must_use]
    pub const fn is_terminal(self) -> bool {
        matches!(self, Phase::Merged | Phase::Aborted)
    }

    /// Whether the builder is building in this phase (BUILD_COMPLETE or CHANGE_ORDER may come).
    #[must_use]
    pub const fn is_building(self) -> bool {
        matches!(
            self,
            Phase::ContractFinalized
                | Phase::ContractRevised
                | Phase::ChangeOrderRejected
                | Phase::BuildRejected
        )
    }
}
impl serde::Serialize for Phase {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for Phase {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        crate::names::by_name(d, Phase::ALL, Phase::as_str)
    }
}

const PHASES: &[&str] = &[
    "CLARIFICATION",
    "CLARIFICATION_COMPLETE",
    "CONTRACT_GENERATION",
    "CONTRACT_FINALIZED",
    "BUILD_BLOCKED",
    "CONTRACT_REVISED",
    "CHANGE_ORDER_REJECTED",
    "BUILD_COMPLETE",
    "BUILD_REJECTED",
    "MERGED",
];
const ARTIFACT: Ty = pattern(&PAIR_ARTIFACT);
/// Extension: the contract's test fingerprints, `{"<path>": "sha256:<64 hex>"}` (the form
/// `crate::fingerprint::Fingerprints` writes); checked by the session engine.
const TEST_FINGERPRINTS: Ty = ANY_OBJECT;
const AUDIT_SEVERITY: Ty = Ty::Str(Str::Enum {
    values: &["CRITICAL", "MAJOR", "MINOR"],
    lenient: &[("NONE", &AUDIT_SEVERITY_NONE)],
});

/// A Pair message type: `{to, subject: NAME, body: {fields}}`.
macro_rules! pair_type {
    ($name:literal, $doc:literal, [$($field:expr),* $(,)?], $checks:expr $(,)?) => {
        MessageTypeSpec {
            name: $name,
            doc: $doc,
            discriminator: Discriminator::Str {
                key: "subject",
                value: $name,
                shape: &[],
            },
            root: ObjectSpec::new(&[
                req("to", NON_EMPTY),
                req("subject", konst($name)),
                req("body", obj(&[$($field),*])),
            ]),
            checks: $checks,
        }
    };
}

/// The Pair Protocol family.
pub static FAMILY: FamilySpec = FamilySpec {
    id: FamilyId::Pair,
    title: "Pair Protocol",
    version: "3.1",
    markers: &["body"],
    type_keys: &["subject"],
    detection_keys: &["subject", "body", "scheming_detected"],
    types: &[
        pair_type!(
            "PAIR_INIT",
            "Initialize a pair session (either agent to its partner).",
            [
                req(
                    "protocol_version",
                    Ty::Str(Str::Version {
                        major: "3",
                        parts: 2,
                    }),
                ),
                req("task", NON_EMPTY),
                req("my_role", one_of(ROLES)),
                req("your_role", one_of(ROLES)),
                req("status", konst("INITIALIZED")),
            ],
            &[CrossCheck::Differ {
                object: "body",
                a: "my_role",
                b: "your_role",
                values: ROLES,
            }],
        ),
        pair_type!(
            "CLARIFICATION_REQUEST",
            "Ask the orchestrator clarifying questions before the contract (PHASE 0).",
            [
                req("phase", konst("CLARIFICATION")),
                req(
                    "questions",
                    arr1(&obj(&[
                        req("id", NON_EMPTY),
                        req("question", NON_EMPTY),
                        opt("context", TEXT),
                        opt("options", TEXTS),
                    ])),
                ),
                req("status", konst("AWAITING_USER_INPUT")),
            ],
            &[],
        ),
        pair_type!(
            "CLARIFICATION_RESPONSE",
            "Answer clarifying questions.",
            [
                req("phase", konst("CLARIFICATION_COMPLETE")),
                req(
                    "answers",
                    arr1(&obj(&[
                        req("question_id", NON_EMPTY),
                        req("answer", NON_EMPTY),
                        opt("reasoning", TEXT),
                    ])),
                ),
                req("status", konst("PROCEED_WITH_IMPLEMENTATION")),
            ],
            &[],
        ),
        pair_type!(
            "CONTRACT_DRAFT",
            "Planner shares the draft contract for internal review.",
            [
                req("phase", konst("CONTRACT_GENERATION")),
                req(
                    "artifacts",
                    obj(&[
                        req("safety_reasoning", ARTIFACT),
                        req("spec", ARTIFACT),
                        req("tests", ARTIFACT),
                    ]),
                ),
                req("status", konst("AWAITING_HUMAN_REVIEW")),
                opt("test_fingerprints", TEST_FINGERPRINTS),
            ],
            &[],
        ),
        pair_type!(
            "CONTRACT_FINAL",
            "Planner sends the finalized, immutable contract to the builder.",
            [
                req("phase", konst("CONTRACT_FINALIZED")),
                strict(
                    "artifacts",
                    &CLI_ABBREVIATED,
                    obj(&[req("spec", ARTIFACT), req("tests", ARTIFACT)]),
                ),
                strict("contract_immutable", &CLI_ABBREVIATED, Ty::BoolConst(true)),
                req("status", konst("READY_FOR_BUILD")),
                opt("test_fingerprints", TEST_FINGERPRINTS),
            ],
            &[],
        ),
        pair_type!(
            "BUILD_COMPLETE",
            "Builder reports that all tests pass.",
            [
                req("phase", konst("BUILD_COMPLETE")),
                req("test_results", konst("ALL_PASS")),
                req("implementation_files", arr1(&NON_EMPTY)),
                req("status", konst("READY_FOR_REVIEW")),
                opt("test_fingerprints", TEST_FINGERPRINTS),
            ],
            &[],
        ),
        pair_type!(
            "CHANGE_ORDER",
            "Builder requests a contract change because of a blocker.",
            [
                strict("phase", &CHANGE_ORDER_BARE, konst("BUILD_BLOCKED")),
                req(
                    "change_order",
                    obj(&[
                        strict("status", &CHANGE_ORDER_BARE, konst("CHANGE_ORDER_REQUIRED")),
                        req(
                            "failure_mode",
                            one_of(&["logic_impossible", "dependency_missing", "test_flakiness"]),
                        ),
                        req("evidence", NON_EMPTY),
                        req("attempted_fixes", TEXTS),
                        req("requested_changes", NON_EMPTY),
                    ]),
                ),
                strict("status", &CHANGE_ORDER_BARE, konst("AWAITING_MEDIATION")),
            ],
            &[],
        ),
        pair_type!(
            "CHANGE_ORDER_ACCEPTED",
            "Planner accepts a change order and sends the updated contract.",
            [
                req("phase", konst("CONTRACT_REVISED")),
                req("decision", konst("ACCEPTED")),
                req(
                    "updated_artifacts",
                    obj(&[req("spec", ARTIFACT), req("tests", ARTIFACT)]),
                ),
                req("reasoning", NON_EMPTY),
                req("status", konst("READY_FOR_BUILD")),
                opt("test_fingerprints", TEST_FINGERPRINTS),
            ],
            &[],
        ),
        pair_type!(
            "CHANGE_ORDER_REJECTED",
            "Planner rejects a change order and suggests a strategy.",
            [
                req("phase", konst("CHANGE_ORDER_REJECTED")),
                req("decision", konst("REJECTED")),
                req("reasoning", NON_EMPTY),
                req("suggested_strategy", NON_EMPTY),
                req("status", konst("RETRY_BUILD")),
            ],
            &[],
        ),
        pair_type!(
            "BUILD_REJECTED",
            "Extension: the planner sends the build back after implementation review (checkpoint #2 REJECT: reason).",
            [
                req("phase", konst("BUILD_REJECTED")),
                req("decision", konst("REJECTED")),
                req("reason", NON_EMPTY),
                req("status", konst("RETRY_BUILD")),
            ],
            &[],
        ),
        pair_type!(
            "CONTRACT_REVISION_REQUESTED",
            "Extension: the human reviewer asks the planner to regenerate the contract (checkpoint #1 REVISE: feedback).",
            [
                req("phase", konst("CONTRACT_GENERATION")),
                req("decision", konst("REVISE")),
                req("feedback", NON_EMPTY),
                req("status", konst("REVISION_REQUESTED")),
            ],
            &[],
        ),
        pair_type!(
            "SESSION_COMPLETE",
            "Planner reports completion and merge (commit_sha/branch optional: removed upstream later).",
            [
                req("phase", konst("MERGED")),
                req("status", konst("SUCCESS")),
                opt("commit_sha", pattern(&COMMIT_SHA)),
                opt("branch", NON_EMPTY),
                req("message", NON_EMPTY),
            ],
            &[],
        ),
        pair_type!(
            "SESSION_ABORT",
            "Either agent aborts the session.",
            [
                req("phase", one_of(PHASES)),
                req("reason", NON_EMPTY),
                req("status", konst("ABORTED")),
                req("cleanup_required", BOOL),
            ],
            &[],
        ),
        pair_type!(
            "TIMEOUT_WARNING",
            "Warn a silent partner about an impending timeout (counters optional).",
            [
                req("phase", one_of(PHASES)),
                req("status", konst("TIMEOUT")),
                req("message", NON_EMPTY),
                opt("warnings_sent", super::int(1, 1_000)),
                opt("max_warnings", super::int(1, 1_000)),
            ],
            &[],
        ),
        MessageTypeSpec {
            name: "AUDIT_REPORT",
            doc: "The planner's automated audit report (audit_report.json, recognised by scheming_detected).",
            discriminator: Discriminator::Has {
                key: "scheming_detected",
            },
            root: ObjectSpec::new(&[
                req("status", one_of(&["PASS", "FAIL"])),
                req("severity", AUDIT_SEVERITY),
                req("scheming_detected", BOOL),
                req(
                    "issues",
                    arr(&obj(&[
                        req("type", one_of(&["integrity", "safety", "quality"])),
                        req("severity", AUDIT_SEVERITY),
                        req("description", NON_EMPTY),
                        opt("location", TEXT),
                    ])),
                ),
                opt("notes", TEXTS),
            ]),
            checks: &[],
        },
    ],
    error_codes: &[
        ErrorCodeSpec {
            code: "INVALID_AGENT",
            description: "Agent not registered in MCP mail",
            recovery: "Check agent registration",
        },
        ErrorCodeSpec {
            code: "MESSAGE_TIMEOUT",
            description: "No response within timeout",
            recovery: "Check agent status",
        },
        ErrorCodeSpec {
            code: "CONTRACT_TAMPERED",
            description: "Builder modified test file",
            recovery: "Reject build, restart",
        },
        ErrorCodeSpec {
            code: "SCHEMING_DETECTED",
            description: "Audit found gaming patterns",
            recovery: "Reject build, restart",
        },
        ErrorCodeSpec {
            code: "DEPENDENCY_VIOLATION",
            description: "Unauthorized dependency added",
            recovery: "Reject build, request change order",
        },
        ErrorCodeSpec {
            code: "TEST_SYNTAX_ERROR",
            description: "Tests have syntax errors",
            recovery: "Planner fixes tests",
        },
    ],
};

#[cfg(test)]
mod tests {
    use super::{Phase, PHASES};

    #[test]
    fn every_body_phase_is_a_session_phase() {
        let names: Vec<&str> = Phase::ALL.iter().map(|p| p.as_str()).collect();
        assert_eq!(names[..names.len() - 1], *PHASES);
        assert_eq!(Phase::parse("ABORTED"), Some(Phase::Aborted));
    }
}
