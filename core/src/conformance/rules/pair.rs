//! Seed 000, the Pair Protocol 3.1: its rules, in the seed's order.

use super::{Level, Of, Rule, Seed};
use Level::{Must, Should};

const S: Of = Of(Seed::Pair);

const SENDER: &[&str] = &["pair.role.sender"];
const RECIPIENT: &[&str] = &["pair.recipient.role"];
const MEMBERS: &[&str] = &["pair.message.required-fields", "pair.message.schema"];
const ORDER: &[&str] = &["pair.order.phase"];
/// The messages after which the builder is awaited (CONTRACT_FINAL's row, and the messages
/// that send the builder back to work as it does).
const BUILD_WAITS: &[&str] = &[
    "CONTRACT_FINAL",
    "CHANGE_ORDER_ACCEPTED",
    "CHANGE_ORDER_REJECTED",
    "BUILD_REJECTED",
];
const WARN_ON_TIME: &[&str] = &["pair.timeout.warning-missing"];

#[rustfmt::skip]
pub(super) static RULES: &[Rule] = &[
    // Message Structure
    S.must("000.structure.json", "Message Structure", "All MCP mail messages follow this JSON structure:", MEMBERS),
    S.must("000.structure.recipient", "Message Structure", "\"to\": \"<recipient_agent_id>\",", &["pair.recipient.role"]),
    S.must("000.structure.subject", "Message Structure", "\"subject\": \"<message_type>\",", &["pair.message.type"]),
    S.must("000.structure.phase", "Message Structure", "\"phase\": \"<current_phase>\",", &["pair.message.required-fields", "pair.message.phase-current"])
        .note("PAIR_INIT carries no phase (its example has none; protocol-notes §5.1). Every other type's phase is fixed by its type, except TIMEOUT_WARNING and SESSION_ABORT, which name the phase the session is in: that is checked against the session."),
    S.must("000.structure.status", "Message Structure", "\"status\": \"<status>\",", &["pair.message.required-fields"]),

    // 1. PAIR_INIT
    S.must("000.pair-init.sender", "1. PAIR_INIT", "Either agent (whoever receives the /pair command first)", &["pair.init.role-conflict"]).about(&["PAIR_INIT"])
        .note("Who received /pair first is not in the mail; both agents may send PAIR_INIT (pair.md), so a second one must agree on the roles."),
    S.must("000.pair-init.recipient", "1. PAIR_INIT", "**Recipient:** Partner agent", RECIPIENT).about(&["PAIR_INIT"]),
    S.must("000.pair-init.purpose", "1. PAIR_INIT", "**Purpose:** Initialize pair session", ORDER).about(&["PAIR_INIT"]),
    S.must("000.pair-init.protocol-version", "1. PAIR_INIT", "\"protocol_version\": \"3.1\",", &["pair.init.protocol-version"]).about(&["PAIR_INIT"]),
    S.must("000.pair-init.roles", "1. PAIR_INIT", "\"my_role\": \"PLANNER\",", &["pair.init.roles"]).about(&["PAIR_INIT"]),
    S.must("000.pair-init.members", "1. PAIR_INIT", "\"status\": \"INITIALIZED\"", MEMBERS).about(&["PAIR_INIT"]),

    // 2. CONTRACT_DRAFT
    S.must("000.contract-draft.sender", "2. CONTRACT_DRAFT", "**Sender:** Planner", SENDER).about(&["CONTRACT_DRAFT"]),
    S.must("000.contract-draft.recipient", "2. CONTRACT_DRAFT", "**Recipient:** Builder", RECIPIENT).about(&["CONTRACT_DRAFT"]),
    S.must("000.contract-draft.review", "2. CONTRACT_DRAFT", "**Purpose:** Share initial contract for internal review", ORDER).about(&["CONTRACT_DRAFT"]),
    S.must("000.contract-draft.members", "2. CONTRACT_DRAFT", "\"status\": \"AWAITING_HUMAN_REVIEW\"", MEMBERS).about(&["CONTRACT_DRAFT"]),

    // 3. CONTRACT_FINAL
    S.must("000.contract-final.sender", "3. CONTRACT_FINAL", "**Sender:** Planner", SENDER).about(&["CONTRACT_FINAL"]),
    S.must("000.contract-final.recipient", "3. CONTRACT_FINAL", "**Recipient:** Builder", RECIPIENT).about(&["CONTRACT_FINAL"]),
    S.must("000.contract-final.immutable", "3. CONTRACT_FINAL", "**Purpose:** Send finalized, immutable contract to builder", &["pair.message.schema", "pair.contract.immutable-tests"]).about(&["CONTRACT_FINAL", "BUILD_COMPLETE", "AUDIT_REPORT"])
        .note("contract_immutable is the constant true; the tests it fixes are checked against their fingerprints whenever a later message or the contract folder shows them."),
    S.must("000.contract-final.members", "3. CONTRACT_FINAL", "\"contract_immutable\": true,", MEMBERS).about(&["CONTRACT_FINAL"]),

    // 4. BUILD_COMPLETE
    S.must("000.build-complete.sender", "4. BUILD_COMPLETE", "**Sender:** Builder", SENDER).about(&["BUILD_COMPLETE"]),
    S.must("000.build-complete.recipient", "4. BUILD_COMPLETE", "**Recipient:** Planner", RECIPIENT).about(&["BUILD_COMPLETE"]),
    S.must("000.build-complete.all-pass", "4. BUILD_COMPLETE", "**Purpose:** Notify planner that all tests pass", &["pair.message.schema"]).about(&["BUILD_COMPLETE"])
        .note("test_results is the constant ALL_PASS: a build whose tests fail is a CHANGE_ORDER or more work, not a BUILD_COMPLETE."),
    S.must("000.build-complete.members", "4. BUILD_COMPLETE", "\"implementation_files\": [", MEMBERS).about(&["BUILD_COMPLETE"]),

    // 5. CHANGE_ORDER
    S.must("000.change-order.sender", "5. CHANGE_ORDER", "**Sender:** Builder", SENDER).about(&["CHANGE_ORDER"]),
    S.must("000.change-order.recipient", "5. CHANGE_ORDER", "**Recipient:** Planner", RECIPIENT).about(&["CHANGE_ORDER"]),
    S.must("000.change-order.purpose", "5. CHANGE_ORDER", "**Purpose:** Request contract modification due to blocker", ORDER).about(&["CHANGE_ORDER"]),
    S.must("000.change-order.members", "5. CHANGE_ORDER", "\"failure_mode\": \"dependency_missing\",", MEMBERS).about(&["CHANGE_ORDER"]),

    // 6. CHANGE_ORDER_ACCEPTED
    S.must("000.change-order-accepted.sender", "6. CHANGE_ORDER_ACCEPTED", "**Sender:** Planner", SENDER).about(&["CHANGE_ORDER_ACCEPTED"]),
    S.must("000.change-order-accepted.recipient", "6. CHANGE_ORDER_ACCEPTED", "**Recipient:** Builder", RECIPIENT).about(&["CHANGE_ORDER_ACCEPTED"]),
    S.must("000.change-order-accepted.updated-contract", "6. CHANGE_ORDER_ACCEPTED", "**Purpose:** Accept change order and provide updated contract", &["pair.change-order.new-contract", "pair.message.schema"]).about(&["CHANGE_ORDER_ACCEPTED"])
        .note("The updated contract is new files (the example's spec_final_v2.md, tests_v2.py): the finalized spec and tests are immutable after contract approval (File Artifacts), so updated_artifacts naming the finalized paths overwrites them."),
    S.must("000.change-order-accepted.members", "6. CHANGE_ORDER_ACCEPTED", "\"decision\": \"ACCEPTED\",", MEMBERS).about(&["CHANGE_ORDER_ACCEPTED"]),

    // 7. CHANGE_ORDER_REJECTED
    S.must("000.change-order-rejected.sender", "7. CHANGE_ORDER_REJECTED", "**Sender:** Planner", SENDER).about(&["CHANGE_ORDER_REJECTED"]),
    S.must("000.change-order-rejected.recipient", "7. CHANGE_ORDER_REJECTED", "**Recipient:** Builder", RECIPIENT).about(&["CHANGE_ORDER_REJECTED"]),
    S.must("000.change-order-rejected.strategy", "7. CHANGE_ORDER_REJECTED", "**Purpose:** Reject change order and provide strategy", MEMBERS).about(&["CHANGE_ORDER_REJECTED"]),
    S.must("000.change-order-rejected.members", "7. CHANGE_ORDER_REJECTED", "\"status\": \"RETRY_BUILD\"", MEMBERS).about(&["CHANGE_ORDER_REJECTED"]),

    // 8. SESSION_COMPLETE
    S.must("000.session-complete.sender", "8. SESSION_COMPLETE", "**Sender:** Planner", SENDER).about(&["SESSION_COMPLETE"]),
    S.must("000.session-complete.recipient", "8. SESSION_COMPLETE", "**Recipient:** Builder", RECIPIENT).about(&["SESSION_COMPLETE"]),
    S.must("000.session-complete.purpose", "8. SESSION_COMPLETE", "**Purpose:** Notify successful completion and merge", &["pair.order.phase", "pair.session.after-end"]).about(&["SESSION_COMPLETE"]),
    S.must("000.session-complete.members", "8. SESSION_COMPLETE", "\"commit_sha\": \"a1b2c3d4e5f6g7h8i9j0\",", MEMBERS).about(&["SESSION_COMPLETE"])
        .note("The example's commit_sha is not hex (protocol-notes §5.1): a SHA is checked leniently, as a warning."),

    // 9. SESSION_ABORT
    S.must("000.session-abort.sender", "9. SESSION_ABORT", "**Sender:** Either agent", SENDER).about(&["SESSION_ABORT"]),
    S.must("000.session-abort.recipient", "9. SESSION_ABORT", "**Recipient:** Partner agent", RECIPIENT).about(&["SESSION_ABORT"]),
    S.must("000.session-abort.members", "9. SESSION_ABORT", "\"cleanup_required\": true", MEMBERS).about(&["SESSION_ABORT"]),

    // 10. TIMEOUT_WARNING
    S.must("000.timeout-warning.sender", "10. TIMEOUT_WARNING", "**Sender:** Either agent", &["pair.role.sender", "pair.timeout.warning-recipient"]).about(&["TIMEOUT_WARNING"])
        .note("Either agent may send it, but only the one waiting for a response has a reason to: the sender is the waiting agent."),
    S.must("000.timeout-warning.recipient", "10. TIMEOUT_WARNING", "**Recipient:** Partner agent (not responding)", &["pair.timeout.warning-recipient"]).about(&["TIMEOUT_WARNING"]),
    S.must("000.timeout-warning.purpose", "10. TIMEOUT_WARNING", "**Purpose:** Warn about impending timeout", &["pair.timeout.warning-premature"]).about(&["TIMEOUT_WARNING"])
        .note("A warning is due once the awaited response is late; one sent earlier warns about nothing."),
    S.must("000.timeout-warning.max-warnings", "10. TIMEOUT_WARNING", "\"max_warnings\": 2", &["pair.timeout.warnings"]).about(&["TIMEOUT_WARNING"]),
    S.must("000.timeout-warning.members", "10. TIMEOUT_WARNING", "\"warnings_sent\": 1,", MEMBERS).about(&["TIMEOUT_WARNING"])
        .note("warnings_sent and max_warnings are optional (pair.md's own warnings carry neither; protocol-notes §5.3)."),

    // Communication Patterns
    S.must("000.pattern-1.init", "Pattern 1: Happy Path (No Change Orders)", "2. Alice → Bob: PAIR_INIT", ORDER).about(&["PAIR_INIT"]),
    S.must("000.pattern-1.draft", "Pattern 1: Happy Path (No Change Orders)", "4. Alice → Bob: CONTRACT_DRAFT", ORDER).about(&["CONTRACT_DRAFT"]),
    S.must("000.pattern-1.contract-review", "Pattern 1: Happy Path (No Change Orders)", "5. Alice: [HUMAN CHECKPOINT] Contract review → APPROVED", &["pair.checkpoint.contract-before-final"]).about(&["CONTRACT_FINAL"]),
    S.must("000.pattern-1.final", "Pattern 1: Happy Path (No Change Orders)", "6. Alice → Bob: CONTRACT_FINAL", ORDER).about(&["CONTRACT_FINAL"]),
    S.must("000.pattern-1.build", "Pattern 1: Happy Path (No Change Orders)", "8. Bob → Alice: BUILD_COMPLETE", ORDER).about(&["BUILD_COMPLETE"]),
    S.must("000.pattern-1.audit", "Pattern 1: Happy Path (No Change Orders)", "9. Alice: Run automated audit", &["pair.audit.before-merge"]).about(&["SESSION_COMPLETE"])
        .note("The audit's report is the planner's audit_report.json (File Artifacts); the project mails it as AUDIT_REPORT so the implementation review and the log show it. A merge with no AUDIT_REPORT since the last BUILD_COMPLETE skipped step 9."),
    S.must("000.pattern-1.implementation-review", "Pattern 1: Happy Path (No Change Orders)", "10. Alice: [HUMAN CHECKPOINT] Implementation review → MERGE APPROVED", &["pair.order.phase", "pair.audit.merge-after-fail"]).about(&["SESSION_COMPLETE"])
        .note("The reviewer's decision is not mail: SESSION_COMPLETE is how MERGE APPROVED shows, so it must follow a BUILD_COMPLETE under review, and not a failed audit."),
    S.not_mail("000.pattern-1.merge", Must, "Pattern 1: Happy Path (No Change Orders)", "11. Alice: Merge code", "The merge is a git operation; mail shows only SESSION_COMPLETE's commit_sha and branch, whose form the schema checks."),
    S.must("000.pattern-1.complete", "Pattern 1: Happy Path (No Change Orders)", "12. Alice → Bob: SESSION_COMPLETE", ORDER).about(&["SESSION_COMPLETE"]),
    S.not_mail("000.pattern-2.attempts", Must, "Pattern 2: With Change Order (Valid)", "7. Bob: Attempt implementation (fails 3 times)", "The attempts happen in the builder's workspace. CHANGE_ORDER lists attempted_fixes (required), but the seed's own example lists two, so their number is not held to three."),
    S.must("000.pattern-2.change-order", "Pattern 2: With Change Order (Valid)", "8. Bob → Alice: CHANGE_ORDER", ORDER).about(&["CHANGE_ORDER"]),
    S.must("000.pattern-2.change-order-review", "Pattern 2: With Change Order (Valid)", "10. Alice: [HUMAN CHECKPOINT] Change order review → ACCEPT CHANGE", ORDER).about(&["CHANGE_ORDER_ACCEPTED", "CHANGE_ORDER_REJECTED"]),
    S.must("000.pattern-2.update-contract", "Pattern 2: With Change Order (Valid)", "11. Alice: Update contract", &["pair.change-order.new-contract"]).about(&["CHANGE_ORDER_ACCEPTED"]),
    S.must("000.pattern-2.accepted", "Pattern 2: With Change Order (Valid)", "12. Alice → Bob: CHANGE_ORDER_ACCEPTED", ORDER).about(&["CHANGE_ORDER_ACCEPTED"]),
    S.must("000.pattern-2.retry", "Pattern 2: With Change Order (Valid)", "13. Bob: Retry with updated contract", ORDER).about(&["BUILD_COMPLETE", "CHANGE_ORDER"]),
    S.must("000.pattern-3.change-order-review", "Pattern 3: With Change Order (Rejected)", "10. Alice: [HUMAN CHECKPOINT] Change order review → REJECT CHANGE", ORDER).about(&["CHANGE_ORDER_REJECTED"]),
    S.must("000.pattern-3.rejected", "Pattern 3: With Change Order (Rejected)", "11. Alice → Bob: CHANGE_ORDER_REJECTED (with strategy)", &["pair.order.phase", "pair.message.required-fields"]).about(&["CHANGE_ORDER_REJECTED"]),
    S.must("000.pattern-3.retry", "Pattern 3: With Change Order (Rejected)", "12. Bob: Retry with new strategy", ORDER).about(&["BUILD_COMPLETE", "CHANGE_ORDER"]),
    S.must("000.pattern-4.abort", "Pattern 4: Abort", "7. Sender → Recipient: SESSION_ABORT", &["pair.recipient.role", "pair.order.phase"]).about(&["SESSION_ABORT"]),
    S.not_mail("000.pattern-4.detect", Must, "Pattern 4: Abort", "6. Alice or Bob: Detect abort condition", "Detecting the condition is the agent's own reasoning; the abort it leads to is the SESSION_ABORT checked above."),
    S.not_mail("000.pattern-4.cleanup", Must, "Pattern 4: Abort", "8. Both agents: Clean up artifacts", "Cleaning up is work on files; no message shows it (SESSION_ABORT's cleanup_required only announces it)."),
    S.must("000.pattern-4.exit", "Pattern 4: Abort", "9. Both agents: Exit", &["pair.session.after-end"]),

    // Timeout Configuration
    S.must("000.timeout.pair-init", "Timeout Configuration", "| PAIR_INIT response | 5 minutes | Send TIMEOUT_WARNING |", &["pair.timeout.init-answered"]).about(&["PAIR_INIT"])
        .note("No message answers PAIR_INIT: its response is the partner's Agent Mail acknowledgement (or the partner's first message). The log shows it only when PAIR_INIT asked for one (ack_required); otherwise the rule is not tested. The planner's own next messages do not answer it."),
    S.must("000.timeout.contract-final", "Timeout Configuration", "| CONTRACT_FINAL response | 30 minutes | Send TIMEOUT_WARNING |", WARN_ON_TIME).about(BUILD_WAITS)
        .note("CHANGE_ORDER_ACCEPTED, CHANGE_ORDER_REJECTED and BUILD_REJECTED send the builder back to work as CONTRACT_FINAL does: the builder's answer (BUILD_COMPLETE or CHANGE_ORDER) is due within 30 minutes of each."),
    S.must("000.timeout.build-complete", "Timeout Configuration", "| BUILD_COMPLETE response | 60 minutes | Send TIMEOUT_WARNING |", WARN_ON_TIME).about(&["BUILD_COMPLETE"]),
    S.must("000.timeout.change-order", "Timeout Configuration", "| CHANGE_ORDER response | 30 minutes | Send TIMEOUT_WARNING |", WARN_ON_TIME).about(&["CHANGE_ORDER"]),
    S.must("000.timeout.second-warning", "Timeout Configuration", "| After 2nd warning | 10 minutes | Send SESSION_ABORT |", &["pair.timeout.abort-missing", "pair.timeout.warnings", "pair.timeout.warning-premature"]).about(&["TIMEOUT_WARNING"])
        .note("As pair.md implements it: warning #2 ten minutes after #1 (the example: \"Please respond within 10 minutes\"), SESSION_ABORT ten minutes after #2, a third warning is over the limit."),

    // Error Codes
    S.must("000.error.invalid-agent", "Error Codes", "| INVALID_AGENT | Agent not registered in MCP mail | Check agent registration |", &["any.registered-agent"]).all_mail()
        .note("Decided when the registered agents are known (--agents, or the server's list in the console); not tested otherwise."),
    S.must("000.error.message-timeout", "Error Codes", "| MESSAGE_TIMEOUT | No response within timeout | Check agent status |", &["pair.timeout.late-response", "pair.timeout.init-answered"]).about(&["PAIR_INIT", "CONTRACT_FINAL", "CHANGE_ORDER_ACCEPTED", "CHANGE_ORDER_REJECTED", "BUILD_REJECTED", "BUILD_COMPLETE", "CHANGE_ORDER"]),
    S.must("000.error.contract-tampered", "Error Codes", "| CONTRACT_TAMPERED | Builder modified test file | Reject build, restart |", &["pair.contract.immutable-tests", "pair.audit.merge-after-fail"])
        .note("Tampering is seen when a BUILD_COMPLETE's fingerprints, an AUDIT_REPORT's CONTRACT_TAMPERED issue or the contract folder (--contract) differ from the fingerprints taken at CONTRACT_FINAL; without fingerprints it is not tested. \"Reject build\": no SESSION_COMPLETE may follow."),
    S.must("000.error.scheming-detected", "Error Codes", "| SCHEMING_DETECTED | Audit found gaming patterns | Reject build, restart |", &["pair.audit.clean-build", "pair.audit.merge-after-fail"]).about(&["AUDIT_REPORT", "SESSION_COMPLETE"]),
    S.must("000.error.dependency-violation", "Error Codes", "| DEPENDENCY_VIOLATION | Unauthorized dependency added | Reject build, request change order |", &["pair.audit.clean-build", "pair.audit.merge-after-fail"]).about(&["AUDIT_REPORT", "SESSION_COMPLETE"])
        .note("A dependency the audit found is one of its failing findings: the build fails the audit and must not be merged."),
    S.must("000.error.test-syntax-error", "Error Codes", "| TEST_SYNTAX_ERROR | Tests have syntax errors | Planner fixes tests |", &["pair.contract.tests-parse"])
        .note("Decided when the contract's files are given (--contract, or the folder linked in the console); not tested otherwise."),

    // Best Practices
    S.should("000.practice.planner-specific", "Best Practices: For Planners (Architects)", "Write tests that fail for the right reasons (logic, not syntax)", &["pair.contract.tests-parse"]),
    S.not_mail("000.practice.planner-malicious", Should, "Best Practices: For Planners (Architects)", "What's the easiest way to game these tests?", "The planner's reasoning lives in safety_reasoning.md, a file; mail only names it."),
    S.not_mail("000.practice.planner-assumptions", Should, "Best Practices: For Planners (Architects)", "List any \"magic\" you expect to exist", "What the spec documents is file content, not mail."),
    S.not_mail("000.practice.planner-examples", Should, "Best Practices: For Planners (Architects)", "Pull test patterns from existing codebase", "Where test patterns come from is not in any message."),
    S.must("000.practice.builder-tests", "Best Practices: For Builders (Implementers)", "IMMUTABLE_TESTS law is absolute", &["pair.contract.immutable-tests"])
        .note("\"Absolute\" makes this a MUST although it sits among the best practices."),
    S.not_mail("000.practice.builder-fail-fast", Should, "Best Practices: For Builders (Implementers)", "Don't waste attempts on obviously impossible tasks", "Which tasks are obviously impossible is the builder's judgement; attempts are not mail."),
    S.not_mail("000.practice.builder-change-orders", Should, "Best Practices: For Builders (Implementers)", "If contract is impossible, say so immediately", "When the builder learned the contract was impossible is not in any message."),
    S.must("000.practice.builder-no-shortcuts", "Best Practices: For Builders (Implementers)", "Hardcoding, mocking the assertion library, etc. will be caught", &["pair.audit.clean-build"]).about(&["AUDIT_REPORT"])
        .note("\"Will be caught\": the audit catches them; a report with scheming_detected counts against the builder."),
    S.should("000.practice.communicate-early", "Best Practices: For Both", "Don't wait for timeout to ask questions", &["pair.timeout.late-response"]).about(&["PAIR_INIT", "CONTRACT_FINAL", "CHANGE_ORDER_ACCEPTED", "CHANGE_ORDER_REJECTED", "BUILD_REJECTED", "BUILD_COMPLETE", "CHANGE_ORDER"]),
    S.should("000.practice.trust-protocol", "Best Practices: For Both", "Human checkpoints exist for a reason", &["pair.checkpoint.contract-before-final", "pair.order.phase"]),
    S.should("000.practice.clean-exit", "Best Practices: For Both", "Always send SESSION_ABORT if you need to quit", &["pair.timeout.abort-missing"]).about(&["TIMEOUT_WARNING"])
        .note("An agent that quits silently shows as the partner's unanswered warnings: after the second, the abort is due."),
    S.not_mail("000.practice.keep-artifacts", Should, "Best Practices: For Both", "Don't delete tmp files until session complete", "Deleting files is not mail."),

    // Human Review Checkpoints
    S.must("000.checkpoint-1.when", "Checkpoint #1: Contract Review (Planner)", "**When:** After contract generation, before finalizing", &["pair.checkpoint.contract-before-final"]).about(&["CONTRACT_FINAL"]),
    S.not_mail("000.checkpoint-1.purpose", Must, "Checkpoint #1: Contract Review (Planner)", "**Purpose:** Ensure tests are comprehensive and prevent scheming", "Whether the tests are comprehensive is the reviewer's judgement of files; mail shows only the decision."),
    S.must("000.checkpoint-1.revise", "Checkpoint #1: Contract Review (Planner)", "- REVISE: <feedback> → Regenerate contract", &["pair.order.phase", "pair.role.sender"]).about(&["CONTRACT_DRAFT", "CONTRACT_REVISION_REQUESTED"])
        .note("REVISE sends the builder nothing: a new CONTRACT_DRAFT, or the extension CONTRACT_REVISION_REQUESTED from the planner's side to the planner (docs/protocol.md, \"Why REVISE is a message from the planner to itself\")."),
    S.must("000.checkpoint-1.actions", "Checkpoint #1: Contract Review (Planner)", "- APPROVED → Continue to build", &["pair.order.phase", "pair.role.sender"]).about(&["CONTRACT_FINAL", "CONTRACT_DRAFT", "CONTRACT_REVISION_REQUESTED", "SESSION_ABORT"])
        .note("The decisions are the reviewer's words, not mail: APPROVED shows as CONTRACT_FINAL, REVISE as a new CONTRACT_DRAFT (or the extension CONTRACT_REVISION_REQUESTED), ABORT as SESSION_ABORT; each from the planner, whose checkpoint it is."),
    S.must("000.checkpoint-2.when", "Checkpoint #2: Implementation Review (Planner)", "**When:** After builder claims BUILD_COMPLETE", ORDER).about(&["SESSION_COMPLETE", "BUILD_REJECTED"]),
    S.must("000.checkpoint-2.purpose", "Checkpoint #2: Implementation Review (Planner)", "**Purpose:** Verify implementation quality and no scheming", &["pair.audit.merge-after-fail", "pair.audit.before-merge"]).about(&["SESSION_COMPLETE"])
        .note("Quality is the reviewer's judgement; \"no scheming\" is what the audit reports, and no merge may follow a report that finds it."),
    S.must("000.checkpoint-2.reject", "Checkpoint #2: Implementation Review (Planner)", "- REJECT: <reason> → Send back to builder", &["pair.recipient.role", "pair.order.phase"]).about(&["BUILD_REJECTED"])
        .note("The seed names no message for REJECT (protocol-notes §5.4); the extension BUILD_REJECTED carries it to the builder."),
    S.must("000.checkpoint-2.merge", "Checkpoint #2: Implementation Review (Planner)", "- MERGE APPROVED → Merge and complete", &["pair.order.phase", "pair.audit.merge-after-fail", "pair.audit.before-merge"]).about(&["SESSION_COMPLETE"]),
    S.must("000.checkpoint-3.when", "Checkpoint #3: Change Order Review (Planner)", "**When:** Builder sends CHANGE_ORDER", ORDER).about(&["CHANGE_ORDER_ACCEPTED", "CHANGE_ORDER_REJECTED"]),
    S.not_mail("000.checkpoint-3.purpose", Must, "Checkpoint #3: Change Order Review (Planner)", "**Purpose:** Decide if contract modification is justified", "Whether a change is justified is the reviewer's judgement; the decision shows as CHANGE_ORDER_ACCEPTED or _REJECTED."),
    S.must("000.checkpoint-3.accept", "Checkpoint #3: Change Order Review (Planner)", "- ACCEPT CHANGE: <reasoning> → Update contract", &["pair.change-order.new-contract", "pair.message.required-fields"]).about(&["CHANGE_ORDER_ACCEPTED"]),
    S.must("000.checkpoint-3.reject", "Checkpoint #3: Change Order Review (Planner)", "- REJECT CHANGE: <strategy> → Send strategy to builder", &["pair.recipient.role", "pair.message.required-fields"]).about(&["CHANGE_ORDER_REJECTED"]),
    S.must("000.checkpoint.abort", "Human Review Checkpoints", "- ABORT → End session", &["pair.session.after-end"]),

    // File Artifacts
    S.must("000.artifacts.format", "File Artifacts", "All artifacts are stored in `tmp/pair_<timestamp>_*` format:", &["pair.message.schema", "pair.artifacts.isolated"]).about(&["CONTRACT_DRAFT", "CONTRACT_FINAL", "CHANGE_ORDER_ACCEPTED"])
        .note("The paths' form is checked leniently by the validator (a warning); that one session keeps one tmp/pair_<timestamp>_ prefix is checked across its messages."),
    S.must("000.artifacts.contract-immutable", "File Artifacts", "| `spec_final.md` | Finalized specification | Planner | Contract approval |", &["pair.change-order.new-contract", "pair.contract.immutable-tests"]).about(&["CHANGE_ORDER_ACCEPTED", "BUILD_COMPLETE", "AUDIT_REPORT"]),
    S.must("000.artifacts.audit-report", "File Artifacts", "| `audit_report.json` | Automated audit results | Planner | After audit |", &["pair.role.sender"]).about(&["AUDIT_REPORT"]),
    S.not_mail("000.artifacts.spec-draft", Must, "File Artifacts", "| `spec_draft.md` | Initial specification | Planner | Draft review |", "Whether the draft changed after its review is file content: it carries no fingerprint in mail."),
    S.must("000.artifacts.tests-immutable", "File Artifacts", "| `tests.<ext>` | Test suite | Planner | Contract approval |", &["pair.contract.immutable-tests"]),
    S.not_mail("000.artifacts.safety-reasoning", Must, "File Artifacts", "| `safety_reasoning.md` | Scheming risk analysis | Planner | Draft review |", "Whether the file changed after the draft review is not in mail: only the tests carry fingerprints."),

    // MCP Mail Commands Reference
    S.not_mail("000.commands.register", Must, "MCP Mail Commands Reference", "Required flags: `--id`, `--role`, `--model`, `--capabilities` (JSON array string)", "Registration is a call to the server, not mail; real Agent Mail's register_agent takes other arguments (protocol-notes §0). A sender the server does not know is INVALID_AGENT."),
    S.not_mail("000.commands.pseudo", Should, "MCP Mail Commands Reference", "CURRENT_AGENT=$(mcp__agentmail__whoami)", "These commands (whoami, check_inbox, list_messages, delete_messages) do not exist on real Agent Mail servers (protocol-notes §5.1); what an agent calls is not mail."),

    // Security Considerations
    S.must("000.security.test-immutability", "Security Considerations", "Tests are fingerprinted (hash) at CONTRACT_FINAL. Any modification triggers CRITICAL alert.", &["pair.contract.immutable-tests", "pair.audit.tamper-critical"]),
    S.should("000.security.fingerprints-in-mail", "Security Considerations", "Tests are fingerprinted (hash) at CONTRACT_FINAL.", &["pair.contract.fingerprinted", "pair.contract.fingerprints"]).about(&["CONTRACT_FINAL", "CONTRACT_DRAFT", "CHANGE_ORDER_ACCEPTED", "BUILD_COMPLETE"])
        .note("The seed names no hash and no place for it (protocol-notes §2.1): the project carries SHA-256 digests in test_fingerprints. Without them in mail, tampering cannot be seen from the log: a recommendation, a warning."),
    S.must("000.security.artifact-isolation", "Security Considerations", "Each session uses unique timestamp-based directory to prevent cross-contamination.", &["pair.artifacts.isolated"]).about(&["CONTRACT_DRAFT", "CONTRACT_FINAL", "CHANGE_ORDER_ACCEPTED"]),
    S.not_mail("000.security.audit-trail", Must, "Security Considerations", "All MCP mail messages are logged with timestamps for post-session review.", "The server logs and timestamps mail (created_ts); that is the server's behaviour, not an agent's."),
    S.must("000.security.dependency-locking", "Security Considerations", "Any new dependency requires explicit change order approval.", &["pair.audit.clean-build", "pair.audit.merge-after-fail"]).about(&["AUDIT_REPORT", "SESSION_COMPLETE"])
        .note("A new dependency shows in mail as the audit's finding; a merge despite it skips the change order."),
    S.must("000.security.scheming-detection", "Security Considerations", "Multi-layer checks for env var gaming, mock abuse, hardcoding, etc.", &["pair.audit.clean-build"]).about(&["AUDIT_REPORT"]),

    // Troubleshooting
    S.must("000.troubleshooting.registered", "Troubleshooting", "Is agent registered? `mcp__agentmail__list_agents`", &["any.registered-agent"]).all_mail(),
    S.must("000.troubleshooting.case-sensitive", "Troubleshooting", "Is agent ID correct? Case-sensitive", &["any.registered-agent"]).all_mail(),

    // Footer
    S.must("000.version", "Protocol Version", "**Protocol Version:** 3.1", &["pair.init.protocol-version"]).about(&["PAIR_INIT"]),
];
