/**
 * switchboard-protocol: the Switchboard protocol core (Rust, compiled to WebAssembly) for
 * JavaScript and TypeScript agents. It validates the Agent Mail coordination protocols' messages
 * (Pair, Agent-PO, droid, Pair Claude) with the same verdicts, JSON Pointer paths and issue codes
 * as `switchboard validate`, offers Standard Schema v1 objects with zod-style `safeParse`, exports
 * JSON Schema, builds `doctor-agent-mail-pane-v1` pane snapshots, and runs the core's sessions,
 * task boards, checkpoint decisions, Agent-PO gates, contract fingerprints and audits.
 *
 * Message, report and pane types come from `./types.js`, generated from the core's registry.
 *
 * @packageDocumentation
 */

import type {
  AuditReport,
  Boards,
  ConformanceCheckId,
  ConformanceReport,
  DecisionMessage,
  ErrorReply,
  Family,
  Fingerprints,
  GateOutcome,
  LineReport,
  FamilyMessage,
  Message,
  MessageKey,
  MessageTypeName,
  MessageTypes,
  PaneMode,
  PaneSnapshot,
  PaneSummary,
  PaneTranscript,
  Report,
  SchemaIssue,
  SessionView,
  SwitchboardErrorCode,
  TaskSpec,
  ValidateOptions,
  Verification,
} from "./types.js";

export * from "./types.js";

/**
 * Validates a message given as a JavaScript value (or an Agent Mail row carrying one in
 * `body_md`).
 *
 * The value is serialized with `JSON.stringify` and validated as that text, so it gets exactly
 * the report `validateJson(JSON.stringify(value))` gets: members whose value is `undefined` are
 * absent, `1.0` and `1` are the same number, `toJSON` is honoured (a `Date` becomes its ISO
 * string), and unknown members are seen like any other.
 *
 * @param value - The message.
 * @param options - A family hint and lenient mode; strict detection by default.
 * @returns The report; `valid` is false when any issue has severity `error`.
 * @throws TypeError when the value has no JSON form (`undefined`, a function, a cyclic object,
 *   a BigInt) or the options are malformed; RangeError when its JSON exceeds 256 MiB.
 *
 * @example
 * ```ts
 * const report = validate({ type: "request_review" });
 * report.valid;       // true
 * report.messageType; // "DriverCommand"
 * ```
 */
export declare function validate(value: unknown, options?: ValidateOptions): Report;

/**
 * Validates a message given as JSON text: the fast path when the text is at hand (a mail
 * body, a file, a network reply). Text that is not JSON gives a report with one `not_json`
 * issue.
 *
 * @param text - The JSON text.
 * @param options - A family hint and lenient mode; strict detection by default.
 * @returns The report, as `switchboard validate` prints it (`messageType` for `message_type`).
 * @throws TypeError when `text` is not a string; RangeError when it exceeds 256 MiB.
 */
export declare function validateJson(text: string, options?: ValidateOptions): Report;

/** The result of {@link parseJson} for a valid message of type `K`. */
export interface ParsedMessage<K extends MessageKey> {
  ok: true;
  /** The detected type. */
  key: K;
  /** The parsed message, typed by `key` (for an Agent Mail row: the row as parsed). */
  value: MessageTypes[K];
  /** The report (`valid: true`; lenient-mode warnings, if any). */
  report: Report;
}

/** The result of {@link parseJson}: narrow on `ok`, then on `key`. */
export type ParseResult =
  | { [K in MessageKey]: ParsedMessage<K> }[MessageKey]
  | {
      ok: false;
      /** The parsed JSON (undefined when the text is not JSON). */
      value: unknown;
      /** The report, every issue with its path. */
      report: Report;
    };

/**
 * One pass from JSON text to typed data: validates the text as {@link validateJson} does, and
 * parses it once (`JSON.parse`) for the value; nothing is serialized again. `value` is typed by
 * the detected `key`.
 *
 * @throws TypeError when `text` is not a string or the options are malformed.
 *
 * @example
 * ```ts
 * const r = parseJson(text);
 * if (r.ok && r.key === "droid/task_assignment") r.value.task_id; // string
 * else if (!r.ok) for (const i of r.report.issues) console.log(i.path, i.code);
 * ```
 */
export declare function parseJson(text: string, options?: ValidateOptions): ParseResult;

/**
 * Validates a message given as UTF-8 JSON bytes: the fastest path. Bytes that are not JSON
 * (including invalid UTF-8) give a report with one `not_json` issue.
 *
 * @param bytes - The bytes: a Uint8Array (a Node Buffer is one), any other typed array or
 *   DataView (its bytes), or an ArrayBuffer.
 * @param options - A family hint and lenient mode; strict detection by default.
 * @returns The report.
 * @throws TypeError when `bytes` is not binary data; RangeError when it exceeds 256 MiB.
 */
export declare function validateBytes(
  bytes: Uint8Array | ArrayBufferView | ArrayBuffer,
  options?: ValidateOptions,
): Report;

/**
 * Validates JSON Lines, one message per non-blank line, as `switchboard validate --jsonl` does:
 * one report per non-blank line, in order, each with its input `line` (1-based, blank lines
 * counted); a line that is not JSON gets a `not_json` report naming that line.
 *
 * @param jsonl - The lines, as text or UTF-8 bytes.
 * @param options - A family hint and lenient mode, for every line.
 * @returns One report per non-blank line, as `switchboard validate --jsonl` prints them.
 * @throws TypeError for other input types; RangeError when the input exceeds 256 MiB.
 *
 * @example
 * ```ts
 * validateBatch('{"type": "request_review"}\n\n{"type": 5}');
 * // [{line: 1, valid: true, …}, {line: 3, valid: false, …}]
 * ```
 */
export declare function validateBatch(
  jsonl: string | Uint8Array | ArrayBufferView | ArrayBuffer,
  options?: ValidateOptions,
): LineReport[];

/** A JSON Schema (draft 2020-12) document. */
export type JsonSchema = Record<string, unknown>;

/**
 * The JSON Schema (draft 2020-12) generated from the registry, as `switchboard schema` prints it.
 * Schemas express strict mode and give the package's verdict exactly (timestamps and ids are
 * patterns, no `format`): compile them with `new Ajv2020({ strict: true })`, no plug-in needed.
 * Beyond JSON Schema: lenient mode, messages carried in an Agent Mail `body_md`, and text the
 * core refuses before any value exists (a lone surrogate escape, nesting past 128, `1e400`).
 *
 * @param key - `family/TYPE` for one type, a family name for that family's union, `"any"` or
 *   nothing for the union of every type (automatic detection).
 * @returns A fresh schema object.
 * @throws TypeError for an unknown key.
 */
export declare function jsonSchema(key?: SchemaKey): JsonSchema;

/** What a schema object accepts: every message (`"any"`), one family, or one `family/TYPE`. */
export type SchemaKey = "any" | Family | MessageKey;

/** The TypeScript type of the messages a schema key accepts. */
export type SchemaOutput<K extends SchemaKey> = K extends MessageKey
  ? MessageTypes[K]
  : K extends Family
    ? FamilyMessage<K>
    : Message;

/** Options of {@link schema}. */
export interface SchemaOptions {
  /** Lenient mode: the seeds' documented deviations become warnings. */
  lenient?: boolean;
}

/** The result of {@link MessageSchema.safeParse}: zod's shape, never thrown. */
export type SafeParseResult<T> =
  | {
      success: true;
      /** The input value itself (not a copy; undeclared members are kept). */
      data: T;
      /** Lenient-mode warnings (always empty in strict mode). */
      warnings: SchemaIssue[];
    }
  | { success: false; error: SchemaError };

/**
 * A schema object for one key: a Standard Schema v1 (synchronous `~standard.validate`, with
 * Standard JSON Schema's `~standard.jsonSchema`), plus zod-style `safeParse` and `parse`.
 *
 * `"any"` detects the family and type as {@link validate} does; a family key validates with that
 * family hint; a `family/TYPE` key validates as that type without detection (its discriminator
 * is checked like any other member, and an Agent Mail row is not unwrapped).
 *
 * Issues give `path` as segments (Standard Schema) and `pointer` as the JSON Pointer; only
 * errors fail, and warnings are reported apart. A value with no JSON form fails with one
 * `not_json` issue: these methods never throw on input (`parse` throws {@link SchemaError}).
 */
export interface MessageSchema<T>
  extends StandardSchemaV1<unknown, T>,
    StandardJSONSchemaV1<unknown, T> {
  /** The Standard Schema and Standard JSON Schema properties (vendor `"switchboard"`). */
  readonly "~standard": StandardSchemaV1.Props<unknown, T> & StandardJSONSchemaV1.Props<unknown, T>;
  /** The key this schema validates. */
  readonly key: SchemaKey;
  /** Whether lenient mode is on. */
  readonly lenient: boolean;
  /**
   * Validates without throwing.
   *
   * @example
   * ```ts
   * const result = schemas["droid/task_assignment"].safeParse(message);
   * if (result.success) result.data.task_id;
   * else for (const issue of result.error.issues) console.log(issue.pointer, issue.code);
   * ```
   */
  safeParse(value: unknown): SafeParseResult<T>;
  /**
   * Validates and returns the value typed.
   *
   * @throws {@link SchemaError} when the value is not a valid message.
   */
  parse(value: unknown): T;
  /**
   * Validates JSON text and, when it is valid, parses it once into the typed value: the text is
   * never serialized again (as `safeParse(JSON.parse(text))` would). Text that is not JSON fails
   * with one `not_json` issue.
   *
   * @throws TypeError when `text` is not a string.
   */
  safeParseJson(text: string): SafeParseResult<T>;
  /** The JSON Schema of this key (see {@link jsonSchema}). */
  jsonSchema(): JsonSchema;
}

/** The failure of a schema object: thrown by `parse`, carried by a failed `safeParse`. */
export declare class SchemaError extends Error {
  /** Builds the error; the message shows the first issues. */
  constructor(schema: SchemaKey, issues: SchemaIssue[], warnings: SchemaIssue[]);
  /** The key of the schema that failed. */
  readonly schema: SchemaKey;
  /** The errors (severity `error`). */
  readonly issues: SchemaIssue[];
  /** Lenient-mode warnings. */
  readonly warnings: SchemaIssue[];
}

/**
 * Strict schema objects for every key: `schemas.any`, `schemas.droid`,
 * `schemas["pair/PAIR_INIT"]`, …
 *
 * @example
 * ```ts
 * import { schemas } from "switchboard-protocol";
 * const init = schemas["pair/PAIR_INIT"].parse(JSON.parse(text)); // PairPairInit
 * ```
 */
export declare const schemas: SchemaObjects;

/**
 * The type of {@link schemas}: one schema object per key, typed so that generic code over
 * `MessageTypes[K]` type-checks (`schemas[key].parse(m)` is `MessageTypes[K]` for a generic
 * `K extends MessageKey`).
 */
export type SchemaObjects = { readonly [K in SchemaKey]: MessageSchema<SchemaOutputs[K]> };

/** What each schema key's objects give: `MessageTypes` plus the families' and `"any"`'s unions. */
export interface SchemaOutputs extends MessageTypes, FamilyOutputs {
  /** Every message. */
  "any": Message;
}

/** Each family's message union, by family name. */
export type FamilyOutputs = { [F in Family]: FamilyMessage<F> };

/**
 * The schema object for a key, strict or lenient.
 *
 * @param key - `"any"` (the default), a family, or `family/TYPE`.
 * @param options - `{ lenient: true }` for lenient mode.
 * @throws TypeError for an unknown key or malformed options.
 */
export declare function schema<K extends MessageKey>(key: K, options?: SchemaOptions): MessageSchema<MessageTypes[K]>;
export declare function schema<F extends Family>(key: F, options?: SchemaOptions): MessageSchema<FamilyMessage<F>>;
export declare function schema(key?: "any", options?: SchemaOptions): MessageSchema<Message>;

/** One protocol family of the registry. */
export interface FamilyInfo {
  /** Its name in reports. */
  readonly name: Family;
  /** Its title. */
  readonly title: string;
  /** The protocol version the registry models. */
  readonly version: string;
  /** Its message types' registry names, in registry order. */
  readonly types: readonly MessageTypeName[];
}

/** The registry's families, in detection order. */
export declare const families: readonly FamilyInfo[];

/** A pane payload: JSON text, or the parsed value (an array of rows or `{result: [...]}`). */
export type PanePayload = string | readonly unknown[] | { readonly result: readonly unknown[] };

/** The inputs of {@link buildPaneSnapshot} and {@link buildPaneSummary}. */
export interface PaneInput {
  /** The agent's inbox (`fetch_inbox` rows). */
  inbox: PanePayload;
  /** The agent's outbox (`search_messages from:<agent>` rows). */
  outbox: PanePayload;
  /** Its contacts (`list_contacts` rows). */
  contacts: PanePayload;
  /** The thread to show; the smallest visible thread id when absent. */
  activeThread?: string | null;
  /** The thread filter mode; `"all"` by default. */
  mode?: PaneMode;
  /** Acknowledged message ids (unsigned integers). */
  acked?: readonly number[];
}

/**
 * Builds a `doctor-agent-mail-pane-v1` snapshot, exactly as `switchboard pane` does. A payload
 * that does not parse is not an error: its stream is empty and its text is in `parse_errors`.
 *
 * @throws Error for an unknown mode, `thread_only` without `activeThread`, or an acknowledged id
 *   that is not an unsigned integer; TypeError for malformed input.
 */
export declare function buildPaneSnapshot(input: PaneInput): PaneSnapshot;

/**
 * Builds the same snapshot but returns only its sizes: for badges, and for snapshots whose JSON
 * would exceed the JavaScript string limit.
 *
 * @throws As {@link buildPaneSnapshot}.
 */
export declare function buildPaneSummary(input: PaneInput): PaneSummary;

/** Runs the reference smoke workflow (fetch, acknowledge, reply) and returns its transcript. */
export declare function runPaneSmoke(): PaneTranscript;

// ---- sessions, decisions, gates, fingerprints and audits ----

/**
 * A message log: JSON text or UTF-8 bytes (a JSON array, a server payload `{messages: [...]}` or
 * `{result: [...]}`, or JSON Lines), or the parsed array or payload. Entries are bare protocol
 * messages or Agent Mail rows (`{id, subject, from, to, created_ts, thread_id, body_md, …}`).
 */
export type MessageLog =
  | string
  | Uint8Array
  | ArrayBufferView
  | ArrayBuffer
  | readonly unknown[]
  | { readonly messages: readonly unknown[] }
  | { readonly result: readonly unknown[] };

/**
 * A point in time. The package never reads a clock: what is due, overdue or timed out is
 * computed at the time you pass. A `Date`; a number of milliseconds since the Unix epoch
 * (fractions are dropped); or a string as the core reads message times (RFC 3339 such as
 * `"2026-03-02T09:30:00Z"` or with an offset, also `"2026-03-02 09:30:00"`, taken as UTC).
 */
export type TimeInput = Date | number | string;

/** Options of {@link sessions}. */
export interface SessionOptions {
  /** The time to compute what is due at (required: no clock is read). */
  now: TimeInput;
  /** Lenient mode for the log's messages (as `validate`). */
  lenient?: boolean;
}

/** Options of {@link taskBoards}. */
export interface BoardOptions extends SessionOptions {
  /** Pair Claude's permission timeout in milliseconds (default 15000, the seed's). */
  permissionTimeoutMs?: number;
}

/** Options of {@link conformance}. */
export interface ConformanceOptions {
  /** Lenient mode for the log's messages (as `validate`). */
  lenient?: boolean;
  /**
   * The agents registered on the Agent Mail server (`any.registered-agent` applies only with
   * them): names, or Agent Mail's agent rows (`{name}` objects), or either under `agents` /
   * `result` (a server's reply as it comes).
   */
  agents?:
    | readonly (string | { readonly name: string })[]
    | { readonly agents: readonly (string | { readonly name: string })[] }
    | { readonly result: readonly (string | { readonly name: string })[] };
  /**
   * Expected failures: `"agent:check-id"` strings or `{agent, check}` objects (agent `*` for
   * any), or `{expected_failures: [...]}`. A failure it lists keeps `conforms` true; one that
   * now passes makes it false (stale).
   */
  baseline?:
    | readonly (`${string}:${ConformanceCheckId}` | { readonly agent: string; readonly check: ConformanceCheckId })[]
    | { readonly expected_failures: readonly (string | { readonly agent: string; readonly check: ConformanceCheckId })[] };
  /** Pair Claude's permission timeout in milliseconds (default 15000, the seed's). */
  permissionTimeoutMs?: number;
  /** PAIR_NAVIGATOR_MAX_TURNS (default 20, the seed's). */
  navigatorMaxTurns?: number;
  /** PAIR_DRIVER_MAX_TURNS (default 20, the seed's). */
  driverMaxTurns?: number;
}

/** Options of {@link decide}. */
export interface DecideOptions {
  /** Lenient mode for the log's messages. */
  lenient?: boolean;
}

/** Options of {@link goGate}. */
export interface GateOptions {
  /** The time the directive is stamped with (required: no clock is read). */
  now: TimeInput;
}

/** Options of {@link nextGate}. */
export interface NextGateOptions extends GateOptions {
  /** The files GO authorized; the task's `file_scope` by default. */
  authorized?: readonly string[];
  /** How many FIX_DIRECTIVEs the task has had (default 0). */
  fixes?: number;
}

/** Files by repository-relative path: text (UTF-8 encoded) or bytes. */
export type Files =
  | Readonly<Record<string, string | Uint8Array | ArrayBufferView | ArrayBuffer>>
  | ReadonlyMap<string, string | Uint8Array | ArrayBufferView | ArrayBuffer>;

/** The input of {@link audit}. */
export interface AuditInput {
  /** The contract's files: the spec, the test files and the dependency manifests. */
  contract: Files;
  /** The builder's change: `git diff` output or a plain multi-file unified diff. */
  diff: string;
  /** Dependencies accepted change orders approved. */
  approved?: readonly string[];
}

/**
 * Thrown by the session, decision, gate, fingerprint and audit functions when the core refuses
 * their input: a stable `code`, the core's one-line reason as `message`, and the error's data in
 * `details` (`unknown_decision`: `input` and the `allowed` literals; `decision_not_allowed`:
 * `decision` and `checkpoint`; `unknown_session`: the `sessions` found; `invalid_message`: the
 * message's `report`; `bad_log`: `line` and `column`; `malformed_diff`: the file patch `index`).
 * Arguments of the wrong type throw a `TypeError` instead. The module stays usable after either.
 */
export declare class SwitchboardError extends Error {
  /** Builds the error from the core's `{code, message, ...details}`. */
  constructor(error: { code: SwitchboardErrorCode; message: string; [detail: string]: unknown });
  /** The stable code. */
  readonly code: SwitchboardErrorCode;
  /** The error's data. */
  readonly details: Readonly<Record<string, unknown>>;
}

/**
 * Every protocol session in a message log (Pair sessions, then Agent-PO tasks), as
 * `switchboard session --now … --compact` prints it: phase, roles, the open human checkpoint
 * and the decisions it allows, change orders, what is due at `now`, violations, the contract
 * and its integrity, the timeline. Keys are the CLI's (snake_case).
 *
 * @param log - The message log.
 * @param options - `now` (required) and lenient mode.
 * @throws SwitchboardError `bad_log` / `empty_log` for a log that cannot be read; TypeError for
 *   a missing or malformed `now` or wrong argument types.
 *
 * @example
 * ```ts
 * const [session] = sessions(log, { now: new Date() });
 * if (session.family === "pair" && session.open_checkpoint === "contract_review") {
 *   console.log(session.decisions.map((d) => d.decision)); // ["APPROVED", "REVISE", "ABORT"]
 * }
 * ```
 */
export declare function sessions(log: MessageLog, options: SessionOptions): SessionView[];

/**
 * The task boards of a message log at `now`, as `switchboard tasks --now … --compact` prints
 * them: Agent-PO tasks, droid tasks by status with error reports and reservation conflicts,
 * Pair Claude permission and review requests, and each agent's acknowledgement debt.
 *
 * @throws As {@link sessions}; TypeError for a `permissionTimeoutMs` that is not a
 *   non-negative integer.
 */
export declare function taskBoards(log: MessageLog, options: BoardOptions): Boards;

/**
 * Does each agent of a message log follow the protocols? As `switchboard conformance
 * --compact` prints it: per agent (each sender) and family, every check with its stable id, the
 * seed section it comes from, its status (`pass`, `fail`, `warning`, `not_applicable`), the
 * messages that decide it and what broke it (secrets masked); a level per agent, and whether
 * the log conforms (against the baseline, when given). The checks are the rules `validate` and
 * the session functions apply: one fold of the log, no second copy. Checks that need files
 * (`pair.contract.tests-parse`, `agent-po.persistence.layout`) do not apply here: the CLI reads
 * those from disk.
 *
 * @param log - The message log (bare messages or Agent Mail rows, any mix of families).
 * @param options - Registered agents, a baseline, lenient mode, Pair Claude's limits.
 * @throws SwitchboardError `bad_log` / `empty_log` for a log that cannot be read, `bad_agents`
 *   for an agents list that is not one, `bad_baseline` for a baseline that is not one or names
 *   an unknown check; TypeError for options of the wrong type.
 *
 * @example
 * ```ts
 * const report = conformance(log, { agents: ["alice", "bob"], baseline: ["bob:pair.role.sender"] });
 * for (const a of report.agents) console.log(a.agent, a.level);
 * if (!report.conforms) process.exitCode = 1;
 * ```
 */
export declare function conformance(log: MessageLog, options?: ConformanceOptions): ConformanceReport;

/**
 * The messages a human checkpoint decision implies in a Pair session of the log, ready to send
 * (each `{from, to, subject, body}`; over Agent Mail the subject is the type and `body_md` the
 * body's JSON). The decision is what the reviewer types: `APPROVED`, `REVISE: <feedback>`,
 * `MERGE APPROVED`, `REJECT: <reason>`, `ACCEPT CHANGE: <reasoning>`, `REJECT CHANGE:
 * <strategy>` or `ABORT`, as the open checkpoint allows ({@link PairSessionView.decisions}).
 * Every message is from the planner; `REVISE: <feedback>` yields a `CONTRACT_REVISION_REQUESTED`
 * addressed to the planner itself (the revision is the planner's work; the seed tells the
 * builder nothing until CONTRACT_FINAL), the others go to the builder.
 *
 * @param log - The message log holding the session.
 * @param sessionId - The session's `session_id` (as {@link sessions} gives it).
 * @param decision - What the reviewer typed.
 * @throws SwitchboardError `unknown_session`, `no_open_checkpoint`, `unknown_decision`,
 *   `decision_not_allowed`, `missing_text`, `unexpected_text`, `unknown_roles` (with
 *   `details.role`, the planner or builder whose name the log does not give: bare messages
 *   have no `from`), or a log error.
 *
 * @example
 * ```ts
 * const [contractFinal] = decide(log, "pair-auth-jwt", "APPROVED");
 * contractFinal.subject; // "CONTRACT_FINAL"
 * ```
 */
export declare function decide(
  log: MessageLog,
  sessionId: string,
  decision: string,
  options?: DecideOptions,
): DecisionMessage[];

/**
 * The Agent-PO GO gate: a PLAN_SUBMISSION (bare, or carried in an Agent Mail row) against the
 * task, as `switchboard gate go` runs it: every acceptance criterion mapped, files in scope, a
 * test for each; the verdict (`GO`, `FEEDBACK`, or `BLOCKED` past the revision limit), the
 * problems, and the directive to send.
 *
 * @param task - The task definition, as an object or JSON text.
 * @param plan - The PLAN_SUBMISSION, as a value or JSON text.
 * @param options - `now` (required), the directive's timestamp.
 * @throws SwitchboardError `bad_task`, `not_json`, `invalid_message` (with the `report`),
 *   `wrong_message` (not a PLAN_SUBMISSION) or `task_mismatch`.
 */
export declare function goGate(task: TaskSpec | string, plan: unknown, options: GateOptions): GateOutcome;

/**
 * The Agent-PO NEXT gate: a COMPLETION_REPORT against the task and the files GO authorized, as
 * `switchboard gate next` runs it; the verdict (`NEXT`, `FIX`, or `BLOCKED` past the retry
 * limit), the problems, and the directive to send.
 *
 * @throws As {@link goGate} (`wrong_message` when it is not a COMPLETION_REPORT).
 */
export declare function nextGate(task: TaskSpec | string, report: unknown, options: NextGateOptions): GateOutcome;

/**
 * The SHA-256 fingerprints of a contract's files, as `switchboard fingerprint DIR` prints them
 * (`{path: "sha256:<hex>"}`, paths normalised and in byte order). Text is hashed as UTF-8.
 *
 * @throws SwitchboardError `bad_path` (empty, absolute, `..`, or two paths that normalise to
 *   one).
 */
export declare function fingerprint(files: Files): Fingerprints;

/**
 * Checks current fingerprints against a baseline, as `switchboard fingerprint DIR --verify`:
 * each modified, missing or added file, with code `CONTRACT_TAMPERED`.
 *
 * @param baseline - Fingerprints (as {@link fingerprint} gives them) or their JSON text.
 * @param current - The same, for the files now.
 * @throws SwitchboardError `bad_fingerprints` for a value that is not `sha256:` and 64 hex
 *   digits, `bad_path` for a bad path.
 */
export declare function verifyFingerprints(
  baseline: Fingerprints | string,
  current: Fingerprints | string,
): Verification;

/**
 * Checks a review trail the console kept (JSON Lines in chain order, as it exports them), as
 * `switchboard records verify` does: each record chains to the one before (SHA-256), its
 * Ed25519 signature verifies with the public key it names, and an APPROVED record's test
 * fingerprints are those of the CONTRACT_FINAL it sent. With `head` (the SHA-256 the console
 * shows), the trail must end there (a chain alone cannot tell its last records were cut off).
 *
 * @throws SwitchboardError `bad_fingerprints` for a head that is not 64 hex digits.
 */
export declare function verifyRecords(
  trail: string,
  head?: string,
): {
  valid: boolean;
  records: number;
  head: string | null;
  problems: {
    line: number;
    code: "not_a_record" | "chain_broken" | "bad_signature" | "fingerprints_differ" | "other_project" | "head_mismatch";
    message: string;
  }[];
};

/**
 * Audits a builder's change against the contract for the gaming patterns, as `switchboard
 * audit --compact` does: `audit_report.json` (`PASS`/`FAIL`, the worst severity,
 * `scheming_detected`, each finding with its pattern and `file:line`, notes). Contract files
 * are read as text.
 *
 * @throws SwitchboardError `not_a_diff`, `malformed_diff` (with the file patch `index`) or
 *   `bad_path`.
 *
 * @example
 * ```ts
 * const report = audit({ contract: { "tests/test_price.py": testText }, diff: gitDiff });
 * if (report.status === "FAIL") for (const f of report.issues) console.log(f.location, f.pattern);
 * ```
 */
export declare function audit(input: AuditInput): AuditReport;

// ---- builders and error replies ----

/** Options of {@link build}: what the protocol derives. The package reads the clock and
 * crypto only where you give no value (the core itself reads neither). */
export interface BuildOptions {
  /** The time for a droid or Agent-PO `timestamp` (UTC); the clock by default. */
  now?: TimeInput;
  /** 16 random bytes for a droid `message_id` (`msg-<uuid v4>`); `crypto.getRandomValues` by default. */
  random?: Uint8Array;
  /** The droid `sender_id` (required for droid messages). */
  sender?: string;
  /** The Pair recipient `to` (required for Pair messages). */
  to?: string;
  /** The Agent-PO `agent_id`. */
  agentId?: string;
  /** The Agent-PO `task_id`. */
  taskId?: string;
}

/**
 * The fields {@link build} takes for a key: the type's own members (for Pair, the body's),
 * any of which the builder can fill (constants, discriminators, derived members) may be left out.
 */
export type BuildFields<K extends MessageKey> = K extends `pair/${string}`
  ? MessageTypes[K] extends { body: infer B }
    ? Partial<B>
    : Partial<MessageTypes[K]>
  : Partial<MessageTypes[K]>;

/**
 * Builds a message of type `key` from its own fields, filling what the protocol derives: the
 * discriminator and every constant the registry fixes; droid `version`, `timestamp` (now, UTC),
 * `message_id` (`msg-<uuid v4>`) and `sender_id`; Agent-PO `timestamp`, `agent_id`, `task_id`
 * (where given); Pair `to`, `subject` and the body. The result is validated strictly as `key`.
 * A member given both in the fields and by an option is refused (give `timestamp` in the fields
 * and no `now`, or the reverse).
 *
 * @throws SwitchboardError `invalid_message` (with `details.report`, every issue with its path,
 *   and the message built as `details.built`), `missing_option` (e.g. a droid message without `sender`),
 *   `conflict`; TypeError for an unknown key, fields that are not an object, or malformed
 *   options (a `now` that is not a time, `random` not 16 bytes, a `sender` that is not a string).
 *
 * @example
 * ```ts
 * const task = build("droid/task_assignment", {
 *   task_id: "bd-42", description: "Login form", specification: { acceptance_criteria: ["renders"] },
 *   file_patterns: ["src/auth/**"], priority: "high", priority_value: 1,
 * }, { sender: "orchestrator" });
 * task.message_id; // "msg-…" (uuid v4)
 * ```
 */
export declare function build<K extends MessageKey>(key: K, fields: BuildFields<K>, options?: BuildOptions): MessageTypes[K];

/** Options of {@link errorReply}. */
export interface ErrorReplyOptions {
  /** The receiver's protocol, when the message's cannot be told (an unknown type). */
  family?: Family;
  /** The reply's time; the clock by default. */
  now?: TimeInput;
  /** 16 random bytes for the droid `error_report`'s `message_id`; crypto by default. */
  random?: Uint8Array;
  /** The replying agent (a droid `error_report`'s `sender_id`; required for droid). */
  sender?: string;
}

/**
 * The protocol's answer to an invalid message: droid, the `invalid_format` (or
 * `version_mismatch`) rejection carrying the original `message_id` and the `error_report`
 * notification citing it (an unknown type gets only the notification); Agent-PO, the `ERROR`
 * message with `INVALID_MESSAGE` naming the original `message_type`.
 *
 * @param report - The message's report, from {@link validate}, {@link validateJson} or
 *   {@link parseJson} (a lenient or hinted report works too).
 * @param original - The message: the parsed value or its JSON text.
 * @throws SwitchboardError `message_valid`, `no_error_reply` (Pair and Pair Claude define
 *   none), `missing_option` (a droid reply needs `sender`), `bad_report`; TypeError for an
 *   argument that is not a report, or malformed options.
 */
export declare function errorReply(report: Report, original: unknown, options?: ErrorReplyOptions): ErrorReply;

// ---- Standard Schema v1 and Standard JSON Schema v1 ----
// The interfaces of @standard-schema/spec 1.1.0 (MIT), copied as the spec recommends instead of
// depending on the package.

/** The Standard Typed interface: the base of Standard Schema and Standard JSON Schema. */
export interface StandardTypedV1<Input = unknown, Output = Input> {
  /** The Standard properties. */
  readonly "~standard": StandardTypedV1.Props<Input, Output>;
}

/** The Standard Typed namespace. */
export declare namespace StandardTypedV1 {
  /** The Standard Typed properties. */
  export interface Props<Input = unknown, Output = Input> {
    /** The version number of the standard. */
    readonly version: 1;
    /** The vendor name of the schema library. */
    readonly vendor: string;
    /** Inferred types associated with the schema. */
    readonly types?: Types<Input, Output> | undefined;
  }
  /** The Standard Typed types. */
  export interface Types<Input = unknown, Output = Input> {
    /** The input type of the schema. */
    readonly input: Input;
    /** The output type of the schema. */
    readonly output: Output;
  }
  /** Infers the input type of a Standard Typed. */
  export type InferInput<Schema extends StandardTypedV1> = NonNullable<Schema["~standard"]["types"]>["input"];
  /** Infers the output type of a Standard Typed. */
  export type InferOutput<Schema extends StandardTypedV1> = NonNullable<Schema["~standard"]["types"]>["output"];
}

/** The Standard Schema interface. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  /** The Standard Schema properties. */
  readonly "~standard": StandardSchemaV1.Props<Input, Output>;
}

/** The Standard Schema namespace. */
export declare namespace StandardSchemaV1 {
  /** The Standard Schema properties. */
  export interface Props<Input = unknown, Output = Input> extends StandardTypedV1.Props<Input, Output> {
    /** Validates unknown input values. */
    readonly validate: (value: unknown, options?: Options | undefined) => Result<Output> | Promise<Result<Output>>;
  }
  /** Options of `validate`. */
  export interface Options {
    /** Explicit support for additional vendor-specific parameters, if needed. */
    readonly libraryOptions?: Record<string, unknown> | undefined;
  }
  /** The result of `validate`. */
  export type Result<Output> = SuccessResult<Output> | FailureResult;
  /** The result when validation succeeds. */
  export interface SuccessResult<Output> {
    /** The typed output value. */
    readonly value: Output;
    /** The non-existent issues. */
    readonly issues?: undefined;
  }
  /** The result when validation fails. */
  export interface FailureResult {
    /** The issues of failed validation. */
    readonly issues: ReadonlyArray<Issue>;
  }
  /** An issue of a failed validation. */
  export interface Issue {
    /** The error message of the issue. */
    readonly message: string;
    /** The path of the issue, if any. */
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined;
  }
  /** A path segment of an issue. */
  export interface PathSegment {
    /** The key representing a path segment. */
    readonly key: PropertyKey;
  }
  /** Infers the input type of a Standard Schema. */
  export type InferInput<Schema extends StandardTypedV1> = StandardTypedV1.InferInput<Schema>;
  /** Infers the output type of a Standard Schema. */
  export type InferOutput<Schema extends StandardTypedV1> = StandardTypedV1.InferOutput<Schema>;
}

/** The Standard JSON Schema interface. */
export interface StandardJSONSchemaV1<Input = unknown, Output = Input> {
  /** The Standard JSON Schema properties. */
  readonly "~standard": StandardJSONSchemaV1.Props<Input, Output>;
}

/** The Standard JSON Schema namespace. */
export declare namespace StandardJSONSchemaV1 {
  /** The Standard JSON Schema properties. */
  export interface Props<Input = unknown, Output = Input> extends StandardTypedV1.Props<Input, Output> {
    /** Methods generating the input and output JSON Schema. */
    readonly jsonSchema: Converter;
  }
  /** The JSON Schema converter. */
  export interface Converter {
    /** The input type as JSON Schema; throws for an unsupported target. */
    readonly input: (options: Options) => Record<string, unknown>;
    /** The output type as JSON Schema; throws for an unsupported target. */
    readonly output: (options: Options) => Record<string, unknown>;
  }
  /** The target dialect (this package supports `"draft-2020-12"`). */
  export type Target = "draft-2020-12" | "draft-07" | "openapi-3.0" | ({} & string);
  /** Options of the converter. */
  export interface Options {
    /** The target dialect. */
    readonly target: Target;
    /** Explicit support for additional vendor-specific parameters, if needed. */
    readonly libraryOptions?: Record<string, unknown> | undefined;
  }
}
