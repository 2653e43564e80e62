// The package's API, from the installed tarball: objects, text and bytes agree; bad input gives
// a report or a clear TypeError/RangeError and never breaks the module; the schema objects
// (Standard Schema, safeParse, parse); JSON Schema; the pane; batches.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { FIXTURES, ROOT, loadPackage } from "./support.mjs";

const sb = await loadPackage();
const encode = (text) => new TextEncoder().encode(text);
const fixture = (rel) => readFileSync(join(FIXTURES, rel), "utf8");
const PROGRESS = fixture("valid/agent-po/c01_PROGRESS_UPDATE_real_timestamps.json");

/** The three input forms of one message give one report. */
function agree(text, value, options) {
  const fromText = sb.validateJson(text, options);
  assert.deepEqual(sb.validateBytes(encode(text), options), fromText, "bytes vs text");
  assert.deepEqual(sb.validate(value, options), fromText, "object vs text");
  return fromText;
}

/** The module still validates after whatever happened before. */
function stillWorks() {
  assert.deepEqual(sb.validateJson(`{"type": "request_review"}`), {
    valid: true,
    family: "pair-claude",
    messageType: "DriverCommand",
    version: "1.0.0",
    issues: [],
  });
  assert.equal(sb.validateJson(PROGRESS).valid, true);
  assert.equal(sb.runPaneSmoke().steps.length > 0, true);
}

describe("objects, text and bytes agree", () => {
  test("on unknown and extra members, top-level and nested", () => {
    const msg = JSON.parse(PROGRESS);
    msg.extra = { deep: [1, 2] };
    msg.issues = [];
    const text = JSON.stringify({ ...msg, files_modified: ["a.ts"], zz_unknown: null });
    const report = agree(text, JSON.parse(text));
    assert.equal(report.valid, true, "undeclared members are allowed, in every form");
    // An extra member that another family claims changes detection, in every form.
    const claimed = { ...msg, body: {} };
    assert.equal(agree(JSON.stringify(claimed), claimed).issues[0].code, "ambiguous_family");
    // Unknown members inside a declared object of a Pair message.
    const init = JSON.parse(fixture("valid/pair/01_PAIR_INIT.json"));
    init.body.unexpected = "x";
    assert.equal(agree(JSON.stringify(init), init).valid, true);
  });

  test("on numbers written 1.0 and 1", () => {
    const value = JSON.parse(PROGRESS);
    const asFloat = PROGRESS.replace('"progress_percent": 50', '"progress_percent": 50.0');
    assert.notEqual(asFloat, PROGRESS);
    assert.deepEqual(agree(asFloat, value), sb.validateJson(PROGRESS));
    const outside = PROGRESS.replace('"progress_percent": 50', '"progress_percent": 140.0');
    const report = agree(outside, { ...value, progress_percent: 140 });
    assert.deepEqual(report.issues, [
      { path: "/progress_percent", code: "out_of_range", message: "140 is outside 0..=100", severity: "error" },
    ]);
    const fraction = agree(PROGRESS.replace('"progress_percent": 50', '"progress_percent": 50.5'), {
      ...value,
      progress_percent: 50.5,
    });
    assert.equal(fraction.issues[0].code, "wrong_type");
  });

  test("on undefined members: absent, as JSON.stringify drops them", () => {
    const value = JSON.parse(PROGRESS);
    const withUndefined = { ...value, eta_minutes: undefined, extra: undefined };
    const { eta_minutes: _, ...withoutEta } = value;
    assert.deepEqual(sb.validate(withUndefined), sb.validateJson(JSON.stringify(withoutEta)));
    const missing = sb.validate({ ...value, status: undefined });
    assert.deepEqual(missing.issues.map((i) => [i.path, i.code]), [["/status", "missing_field"]]);
    assert.deepEqual(missing, sb.validateJson(JSON.stringify({ ...value, status: undefined })));
    // Array items that are undefined become null, as in JSON.stringify.
    const items = sb.validate({ ...value, files_modified: [undefined] });
    assert.deepEqual(items.issues.map((i) => [i.path, i.code]), [["/files_modified/0", "wrong_type"]]);
  });

  test("on Agent Mail rows carrying a message", () => {
    for (const rel of ["valid/carried/pair_body_in_body_md.json", "invalid/carried/broken_json.json"]) {
      const text = fixture(rel);
      agree(text, JSON.parse(text));
    }
  });
});

describe("bad input never breaks the module", () => {
  test("values that are not objects get a structured report", () => {
    for (const value of [5, "text", null, true, [], [{}]]) {
      const report = sb.validate(value);
      assert.equal(report.valid, false);
      assert.equal(report.issues[0].code, "wrong_type", JSON.stringify(value));
      assert.equal(report.issues[0].path, "");
      stillWorks();
    }
  });

  test("values with no JSON form throw a TypeError", () => {
    const cyclic = { type: "request_review" };
    cyclic.self = cyclic;
    const cases = [undefined, () => 1, Symbol("s"), 1n, { type: "request_review", big: 10n }, cyclic];
    for (const value of cases) {
      assert.throws(() => sb.validate(value), TypeError);
      stillWorks();
    }
    assert.throws(() => sb.validate(cyclic), /validate: the value is not JSON: Converting circular structure/);
    assert.throws(() => sb.validate(1n), /BigInt/);
  });

  test("a 100 MB string gives a report", () => {
    const big = "x".repeat(100 * 1024 * 1024);
    assert.equal(sb.validateJson(big).issues[0].code, "not_json");
    stillWorks();
    assert.equal(sb.validate(big).issues[0].code, "wrong_type");
    stillWorks();
    const message = `{"type": "request_review", "context": "${big}"}`;
    assert.equal(sb.validateJson(message).valid, true);
    assert.equal(sb.validateBytes(encode(message)).valid, true);
    stillWorks();
  });

  test("a call that grows the module's memory is read right, and so are the next ones", () => {
    // 3 MB through the input buffer; its tree alone needs more memory than the module had.
    const numbers = Array.from({ length: 400000 }, (_, i) => i % 10).join(",");
    const message =
      '{"version":"1.0.0","timestamp":"2025-12-25T17:00:00Z","sender_id":"o",' +
      '"message_id":"523e4567-e89b-12d3-a456-426614174004","type":"coordination_request",' +
      `"request_type":"parallel_execution","participants":[${numbers}],"coordination_details":{}}`;
    const report = sb.validateJson(message);
    assert.equal(report.valid, false);
    assert.equal(report.issues.length, 101);
    assert.deepEqual(report.issues[0], { path: "/participants/0", code: "wrong_type", message: "expected a string, found number", severity: "error" });
    assert.equal(report.issues[99].path, "/participants/99");
    assert.deepEqual(sb.validateBytes(encode(message)).issues, report.issues);
    stillWorks();
  });

  test("input over 256 MiB is refused with a RangeError before it crosses", () => {
    const huge = " ".repeat(256 * 1024 * 1024 + 1);
    assert.throws(() => sb.validateJson(huge), RangeError);
    assert.throws(() => sb.validateBatch(huge), RangeError);
    assert.throws(() => sb.validateBytes(new Uint8Array(256 * 1024 * 1024 + 1)), RangeError);
    stillWorks();
  });

  test("invalid UTF-8 bytes give a not_json report", () => {
    for (const bytes of [[0xff], [0x7b, 0x22, 0x61, 0xc3, 0x22, 0x3a, 0x31, 0x7d], [0x22, 0xed, 0xa0, 0x80, 0x22]]) {
      const report = sb.validateBytes(new Uint8Array(bytes));
      assert.equal(report.issues[0].code, "not_json", String(bytes));
      stillWorks();
    }
  });

  test("lone surrogates: the text form is encoded (U+FFFD), the object form is escaped and refused", () => {
    assert.equal(sb.validateJson('{"type": "request_review", "context": "\uD800"}').valid, true);
    const escaped = sb.validate({ type: "request_review", context: "\uD800" });
    assert.equal(escaped.issues[0].code, "not_json");
    assert.deepEqual(escaped, sb.validateJson(JSON.stringify({ type: "request_review", context: "\uD800" })));
    stillWorks();
  });

  test("deep nesting gives not_json (the parser's depth limit), as text and as an object", () => {
    assert.equal(sb.validateJson("[".repeat(100000)).issues[0].code, "not_json");
    let deep = {};
    for (let i = 0; i < 1000; i++) deep = { a: deep };
    assert.equal(sb.validate(deep).issues[0].code, "not_json");
    // Deeper than JSON.stringify can go: its RangeError becomes the TypeError of a value with no JSON.
    for (let i = 0; i < 1_000_000; i++) deep = { a: deep };
    assert.throws(() => sb.validate(deep), TypeError);
    stillWorks();
  });

  test("wrong argument types and options throw a TypeError", () => {
    assert.throws(() => sb.validateJson(5), TypeError);
    assert.throws(() => sb.validateJson(encode("{}")), TypeError);
    assert.throws(() => sb.validateBytes("{}"), TypeError);
    assert.throws(() => sb.validateBytes([123, 125]), TypeError);
    assert.throws(() => sb.validateBatch(5), TypeError);
    assert.throws(() => sb.validate({}, 5), TypeError);
    assert.throws(() => sb.validate({}, { family: "nope" }), /unknown family "nope" \(expected one of: pair, agent-po, droid, pair-claude\)/);
    assert.throws(() => sb.validate({}, { lenient: "yes" }), TypeError);
    assert.throws(() => sb.jsonSchema("pair/NOPE"), TypeError);
    assert.throws(() => sb.schema("nope"), TypeError);
    assert.throws(() => sb.buildPaneSnapshot("[]"), TypeError);
    assert.throws(() => sb.buildPaneSnapshot({ inbox: "[]", outbox: "[]", contacts: "[]", acked: ["1"] }), TypeError);
    stillWorks();
  });

  test("other byte containers are read as bytes", () => {
    const text = `{"type": "request_review"}`;
    const bytes = encode(text);
    const expected = sb.validateJson(text);
    assert.deepEqual(sb.validateBytes(bytes.buffer), expected);
    assert.deepEqual(sb.validateBytes(Buffer.from(text)), expected);
    assert.deepEqual(sb.validateBytes(new DataView(bytes.buffer)), expected);
    const padded = encode(` ${text} `);
    assert.deepEqual(sb.validateBytes(padded.subarray(1, padded.length - 1)), expected);
  });

  test("pane errors throw and leave the module working", () => {
    const input = { inbox: "[]", outbox: "[]", contacts: "[]" };
    assert.throws(() => sb.buildPaneSnapshot({ ...input, mode: "sideways" }), /unsupported thread_filter_mode sideways/);
    assert.throws(() => sb.buildPaneSnapshot({ ...input, mode: "thread_only" }), /thread_only filter requires active_thread/);
    assert.throws(() => sb.buildPaneSummary({ ...input, acked: [1.5] }), /acknowledged id 1.5 is not an unsigned integer/);
    stillWorks();
  });
});

describe("schema objects", () => {
  const init = JSON.parse(fixture("valid/pair/01_PAIR_INIT.json"));

  test("implement Standard Schema v1 synchronously", () => {
    const s = sb.schemas["pair/PAIR_INIT"];
    assert.equal(s["~standard"].version, 1);
    assert.equal(s["~standard"].vendor, "switchboard");
    const ok = s["~standard"].validate(init);
    assert.ok(!(ok instanceof Promise));
    assert.equal(ok.value, init, "the value itself");
    assert.equal(ok.issues, undefined);
    const bad = s["~standard"].validate({ ...init, body: { ...init.body, task: "" } });
    assert.deepEqual(bad.issues, [
      { path: ["body", "task"], pointer: "/body/task", code: "empty_string", message: "must not be empty", severity: "error" },
    ]);
  });

  test("a type schema checks its own type without detection", () => {
    const draft = JSON.parse(fixture("valid/pair/02_CONTRACT_DRAFT.json"));
    assert.equal(sb.schemas["pair/CONTRACT_DRAFT"].safeParse(draft).success, true);
    const result = sb.schemas["pair/PAIR_INIT"].safeParse(draft);
    assert.equal(result.success, false);
    assert.deepEqual(result.error.issues[0].path, ["subject"]);
    assert.equal(result.error.issues[0].code, "not_in_enum");
  });

  test("array indexes are numbers in segments", () => {
    const req = JSON.parse(fixture("valid/pair/c1_CLARIFICATION_REQUEST.json"));
    req.body.questions[0].id = "";
    const result = sb.schemas.any.safeParse(req);
    assert.deepEqual(result.error.issues[0].path, ["body", "questions", 0, "id"]);
    assert.equal(result.error.issues[0].pointer, "/body/questions/0/id");
    // The same place, as validate() reports it.
    assert.equal(sb.validate(req).issues[0].path, "/body/questions/0/id");
  });

  test("family schemas pass the family hint; lenient schemas report warnings apart", () => {
    const hinted = sb.schemas.droid.safeParse({ sender_id: "x" });
    assert.equal(hinted.success, false);
    assert.ok(hinted.error.issues.some((i) => i.pointer === "/type" && i.code === "missing_field"));
    const cases = JSON.parse(fixture("invalid/cases.json"));
    const bare = cases.find((c) => c.rule === "CHANGE_ORDER without status/phase passes lenient with warnings");
    assert.equal(sb.schemas.pair.safeParse(bare.message).success, false);
    const lenient = sb.schema("pair", { lenient: true }).safeParse(bare.message);
    assert.equal(lenient.success, true);
    assert.deepEqual(lenient.warnings.map((w) => w.pointer), bare.warnings.map(([p]) => p));
    assert.equal(sb.schema("pair", { lenient: true }).lenient, true);
    assert.equal(sb.schema("pair"), sb.schemas.pair);
  });

  test("safeParse never throws; parse throws a SchemaError", () => {
    const cyclic = {};
    cyclic.c = cyclic;
    for (const value of [undefined, 1n, cyclic, () => 1]) {
      const result = sb.schemas.any.safeParse(value);
      assert.equal(result.success, false);
      assert.equal(result.error.issues[0].code, "not_json");
      assert.deepEqual(sb.schemas.any["~standard"].validate(value).issues[0].path, []);
    }
    assert.deepEqual(sb.schemas["pair/PAIR_INIT"].parse(init), init);
    assert.throws(
      () => sb.schemas["pair/PAIR_INIT"].parse({}),
      (err) => err instanceof sb.SchemaError && err.name === "SchemaError" && err.issues.length === 3 && /pair\/PAIR_INIT/.test(err.message),
    );
    stillWorks();
  });

  test("every key has a schema object", () => {
    let types = 0;
    for (const family of sb.families) {
      assert.ok(sb.schemas[family.name]);
      for (const type of family.types) {
        assert.equal(sb.schemas[`${family.name}/${type}`].key, `${family.name}/${type}`);
        types++;
      }
    }
    assert.equal(Object.keys(sb.schemas).length, 1 + sb.families.length + types);
  });

  test("expose Standard JSON Schema for draft 2020-12 only", () => {
    const s = sb.schemas["droid/task_assignment"];
    assert.deepEqual(s["~standard"].jsonSchema.input({ target: "draft-2020-12" }), sb.jsonSchema("droid/task_assignment"));
    assert.deepEqual(s["~standard"].jsonSchema.output({ target: "draft-2020-12" }), s.jsonSchema());
    assert.throws(() => s["~standard"].jsonSchema.input({ target: "draft-07" }), /not supported/);
  });
});

describe("JSON Schema", () => {
  test("one type, a family union and the union of all; ajv accepts the valid fixtures", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const any = ajv.compile(sb.jsonSchema());
    assert.deepEqual(sb.jsonSchema("any"), sb.jsonSchema());
    const progress = ajv.compile(sb.jsonSchema("agent-po/PROGRESS_UPDATE"));
    const family = ajv.compile(sb.jsonSchema("agent-po"));
    const value = JSON.parse(PROGRESS);
    assert.equal(any(value), true);
    assert.equal(progress(value), true);
    assert.equal(family(value), true);
    assert.equal(progress({ ...value, progress_percent: 140 }), false);
  });
});

describe("pane", () => {
  const golden = JSON.parse(readFileSync(join(ROOT, "core/tests/fixtures/pane-smoke/transcript.json"), "utf8"));

  test("the smoke transcript is the reference golden", () => {
    assert.deepEqual(sb.runPaneSmoke(), golden);
  });

  test("parse failure texts are serde_json's, as in native builds", () => {
    const snapshot = sb.buildPaneSnapshot({ inbox: "{not-json}", outbox: "[]", contacts: "[]" });
    assert.deepEqual(snapshot.parse_errors, ["parse_failure: inbox JSON: key must be a string at line 1 column 2"]);
  });

  test("payloads as text or values, and the summary, describe the same snapshot", () => {
    const step = golden.steps[0].snapshot;
    const dir = join(ROOT, "core/src/pane/smoke");
    const text = (name) => readFileSync(join(dir, name), "utf8");
    const input = {
      inbox: text("inbox.json"),
      outbox: text("outbox_before_reply.json"),
      contacts: text("contacts.json"),
      activeThread: step.active_thread,
      mode: step.thread_filter_mode,
    };
    const snapshot = sb.buildPaneSnapshot(input);
    const fromValues = sb.buildPaneSnapshot({
      ...input,
      inbox: JSON.parse(input.inbox),
      outbox: JSON.parse(input.outbox),
      contacts: JSON.parse(input.contacts),
    });
    assert.deepEqual(fromValues, snapshot);
    const summary = sb.buildPaneSummary(input);
    assert.deepEqual(summary, {
      inbox: snapshot.inbox.length,
      outbox: snapshot.outbox.length,
      threadMessages: snapshot.thread_messages.length,
      contacts: snapshot.contacts.length,
      pendingAckCount: snapshot.pending_ack_count,
      events: snapshot.events.length,
      parseErrors: snapshot.parse_errors,
      refreshFingerprintBytes: snapshot.refresh_fingerprint.length,
    });
  });
});

describe("validateBatch", () => {
  test("one report per non-blank line, as text or bytes, equal to validateJson per line", () => {
    const lines = [
      `{"type": "request_review"}`,
      "",
      JSON.stringify(JSON.parse(PROGRESS)),
      "   ",
      `{"type": "request_review", "context": 5}`,
      "{not json",
      JSON.stringify({ ...JSON.parse(PROGRESS), version_extra: 1, timestamp: "ISO8601" }),
    ];
    const jsonl = lines.join("\n");
    // Each line's report, with its input line; placed after as many newlines, a line that is
    // not JSON gets the same position in its message.
    const expected = lines
      .map((l, i) => ({ line: i + 1, text: l }))
      .filter(({ text }) => text.trim() !== "")
      .map(({ line, text }) => ({ line, ...sb.validateJson("\n".repeat(line - 1) + text, { lenient: true }) }));
    assert.deepEqual(sb.validateBatch(jsonl, { lenient: true }), expected);
    assert.deepEqual(sb.validateBatch(encode(jsonl), { lenient: true }), expected);
    assert.deepEqual(sb.validateBatch(""), []);
    assert.equal(expected[3].issues[0].code, "not_json");
    assert.match(expected[3].issues[0].message, / at line 6 column /);
    assert.equal(expected[4].issues[0].severity, "warning");
  });
});

test("families list the registry", () => {
  assert.deepEqual(
    sb.families.map((f) => [f.name, f.version]),
    [["pair", "3.1"], ["agent-po", "20.0"], ["droid", "1.0.0"], ["pair-claude", "1.0.0"]],
  );
  assert.ok(sb.families[0].types.includes("PAIR_INIT"));
  assert.ok(Object.isFrozen(sb.families));
});
