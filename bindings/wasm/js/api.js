// The JavaScript layer of switchboard-protocol over the wasm binding (bindings/wasm/src):
// options objects, reports, Standard Schema objects with safeParse/parse, JSON Schema and the
// pane. `createApi(glue)` takes the initialised wasm-bindgen glue: the `web` target's module
// in the ESM entries, the `nodejs` target's in the CommonJS one. The package's index.d.ts
// documents every export; this file only maps.
//
// The boundary (see the crate docs): a message is written straight into the module's input
// buffer (text by TextEncoder.encodeInto, faster than wasm-bindgen's string passing; no
// allocation, no glue), and a valid message comes back as one number that the registry tables
// below turn into a report. Reports with issues (or a declared version) are packed in the
// module's memory: one text of their strings and one table of numbers saying how to cut it
// (bindings/wasm/src/packed.rs; `takeReports` below reads both in place), a tenth of the cost
// of parsing them as JSON. JSON crosses back for the pane, and for sessions,
// gates and audits (`{ok}` or `{error}`, the latter thrown as a SwitchboardError).
//
// scripts/npm-package.sh turns this ES module into api.cjs for require() by rewriting the
// `export function createApi` line, so keep this file free of other imports and exports.

/** The largest input accepted: string length in UTF-16 code units, or bytes. */
const MAX_INPUT = 256 * 1024 * 1024;

/** What a value is, for error messages. */
function describe(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  const kind = typeof value;
  return kind === "object" ? `an object (${Object.prototype.toString.call(value).slice(8, -1)})` : `a ${kind}`;
}

function checkSize(length, fn) {
  if (length > MAX_INPUT) {
    throw new RangeError(`${fn}: the input is ${length} long; at most ${MAX_INPUT} (256 MiB) is accepted`);
  }
}

/** A value as JSON text, or a TypeError saying why it has none (cyclic, BigInt, undefined). */
function toJson(value, fn) {
  let text;
  try {
    text = JSON.stringify(value);
  } catch (err) {
    throw new TypeError(`${fn}: the value is not JSON: ${err && err.message}`, { cause: err });
  }
  if (text === undefined) throw new TypeError(`${fn}: ${describe(value)} is not a JSON value`);
  checkSize(text.length, fn);
  return text;
}

/** Any byte view (Uint8Array, Buffer, other typed arrays, DataView) or ArrayBuffer as a Uint8Array. */
function toBytes(bytes, fn) {
  let view;
  // A Uint8Array (a Buffer too) is used as it is; other views are seen as their bytes.
  if (bytes instanceof Uint8Array) view = bytes;
  else if (ArrayBuffer.isView(bytes)) view = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  else if (Object.prototype.toString.call(bytes) === "[object ArrayBuffer]") view = new Uint8Array(bytes);
  else throw new TypeError(`${fn}: expected a Uint8Array or ArrayBuffer, got ${describe(bytes)}`);
  checkSize(view.byteLength, fn);
  return view;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** The options word's bit asking for reports packed with path segments (bindings/wasm/src/report.rs). */
const SEGMENTS = 1 << 12;
/** What the module's `validateInput` returns for an input it refuses (bindings/wasm/src/validate.rs). */
const BAD_CALL = 0xffffffff;
/** Reused for message-sized text; larger text gets its own buffer. */
let scratch = new Uint8Array(16 * 1024);
const SCRATCH_MAX = 4 * 1024 * 1024;

/**
 * Text as UTF-8 bytes for the boundary (lone surrogates become U+FFFD, as in any UTF-8
 * encoding). The result may be the shared scratch buffer: use it before the next call.
 */
function utf8(text) {
  const need = text.length * 3;
  if (need > SCRATCH_MAX) return encoder.encode(text);
  if (need > scratch.length) scratch = new Uint8Array(Math.max(need, scratch.length * 2));
  const { written } = encoder.encodeInto(text, scratch);
  return scratch.subarray(0, written);
}

function toText(text, fn) {
  if (typeof text !== "string") throw new TypeError(`${fn}: expected a string, got ${describe(text)}`);
  checkSize(text.length, fn);
  return text;
}

/** Thrown by a schema's `parse`; carried by a failed `safeParse`. */
export class SchemaError extends Error {
  constructor(schema, issues, warnings) {
    const shown = issues
      .slice(0, 3)
      .map((i) => `${i.pointer === "" ? "(root)" : i.pointer}: ${i.message} (${i.code})`)
      .join("; ");
    const more = issues.length > 3 ? `; and ${issues.length - 3} more` : "";
    super(`not a valid ${schema} message: ${shown}${more}`);
    this.name = "SchemaError";
    this.schema = schema;
    this.issues = issues;
    this.warnings = warnings;
  }
}

/**
 * Thrown by the session, gate and contract functions when the core refuses: a stable `code`,
 * the core's reason as the message, and the error's data in `details`.
 */
export class SwitchboardError extends Error {
  constructor(error) {
    const { code, message, ...details } = error;
    super(message);
    this.name = "SwitchboardError";
    this.code = code;
    this.details = details;
  }
}

/** The largest time a Date holds, in milliseconds either side of the epoch. */
const MAX_TIME = 8.64e15;

/**
 * The package's API over the initialised glue: with `full` (the main entry) everything, else
 * (the `validate` entry, whose module exports only validation) validation, schema objects and
 * `readMail`.
 */
export function createApi(glue, { full }) {
  const registry = JSON.parse(glue.registry());
  const families = registry.families;
  const familyIndex = new Map(families.map((f, i) => [f.name, i]));
  const familyNames = families.map((f) => f.name).join(", ");

  /** Options object → the options word of bindings/wasm/src/report.rs. */
  function optionsWord(options, fn) {
    if (options === undefined || options === null) return 0;
    if (typeof options !== "object") throw new TypeError(`${fn}: options must be an object, got ${describe(options)}`);
    const { family, lenient } = options;
    let word = 0;
    if (lenient !== undefined) {
      if (typeof lenient !== "boolean") throw new TypeError(`${fn}: options.lenient must be a boolean, got ${describe(lenient)}`);
      if (lenient) word |= 1;
    }
    if (family !== undefined && family !== null) {
      const i = familyIndex.get(family);
      if (i === undefined) throw new TypeError(`${fn}: unknown family ${JSON.stringify(family)} (expected one of: ${familyNames})`);
      word |= (i + 1) << 1;
    }
    return word;
  }

  /** A simple result code (bit 0 set) as a report, from the registry tables alone. */
  function simple(code) {
    const family = families[((code >>> 1) & 7) - 1];
    return {
      valid: true,
      family: family.name,
      messageType: family.types[((code >>> 4) & 0xff) - 1],
      version: family.version,
      issues: [],
    };
  }

  const issueCodes = registry.issueCodes;

  /**
   * The reports the last call packed, unpacked (the layout: bindings/wasm/src/packed.rs).
   * `segments` says whether the call asked for them with path segments (`SEGMENTS` in its
   * options word): then each issue's `path` is its segments and `pointer` its JSON Pointer;
   * without, `path` is the JSON Pointer.
   */
  function takeReports(segments) {
    // Four words: the table's address and length in words, the text's address and byte length.
    // (Packing may have grown the memory: its buffer is read now.)
    const where = glue.packedReports() >>> 2;
    if (words32.length === 0) remakeViews();
    const table = words32;
    const tableAt = table[where] >>> 2;
    const textAt = table[where + 2];
    const text = decoder.decode(bytes8.subarray(textAt, textAt + table[where + 3]));
    const reports = [];
    let at = 0;
    const cut = (length) => text.slice(at, (at += length));
    for (let j = tableAt, end = tableAt + table[where + 1]; j < end; ) {
      const head = table[j++];
      const count = table[j++];
      const f = (head >>> 1) & 7;
      const t = (head >>> 4) & 0xff;
      const v = (head >>> 12) & 3;
      const family = f ? families[f - 1] : null;
      const version = v === 0 ? null : v === 1 ? family.version : cut(table[j++]);
      const issues = new Array(count);
      for (let k = 0; k < count; k++) {
        const word = table[j++];
        const pointer = cut(table[j++]);
        const message = cut(table[j++]);
        const code = issueCodes[word & 31];
        const severity = word & 32 ? "warning" : "error";
        if (segments) {
          const path = new Array(word >>> 8);
          for (let s = 0; s < path.length; s++) {
            const w = table[j++];
            path[s] = w & 1 ? w >>> 1 : cut(w >>> 1);
          }
          issues[k] = { path, pointer, code, message, severity };
        } else {
          issues[k] = { path: pointer, code, message, severity };
        }
      }
      reports.push({
        valid: (head & 1) === 1,
        family: family ? family.name : null,
        messageType: t ? family.types[t - 1] : null,
        version,
        issues,
      });
    }
    return reports;
  }

  function single(code) {
    return code & 1 ? simple(code) : takeReports(false)[0];
  }

  // Message-sized input is written straight into the module's input buffer (one copy, no
  // allocation, no glue): text by TextEncoder.encodeInto, bytes by a typed-array copy.
  const memory = glue.linearMemory();
  let inputAt = 0;
  let inputSize = 0;

  // Views of the module's memory: all of it as bytes and as words, and the input buffer. The
  // memory's buffer is replaced when it grows, and views of the old one are then empty: each
  // user asks its view's length (cheaper than the `memory.buffer` getter) and remakes them all.
  let bytes8 = new Uint8Array(0);
  let words32 = new Uint32Array(0);
  let input = new Uint8Array(0);
  function remakeViews() {
    bytes8 = new Uint8Array(memory.buffer);
    words32 = new Uint32Array(memory.buffer);
    input = bytes8.subarray(inputAt, inputAt + inputSize);
  }

  /** The input buffer, at least `size` bytes, as a view of the module's current memory. */
  function inputBuffer(size) {
    if (size > inputSize) {
      inputSize = Math.max(size, 2 * inputSize, 16 * 1024);
      inputAt = glue.inputBuffer(inputSize);
      remakeViews();
    } else if (input.length === 0) {
      remakeViews();
    }
    return input;
  }

  function checked(code) {
    if (code === BAD_CALL) throw new Error("switchboard-protocol: the wasm module refused an input (a bug in this package)");
    return code;
  }

  /** The result code of JSON text (the length already checked). */
  function validateText(text, word) {
    // UTF-8 takes at most three bytes per UTF-16 code unit.
    const most = text.length * 3;
    if (most > SCRATCH_MAX) return glue.validateBytes(encoder.encode(text), word);
    const { written } = encoder.encodeInto(text, inputBuffer(most));
    return checked(glue.validateInput(written, word));
  }

  /** The result code of JSON bytes (a Uint8Array, the length already checked). */
  function validateView(bytes, word) {
    if (bytes.byteLength > SCRATCH_MAX) return glue.validateBytes(bytes, word);
    inputBuffer(bytes.byteLength).set(bytes);
    return checked(glue.validateInput(bytes.byteLength, word));
  }

  function validate(value, options) {
    const word = optionsWord(options, "validate");
    return single(validateText(toJson(value, "validate"), word));
  }

  function validateJson(text, options) {
    const word = optionsWord(options, "validateJson");
    return single(validateText(toText(text, "validateJson"), word));
  }

  function validateBytes(bytes, options) {
    const word = optionsWord(options, "validateBytes");
    return single(validateView(toBytes(bytes, "validateBytes"), word));
  }

  function validateBatch(jsonl, options) {
    const word = optionsWord(options, "validateBatch");
    const bytes = typeof jsonl === "string" ? utf8(toText(jsonl, "validateBatch")) : toBytes(jsonl, "validateBatch");
    // Two numbers per message: its input line, then its result code.
    const pairs = glue.validateLines(bytes, word);
    const reports = new Array(pairs.length / 2);
    let pending = null;
    let next = 0;
    for (let i = 0; i < reports.length; i++) {
      const code = pairs[2 * i + 1];
      let report;
      if (code & 1) {
        report = simple(code);
      } else {
        pending ??= takeReports(false);
        report = pending[next++];
      }
      reports[i] = { line: pairs[2 * i], ...report };
    }
    return reports;
  }

  /** `undefined`/"any" → "", else a family name or `family/TYPE` as given. */
  function schemaKey(key, fn) {
    if (key === undefined || key === "any") return "";
    if (typeof key !== "string") throw new TypeError(`${fn}: expected a family/TYPE key, got ${describe(key)}`);
    return key;
  }

  function jsonSchema(key) {
    const text = glue.jsonSchema(schemaKey(key, "jsonSchema"));
    if (text === undefined) {
      throw new TypeError(`jsonSchema: unknown key ${JSON.stringify(key)} (a family such as "droid", or family/TYPE such as "droid/task_assignment")`);
    }
    return JSON.parse(text);
  }

  /** The options word of a schema key (without the lenient bit), or undefined. */
  function schemaWord(key) {
    if (key === "any") return 0;
    const slash = key.indexOf("/");
    const i = familyIndex.get(slash < 0 ? key : key.slice(0, slash));
    if (i === undefined) return undefined;
    if (slash < 0) return (i + 1) << 1;
    const t = families[i].types.indexOf(key.slice(slash + 1));
    return t < 0 ? undefined : ((i + 1) << 1) | ((t + 1) << 4);
  }

  function notJsonIssue(err) {
    return { path: [], pointer: "", code: "not_json", message: err.message, severity: "error" };
  }

  function makeSchema(key, lenient) {
    const word = schemaWord(key) | (lenient ? 1 : 0) | SEGMENTS;
    const fn = `schema ${key}`;
    /**
     * `{value, warnings}` when the JSON bytes are valid (`value()` gives the value), else
     * `{issues, warnings}` (errors only in `issues`).
     */
    function check(code, value) {
      if (code & 1) return { value: value(), warnings: [] };
      const report = takeReports(true)[0];
      const errors = [];
      const warnings = [];
      for (const issue of report.issues) (issue.severity === "error" ? errors : warnings).push(issue);
      return report.valid ? { value: value(), warnings } : { issues: errors, warnings };
    }
    function run(value) {
      let text;
      try {
        text = toJson(value, fn);
      } catch (err) {
        return { issues: [notJsonIssue(err)], warnings: [] };
      }
      return check(validateText(text, word), () => value);
    }
    function runJson(text) {
      return check(validateText(toText(text, `${fn}: safeParseJson`), word), () => JSON.parse(text));
    }
    function standardJsonSchema(options) {
      const target = options && options.target;
      if (target !== "draft-2020-12") {
        throw new Error(`${fn}: JSON Schema target ${JSON.stringify(target)} is not supported (only "draft-2020-12")`);
      }
      return jsonSchema(key);
    }
    const standard = {
      version: 1,
      vendor: "switchboard",
      validate(value) {
        const r = run(value);
        return r.issues ? { issues: r.issues } : { value: r.value };
      },
    };
    // The validation-only module has no JSON Schema export.
    if (full) standard.jsonSchema = Object.freeze({ input: standardJsonSchema, output: standardJsonSchema });
    const object = {
      key,
      lenient,
      "~standard": Object.freeze(standard),
      safeParse(value) {
        const r = run(value);
        return r.issues
          ? { success: false, error: new SchemaError(key, r.issues, r.warnings) }
          : { success: true, data: r.value, warnings: r.warnings };
      },
      parse(value) {
        const r = run(value);
        if (r.issues) throw new SchemaError(key, r.issues, r.warnings);
        return r.value;
      },
      safeParseJson(text) {
        const r = runJson(text);
        return r.issues
          ? { success: false, error: new SchemaError(key, r.issues, r.warnings) }
          : { success: true, data: r.value, warnings: r.warnings };
      },
    };
    if (full) object.jsonSchema = () => jsonSchema(key);
    return Object.freeze(object);
  }

  const schemas = { any: makeSchema("any", false) };
  for (const family of families) {
    schemas[family.name] = makeSchema(family.name, false);
    for (const type of family.types) schemas[`${family.name}/${type}`] = makeSchema(`${family.name}/${type}`, false);
  }
  Object.freeze(schemas);

  function schema(key = "any", options) {
    if (typeof key !== "string" || schemaWord(key) === undefined) {
      throw new TypeError(`schema: unknown key ${typeof key === "string" ? JSON.stringify(key) : describe(key)} ("any", a family, or family/TYPE)`);
    }
    if (options !== undefined && (options === null || typeof options !== "object")) {
      throw new TypeError(`schema: options must be an object, got ${describe(options)}`);
    }
    const lenient = options ? options.lenient : undefined;
    if (lenient !== undefined && typeof lenient !== "boolean") {
      throw new TypeError(`schema: options.lenient must be a boolean, got ${describe(lenient)}`);
    }
    return lenient ? makeSchema(key, true) : schemas[key];
  }

  /** A pane payload: JSON text as is, any other value as its JSON. */
  function payload(value, name, fn) {
    return typeof value === "string" ? value : toJson(value, `${fn} (${name})`);
  }

  function paneArgs(input, fn) {
    if (input === null || typeof input !== "object") throw new TypeError(`${fn}: expected {inbox, outbox, contacts, ...}, got ${describe(input)}`);
    const { activeThread = null, mode = "all", acked = [] } = input;
    if (activeThread !== null && typeof activeThread !== "string") {
      throw new TypeError(`${fn}: activeThread must be a string or null, got ${describe(activeThread)}`);
    }
    if (typeof mode !== "string") throw new TypeError(`${fn}: mode must be a string, got ${describe(mode)}`);
    if (!Array.isArray(acked) || !acked.every((id) => typeof id === "number")) {
      throw new TypeError(`${fn}: acked must be an array of message ids (numbers)`);
    }
    return [
      payload(input.inbox, "inbox", fn),
      payload(input.outbox, "outbox", fn),
      payload(input.contacts, "contacts", fn),
      activeThread,
      mode,
      Float64Array.from(acked),
    ];
  }

  function buildPaneSnapshot(input) {
    return JSON.parse(glue.buildPaneSnapshot(...paneArgs(input, "buildPaneSnapshot")));
  }

  function buildPaneSummary(input) {
    return JSON.parse(glue.buildPaneSummary(...paneArgs(input, "buildPaneSummary")));
  }

  function runPaneSmoke() {
    return JSON.parse(glue.runPaneSmoke());
  }

  /** `{ok}` or `{error}` from the session, gate and contract exports: the value, or a throw. */
  function unwrap(text) {
    const reply = JSON.parse(text);
    if (reply.error) throw new SwitchboardError(reply.error);
    return reply.ok;
  }

  /** A message log (JSON text, UTF-8 bytes, or the parsed array or payload) as bytes. */
  function logBytes(log, fn) {
    if (typeof log === "string") return utf8(toText(log, fn));
    if (ArrayBuffer.isView(log) || Object.prototype.toString.call(log) === "[object ArrayBuffer]") return toBytes(log, fn);
    if (log !== null && typeof log === "object") return utf8(toJson(log, fn));
    throw new TypeError(`${fn}: expected a message log (JSON text, bytes, or an array of messages), got ${describe(log)}`);
  }

  /** A time as milliseconds since the epoch: a Date, a number of milliseconds, or a time string. */
  function timeMs(now, name, fn) {
    let ms;
    if (Object.prototype.toString.call(now) === "[object Date]") ms = now.getTime();
    else if (typeof now === "number") ms = now;
    else if (typeof now === "string") ms = glue.parseTime(now);
    else throw new TypeError(`${fn}: ${name} must be a Date, milliseconds since the epoch or an RFC 3339 string, got ${describe(now)}`);
    if (ms === undefined || !Number.isFinite(ms) || Math.abs(ms) > MAX_TIME) {
      throw new TypeError(`${fn}: ${name} ${typeof now === "string" ? JSON.stringify(now) : String(now)} is not a time`);
    }
    return Math.trunc(ms);
  }

  /** `options.now` (required) as milliseconds since the epoch. */
  function nowMs(options, fn) {
    if (options === null || typeof options !== "object") {
      throw new TypeError(`${fn}: options with \`now\` are required (the library reads no clock), got ${describe(options)}`);
    }
    return timeMs(options.now, "options.now", fn);
  }

  function flag(options, name, fn) {
    const value = options == null ? undefined : options[name];
    if (value === undefined) return false;
    if (typeof value !== "boolean") throw new TypeError(`${fn}: options.${name} must be a boolean, got ${describe(value)}`);
    return value;
  }

  function count(value, name, fn) {
    if (!Number.isSafeInteger(value) || value < 0) throw new TypeError(`${fn}: ${name} must be a non-negative integer, got ${describe(value)}`);
    return value;
  }

  function sessions(log, options) {
    const now = nowMs(options, "sessions");
    return unwrap(glue.sessions(logBytes(log, "sessions"), now, flag(options, "lenient", "sessions")));
  }

  function taskBoards(log, options) {
    const now = nowMs(options, "taskBoards");
    const timeout = options.permissionTimeoutMs;
    const ms = timeout === undefined ? -1 : count(timeout, "options.permissionTimeoutMs", "taskBoards");
    return unwrap(glue.taskBoards(logBytes(log, "taskBoards"), now, flag(options, "lenient", "taskBoards"), ms));
  }

  /** An optional count option: -1 (the core's default) when absent. */
  function countOption(options, name, fn) {
    const value = options == null ? undefined : options[name];
    return value === undefined ? -1 : count(value, `options.${name}`, fn);
  }

  /** An optional list option (`agents`, `baseline`) as JSON text, or undefined. */
  function listOption(options, name, fn) {
    const value = options == null ? undefined : options[name];
    if (value === undefined) return undefined;
    if (value === null || typeof value !== "object") {
      throw new TypeError(`${fn}: options.${name} must be an array (or an object holding one), got ${describe(value)}`);
    }
    return toJson(value, `${fn} (options.${name})`);
  }

  function conformance(log, options) {
    const fn = "conformance";
    if (options != null && typeof options !== "object") throw new TypeError(`${fn}: options must be an object, got ${describe(options)}`);
    // Read leniently unless asked not to: the seeds' own deviations are warnings.
    const strict = flag(options, "strict", fn) || (options != null && options.lenient === false);
    flag(options, "lenient", fn);
    return unwrap(
      glue.conformance(
        logBytes(log, fn),
        !strict,
        listOption(options, "agents", fn),
        listOption(options, "baseline", fn),
        options == null || options.now === undefined ? NaN : timeMs(options.now, "options.now", fn),
        countOption(options, "permissionTimeoutMs", fn),
        countOption(options, "toolTimeoutMs", fn),
        countOption(options, "navigatorMaxTurns", fn),
        countOption(options, "driverMaxTurns", fn),
      ),
    );
  }

  function decide(log, sessionId, decision, options) {
    if (typeof sessionId !== "string") throw new TypeError(`decide: sessionId must be a string, got ${describe(sessionId)}`);
    if (typeof decision !== "string") throw new TypeError(`decide: decision must be a string (e.g. "APPROVED", "REVISE: <feedback>"), got ${describe(decision)}`);
    return unwrap(glue.decide(logBytes(log, "decide"), sessionId, decision, flag(options, "lenient", "decide")));
  }

  /** A JSON document given as text or as a value, as text. */
  function jsonText(value, name, fn) {
    return typeof value === "string" ? toText(value, fn) : toJson(value, `${fn} (${name})`);
  }

  function goGate(task, plan, options) {
    const now = nowMs(options, "goGate");
    return unwrap(glue.goGate(jsonText(task, "task", "goGate"), jsonText(plan, "plan", "goGate"), now));
  }

  function nextGate(task, report, options) {
    const now = nowMs(options, "nextGate");
    const { authorized, fixes = 0 } = options;
    if (authorized !== undefined && !(Array.isArray(authorized) && authorized.every((p) => typeof p === "string"))) {
      throw new TypeError("nextGate: options.authorized must be an array of paths");
    }
    const taskText = jsonText(task, "task", "nextGate");
    const reportText = jsonText(report, "report", "nextGate");
    return unwrap(glue.nextGate(taskText, reportText, authorized, count(fixes, "options.fixes", "nextGate"), now));
  }

  /** Files (`{path: text or bytes}`, or a Map) as paths, byte lengths and one byte array. */
  function fileArgs(files, fn) {
    if (files === null || typeof files !== "object") throw new TypeError(`${fn}: expected files as {path: content}, got ${describe(files)}`);
    const entries = files instanceof Map ? [...files.entries()] : Object.entries(files);
    const paths = [];
    const parts = [];
    for (const [path, content] of entries) {
      if (typeof path !== "string") throw new TypeError(`${fn}: a file path must be a string, got ${describe(path)}`);
      paths.push(path);
      parts.push(typeof content === "string" ? encoder.encode(content) : toBytes(content, `${fn} (${path})`));
    }
    const lengths = Uint32Array.from(parts, (p) => p.byteLength);
    const bytes = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
    let at = 0;
    for (const p of parts) {
      bytes.set(p, at);
      at += p.byteLength;
    }
    checkSize(bytes.byteLength, fn);
    return [paths, lengths, bytes];
  }

  function fingerprint(files) {
    return unwrap(glue.fingerprint(...fileArgs(files, "fingerprint")));
  }

  function verifyFingerprints(baseline, current) {
    const fn = "verifyFingerprints";
    return unwrap(glue.verifyFingerprints(jsonText(baseline, "baseline", fn), jsonText(current, "current", fn)));
  }

  function verifyRecords(trail, head) {
    return unwrap(glue.verifyRecords(toText(trail, "verifyRecords"), head ?? undefined));
  }

  function audit(input) {
    if (input === null || typeof input !== "object") throw new TypeError(`audit: expected {contract, diff, approved?}, got ${describe(input)}`);
    const { contract, diff, approved = [] } = input;
    if (!Array.isArray(approved) || !approved.every((a) => typeof a === "string")) {
      throw new TypeError("audit: approved must be an array of dependency names");
    }
    return unwrap(glue.audit(...fileArgs(contract, "audit (contract)"), toText(diff, "audit (diff)"), approved));
  }

  /** A message key (`family/TYPE`), checked against the registry. */
  function typeKey(key, fn) {
    if (typeof key !== "string" || !key.includes("/") || schemaWord(key) === undefined) {
      throw new TypeError(`${fn}: expected a family/TYPE key such as "droid/task_assignment", got ${typeof key === "string" ? JSON.stringify(key) : describe(key)}`);
    }
    return key;
  }

  function optionalString(options, name, fn) {
    const value = options[name];
    if (value !== undefined && typeof value !== "string") throw new TypeError(`${fn}: options.${name} must be a string, got ${describe(value)}`);
    return value;
  }

  /**
   * The builders' options as JSON for the boundary. `now` defaults to the clock and `random`
   * (a droid message id's 16 bytes) to crypto.getRandomValues, unless the fields hold the member
   * they derive (`timestamp`, `message_id`): the core reads neither a clock nor randomness.
   */
  function builderOptions(options, fields, names, fn) {
    if (options === undefined || options === null) options = {};
    else if (typeof options !== "object") throw new TypeError(`${fn}: options must be an object, got ${describe(options)}`);
    const out = {};
    if (options.now !== undefined) out.now = timeMs(options.now, "options.now", fn);
    else if (fields?.timestamp === undefined) out.now = Date.now();
    if (options.random !== undefined) {
      const { random } = options;
      if (!(random instanceof Uint8Array) || random.length !== 16) throw new TypeError(`${fn}: options.random must be a Uint8Array of 16 bytes, got ${describe(random)}`);
      out.random = Array.from(random);
    } else if (fields?.message_id === undefined) {
      out.random = Array.from(globalThis.crypto.getRandomValues(new Uint8Array(16)));
    }
    for (const name of names) {
      const value = optionalString(options, name, fn);
      if (value !== undefined) out[name] = value;
    }
    return JSON.stringify(out);
  }

  function build(key, fields, options) {
    typeKey(key, "build");
    if (fields === null || typeof fields !== "object" || Array.isArray(fields)) {
      throw new TypeError(`build: fields must be an object (the type's own members; for Pair, the body), got ${describe(fields)}`);
    }
    const opts = builderOptions(options, fields, ["sender", "to", "agentId", "taskId"], "build");
    return unwrap(glue.build(key, toJson(fields, "build"), opts));
  }

  function errorReply(report, original, options) {
    if (report === null || typeof report !== "object" || typeof report.valid !== "boolean" || !Array.isArray(report.issues)) {
      throw new TypeError(`errorReply: expected a report (from validate, validateJson, …), got ${describe(report)}`);
    }
    const family = options?.family;
    if (family !== undefined && !familyIndex.has(family)) {
      throw new TypeError(`errorReply: unknown options.family ${JSON.stringify(family)} (expected one of: ${familyNames})`);
    }
    const opts = JSON.parse(builderOptions(options, undefined, ["sender"], "errorReply"));
    if (family !== undefined) opts.family = family;
    const text = typeof original === "string" ? toText(original, "errorReply") : toJson(original, "errorReply (original)");
    return unwrap(glue.errorReply(JSON.stringify(report), text, JSON.stringify(opts)));
  }

  /** Each type's `family/TYPE` key, by family and type position (made once, not per call). */
  const typeKeys = families.map((f) => f.types.map((t) => `${f.name}/${t}`));

  /** The `family/TYPE` key of a simple result code. */
  function codeKey(code) {
    return typeKeys[((code >>> 1) & 7) - 1][((code >>> 4) & 0xff) - 1];
  }

  function readMail(mail, options) {
    const word = optionsWord(options, "readMail");
    const bytes = typeof mail === "string" ? utf8(toText(mail, "readMail")) : utf8(toJson(mail, "readMail"));
    return JSON.parse(glue.readMail(bytes, word));
  }

  function parseJson(text, options) {
    const word = optionsWord(options, "parseJson");
    const code = validateText(toText(text, "parseJson"), word);
    if (code & 1) return { ok: true, key: codeKey(code), value: JSON.parse(text), report: simple(code) };
    const report = takeReports(false)[0];
    let value;
    if (report.issues[0]?.code !== "not_json") value = JSON.parse(text);
    if (report.valid) return { ok: true, key: `${report.family}/${report.messageType}`, value, report };
    return { ok: false, value, report };
  }

  const familyList = Object.freeze(
    families.map((f) => Object.freeze({ name: f.name, title: f.title, version: f.version, types: Object.freeze(f.types.slice()) })),
  );

  const validation = {
    validate,
    validateJson,
    validateBytes,
    validateBatch,
    schema,
    schemas,
    families: familyList,
    parseJson,
    readMail,
  };
  if (!full) return validation;
  return {
    ...validation,
    jsonSchema,
    build,
    errorReply,
    buildPaneSnapshot,
    buildPaneSummary,
    runPaneSmoke,
    sessions,
    taskBoards,
    conformance,
    decide,
    goGate,
    nextGate,
    fingerprint,
    verifyFingerprints,
    verifyRecords,
    audit,
  };
}
