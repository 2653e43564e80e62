// The declared result types describe the real results: the outputs of sessions, taskBoards,
// decide, the gates, fingerprint, verifyFingerprints and audit on the fixtures are written into
// a TypeScript file as literals of their declared types and compiled with tsc --strict (a
// literal with a member the type lacks, or without one it requires, does not compile).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "node:test";
import { ROOT, FIXTURES, loadPackage, scratchProject } from "./support.mjs";

const sb = await loadPackage();
const SESSIONS = join(ROOT, "core/tests/fixtures/sessions");
const AUDIT = join(ROOT, "core/tests/fixtures/audit");
const read = (path) => readFileSync(path, "utf8");

function files(dir, out = []) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files(path, out);
    else out.push(path);
  }
  return out;
}

/** A log of every protocol fixture message (every family, valid and not), in file order. */
function fixtureLog() {
  return files(FIXTURES)
    .filter((p) => p.endsWith(".json") && !p.endsWith("manifest.json") && !p.endsWith("cases.json"))
    .map((p, i) => {
      const message = JSON.parse(read(p));
      const at = new Date(Date.UTC(2026, 0, 15, 10, i)).toISOString();
      return "body_md" in message ? message : { id: i + 1, from: `agent-${i % 3}`, to: ["PO"], subject: "msg", created_ts: at, ack_required: i % 4 === 0, body_md: JSON.stringify(message) };
    });
}

test("the declarations type every result of the fixtures", () => {
  const now = "2026-03-02T09:10:00Z";
  const logs = readdirSync(SESSIONS).filter((f) => /\.(json|jsonl)$/.test(f) && !/^(task|plan|report)_/.test(f));
  const mixed = fixtureLog();
  const sessions = [...logs.map((f) => sb.sessions(read(join(SESSIONS, f)), { now })), sb.sessions(mixed, { now })];
  const boards = [...logs.map((f) => sb.taskBoards(read(join(SESSIONS, f)), { now })), sb.taskBoards(mixed, { now: "2030-01-01T00:00:00Z" })];
  assert.ok(sessions.flat().some((s) => s.family === "agent-po"), "an Agent-PO session");
  assert.ok(boards.some((b) => Object.keys(b.droid.by_status).length > 0), "a droid board");
  assert.ok(sessions.flat().some((s) => s.violations.some((v) => v.issues)), "a violation with issues");
  const happy = read(join(SESSIONS, "pattern1_happy_path.jsonl")).split("\n").filter(Boolean);
  const decisions = ["APPROVED", "REVISE: add expiry tests", "ABORT"].map((d) => sb.decide(happy.slice(0, 2).join("\n"), "pair-auth-jwt", d));
  const task = read(join(SESSIONS, "task_TASK-042.json"));
  const gates = [
    sb.goGate(task, read(join(SESSIONS, "plan_TASK-042.json")), { now }),
    ...[0, 1, 2].map((fixes) => sb.nextGate(task, read(join(SESSIONS, "report_TASK-042.json")), { now, fixes })),
  ];
  const audits = readdirSync(join(AUDIT, "cases"))
    .filter((f) => f.endsWith(".json"))
    .map((f) => {
      const spec = JSON.parse(read(join(AUDIT, "cases", f)));
      const dir = join(AUDIT, "contracts", spec.contract);
      const contract = Object.fromEntries(files(dir).map((p) => [relative(dir, p), read(p)]));
      return sb.audit({ contract, diff: read(join(AUDIT, "cases", f.replace(/\.json$/, ".diff"))), approved: spec.approved });
    });
  const baseline = sb.fingerprint({ "tests/a.py": "a", "spec.md": "b" });
  const verification = sb.verifyFingerprints(baseline, sb.fingerprint({ "tests/a.py": "A", "tests/b.py": "" }));

  const literal = (value) => JSON.stringify(value, null, 1);
  const source = `import type { SessionView, Boards, DecisionMessage, GateOutcome, AuditReport, Fingerprints, Verification } from "switchboard-protocol";
export const sessions: SessionView[][] = ${literal(sessions)};
export const boards: Boards[] = ${literal(boards)};
export const decisions: DecisionMessage[][] = ${literal(decisions)};
export const gates: GateOutcome[] = ${literal(gates)};
export const audits: AuditReport[] = ${literal(audits)};
export const fingerprints: Fingerprints = ${literal(baseline)};
export const verification: Verification = ${literal(verification)};
`;
  const dir = mkdtempSync(join(scratchProject(), "types-"));
  writeFileSync(join(dir, "results.mts"), source);
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { strict: true, module: "nodenext", moduleResolution: "nodenext", target: "es2022", types: [], noEmit: true },
      files: ["results.mts"],
    }),
  );
  try {
    execFileSync(join(ROOT, "node_modules/.bin/tsc"), ["-p", dir], { cwd: dir, encoding: "utf8", maxBuffer: 1 << 26 });
  } catch (err) {
    assert.fail(`the results do not type-check:\n${err.stdout}${err.stderr}`.slice(0, 4000));
  }
});
