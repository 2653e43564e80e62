//! Seed 003, the Pair Claude architecture: its rules, in the seed's order.

use super::{Level, Of, Rule, Seed};
use Level::{Must, Should};

const S: Of = Of(Seed::PairClaude);

const NAVIGATOR: &[&str] = &[
    "navigatorApprove",
    "navigatorDeny",
    "navigatorCodeReview",
    "NavigatorCommand",
];
const DRIVER: &[&str] = &[
    "driverRequestReview",
    "driverRequestGuidance",
    "DriverCommand",
    "PermissionRequest",
];
const DECISIONS: &[&str] = &[
    "navigatorApprove",
    "navigatorDeny",
    "NavigatorCommand",
    "PermissionResult",
    "CanUseToolResult",
];

#[rustfmt::skip]
pub(super) static RULES: &[Rule] = &[
    // Overview
    S.must("003.overview.roles", "Overview", "two distinct roles: Navigator (planning and review/safety) and Driver (implementation)", &["pair-claude.role.tool"]),
    S.not_mail("003.overview.sessions", Must, "Overview", "separate sessions for context isolation", "The navigator's sessions are its own processes' state; no message shows them."),

    // Architecture
    S.must("003.architecture.navigator-tools", "Architecture Diagram", "Navigator Tools:<br/>• navigatorApprove<br/>• navigatorDeny<br/>• navigatorCodeReview", &["pair-claude.message.type", "pair-claude.role.tool"]).about(NAVIGATOR),
    S.must("003.architecture.driver-tools", "Architecture Diagram", "Driver Tools:<br/>• driverRequestReview<br/>• driverRequestGuidance", &["pair-claude.message.type", "pair-claude.role.tool"]).about(DRIVER),

    // 1. Review Flow
    S.must("003.review.request", "1. Review Flow (Asynchronous Quality Feedback)", "Tool returns: DriverCommand{type: \"request_review\"}", &["pair-claude.message.schema"]).about(&["driverRequestReview", "DriverCommand"]),
    S.must("003.review.answered", "1. Review Flow (Asynchronous Quality Feedback)", "N->>+N: Calls navigatorCodeReview tool", &["pair-claude.review.answered"]).about(&["driverRequestReview", "DriverCommand"])
        .note("A review request is answered by the navigator's code review within the tool completion timeout (PAIR_TOOL_TIMEOUT_MS, 2 minutes by default)."),
    S.must("003.review.result", "1. Review Flow (Asynchronous Quality Feedback)", "NavigatorCommand{type: \"code_review\", pass: true/false, comment}", &["pair-claude.message.schema"]).about(&["navigatorCodeReview", "NavigatorCommand"]),
    S.not_mail("003.review.feedback", Must, "1. Review Flow (Asynchronous Quality Feedback)", "O->>-D: Send review feedback as user message", "The orchestrator's user message to the driver is conversation text, not a protocol message."),

    // 2. Permission Flow
    S.must("003.permission.tools", "2. Permission Flow (Synchronous Security Gate)", "Intercept and approve dangerous operations (Write/Edit/MultiEdit)", &["pair-claude.permission.tools"]).about(&["PermissionRequest"])
        .note("Only Write, Edit and MultiEdit need approval (\"No approval needed\" otherwise): a PermissionRequest for another tool is a value outside the flow."),
    S.must("003.permission.decision", "2. Permission Flow (Synchronous Security Gate)", "N->>+N: Calls navigatorApprove OR navigatorDeny", &["pair-claude.permission.answered", "pair-claude.permission.in-order"]).about(&["PermissionRequest", "navigatorApprove", "navigatorDeny", "NavigatorCommand"])
        .note("Each permission request is answered by an approve or a deny within PAIR_PERMISSION_TIMEOUT_MS (15 seconds by the seed; upstream's code waits 45: --permission-timeout-ms), and an approve or deny answers a pending request."),
    S.must("003.permission.result", "2. Permission Flow (Synchronous Security Gate)", "N->>-O: PermissionResult{allowed: true/false, reason/comment}", &["pair-claude.permission.result-matches", "pair-claude.permission.in-order"]).about(DECISIONS)
        .note("PermissionResult and the SDK's {behavior} are the orchestrator's records of the navigator's decision: they follow it and agree with it (allowed / allow after an approval, not allowed / deny after a denial)."),
    S.must("003.permission.allow", "2. Permission Flow (Synchronous Security Gate)", "O->>-D: {behavior: \"allow\", updatedInput}", &["pair-claude.permission.result-matches"]).about(&["CanUseToolResult"]),
    S.must("003.permission.deny", "2. Permission Flow (Synchronous Security Gate)", "O->>-D: {behavior: \"deny\", message}", &["pair-claude.permission.result-matches"]).about(&["CanUseToolResult"]),

    // Key Design Principles
    S.not_mail("003.isolation.context", Must, "Key Design Principles: 1. Agent Isolation", "Each agent runs in its own context with dedicated MCP endpoints", "Processes and endpoints are not in mail."),
    S.must("003.isolation.tools-only", "Key Design Principles: 1. Agent Isolation", "Agents communicate only through structured MCP tools", &["pair-claude.isolation.no-direct", "pair-claude.message.type"]),
    S.must("003.isolation.no-direct", "Key Design Principles: 1. Agent Isolation", "No direct agent-to-agent communication", &["pair-claude.isolation.no-direct"])
        .note("Mail from the navigator to the driver or back (any mail, protocol or plain) is direct communication; who plays which role is learned from their tool calls."),
    S.must("003.mediation.orchestrator", "Key Design Principles: 2. Orchestrator Mediation", "All inter-agent communication flows through the orchestrator", &["pair-claude.isolation.no-direct"]),
    S.not_mail("003.mediation.translation", Must, "Key Design Principles: 2. Orchestrator Mediation", "Orchestrator handles protocol translation (DriverCommand ↔ user messages ↔ NavigatorCommand)", "The translation into user messages is inside the orchestrator."),
    S.not_mail("003.mediation.timing", Must, "Key Design Principles: 2. Orchestrator Mediation", "Orchestrator manages timing, buffering, and flow control", "Buffering and flow control are inside the orchestrator; the timeouts it enforces are checked under Environment Configuration."),
    S.not_mail("003.semantics.navigator", Must, "Key Design Principles: 3. MCP Tool Semantics", "**Navigator tools**: Communication-only (empty content arrays)", "Tool results are returned to the caller, not logged as messages."),
    S.not_mail("003.semantics.driver", Must, "Key Design Principles: 3. MCP Tool Semantics", "**Driver tools**: User-visible feedback (descriptive content)", "Tool results are returned to the caller, not logged as messages."),
    S.must("003.flow.permission-sync", "Key Design Principles: 4. Flow Separation", "**Permission Flow**: Sync, security-focused, real-time interception", &["pair-claude.permission.sync"]).about(&["PermissionRequest"])
        .note("Synchronous: the driver's tool call waits for the decision, so the driver makes no other call while its permission request is pending."),
    S.not_mail("003.flow.review-async", Should, "Key Design Principles: 4. Flow Separation", "**Review Flow**: Async, quality-focused, batch-oriented", "Batching is the orchestrator's (driverBuffer); any order of review calls is allowed."),

    // Multi-Agent Extensibility
    S.not_mail("003.extensibility.endpoints", Must, "Multi-Agent Extensibility", "Implement appropriate MCP tool endpoints (`/mcp/navigator` or `/mcp/driver`)", "Endpoints are configuration, not mail."),
    S.must("003.extensibility.vocabulary", "Multi-Agent Extensibility", "Expose correct tool vocabulary (Navigator: approve/deny/review, Driver: requestReview/requestGuidance)", &["pair-claude.message.type", "pair-claude.role.tool"]),
    S.not_mail("003.extensibility.user-messages", Must, "Multi-Agent Extensibility", "Handle user messages from orchestrator", "How an agent handles its user messages is not in mail."),
    S.must("003.extensibility.schemas", "Multi-Agent Extensibility", "Return structured tool calls with expected schemas", &["pair-claude.message.schema"]),

    // Environment Configuration
    S.must("003.env.tool-timeout", "Environment Configuration", "PAIR_TOOL_TIMEOUT_MS=120000        # Tool completion timeout (default: 2 minutes)", &["pair-claude.review.answered"]).about(&["driverRequestReview", "DriverCommand"])
        .note("The tool call that waits on another agent in the log is a review request: its code review is due within the tool timeout (--tool-timeout-ms)."),
    S.must("003.env.permission-timeout", "Environment Configuration", "PAIR_PERMISSION_TIMEOUT_MS=15000   # Permission request timeout (default: 15 seconds)", &["pair-claude.permission.answered"]).about(&["PermissionRequest"]),
    S.must("003.env.navigator-turns", "Environment Configuration", "PAIR_NAVIGATOR_MAX_TURNS=20        # Navigator conversation limit", &["pair-claude.turns.navigator-max"]),
    S.must("003.env.driver-turns", "Environment Configuration", "PAIR_DRIVER_MAX_TURNS=20           # Driver conversation limit", &["pair-claude.turns.driver-max"]),

    // File Organization
    S.not_mail("003.files", Should, "File Organization", "`src/utils/mcpTools.ts` - Individual MCP tool definitions with Zod schemas", "Source files of the reference implementation, not mail."),
];
