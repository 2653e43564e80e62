// Two builds of the npm package timed against each other in one Node process, on the npm
// benchmark's corpus (tests/bench/npm-corpus.mjs): what a change to the package costs or saves,
// measured paired (interleaved rounds, so a machine that slows down slows both), which the
// ratios to ajv across separate runs cannot show on a noisy machine.
//
// Usage: node tests/bench/npm-pair.mjs BEFORE_DIR [AFTER_DIR (default core/pkg)] [rounds]
// where each directory holds a built package (scripts/npm-package.sh writes core/pkg; copy it
// aside before building the other). Not a test: it first checks that both give the same report
// (verdict, type, every issue with its path and message) on every message, then prints per
// function and message set the median µs per message of each and their ratio.
import { availableParallelism, loadavg } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadCorpus } from "./npm-corpus.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const [beforeDir, afterDir = join(ROOT, "core/pkg"), roundsArg] = process.argv.slice(2);
if (!beforeDir) {
  console.error("usage: node tests/bench/npm-pair.mjs BEFORE_DIR [AFTER_DIR] [rounds]");
  process.exit(2);
}
const ROUNDS = Number(roundsArg ?? 21);
const before = await import(join(resolve(beforeDir), "node.mjs"));
const after = await import(join(resolve(afterDir), "node.mjs"));
const loadBefore = loadavg();
const corpus = loadCorpus(after);

// The same reports, or the timing means nothing.
for (const m of corpus) {
  const a = JSON.stringify(before.validateJson(m.text));
  const b = JSON.stringify(after.validateJson(m.text));
  if (a !== b) {
    console.error(`the two packages disagree on ${m.text}:\n  before ${a}\n  after  ${b}`);
    process.exit(1);
  }
}

const median = (xs) => xs.slice().sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const calls = {
  validateJson: (sb, m) => sb.validateJson(m.text),
  validateBytes: (sb, m) => sb.validateBytes(m.bytes),
  parseJson: (sb, m) => sb.parseJson(m.text),
};

console.log(`| function | messages | before µs/msg | after µs/msg | after / before |`);
console.log(`|---|---|---:|---:|---:|`);
for (const [name, call] of Object.entries(calls)) {
  for (const valid of [true, false]) {
    const set = corpus.filter((m) => m.valid === valid);
    const repeat = Math.max(1, Math.round(20000 / set.length));
    const times = { before: [], after: [] };
    for (let r = 0; r < ROUNDS; r++) {
      for (const [which, sb] of r % 2 ? [["after", after], ["before", before]] : [["before", before], ["after", after]]) {
        const t0 = performance.now();
        for (let i = 0; i < repeat; i++) for (const m of set) call(sb, m);
        times[which].push(((performance.now() - t0) * 1000) / (repeat * set.length));
      }
    }
    const [b, a] = [median(times.before), median(times.after)];
    const label = `${set.length} ${valid ? "valid" : "invalid"}`;
    console.log(`| ${name} | ${label} | ${b.toFixed(3)} | ${a.toFixed(3)} | ${(a / b).toFixed(3)} |`);
  }
}
const fmt = (l) => l.map((x) => x.toFixed(2)).join(", ");
console.log(`\nMachine load (1, 5, 15 min): ${fmt(loadBefore)} before, ${fmt(loadavg())} after, on ${availableParallelism()} cores.`);
