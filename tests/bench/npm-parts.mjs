// Where the time of one valid message goes in the npm package (core/pkg): the whole call
// (`validateJson`, `validateBytes`) against its parts, for the smallest, a middle-sized and the
// largest valid message of the benchmark's corpus (tests/bench/npm-corpus.mjs): the validation
// module alone (`validateInput`, the message already in its input buffer), writing the text
// into the buffer (`TextEncoder.encodeInto`), copying the bytes there, and an empty call into
// the module. The difference between the small message's module time and an empty call is the
// module's fixed cost per message.
//
// Usage: scripts/npm-package.sh && node tests/bench/npm-parts.mjs
// Not a test: it prints one table (median of three 400 ms runs each, in ns) and the load.
import { readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { loadCorpus } from "./npm-corpus.mjs";

const PKG = fileURLToPath(new URL("../../core/pkg/", import.meta.url));
const sb = await import(`${PKG}node.mjs`);
// A second instance of the validation module, called directly (no JS layer).
const module = await import(`${PKG}wasm/switchboard_validate.js`);
module.initSync({ module: readFileSync(`${PKG}wasm/switchboard_validate_bg.wasm`) });
const loadBefore = loadavg();

const valid = loadCorpus(sb)
  .filter((m) => m.valid)
  .sort((a, b) => a.bytes.length - b.bytes.length);
const picks = [valid[0], valid[valid.length >> 1], valid[valid.length - 1]];

const SIZE = 1 << 16;
const at = module.inputBuffer(SIZE);
let view = new Uint8Array(0);
const input = () => (view.length ? view : (view = new Uint8Array(module.linearMemory().buffer, at, SIZE)));
const encoder = new TextEncoder();

/** ns per call of `f`, over `ms` milliseconds. */
function time(f, ms) {
  let n = 0;
  const start = performance.now();
  let took;
  do {
    for (let i = 0; i < 1000; i++) f();
    n += 1000;
  } while ((took = performance.now() - start) < ms);
  return (took * 1e6) / n;
}

console.log("| message | bytes | validateJson | validateBytes | module alone | encodeInto | copy of the bytes | empty call |");
console.log("|---|---:|---:|---:|---:|---:|---:|---:|");
for (const m of picks) {
  const parts = {
    validateJson: () => sb.validateJson(m.text).valid,
    validateBytes: () => sb.validateBytes(m.bytes).valid,
    module: () => module.validateInput(m.bytes.length, 0),
    encodeInto: () => encoder.encodeInto(m.text, input()).written,
    copy: () => input().set(m.bytes),
    empty: () => module.inputBuffer(16),
  };
  const cells = [];
  for (const f of Object.values(parts)) {
    // The module reads the message from its input buffer: put it there before timing it.
    input().set(m.bytes);
    time(f, 300);
    const runs = [time(f, 400), time(f, 400), time(f, 400)].sort((a, b) => a - b);
    cells.push(Math.round(runs[1]).toLocaleString("en-US"));
  }
  console.log(`| ${m.key} | ${m.bytes.length} | ${cells.join(" | ")} |`);
}
const loadAfter = loadavg();
const fmt = (l) => l.map((x) => x.toFixed(2)).join(", ");
console.log(`\nMachine load (1, 5, 15 min): ${fmt(loadBefore)} before, ${fmt(loadAfter)} after, on ${availableParallelism()} cores.`);
