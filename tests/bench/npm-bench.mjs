// Benchmark of the npm package (switchboard-protocol, core/pkg) against the JS validators users
// would otherwise reach for, in one Node process, on the core's fixture corpus
// (tests/bench/npm-corpus.mjs). Valid and invalid messages are timed apart.
//
// Competitors, each told the message's type (per-type schemas), measured in the same run:
// - JSON.parse + ajv 8 (Ajv2020, `allErrors: true`, `strict: true`), compiled from the package's
//   own JSON Schema (`jsonSchema(key)`);
// - JSON.parse + zod 4, valibot 1 and TypeBox 0.34 (TypeCompiler), each built here from the same
//   JSON Schema by one converter (objects, strings with enums, consts, patterns, numbers with
//   bounds, arrays, and the cross-field rules as refinements), so all five check the same rules.
//   Each must give ajv's verdict on every message (checked before timing).
// On invalid messages every validator collects every issue with its path (ajv `allErrors`,
// zod and valibot by default, TypeBox `Errors()` after a failed `Check`), as switchboard does.
// JSON.parse alone (validating nothing) is timed with them: the floor of every `JSON.parse + …`
// row and of parseJson, which validates the text and then returns what JSON.parse makes of it;
// so is validateJson then JSON.parse, the two calls parseJson stands for. With `--floor GLUE`
// (the module tests/bench/npm-floor.sh builds) the floors of validating text in wasm are timed
// too: the text written into the module's memory as the package writes it, then skipped by
// serde_json (checking nothing), then also JSON.parse'd: the least any parseJson that reads the
// text in wasm can cost.
//
// Usage: scripts/npm-package.sh && node tests/bench/npm-bench.mjs [rounds] [--floor GLUE]
// Not a test: it prints two tables (median round, spread of the rounds, and the ratio to ajv as
// the median of each round's ratio: the jobs of one round run back to back, so a machine that
// slows down for a few rounds moves both sides of a round's ratio alike; the goals also give
// the middle half of the rounds' ratios, their first to third quartile), the invalid messages
// with the largest gap to ajv (each timed alone: where the time goes), the machine's load, and
// on a quiet machine only the goals, met or not: validateJson and validateBytes at most 0.5x on
// valid messages and 1.0x on invalid ones, parseJson at most 1.0x on valid ones, of the time of
// JSON.parse + ajv. Then the browser bundle sizes (tests/bench/npm-size.mjs).
import { createRequire } from "node:module";
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Ajv2020 from "ajv/dist/2020.js";
import { z } from "zod";
import * as v from "valibot";
import { Kind, Type, TypeRegistry } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { loadCorpus } from "./npm-corpus.mjs";
import { printBundleSizes } from "./npm-size.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const sb = await import(join(ROOT, "core/pkg/node.mjs"));
const args = process.argv.slice(2);
const floorAt = args.indexOf("--floor");
const FLOOR_GLUE = floorAt < 0 ? null : args.splice(floorAt, 2)[1];
if (FLOOR_GLUE === undefined) {
  console.error('--floor takes the glue tests/bench/npm-floor.sh prints: --floor "$(bash tests/bench/npm-floor.sh)"');
  process.exit(2);
}
const ROUNDS = Number(args[0] ?? 9);

// The machine's load: a ratio taken while other work runs is noise (ajv's compiled code suffers
// more from it than the wasm does), so goals are judged only on a quiet machine: a 1-minute load
// average of at most half the cores before the run, and at most that plus this process after it.
const CORES = availableParallelism();
const QUIET = CORES / 2;
const loadBefore = loadavg();

// ---- the corpus (tests/bench/npm-corpus.mjs) ----
const corpus = loadCorpus(sb);

// ---- one JSON Schema, five validators ----
const ajv = new Ajv2020({ strict: true, allErrors: true });

/** The cross-field rules of an `allOf` as one predicate over the object (true = satisfied). */
function crossPredicate(rules) {
  const matches = (s, x) => {
    if (s.not) return !matches(s.not, x);
    if (s.allOf) return s.allOf.every((r) => matches(r, x));
    if (s.if) return !matches(s.if, x) || matches(s.then, x);
    if (x === null || typeof x !== "object" || Array.isArray(x)) return s.type !== "object";
    if ((s.required ?? []).some((k) => !(k in x))) return false;
    return Object.entries(s.properties ?? {}).every(([k, p]) => !(k in x) || ("const" in p ? x[k] === p.const : matches(p, x[k])));
  };
  return (x) => rules.every((r) => matches(r, x));
}

/** The JSON Schema `s` as a validator of `lib` (zod, valibot or typebox). */
function convert(s, lib) {
  const cross = s.allOf ? crossPredicate(s.allOf) : null;
  let out;
  if ("const" in s) out = lib === "zod" ? z.literal(s.const) : lib === "valibot" ? v.literal(s.const) : Type.Literal(s.const);
  else if (s.enum) out = lib === "zod" ? z.enum(s.enum) : lib === "valibot" ? v.picklist(s.enum) : Type.Union(s.enum.map((e) => Type.Literal(e)));
  else if (s.type === "string") {
    if (lib === "zod") {
      out = z.string();
      if (s.minLength) out = out.min(s.minLength);
      if (s.pattern) out = out.regex(new RegExp(s.pattern, "u"));
    } else if (lib === "valibot") {
      const pipe = [v.string()];
      if (s.minLength) pipe.push(v.minLength(s.minLength));
      if (s.pattern) pipe.push(v.regex(new RegExp(s.pattern, "u")));
      out = pipe.length > 1 ? v.pipe(...pipe) : pipe[0];
    } else out = Type.String({ minLength: s.minLength, pattern: s.pattern });
  } else if (s.type === "integer" || s.type === "number") {
    const int = s.type === "integer";
    if (lib === "zod") {
      out = int ? z.int() : z.number();
      if (s.minimum !== undefined) out = out.min(s.minimum);
      if (s.maximum !== undefined) out = out.max(s.maximum);
    } else if (lib === "valibot") {
      const pipe = [v.number()];
      if (int) pipe.push(v.integer());
      if (s.minimum !== undefined) pipe.push(v.minValue(s.minimum));
      if (s.maximum !== undefined) pipe.push(v.maxValue(s.maximum));
      out = pipe.length > 1 ? v.pipe(...pipe) : pipe[0];
    } else out = (int ? Type.Integer : Type.Number)({ minimum: s.minimum, maximum: s.maximum });
  } else if (s.type === "boolean") out = lib === "zod" ? z.boolean() : lib === "valibot" ? v.boolean() : Type.Boolean();
  else if (s.type === "array") {
    const items = convert(s.items, lib);
    if (lib === "zod") out = s.minItems ? z.array(items).min(s.minItems) : z.array(items);
    else if (lib === "valibot") out = s.minItems ? v.pipe(v.array(items), v.minLength(s.minItems)) : v.array(items);
    else out = Type.Array(items, { minItems: s.minItems });
  } else if (s.type === "object") {
    const required = new Set(s.required ?? []);
    const shape = {};
    for (const [k, p] of Object.entries(s.properties ?? {})) {
      const t = convert(p, lib);
      shape[k] = required.has(k) ? t : lib === "zod" ? t.optional() : lib === "valibot" ? v.optional(t) : Type.Optional(t);
    }
    out = lib === "zod" ? z.looseObject(shape) : lib === "valibot" ? v.looseObject(shape) : Type.Object(shape);
  } else out = lib === "zod" ? z.unknown() : lib === "valibot" ? v.unknown() : Type.Unknown();
  if (!cross) return out;
  if (lib === "zod") return out.refine(cross, { message: "inconsistent fields" });
  if (lib === "valibot") return v.pipe(out, v.check(cross, "inconsistent fields"));
  return Type.Intersect([out, Type.Unsafe({ [Kind]: "SwitchboardCross", check: cross })]);
}
TypeRegistry.Set("SwitchboardCross", (schema, value) => schema.check(value));

const keys = [...new Set(corpus.map((m) => m.key))];
const V = {};
for (const key of keys) {
  const schema = sb.jsonSchema(key);
  V[key] = {
    ajv: ajv.compile(schema),
    zod: convert(schema, "zod"),
    valibot: convert(schema, "valibot"),
    typebox: TypeCompiler.Compile(convert(schema, "typebox")),
    sb: sb.schemas[key],
  };
}

/** A switchboard report's errors, looked at only when it is not valid (as ajv's `errors`). */
const errors = (r) => (r.valid ? 0 : r.issues.filter((i) => i.severity === "error").length);

// Each competitor's verdict and issues, as a user who wants every issue gets them.
const RUN = {
  "JSON.parse + ajv (allErrors)": (m) => {
    const f = V[m.key].ajv;
    return f(JSON.parse(m.text)) ? 0 : f.errors.length;
  },
  "JSON.parse + zod 4": (m) => {
    const r = V[m.key].zod.safeParse(JSON.parse(m.text));
    return r.success ? 0 : r.error.issues.length;
  },
  "JSON.parse + valibot 1": (m) => {
    const r = v.safeParse(V[m.key].valibot, JSON.parse(m.text));
    return r.success ? 0 : r.issues.length;
  },
  "JSON.parse + TypeBox (compiled)": (m) => {
    const c = V[m.key].typebox;
    const value = JSON.parse(m.text);
    return c.Check(value) ? 0 : [...c.Errors(value)].length;
  },
  "switchboard validateJson(text)": (m) => errors(sb.validateJson(m.text)),
  "switchboard validateBytes(bytes)": (m) => errors(sb.validateBytes(m.bytes)),
  "switchboard parseJson(text) (value too)": (m) => (sb.parseJson(m.text).ok ? 0 : 1),
  "switchboard schemas[key].safeParseJson(text)": (m) => {
    const r = V[m.key].sb.safeParseJson(m.text);
    return r.success ? 0 : r.error.issues.length;
  },
};
const AJV = "JSON.parse + ajv (allErrors)";

// The verdicts agree before anything is timed (else the comparison means nothing).
for (const [name, f] of Object.entries(RUN)) {
  const wrong = corpus.filter((m) => (f(m) === 0) !== m.valid);
  if (wrong.length) {
    console.error(`${name} disagrees with switchboard on ${wrong.length} messages, e.g. ${wrong[0].key}: ${wrong[0].text.slice(0, 160)}`);
    process.exit(1);
  }
}

/**
 * JSON.parse alone, validating nothing: timed with the validators (not checked for verdicts), it
 * is the floor under every `JSON.parse + …` row and under parseJson, which returns the value
 * JSON.parse makes after validating the text.
 */
const PARSE_ALONE = "JSON.parse alone (no validation)";
RUN[PARSE_ALONE] = (m) => (JSON.parse(m.text), 0);

/** The two calls parseJson stands for, made one after the other by the caller. */
const VALIDATE_THEN_PARSE = "switchboard validateJson, then JSON.parse";
RUN[VALIDATE_THEN_PARSE] = (m) => {
  const report = sb.validateJson(m.text);
  JSON.parse(m.text);
  return errors(report);
};

/** The floors of validating text in wasm (`--floor`), timed like JSON.parse alone. */
const INTO_WASM = "text into wasm alone (encodeInto)";
const SKIPPED = "text into wasm, skipped by serde_json (no rule checked)";
const SKIPPED_PARSED = "the same, then JSON.parse (parseJson checking no rule)";
if (FLOOR_GLUE) {
  const floor = createRequire(import.meta.url)(FLOOR_GLUE);
  const encoder = new TextEncoder();
  // The input buffer sized once for the longest message, so no call grows the memory.
  const most = 3 * Math.max(...corpus.map((m) => m.text.length));
  const input = new Uint8Array(floor.linearMemory().buffer, floor.inputBuffer(most), most);
  const into = (text) => encoder.encodeInto(text, input).written;
  const skip = (text) => {
    if (floor.skipInput(into(text)) !== 1) throw new Error(`serde_json did not skip: ${text.slice(0, 80)}`);
  };
  RUN[INTO_WASM] = (m) => (into(m.text), 0);
  RUN[SKIPPED] = (m) => (skip(m.text), 0);
  RUN[SKIPPED_PARSED] = (m) => (skip(m.text), JSON.parse(m.text), 0);
}

/**
 * How long each job runs over a set before it is timed. JavaScript validators reach their steady
 * speed only after V8 has optimized them over many calls: after a single warm-up pass (this
 * bench until 2026-11-29) ajv timed ~1.35x and zod ~2.5x slower than after a second of work,
 * which flattered the wasm, at full speed from its first call. A user's long-running agent sees
 * the steady speed, so that is what is compared.
 */
const WARM_MS = 1000;

/** Time per message of each job over `set`, in ROUNDS interleaved rounds of about 30 ms each. */
function measure(set) {
  const jobs = Object.entries(RUN).map(([name, f]) => {
    const all = () => {
      let n = 0;
      for (const m of set) n += f(m);
      return n;
    };
    const issues = all(); // the issue count
    for (const start = performance.now(); performance.now() - start < WARM_MS; ) all();
    const start = performance.now();
    all();
    const once = performance.now() - start;
    return { name, all, issues, reps: Math.max(1, Math.ceil(30 / Math.max(once, 0.01))), rounds: [] };
  });
  for (let round = 0; round < ROUNDS; round++) {
    for (const job of jobs) {
      const start = performance.now();
      for (let r = 0; r < job.reps; r++) job.all();
      job.rounds.push(((performance.now() - start) * 1000) / (job.reps * set.length));
    }
  }
  const base = jobs.find((job) => job.name === AJV);
  for (const job of jobs) {
    const ratios = job.rounds.map((us, round) => us / base.rounds[round]);
    job.ratio = median(ratios);
    job.quartiles = [quantile(ratios, 0.25), quantile(ratios, 0.75)];
  }
  for (const job of jobs) {
    job.rounds.sort((a, b) => a - b);
    job.us = median(job.rounds);
  }
  return jobs;
}

/** The value a fraction `q` of the way through `xs` in order (sorts a copy). */
function quantile(xs, q) {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(q * sorted.length)];
}

/** The middle value of `xs` (the upper one of an even count). */
function median(xs) {
  return quantile(xs, 0.5);
}

function table(title, set) {
  const rows = measure(set);
  const bytes = Math.round(set.reduce((n, m) => n + m.bytes.length, 0) / set.length);
  console.log(`\n${title}: ${set.length} messages of ${new Set(set.map((m) => m.key)).size} types, ${bytes} B/msg avg\n`);
  console.log("| validator | µs/msg (median) | spread (fastest–slowest round) | msgs/s | issues found | vs JSON.parse + ajv (median of the rounds' ratios) |");
  console.log("|---|---:|---:|---:|---:|---:|");
  for (const r of rows) {
    const spread = `${r.rounds[0].toFixed(2)}–${r.rounds[r.rounds.length - 1].toFixed(2)}`;
    console.log(`| ${r.name} | ${r.us.toFixed(2)} | ${spread} | ${Math.round(1e6 / r.us)} | ${r.issues} | ${r.ratio.toFixed(2)}x |`);
  }
  return (name) => rows.find((r) => r.name === name);
}

console.log(
  `switchboard-protocol benchmark: Node ${process.version}, ajv 8.20 (Ajv2020, allErrors, strict), zod 4.6, valibot 1.5, TypeBox 0.34 (TypeCompiler); ` +
    `every validator told the type; median of ${ROUNDS} interleaved rounds; time per message (lower is better)`,
);
const valid = table("Valid messages", corpus.filter((m) => m.valid));
const invalid = table("Invalid messages (every issue with its path)", corpus.filter((m) => !m.valid));

/**
 * Where the invalid messages' time goes: each timed alone (median of 5 interleaved rounds), the
 * `top` with the largest gap between switchboard validateJson and JSON.parse + ajv.
 */
function gaps(set, top) {
  const time = (f, m) => {
    const start = performance.now();
    for (let i = 0; i < 400; i++) f(m);
    return ((performance.now() - start) * 1000) / 400;
  };
  const rows = set.map((m) => {
    const ajvRounds = [];
    const sbRounds = [];
    for (let round = 0; round < 5; round++) {
      ajvRounds.push(time(RUN[AJV], m));
      sbRounds.push(time(RUN["switchboard validateJson(text)"], m));
    }
    const check = V[m.key].ajv;
    check(JSON.parse(m.text));
    const ajvIssues = check.errors.length;
    return { m, ajv: median(ajvRounds), sb: median(sbRounds), ajvIssues };
  });
  const total = rows.reduce((n, r) => n + r.sb - r.ajv, 0);
  rows.sort((a, b) => b.sb - b.ajv - (a.sb - a.ajv));
  const shown = rows.slice(0, top);
  const shownGap = shown.reduce((n, r) => n + r.sb - r.ajv, 0);
  const overall = `over all ${set.length}, switchboard takes ${Math.abs(total).toFixed(2)} µs ${total > 0 ? "more" : "less"}`;
  console.log(`
Invalid messages by their gap to JSON.parse + ajv (each alone; these ${top} take ${shownGap.toFixed(2)} µs more, ${overall})
`);
  console.log("| type | bytes | issues (switchboard / ajv) | JSON.parse + ajv µs | validateJson µs | gap µs |");
  console.log("|---|---:|---:|---:|---:|---:|");
  for (const r of shown) {
    const issues = `${r.m.issues} / ${r.ajvIssues}`;
    console.log(`| ${r.m.key} | ${r.m.bytes.length} | ${issues} | ${r.ajv.toFixed(2)} | ${r.sb.toFixed(2)} | ${(r.sb - r.ajv).toFixed(2)} |`);
  }
}
gaps(corpus.filter((m) => !m.valid), 8);

const loadAfter = loadavg();
const fmt = (l) => l.map((x) => x.toFixed(2)).join(", ");
const quiet = loadBefore[0] <= QUIET && loadAfter[0] <= QUIET + 1;
console.log(`\nMachine load (1, 5, 15 min): ${fmt(loadBefore)} before, ${fmt(loadAfter)} after, on ${CORES} cores.`);
const GOALS = [
  ["valid messages, switchboard validateJson(text)", valid("switchboard validateJson(text)"), 0.5],
  ["valid messages, switchboard validateBytes(bytes)", valid("switchboard validateBytes(bytes)"), 0.5],
  ["valid messages, switchboard parseJson(text) (value too)", valid("switchboard parseJson(text) (value too)"), 1.0],
  ["invalid messages, switchboard validateJson(text)", invalid("switchboard validateJson(text)"), 1.0],
  ["invalid messages, switchboard validateBytes(bytes)", invalid("switchboard validateBytes(bytes)"), 1.0],
];
if (quiet) {
  console.log("Goals, against JSON.parse + ajv (per-type schema, allErrors):");
  for (const [what, { ratio, quartiles }, limit] of GOALS) {
    const middle = quartiles.map((q) => q.toFixed(3)).join("–");
    console.log(
      `- ${what}: ${ratio.toFixed(3)}x (half the rounds ${middle}; goal <= ${limit.toFixed(1)}x): ${ratio <= limit ? "met" : "missed"}`,
    );
  }
  console.log(
    `  (JSON.parse alone, on valid messages: ${valid(PARSE_ALONE).ratio.toFixed(3)}x: parseJson takes that and the validation.)`,
  );
  console.log(
    `  (validateJson, then JSON.parse, on valid messages: ${valid(VALIDATE_THEN_PARSE).ratio.toFixed(3)}x: the two calls parseJson stands for.)`,
  );
  if (FLOOR_GLUE) {
    console.log(
      `  (parseJson checking no rule, on valid messages: ${valid(SKIPPED_PARSED).ratio.toFixed(3)}x: the text into wasm, skipped by serde_json, then JSON.parse.)`,
    );
  }
} else {
  console.log(
    `The machine is busy (a 1-minute load above ${QUIET} before the run, or above ${QUIET + 1} after it): ` +
      "the goals are not judged. Run again on a quiet machine.",
  );
}

printBundleSizes();
