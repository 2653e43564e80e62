// Pane scale benchmark under Node (the wasm32 build of switchboard-core).
// Usage: node pane_wasm_bench.mjs <glue.js> <rows> [--header]
// Generates the same payloads as core/benches/pane.rs, then times, in this process:
//   floor  = parseValueFloor(inbox, outbox, contacts): serde_json::Value parse in wasm (+ drop)
//   build  = buildPaneSummary(...): parse + snapshot in wasm (+ drop), sizes returned
//   build + JSON out = buildPaneSnapshot(...): the same plus the snapshot JSON string
// and prints one Markdown table row. Run one process per size: wasm memory only grows,
// so the linear memory size after the run is this size's peak.
import { deepStrictEqual } from "node:assert";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { performance } from "node:perf_hooks";

const require = createRequire(import.meta.url);
const [glue, rowsArg, header] = process.argv.slice(2);
const pane = require(glue);
const rows = Number(rowsArg);

const pad = (n, w) => String(n).padStart(w, "0");
function message(id, from, ack) {
  const importance = id % 5 === 0 ? "high" : "normal";
  const ts = `2026-11-${pad(1 + (id % 28), 2)}T${pad(id % 24, 2)}:${pad(Math.floor(id / 24) % 60, 2)}:${pad(Math.floor(id / 1440) % 60, 2)}.${pad((id * 7919) % 1000000, 6)}+00:00`;
  return `{"id":${id},"project_id":1,"sender_id":${id % 97},"thread_id":"thread-${pad(id % 1000, 4)}","subject":"[coord] status update ${id} for the review pane","importance":"${importance}","ack_required":${ack},"created_ts":"${ts}","attachments":[],"from":"${from}","kind":"to"}`;
}

function payloads(n, contacts) {
  const inbox = [];
  const outbox = [];
  for (let i = 0; i < n; i++) {
    const id = Number((BigInt(i) * 7368787n) % BigInt(n)) + 1;
    inbox.push(message(id, "BlueLake", id % 3 === 0 ? "true" : "false"));
    outbox.push(message(n + id, "GreenCastle", id % 4 === 0 ? "1" : "0"));
  }
  const list = [];
  for (let i = 0; i < contacts; i++) {
    const status = ["approved", "pending", "approved", "denied"][i % 4];
    list.push(`{"to":"Agent${pad(i, 4)}","status":"${status}","reason":"coordinate thread handoffs","updated_ts":"2026-11-20T10:00:00+00:00","expires_ts":"2026-12-20T10:00:00+00:00"}`);
  }
  return [`{"result":[${inbox.join(",")}]}`, `[${outbox.join(",")}]`, `{"result":[${list.join(",")}]}`];
}

function best(runs, f) {
  let min = Infinity;
  let out;
  for (let r = 0; r < runs; r++) {
    const start = performance.now();
    out = f();
    min = Math.min(min, performance.now() - start);
  }
  return [min, out];
}

const [inbox, outbox, contacts] = payloads(rows, 1000);
const acked = [];
for (let id = 1; id <= rows; id += 10) acked.push(id);
const runs = rows >= 1000000 ? 3 : 5;
const mib = (b) => (b / (1024 * 1024)).toFixed(1);
const payloadBytes = Buffer.byteLength(inbox) + Buffer.byteLength(outbox) + Buffer.byteLength(contacts);

const [jsParse] = best(runs, () => [JSON.parse(inbox), JSON.parse(outbox), JSON.parse(contacts)].length);
const [floor, parsed] = best(runs, () => pane.parseValueFloor(inbox, outbox, contacts));
const memFloor = pane.wasmMemoryBytes();
let status = parsed === 3 ? "ok" : `floor parsed ${parsed}/3`;
const [build, summary] = best(runs, () => JSON.parse(pane.buildPaneSummary(inbox, outbox, contacts, undefined, "all", acked)));
if (summary.inbox !== rows || summary.outbox !== rows || summary.parseErrors.length !== 0) status = "WRONG COUNTS";
const memBuild = pane.wasmMemoryBytes();
let withJson = NaN;
try {
  const [ms, json] = best(runs, () => pane.buildPaneSnapshot(inbox, outbox, contacts, undefined, "all", acked));
  withJson = ms;
  if (json.length === 0) status = "EMPTY JSON";
} catch (err) {
  status += `; JSON out: ${err.message ?? err}`;
}
const memJson = pane.wasmMemoryBytes();

if (header === "--header") {
  // The binding first: its smoke transcript must be the reference golden.
  const golden = new URL("../tests/fixtures/pane-smoke/transcript.json", import.meta.url);
  deepStrictEqual(JSON.parse(pane.runPaneSmoke()), JSON.parse(readFileSync(golden, "utf8")));
  console.log("runPaneSmoke() in wasm equals core/tests/fixtures/pane-smoke/transcript.json");
  console.log(`pane benchmark (wasm32 in Node ${process.version}): inbox rows N, outbox rows N, 1000 contacts, mode all, N/10 acked ids`);
  console.log("");
  console.log("| N | payload MiB | JSON.parse ms (JS) | Value parse floor ms | build ms | ratio | build + JSON out ms | ratio | memory after floor MiB | after build MiB | after JSON MiB | status |");
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|");
}
const f1 = (x) => (Number.isNaN(x) ? "n/a" : x.toFixed(1));
const f2 = (x) => (Number.isNaN(x) ? "n/a" : x.toFixed(2));
console.log(`| ${rows} | ${mib(payloadBytes)} | ${f1(jsParse)} | ${f1(floor)} | ${f1(build)} | ${f2(build / floor)} | ${f1(withJson)} | ${f2(withJson / floor)} | ${mib(memFloor)} | ${mib(memBuild)} | ${mib(memJson)} | ${status} |`);
