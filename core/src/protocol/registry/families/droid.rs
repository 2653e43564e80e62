//! MCP Agent Mail droid message formats 1.0.0 (seed 004), flat form discriminated by `type`.
//!
//! Common fields plus six types with the seed's required-field tables; `coordination_request`
//! and `file_reservation` have no table, so their required sets are decided from the examples.

use super::{
    arr, arr1, int, konst, obj, one_of, opt, pattern, req, strict, ANY, ANY_OBJECT, BOOL, COUNT,
    DATE_TIME, NON_EMPTY, NON_NEG, TEXT, TEXTS,
};
use crate::protocol::registry::formats::{BEADS_ID, MESSAGE_ID, UPPER_SNAKE};
use crate::protocol::registry::spec::{
    CrossCheck, Deviation, Discriminator, ErrorCodeSpec, FamilyId, FamilySpec, MessageTypeSpec,
    ObjectSpec, Str, Ty,
};

/// The seed's "Examples by Use Case" omit the common fields and some required fields.
pub static SHORT_FORM: Deviation = Deviation {
    id: "droid_short_form",
    description: "droid use-case examples omit the common fields and some required fields",
};

const TASK_ID: Ty = pattern(&BEADS_ID);
const PERCENT: Ty = Ty::Num {
    min: Some(0.0),
    max: Some(100.0),
};
const TEST_SUMMARY: Ty = obj(&[
    opt("total", COUNT),
    opt("passed", COUNT),
    opt("failed", COUNT),
    opt("coverage", PERCENT),
]);
const MODES: &[&str] = &["exclusive", "shared_read", "shared_write"];
/// An alternative's mode: the reservation modes, plus the seed example's `shared` (its note,
/// "Other agents can read but not modify", is `shared_read`).
const ALTERNATIVE_MODES: &[&str] = &["exclusive", "shared_read", "shared_write", "shared"];

/// A droid message type with the common fields `version, timestamp, sender_id, message_id, type`.
macro_rules! droid_type {
    ($name:literal, $doc:literal, [$($field:expr),* $(,)?], $checks:expr $(,)?) => {
        MessageTypeSpec {
            name: $name,
            doc: $doc,
            discriminator: Discriminator::Str {
                key: "type",
                value: $name,
                shape: &[],
            },
            root: ObjectSpec::new(&[
                strict("version", &SHORT_FORM, Ty::Str(Str::Version { major: "1", parts: 3 })),
                strict("timestamp", &SHORT_FORM, DATE_TIME),
                strict("sender_id", &SHORT_FORM, NON_EMPTY),
                strict("message_id", &SHORT_FORM, pattern(&MESSAGE_ID)),
                req("type", konst($name)),
                $($field),*
            ]),
            checks: $checks,
        }
    };
}

/// The droid family.
pub static FAMILY: FamilySpec = FamilySpec {
    id: FamilyId::Droid,
    title: "MCP Agent Mail droid message formats",
    version: "1.0.0",
    markers: &["sender_id", "message_id"],
    type_keys: &["type"],
    detection_keys: &["type", "sender_id", "message_id"],
    types: &[
        droid_type!(
            "task_assignment",
            "Delegate a task from one agent to another.",
            [
                req("task_id", TASK_ID),
                req("description", NON_EMPTY),
                strict(
                    "specification",
                    &SHORT_FORM,
                    obj(&[
                        req("acceptance_criteria", TEXTS),
                        opt("technical_requirements", TEXTS),
                    ])
                ),
                req("file_patterns", TEXTS),
                req("priority", one_of(&["low", "normal", "high", "urgent"])),
                strict("priority_value", &SHORT_FORM, int(0, 3)),
                opt("dependencies", arr(&TASK_ID)),
                opt("estimated_duration_minutes", NON_NEG),
                opt("deadline", DATE_TIME),
                opt(
                    "metadata",
                    obj(&[
                        opt("labels", TEXTS),
                        opt("component", TEXT),
                        opt("epic", TEXT)
                    ])
                ),
            ],
            &[CrossCheck::Pairs {
                text: "priority",
                number: "priority_value",
                pairs: &[("urgent", 0), ("high", 1), ("normal", 2), ("low", 3)],
            }],
        ),
        droid_type!(
            "task_completion",
            "Notify that a task has been completed.",
            [
                req("task_id", TASK_ID),
                req("status", one_of(&["complete", "partial", "blocked"])),
                strict("completion_summary", &SHORT_FORM, NON_EMPTY),
                req("files_modified", TEXTS),
                req(
                    "test_results",
                    obj(&[
                        opt("unit_tests", TEST_SUMMARY),
                        opt("integration_tests", TEST_SUMMARY)
                    ])
                ),
                strict("errors_encountered", &SHORT_FORM, arr(&ANY)),
                opt("warnings", TEXTS),
                opt("time_spent_minutes", NON_NEG),
                opt(
                    "next_tasks",
                    arr(&obj(&[
                        req("task_id", TASK_ID),
                        opt("relationship", TEXT),
                        opt("reason", TEXT),
                    ]))
                ),
                opt("metadata", ANY_OBJECT),
            ],
            &[],
        ),
        droid_type!(
            "error_report",
            "Report errors encountered during task execution.",
            [
                req("task_id", TASK_ID),
                req("severity", one_of(&["low", "medium", "high", "blocking"])),
                req(
                    "error",
                    obj(&[
                        req("code", pattern(&UPPER_SNAKE)),
                        req("message", NON_EMPTY),
                        opt("stack_trace", TEXT),
                        opt("context", ANY_OBJECT),
                    ])
                ),
                opt(
                    "attempted_solutions",
                    arr(&obj(&[
                        req("solution", NON_EMPTY),
                        opt("result", TEXT),
                        opt("details", TEXT),
                    ]))
                ),
                strict("reproduction_steps", &SHORT_FORM, TEXTS),
                req("needs_human_intervention", BOOL),
                opt("suggested_actions", TEXTS),
                opt(
                    "impact",
                    obj(&[
                        opt("affected_users", TEXT),
                        opt("affected_features", TEXTS),
                        opt("workaround", TEXT),
                    ])
                ),
                opt(
                    "attachments",
                    arr(&obj(&[
                        opt("type", TEXT),
                        opt("filename", TEXT),
                        opt("url", TEXT)
                    ]))
                ),
            ],
            &[],
        ),
        droid_type!(
            "status_update",
            "Periodic status update on task progress.",
            [
                req("task_id", TASK_ID),
                req(
                    "update_type",
                    one_of(&["progress", "milestone", "blocker", "unblocker"])
                ),
                req("status_summary", NON_EMPTY),
                opt(
                    "progress",
                    obj(&[
                        opt("percentage", PERCENT),
                        opt("completed_steps", TEXTS),
                        opt("current_step", TEXT),
                        opt("remaining_steps", TEXTS),
                        opt("estimated_completion", DATE_TIME),
                    ])
                ),
                opt("metrics", ANY_OBJECT),
                strict("blockers", &SHORT_FORM, arr(&ANY)),
                opt("next_milestone", TEXT),
                opt("metadata", ANY_OBJECT),
            ],
            &[],
        ),
        droid_type!(
            "coordination_request",
            "Request coordination between multiple agents (required set from the example).",
            [
                req(
                    "request_type",
                    one_of(&["parallel_execution", "handoff", "review", "sync"])
                ),
                req("participants", arr1(&NON_EMPTY)),
                req("coordination_topic", NON_EMPTY),
                opt(
                    "shared_resources",
                    arr(&obj(&[
                        req("type", NON_EMPTY),
                        opt("patterns", TEXTS),
                        opt("schema", TEXT),
                        opt("access_mode", one_of(&["read_write", "read_only"])),
                    ]))
                ),
                opt(
                    "schedule",
                    obj(&[
                        opt("start_time", DATE_TIME),
                        opt("duration_minutes", NON_NEG),
                        opt("checkpoint_interval_minutes", NON_NEG),
                    ])
                ),
                opt(
                    "communication_protocol",
                    obj(&[
                        opt("primary_channel", TEXT),
                        opt("fallback_channel", TEXT),
                        opt("escalation_contact", TEXT),
                    ])
                ),
                opt("success_criteria", TEXTS),
                opt("metadata", ANY_OBJECT),
            ],
            &[],
        ),
        droid_type!(
            "file_reservation",
            "Request file reservations for conflict prevention (required set from the example).",
            [
                req("task_id", TASK_ID),
                req(
                    "reservation_request",
                    obj(&[
                        req("mode", one_of(MODES)),
                        req("file_patterns", arr1(&NON_EMPTY)),
                        opt("duration_minutes", NON_NEG),
                        opt("reason", TEXT),
                    ])
                ),
                opt(
                    "alternatives",
                    arr(&obj(&[
                        req("pattern", NON_EMPTY),
                        req("mode", one_of(ALTERNATIVE_MODES)),
                        opt("note", TEXT),
                    ]))
                ),
            ],
            &[],
        ),
    ],
    error_codes: &[
        ErrorCodeSpec {
            code: "INVALID_FORMAT",
            description: "The message does not conform to the standard",
            recovery: "Fix the fields named in error.context.issues and resend",
        },
        ErrorCodeSpec {
            code: "UNKNOWN_MESSAGE_TYPE",
            description: "The message type is not recognised",
            recovery: "Use one of the six documented types",
        },
        ErrorCodeSpec {
            code: "VERSION_MISMATCH",
            description: "The message's MAJOR version differs from 1",
            recovery: "Send a 1.x.y message",
        },
    ],
};
