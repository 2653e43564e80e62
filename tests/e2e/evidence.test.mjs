// The evidence of a Pair session's checkpoints, read from a real folder on disk, against a
// real Agent Mail 0.2.1 server, in Debian's Chromium. The folder is linked through the
// header's directory input (`<input webkitdirectory>`, driven with Playwright's
// setInputFiles on the directory), so its files are read in the page, never uploaded:
// checkpoint #1 shows the contract's tests; APPROVED sends a CONTRACT_FINAL carrying the
// fingerprints of the files read (read back from the server); the builder then edits a test
// file on disk; once the folder is read again, checkpoint #2 says `tampered` and names that
// file, and the session's diff shows the audit's hard-coded expectation at its line.
// After a reload the header names the folder read once, to be linked again, until unlinked.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openPage } from "../support/browser.mjs";
import { useConsole } from "../support/console.mjs";
import { SERVERS, pythonOf, startAgentMail } from "../support/agent-mail.mjs";

const web = useConsole();

const STAMP = "1767200000";
const SESSION = "pair-evidence";
const TESTS = `tmp/pair_${STAMP}_tests.py`;
const SPEC = `tmp/pair_${STAMP}_spec_draft.md`;
const SAFETY = `tmp/pair_${STAMP}_safety.md`;
const IMPLEMENTATION = "mathx.py";

/** The Pair session's working tree, as the agents left it after CONTRACT_DRAFT. */
const FILES = {
  [SPEC]: "# Factorial\n\n`factorial(n)` returns n! for n ≥ 0 and raises `ValueError` below 0.\n",
  [SAFETY]: "# Safety reasoning\n\nPure arithmetic: no I/O, no network, no secrets.\n",
  [TESTS]: [
    "import pytest",
    "from mathx import factorial",
    "",
    "def test_five():",
    "    assert factorial(5) == 120",
    "",
    "def test_negative():",
    "    with pytest.raises(ValueError):",
    "        factorial(-3)",
    "",
  ].join("\n"),
  // The builder's implementation special-cases the test's input (line 4 of the new file).
  [IMPLEMENTATION]: [
    "def factorial(n):",
    "    if n < 0:",
    "        raise ValueError(n)",
    "    if n == 5:",
    "        return 120",
    "    return n * factorial(n - 1) if n else 1",
    "",
  ].join("\n"),
  [`tmp/pair_${STAMP}_build.diff`]: [
    "diff --git a/mathx.py b/mathx.py",
    "new file mode 100644",
    "--- /dev/null",
    "+++ b/mathx.py",
    "@@ -0,0 +1,6 @@",
    "+def factorial(n):",
    "+    if n < 0:",
    "+        raise ValueError(n)",
    "+    if n == 5:",
    "+        return 120",
    "+    return n * factorial(n - 1) if n else 1",
    "",
  ].join("\n"),
};

const sha256 = (text) => `sha256:${createHash("sha256").update(text).digest("hex")}`;

describe("checkpoint evidence from a linked folder, against a real upstream 0.2.1 server", {
  skip: !existsSync(pythonOf(SERVERS.upstream)) && `no venv at ${pythonOf(SERVERS.upstream)}`,
}, () => {
  let server;
  let project;
  let parent;
  let repo;
  let page;

  /** Sends one Pair message as agents write them over Agent Mail (subject = type). */
  const send = (from, to, subject, body) => server.tool("send_message", {
    project_key: project.human_key, sender_name: from, to: [to],
    subject, body_md: JSON.stringify(body), thread_id: SESSION,
  });

  /** Links the folder on disk through the header's directory input (read once). */
  async function linkFolder() {
    const header = page.locator(".folder-link");
    await header.locator('input[type="file"]').setInputFiles(repo);
    await page.locator('.folder-link[data-state="linked"] .folder-name', { hasText: "repo" }).waitFor();
  }

  before(async () => {
    parent = await mkdtemp(join(tmpdir(), "switchboard-evidence-"));
    repo = join(parent, "repo");
    for (const [path, text] of Object.entries(FILES)) {
      await mkdir(join(repo, path, ".."), { recursive: true });
      await writeFile(join(repo, path), text);
    }
    server = await startAgentMail({ corsOrigin: web.url });
    project = await server.tool("ensure_project", { human_key: repo });
    for (const [name, program] of [["BlueLake", "claude-code"], ["GreenCastle", "codex-cli"]]) {
      await server.tool("register_agent", { project_key: project.human_key, program, model: "test", name, task_description: name });
    }
    await send("BlueLake", "GreenCastle", "PAIR_INIT", { protocol_version: "3.1", task: "Add factorial", my_role: "PLANNER", your_role: "BUILDER", status: "INITIALIZED" });
    await send("BlueLake", "GreenCastle", "CONTRACT_DRAFT", {
      phase: "CONTRACT_GENERATION", status: "AWAITING_HUMAN_REVIEW",
      artifacts: { safety_reasoning: SAFETY, spec: SPEC, tests: TESTS },
    });
    page = await openPage(web.browser);
    await page.goto(web.url);
    await page.getByLabel("Server URL").fill(server.url);
    await page.getByRole("button", { name: "Connect" }).click();
    await page.getByRole("heading", { name: "Projects" }).waitFor();
    await page.getByRole("link", { name: project.slug }).click();
  });

  after(async () => {
    await page?.close();
    await server?.stop();
    if (parent) await rm(parent, { recursive: true, force: true });
  });

  test("the project's header links the folder, read once, on every project view", async () => {
    await page.locator('.folder-link[data-state="unlinked"]').waitFor();
    await linkFolder();
    assert.match(await page.locator(".folder-link").textContent(), /read once/);
    await page.getByRole("link", { name: "Sessions", exact: true }).click();
    await page.locator('.folder-link[data-state="linked"] .folder-name', { hasText: "repo" }).waitFor();
    assert.deepEqual(page.errors, []);
  });

  test("#1 shows the tests read from the folder; APPROVED sends CONTRACT_FINAL with their fingerprints", async () => {
    await page.getByRole("link", { name: /^Checkpoints \(\d+\)$/ }).click();
    const card = page.locator(`li.checkpoint-card[data-session="${SESSION}"]`);
    await card.waitFor({ timeout: 30_000 });
    assert.equal(await card.getAttribute("data-checkpoint"), "1");
    const tests = card.locator(`details.artifact[data-role="tests"][data-path="${TESTS}"]`);
    await tests.locator("table.code-lines").waitFor({ timeout: 30_000 });
    assert.match(await tests.locator('tr[data-line="5"]').textContent(), /assert factorial\(5\) == 120/);
    assert.match(await tests.locator(".sha").textContent(), new RegExp(sha256(FILES[TESTS]).slice("sha256:".length)));
    const spec = card.locator(`details.artifact[data-role="spec"][data-path="${SPEC}"] .artifact-text`);
    assert.match(await spec.textContent(), /returns n! for n ≥ 0/);

    await page.getByLabel("Reviewing as").fill("Ada");
    await card.getByLabel(`Decision for ${SESSION} (as the seed writes it)`).fill("APPROVED");
    await card.locator(".outgoing").waitFor();
    await card.getByRole("button", { name: "Send decision" }).click();
    const sent = page.locator(".progress", { hasText: /^Sent CONTRACT_FINAL to GreenCastle \(message \d+\)/ });
    await sent.waitFor();
    const id = Number((await sent.textContent()).match(/message (\d+)/)[1]);

    // Read back from the server: the fingerprints are those of exactly the file shown.
    const inbox = await server.tool("fetch_inbox", { project_key: project.human_key, agent_name: "GreenCastle", include_bodies: true });
    const got = inbox.find((m) => m.id === id);
    assert.ok(got, `message ${id} is in GreenCastle's inbox`);
    assert.equal(got.subject, "CONTRACT_FINAL");
    assert.equal(got.thread_id, SESSION);
    assert.deepEqual(JSON.parse(got.body_md).test_fingerprints, { [TESTS]: sha256(FILES[TESTS]) });
    await card.waitFor({ state: "detached", timeout: 30_000 });
    assert.deepEqual(page.errors, []);
  });

  test("#2 after the builder edits a test: tampered, naming the file; the diff shows the audit's finding at its line", async () => {
    // The builder weakens the contract (drops the negative test) and builds.
    const weakened = FILES[TESTS].split("\n").slice(0, 6).join("\n") + "\n";
    await writeFile(join(repo, TESTS), weakened);
    await writeFile(join(repo, `tmp/pair_${STAMP}_spec_final.md`), FILES[SPEC]);
    await send("GreenCastle", "BlueLake", "BUILD_COMPLETE", {
      phase: "BUILD_COMPLETE", test_results: "ALL_PASS", implementation_files: [IMPLEMENTATION], status: "READY_FOR_REVIEW",
    });
    // A directory input is read once: the changed files are read after linking again.
    await linkFolder();

    const card = page.locator(`li.checkpoint-card[data-session="${SESSION}"][data-checkpoint="2"]`);
    await card.waitFor({ timeout: 60_000 });
    const integrity = card.locator('.evidence-integrity[data-verdict="tampered"]');
    await integrity.waitFor({ timeout: 30_000 });
    assert.match(await integrity.textContent(), new RegExp(`tampered: ${TESTS.replaceAll(".", "\\.")}`));
    assert.match(await integrity.locator('.integrity-file[data-state="modified since the contract"]').textContent(), /pair_1767200000_tests\.py/);

    const implementation = card.locator(`details.artifact[data-role="implementation"][data-path="${IMPLEMENTATION}"]`);
    assert.match(await implementation.locator('tr[data-line="5"]').textContent(), /return 120/);

    // The core's audit, run in the page on the session's diff against the contract's files:
    // the hard-coded expectation beside line 4 of the new mathx.py.
    const flagged = card.locator('.evidence-audit .diff-file[data-path="mathx.py"] tr.flagged');
    await flagged.waitFor({ timeout: 30_000 });
    assert.equal(await flagged.getAttribute("data-new"), "4");
    assert.match(await flagged.textContent(), /\+ {4}if n == 5:/);
    const finding = card.locator(".evidence-audit .findings-row .finding");
    assert.equal(await finding.getAttribute("data-severity"), "CRITICAL");
    assert.match(await finding.textContent(), /hardcoded-test-expectation .*the test input 5 and yields the expected 120 \(mathx\.py:4\)/);
    assert.deepEqual(page.errors, []);
  });

  test("after a reload the header names the folder read once, to link again; Unlink forgets it", async () => {
    // A new page load (the connect screen, remembered for the tab so reloads reconnect).
    await page.goto(web.url);
    await page.getByLabel("Server URL").fill(server.url);
    await page.getByLabel("Remember for this tab (sessionStorage)").check();
    await page.getByRole("button", { name: "Connect" }).click();
    await page.getByRole("link", { name: project.slug }).click();
    const before = page.locator('.folder-link[data-state="read-once-before"]');
    await before.waitFor({ timeout: 30_000 });
    assert.equal(await before.locator(".folder-name").textContent(), "repo");
    assert.match(await before.textContent(), /was read once before this page loaded: link it again/);
    await linkFolder();
    await page.reload();
    await before.waitFor({ timeout: 30_000 });
    await before.getByRole("button", { name: "Unlink" }).click();
    await page.locator('.folder-link[data-state="unlinked"]').waitFor();
    await page.reload();
    await page.locator('.folder-link[data-state="unlinked"]').waitFor({ timeout: 30_000 });
    assert.deepEqual(page.errors, []);
  });
});
