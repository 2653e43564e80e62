/**
 * switchboard-protocol: the Switchboard protocol core (Rust, compiled to WebAssembly) for
 * JavaScript and TypeScript agents. Everything `switchboard-protocol/validate` has (validation
 * with the same verdicts, JSON Pointer paths and issue codes as `switchboard validate`, Standard
 * Schema v1 objects, JSON Schema, builders and error replies, the MCP client guard), and the
 * `doctor-agent-mail-pane-v1` pane snapshots, the core's sessions, task boards, checkpoint
 * decisions, Agent-PO gates, contract fingerprints and audits.
 *
 * Message, report and pane types come from `./types.js`, generated from the core's registry.
 *
 * @packageDocumentation
 */

import type {
  AuditReport,
  ErrorReply,
  Family,
  FamilyMessage,
  Message,
  MessageKey,
  MessageTypes,
  Report,
  SwitchboardErrorCode,
  Boards,
  ConformanceCheckId,
  ConformanceReport,
  ConformanceRuleId,
  DecisionMessage,
  Fingerprints,
  GateOutcome,
  PaneMode,
  PaneSnapshot,
  PaneSummary,
  PaneTranscript,
  SessionView,
  TaskSpec,
  Verification,
} from "./types.js";
import type {
  MailReading,
  MessageSchema as ValidationSchema,
  SchemaKey,
  SchemaOptions,
  SchemaOutputs,
  StandardJSONSchemaV1,
  StandardSchemaV1,
} from "./validate.js";

export * from "./validate.js";

// ---- schema objects with JSON Schema ----

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

/**
 * A schema object of the main entry: `switchboard-protocol/validate`'s (Standard Schema v1,
 * `safeParse`, `parse`, `safeParseJson`), also implementing Standard JSON Schema
 * (`~standard.jsonSchema.input/output({ target: "draft-2020-12" })`) and with {@link jsonSchema}'s
 * schema of its key.
 */
export interface MessageSchema<T> extends ValidationSchema<T>, StandardJSONSchemaV1<unknown, T> {
  /** The Standard Schema and Standard JSON Schema properties (vendor `"switchboard"`). */
  readonly "~standard": StandardSchemaV1.Props<unknown, T> & StandardJSONSchemaV1.Props<unknown, T>;
  /** The JSON Schema of this key (see {@link jsonSchema}). */
  jsonSchema(): JsonSchema;
}

/** The type of {@link schemas}: one schema object per key (see `switchboard-protocol/validate`). */
export type SchemaObjects = { readonly [K in SchemaKey]: MessageSchema<SchemaOutputs[K]> };

/** Strict schema objects for every key: `schemas.any`, `schemas.droid`, `schemas["pair/PAIR_INIT"]`, … */
export declare const schemas: SchemaObjects;

/** The schema object for a key, strict or lenient (see `switchboard-protocol/validate`). */
export declare function schema<K extends MessageKey>(key: K, options?: SchemaOptions): MessageSchema<MessageTypes[K]>;
export declare function schema<F extends Family>(key: F, options?: SchemaOptions): MessageSchema<FamilyMessage<F>>;
export declare function schema(key?: "any", options?: SchemaOptions): MessageSchema<Message>;

/**
 * A point in time. The package never reads a clock: what is due, overdue or timed out is
 * computed at the time you pass. A `Date`; a number of milliseconds since the Unix epoch
 * (fractions are dropped); or a string as the core reads message times (RFC 3339 such as
 * `"2026-03-02T09:30:00Z"` or with an offset, also `"2026-03-02 09:30:00"`, taken as UTC).
 */
export type TimeInput = Date | number | string;

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

// ---- the guard for MCP clients ----

/**
 * The part of an MCP client the guard uses: `callTool`, as the official TypeScript SDK's
 * `Client` (`@modelcontextprotocol/sdk/client/index.js`) has it.
 */
export interface McpToolClient {
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
}

/** Options of {@link guard}. */
export interface GuardOptions {
  /**
   * What to do with an outgoing body that carries an invalid protocol message: `"refuse"`
   * (the default: throw a {@link GuardRefusal}, send nothing) or `"send"` (send it and call
   * `onWarning`). A secret is refused either way.
   */
  onInvalid?: "refuse" | "send";
  /** Called for each invalid message sent with `onInvalid: "send"`; `console.warn` by default. */
  onWarning?: (warning: GuardWarning) => void;
  /** Lenient mode for outgoing and incoming messages (the seeds' documented deviations are warnings). */
  lenient?: boolean;
  /** The agent that sends error replies (a droid `error_report`'s `sender_id`); `fetchInbox`'s `agent_name` by default. */
  sender?: string;
  /** The agent's own protocol, for error replies to messages whose family cannot be told. */
  family?: Family;
}

/** An invalid message sent anyway (`onInvalid: "send"`). */
export interface GuardWarning {
  tool: "send_message" | "reply_message";
  message: string;
  report: Report;
}

/** `send_message`'s arguments (Agent Mail); other members pass through. */
export interface SendMessageArgs {
  project_key: string;
  sender_name: string;
  to: string[];
  subject: string;
  body_md: string;
  cc?: string[];
  bcc?: string[];
  importance?: "low" | "normal" | "high" | "urgent";
  ack_required?: boolean;
  thread_id?: string;
  [member: string]: unknown;
}

/** `reply_message`'s arguments (Agent Mail); other members pass through. */
export interface ReplyMessageArgs {
  project_key: string;
  message_id: number;
  sender_name: string;
  body_md: string;
  to?: string[];
  cc?: string[];
  bcc?: string[];
  [member: string]: unknown;
}

/** `fetch_inbox`'s arguments (Agent Mail); bodies are always fetched (`include_bodies: true`). */
export interface FetchInboxArgs {
  project_key: string;
  agent_name: string;
  limit?: number;
  urgent_only?: boolean;
  since_ts?: string;
  [member: string]: unknown;
}

/** One row of `fetch_inbox`, as the server sent it. */
export interface AgentMailRow {
  id: number;
  subject: string;
  from: string;
  created_ts: string;
  thread_id?: string | null;
  importance?: string;
  ack_required?: boolean;
  body_md?: string;
  [member: string]: unknown;
}

/** One inbox message with its verdict ({@link GuardedMethods.fetchInbox}). */
export interface InboxMessage extends MailReading {
  /** The server's row. */
  row: AgentMailRow;
  /** Whether it carries a valid protocol message (`kind === "message"`). */
  valid: boolean;
  /** The valid message's `family/TYPE`. */
  key: MessageKey | null;
  /**
   * For an invalid message, its protocol's answer ({@link errorReply}): droid's rejection and
   * `error_report`, Agent-PO's `ERROR`; null when valid or plain, and for Pair and Pair Claude
   * (which define none).
   */
  errorReply: ErrorReply | null;
}

/** What {@link guard} adds to the client. */
export interface GuardedMethods {
  /** `send_message`, its subject and body checked first; resolves to the server's payload. */
  sendMessage(args: SendMessageArgs): Promise<unknown>;
  /** `reply_message`, its body checked first; resolves to the server's payload. */
  replyMessage(args: ReplyMessageArgs): Promise<unknown>;
  /** `fetch_inbox` with bodies, each message read ({@link InboxMessage}). */
  fetchInbox(args: FetchInboxArgs): Promise<InboxMessage[]>;
  /**
   * Replies to an invalid inbox message with its error reply (checked like any outgoing body).
   *
   * @throws TypeError when the message has no error reply.
   */
  replyWithError(message: InboxMessage, args: { project_key: string; sender_name: string; [member: string]: unknown }): Promise<unknown>;
}

/** A guarded client: the client (every method passes through) with {@link GuardedMethods}. */
export type Guarded<C extends McpToolClient> = C & GuardedMethods;

/**
 * Wraps an MCP client connected to Agent Mail. Every `send_message` and `reply_message` body,
 * through `callTool` or the methods added here, is read first ({@link readMail}): a protocol
 * message that is not valid is refused with its report and nothing is sent (or, with
 * `onInvalid: "send"`, sent with a warning); a secret in the subject or body is always refused;
 * plain mail passes. `fetchInbox` returns each message with its verdict, the parsed protocol
 * message and, for an invalid one, the error reply to send ({@link GuardedMethods.replyWithError}).
 *
 * @throws GuardRefusal (from the returned client's sends) when a body is refused.
 *
 * @example
 * ```ts
 * const mail = guard(client, { sender: "GreenCastle" });
 * for (const m of await mail.fetchInbox({ project_key, agent_name: "GreenCastle" })) {
 *   if (m.errorReply) await mail.replyWithError(m, { project_key, sender_name: "GreenCastle" });
 * }
 * ```
 */
export declare function guard<C extends McpToolClient>(client: C, options?: GuardOptions): Guarded<C>;

/** Thrown by a guarded client instead of sending: nothing reached the server. */
export declare class GuardRefusal extends Error {
  /** The tool refused. */
  readonly tool: "send_message" | "reply_message";
  /** `invalid`: an invalid protocol message; `secret`: a secret in the subject or body. */
  readonly reason: "invalid" | "secret";
  /** The body's report: every issue with its path. */
  readonly report: Report;
  /** The refusal as an MCP tool result (`isError: true`, the issues as text), for agent loops. */
  toToolResult(): { isError: true; content: { type: "text"; text: string }[] };
}


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
  /**
   * Read the log strictly: a deviation the seeds themselves make (a commit_sha that is not hex,
   * the literal "ISO8601") fails its rule instead of warning. Default: false (lenient, as
   * `switchboard conformance` reads; `--strict` there).
   */
  strict?: boolean;
  /** `false` is `strict: true`; the default reads leniently. */
  lenient?: boolean;
  /**
   * The agents registered on the Agent Mail server (rules about registered names are decided
   * only with them, `not_tested` otherwise): names, or Agent Mail's agent rows (`{name}`
   * objects), or either under `agents` / `result` (a server's reply as it comes).
   */
  agents?:
    | readonly (string | { readonly name: string })[]
    | { readonly agents: readonly (string | { readonly name: string })[] }
    | { readonly result: readonly (string | { readonly name: string })[] };
  /**
   * Expected failures: `"agent:rule-id"` strings or `{agent, rule}` objects (agent `*` for
   * any; a check id in place of a rule stands for the rules it breaks), or
   * `{expected_failures: [...]}`. A failure it lists keeps `conforms` true; one that now
   * passes makes it false (stale).
   */
  baseline?:
    | readonly (
        | `${string}:${ConformanceRuleId | ConformanceCheckId}`
        | { readonly agent: string; readonly rule: ConformanceRuleId | ConformanceCheckId }
        | { readonly agent: string; readonly check: ConformanceCheckId }
      )[]
    | { readonly expected_failures: readonly (string | { readonly agent: string; readonly rule?: string; readonly check?: string })[] };
  /**
   * When the log is judged: what is late or missing (a response past its timeout, a warning
   * not sent, a progress report not made) is late or missing at this time. A Date,
   * milliseconds since the epoch or an RFC 3339 string; default: the log's last message.
   */
  now?: Date | number | string;
  /** Pair Claude's permission timeout in milliseconds (default 15000, the seed's). */
  permissionTimeoutMs?: number;
  /** Pair Claude's tool completion timeout, PAIR_TOOL_TIMEOUT_MS (default 120000). */
  toolTimeoutMs?: number;
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
 * --compact` prints it: per agent (each sender) and family, every rule of the seeds that
 * concerns it — its stable id, the seed's section and words, MUST or SHOULD, its status
 * (`pass`, `fail`, `warning`, `not_tested`, `not_applicable`), the messages that decide it,
 * what broke it (secrets masked) or why it could not be tested —; per agent how many MUST rules
 * were actually tested, and whether the log conforms (against the baseline, when given).
 * Senders a log without envelopes lacks are inferred from the messages (`attribution`). Rules
 * that need files (whether the contract's tests parse, the Agent-PO messages directory) are
 * `not_tested` here: the CLI reads those from disk.
 *
 * @param log - The message log (bare messages or Agent Mail rows, any mix of families).
 * @param options - Registered agents, a baseline, lenient mode, Pair Claude's limits.
 * @throws SwitchboardError `bad_log` / `empty_log` for a log that cannot be read, `bad_agents`
 *   for an agents list that is not one, `bad_baseline` for a baseline that is not one or names
 *   an unknown check; TypeError for options of the wrong type.
 *
 * @example
 * ```ts
 * const report = conformance(log, { agents: ["alice", "bob"], baseline: ["bob:000.session-complete.sender"] });
 * for (const a of report.agents) console.log(a.agent, a.level, `${a.must.tested} of ${a.must.applicable} MUST rules tested`);
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
