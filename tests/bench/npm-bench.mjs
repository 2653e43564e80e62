// Benchmark of the npm package (switchboard-protocol, core/pkg) against the JS validators users
// would otherwise reach for, in one Node process, on the core's fixture corpus: every message
// of core/tests/fixtures/protocol (valid, lenient-only and invalid files, except Agent Mail rows,
// which JSON Schema cannot unwrap) and every message of invalid/cases.json, as compact JSON.
//
// Competitors, measured in the same run:
// - ajv 8 (with ajv-formats for date-time), compiled from the package's own JSON Schema: the
//   dispatching schema (`switchboard schema --dispatch`: if/then on each type's discriminator,
//   so that ajv, like `validate`, finds the type and then validates it), the oneOf union
//   schema, and per-type schemas told the type in advance;
// - zod 4, schemas written here to match a representative subset of types (pair/PAIR_INIT,
//   agent-po/PROGRESS_UPDATE, droid/task_assignment, pair-claude/DriverCommand,
//   pair-claude/navigatorApprove), on the part of the corpus of those types.
//
// Usage: scripts/npm-package.sh && node tests/bench/npm-bench.mjs [rounds]
// (the dispatching schema comes from $SWITCHBOARD_BIN, else `cargo run --release`).
// Not a test: it prints a table (median round, and the spread of the rounds) and the goals,
// met or not.
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { z } from "zod";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const FIXTURES = join(ROOT, "core/tests/fixtures/protocol");
const sb = await import(join(ROOT, "core/pkg/node.mjs"));
const ROUNDS = Number(process.argv[2] ?? 9);

// ---- the corpus ----
function files(dir, out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== "carried") files(path, out);
    } else if (e.name.endsWith(".json") && e.name !== "manifest.json" && e.name !== "cases.json") out.push(path);
  }
  return out.sort();
}
const values = files(FIXTURES).map((f) => JSON.parse(readFileSync(f, "utf8")));
for (const c of JSON.parse(readFileSync(join(FIXTURES, "invalid/cases.json"), "utf8"))) {
  if (c.message !== undefined && !("body_md" in c.message)) values.push(c.message);
}
const encoder = new TextEncoder();
const corpus = values.map((value) => {
  const text = JSON.stringify(value);
  const report = sb.validateJson(text);
  return { value, text, bytes: encoder.encode(text), key: report.messageType ? `${report.family}/${report.messageType}` : null, valid: report.valid };
});

// ---- ajv, from our JSON Schema ----
const ajv = new Ajv2020({ strict: false });
addFormats.default(ajv);
const ajvUnion = ajv.compile(sb.jsonSchema());
const schemaArgs = ["schema", "--dispatch"];
const dispatchText = process.env.SWITCHBOARD_BIN
  ? execFileSync(process.env.SWITCHBOARD_BIN, schemaArgs, { encoding: "utf8" })
  : execFileSync("cargo", ["run", "--quiet", "--release", "-p", "switchboard-core", "--bin", "switchboard", "--", ...schemaArgs], {
      cwd: ROOT,
      encoding: "utf8",
      maxBuffer: 1 << 26,
    });
const ajvDispatch = ajv.compile(JSON.parse(dispatchText));
const ajvByKey = new Map();
for (const f of sb.families) for (const t of f.types) ajvByKey.set(`${f.name}/${t}`, ajv.compile(sb.jsonSchema(`${f.name}/${t}`)));

// ---- zod, written to match a subset of types (strict mode) ----
const nonEmpty = z.string().min(1);
const dateTime = z.iso.datetime({ offset: true });
const roles = z.enum(["PLANNER", "BUILDER"]);
const PRIORITY = { urgent: 0, high: 1, normal: 2, low: 3 };
const beads = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/);
const zodSchemas = {
  "pair/PAIR_INIT": z.looseObject({
    to: nonEmpty,
    subject: z.literal("PAIR_INIT"),
    body: z
      .looseObject({
        protocol_version: z.string().regex(/^3\.[0-9]+$/),
        task: nonEmpty,
        my_role: roles,
        your_role: roles,
        status: z.literal("INITIALIZED"),
      })
      .refine((b) => b.my_role !== b.your_role, { path: ["your_role"] }),
  }),
  "agent-po/PROGRESS_UPDATE": z.looseObject({
    message_type: z.literal("PROGRESS_UPDATE"),
    agent_id: z.string().regex(/^agent-[a-z0-9]+$/),
    task_id: z.string().regex(/^TASK-[A-Z0-9-]+$/),
    timestamp: dateTime,
    status: z.enum(["initializing", "researching", "planning", "awaiting_go", "implementing", "testing", "reporting", "awaiting_next", "fixing", "blocked"]),
    progress_percent: z.int().min(0).max(100),
    current_activity: nonEmpty,
    files_modified: z.array(z.string()).optional(),
    issues: z.array(z.string()).optional(),
    eta_minutes: z.int().min(0).optional(),
  }),
  "droid/task_assignment": z
    .looseObject({
      version: z.string().regex(/^1\.[0-9]+\.[0-9]+$/),
      timestamp: dateTime,
      sender_id: nonEmpty,
      message_id: z.string().regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/),
      type: z.literal("task_assignment"),
      task_id: beads,
      description: nonEmpty,
      specification: z.looseObject({ acceptance_criteria: z.array(z.string()), technical_requirements: z.array(z.string()).optional() }),
      file_patterns: z.array(z.string()),
      priority: z.enum(["low", "normal", "high", "urgent"]),
      priority_value: z.int().min(0).max(3),
      dependencies: z.array(beads).optional(),
      estimated_duration_minutes: z.number().min(0).optional(),
      deadline: dateTime.optional(),
      metadata: z.looseObject({ labels: z.array(z.string()).optional(), component: z.string().optional(), epic: z.string().optional() }).optional(),
    })
    .refine((m) => PRIORITY[m.priority] === m.priority_value, { path: ["priority_value"] }),
  "pair-claude/DriverCommand": z.looseObject({
    type: z.enum(["request_review", "request_guidance"]),
    context: z.string().optional(),
  }),
  "pair-claude/navigatorApprove": z.looseObject({
    name: z.enum(["navigatorApprove", "mcp__navigator__navigatorApprove", "pair-navigator_navigatorApprove"]),
    arguments: z.looseObject({ requestId: z.string().optional(), comment: z.string() }),
  }),
};
const zodUnion = z.union(Object.values(zodSchemas));
const subset = corpus.filter((m) => m.key in zodSchemas);

// ---- timing ----
const AJV_TYPE = "JSON.parse + ajv (per-type schema, told the type)";
const AJV_UNION = "JSON.parse + ajv (union schema)";
const AJV_DISPATCH = "JSON.parse + ajv (dispatching schema)";
const ZOD = "JSON.parse + zod (union of the subset)";
const BATCH = "switchboard validateBatch(jsonl bytes), per message";

/** The jobs over a set of messages; each returns how many it found valid. */
function jobs(set, withZod) {
  const jsonl = set.map((m) => m.text).join("\n");
  const jsonlBytes = encoder.encode(jsonl);
  // The per-type schema of each message's type (every message of these sets has one).
  const byType = set.map((m) => ajvByKey.get(m.key));
  const count = (f) => () => {
    let n = 0;
    for (let i = 0; i < set.length; i++) if (f(set[i], i)) n++;
    return n;
  };
  const list = [
    ["JSON.parse alone (reference)", count((m) => JSON.parse(m.text) !== null)],
    [AJV_TYPE, count((m, i) => byType[i](JSON.parse(m.text)))],
    [AJV_DISPATCH, count((m) => ajvDispatch(JSON.parse(m.text)))],
    [AJV_UNION, count((m) => ajvUnion(JSON.parse(m.text)))],
    withZod && [ZOD, count((m) => zodUnion.safeParse(JSON.parse(m.text)).success)],
    ["switchboard validateJson(text)", count((m) => sb.validateJson(m.text).valid)],
    ["switchboard validateBytes(bytes)", count((m) => sb.validateBytes(m.bytes).valid)],
    ["switchboard validateBatch(jsonl text), per message", () => sb.validateBatch(jsonl).filter((r) => r.valid).length],
    [BATCH, () => sb.validateBatch(jsonlBytes).filter((r) => r.valid).length],
    ["ajv (per-type schema, told the type) on parsed objects", count((m, i) => byType[i](m.value))],
    withZod && ["zod (union of the subset) on parsed objects", count((m) => zodUnion.safeParse(m.value).success)],
    ["switchboard validate(object)", count((m) => sb.validate(m.value).valid)],
  ];
  return list.filter(Boolean);
}

/** Time per message of each job in each of `ROUNDS` interleaved rounds of about 30 ms each. */
function measure(set, withZod) {
  const all = jobs(set, withZod).map(([name, f]) => {
    const valid = f(); // warm-up, and the verdict count
    const start = performance.now();
    f();
    const once = performance.now() - start;
    return { name, f, valid, reps: Math.max(1, Math.ceil(30 / Math.max(once, 0.01))), rounds: [] };
  });
  for (let round = 0; round < ROUNDS; round++) {
    for (const job of all) {
      const start = performance.now();
      for (let r = 0; r < job.reps; r++) job.f();
      job.rounds.push(((performance.now() - start) * 1000) / (job.reps * set.length));
    }
  }
  for (const job of all) {
    job.rounds.sort((a, b) => a - b);
    job.us = job.rounds[Math.floor(job.rounds.length / 2)];
  }
  return all;
}

const avg = (set) => Math.round(set.reduce((n, m) => n + m.bytes.length, 0) / set.length);
function table(title, set, withZod, baselines) {
  const rows = measure(set, withZod);
  const valid = set.filter((m) => m.valid).length;
  console.log(`\n${title}: ${set.length} messages, ${avg(set)} B/msg avg, ${valid} valid, ${set.length - valid} invalid\n`);
  const heads = baselines.map((b) => `vs ${b}`);
  console.log(`| measurement | µs/msg (median) | spread (fastest–slowest round) | msgs/s | valid found | ${heads.join(" | ")} |`);
  console.log(`|---|---:|---:|---:|---:|${heads.map(() => "---:").join("|")}|`);
  const us = (name) => rows.find((r) => r.name === name).us;
  for (const r of rows) {
    const ratios = baselines.map((b) => `${(r.us / us(b)).toFixed(2)}x`);
    const spread = `${r.rounds[0].toFixed(2)}–${r.rounds[r.rounds.length - 1].toFixed(2)}`;
    console.log(`| ${r.name} | ${r.us.toFixed(2)} | ${spread} | ${Math.round(1e6 / r.us)} | ${r.valid} | ${ratios.join(" | ")} |`);
  }
  return us;
}

console.log(
  `switchboard-protocol benchmark: Node ${process.version}, ajv 8 + ajv-formats, zod 4; median of ${ROUNDS} interleaved rounds; ` +
    "time per message (lower is better); ratio = time / the named job's time",
);
const validSet = corpus.filter((m) => m.valid);
const v = table("Valid messages", validSet, false, [AJV_TYPE, AJV_DISPATCH]);
const typed = corpus.filter((m) => m.key);
const w = table(
  `Messages of a known type, valid and invalid (the whole corpus but ${corpus.length - typed.length} whose family or type is unknown, which no per-type schema fits)`,
  typed,
  false,
  [AJV_TYPE, AJV_DISPATCH],
);
const zs = table("Zod subset (pair/PAIR_INIT, agent-po/PROGRESS_UPDATE, droid/task_assignment, pair-claude/DriverCommand, pair-claude/navigatorApprove)", subset, true, [ZOD, AJV_TYPE]);

const goal = (what, ratio, limit) =>
  console.log(`- ${what}: ${ratio.toFixed(2)}x (goal <= ${limit.toFixed(1)}x): ${ratio <= limit ? "met" : "missed"}`);
console.log("\nGoals, against the per-type ajv schemas (the faster ajv; the union schema is far slower):");
for (const [label, us] of [["valid messages", v], ["known type, valid and invalid", w]]) {
  goal(`${label}: validateBytes vs ${AJV_TYPE}`, us("switchboard validateBytes(bytes)") / us(AJV_TYPE), 0.5);
  goal(`${label}: validateJson vs ${AJV_TYPE}`, us("switchboard validateJson(text)") / us(AJV_TYPE), 1.0);
  goal(`${label}: validateBatch per message vs ${AJV_TYPE}`, us(BATCH) / us(AJV_TYPE), 1.0);
}
goal(`zod subset: validateBatch per message vs ${ZOD}`, zs(BATCH) / zs(ZOD), 1.0);
console.log("Goals against the dispatching schema (ajv finding the type itself, as validate does):");
for (const [label, us] of [["valid messages", v], ["known type, valid and invalid", w]]) {
  goal(`${label}: validateBytes vs ${AJV_DISPATCH}`, us("switchboard validateBytes(bytes)") / us(AJV_DISPATCH), 0.5);
  goal(`${label}: validateJson vs ${AJV_DISPATCH}`, us("switchboard validateJson(text)") / us(AJV_DISPATCH), 1.0);
  goal(`${label}: validateBatch per message vs ${AJV_DISPATCH}`, us(BATCH) / us(AJV_DISPATCH), 1.0);
}
