// The packed tarball, installed into a scratch project, used as users would: from an ES module,
// a CommonJS module, and TypeScript compiled with `tsc --strict` (ESM and CommonJS flavours).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { ROOT, scratchProject } from "./support.mjs";

const MESSAGE = `{"type": "request_review", "context": "PR 12"}`;

/** A fresh folder inside the scratch project (so `switchboard-protocol` resolves from it). */
function consumerDir() {
  return mkdtempSync(join(scratchProject(), "consumer-"));
}

function run(file, cwd) {
  return execFileSync(process.execPath, [file], { cwd, encoding: "utf8" });
}

test("the tarball holds the package files and package.json declares the entry points", () => {
  const installed = join(scratchProject(), "node_modules/switchboard-protocol");
  const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"));
  const cargoVersion = /\[workspace\.package\][^[]*?^version\s*=\s*"([^"]+)"/m.exec(
    readFileSync(join(ROOT, "Cargo.toml"), "utf8"),
  )[1];
  assert.equal(manifest.name, "switchboard-protocol");
  assert.equal(manifest.version, cargoVersion);
  assert.equal(manifest.license, "MIT OR Apache-2.0");
  assert.equal(manifest.types, "./index.d.ts");
  const dot = manifest.exports["."];
  assert.equal(dot.node.import.default, "./node.mjs");
  assert.equal(dot.node.require.default, "./node.cjs");
  assert.equal(dot.import.default, "./index.js");
  assert.equal(dot.require.default, "./index.js");
  assert.equal(dot.default.default, "./index.js");
  assert.equal(manifest.module, "./index.js");
  const only = manifest.exports["./validate"];
  assert.equal(only.node.import.default, "./validate.node.mjs");
  assert.equal(only.node.require.default, "./validate.node.cjs");
  assert.equal(only.default.default, "./validate.js");
  assert.equal(manifest.exports["./load"].default, "./index.load.js");
  assert.equal(manifest.exports["./validate/load"].default, "./validate.load.js");
  assert.equal(manifest.exports["./validate.wasm"], "./wasm/switchboard_validate_bg.wasm");
  for (const field of ["repository", "homepage", "bugs"]) assert.ok(manifest[field], `package.json has ${field}`);
  // The browser and bundler entries need no top-level await, fetch or asset URL.
  for (const [entry, glue] of [["index.js", "switchboard_wasm.js"], ["validate.js", "switchboard_validate.js"]]) {
    const code = readFileSync(join(installed, entry), "utf8") + readFileSync(join(installed, "wasm", glue), "utf8");
    assert.doesNotMatch(code, /import\.meta|fetch\(|^await /m, entry);
  }
  const files = readdirSync(installed);
  for (const f of ["README.md", "LICENSE-MIT", "LICENSE-APACHE", "index.d.ts", "index.d.cts", "types.d.ts", "validate.d.ts", "validate.d.cts", "guard.js", "inflate.js"]) {
    assert.ok(files.includes(f), `${f} in the package`);
  }
  assert.deepEqual(readdirSync(join(installed, "wasm")).sort(), [
    "switchboard_validate.cjs",
    "switchboard_validate.inline.js",
    "switchboard_validate.js",
    "switchboard_validate_bg.wasm",
    "switchboard_wasm.cjs",
    "switchboard_wasm.inline.js",
    "switchboard_wasm.js",
    "switchboard_wasm_bg.wasm",
  ]);
  assert.ok(!files.includes(".build-stamp"));
});

test("import and require give the same exports", () => {
  const dir = consumerDir();
  writeFileSync(
    join(dir, "names.mjs"),
    `import { createRequire } from "node:module";
const esm = Object.keys(await import("switchboard-protocol")).sort();
const cjs = Object.keys(createRequire(import.meta.url)("switchboard-protocol")).sort();
console.log(JSON.stringify([esm, cjs]));
`,
  );
  const [esm, cjs] = JSON.parse(run("names.mjs", dir));
  assert.deepEqual(esm, cjs);
  assert.ok(esm.includes("validateBatch") && esm.includes("runPaneSmoke"));
  for (const name of ["sessions", "taskBoards", "decide", "goGate", "nextGate", "fingerprint", "verifyFingerprints", "audit", "SwitchboardError"]) {
    assert.ok(esm.includes(name), name);
  }
});

test("switchboard-protocol/validate has the validation exports, with the main entry's verdicts", () => {
  const dir = consumerDir();
  writeFileSync(
    join(dir, "only.mjs"),
    `import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as only from "switchboard-protocol/validate";
import * as main from "switchboard-protocol";
import { load } from "switchboard-protocol/validate/load";
const require = createRequire(import.meta.url);
const names = Object.keys(only).sort();
assert.deepEqual(names, ["SchemaError", "families", "parseJson", "readMail", "schema", "schemas", "validate", "validateBatch", "validateBytes", "validateJson"]);
assert.deepEqual(Object.keys(require("switchboard-protocol/validate")).sort(), names);
// The load entry, given the module's bytes (in a browser: its URL).
const loaded = await load(readFileSync(require.resolve("switchboard-protocol/validate.wasm")));
assert.equal(await load(), loaded, "loaded once");
for (const text of [${JSON.stringify(MESSAGE)}, '{"type": "request_review", "context": 5}', "[", '{"subject": "x", "body_md": "hi"}']) {
  assert.deepEqual(only.validateJson(text), main.validateJson(text));
  assert.deepEqual(loaded.validateJson(text), main.validateJson(text));
  assert.deepEqual(only.readMail(text), main.readMail(text));
}
assert.equal(only.schemas.any.jsonSchema, undefined);
assert.equal(typeof main.schemas.any.jsonSchema, "function");
console.log("validate ok");
`,
  );
  assert.equal(run("only.mjs", dir), "validate ok\n");
});

test("the declarations use no `any` type", () => {
  const installed = join(scratchProject(), "node_modules/switchboard-protocol");
  for (const name of ["index.d.ts", "validate.d.ts", "types.d.ts", "index.load.d.ts", "validate.load.d.ts"]) {
    const code = readFileSync(join(installed, name), "utf8")
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/\/\/.*$/gm, "");
    assert.doesNotMatch(code, /(?<![\w"-])any(?![\w"-])/, name);
  }
});

test("an ES module imports the package by name", () => {
  const dir = consumerDir();
  writeFileSync(
    join(dir, "esm.mjs"),
    `import assert from "node:assert/strict";
import { validate, validateJson, validateBytes, schemas, SchemaError, families } from "switchboard-protocol";
const report = validateJson(${JSON.stringify(MESSAGE)});
assert.deepEqual(report, { valid: true, family: "pair-claude", messageType: "DriverCommand", version: "1.0.0", issues: [] });
assert.deepEqual(validate(JSON.parse(${JSON.stringify(MESSAGE)})), report);
assert.deepEqual(validateBytes(new TextEncoder().encode(${JSON.stringify(MESSAGE)})), report);
assert.throws(() => schemas["pair-claude/DriverCommand"].parse({ type: "approve" }), SchemaError);
assert.equal(families.length, 4);
console.log("esm ok");
`,
  );
  assert.equal(run("esm.mjs", dir), "esm ok\n");
});

test("a CommonJS module requires the package by name", () => {
  const dir = consumerDir();
  writeFileSync(
    join(dir, "cjs.cjs"),
    `const assert = require("node:assert/strict");
const sb = require("switchboard-protocol");
const report = sb.validateJson(${JSON.stringify(MESSAGE)});
assert.equal(report.valid, true);
assert.equal(report.messageType, "DriverCommand");
const bad = sb.schemas.any.safeParse({ type: "request_review", context: 5 });
assert.equal(bad.success, false);
assert.deepEqual(bad.error.issues[0].path, ["context"]);
assert.ok(bad.error instanceof sb.SchemaError);
assert.equal(sb.runPaneSmoke().steps.length > 0, true);
console.log("cjs ok");
`,
  );
  assert.equal(run("cjs.cjs", dir), "cjs ok\n");
});

const TS_BODY = `
const report: Report = validate({ type: "request_review" }, { lenient: true });
const code: IssueCode | undefined = report.issues[0]?.code;
const family: Family | null = report.family;
if (code !== undefined || family !== "pair-claude") throw new Error("unexpected report");

const init = {
  to: "builder",
  subject: "PAIR_INIT",
  body: { protocol_version: "3.1", task: "Add login", my_role: "PLANNER", your_role: "BUILDER", status: "INITIALIZED" },
};
const parsed = schemas["pair/PAIR_INIT"].safeParse(init);
if (!parsed.success) throw parsed.error;
const typed: PairPairInit = parsed.data;
const role: "PLANNER" | "BUILDER" = typed.body.my_role;

// Any Standard Schema consumer gets the message type out.
function standardValidate<T>(s: StandardSchemaV1<unknown, T>, value: unknown): T | undefined {
  const result = s["~standard"].validate(value);
  if (result instanceof Promise) throw new Error("switchboard validates synchronously");
  return result.issues ? undefined : result.value;
}
const task: DroidTaskAssignment | undefined = standardValidate(schemas["droid/task_assignment"], {});
if (task !== undefined) throw new Error("an empty object is no task assignment");

const failed = schema("droid", { lenient: true }).safeParse({ type: "task_assignment" });
if (failed.success) throw new Error("expected a failure");
const segments: Array<string | number> = failed.error.issues[0].path;
const pointer: string = failed.error.issues[0].pointer;

const draft = jsonSchema("droid/task_assignment");
const union = jsonSchema();
const snapshot: PaneSnapshot = buildPaneSnapshot({ inbox: "[]", outbox: [], contacts: { result: [] }, mode: "all" });
const refresh: string = snapshot.refresh_fingerprint;
const steps: number = runPaneSmoke().steps.length;

const log = [{ type: "request_review", context: "PR 12" }];
const views: SessionView[] = sessions(log, { now: new Date(0) });
const boards: Boards = taskBoards(log, { now: 0, permissionTimeoutMs: 45000 });
let refusal: SwitchboardErrorCode | undefined;
try {
  decide(log, "no-session", "APPROVED");
} catch (e) {
  if (!(e instanceof SwitchboardError)) throw e;
  refusal = e.code;
}
const prints: Fingerprints = fingerprint({ "tests/a.py": "assert True\\n", "spec.md": new Uint8Array([35]) });
const verified: Verification = verifyFingerprints(prints, JSON.stringify(prints));
const audited: AuditReport = audit({ contract: { "tests/a.py": "assert f(2) == 4\\n" }, diff: "", approved: [] });

// Builders, error replies and one-pass parsing, typed by key.
const built: DroidTaskAssignment = build("droid/task_assignment", {
  task_id: "bd-42", description: "Login form", specification: { acceptance_criteria: ["renders"] },
  file_patterns: ["src/auth/**"], priority: "high", priority_value: 1,
}, { sender: "orchestrator", now: new Date(0) });
const pairInit: PairPairInit = build("pair/PAIR_INIT", { protocol_version: "3.1", task: "t", my_role: "PLANNER", your_role: "BUILDER" }, { to: "bob" });
const reply: ErrorReply = errorReply(validate({ ...built, priority_value: 3 }), { ...built, priority_value: 3 }, { sender: "worker" });
const replyKind: string = reply.family === "droid" ? reply.error_report.type : reply.error.message_type;
const parsedText = parseJson(JSON.stringify(built));
let parsedTask = "";
if (parsedText.ok && parsedText.key === "droid/task_assignment") parsedTask = parsedText.value.task_id;
const fromText = schemas["pair/PAIR_INIT"].safeParseJson(JSON.stringify(pairInit));
const fromTextRole: string = fromText.success ? fromText.data.body.my_role : "";

// Generic helpers over MessageTypes[K] type-check.
function send<K extends MessageKey>(key: K, message: MessageTypes[K]): MessageTypes[K] {
  return schemas[key].parse(message);
}
function make<K extends MessageKey>(key: K, fields: BuildFields<K>, options?: BuildOptions): MessageTypes[K] {
  return send(key, build(key, fields, options));
}
function check<K extends MessageKey>(key: K, text: string): MessageTypes[K] | undefined {
  const r = schema(key).safeParseJson(text);
  return r.success ? r.data : undefined;
}
const sent: PairPairInit = send("pair/PAIR_INIT", pairInit);
const made = make("pair/PAIR_INIT", { protocol_version: "3.1", task: "t", my_role: "PLANNER", your_role: "BUILDER" }, { to: "bob" });
const checked = check("droid/task_assignment", JSON.stringify(built));

// Type errors the declarations must catch (compiled, never called).
export function typeErrors(): void {
  // @ts-expect-error: now is required (no clock is read)
  sessions(log, { lenient: true });
  // @ts-expect-error: a decision is text
  decide(log, "s", 1);
  // @ts-expect-error: not a schema key
  schema("pair/NOT_A_TYPE");
  // @ts-expect-error: not a family
  validate({}, { family: "not-a-family" });
  // @ts-expect-error: not a filter mode
  buildPaneSnapshot({ inbox: "[]", outbox: "[]", contacts: "[]", mode: "sideways" });
  // @ts-expect-error: a PAIR_INIT role is PLANNER or BUILDER
  const wrongRole: PairPairInit["body"]["my_role"] = "OBSERVER";
  // @ts-expect-error: a report's message type is a registry name
  const wrongType: Report["messageType"] = "NOT_A_TYPE";
  // @ts-expect-error: build takes a family/TYPE key
  build("droid", {});
  // @ts-expect-error: a PAIR_INIT role is PLANNER or BUILDER, in build's fields too
  build("pair/PAIR_INIT", { my_role: "OBSERVER" }, { to: "bob" });
  // @ts-expect-error: send's message must be of the key's type
  send("pair/PAIR_INIT", built);
  console.log(wrongRole, wrongType);
}

console.log(role, segments.length, pointer, typeof draft, typeof union, refresh.length > 0, steps > 0);
console.log(views.length, boards.pair_claude.reviews.length, refusal, Object.keys(prints).length, verified.intact, audited.status);
console.log(replyKind, parsedTask, fromTextRole, sent.subject, made.body.status, checked?.sender_id);
`;

const TS_IMPORTS = `{ validate, schemas, schema, jsonSchema, buildPaneSnapshot, runPaneSmoke, sessions, taskBoards, decide, fingerprint, verifyFingerprints, audit, build, errorReply, parseJson, SwitchboardError }`;
const TS_TYPES = `{ Report, IssueCode, Family, PairPairInit, DroidTaskAssignment, StandardSchemaV1, PaneSnapshot, SessionView, Boards, SwitchboardErrorCode, Fingerprints, Verification, AuditReport, ErrorReply, MessageKey, MessageTypes, BuildFields, BuildOptions }`;

test("TypeScript compiles against the declarations with tsc --strict (ESM and CommonJS) and runs", () => {
  const dir = consumerDir();
  writeFileSync(
    join(dir, "main.mts"),
    `import ${TS_IMPORTS} from "switchboard-protocol";\nimport type ${TS_TYPES} from "switchboard-protocol";\n${TS_BODY}`,
  );
  writeFileSync(
    join(dir, "main.cts"),
    `import ${TS_IMPORTS} = require("switchboard-protocol");\nimport type ${TS_TYPES} from "switchboard-protocol";\n${TS_BODY}`.replace(
      `import ${TS_IMPORTS} = require("switchboard-protocol");`,
      `import sb = require("switchboard-protocol");\nconst ${TS_IMPORTS} = sb;`,
    ),
  );
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        module: "nodenext",
        moduleResolution: "nodenext",
        target: "es2022",
        lib: ["es2022", "dom"],
        types: [],
        outDir: "out",
        noEmitOnError: true,
        skipLibCheck: false,
      },
      files: ["main.mts", "main.cts"],
    }),
  );
  const tsc = join(ROOT, "node_modules/.bin/tsc");
  try {
    execFileSync(tsc, ["-p", dir], { cwd: dir, encoding: "utf8" });
  } catch (err) {
    assert.fail(`tsc --strict failed:\n${err.stdout}${err.stderr}`);
  }
  const expected =
    "PLANNER 1 /task_id object object true true\n0 1 unknown_session 2 true PASS\nerror_report bd-42 PLANNER PAIR_INIT INITIALIZED orchestrator\n";
  assert.equal(run(join("out", "main.mjs"), dir), expected);
  assert.equal(run(join("out", "main.cjs"), dir), expected);
});
