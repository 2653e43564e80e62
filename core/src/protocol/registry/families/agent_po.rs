//! Agent-PO Message Protocol 20.0 (seed 002), flat form discriminated by `message_type`.
//!
//! Required sets follow the upstream draft-07 schema where it has one (PLAN_SUBMISSION,
//! PROGRESS_UPDATE, COMPLETION_REPORT, GO/NEXT/FIX_DIRECTIVE); the other types are decided from
//! the seed's examples (see docs/protocol.md). The `agent_id`/`task_id` patterns apply to every
//! type with the base fields (upstream applies them to agent-sent types only).

use super::{
    arr, konst, obj, one_of, opt, pattern, req, ANY, ANY_OBJECT, BOOL, COUNT, NON_EMPTY, TEXT,
    TEXTS,
};
use crate::protocol::registry::formats::{AGENT_ID, ISO8601_PLACEHOLDER, PO_TASK_ID};
use crate::protocol::registry::spec::{
    Discriminator, ErrorCodeSpec, FamilyId, FamilySpec, MessageTypeSpec, ObjectSpec, Str, Ty,
};

/// Agent-PO timestamps: RFC 3339, the `"ISO8601"` placeholder in lenient mode.
const TS: Ty = Ty::Str(Str::DateTime {
    lenient: Some(&ISO8601_PLACEHOLDER),
});

/// An Agent-PO message type with the base fields `message_type, agent_id, task_id, timestamp`.
macro_rules! po_type {
    ($name:literal, $shape:expr, $doc:literal, [$($field:expr),* $(,)?] $(,)?) => {
        MessageTypeSpec {
            name: $name,
            doc: $doc,
            discriminator: Discriminator::Str {
                key: "message_type",
                value: wire($name),
                shape: $shape,
            },
            root: ObjectSpec::new(&[
                req("message_type", konst(wire($name))),
                req("agent_id", pattern(&AGENT_ID)),
                req("task_id", pattern(&PO_TASK_ID)),
                req("timestamp", TS),
                $($field),*
            ]),
            checks: &[],
        }
    };
}

/// The wire value of a registry name (`BLOCKED_NOTIFICATION@agent` → `BLOCKED_NOTIFICATION`).
const fn wire(name: &'static str) -> &'static str {
    let b = name.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'@' {
            let (head, _) = b.split_at(i);
            return match core::str::from_utf8(head) {
                Ok(s) => s,
                Err(_) => name,
            };
        }
        i += 1;
    }
    name
}

const PROGRESS_STATUS: &[&str] = &[
    "initializing",
    "researching",
    "planning",
    "awaiting_go",
    "implementing",
    "testing",
    "reporting",
    "awaiting_next",
    "fixing",
    "blocked",
];
const REVIEW_ISSUE: Ty = obj(&[
    req("type", NON_EMPTY),
    req("message", NON_EMPTY),
    opt("ac_id", NON_EMPTY),
    opt("test", NON_EMPTY),
]);
const CLEANUP: Ty = obj(&[opt("worktree", NON_EMPTY), opt("branch", NON_EMPTY)]);

/// The Agent-PO family.
pub static FAMILY: FamilySpec = FamilySpec {
    id: FamilyId::AgentPo,
    title: "Agent-PO Message Protocol",
    version: "20.0",
    markers: &["message_type"],
    type_keys: &["message_type"],
    detection_keys: &["message_type"],
    types: &[
        po_type!(
            "PLAN_SUBMISSION",
            &[],
            "Agent submits its implementation plan before GO.",
            [
                req(
                    "plan",
                    obj(&[
                        req("approach", NON_EMPTY),
                        req(
                            "ac_mapping",
                            arr(&obj(&[
                                req("ac_id", NON_EMPTY),
                                req("implementation", NON_EMPTY),
                                opt("file", TEXT),
                                opt("line_estimate", TEXT),
                            ])),
                        ),
                        req(
                            "files_to_modify",
                            arr(&obj(&[req("path", NON_EMPTY), req("changes", TEXT)])),
                        ),
                        opt(
                            "test_approach",
                            obj(&[
                                opt("unit_tests", TEXTS),
                                opt("integration_tests", TEXTS)
                            ]),
                        ),
                    ]),
                ),
                opt("questions", TEXTS),
                opt(
                    "revision",
                    Ty::Int {
                        min: Some(1),
                        max: None
                    }
                ),
            ],
        ),
        po_type!(
            "PROGRESS_UPDATE",
            &[],
            "Agent reports its current status (every 5 minutes).",
            [
                req("status", one_of(PROGRESS_STATUS)),
                req("progress_percent", super::int(0, 100)),
                req("current_activity", NON_EMPTY),
                opt("files_modified", TEXTS),
                opt("issues", TEXTS),
                opt("eta_minutes", COUNT),
            ],
        ),
        po_type!(
            "COMPLETION_REPORT",
            &[],
            "Agent reports task completion.",
            [
                req(
                    "summary",
                    obj(&[
                        req("started_at", TS),
                        req("completed_at", TS),
                        opt("duration_minutes", COUNT),
                    ]),
                ),
                req(
                    "ac_verification",
                    arr(&obj(&[
                        req("ac_id", NON_EMPTY),
                        req("status", one_of(&["PASS", "FAIL", "PARTIAL"])),
                        opt("evidence", TEXT),
                        opt("tested", BOOL),
                    ])),
                ),
                req(
                    "test_results",
                    obj(&[
                        req("passed", COUNT),
                        req("failed", COUNT),
                        opt("skipped", COUNT),
                        opt(
                            "details",
                            arr(&obj(&[
                                opt("file", NON_EMPTY),
                                opt("passed", COUNT),
                                opt("failed", COUNT),
                            ])),
                        ),
                    ]),
                ),
                req(
                    "files_changed",
                    arr(&obj(&[
                        req("path", NON_EMPTY),
                        req("action", one_of(&["created", "modified", "deleted"])),
                        opt("lines_added", COUNT),
                        opt("lines_removed", COUNT),
                    ])),
                ),
                opt("issues", TEXTS),
                opt("recommendations", TEXTS),
            ],
        ),
        po_type!(
            "BLOCKED_NOTIFICATION@agent",
            &["details", "suggested_action"],
            "Agent reports a blocker (agent → PO; recognised by details/suggested_action).",
            [
                req("reason", NON_EMPTY),
                req(
                    "details",
                    obj(&[
                        req("issue", NON_EMPTY),
                        opt("attempts", TEXTS),
                        opt("blocking_since", TS),
                    ]),
                ),
                opt("suggested_action", TEXT),
            ],
        ),
        po_type!(
            "BLOCKED_NOTIFICATION@po",
            &["history", "next_steps"],
            "PO marks the task blocked after max retries (PO → agent; recognised by history/next_steps).",
            [
                req("reason", NON_EMPTY),
                req("history", ANY_OBJECT),
                opt(
                    "next_steps",
                    obj(&[opt("options", TEXTS), opt("escalate", ANY)])
                ),
            ],
        ),
        po_type!(
            "GO_DIRECTIVE",
            &[],
            "PO authorizes implementation after validating the plan.",
            [
                req("status", konst("GO")),
                opt(
                    "validation",
                    obj(&[
                        opt("plan_validated", BOOL),
                        opt("ac_coverage", TEXT),
                        opt("file_scope", TEXT),
                        opt("test_delta", TEXT),
                    ]),
                ),
                req(
                    "authorization",
                    obj(&[
                        req("authorized_files", TEXTS),
                        opt(
                            "timeout_minutes",
                            Ty::Int {
                                min: Some(1),
                                max: None
                            }
                        ),
                    ]),
                ),
                opt("message", TEXT),
            ],
        ),
        po_type!(
            "FEEDBACK",
            &[],
            "PO requests a plan revision.",
            [
                req("status", konst("NEEDS_REVISION")),
                req("validation", obj(&[req("issues", arr(&REVIEW_ISSUE))])),
                req("guidance", NON_EMPTY),
                opt("revision_required", BOOL),
                opt("max_revisions", COUNT),
                opt("current_revision", COUNT),
            ],
        ),
        po_type!(
            "NEXT_DIRECTIVE",
            &[],
            "PO approves completion.",
            [
                req("status", konst("NEXT")),
                opt(
                    "validation",
                    obj(&[
                        opt("report_validated", BOOL),
                        opt("ac_verified", TEXT),
                        opt("tests_passed", BOOL),
                        opt("scope_verified", BOOL),
                    ]),
                ),
                opt(
                    "summary",
                    obj(&[
                        opt("criteria_met", COUNT),
                        opt("tests_passed", COUNT),
                        opt("files_changed", COUNT),
                    ]),
                ),
                opt("message", TEXT),
                opt("cleanup", CLEANUP),
            ],
        ),
        po_type!(
            "FIX_DIRECTIVE",
            &[],
            "PO requests fixes to a completion report.",
            [
                req("status", konst("FIX")),
                req("validation", obj(&[req("issues", arr(&REVIEW_ISSUE))])),
                opt(
                    "retry",
                    obj(&[
                        opt("count", COUNT),
                        opt("max", COUNT),
                        opt("allowed", BOOL)
                    ]),
                ),
                opt("guidance", TEXT),
                opt("message", TEXT),
            ],
        ),
        po_type!(
            "TERMINATE_DIRECTIVE",
            &[],
            "PO ends the agent (abort or cleanup).",
            [
                req("reason", NON_EMPTY),
                opt("cleanup", CLEANUP),
                opt("message", TEXT),
            ],
        ),
        MessageTypeSpec {
            name: "ERROR",
            doc: "Invalid-message response (no base fields).",
            discriminator: Discriminator::Str {
                key: "message_type",
                value: "ERROR",
                shape: &[],
            },
            root: ObjectSpec::new(&[
                req("message_type", konst("ERROR")),
                req(
                    "error",
                    obj(&[
                        req("code", pattern(&crate::protocol::registry::formats::UPPER_SNAKE)),
                        req("message", NON_EMPTY),
                        opt("original_message_type", NON_EMPTY),
                    ]),
                ),
                opt("action", TEXT),
            ]),
            checks: &[],
        },
    ],
    error_codes: &[ErrorCodeSpec {
        code: "INVALID_MESSAGE",
        description: "The message failed validation (missing field, bad type or format)",
        recovery: "Resubmit with all required fields",
    }],
};
