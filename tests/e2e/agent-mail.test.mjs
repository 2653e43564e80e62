// The console against real MCP Agent Mail servers, in headless Chromium: upstream 0.2.1 and
// the mcp-mail 0.1.19 fork (whose acknowledge goes through call_extended_tool). Each server
// is started on a free loopback port with CORS allowing the console's origin, seeded through
// its MCP JSON-RPC API, and stopped at the end. The servers' own API confirms the console's
// acknowledgements and replies. Connection failures are diagnosed in actionable words.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { openPage } from "../support/browser.mjs";
import { connectTo, useConsole } from "../support/console.mjs";
import { startStaticServer } from "../support/static-server.mjs";
import { SERVERS, freePort, pythonOf, startAgentMail } from "../support/agent-mail.mjs";
import { haveCli, validate } from "../support/validate.mjs";

const web = useConsole();

/** Seeds a project with two agents and three messages; returns the project. */
async function seed(server) {
  const project = await server.tool("ensure_project", { human_key: `${server.dir}/repo` });
  for (const [name, program] of [["BlueLake", "claude-code"], ["GreenCastle", "codex-cli"]]) {
    await server.tool("register_agent", { project_key: project.human_key, program, model: "test", name, task_description: name });
  }
  const send = (args) => server.tool("send_message", { project_key: project.human_key, sender_name: "BlueLake", to: ["GreenCastle"], ...args });
  await send({ subject: "API contract for /users", body_md: "Please review the **users** API. Ack when read.", importance: "high", ack_required: true, thread_id: "FEAT-1" });
  const pair = { to: "GreenCastle", subject: "PAIR_INIT", body: { protocol_version: "3.1", task: "Add JWT auth", my_role: "PLANNER", your_role: "BUILDER", status: "INITIALIZED" } };
  await send({ subject: "[pair-1] PAIR_INIT", body_md: "Pair session start.\n\n```json\n" + JSON.stringify(pair, null, 2) + "\n```\n", thread_id: "pair-1" });
  await send({ subject: "FYI: CI is green", body_md: "Nothing to do." });
  return project;
}

/** Connects the console to `server` and opens GreenCastle's inbox through the links. */
async function openInbox(page, server, project) {
  await page.goto(web.url);
  await page.getByLabel("Server URL").fill(server.url);
  await page.getByRole("button", { name: "Connect" }).click();
  await page.getByRole("heading", { name: "Projects" }).waitFor();
  await page.getByRole("link", { name: project.slug }).click();
  await page.getByRole("link", { name: "GreenCastle", exact: true }).first().click();
  await page.getByRole("heading", { name: "GreenCastle — Inbox" }).waitFor();
  await page.locator("li.row").first().waitFor();
}

for (const [label, venv, variant] of [
  ["upstream 0.2.1", SERVERS.upstream, "MCP Agent Mail ≤ 0.2 (no agent tokens)"],
  ["mcp-mail 0.1.19 fork", SERVERS.fork, "mcp-mail fork (extended tools)"],
]) {
  describe(`a real ${label} server`, { skip: !existsSync(pythonOf(venv)) && `no venv at ${pythonOf(venv)}` }, () => {
    let server;
    let project;

    before(async () => {
      server = await startAgentMail({ venv, corsOrigin: web.url });
      project = await seed(server);
    });

    after(async () => {
      await server?.stop();
    });

    test("the probe recognizes the variant and the inbox shows the seeded messages", async () => {
      const tools = (await server.rpc("tools/list", {})).tools.map((t) => t.name);
      // The fork hides acknowledge_message behind call_extended_tool; the console adapts.
      assert.equal(tools.includes("call_extended_tool"), venv === SERVERS.fork);
      assert.equal(tools.includes("acknowledge_message"), venv !== SERVERS.fork);
      const page = await openPage(web.browser);
      await page.goto(web.url);
      await page.getByLabel("Server URL").fill(server.url);
      await page.getByRole("button", { name: "Connect" }).click();
      await page.getByRole("heading", { name: "Projects" }).waitFor();
      assert.match(await page.locator(".server-info").textContent(), new RegExp(`Backend: ${variant.replace(/[()]/g, "\\$&")}`));
      const templates = (await server.rpc("resources/templates/list", {})).resourceTemplates.length;
      assert.match(await page.locator(".server-info").textContent(), new RegExp(`\\(${tools.length} tools, ${templates} resource templates\\)`));
      await page.getByRole("link", { name: project.slug }).click();
      await page.getByRole("link", { name: "GreenCastle", exact: true }).first().click();
      await page.locator("li.row").first().waitFor();
      const subjects = await page.locator("li.row a.subject").allTextContents();
      assert.deepEqual(subjects.sort(), ["API contract for /users", "FYI: CI is green", "[pair-1] PAIR_INIT"]);
      assert.equal(await page.locator(".pending-count").textContent(), "1");

      // Operator mode, where the server offers /mail/api/unified-inbox: every agent's mail.
      await page.getByRole("link", { name: "Server", exact: true }).click();
      const operator = page.getByRole("link", { name: "Operator mode: all agents' mail" });
      await page.locator(".server-info").waitFor();
      if (await operator.isVisible()) {
        await operator.click();
        await page.getByRole("heading", { name: "All mail (operator)" }).waitFor();
        // The heading comes before the rows: wait for them (this raced under load).
        await page.locator("table.operator tbody th").first().waitFor();
        const all = await page.locator("table.operator tbody th").allTextContents();
        for (const subject of subjects) assert.ok(all.includes(subject), `${subject} in ${all}`);
      }
      // No token ever lands in the URL or in localStorage.
      assert.equal(await page.evaluate(() => localStorage.length), 0);
      assert.deepEqual(page.errors, []);
    });

    test("acknowledging in the console is confirmed by the server", async () => {
      const page = await openPage(web.browser);
      await openInbox(page, server, project);
      const before = await server.resource(`resource://views/ack-required/GreenCastle?project=${project.slug}`);
      assert.equal(before.count, 1);
      const row = page.locator("li.row.unacked");
      const id = Number(await row.getAttribute("data-id"));
      await row.getByRole("button", { name: "Acknowledge" }).click();
      await page.getByRole("status").filter({ hasText: `Message ${id} acknowledged.` }).waitFor();
      await page.locator(".pending-count", { hasText: "0" }).waitFor();
      const afterAck = await server.resource(`resource://views/ack-required/GreenCastle?project=${project.slug}`);
      assert.equal(afterAck.count, 0, "the server's ack-required view is empty");
      assert.deepEqual(page.errors, []);
    });

    test("mark read in the console is confirmed by the server", async () => {
      const unread = async () => {
        const agents = await server.resource(`resource://agents/${project.slug}`);
        return agents.agents.find((a) => a.name === "GreenCastle")?.unread_count;
      };
      const before = await unread();
      const page = await openPage(web.browser);
      await openInbox(page, server, project);
      await page.getByRole("link", { name: "FYI: CI is green" }).click();
      await page.locator("article.message").waitFor();
      await page.getByRole("button", { name: "Mark read" }).click();
      await page.getByRole("status").filter({ hasText: /Message \d+ marked read\./ }).waitFor();
      if (typeof before === "number") assert.equal(await unread(), before - 1);
      assert.deepEqual(page.errors, []);
    });

    test("after a reload (connection not remembered), connecting again returns to the page", async () => {
      const page = await openPage(web.browser);
      await openInbox(page, server, project);
      await page.getByRole("link", { name: "API contract for /users" }).click();
      await page.locator("article.message").waitFor();
      const deepLink = page.url();
      await page.reload();
      await page.getByRole("alert").filter({ hasText: "Not connected to a server" }).waitFor();
      await page.getByRole("link", { name: "Go to the connect screen" }).click();
      await page.getByLabel("Server URL").fill(server.url);
      await page.getByRole("button", { name: "Connect" }).click();
      await page.waitForURL(deepLink);
      assert.match(await page.locator("#message-title").textContent(), /API contract for \/users/);
      assert.deepEqual(page.errors, []);
    });

    test("leaving a page aborts its request still in flight", async () => {
      const page = await openPage(web.browser);
      await openInbox(page, server, project);
      // The server never answers the message view's request: it stays in flight.
      const isMessageRead = (request) => (request.postData() ?? "").includes("resource://message/");
      await page.route(`${server.url}/**`, (route) => (isMessageRead(route.request()) ? undefined : route.continue()));
      const failure = new Promise((resolve) => {
        page.on("requestfailed", (request) => isMessageRead(request) && resolve(request.failure()?.errorText));
      });
      await page.getByRole("link", { name: "FYI: CI is green" }).click();
      await page.getByText("Loading…").waitFor();
      await page.goBack();
      await page.getByRole("heading", { name: "GreenCastle — Inbox" }).waitFor();
      const stillWaiting = new Promise((resolve) => setTimeout(() => resolve("still in flight after 10 s"), 10_000));
      assert.equal(await Promise.race([failure, stillWaiting]), "net::ERR_ABORTED");
      await page.unrouteAll({ behavior: "ignoreErrors" });
      assert.deepEqual(page.errors, []);
    });

    test("releasing a reservation in the console is confirmed by the server", async () => {
      // The fork offers file_reservation_paths only through call_extended_tool.
      const args = { project_key: project.human_key, agent_name: "GreenCastle", paths: ["src/api/*.py"], exclusive: true, reason: "FEAT-1" };
      const granted = venv === SERVERS.fork
        ? await server.tool("call_extended_tool", { tool_name: "file_reservation_paths", arguments: args })
        : await server.tool("file_reservation_paths", args);
      const id = granted.granted[0].id;
      // 0.2.1's active_only=true still lists released reservations: read released_ts instead.
      const releasedTs = async () =>
        (await server.resource(`resource://file_reservations/${project.slug}?active_only=false`)).find((r) => r.id === id).released_ts;
      assert.equal(await releasedTs(), null);
      const page = await openPage(web.browser);
      await openInbox(page, server, project);
      await page.getByRole("link", { name: project.slug }).first().click();
      await page.getByRole("link", { name: "File reservations" }).click();
      await page.getByRole("button", { name: "Release src/api/*.py held by GreenCastle" }).click();
      await page.getByRole("status").filter({ hasText: `Reservation ${id} released.` }).waitFor();
      assert.ok(await releasedTs(), "the server recorded the release");
      assert.deepEqual(page.errors, []);
    });

    test("a reply from the console reaches the original sender, in the thread", async () => {
      const page = await openPage(web.browser);
      await openInbox(page, server, project);
      await page.getByRole("link", { name: "[pair-1] PAIR_INIT" }).click();
      await page.locator("article.message").waitFor();
      assert.match(await page.locator(".badge").first().textContent(), /Valid · pair/);
      await page.getByLabel("Reply as GreenCastle").fill("Builder ready.");
      await page.getByRole("button", { name: "Send reply" }).click();
      await page.getByRole("status").filter({ hasText: /Reply sent \(message \d+\)\./ }).waitFor();
      const inbox = await server.tool("fetch_inbox", { project_key: project.human_key, agent_name: "BlueLake", include_bodies: true });
      const reply = inbox.find((m) => m.subject === "Re: [pair-1] PAIR_INIT");
      assert.ok(reply, "BlueLake received the reply");
      assert.equal(reply.thread_id, "pair-1");
      assert.equal(reply.body_md, "Builder ready.");
      assert.deepEqual(page.errors, []);
    });

    test("a Pair checkpoint seeded with the server's tools is decided in the console and reaches the builder", async () => {
      // The session as agents write it over Agent Mail: subject = type, body_md = the body.
      const send = (subject, body) => server.tool("send_message", {
        project_key: project.human_key, sender_name: "BlueLake", to: ["GreenCastle"],
        subject, body_md: JSON.stringify(body), thread_id: "pair-live",
      });
      await send("PAIR_INIT", { protocol_version: "3.1", task: "Add JWT auth", my_role: "PLANNER", your_role: "BUILDER", status: "INITIALIZED" });
      await send("CONTRACT_DRAFT", {
        phase: "CONTRACT_GENERATION", status: "AWAITING_HUMAN_REVIEW",
        artifacts: { safety_reasoning: "tmp/pair_1767200000_safety.md", spec: "tmp/pair_1767200000_spec_draft.md", tests: "tmp/pair_1767200000_tests.py" },
      });
      const page = await openPage(web.browser);
      await page.goto(web.url);
      await page.getByLabel("Server URL").fill(server.url);
      await page.getByRole("button", { name: "Connect" }).click();
      await page.getByRole("heading", { name: "Projects" }).waitFor();
      await page.getByRole("link", { name: project.slug }).click();
      await page.getByRole("link", { name: "Checkpoints", exact: true }).click();
      const card = page.locator('li.checkpoint-card[data-session="pair-live"]');
      await card.waitFor({ timeout: 30_000 });
      assert.equal(await card.getAttribute("data-checkpoint"), "1");
      assert.match(await card.locator(".needs").textContent(), /tmp\/pair_1767200000_spec_draft\.md/);
      await page.getByLabel("Reviewing as").fill("Ada");
      await card.getByLabel("Decision for pair-live (as the seed writes it)").fill("APPROVED");
      const outgoing = card.locator(".outgoing");
      await outgoing.waitFor();
      // No folder is linked: approving is an override, with its reason.
      await card.getByLabel("Reason for the override (recorded in the review trail)").fill("contract read in the PR");
      assert.match(await outgoing.textContent(), /Will send CONTRACT_FINAL from BlueLake to GreenCastle in thread pair-live · valid/);
      const body = JSON.parse(await outgoing.locator("pre").textContent());

      // A send that fails keeps the typed decision.
      const isSend = (request) => (request.postData() ?? "").includes('"send_message"');
      await page.route(`${server.url}/**`, (route) => (isSend(route.request()) ? route.abort() : route.continue()));
      await card.getByRole("button", { name: "Send decision" }).click();
      await page.locator(".progress", { hasText: /^Failed: / }).waitFor();
      assert.equal(await card.getByLabel("Decision for pair-live (as the seed writes it)").inputValue(), "APPROVED");
      await page.unrouteAll({ behavior: "ignoreErrors" });

      await card.getByRole("button", { name: "Send decision" }).click();
      const sent = page.locator(".progress", { hasText: /^Sent CONTRACT_FINAL to GreenCastle \(message \d+\)/ });
      await sent.waitFor();
      const id = Number((await sent.textContent()).match(/message (\d+)/)[1]);
      await card.waitFor({ state: "detached", timeout: 30_000 });

      // The builder's inbox, through the server's own API.
      const inbox = await server.tool("fetch_inbox", { project_key: project.human_key, agent_name: "GreenCastle", include_bodies: true });
      const got = inbox.find((m) => m.id === id);
      assert.ok(got, `message ${id} is in GreenCastle's inbox`);
      assert.equal(got.subject, "CONTRACT_FINAL");
      assert.equal(got.thread_id, "pair-live");
      assert.equal(got.from, "BlueLake");
      assert.deepEqual(JSON.parse(got.body_md), body);
      assert.deepEqual(body.artifacts, { spec: "tmp/pair_1767200000_spec_final.md", tests: "tmp/pair_1767200000_tests.py" });
      if (haveCli()) {
        const report = validate({ subject: got.subject, body_md: got.body_md });
        assert.equal(report.valid, true, JSON.stringify(report));
        assert.equal(report.message_type, "CONTRACT_FINAL");
      }
      // The session moved on: the console shows the contract finalized.
      await page.getByRole("link", { name: "Sessions", exact: true }).click();
      await page.locator('tr.session-row[data-session="pair-live"] .phase', { hasText: "CONTRACT_FINALIZED" }).waitFor({ timeout: 30_000 });
      assert.deepEqual(page.errors.filter((e) => !e.includes("ERR_FAILED")), []);
    });

    // Which ids may hold URL characters: 0.2.1 rejects such a thread_id ("Thread IDs must
    // start with an alphanumeric character and contain only letters, numbers, '.', '_', or
    // '-'") and both servers turn project keys into slugs and agent names into plain ones;
    // the fork stores the thread id as given.
    test("a thread id with %, /, ?, # and spaces opens as itself, also after a reload", {
      skip: venv !== SERVERS.fork && "this server accepts no such thread id",
    }, async () => {
      const thread = "a%2Fb c?d#e/f%";
      await server.tool("send_message", {
        project_key: project.human_key, sender_name: "BlueLake", to: ["GreenCastle"],
        subject: "Odd thread", body_md: "In a thread with URL characters.", thread_id: thread,
      });
      const page = await openPage(web.browser);
      await connectTo(page, web, server.url);
      await page.getByRole("link", { name: project.slug }).click();
      await page.getByRole("link", { name: "GreenCastle", exact: true }).first().click();
      const row = page.locator("li.row", { hasText: "Odd thread" });
      await row.waitFor();
      assert.equal(await row.locator("a.thread").textContent(), thread);
      await row.locator("a.thread").click();
      const heading = page.getByRole("heading", { name: `Thread ${thread}`, exact: true });
      await heading.waitFor();
      await page.getByText("Odd thread").first().waitFor();
      // The address bar keeps the id encoded exactly once, so a reload opens the same thread.
      assert.ok(page.url().endsWith(`/thread/${encodeURIComponent(thread)}`), page.url());
      await page.reload();
      await heading.waitFor();
      await page.getByText("Odd thread").first().waitFor();
      // The inbox filtered to the thread: the id travels in the query string.
      await page.getByRole("link", { name: "Inbox filtered to this thread" }).click();
      await page.locator("li.row").first().waitFor();
      assert.deepEqual(await page.locator("li.row a.subject").allTextContents(), ["Odd thread"]);
      assert.equal(await page.locator("p.summary a").first().textContent(), thread);
      assert.equal(new URL(page.url()).searchParams.get("thread"), thread);
      assert.deepEqual(page.errors, []);
    });
  });
}

describe("connection failures are diagnosed", { skip: !existsSync(pythonOf(SERVERS.upstream)) && "no upstream venv" }, () => {
  let server;
  let otherWeb;

  before(async () => {
    server = await startAgentMail({ venv: SERVERS.upstream, corsOrigin: web.url });
    otherWeb = await startStaticServer("dist");
  });

  after(async () => {
    await server?.stop();
    await otherWeb?.close();
  });

  async function connect(origin, url, token) {
    const page = await openPage(web.browser);
    await page.goto(origin);
    await page.getByLabel("Server URL").fill(url);
    if (token) await page.getByLabel("Bearer token (optional)").fill(token);
    await page.getByRole("button", { name: "Connect" }).click();
    const status = page.getByRole("status").filter({ hasText: "Failed:" });
    await status.waitFor({ timeout: 20_000 });
    return (await status.textContent()).replace(/\s+/g, " ");
  }

  test("a console origin the server does not allow gets the exact CORS setting to add", async () => {
    const text = await connect(otherWeb.url, server.url);
    assert.match(text, new RegExp(`does not allow this console's origin \\(${otherWeb.url}\\)`));
    assert.ok(text.includes(`HTTP_CORS_ENABLED=true HTTP_CORS_ORIGINS=${otherWeb.url}`), text);
  });

  test("nothing listening is reported as unreachable", async () => {
    const port = await freePort();
    const text = await connect(web.url, `http://127.0.0.1:${port}`);
    assert.match(text, new RegExp(`Nothing answers at http://127.0.0.1:${port}`));
  });

  test("a server without an MCP endpoint is reported as a wrong path", async () => {
    const text = await connect(web.url, web.url);
    assert.match(text, /No MCP endpoint found \(tried .*\/mcp\/, .*\/api\/\)/);
  });

  test("a server that wants a bearer token says so (401), and the token connects", async () => {
    const guarded = await startAgentMail({
      venv: SERVERS.upstream,
      corsOrigin: web.url,
      env: { HTTP_BEARER_TOKEN: "s3cret", HTTP_ALLOW_LOCALHOST_UNAUTHENTICATED: "false" },
    });
    try {
      assert.match(await connect(web.url, guarded.url), /requires a bearer token/);
      assert.match(await connect(web.url, guarded.url, "wrong"), /refused the bearer token/);
      const page = await openPage(web.browser);
      await page.goto(web.url);
      await page.getByLabel("Server URL").fill(guarded.url);
      await page.getByLabel("Bearer token (optional)").fill("s3cret");
      await page.getByRole("button", { name: "Connect" }).click();
      await page.getByRole("heading", { name: "Projects" }).waitFor();
      assert.ok(!page.url().includes("s3cret"), "the token is not in the URL");
      assert.equal(await page.evaluate(() => localStorage.length + sessionStorage.length), 0);
    } finally {
      await guarded.stop();
    }
  });
});
