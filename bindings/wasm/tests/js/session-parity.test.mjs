// Parity with the CLI: `sessions(log, {now})` is `switchboard session FILE --now … --compact`
// and `taskBoards(log, {now})` is `switchboard tasks FILE --now … --compact` on every log of
// core/tests/fixtures/sessions; the gates are `switchboard gate go|next`; `audit` is
// `switchboard audit --compact` on every case of core/tests/fixtures/audit; `fingerprint` is
// `switchboard fingerprint DIR --compact` on each audit contract.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "node:test";
import { ROOT, cliBinary, loadPackage } from "./support.mjs";

const sb = await loadPackage();
const cli = cliBinary();
const SESSIONS = join(ROOT, "core/tests/fixtures/sessions");
const AUDIT = join(ROOT, "core/tests/fixtures/audit");
const NOWS = ["2026-01-01T00:00:00Z", "2026-03-02T09:10:00Z", "2026-03-03T09:40:00Z", "2026-03-05T10:30:00Z", "2027-01-01T00:00:00Z"];

function run(args) {
  const out = spawnSync(cli, args, { encoding: "utf8", maxBuffer: 1 << 26 });
  assert.ok(out.status === 0 || out.status === 1, `${args.join(" ")}: exit ${out.status}: ${out.stderr}`);
  return JSON.parse(out.stdout);
}

/** The session logs of the fixtures (task, plan and report files are gate inputs). */
function logs() {
  return readdirSync(SESSIONS)
    .filter((f) => /\.(json|jsonl)$/.test(f) && !/^(task|plan|report)_/.test(f))
    .sort();
}

test("sessions and task boards equal the CLI on every session fixture, at several times", () => {
  const files = logs();
  assert.ok(files.length >= 4, files.join(", "));
  let compared = 0;
  for (const file of files) {
    const path = join(SESSIONS, file);
    const text = readFileSync(path, "utf8");
    for (const now of NOWS) {
      assert.deepEqual(sb.sessions(text, { now }), run(["session", path, "--now", now, "--compact"]), `${file} at ${now}`);
      assert.deepEqual(sb.taskBoards(text, { now }), run(["tasks", path, "--now", now, "--compact"]), `${file} tasks at ${now}`);
      compared++;
    }
  }
  assert.ok(compared >= 20, `${compared} comparisons`);
});

test("the gates equal the CLI", () => {
  const task = join(SESSIONS, "task_TASK-042.json");
  const plan = join(SESSIONS, "plan_TASK-042.json");
  const report = join(SESSIONS, "report_TASK-042.json");
  const now = "2026-01-15T10:00:00Z";
  const text = (p) => readFileSync(p, "utf8");
  assert.deepEqual(sb.goGate(text(task), text(plan), { now }), run(["gate", "go", "--task", task, "--plan", plan, "--now", now, "--compact"]));
  for (const fixes of [0, 1, 2]) {
    assert.deepEqual(
      sb.nextGate(text(task), text(report), { now, fixes }),
      run(["gate", "next", "--task", task, "--report", report, "--fixes", String(fixes), "--now", now, "--compact"]),
      `fixes ${fixes}`,
    );
  }
});

/** Every file under `dir`, by path relative to it, as bytes. */
function tree(dir, root = dir, out = {}) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) tree(path, root, out);
    else out[relative(root, path).split("\\").join("/")] = readFileSync(path);
  }
  return out;
}

test("audits and fingerprints equal the CLI on every audit fixture", () => {
  const cases = readdirSync(join(AUDIT, "cases")).filter((f) => f.endsWith(".json"));
  assert.ok(cases.length >= 30, `${cases.length} cases`);
  const contracts = new Map();
  for (const name of cases) {
    const spec = JSON.parse(readFileSync(join(AUDIT, "cases", name), "utf8"));
    const dir = join(AUDIT, "contracts", spec.contract);
    if (!contracts.has(dir)) {
      contracts.set(dir, tree(dir));
      assert.deepEqual(sb.fingerprint(contracts.get(dir)), run(["fingerprint", dir, "--compact"]), spec.contract);
    }
    const diffPath = join(AUDIT, "cases", name.replace(/\.json$/, ".diff"));
    const args = ["audit", "--contract", dir, "--diff", diffPath, "--compact"];
    for (const dep of spec.approved) args.push("--allow-dependency", dep);
    const expected = run(args);
    // The CLI also parses the contract's test files (TEST_SYNTAX_ERROR) and says so in a note;
    // the package has no parser (docs/protocol.md, "Test files that do not parse"). The
    // fixtures' tests all parse, so the rest is the same.
    const syntaxNote = expected.notes.findIndex((n) => n.startsWith("syntax: "));
    assert.match(expected.notes[syntaxNote], /, 0 with errors$/, name);
    expected.notes.splice(syntaxNote, 1);
    const got = sb.audit({ contract: contracts.get(dir), diff: readFileSync(diffPath, "utf8"), approved: spec.approved });
    assert.deepEqual(got, expected, name);
  }
});
