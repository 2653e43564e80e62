// The builders and error replies of the packed package: every valid bare message of the corpus
// rebuilt from its own fields (what the protocol derives given as options) comes out equal, a
// droid id is a fresh `msg-<uuid v4>`; the refusals keep the package's contract (TypeError for
// a wrong argument, SwitchboardError with a stable code for what the core refuses); each
// family's error reply; and parseJson / safeParseJson, one pass from text to typed data.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { FIXTURES, TASK_FIELDS, fixtureFiles, loadPackage } from "./support.mjs";

const sb = await loadPackage();
const UUID_V4 = /^msg-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;


/** Every valid bare message of the corpus with its key. */
function validMessages() {
  const out = [];
  for (const file of fixtureFiles()) {
    if (!file.startsWith("valid/") || file.includes("carried")) continue;
    const value = JSON.parse(readFileSync(join(FIXTURES, file), "utf8"));
    const report = sb.validate(value);
    if (report.valid && report.issues.length === 0) out.push({ file, key: `${report.family}/${report.messageType}`, value });
  }
  return out;
}

/** A message's own fields and the options that derive the rest, as a builder user gives them. */
function split(key, value) {
  const family = key.split("/")[0];
  const fields = { ...value };
  const options = {};
  const take = (member, option) => {
    if (member in fields) {
      options[option] = fields[member];
      delete fields[member];
    }
  };
  // A Pair message is built from its body; AUDIT_REPORT (audit_report.json) has none: bare.
  if (family === "pair" && value.body) return { fields: value.body, options: { to: value.to } };
  if (family === "droid") {
    take("timestamp", "now");
    take("sender_id", "sender");
    delete fields.message_id;
  }
  if (family === "agent-po") {
    take("timestamp", "now");
    take("agent_id", "agentId");
    take("task_id", "taskId");
  }
  return { fields, options };
}

test("every valid message of the corpus is rebuilt from its own fields", () => {
  const rebuilt = new Set();
  for (const { file, key, value } of validMessages()) {
    const { fields, options } = split(key, value);
    if (options.now !== undefined && sb.validateJson(JSON.stringify(value)).issues.length) continue;
    const built = sb.build(key, fields, options);
    const family = key.split("/")[0];
    if (family === "droid") {
      assert.match(built.message_id, UUID_V4, file);
      built.message_id = value.message_id;
    }
    // Times are written back as the core prints them (UTC); compare as instants.
    if (options.now !== undefined) {
      assert.equal(Date.parse(built.timestamp), Date.parse(value.timestamp), file);
      built.timestamp = value.timestamp;
    }
    assert.deepEqual(built, value, file);
    assert.equal(sb.validate(built).valid, true, file);
    rebuilt.add(key);
  }
  assert.ok(rebuilt.size >= 25, `${rebuilt.size} types rebuilt`);
  assert.ok(rebuilt.has("pair/AUDIT_REPORT"), "the bare audit report is rebuilt too");
});

test("what the protocol derives comes from the options, the clock and crypto by default", () => {
  const before = Date.now();
  const task = sb.build("droid/task_assignment", TASK_FIELDS, { sender: "orchestrator" });
  assert.equal(task.version, "1.0.0");
  assert.equal(task.type, "task_assignment");
  assert.equal(task.sender_id, "orchestrator");
  assert.match(task.message_id, UUID_V4);
  assert.ok(Date.parse(task.timestamp) >= before - 1000 && task.timestamp.endsWith("Z"));
  assert.notEqual(sb.build("droid/task_assignment", TASK_FIELDS, { sender: "o" }).message_id, task.message_id);
  const fixed = sb.build("droid/task_assignment", TASK_FIELDS, { sender: "o", now: new Date(Date.UTC(2026, 0, 15, 10)), random: new Uint8Array(16) });
  assert.equal(fixed.timestamp, "2026-01-15T10:00:00Z");
  assert.equal(fixed.message_id, "msg-00000000-0000-4000-8000-000000000000");
  // A member in the fields is not derived again: no now, no random.
  const own = sb.build("droid/task_assignment", { ...TASK_FIELDS, timestamp: "2026-01-15T10:00:00Z", message_id: fixed.message_id }, { sender: "o" });
  assert.equal(own.timestamp, "2026-01-15T10:00:00Z");
  assert.equal(own.message_id, fixed.message_id);
  const init = sb.build("pair/PAIR_INIT", { protocol_version: "3.1", task: "Add login", my_role: "PLANNER", your_role: "BUILDER" }, { to: "bob" });
  assert.deepEqual(init, {
    to: "bob",
    subject: "PAIR_INIT",
    body: { protocol_version: "3.1", task: "Add login", my_role: "PLANNER", your_role: "BUILDER", status: "INITIALIZED" },
  });
});

function refusal(fn) {
  try {
    fn();
  } catch (err) {
    return err;
  }
  assert.fail("expected a throw");
}

test("the builders' bad input: TypeError for wrong arguments, SwitchboardError for refusals", () => {
  const missing = refusal(() => sb.build("droid/task_assignment", { task_id: "bd-42" }, { sender: "o" }));
  assert.ok(missing instanceof sb.SwitchboardError);
  assert.equal(missing.code, "invalid_message");
  assert.deepEqual(
    missing.details.report.issues.map((i) => [i.path, i.code]),
    [
      ["/description", "missing_field"],
      ["/specification", "missing_field"],
      ["/file_patterns", "missing_field"],
      ["/priority", "missing_field"],
      ["/priority_value", "missing_field"],
    ],
  );
  assert.equal(missing.details.built.task_id, "bd-42");
  const noSender = refusal(() => sb.build("droid/task_assignment", TASK_FIELDS));
  assert.equal(noSender.code, "missing_option");
  assert.deepEqual(noSender.details, { member: "sender_id", option: "sender" });
  const emptySender = refusal(() => sb.build("droid/task_assignment", TASK_FIELDS, { sender: "" }));
  assert.equal(emptySender.code, "invalid_message");
  assert.equal(emptySender.details.report.issues[0].path, "/sender_id");
  const both = refusal(() => sb.build("droid/task_assignment", { ...TASK_FIELDS, sender_id: "a" }, { sender: "b" }));
  assert.equal(both.code, "conflict");
  for (const [fn, pattern] of [
    [() => sb.build("droid/nope", TASK_FIELDS, { sender: "o" }), /family\/TYPE key/],
    [() => sb.build("droid", TASK_FIELDS, { sender: "o" }), /family\/TYPE key/],
    [() => sb.build(5, TASK_FIELDS), /family\/TYPE key/],
    [() => sb.build("droid/task_assignment", [1]), /fields must be an object/],
    [() => sb.build("droid/task_assignment", null), /fields must be an object/],
    [() => sb.build("droid/task_assignment", TASK_FIELDS, { sender: 5 }), /options.sender must be a string/],
    [() => sb.build("droid/task_assignment", TASK_FIELDS, { sender: "o", now: "yesterday" }), /is not a time/],
    [() => sb.build("droid/task_assignment", TASK_FIELDS, { sender: "o", now: NaN }), /is not a time/],
    [() => sb.build("droid/task_assignment", TASK_FIELDS, { sender: "o", random: new Uint8Array(3) }), /16 bytes/],
    [() => sb.build("droid/task_assignment", TASK_FIELDS, "o"), /options must be an object/],
  ]) {
    assert.throws(fn, (err) => err instanceof TypeError && pattern.test(err.message));
  }
  // The module stays usable.
  assert.equal(sb.build("droid/task_assignment", TASK_FIELDS, { sender: "o" }).type, "task_assignment");
});

test("error replies: droid rejection and error_report, Agent-PO ERROR, and the refusals", () => {
  const options = { sender: "worker", now: "2026-01-15T10:00:00Z", random: new Uint8Array(16).fill(7) };
  const task = sb.build("droid/task_assignment", TASK_FIELDS, { sender: "orchestrator" });
  const bad = { ...task, priority_value: 3 };
  const droid = sb.errorReply(sb.validate(bad), bad, options);
  assert.equal(droid.family, "droid");
  assert.equal(droid.reject.error, "invalid_format");
  assert.equal(droid.reject.message_id, task.message_id);
  assert.match(droid.reject.details, /^\/priority_value: /);
  assert.equal(droid.error_report.type, "error_report");
  assert.equal(droid.error_report.sender_id, "worker");
  assert.equal(droid.error_report.timestamp, "2026-01-15T10:00:00Z");
  assert.equal(droid.error_report.error.context.original_message_id, task.message_id);
  assert.equal(sb.validate(droid.error_report).valid, true);
  // The original as text gives the same reply.
  assert.deepEqual(sb.errorReply(sb.validateJson(JSON.stringify(bad)), JSON.stringify(bad), options), droid);
  const major = { ...task, version: "2.0.0" };
  assert.equal(sb.errorReply(sb.validate(major), major, options).reject.error, "version_mismatch");
  const unknown = { ...task, type: "task_teleport" };
  const unknownReply = sb.errorReply(sb.validate(unknown), unknown, options);
  assert.equal(unknownReply.reject, undefined);
  assert.equal(unknownReply.error_report.error.code, "UNKNOWN_MESSAGE_TYPE");

  const update = { message_type: "PROGRESS_UPDATE", agent_id: "agent-7f3a", task_id: "TASK-042", timestamp: "2026-01-15T10:00:00Z", status: "testing", progress_percent: 140, current_activity: "Running tests" };
  const po = sb.errorReply(sb.validate(update), update, { now: 0 });
  assert.equal(po.family, "agent-po");
  assert.equal(po.error.message_type, "ERROR");
  assert.equal(po.error.error.code, "INVALID_MESSAGE");
  assert.equal(po.error.error.original_message_type, "PROGRESS_UPDATE");
  assert.equal(sb.validate(po.error).valid, true);

  assert.equal(refusal(() => sb.errorReply(sb.validate(task), task, options)).code, "message_valid");
  const pair = { to: "b", subject: "PAIR_INIT", body: {} };
  const none = refusal(() => sb.errorReply(sb.validate(pair), pair, options));
  assert.equal(none.code, "no_error_reply");
  assert.equal(none.details.family, "pair");
  assert.equal(refusal(() => sb.errorReply(sb.validate(bad), bad, { now: 0 })).code, "missing_option");
  const forged = { valid: false, family: "droid", messageType: null, version: null, issues: [{ path: "/x", code: "no_such_code", message: "m", severity: "error" }] };
  assert.equal(refusal(() => sb.errorReply(forged, bad, options)).code, "bad_report");
  assert.throws(() => sb.errorReply("report", bad, options), TypeError);
  assert.throws(() => sb.errorReply(sb.validate(bad), bad, { ...options, family: "mail" }), TypeError);
  assert.throws(() => sb.errorReply(sb.validate(bad), undefined, options), TypeError);
});

test("parseJson and safeParseJson: one pass from text to typed data", () => {
  const task = sb.build("droid/task_assignment", TASK_FIELDS, { sender: "o" });
  const text = JSON.stringify(task);
  const parsed = sb.parseJson(text);
  assert.deepEqual(parsed, { ok: true, key: "droid/task_assignment", value: task, report: sb.validateJson(text) });
  const bad = JSON.stringify({ ...task, priority_value: 3 });
  const failed = sb.parseJson(bad);
  assert.equal(failed.ok, false);
  assert.equal(failed.value.priority_value, 3);
  assert.deepEqual(failed.report, sb.validateJson(bad));
  const notJson = sb.parseJson("{nope");
  assert.equal(notJson.ok, false);
  assert.equal(notJson.value, undefined);
  assert.equal(notJson.report.issues[0].code, "not_json");
  assert.deepEqual(sb.parseJson(text, { family: "pair" }).ok, false);
  assert.throws(() => sb.parseJson(task), TypeError);

  const schema = sb.schemas["droid/task_assignment"];
  assert.deepEqual(schema.safeParseJson(text), { success: true, data: task, warnings: [] });
  const r = schema.safeParseJson(bad);
  assert.equal(r.success, false);
  assert.deepEqual(r.error.issues.map((i) => i.path), [["priority_value"]]);
  assert.deepEqual(schema.safeParseJson(bad).error.issues, schema.safeParse(JSON.parse(bad)).error.issues);
  assert.equal(schema.safeParseJson("[").error.issues[0].code, "not_json");
  assert.throws(() => schema.safeParseJson({}), TypeError);
});
