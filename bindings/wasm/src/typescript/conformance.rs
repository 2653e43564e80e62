//! The conformance report's TypeScript (`conformance()`), its check ids from the core's table.

use switchboard_core::conformance::CHECKS;

const CONFORMANCE: &str = r#"
// ---- conformance ----

/** A check's outcome for one agent: it applies and holds, a message breaks it (`warning`: only
 *  in a way lenient mode accepts), or it applies to none of the agent's messages. */
export type ConformanceStatus = "pass" | "fail" | "warning" | "not_applicable";

/** A message a check looked at. */
export interface ConformanceMessage {
  /** Its position in the log (0-based). */
  entry?: number;
  /** The Agent Mail id. */
  id?: number;
  /** The droid `message_id`. */
  message_id?: string;
  /** The file of an Agent-PO messages directory it was read from. */
  path?: string;
}

/** One check for one agent. */
export interface ConformanceCheck {
  /** The check's stable id. */
  id: ConformanceCheckId;
  /** The seed and section it comes from. */
  seed: string;
  /** What it asks. */
  title: string;
  status: ConformanceStatus;
  /** The messages that break it (fail, warning), else those it applied to (pass). */
  messages: ConformanceMessage[];
  /** What broke it, in the validator's and the session engine's words (secrets masked). */
  details?: string[];
}

/** One family's checks for one agent (`any`: the checks of every message). */
export interface ConformanceFamily {
  family: "any" | "pair" | "agent-po" | "droid" | "pair-claude";
  /** The worst status of its checks. */
  level: ConformanceStatus;
  checks: ConformanceCheck[];
}

/** One agent (a sender of the log) and how it follows the protocols. */
export interface ConformanceAgent {
  /** The sender's name (`(unknown sender)` for messages without one). */
  agent: string;
  /** Whether it is registered (when `agents` was given). */
  registered?: boolean;
  /** The worst status of its checks: `fail`, then `warning`, then `pass`. */
  level: ConformanceStatus;
  /** How many of its checks have each status. */
  counts: Partial<Record<ConformanceStatus, number>>;
  /** `any` first, then each family it sent messages of. */
  families: ConformanceFamily[];
}

/** An expected failure of a baseline: an agent (`*`: any) and a check. */
export interface ConformanceExpected {
  agent: string;
  check: ConformanceCheckId;
}

/** A report compared with its baseline. */
export interface ConformanceBaselineResult {
  /** Failures the baseline lists. */
  expected: ConformanceExpected[];
  /** Failures it does not list: the log does not conform. */
  new_failures: ConformanceExpected[];
  /** Listed failures that now pass or only warn: the baseline is stale (the log does not conform). */
  stale: ConformanceExpected[];
  /** Listed failures this log does not exercise: reported only. */
  unused: ConformanceExpected[];
}

/** The conformance report of a message log, as `switchboard conformance --compact` prints it. */
export interface ConformanceReport {
  /** Every sender, by name. */
  agents: ConformanceAgent[];
  /** The comparison with the baseline, when one was given. */
  baseline?: ConformanceBaselineResult;
  /** No failure; with a baseline: no failure it does not list and no listed failure that passes. */
  conforms: boolean;
}
"#;

/// The conformance shapes, with the check ids taken from the core's table.
pub fn declarations() -> String {
    let ids: Vec<String> = CHECKS.iter().map(|c| format!("{:?}", c.id)).collect();
    format!(
        "{CONFORMANCE}\n/** The stable id of a conformance check (docs/protocol.md, \"Conformance\"). */\n\
         export type ConformanceCheckId =\n  | {};\n",
        ids.join("\n  | ")
    )
}
