// Sessions, decisions, gates, fingerprints and audits from the installed tarball: the core's
// results, structured errors (SwitchboardError with a code) or TypeErrors for bad input, and a
// module that stays usable after either.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { ROOT, loadPackage } from "./support.mjs";

const sb = await loadPackage();
const SESSIONS = join(ROOT, "core/tests/fixtures/sessions");
const read = (name) => readFileSync(join(SESSIONS, name), "utf8");
const HAPPY = read("pattern1_happy_path.jsonl");
const ROWS = HAPPY.split("\n").filter((l) => l.trim() !== "");
/** The happy path up to the contract draft: checkpoint #1 open. */
const AT_REVIEW = ROWS.slice(0, 2).join("\n");
const NOW = "2026-03-02T09:10:00Z";

/** The error `f` throws, checked to be a SwitchboardError with `code`. */
function refused(f, code) {
  let error;
  assert.throws(f, (e) => {
    error = e;
    return e instanceof sb.SwitchboardError && e.name === "SwitchboardError" && e.code === code;
  });
  assert.equal(typeof error.message, "string");
  assert.ok(error.message.length > 0);
  return error;
}

function stillWorks() {
  assert.equal(sb.validateJson(`{"type": "request_review"}`).valid, true);
  assert.equal(sb.sessions(HAPPY, { now: NOW })[0].phase, "MERGED");
}

describe("sessions", () => {
  test("a Pair session log: phase, roles, checkpoints and timeline", () => {
    const [session] = sb.sessions(HAPPY, { now: "2026-03-03T00:00:00Z" });
    assert.equal(session.family, "pair");
    assert.equal(session.session_id, "pair-auth-jwt");
    assert.equal(session.phase, "MERGED");
    assert.equal(session.status, "merged");
    assert.deepEqual(session.roles, { builder: "GreenCastle", planner: "BlueLake" });
    assert.deepEqual(
      session.checkpoints.map((c) => [c.checkpoint, c.decision]),
      [["contract_review", "APPROVED"], ["implementation_review", "MERGE APPROVED"]],
    );
    assert.equal(session.timeline.length, ROWS.length);
    assert.deepEqual(session.violations, []);
  });

  test("the open checkpoint and what is due at now", () => {
    const [session] = sb.sessions(AT_REVIEW, { now: NOW });
    assert.equal(session.open_checkpoint, "contract_review");
    assert.deepEqual(
      session.decisions.map((d) => [d.decision, d.requires]),
      [["APPROVED", null], ["REVISE", "feedback"], ["ABORT", null]],
    );
  });

  test("now as a Date, milliseconds or a string gives one result; it is required", () => {
    const ms = Date.parse(NOW);
    const fromString = sb.sessions(AT_REVIEW, { now: NOW });
    assert.deepEqual(sb.sessions(AT_REVIEW, { now: new Date(ms) }), fromString);
    assert.deepEqual(sb.sessions(AT_REVIEW, { now: ms + 0.9 }), fromString);
    assert.deepEqual(sb.sessions(AT_REVIEW, { now: "2026-03-02T11:10:00+02:00" }), fromString);
    for (const bad of [undefined, null, {}, { now: "yesterday" }, { now: Number.NaN }, { now: 1e300 }, { now: new Date("x") }, { now: [] }]) {
      assert.throws(() => sb.sessions(AT_REVIEW, bad), TypeError, JSON.stringify(bad));
    }
    stillWorks();
  });

  test("a log as text, bytes, a parsed array or a server payload", () => {
    const rows = ROWS.map((l) => JSON.parse(l));
    const expected = sb.sessions(HAPPY, { now: NOW });
    assert.deepEqual(sb.sessions(new TextEncoder().encode(HAPPY), { now: NOW }), expected);
    assert.deepEqual(sb.sessions(rows, { now: NOW }), expected);
    assert.deepEqual(sb.sessions({ messages: rows }, { now: NOW }), expected);
    assert.deepEqual(sb.sessions(JSON.stringify({ result: rows }), { now: NOW }), expected);
  });

  test("a log that cannot be read is a structured error", () => {
    const error = refused(() => sb.sessions("[1,", { now: NOW }), "bad_log");
    assert.deepEqual(error.details, { line: 1, column: 3 });
    refused(() => sb.sessions("  \n", { now: NOW }), "empty_log");
    assert.throws(() => sb.sessions(42, { now: NOW }), TypeError);
    assert.throws(() => sb.sessions(AT_REVIEW, { now: NOW, lenient: "yes" }), TypeError);
    stillWorks();
  });

  test("task boards: droid tasks, Pair Claude requests, acknowledgement debt", () => {
    const assignment = JSON.parse(readFileSync(join(ROOT, "core/tests/fixtures/protocol/valid/droid/01_task_assignment.json"), "utf8"));
    const log = [
      { id: 1, subject: "task", from: "orchestrator", to: ["droid-1"], created_ts: "2025-12-25T12:00:00Z", ack_required: true, body_md: JSON.stringify(assignment) },
      { type: "request_review", context: "PR 12" },
    ];
    const boards = sb.taskBoards(log, { now: "2025-12-26T00:00:00Z", permissionTimeoutMs: 45000 });
    const [row] = boards.droid.by_status.assigned;
    assert.equal(row.task_id, assignment.task_id);
    assert.equal(row.overdue, false);
    assert.equal(boards.pair_claude.reviews.length, 1);
    assert.equal(boards.pair_claude.config.permission_timeout_ms, 45000);
    assert.deepEqual(boards.ack_debt.map((d) => [d.agent, d.waiting]), [["droid-1", 1]]);
    assert.throws(() => sb.taskBoards(log, { now: 0, permissionTimeoutMs: -1 }), TypeError);
  });
});

describe("decide", () => {
  test("a decision gives the messages it implies, each a valid protocol message", () => {
    const messages = sb.decide(AT_REVIEW, "pair-auth-jwt", "APPROVED");
    assert.deepEqual(messages.map((m) => [m.from, m.to, m.subject]), [["BlueLake", "GreenCastle", "CONTRACT_FINAL"]]);
    const revise = sb.decide(AT_REVIEW, "pair-auth-jwt", "REVISE: add expiry tests");
    // REVISE is the planner's work: a note from the planner to itself, the builder told nothing.
    assert.deepEqual(
      revise.map((m) => [m.from, m.to, m.subject, m.body.feedback]),
      [["BlueLake", "BlueLake", "CONTRACT_REVISION_REQUESTED", "add expiry tests"]],
    );
    for (const m of [...messages, ...revise]) {
      const { from, ...message } = m;
      assert.equal(typeof from, "string");
      assert.equal(sb.validate(message).valid, true, JSON.stringify(message));
    }
  });

  test("a decision the checkpoint does not take is a structured error", () => {
    const unknown = refused(() => sb.decide(AT_REVIEW, "pair-auth-jwt", "LGTM"), "unknown_decision");
    assert.deepEqual(unknown.details, { input: "LGTM", allowed: ["APPROVED", "REVISE: <feedback>", "ABORT"] });
    const notHere = refused(() => sb.decide(AT_REVIEW, "pair-auth-jwt", "MERGE APPROVED"), "decision_not_allowed");
    assert.deepEqual(notHere.details, { decision: "MERGE APPROVED", checkpoint: "contract_review" });
    refused(() => sb.decide(AT_REVIEW, "pair-auth-jwt", "REVISE"), "missing_text");
    refused(() => sb.decide(HAPPY, "pair-auth-jwt", "APPROVED"), "no_open_checkpoint");
    const unknownSession = refused(() => sb.decide(AT_REVIEW, "pair-x", "APPROVED"), "unknown_session");
    assert.deepEqual(unknownSession.details, { sessions: ["pair-auth-jwt"] });
    // Bare messages (no Agent Mail `from`): the PAIR_INIT is there, the planner's name is not.
    const bare = ROWS.slice(0, 2).map((row) => {
      const { to, subject, body_md } = JSON.parse(row);
      return { to: to[0], subject, body: JSON.parse(body_md) };
    });
    const [bareSession] = sb.sessions(bare, { now: NOW });
    const unaddressed = refused(() => sb.decide(bare, bareSession.session_id, "APPROVED"), "unknown_roles");
    assert.deepEqual(unaddressed.details, { role: "planner" });
    assert.match(unaddressed.message, /planner is not known/);
    assert.throws(() => sb.decide(AT_REVIEW, 7, "APPROVED"), TypeError);
    assert.throws(() => sb.decide(AT_REVIEW, "pair-auth-jwt"), TypeError);
    stillWorks();
  });
});

describe("gates", () => {
  const task = read("task_TASK-042.json");
  const plan = read("plan_TASK-042.json");
  const report = read("report_TASK-042.json");
  const now = "2026-01-15T10:00:00Z";

  test("GO and NEXT: verdict, problems and a valid directive", () => {
    const go = sb.goGate(task, plan, { now });
    assert.ok(["GO", "FEEDBACK"].includes(go.verdict));
    assert.equal(sb.validate(go.directive).valid, true);
    assert.equal(go.directive.timestamp, now);
    assert.deepEqual(sb.goGate(JSON.parse(task), JSON.parse(plan), { now: Date.parse(now) }), go);
    const next = sb.nextGate(task, report, { now, fixes: 0 });
    assert.ok(["NEXT", "FIX", "BLOCKED"].includes(next.verdict));
    assert.equal(sb.validate(next.directive).valid, true);
    for (const p of next.problems) assert.equal(typeof p.message, "string");
    const authorized = sb.nextGate(task, report, { now, authorized: ["src/**"] });
    assert.equal(sb.validate(authorized.directive).valid, true);
  });

  test("the wrong message, an invalid one, or a bad task is a structured error", () => {
    refused(() => sb.goGate(task, report, { now }), "wrong_message");
    const invalid = refused(() => sb.goGate(task, { ...JSON.parse(plan), timestamp: "yesterday" }, { now }), "invalid_message");
    assert.equal(invalid.details.report.valid, false);
    assert.equal(invalid.details.report.issues[0].path, "/timestamp");
    refused(() => sb.goGate(task, "{", { now }), "not_json");
    refused(() => sb.goGate({ task_id: "nope", acceptance_criteria: [], file_scope: [] }, plan, { now }), "bad_task");
    refused(() => sb.nextGate({ ...JSON.parse(task), task_id: "TASK-999" }, report, { now }), "task_mismatch");
    assert.throws(() => sb.nextGate(task, report, { now, fixes: -1 }), TypeError);
    assert.throws(() => sb.goGate(task, plan), TypeError);
    stillWorks();
  });
});

describe("fingerprints", () => {
  const files = { "tests/test_auth.py": "def test_login():\n    assert login('a', 'b')\n", "spec.md": new TextEncoder().encode("# Auth\n") };

  test("fingerprint and verify: intact, then each change named", () => {
    const baseline = sb.fingerprint(files);
    assert.deepEqual(Object.keys(baseline), ["spec.md", "tests/test_auth.py"]);
    for (const digest of Object.values(baseline)) assert.match(digest, /^sha256:[0-9a-f]{64}$/);
    assert.deepEqual(sb.fingerprint(new Map(Object.entries(files))), baseline);
    assert.deepEqual(sb.verifyFingerprints(baseline, sb.fingerprint(files)), { intact: true, tampered: [] });
    const changed = sb.fingerprint({ "./tests/test_auth.py": "def test_login():\n    pass\n", "tests/conftest.py": "" });
    const result = sb.verifyFingerprints(JSON.stringify(baseline), changed);
    assert.equal(result.intact, false);
    assert.deepEqual(result.tampered.map((t) => [t.path, t.change, t.code]), [
      ["spec.md", "missing", "CONTRACT_TAMPERED"],
      ["tests/conftest.py", "added", "CONTRACT_TAMPERED"],
      ["tests/test_auth.py", "modified", "CONTRACT_TAMPERED"],
    ]);
  });

  test("bad paths and bad fingerprints are structured errors", () => {
    refused(() => sb.fingerprint({ "../etc/passwd": "x" }), "bad_path");
    refused(() => sb.fingerprint({ "/abs": "x" }), "bad_path");
    refused(() => sb.verifyFingerprints({ a: "md5:00" }, {}), "bad_fingerprints");
    refused(() => sb.verifyFingerprints("[]", {}), "bad_fingerprints");
    assert.throws(() => sb.fingerprint("x"), TypeError);
    assert.throws(() => sb.fingerprint({ a: 5 }), TypeError);
    stillWorks();
  });
});

describe("audit", () => {
  const contract = {
    "tests/test_price.py": "from app.price import price\n\ndef test_price():\n    assert price(5) == 120\n",
    "spec.md": "Price of n items.\n",
  };
  const diff = [
    "diff --git a/app/price.py b/app/price.py",
    "--- a/app/price.py",
    "+++ b/app/price.py",
    "@@ -1,2 +1,4 @@",
    " def price(n):",
    "+    if n == 5:",
    "+        return 120",
    "     return n * 10",
    "",
  ].join("\n");

  test("a hard-coded test expectation fails the audit; the report is a valid AUDIT_REPORT", () => {
    const report = sb.audit({ contract, diff });
    assert.equal(report.status, "FAIL");
    assert.equal(report.scheming_detected, true);
    assert.deepEqual(report.issues.map((i) => [i.pattern, i.location, i.code]), [
      ["hardcoded-test-expectation", "app/price.py:2", "SCHEMING_DETECTED"],
    ]);
    assert.equal(sb.validate(report).messageType, "AUDIT_REPORT");
    assert.equal(sb.validate(report).valid, true);
    const cleanDiff = diff.replace("+1,4 @@", "+1,3 @@").replace("+    if n == 5:\n+        return 120\n", "+    # priced per item\n");
    const clean = sb.audit({ contract, diff: cleanDiff, approved: [] });
    assert.equal(clean.status, "PASS");
    assert.deepEqual(clean.issues, []);
  });

  test("text that is not a diff is a structured error", () => {
    refused(() => sb.audit({ contract, diff: "hello" }), "not_a_diff");
    const malformed = refused(() => sb.audit({ contract, diff: diff.replace("+1,4 @@", "+1,9 @@") }), "malformed_diff");
    assert.deepEqual(malformed.details, { index: 1 });
    refused(() => sb.audit({ contract: { "/x": "" }, diff }), "bad_path");
    assert.throws(() => sb.audit({ contract, diff: 5 }), TypeError);
    assert.throws(() => sb.audit({ contract, diff, approved: "left-pad" }), TypeError);
    stillWorks();
  });
});
