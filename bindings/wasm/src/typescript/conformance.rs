//! The conformance report's TypeScript (`conformance()`), its rule and check ids from the
//! core's rule matrix and check table.

use switchboard_core::conformance::{rules, CHECKS};

const CONFORMANCE: &str = r#"
// ---- conformance ----

/** A rule's outcome for one agent: decided and held (`pass`), broken (`fail`: a MUST rule;
 *  `warning`: a SHOULD rule, or a MUST rule only in a way lenient mode accepts), applying but
 *  impossible to decide from the log and options (`not_tested`: never counted as a pass), or
 *  given no occasion by the agent's messages (`not_applicable`). */
export type ConformanceStatus = "pass" | "fail" | "warning" | "not_tested" | "not_applicable";

/** How strongly the seed states a rule. */
export type ConformanceLevel = "MUST" | "SHOULD";

/** A message a rule looked at. */
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

/** One rule of the seeds for one agent. */
export interface ConformanceRule {
  /** The rule's stable id (`<seed>.<section>.<rule>`). */
  id: ConformanceRuleId;
  /** The seed: `000` Pair Protocol, `002` Agent-PO, `003` Pair Claude, `004` droid formats. */
  seed: "000" | "002" | "003" | "004";
  /** The seed's section. */
  section: string;
  level: ConformanceLevel;
  /** The seed's words, verbatim. */
  quote: string;
  status: ConformanceStatus;
  /** The checks that decide it. */
  checks: ConformanceCheckId[];
  /** The checks whose findings broke it (fail, warning). */
  broken_by?: ConformanceCheckId[];
  /** The messages that break it (fail, warning), else the first 20 it applied to. */
  messages: ConformanceMessage[];
  /** How many of the agent's messages it applied to. */
  applied: number;
  /** What broke it, in the validator's and the session engine's words (secrets masked). */
  details?: string[];
  /** Why it could not be decided (`not_tested`). */
  untested?: string[];
}

/** One family's rules for one agent (`any`: the rules held to every mail). */
export interface ConformanceFamily {
  family: "any" | "pair" | "agent-po" | "droid" | "pair-claude";
  /** The most telling status of its rules. */
  level: ConformanceStatus;
  rules: ConformanceRule[];
}

/** How many rules of a level applied to an agent, and how they came out. */
export interface ConformanceTally {
  /** Rules that applied (every status but `not_applicable`). */
  applicable: number;
  /** Rules actually decided (`pass`, `warning`, `fail`). */
  tested: number;
  pass: number;
  warning: number;
  fail: number;
  not_tested: number;
}

/** One agent (a sender of the log) and how it follows the protocols. */
export interface ConformanceAgent {
  /** The sender's name (`(unknown sender)` for messages without one). */
  agent: string;
  /** Whether it is registered (when `agents` was given). */
  registered?: boolean;
  /** Where the name came from: the mail, inferred from the messages' own fields (a log
   *  without envelopes), both, or nowhere. */
  attribution: "mail" | "inferred" | "mixed" | "unknown";
  /** The most telling status of its rules: `fail`, then `warning`, `pass`, `not_tested`. */
  level: ConformanceStatus;
  /** How many of its rules have each status. */
  counts: Partial<Record<ConformanceStatus, number>>;
  /** Its MUST rules: how many applied and were actually tested. */
  must: ConformanceTally;
  /** Its SHOULD rules. */
  should: ConformanceTally;
  /** `any` first, then each family it took part in. */
  families: ConformanceFamily[];
}

/** An expected failure of a baseline: an agent (`*`: any) and a rule (or a check). */
export interface ConformanceExpected {
  agent: string;
  id: ConformanceRuleId | ConformanceCheckId;
}

/** A report compared with its baseline. */
export interface ConformanceBaselineResult {
  /** Failures the baseline lists. */
  expected: ConformanceExpected[];
  /** Failures it does not list: the log does not conform. */
  new_failures: ConformanceExpected[];
  /** Listed failures that now pass or only warn: the baseline is stale (the log does not conform). */
  stale: ConformanceExpected[];
  /** Listed failures this log does not exercise or could not test: reported only. */
  unused: ConformanceExpected[];
}

/** The conformance report of a message log, as `switchboard conformance --compact` prints it. */
export interface ConformanceReport {
  /** When the log was judged (what was late or missing then): `now`, else its last message. */
  judged_at?: string;
  /** Every agent, by name. */
  agents: ConformanceAgent[];
  /** Per level, summed over agents; and how many rules of the seeds no message can show. */
  totals: { must: ConformanceTally; should: ConformanceTally; exempt: number };
  /** Per rule that applied to some agent (matrix order): how many agents pass, warn, fail, or
   *  could not be tested on it. */
  rules: { id: ConformanceRuleId; level: ConformanceLevel; pass: number; warning: number; fail: number; not_tested: number }[];
  /** The comparison with the baseline, when one was given. */
  baseline?: ConformanceBaselineResult;
  /** No failure; with a baseline: no failure it does not list and no listed failure that
   *  passes. Rules not tested do not fail a log: the tallies say how many there were. */
  conforms: boolean;
}
"#;

/// The conformance shapes, with the rule ids from the matrix and the check ids from the table.
pub fn declarations() -> String {
    let union = |ids: Vec<String>| ids.join("\n  | ");
    let rules: Vec<String> = rules::all().map(|r| format!("{:?}", r.id)).collect();
    let checks: Vec<String> = CHECKS.iter().map(|c| format!("{:?}", c.id)).collect();
    format!(
        "{CONFORMANCE}\n/** The stable id of a rule of the seeds (docs/conformance.md). */\n\
         export type ConformanceRuleId =\n  | {};\n\
         \n/** The stable id of a conformance check (docs/conformance.md, \"The checks\"). */\n\
         export type ConformanceCheckId =\n  | {};\n",
        union(rules),
        union(checks)
    )
}
