// Two builds of the npm package timed against each other on the npm benchmark's corpus
// (tests/bench/npm-corpus.mjs): what a change to the package costs or saves, measured paired
// (the two alternate, so a machine that slows down slows both), which the ratios to ajv across
// separate runs cannot show on a noisy machine.
//
// Each timing runs in a Node process of its own (this script with `--child`), the two packages'
// processes alternating: timed in one process, the packages share call sites that turn
// polymorphic, and the ratios moved with the packages' order by up to 4% (docs/benchmarks.md,
// "Read ahead up to a shape member"). A process is also a fresh draw of what V8 decides for the
// module and the JS layer, which varies by up to a quarter from process to process: hence the
// medians over several.
//
// Usage: node tests/bench/npm-pair.mjs BEFORE_DIR [AFTER_DIR (default core/pkg)] [rounds]
// where each directory holds a built package (scripts/npm-package.sh writes core/pkg; copy it
// aside before building the other). Not a test: it first checks that both give the same report
// (verdict, type, every issue with its path and message) on every message, then prints per
// function and message set the median over the rounds of each package's µs per message and
// their ratio. A round is one process per package (about 12 s each).
import { execFileSync } from "node:child_process";
import { availableParallelism, loadavg } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadCorpus } from "./npm-corpus.mjs";

const CALLS = {
  validateJson: (sb, m) => sb.validateJson(m.text),
  validateBytes: (sb, m) => sb.validateBytes(m.bytes),
  parseJson: (sb, m) => sb.parseJson(m.text),
};
const median = (xs) => xs.slice().sort((x, y) => x - y)[Math.floor(xs.length / 2)];

/** µs per message of `call` over `set`: after a second of work, the median of five 300 ms runs. */
function timed(sb, call, set) {
  const run = (ms) => {
    let n = 0;
    const start = performance.now();
    let took;
    do {
      for (const m of set) call(sb, m);
      n += set.length;
    } while ((took = performance.now() - start) < ms);
    return (took * 1000) / n;
  };
  run(1000);
  return median([run(300), run(300), run(300), run(300), run(300)]);
}

if (process.argv[2] === "--child") {
  // One package's timings, as JSON on stdout: `{"validateJson valid": µs, …}`.
  const sb = await import(join(resolve(process.argv[3]), "node.mjs"));
  const corpus = loadCorpus(sb);
  const out = {};
  for (const [name, call] of Object.entries(CALLS)) {
    for (const valid of [true, false]) {
      out[`${name} ${valid ? "valid" : "invalid"}`] = timed(sb, call, corpus.filter((m) => m.valid === valid));
    }
  }
  console.log(JSON.stringify(out));
  process.exit(0);
}

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const [beforeDir, afterDir = join(ROOT, "core/pkg"), roundsArg] = process.argv.slice(2);
if (!beforeDir) {
  console.error("usage: node tests/bench/npm-pair.mjs BEFORE_DIR [AFTER_DIR] [rounds]");
  process.exit(2);
}
const ROUNDS = Number(roundsArg ?? 7);
const dirs = { before: resolve(beforeDir), after: resolve(afterDir) };
const loadBefore = loadavg();

// The same reports, or the timing means nothing.
{
  const before = await import(join(dirs.before, "node.mjs"));
  const after = await import(join(dirs.after, "node.mjs"));
  for (const m of loadCorpus(after)) {
    const a = JSON.stringify(before.validateJson(m.text));
    const b = JSON.stringify(after.validateJson(m.text));
    if (a !== b) {
      console.error(`the two packages disagree on ${m.text}:\n  before ${a}\n  after  ${b}`);
      process.exit(1);
    }
  }
}

const script = fileURLToPath(import.meta.url);
const times = { before: [], after: [] };
for (let r = 0; r < ROUNDS; r++) {
  for (const which of r % 2 ? ["after", "before"] : ["before", "after"]) {
    times[which].push(JSON.parse(execFileSync(process.execPath, [script, "--child", dirs[which]], { encoding: "utf8" })));
  }
}

// Per package: the median over its processes, and their range (processes differ by more than
// rounds within one do).
console.log(`| function | messages | before µs/msg (processes) | after µs/msg (processes) | after / before |`);
console.log(`|---|---|---:|---:|---:|`);
for (const key of Object.keys(times.before[0])) {
  const cell = (which) => {
    const xs = times[which].map((t) => t[key]);
    return [median(xs), `${median(xs).toFixed(3)} (${Math.min(...xs).toFixed(3)}–${Math.max(...xs).toFixed(3)})`];
  };
  const [[b, before], [a, after]] = [cell("before"), cell("after")];
  const [name, set] = key.split(" ");
  console.log(`| ${name} | ${set} | ${before} | ${after} | ${(a / b).toFixed(3)} |`);
}
const fmt = (l) => l.map((x) => x.toFixed(2)).join(", ");
console.log(`\n${ROUNDS} rounds of one process per package.`);
console.log(`Machine load (1, 5, 15 min): ${fmt(loadBefore)} before, ${fmt(loadavg())} after, on ${availableParallelism()} cores.`);
