//! Pair Claude (seed 003; zod schemas and record types per protocol-notes §3): MCP `tools/call`
//! params `{name, arguments}` with the `mcp__navigator__`/`pair-navigator_` (driver likewise)
//! prefixes, and the orchestrator's NavigatorCommand, DriverCommand, PermissionRequest,
//! PermissionResult and SDK `canUseTool` result records.

use super::{konst, obj, one_of, opt, req, ANY_OBJECT, BOOL, NON_EMPTY, TEXT};
use crate::protocol::registry::spec::{
    Discriminator, FamilyId, FamilySpec, FieldSpec, MessageTypeSpec, ObjectSpec, Ty,
};

/// A tool call `{name, arguments}` served by the `navigator` or `driver` MCP server.
macro_rules! tool {
    ($server:literal, $tool:literal, $doc:literal, [$($field:expr),* $(,)?] $(,)?) => {
        MessageTypeSpec {
            name: $tool,
            doc: $doc,
            discriminator: Discriminator::Tool {
                tool: $tool,
                prefixes: &[concat!("mcp__", $server, "__"), concat!("pair-", $server, "_")],
            },
            root: ObjectSpec::new(&[
                req(
                    "name",
                    one_of(&[
                        $tool,
                        concat!("mcp__", $server, "__", $tool),
                        concat!("pair-", $server, "_", $tool),
                    ]),
                ),
                req("arguments", obj(&[$($field),*])),
            ]),
            checks: &[],
        }
    };
}

/// A record recognised by its own discriminator.
const fn record(
    name: &'static str,
    doc: &'static str,
    discriminator: Discriminator,
    fields: &'static [FieldSpec],
) -> MessageTypeSpec {
    MessageTypeSpec {
        name,
        doc,
        discriminator,
        root: ObjectSpec::new(fields),
        checks: &[],
    }
}

const NAV_TYPES: &[&str] = &["code_review", "approve", "deny"];
const DRIVER_TYPES: &[&str] = &["request_review", "request_guidance"];

/// The Pair Claude family.
pub static FAMILY: FamilySpec = FamilySpec {
    id: FamilyId::PairClaude,
    title: "Pair Claude tool calls and records",
    version: "1.0.0",
    markers: &["arguments", "allowed", "behavior"],
    type_keys: &["name", "type", "allowed", "behavior"],
    detection_keys: &[
        "name",
        "arguments",
        "type",
        "allowed",
        "behavior",
        "driverTranscript",
    ],
    types: &[
        tool!(
            "navigator",
            "navigatorApprove",
            "Navigator approves a pending permission request.",
            [opt("requestId", TEXT), req("comment", TEXT)],
        ),
        tool!(
            "navigator",
            "navigatorDeny",
            "Navigator denies a pending permission request.",
            [opt("requestId", TEXT), req("comment", TEXT)],
        ),
        tool!(
            "navigator",
            "navigatorCodeReview",
            "Navigator reviews the driver's work; pass ends the session.",
            [req("comment", TEXT), req("pass", BOOL)],
        ),
        tool!(
            "driver",
            "driverRequestReview",
            "Driver asks the navigator for a review.",
            [opt("context", TEXT)],
        ),
        tool!(
            "driver",
            "driverRequestGuidance",
            "Driver asks the navigator for guidance.",
            [req("context", TEXT)],
        ),
        record(
            "NavigatorCommand",
            "The command the orchestrator derives from a navigator tool call.",
            Discriminator::OneOf {
                key: "type",
                values: NAV_TYPES,
            },
            &[
                req("type", one_of(NAV_TYPES)),
                opt("comment", TEXT),
                opt("pass", BOOL),
                opt("requestId", TEXT),
            ],
        ),
        record(
            "DriverCommand",
            "The command the orchestrator derives from a driver tool call.",
            Discriminator::OneOf {
                key: "type",
                values: DRIVER_TYPES,
            },
            &[req("type", one_of(DRIVER_TYPES)), opt("context", TEXT)],
        ),
        record(
            "PermissionRequest",
            "A driver's file-modifying tool use, sent to the navigator for approval.",
            Discriminator::Has {
                key: "driverTranscript",
            },
            &[
                opt("requestId", TEXT),
                req("driverTranscript", TEXT),
                req("toolName", NON_EMPTY),
                req("input", ANY_OBJECT),
                opt("toolId", TEXT),
            ],
        ),
        record(
            "PermissionResult@allowed",
            "The navigator's approval of a permission request.",
            Discriminator::Bool {
                key: "allowed",
                value: true,
            },
            &[
                req("allowed", Ty::BoolConst(true)),
                req("updatedInput", ANY_OBJECT),
                opt("comment", TEXT),
            ],
        ),
        record(
            "PermissionResult@denied",
            "The navigator's denial of a permission request.",
            Discriminator::Bool {
                key: "allowed",
                value: false,
            },
            &[
                req("allowed", Ty::BoolConst(false)),
                req("reason", NON_EMPTY),
            ],
        ),
        record(
            "CanUseToolResult@allow",
            "The SDK canUseTool answer that lets the driver's tool run.",
            Discriminator::Str {
                key: "behavior",
                value: "allow",
                shape: &[],
            },
            &[
                req("behavior", konst("allow")),
                req("updatedInput", ANY_OBJECT),
            ],
        ),
        record(
            "CanUseToolResult@deny",
            "The SDK canUseTool answer that blocks the driver's tool.",
            Discriminator::Str {
                key: "behavior",
                value: "deny",
                shape: &[],
            },
            &[req("behavior", konst("deny")), req("message", NON_EMPTY)],
        ),
    ],
    error_codes: &[],
};
