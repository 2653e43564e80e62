// verifyRecords from the installed tarball: a review trail signed with an Ed25519 key (Node's
// crypto, as the console signs with WebCrypto) verifies; an edited, removed or reordered
// record, or a cut-off tail given the head, is rejected at its line — the same verdicts as
// `switchboard records verify`.
import assert from "node:assert/strict";
import { createHash, generateKeyPairSync, sign } from "node:crypto";
import { describe, test } from "node:test";
import { loadPackage } from "./support.mjs";

const sb = await loadPackage();
const TESTS = "tmp/pair_1_tests.py";

/** A trail of `n` APPROVED records, chained and signed (the bytes: the line minus its signature). */
function trail(n) {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const public_key = publicKey.export({ format: "der", type: "spki" }).subarray(-32).toString("hex");
  const digest = "a".repeat(64);
  let prev = null;
  const lines = [];
  for (let i = 0; i < n; i++) {
    const record = {
      reviewer: "Ada", project: "repo", session: `pair-${i}`, checkpoint: "contract_review",
      decision: "APPROVED", outcome: "decided", decided_at_ms: 1767200000000, decided_at: "2026-01-01 00:00:00",
      artifacts: [{ path: TESTS, role: "tests", sha256: digest }],
      sent: [{ from: "BlueLake", to: "GreenCastle", subject: "CONTRACT_FINAL", thread_id: `pair-${i}`,
        body_md: JSON.stringify({ test_fingerprints: { [TESTS]: `sha256:${digest}` } }), server_id: i + 1 }],
    };
    const signed = JSON.stringify({ record, prev, public_key });
    const signature = sign(null, Buffer.from(signed), privateKey).toString("hex");
    const line = JSON.stringify({ record, prev, public_key, signature });
    lines.push(line);
    prev = createHash("sha256").update(line).digest("hex");
  }
  return { lines, head: prev };
}

const codes = (result) => result.problems.map((p) => [p.line, p.code]);

describe("verifyRecords", () => {
  test("accepts a signed chain and names its head", () => {
    const { lines, head } = trail(3);
    const result = sb.verifyRecords(lines.join("\n") + "\n");
    assert.deepEqual(result, { valid: true, records: 3, head, problems: [] });
    assert.equal(sb.verifyRecords(lines.join("\n"), `sha256:${head}`).valid, true);
  });

  test("rejects a record edited, removed or reordered, and a tail cut off against the head", () => {
    const { lines, head } = trail(3);
    assert.deepEqual(codes(sb.verifyRecords(lines.join("\n").replace('"reviewer":"Ada"', '"reviewer":"Eve"'))), [[1, "bad_signature"], [2, "chain_broken"]]);
    assert.deepEqual(codes(sb.verifyRecords([lines[0], lines[2]].join("\n"))), [[2, "chain_broken"]]);
    assert.deepEqual(codes(sb.verifyRecords([lines[1], lines[0], lines[2]].join("\n"))), [[1, "chain_broken"], [2, "chain_broken"], [3, "chain_broken"]]);
    assert.deepEqual(codes(sb.verifyRecords(lines.slice(0, 2).join("\n"), head)), [[0, "head_mismatch"]]);
    assert.throws(() => sb.verifyRecords(lines[0], "nope"), (e) => e instanceof sb.SwitchboardError && e.code === "bad_fingerprints");
  });
});
