// Parity: the core's whole fixture corpus (every file under core/tests/fixtures/protocol and
// every case of invalid/cases.json), strict and lenient, with and without a family hint, gives
// the same reports through the native CLI (`switchboard validate`) and through the installed
// package from objects, text and bytes; `validateBatch` matches `switchboard validate --jsonl`.
// The only difference allowed is the spelling `messageType` for the CLI's `message_type`.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { FIXTURES, cliBinary, fixtureFiles, loadPackage } from "./support.mjs";

const sb = await loadPackage();
const cli = cliBinary();
const manifest = new Map(JSON.parse(readFileSync(join(FIXTURES, "manifest.json"), "utf8")).map((e) => [e.file, e]));
const cases = JSON.parse(readFileSync(join(FIXTURES, "invalid/cases.json"), "utf8"));

/** `switchboard validate` over a file (or stdin `-` with `input`), one report per line printed. */
function cliReports(file, options, input) {
  const args = ["validate", file];
  if (options.lenient) args.push("--lenient");
  if (options.family) args.push("--family", options.family);
  if (options.jsonl) args.push("--jsonl");
  const out = spawnSync(cli, args, { input, encoding: "utf8" });
  assert.ok(out.status === 0 || out.status === 1, `${args.join(" ")}: exit ${out.status}: ${out.stderr}`);
  return out.stdout
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => {
      const { message_type: messageType, ...rest } = JSON.parse(l);
      return { ...rest, messageType };
    });
}

function packageOptions({ lenient, family }) {
  return family ? { lenient, family } : { lenient };
}

const MODES = [{ lenient: false }, { lenient: true }];

test("every fixture file: CLI = validate(object) = validateJson(text) = validateBytes(bytes)", () => {
  const files = fixtureFiles();
  assert.ok(files.length >= 70, `${files.length} fixture files`);
  let compared = 0;
  for (const rel of files) {
    const path = join(FIXTURES, rel);
    const text = readFileSync(path, "utf8");
    const family = manifest.get(rel)?.family;
    const modes = family ? [...MODES, { lenient: false, family }, { lenient: true, family }] : MODES;
    for (const mode of modes) {
      const [expected] = cliReports(path, mode);
      const options = packageOptions(mode);
      const label = `${rel} ${JSON.stringify(mode)}`;
      assert.deepEqual(sb.validateJson(text, options), expected, `${label} (text)`);
      assert.deepEqual(sb.validateBytes(readFileSync(path), options), expected, `${label} (bytes)`);
      assert.deepEqual(sb.validate(JSON.parse(text), options), expected, `${label} (object)`);
      compared++;
    }
  }
  assert.ok(compared >= 200, `${compared} comparisons`);
});

test("every rule case of invalid/cases.json, and the corpus as JSON Lines: CLI --jsonl = validateBatch", () => {
  // Group by family hint so one CLI run covers a group; each case runs strict and lenient.
  const groups = new Map();
  for (const c of cases) {
    const line = c.raw !== undefined ? c.raw : JSON.stringify(c.message);
    if (line.trim() === "") continue; // blank lines are skipped by --jsonl; the empty input is below
    const family = c.options?.family ?? "";
    if (!groups.has(family)) groups.set(family, []);
    groups.get(family).push({ line, value: c.raw === undefined ? c.message : undefined, rule: c.rule });
  }
  // The whole file corpus, compacted to one line each, joins the unhinted group.
  for (const rel of fixtureFiles()) {
    const value = JSON.parse(readFileSync(join(FIXTURES, rel), "utf8"));
    groups.get("").push({ line: JSON.stringify(value), value, rule: rel });
  }
  // Lines that are not JSON, or not UTF-8, get a not_json report in both.
  groups.get("").push({ line: "{\"type\": \"request_review\"", rule: "truncated" });
  let compared = 0;
  for (const [family, entries] of groups) {
    for (const { lenient } of MODES) {
      const mode = { lenient, family: family || undefined, jsonl: true };
      const jsonl = entries.map((e) => e.line).join("\n");
      const expected = cliReports("-", mode, jsonl);
      assert.equal(expected.length, entries.length);
      const options = packageOptions(mode);
      assert.deepEqual(sb.validateBatch(jsonl, options), expected, `batch (text) ${JSON.stringify(mode)}`);
      assert.deepEqual(sb.validateBatch(new TextEncoder().encode(jsonl), options), expected, "batch (bytes)");
      entries.forEach((e, i) => {
        const label = `${e.rule} ${JSON.stringify(mode)}`;
        const { line, ...report } = expected[i];
        assert.equal(line, i + 1, label);
        // Placed on its line, a line that is not JSON gets the same position in its message.
        assert.deepEqual(sb.validateJson("\n".repeat(i) + e.line, options), report, `${label} (text)`);
        if (e.value !== undefined) assert.deepEqual(sb.validate(e.value, options), report, `${label} (object)`);
        compared++;
      });
    }
  }
  assert.ok(compared >= 250, `${compared} comparisons`);
});

test("invalid UTF-8 and the empty input", () => {
  const bytes = Buffer.from([0x7b, 0x22, 0x61, 0xff, 0x22, 0x3a, 0x31, 0x7d]);
  const [expected] = cliReports("-", { jsonl: true }, bytes);
  assert.equal(expected.issues[0].code, "not_json");
  const { line, ...report } = expected;
  assert.equal(line, 1);
  assert.deepEqual(sb.validateBytes(bytes), report);
  assert.deepEqual(sb.validateBatch(bytes), [expected]);
  // The CLI refuses empty input outright (exit 2); the package reports it like the core does.
  const empty = cases.find((c) => c.raw === "");
  assert.deepEqual(
    sb.validateJson("").issues.map((i) => [i.path, i.code]),
    empty.errors,
  );
});

test("strings outside ASCII cross intact: messages, pointers and path segments", () => {
  const message = JSON.parse(readFileSync(join(FIXTURES, "valid/droid/01_task_assignment.json"), "utf8"));
  message.priority = "hïgh 😀";
  message.metadata = { labels: ["ok"], "x/é~😀": { "api_token😀": `ghp_${"a".repeat(36)}` } };
  const text = JSON.stringify(message);
  const [expected] = cliReports("-", {}, text);
  assert.deepEqual(sb.validateJson(text), expected);
  assert.deepEqual(sb.validateBatch(`${text}\n${text}`).map(({ line, ...r }) => r), [expected, expected]);
  assert.ok(expected.issues.some((i) => i.message.includes("hïgh 😀")), JSON.stringify(expected));
  const result = sb.schemas["droid/task_assignment"].safeParseJson(text);
  assert.equal(result.success, false);
  assert.deepEqual(
    result.error.issues.map((i) => [i.path, i.pointer, i.code]),
    expected.issues.map((i) => [
      i.path === "/priority" ? ["priority"] : ["metadata", "x/é~😀", "api_token😀"],
      i.path,
      i.code,
    ]),
  );
});
