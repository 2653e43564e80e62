// A live project's traffic kept in this browser, against a real Agent Mail 0.2.1 server in
// headless Chromium: the sessions view reads the project's mail and keeps its pages in
// IndexedDB; a reload draws the sessions from them and asks the server only for newer mail
// (every fetch_inbox carries since_ts); Disconnect forgets them.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { openPage } from "../support/browser.mjs";
import { useConsole } from "../support/console.mjs";
import { SERVERS, pythonOf, startAgentMail } from "../support/agent-mail.mjs";

const web = useConsole();
const venv = SERVERS.upstream;

/** How many pages the console keeps in this page's IndexedDB. */
const keptPages = (page) =>
  page.evaluate(() => new Promise((ok) => {
    const open = indexedDB.open("switchboard-traffic", 1);
    open.onupgradeneeded = () => open.result.createObjectStore("pages");
    open.onsuccess = () => {
      const count = open.result.transaction("pages").objectStore("pages").count();
      count.onsuccess = () => ok(count.result);
    };
  }));

describe("a project's traffic kept in the browser", { skip: !existsSync(pythonOf(venv)) && `no venv at ${pythonOf(venv)}` }, () => {
  let server;
  let project;

  before(async () => {
    server = await startAgentMail({ venv, corsOrigin: web.url });
    project = await server.tool("ensure_project", { human_key: `${server.dir}/repo` });
    for (const name of ["BlueLake", "GreenCastle"]) {
      await server.tool("register_agent", { project_key: project.human_key, program: "test", model: "test", name, task_description: name });
    }
    const send = (subject, body) => server.tool("send_message", {
      project_key: project.human_key, sender_name: "BlueLake", to: ["GreenCastle"], subject,
      body_md: JSON.stringify(body), thread_id: "pair-kept",
    });
    await send("PAIR_INIT", { protocol_version: "3.1", task: "Keep the mail", my_role: "PLANNER", your_role: "BUILDER", status: "INITIALIZED" });
    await send("CONTRACT_DRAFT", {
      phase: "CONTRACT_GENERATION", status: "AWAITING_HUMAN_REVIEW",
      artifacts: { safety_reasoning: "tmp/pair_1_safety.md", spec: "tmp/pair_1_spec_draft.md", tests: "tmp/pair_1_tests.py" },
    });
  });

  after(async () => {
    await server?.stop();
  });

  test("a reload draws the sessions from IndexedDB and reads only newer mail; Disconnect forgets them", async () => {
    const page = await openPage(web.browser);
    await page.goto(web.url);
    await page.getByLabel("Server URL").fill(server.url);
    await page.getByLabel("Remember for this tab (sessionStorage)").check();
    await page.getByRole("button", { name: "Connect" }).click();
    await page.getByRole("heading", { name: "Projects" }).waitFor();
    await page.getByRole("link", { name: project.slug }).click();
    await page.getByRole("link", { name: "Sessions", exact: true }).click();
    const row = page.locator('tr.session-row[data-session="pair-kept"]');
    await row.locator(".checkpoint", { hasText: "#1" }).waitFor({ timeout: 30_000 });
    await page.waitForFunction(() => performance.getEntriesByName("switchboard:traffic-arrived").length > 0);
    for (let i = 0; i < 50 && (await keptPages(page)) === 0; i++) await page.waitForTimeout(100);
    assert.ok((await keptPages(page)) > 0, "the read's pages are kept");

    const inboxCalls = [];
    page.on("request", (request) => {
      const body = request.postData() ?? "";
      if (body.includes('"fetch_inbox"')) inboxCalls.push(JSON.parse(body).params.arguments);
    });
    await page.reload();
    await row.locator(".checkpoint", { hasText: "#1" }).waitFor({ timeout: 30_000 });
    await page.waitForFunction(() => !document.querySelector(".traffic.loading"));
    assert.ok(inboxCalls.length > 0, "newer mail was asked for");
    assert.ok(inboxCalls.every((args) => typeof args.since_ts === "string"), JSON.stringify(inboxCalls));
    await page.screenshot({ path: "/tmp/switchboard-kept-sessions.png" }).catch(() => {});

    await page.goto(web.url);
    const disconnect = page.getByRole("button", { name: "Disconnect" });
    await disconnect.waitFor();
    await page.screenshot({ path: "/tmp/switchboard-kept-connect.png" }).catch(() => {});
    await disconnect.click();
    await disconnect.waitFor({ state: "detached" });
    for (let i = 0; i < 50 && (await keptPages(page)) > 0; i++) await page.waitForTimeout(100);
    assert.equal(await keptPages(page), 0, "Disconnect forgets the kept pages");
    assert.equal(await page.evaluate(() => sessionStorage.length), 0, "and the remembered settings");
    assert.deepEqual(page.errors, []);
  });
});
