// One queue for the server, against a real Agent Mail 0.2.1 server in Debian's Chromium: two
// projects each with a Pair session waiting at a human checkpoint; /live/queue lists both,
// the oldest first, each with its project, session, task, opening time and countdown, and
// the tab title counts them. A checkpoint opened meanwhile in either project joins the queue
// at the next poll. While the server answers 500 or nothing, the queue keeps what it read
// and says so; the note goes when the server answers again.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openPage } from "../support/browser.mjs";
import { connectTo, useConsole } from "../support/console.mjs";
import { SERVERS, pythonOf, startAgentMail } from "../support/agent-mail.mjs";

const web = useConsole();

describe("the server's queue of open checkpoints, against a real upstream 0.2.1 server", {
  skip: !existsSync(pythonOf(SERVERS.upstream)) && `no venv at ${pythonOf(SERVERS.upstream)}`,
}, () => {
  let server;
  let dir;
  const projects = {};

  const send = (project, from, to, thread, subject, body) => server.tool("send_message", {
    project_key: project.human_key, sender_name: from, to: [to], subject, body_md: JSON.stringify(body), thread_id: thread,
  });

  /** A session waiting at checkpoint #1 (contract review). */
  async function atContractReview(project, thread, stamp) {
    await send(project, "BlueLake", "GreenCastle", thread, "PAIR_INIT", { protocol_version: "3.1", task: `Task of ${thread}`, my_role: "PLANNER", your_role: "BUILDER", status: "INITIALIZED" });
    await send(project, "BlueLake", "GreenCastle", thread, "CONTRACT_DRAFT", { phase: "CONTRACT_GENERATION", status: "AWAITING_HUMAN_REVIEW", artifacts: { safety_reasoning: `tmp/pair_${stamp}_safety.md`, spec: `tmp/pair_${stamp}_spec_draft.md`, tests: `tmp/pair_${stamp}_tests.py` } });
  }

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "switchboard-queue-"));
    server = await startAgentMail({ corsOrigin: web.url });
    for (const name of ["billing", "search"]) {
      const project = await server.tool("ensure_project", { human_key: join(dir, name) });
      for (const [agent, program] of [["BlueLake", "claude-code"], ["GreenCastle", "codex-cli"]]) {
        await server.tool("register_agent", { project_key: project.human_key, program, model: "test", name: agent, task_description: agent });
      }
      projects[name] = project;
    }
    // The search project's checkpoint opens first: it is the oldest.
    await atContractReview(projects.search, "pair-search", 1767500000);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await atContractReview(projects.billing, "pair-billing", 1767500001);
  });

  after(async () => {
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test("every project's open checkpoints, the oldest first, counted in the tab title", async () => {
    const page = await openPage(web.browser);
    await connectTo(page, web, server.url);
    await page.getByRole("link", { name: "Open checkpoints on this server" }).click();
    await page.waitForURL(/\/live\/queue$/);
    await page.getByRole("heading", { name: "Open checkpoints on this server" }).waitFor();
    const items = page.locator("li.queue-item");
    await page.locator(".queue-view p.read", { hasText: /^2 of 2 project\(s\) read in full/ }).waitFor({ timeout: 30_000 });
    await items.nth(1).waitFor({ timeout: 30_000 });
    assert.deepEqual(
      await items.evaluateAll((li) => li.map((l) => [l.dataset.project, l.dataset.session])),
      [[projects.search.slug, "pair-search"], [projects.billing.slug, "pair-billing"]],
    );
    const first = items.first();
    assert.match(await first.textContent(), /#1 Contract review · pair-search in /);
    assert.match(await first.textContent(), /Task of pair-search · opened /);
    assert.equal(
      await first.getByRole("link", { name: "#1 Contract review" }).getAttribute("href"),
      `/live/p/${projects.search.slug}/checkpoints`,
    );
    assert.match(await page.locator(".queue-view .summary").textContent(), /^2 open checkpoint\(s\) in 2 project\(s\), the oldest first$/);
    await page.waitForFunction(() => document.title === "(2) Switchboard");

    // A checkpoint opened meanwhile joins the queue at the next poll, last (the newest).
    await atContractReview(projects.billing, "pair-billing-2", 1767500002);
    await items.nth(2).waitFor({ timeout: 30_000 });
    assert.equal(await items.nth(2).getAttribute("data-session"), "pair-billing-2");
    await page.waitForFunction(() => document.title === "(3) Switchboard");
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("the server answering 500, then not at all: the queue keeps its rows and says it shows what was read before", async () => {
    const page = await openPage(web.browser);
    await connectTo(page, web, server.url);
    await page.goto(`${web.url}/live/queue`);
    const items = page.locator("li.queue-item");
    await page.locator(".queue-view p.read", { hasText: /^2 of 2 project\(s\) read in full; new mail is read as it arrives\.$/ }).waitFor({ timeout: 30_000 });
    const shown = await items.count();
    assert.ok(shown >= 2, `${shown} checkpoints`);
    const read = page.locator(".queue-view p.read");
    const failed = page.locator(".queue-view p.read", { hasText: /read in full\. No new mail could be read: / });
    for (const fault of [
      (route) => route.fulfill({ status: 500, contentType: "text/plain", body: "Internal Server Error" }),
      (route) => route.abort("connectionrefused"),
    ]) {
      await page.route(`${server.url}/**`, fault);
      // The next poll (every 10 s) fails: the rows stay, the words say why.
      await failed.waitFor({ timeout: 25_000 });
      assert.match(await read.textContent(), /^2 of 2 project\(s\) read in full\. No new mail could be read: .+ What is shown is the mail read before; trying again every 10 s\.$/);
      assert.equal(await items.count(), shown);
      await page.unrouteAll({ behavior: "wait" });
      // Answered again: the words go at the next poll.
      await read.filter({ hasText: /new mail is read as it arrives\.$/ }).waitFor({ timeout: 25_000 });
    }
    assert.equal(await items.count(), shown);
    assert.deepEqual(page.errors.filter((e) => !/500|Failed to fetch|ERR_CONNECTION_REFUSED/.test(e)), []);
    await page.close();
  });
});
