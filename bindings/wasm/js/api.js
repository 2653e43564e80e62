// The JavaScript layer of switchboard-protocol over the wasm binding (bindings/wasm/src):
// options objects, reports, Standard Schema objects with safeParse/parse, JSON Schema and the
// pane. `createApi(glue)` takes the initialised wasm-bindgen glue: the `web` target's module
// in the ESM entries, the `nodejs` target's in the CommonJS one. The package's index.d.ts
// documents every export; this file only maps.
//
// The boundary (see the crate docs): a message crosses as one byte array (text is encoded with
// TextEncoder.encodeInto into a reused buffer, faster than wasm-bindgen's string passing), and
// a valid message comes back as one number that the registry tables below turn into a report.
// JSON crosses back only for reports with issues (or a declared version) and for the pane.
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
  if (ArrayBuffer.isView(bytes)) view = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  else if (Object.prototype.toString.call(bytes) === "[object ArrayBuffer]") view = new Uint8Array(bytes);
  else throw new TypeError(`${fn}: expected a Uint8Array or ArrayBuffer, got ${describe(bytes)}`);
  checkSize(view.byteLength, fn);
  return view;
}

const encoder = new TextEncoder();
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

export function createApi(glue) {
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

  function single(code) {
    return code & 1 ? simple(code) : JSON.parse(glue.takeReports(false))[0];
  }

  function validate(value, options) {
    const word = optionsWord(options, "validate");
    return single(glue.validateBytes(utf8(toJson(value, "validate")), word));
  }

  function validateJson(text, options) {
    const word = optionsWord(options, "validateJson");
    return single(glue.validateBytes(utf8(toText(text, "validateJson")), word));
  }

  function validateBytes(bytes, options) {
    const word = optionsWord(options, "validateBytes");
    return single(glue.validateBytes(toBytes(bytes, "validateBytes"), word));
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
        pending ??= JSON.parse(glue.takeReports(false));
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
    const word = schemaWord(key) | (lenient ? 1 : 0);
    const fn = `schema ${key}`;
    /** `{value, warnings}` when valid, else `{issues, warnings}` (errors only in `issues`). */
    function run(value) {
      let code;
      try {
        code = glue.validateBytes(utf8(toJson(value, fn)), word);
      } catch (err) {
        return { issues: [notJsonIssue(err)], warnings: [] };
      }
      if (code & 1) return { value, warnings: [] };
      const report = JSON.parse(glue.takeReports(true))[0];
      const errors = [];
      const warnings = [];
      for (const issue of report.issues) (issue.severity === "error" ? errors : warnings).push(issue);
      return report.valid ? { value, warnings } : { issues: errors, warnings };
    }
    function standardJsonSchema(options) {
      const target = options && options.target;
      if (target !== "draft-2020-12") {
        throw new Error(`${fn}: JSON Schema target ${JSON.stringify(target)} is not supported (only "draft-2020-12")`);
      }
      return jsonSchema(key);
    }
    return Object.freeze({
      key,
      lenient,
      "~standard": Object.freeze({
        version: 1,
        vendor: "switchboard",
        validate(value) {
          const r = run(value);
          return r.issues ? { issues: r.issues } : { value: r.value };
        },
        jsonSchema: Object.freeze({ input: standardJsonSchema, output: standardJsonSchema }),
      }),
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
      jsonSchema() {
        return jsonSchema(key);
      },
    });
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

  const familyList = Object.freeze(
    families.map((f) => Object.freeze({ name: f.name, title: f.title, version: f.version, types: Object.freeze(f.types.slice()) })),
  );

  return {
    validate,
    validateJson,
    validateBytes,
    validateBatch,
    jsonSchema,
    schema,
    schemas,
    families: familyList,
    buildPaneSnapshot,
    buildPaneSummary,
    runPaneSmoke,
  };
}
