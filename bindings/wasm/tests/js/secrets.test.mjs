// The secret scan in the package (its WebAssembly SIMD path: core/src/protocol/secrets/candidates.rs)
// against the native CLI (x86-64: the SSSE3/AVX2 path) on generated text: strings of every
// length around the sixteen-byte rounds, made of the anchors' pieces, word and punctuation
// bytes and real-looking secrets, in messages whose free text is scanned. Both must find the
// same secrets at the same paths with the same masked messages.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { cliBinary, loadPackage } from "./support.mjs";

const sb = await loadPackage();
const cli = cliBinary();

/** A deterministic generator (xorshift32), so a failure names a reproducible seed. */
function random(seed) {
  let x = seed >>> 0 || 1;
  return (n) => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x % n;
  };
}

/** Pieces text is made of: anchors' first bytes and pairs, secrets, words and separators. */
const PIECES = [
  "A", "AK", "AKIA", "AKIAIOSFODNN7EXAMPLE", "ASIA", "gh", "ghp_", "ghp_" + "a1B2".repeat(9), "gho_", "x", "xo", "xoxb-",
  "xoxb-1234567890-abcdefghij", "sk", "sk-", "sk-proj-" + "Ab3".repeat(16), "rk_live_", "np", "ey", "eyJ",
  "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlc2lnbmF0dXJl", "-", "--", "-----BEGIN RSA PRIVATE KEY-----", ":", "://",
  "https://user:hunter2@example.com/x", "=", "password=", "PASSWORD=s3cr3tValue", "Bearer ", "Bearer abcdef0123456789",
  "Basic dXNlcjpwYXNz", "B", "b", "be", "token", "a", "z", "_", "0", "9", " ", "  ", ".", ",", "/", "\"", "é", "😀", "\n",
];

function text(rnd) {
  let s = "";
  const want = rnd(72);
  while (s.length < want) s += PIECES[rnd(PIECES.length)];
  return s.slice(0, want + rnd(4));
}

test("the package's secret scan finds what the native scan finds, on generated text", () => {
  const rnd = random(20261127);
  const messages = [];
  for (let i = 0; i < 3000; i++) {
    // `context` of a request_review and `notes`, a member no rule covers, are both scanned.
    messages.push({ type: "request_review", context: text(rnd), notes: text(rnd) });
  }
  const jsonl = messages.map((m) => JSON.stringify(m)).join("\n");
  const out = spawnSync(cli, ["validate", "-", "--jsonl"], { input: jsonl, encoding: "utf8", maxBuffer: 1 << 28 });
  assert.ok(out.status === 0 || out.status === 1, `exit ${out.status}: ${out.stderr}`);
  const native = out.stdout.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
  const wasm = sb.validateBatch(jsonl);
  assert.equal(wasm.length, native.length);
  const secrets = (issues) => issues.filter((i) => i.code === "secret_in_message").map((i) => [i.path, i.message]);
  let found = 0;
  for (let i = 0; i < native.length; i++) {
    const want = secrets(native[i].issues);
    found += want.length;
    assert.deepEqual(secrets(wasm[i].issues), want, `message ${i}: ${JSON.stringify(messages[i])}`);
  }
  assert.ok(found > 500, `the generated text holds secrets (${found})`);
});
