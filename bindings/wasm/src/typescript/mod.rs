//! The package's generated type declarations (`js/types.d.ts`): the message types from the
//! core's registry ([`switchboard_core::protocol::export::typescript`]), then the shapes this binding
//! gives JavaScript — options, reports, issues, pane snapshots, sessions, boards, gate outcomes,
//! fingerprints and audit reports — with their unions (families, codes, type names, filter
//! modes, event kinds, phases, violation codes, audit patterns) taken from the core's data.
//!
//! `tests/typescript.rs` checks the committed file is this text; run it with
//! `SWITCHBOARD_BLESS=1` to rewrite the file after a registry change.

mod conformance;
mod sessions;

use switchboard_core::{pane, protocol};

const HEADER: &str = "\
// Generated from switchboard-core's protocol registry and pane contract by
// bindings/wasm/src/typescript.rs. Do not edit: after a change run
//   SWITCHBOARD_BLESS=1 cargo test -p switchboard-wasm --test typescript

";

const RESULTS: &str = r#"
// ---- results of this package ----

/** Options of `validate`, `validateJson`, `validateBytes` and `validateBatch`. */
export interface ValidateOptions {
  /** Skip family detection and validate as this family (the CLI's `--family`). */
  family?: Family;
  /** Lenient mode: the seeds' documented deviations become warnings (the CLI's `--lenient`). */
  lenient?: boolean;
}

/** One finding, exactly as `switchboard validate` prints it. */
export interface Issue {
  /** Where: an RFC 6901 JSON Pointer into the (carried) message; `""` is the whole message. */
  path: string;
  /** What, as a stable code. */
  code: IssueCode;
  /** A human-readable explanation. */
  message: string;
  /** `error`, or `warning` for a deviation lenient mode accepts. */
  severity: Severity;
}

/**
 * The result of validating one message: `switchboard validate`'s report with `message_type`
 * spelled `messageType`.
 */
export interface Report {
  /** No issue of severity `error` (warnings never invalidate). */
  valid: boolean;
  /** The detected or hinted family, also when the message type is unknown. */
  family: Family | null;
  /** The registry name of the detected message type. */
  messageType: MessageTypeName | null;
  /** The version the message declares when well-formed, else the family version modeled. */
  version: string | null;
  /** Every issue found, errors and warnings, in registry order. */
  issues: Issue[];
}

/** One report of `validateBatch`: the input line (1-based, blank lines counted), then the report. */
export interface LineReport extends Report {
  /** The input line the message is on. */
  line: number;
}

/**
 * An issue as the schema objects give it (Standard Schema and `safeParse`): `path` is the list
 * of segments Standard Schema asks for (member names and array indexes), `pointer` the same
 * place as the JSON Pointer string that `Issue.path` holds.
 */
export interface SchemaIssue {
  /** Where, as segments: strings for member names, numbers for array indexes. */
  path: Array<string | number>;
  /** Where, as an RFC 6901 JSON Pointer. */
  pointer: string;
  /** What, as a stable code. */
  code: IssueCode;
  /** A human-readable explanation. */
  message: string;
  /** `error`, or `warning` for a deviation lenient mode accepts. */
  severity: Severity;
}

// ---- the Agent Mail pane (doctor-agent-mail-pane-v1 wire names) ----

/** One normalized message row. */
export interface PaneMessageItem {
  id: number;
  subject: string;
  from: string;
  created_ts: string;
  importance: string;
  ack_required: boolean;
  acknowledged: boolean;
  thread_id: string | null;
  /** `received` for inbox rows; the row's `delivery_status` (default `sent`) for outbox rows. */
  delivery_status: string;
  direction: "inbox" | "outbox";
}

/** One normalized contact row. */
export interface PaneContactItem {
  peer: string;
  status: string;
  reason: string;
  updated_ts: string;
  expires_ts: string | null;
}

/** One structured pane event. */
export interface PaneEvent {
  event_kind: PaneEventKind;
  source: "inbox" | "outbox" | "contacts" | "thread" | "snapshot";
  message_id: number | null;
  thread_id: string | null;
  message: string;
}

/** A `doctor-agent-mail-pane-v1` snapshot, as `switchboard pane` prints it. */
export interface PaneSnapshot {
  schema_version: string;
  thread_filter_mode: PaneMode;
  active_thread: string | null;
  refresh_fingerprint: string;
  inbox: PaneMessageItem[];
  outbox: PaneMessageItem[];
  thread_messages: PaneMessageItem[];
  contacts: PaneContactItem[];
  pending_ack_count: number;
  replay_commands: string[];
  parse_errors: string[];
  events: PaneEvent[];
}

/** The sizes of a snapshot (`buildPaneSummary`). */
export interface PaneSummary {
  inbox: number;
  outbox: number;
  threadMessages: number;
  contacts: number;
  pendingAckCount: number;
  events: number;
  parseErrors: string[];
  refreshFingerprintBytes: number;
}

/** One step of the reference smoke workflow. */
export interface PaneWorkflowStep {
  step_id: string;
  action: string;
  snapshot: PaneSnapshot;
}

/** The reference smoke workflow transcript, as `switchboard pane-smoke` prints it. */
export interface PaneTranscript {
  scenario_id: string;
  steps: PaneWorkflowStep[];
}
"#;

/// The whole `types.d.ts` text.
pub fn declarations() -> String {
    let contract = pane::contract();
    let union = |values: &[String]| {
        values
            .iter()
            .map(|v| format!("{v:?}"))
            .collect::<Vec<_>>()
            .join(" | ")
    };
    format!(
        "{HEADER}{}{RESULTS}\n/** A thread filter mode of the pane contract. */\nexport type PaneMode = {};\n\n\
         /** An event kind of the pane contract's taxonomy. */\nexport type PaneEventKind =\n  | {};\n",
        protocol::export::typescript::declarations(),
        union(&contract.thread_filter_modes),
        union(&contract.event_taxonomy).replace(" | ", "\n  | "),
    ) + &sessions::declarations()
        + &conformance::declarations()
}
