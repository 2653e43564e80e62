// One decision per checkpoint, and no typed word lost, against a real Agent Mail 0.2.1 server
// in Debian's Chromium, with faults injected between the page and the server (Playwright
// routes): the server stopped, slow (a send in flight pressed again by key and button),
// answering 500, storing a send whose reply is lost (read back: sent once), two pages
// deciding the same checkpoint, a reload and a link followed mid-typing, a checkpoint that
// times out while typed at, and an approval over missing evidence (a typed reason, recorded
// as an override). Every case counts the decisions on the server through its own API. The
// review trail each decision leaves in the project's mail is read in a second browser
// context (reviewer, chain, signature) and checked with `switchboard records verify`, which
// rejects it edited, with a record removed, or reordered.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openPage } from "../support/browser.mjs";
import { connectTo, useConsole } from "../support/console.mjs";
import { SERVERS, pythonOf, startAgentMail } from "../support/agent-mail.mjs";
import { SWITCHBOARD_BIN, haveCli } from "../support/validate.mjs";

const web = useConsole();
const SESSIONS = ["pair-stopped", "pair-slow", "pair-500", "pair-lost", "pair-unknown", "pair-race", "pair-reload", "pair-override", "pair-typing", "pair-beside"];
const ARTIFACTS = (stamp) => ({ safety_reasoning: `tmp/pair_${stamp}_safety.md`, spec: `tmp/pair_${stamp}_spec_draft.md`, tests: `tmp/pair_${stamp}_tests.py` });

describe("one decision per checkpoint, against a real upstream 0.2.1 server", {
  skip: !existsSync(pythonOf(SERVERS.upstream)) && `no venv at ${pythonOf(SERVERS.upstream)}`,
}, () => {
  let server;
  let project;
  let dir;

  /** A Pair message as agents send it over Agent Mail (subject = type, body_md = the body). */
  const send = (from, to, thread, subject, body) => server.tool("send_message", {
    project_key: project.human_key, sender_name: from, to: [to], subject, body_md: JSON.stringify(body), thread_id: thread,
  });

  /** A session waiting at checkpoint #1. */
  async function atContractReview(thread, stamp) {
    await send("BlueLake", "GreenCastle", thread, "PAIR_INIT", { protocol_version: "3.1", task: `Task of ${thread}`, my_role: "PLANNER", your_role: "BUILDER", status: "INITIALIZED" });
    await send("BlueLake", "GreenCastle", thread, "CONTRACT_DRAFT", { phase: "CONTRACT_GENERATION", status: "AWAITING_HUMAN_REVIEW", artifacts: ARTIFACTS(stamp) });
  }

  /** The decisions (planner's messages after the draft) in a session's thread, on the server. */
  async function decisions(thread) {
    const read = async (agent) => (await server.tool("fetch_inbox", { project_key: project.human_key, agent_name: agent, include_bodies: true, limit: 1000 }))
      .filter((m) => m.thread_id === thread && m.from === "BlueLake" && !["PAIR_INIT", "CONTRACT_DRAFT"].includes(m.subject));
    const all = [...await read("BlueLake"), ...await read("GreenCastle")];
    return [...new Map(all.map((m) => [m.id, m])).values()];
  }

  /** A page connected to the server (remembered for the tab), at the project's checkpoints. */
  async function connected({ name = "Ada" } = {}) {
    const page = await openPage(web.browser);
    await connectTo(page, web, server.url);
    await page.getByRole("link", { name: project.slug }).click();
    await page.getByRole("link", { name: /^Checkpoints/ }).first().click();
    await page.locator("section.checkpoints p.summary").waitFor({ timeout: 30_000 });
    await page.getByLabel("Reviewing as").fill(name);
    return page;
  }

  const card = (page, thread) => page.locator(`li.checkpoint-card[data-session="${thread}"]`);
  const field = (page, thread) => card(page, thread).getByLabel(`Decision for ${thread} (as the seed writes it)`);

  /** Types a decision and waits for its preview. */
  async function type(page, thread, text) {
    await field(page, thread).fill(text);
    await card(page, thread).locator(".outgoing").waitFor();
  }

  /** The request that sends a REVISE decision (not the review record the trail agent writes). */
  const isSend = (request) => (request.postData() ?? "").includes('"send_message"') && (request.postData() ?? "").includes('"subject":"CONTRACT_REVISION_REQUESTED"');
  const progress = (page) => page.locator(".progress");
  const sentText = /^Sent CONTRACT_REVISION_REQUESTED to BlueLake \(message \d+\)\. The review record is in the project's trail\./;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "switchboard-decisions-"));
    server = await startAgentMail({ corsOrigin: web.url });
    project = await server.tool("ensure_project", { human_key: join(dir, "repo") });
    for (const [name, program] of [["BlueLake", "claude-code"], ["GreenCastle", "codex-cli"]]) {
      await server.tool("register_agent", { project_key: project.human_key, program, model: "test", name, task_description: name });
    }
    for (const [i, thread] of SESSIONS.entries()) await atContractReview(thread, 1767300000 + i);
    // A session at implementation review (#2), which the builder will end by timeout.
    await atContractReview("pair-timeout", 1767300100);
    await send("BlueLake", "GreenCastle", "pair-timeout", "CONTRACT_FINAL", { phase: "CONTRACT_FINALIZED", artifacts: { spec: "tmp/pair_1767300100_spec_final.md", tests: "tmp/pair_1767300100_tests.py" }, contract_immutable: true, status: "READY_FOR_BUILD" });
    await send("GreenCastle", "BlueLake", "pair-timeout", "BUILD_COMPLETE", { phase: "BUILD_COMPLETE", test_results: "ALL_PASS", implementation_files: ["mathx.py"], status: "READY_FOR_REVIEW" });
  });

  after(async () => {
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test("server stopped: Send says nothing answers and keeps the text; later it sends once", async () => {
    const page = await connected();
    await type(page, "pair-stopped", "REVISE: name the rounding mode");
    await page.route(`${server.url}/**`, (route) => route.abort("connectionrefused"));
    await card(page, "pair-stopped").getByRole("button", { name: "Send decision" }).click();
    await progress(page).filter({ hasText: /^Failed: Nothing answers at / }).waitFor();
    assert.equal(await field(page, "pair-stopped").inputValue(), "REVISE: name the rounding mode");
    await page.unrouteAll({ behavior: "ignoreErrors" });
    assert.equal((await decisions("pair-stopped")).length, 0);
    await card(page, "pair-stopped").getByRole("button", { name: "Send decision" }).click();
    await progress(page).filter({ hasText: sentText }).waitFor();
    assert.equal((await decisions("pair-stopped")).length, 1);
    await card(page, "pair-stopped").waitFor({ state: "detached", timeout: 30_000 });
    assert.deepEqual(page.errors.filter((e) => !e.includes("ERR_")), []);
    await page.close();
  });

  test("slow server: a send in flight is not sent again by Ctrl+Enter or the button", async () => {
    const page = await connected();
    await type(page, "pair-slow", "REVISE: cover leap years");
    await page.route(`${server.url}/**`, async (route) => {
      if (isSend(route.request())) await new Promise((ok) => setTimeout(ok, 4000));
      await route.continue();
    });
    const button = card(page, "pair-slow").getByRole("button", { name: "Send decision" });
    await button.click();
    await progress(page).filter({ hasText: /^Reading the thread, then sending/ }).waitFor();
    assert.equal(await button.isDisabled(), true);
    for (let i = 0; i < 3; i++) {
      await field(page, "pair-slow").press("Control+Enter");
      await button.click({ force: true });
      await card(page, "pair-slow").locator("form.decision").evaluate((f) => f.requestSubmit());
    }
    await progress(page).filter({ hasText: sentText }).waitFor({ timeout: 30_000 });
    await page.unrouteAll({ behavior: "ignoreErrors" });
    assert.equal((await decisions("pair-slow")).length, 1);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("500 on send: read back, nothing was sent, the text stays; Send then sends once", async () => {
    const page = await connected();
    await type(page, "pair-500", "REVISE: state the error type");
    await page.route(`${server.url}/**`, (route) => (isSend(route.request())
      ? route.fulfill({ status: 500, contentType: "text/plain", body: "Internal Server Error" })
      : route.continue()));
    await card(page, "pair-500").getByRole("button", { name: "Send decision" }).click();
    await progress(page).filter({ hasText: /^Failed: Not sent: .*\(read back: not in the thread\)\. Send tries again\./ }).waitFor();
    assert.equal(await field(page, "pair-500").inputValue(), "REVISE: state the error type");
    await page.unrouteAll({ behavior: "ignoreErrors" });
    assert.equal((await decisions("pair-500")).length, 0);
    await card(page, "pair-500").getByRole("button", { name: "Send decision" }).click();
    await progress(page).filter({ hasText: sentText }).waitFor();
    assert.equal((await decisions("pair-500")).length, 1);
    assert.deepEqual(page.errors.filter((e) => !e.includes("500")), []);
    await page.close();
  });

  test("reply lost: the server stored the send, the thread read back says so, nothing is sent twice", async () => {
    const page = await connected();
    await type(page, "pair-lost", "REVISE: add a test for zero");
    // The server stores the message; its reply never reaches the page.
    await page.route(`${server.url}/**`, async (route) => {
      if (!isSend(route.request())) return route.continue();
      await route.fetch();
      await route.abort("connectionreset");
    });
    await card(page, "pair-lost").getByRole("button", { name: "Send decision" }).click();
    await progress(page).filter({ hasText: sentText }).waitFor({ timeout: 30_000 });
    await page.unrouteAll({ behavior: "ignoreErrors" });
    const got = await decisions("pair-lost");
    assert.equal(got.length, 1);
    assert.match(await progress(page).textContent(), new RegExp(`\\(message ${got[0].id}\\)`));
    assert.equal(await field(page, "pair-lost").count() ? await field(page, "pair-lost").inputValue() : "", "");
    await page.close();
  });

  test("reply lost and the thread unreadable: nothing is assumed; the retry reads back first and sends nothing more", async () => {
    const page = await connected();
    await type(page, "pair-unknown", "REVISE: log the retries");
    let stored = false;
    await page.route(`${server.url}/**`, async (route) => {
      if (isSend(route.request())) {
        await route.fetch();
        stored = true;
        return route.abort("connectionreset");
      }
      return stored ? route.abort("connectionrefused") : route.continue();
    });
    await card(page, "pair-unknown").getByRole("button", { name: "Send decision" }).click();
    await progress(page).filter({ hasText: /Not known whether it was stored \(the thread could not be read back\)\. Send reads it back first\./ }).waitFor();
    assert.equal(await field(page, "pair-unknown").inputValue(), "REVISE: log the retries");
    await page.unrouteAll({ behavior: "ignoreErrors" });
    await card(page, "pair-unknown").getByRole("button", { name: "Send decision" }).click();
    await progress(page).filter({ hasText: sentText }).waitFor();
    assert.equal((await decisions("pair-unknown")).length, 1);
    await page.close();
  });

  test("two pages decide the same checkpoint: the second is told who decided and when, sends nothing, keeps its text", async () => {
    const first = await connected({ name: "Ada" });
    const second = await connected({ name: "Grace" });
    await type(first, "pair-race", "REVISE: split the parser");
    await type(second, "pair-race", "REVISE: keep the parser, add tests");
    await card(first, "pair-race").getByRole("button", { name: "Send decision" }).click();
    await progress(first).filter({ hasText: sentText }).waitFor();
    await card(second, "pair-race").getByRole("button", { name: "Send decision" }).click();
    const told = progress(second).filter({ hasText: /^Failed: Checkpoint #1 of pair-race was decided elsewhere: REVISE, sent by BlueLake \(reviewer Ada\) as CONTRACT_REVISION_REQUESTED \(message \d+\) at / });
    await told.waitFor();
    assert.equal((await decisions("pair-race")).length, 1);
    // The card closed; the typed text is kept, with what became of its checkpoint.
    const kept = second.locator('li.kept-draft[data-session="pair-race"]');
    await kept.waitFor({ timeout: 30_000 });
    assert.equal(await kept.locator("textarea").inputValue(), "REVISE: keep the parser, add tests");
    assert.match(await kept.textContent(), /decided elsewhere: REVISE, sent by BlueLake \(reviewer Ada\)/);

    // The first reviewer's record, read by the second context from the server's mail.
    await second.getByRole("link", { name: "pair-race", exact: true }).first().click().catch(() => {});
    await second.goto(`${web.url}/live/p/${project.slug}/sessions/pair-race`);
    const record = second.locator('li.trail-record[data-outcome="decided"]');
    await record.waitFor({ timeout: 30_000 });
    assert.match(await record.locator(".reviewer").textContent(), /^Ada$/);
    assert.equal(await record.getAttribute("data-valid"), "true");
    assert.match(await record.textContent(), /#1 REVISE: split the parser by Ada/);
    assert.match(await record.textContent(), /signature, chain and fingerprints verified/);
    assert.match(await second.locator(".trail-summary").textContent(), /chain and signatures verified · head sha256:[0-9a-f]{64}/);
    await kept.count();
    await first.close();
    await second.close();
  });

  test("a reload and a link followed mid-typing keep the typed decision, until discarded or sent", async () => {
    const page = await connected();
    await field(page, "pair-reload").fill("REVISE: half typed, then the tab reloaded");
    await page.reload();
    await field(page, "pair-reload").waitFor({ timeout: 30_000 });
    assert.equal(await field(page, "pair-reload").inputValue(), "REVISE: half typed, then the tab reloaded");
    await page.getByRole("link", { name: "Sessions", exact: true }).click();
    await page.locator("tr.session-row").first().waitFor({ timeout: 30_000 });
    await page.getByRole("link", { name: /^Checkpoints \(\d+\)$/ }).click();
    await field(page, "pair-reload").waitFor({ timeout: 30_000 });
    assert.equal(await field(page, "pair-reload").inputValue(), "REVISE: half typed, then the tab reloaded");
    await card(page, "pair-reload").locator(".outgoing").waitFor();
    await card(page, "pair-reload").getByRole("button", { name: "Send decision" }).click();
    await progress(page).filter({ hasText: sentText }).waitFor();
    await page.reload();
    await page.locator("li.checkpoint-card").first().waitFor({ timeout: 30_000 });
    assert.equal(await page.locator('li.kept-draft[data-session="pair-reload"]').count(), 0, "a sent decision is not kept");
    assert.equal((await decisions("pair-reload")).length, 1);
    await page.close();
  });

  test("a checkpoint that times out while typed at: recorded as a timeout, no decision sent", async () => {
    const page = await connected();
    await type(page, "pair-timeout", "REJECT: the tests are too thin");
    // The builder waited past the deadline and its warnings, and ended the session.
    await send("GreenCastle", "BlueLake", "pair-timeout", "SESSION_ABORT", { phase: "BUILD_COMPLETE", reason: "No response to BUILD_COMPLETE after 60 minutes and 2 warnings", status: "ABORTED", cleanup_required: true });
    await card(page, "pair-timeout").getByRole("button", { name: "Send decision" }).click();
    await progress(page).filter({ hasText: /^Failed: Checkpoint #2 of pair-timeout timed out: GreenCastle sent SESSION_ABORT \(message \d+\) at .*No reviewer decided it; nothing was sent\./ }).waitFor();
    assert.equal((await decisions("pair-timeout")).filter((m) => m.subject === "BUILD_REJECTED").length, 0);
    await page.locator('li.kept-draft[data-session="pair-timeout"]').waitFor({ timeout: 30_000 });
    await page.goto(`${web.url}/live/p/${project.slug}/sessions/pair-timeout`);
    const timedOut = page.locator('li.trail-record[data-outcome="timed_out"]');
    await timedOut.waitFor({ timeout: 30_000 });
    assert.match(await timedOut.textContent(), /#2 timed out: GreenCastle sent SESSION_ABORT \(message \d+\) at .*No reviewer decided it\./);
    await page.close();
  });

  test("approving over missing evidence asks for a reason; without one nothing can be sent; it is recorded as an override", async () => {
    const page = await connected();
    await type(page, "pair-override", "APPROVED");
    const c = card(page, "pair-override");
    await c.locator(".override .warning").waitFor();
    assert.match(await c.locator(".override .warning").textContent(), /overrides what the evidence shows .*: give your reason/);
    const button = c.getByRole("button", { name: "Send decision" });
    assert.equal(await button.isDisabled(), true);
    await field(page, "pair-override").press("Control+Enter");
    assert.equal((await decisions("pair-override")).length, 0);
    // Typed key by key, as a person types: the field stays, and keeps every character.
    const reason = c.getByLabel("Reason for the override (recorded in the review trail)");
    await reason.pressSequentially("read the contract in the PR");
    assert.equal(await reason.inputValue(), "read the contract in the PR");
    await button.click();
    await progress(page).filter({ hasText: /^Sent CONTRACT_FINAL to GreenCastle \(message \d+\)\. The review record is in the project's trail\./ }).waitFor();
    assert.equal((await decisions("pair-override")).length, 1);
    await page.goto(`${web.url}/live/p/${project.slug}/sessions/pair-override`);
    const record = page.locator('li.trail-record[data-outcome="override"]');
    await record.waitFor({ timeout: 30_000 });
    assert.match(await record.locator(".override").textContent(), /Override: read the contract in the PR, over: evidence is missing: no project folder is linked/);
    await page.close();
  });

  test("a reason being typed stays as it is while the queue changes: another card decided, new mail read", async () => {
    const page = await connected();
    await type(page, "pair-typing", "APPROVED");
    const c = card(page, "pair-typing");
    const reason = c.getByLabel("Reason for the override (recorded in the review trail)");
    await reason.pressSequentially("read the contract");
    const typing = await reason.elementHandle();
    // Another card decided from the page: the queue is read again, that card leaves it.
    await type(page, "pair-beside", "REVISE: add a rounding test");
    await card(page, "pair-beside").getByRole("button", { name: "Send decision" }).click();
    await progress(page).filter({ hasText: sentText }).waitFor();
    await card(page, "pair-beside").waitFor({ state: "detached", timeout: 30_000 });
    // New mail while the reviewer types: a session opening checkpoint #1, read by the poll.
    await reason.focus();
    await atContractReview("pair-arrives", 1767300200);
    await card(page, "pair-arrives").waitFor({ timeout: 30_000 });
    // The card was updated in place: the same field, still focused, with its text and the
    // preview beside it; the typing goes on and Send sends.
    assert.equal(await typing.evaluate((el) => el.isConnected && el === document.activeElement), true);
    await page.keyboard.type(" in the PR");
    assert.equal(await reason.inputValue(), "read the contract in the PR");
    assert.match(await c.locator(".outgoing").textContent(), /Will send CONTRACT_FINAL from BlueLake to GreenCastle in thread pair-typing/);
    await c.getByRole("button", { name: "Send decision" }).click();
    await progress(page).filter({ hasText: /^Sent CONTRACT_FINAL to GreenCastle \(message \d+\)\./ }).waitFor();
    assert.equal((await decisions("pair-typing")).length, 1);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("the exported trail verifies with switchboard records verify, and not once edited, cut or reordered", {
    skip: !haveCli() && `no CLI at ${SWITCHBOARD_BIN} (scripts/test.sh builds it)`,
  }, async () => {
    const page = await connected();
    await page.goto(`${web.url}/live/p/${project.slug}/sessions/pair-race`);
    const link = page.locator("a.export", { hasText: "Export the project's trail as JSON Lines" });
    await link.waitFor({ timeout: 30_000 });
    const href = await link.getAttribute("href");
    const trail = decodeURIComponent(href.slice(href.indexOf(",") + 1));
    const head = (await page.locator(".trail-summary code.head").textContent()).replace("sha256:", "");
    const lines = trail.trimEnd().split("\n");
    assert.ok(lines.length >= 5, `${lines.length} records`);
    const verify = async (text, ...args) => {
      const file = join(dir, "trail.jsonl");
      await writeFile(file, text);
      try {
        return { code: 0, out: JSON.parse(execFileSync(SWITCHBOARD_BIN, ["records", "verify", file, "--compact", ...args]).toString()) };
      } catch (err) {
        return { code: err.status, out: JSON.parse(err.stdout.toString()) };
      }
    };
    const ok = await verify(trail, "--head", head);
    assert.equal(ok.code, 0, JSON.stringify(ok.out));
    assert.equal(ok.out.records, lines.length);
    const codes = (r) => r.out.problems.map((p) => `${p.line}:${p.code}`);
    const edited = [...lines];
    edited[1] = edited[1].replace('"reviewer":"Ada"', '"reviewer":"Mallory"');
    assert.deepEqual(codes(await verify(edited.join("\n"))), ["2:bad_signature", "3:chain_broken"]);
    assert.deepEqual(codes(await verify([lines[0], ...lines.slice(2)].join("\n"))), ["2:chain_broken"]);
    assert.deepEqual(codes(await verify([lines[1], lines[0], ...lines.slice(2)].join("\n"))), ["1:chain_broken", "2:chain_broken", "3:chain_broken"]);
    assert.deepEqual(codes(await verify(lines.slice(0, -1).join("\n"), "--head", head)), ["0:head_mismatch"]);
    await page.close();
  });
});
