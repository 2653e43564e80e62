/**
 * switchboard-protocol/validate: the validation half of switchboard-protocol, built from the
 * same core with a smaller feature set (its WebAssembly module is about a third of the main
 * entry's, for browser bundles). It validates the Agent Mail coordination protocols' messages
 * (Pair, Agent-PO, droid, Pair Claude) with the same verdicts, JSON Pointer paths and issue codes
 * as `switchboard validate`, offers Standard Schema v1 objects with zod-style `safeParse`, and
 * reads Agent Mail rows. The main entry (`switchboard-protocol`) has all of this and the rest of
 * the core: JSON Schema, builders and error replies, the MCP client guard, the pane, sessions,
 * gates, fingerprints and audits.
 *
 * Message and report types come from `./types.js`, generated from the core's registry.
 *
 * @packageDocumentation
 */

import type {
  Family,
  FamilyMessage,
  LineReport,
  Message,
  MessageKey,
  MessageTypeName,
  MessageTypes,
  Report,
  SchemaIssue,
  ValidateOptions,
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
 * A schema object for one key: a Standard Schema v1 (synchronous `~standard.validate`), plus
 * zod-style `safeParse` and `parse`. The main entry's schema objects also implement Standard JSON
 * Schema (`~standard.jsonSchema`) and have `jsonSchema()`.
 *
 * `"any"` detects the family and type as {@link validate} does; a family key validates with that
 * family hint; a `family/TYPE` key validates as that type without detection (its discriminator
 * is checked like any other member, and an Agent Mail row is not unwrapped).
 *
 * Issues give `path` as segments (Standard Schema) and `pointer` as the JSON Pointer; only
 * errors fail, and warnings are reported apart. A value with no JSON form fails with one
 * `not_json` issue: these methods never throw on input (`parse` throws {@link SchemaError}).
 */
export interface MessageSchema<T> extends StandardSchemaV1<unknown, T> {
  /** The Standard Schema properties (vendor `"switchboard"`). */
  readonly "~standard": StandardSchemaV1.Props<unknown, T>;
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

// ---- mail rows ----

/** What {@link readMail} finds in one mail message. */
export interface MailReading {
  /**
   * `message`: a valid protocol message; `invalid`: a protocol message (or JSON meant as one)
   * that is not valid; `plain`: mail with no JSON message in its body.
   */
  kind: "message" | "invalid" | "plain";
  /**
   * The whole report. Plain mail's report is not valid (`no_protocol_message`) and lists any
   * secret its subject or body holds (`secret_in_message`).
   */
  report: Report;
  /**
   * The protocol message, when it is JSON: for an Agent Mail row the message its `body_md`
   * carries (a Pair body with the type in the subject as `{subject, body}`), else the input.
   */
  message: unknown;
}

/**
 * Reads one mail message, an Agent Mail row (`{subject, body_md, …}`) or a bare protocol
 * message, as the core's sessions and the console read each message: its report, what it
 * carries, and the carried message itself.
 *
 * @param mail - The row or message: a value, or its JSON text.
 * @throws TypeError for a value with no JSON form or malformed options.
 */
export declare function readMail(mail: unknown, options?: ValidateOptions): MailReading;

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
