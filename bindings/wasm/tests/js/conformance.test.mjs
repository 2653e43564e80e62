// conformance(log, options) from the installed tarball: the CLI's report (`switchboard
// conformance --compact`) on the same log, agents and baseline; the limits as options;
// structured errors for a bad agents list or baseline, TypeErrors for bad options.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { ROOT, cliBinary, loadPackage } from "./support.mjs";

const sb = await loadPackage();
const cli = cliBinary();
const CONFORMANCE = join(ROOT, "core/tests/fixtures/conformance");
const SESSIONS = join(ROOT, "core/tests/fixtures/sessions");
const MIXED = readFileSync(join(CONFORMANCE, "mixed.jsonl"), "utf8");
const AGENTS = JSON.parse(readFileSync(join(CONFORMANCE, "agents.json"), "utf8"));

function run(args) {
  const out = spawnSync(cli, ["conformance", ...args, "--compact"], { encoding: "utf8", maxBuffer: 1 << 26 });
  assert.ok(out.status === 0 || out.status === 1, `${args.join(" ")}: exit ${out.status}: ${out.stderr}`);
  return { report: JSON.parse(out.stdout), status: out.status };
}

/** The error `f` throws, checked to be a SwitchboardError with `code`. */
function refused(f, code) {
  let error;
  assert.throws(f, (e) => {
    error = e;
    return e instanceof sb.SwitchboardError && e.code === code;
  });
  assert.ok(error.message.length > 0);
  return error;
}

const levels = (report) => Object.fromEntries(report.agents.map((a) => [a.agent, a.level]));

test("the report equals the CLI's, with and without agents and a baseline", () => {
  const dir = mkdtempSync(join(tmpdir(), "sb-conformance-"));
  const agentsFile = join(dir, "agents.json");
  writeFileSync(agentsFile, JSON.stringify(AGENTS));
  const baseline = [
    "bob:004.security.secrets",
    "*:droid.task.priority-consistent",
    { agent: "nav-bot", rule: "003.overview.roles" },
    "ghost:004.overview.json",
  ];
  const baselineFile = join(dir, "baseline.json");
  writeFileSync(baselineFile, JSON.stringify(baseline));
  const path = join(CONFORMANCE, "mixed.jsonl");

  const plain = sb.conformance(MIXED);
  assert.deepEqual(plain, run([path]).report);
  const withAgents = sb.conformance(MIXED, { agents: AGENTS });
  assert.deepEqual(withAgents, run([path, "--agents", agentsFile]).report);
  assert.equal(withAgents.agents.find((a) => a.agent === "intruder").registered, false);
  const cli = run([path, "--agents", agentsFile, "--baseline", baselineFile]);
  const js = sb.conformance(MIXED, { agents: AGENTS, baseline });
  assert.deepEqual(js, cli.report);
  assert.equal(js.conforms, cli.status === 0);
  // nav-bot's listed failure passes: stale, and the log does not conform; ghost sent nothing.
  assert.deepEqual(js.baseline.stale, [{ agent: "nav-bot", id: "003.overview.roles" }]);
  assert.deepEqual(js.baseline.unused, [{ agent: "ghost", id: "004.overview.json" }]);
  assert.equal(js.conforms, false);
  // A check id stands for the rules it breaks.
  assert.ok(js.baseline.expected.some((e) => e.agent === "orchestrator" && e.id === "004.assignment.priority-value"));
  // Per level: how many MUST rules each agent was actually tested on.
  for (const a of js.agents) assert.ok(a.must.tested <= a.must.applicable, a.agent);
  assert.ok(js.totals.must.tested > 0 && js.totals.exempt > 0);
  // The agents as Agent Mail rows, or a server's reply; bytes and a parsed log: the same report.
  assert.deepEqual(sb.conformance(MIXED, { agents: { result: AGENTS.map((name) => ({ name, program: "x" })) } }), withAgents);
  assert.deepEqual(sb.conformance(new TextEncoder().encode(MIXED), { agents: AGENTS }), withAgents);
  const parsed = MIXED.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
  assert.deepEqual(sb.conformance(parsed, { agents: AGENTS }), withAgents);
  // Levels as the seeds give them (core/tests/fixtures/conformance/expected.json).
  const expected = JSON.parse(readFileSync(join(CONFORMANCE, "expected.json"), "utf8")).agents;
  for (const [agent, want] of Object.entries(expected)) assert.equal(levels(withAgents)[agent], want.level, agent);
});

test("every session fixture gives the CLI's report", () => {
  const files = readdirSync(SESSIONS).filter((f) => /\.(json|jsonl)$/.test(f) && !/^(task|plan|report)_/.test(f));
  assert.ok(files.length >= 4);
  for (const file of files) {
    const path = join(SESSIONS, file);
    assert.deepEqual(sb.conformance(readFileSync(path, "utf8")), run([path]).report, file);
  }
});

test("Pair Claude's limits are options", () => {
  const call = (n, from, name, args) => ({ name, arguments: args, from, created_ts: `2026-03-01T10:00:0${n}Z` });
  const log = [
    call(0, "driver-bot", "mcp__driver__driverRequestReview", { context: "a" }),
    call(1, "nav-bot", "mcp__navigator__navigatorCodeReview", { comment: "no", pass: false }),
    call(2, "driver-bot", "mcp__driver__driverRequestReview", { context: "b" }),
    call(3, "nav-bot", "mcp__navigator__navigatorCodeReview", { comment: "ok", pass: true }),
  ];
  const rule = (report, agent, id) =>
    report.agents.find((a) => a.agent === agent).families.flatMap((f) => f.rules).find((r) => r.id === id).status;
  assert.equal(rule(sb.conformance(log), "nav-bot", "003.env.navigator-turns"), "pass");
  const tight = sb.conformance(log, { navigatorMaxTurns: 1, driverMaxTurns: 1 });
  assert.equal(rule(tight, "nav-bot", "003.env.navigator-turns"), "fail");
  assert.equal(rule(tight, "driver-bot", "003.env.driver-turns"), "fail");
  assert.equal(tight.conforms, false);
  // The review at second 1 came within the tool timeout; with a timeout of 500 ms it is late.
  assert.equal(rule(sb.conformance(log), "nav-bot", "003.env.tool-timeout"), "pass");
  assert.equal(rule(sb.conformance(log, { toolTimeoutMs: 500 }), "nav-bot", "003.env.tool-timeout"), "fail");
});

test("the log is judged at its last message, or at `now` as the CLI's --now", () => {
  const path = join(SESSIONS, "pattern1_happy_path.jsonl");
  const text = readFileSync(path, "utf8");
  // Cut after CONTRACT_FINAL: the builder's answer is not late when the log ends there …
  const cut = text.split("\n").slice(0, 3).join("\n");
  const atEnd = sb.conformance(cut);
  assert.ok(atEnd.conforms, JSON.stringify(atEnd.agents.map((a) => [a.agent, a.level])));
  // … and is, an hour later: the planner owed a TIMEOUT_WARNING.
  const later = "2026-03-02T10:30:00Z";
  const judged = sb.conformance(cut, { now: later });
  assert.equal(judged.conforms, false);
  assert.equal(judged.judged_at, later);
  const dir = mkdtempSync(join(tmpdir(), "sb-conformance-now-"));
  const file = join(dir, "cut.jsonl");
  writeFileSync(file, cut);
  assert.deepEqual(judged, run([file, "--now", later]).report);
  assert.deepEqual(sb.conformance(cut, { now: new Date(later) }), judged);
  assert.throws(() => sb.conformance(cut, { now: "soon" }), TypeError);
});

test("bad agents, baselines and options are refused clearly; the module stays usable", () => {
  refused(() => sb.conformance(MIXED, { agents: ["alice", 7] }), "bad_agents");
  refused(() => sb.conformance(MIXED, { agents: { names: [] } }), "bad_agents");
  const unknown = refused(() => sb.conformance(MIXED, { baseline: ["bob:no.such-check"] }), "bad_baseline");
  assert.match(unknown.message, /no rule or check/);
  assert.match(unknown.message, /no\.such-check/);
  refused(() => sb.conformance(MIXED, { baseline: [42] }), "bad_baseline");
  refused(() => sb.conformance("[{"), "bad_log");
  refused(() => sb.conformance("  \n"), "empty_log");
  for (const bad of [{ agents: "alice,bob" }, { baseline: "x" }, { navigatorMaxTurns: -1 }, { driverMaxTurns: 1.5 }, { lenient: "yes" }, 7]) {
    assert.throws(() => sb.conformance(MIXED, bad), TypeError, JSON.stringify(bad));
  }
  assert.throws(() => sb.conformance(42), TypeError);
  assert.equal(sb.conformance(MIXED).agents.length > 0, true);
});
