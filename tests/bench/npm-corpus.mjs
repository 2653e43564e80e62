// The messages the npm benchmarks time (tests/bench/npm-bench.mjs, npm-pair.mjs, npm-parts.mjs):
// every bare message of core/tests/fixtures/protocol (valid, lenient-only and invalid files;
// Agent Mail rows, which no JSON Schema can unwrap, are left out) and every message of
// invalid/cases.json whose type is known, as compact JSON text; messages holding a secret are
// left out (no JSON Schema can say so).
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const FIXTURES = fileURLToPath(new URL("../../core/tests/fixtures/protocol", import.meta.url));

function files(dir, out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== "carried") files(path, out);
    } else if (e.name.endsWith(".json") && e.name !== "manifest.json" && e.name !== "cases.json") out.push(path);
  }
  return out.sort();
}

/**
 * The corpus as `sb` (a loaded switchboard-protocol) reads it: per message its text, its UTF-8
 * bytes, its `family/type` key, whether it is valid and how many issues it has.
 */
export function loadCorpus(sb) {
  const values = files(FIXTURES).map((f) => JSON.parse(readFileSync(f, "utf8")));
  for (const c of JSON.parse(readFileSync(join(FIXTURES, "invalid/cases.json"), "utf8"))) {
    if (c.message !== undefined && !(c.message && typeof c.message === "object" && "body_md" in c.message)) values.push(c.message);
  }
  const encoder = new TextEncoder();
  return values
    .map((value) => {
      const text = JSON.stringify(value);
      const report = sb.validateJson(text);
      const key = report.messageType ? `${report.family}/${report.messageType}` : null;
      // A secret in a message (seed 004, Security 4) is an error no JSON Schema can express:
      // such messages are left out, as in the schema parity test.
      const secret = report.issues.some((i) => i.code === "secret_in_message");
      return { text, bytes: encoder.encode(text), key, secret, valid: report.valid, issues: report.issues.length };
    })
    .filter((m) => m.key && !m.secret);
}
