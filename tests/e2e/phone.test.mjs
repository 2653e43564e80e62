// Every route at a phone's width (390 × 844 and 360 × 740), in Debian's Chromium: the page
// never scrolls sideways (its scroll width is at most the viewport's), on the demo and on a
// real Agent Mail 0.2.1 server; screenshots of the checkpoints, a session, a message and an
// inbox land in target/phone-*.png. 200 % zoom of a 780 px window is the same CSS width.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync } from "node:fs";
import { connectTo, useConsole } from "../support/console.mjs";
import { SERVERS, pythonOf, startAgentMail } from "../support/agent-mail.mjs";

const web = useConsole();
const PHONES = [{ width: 390, height: 844 }, { width: 360, height: 740 }];
const LAB = "/demo/p/pair-lab";
const BLUE = `${LAB}/a/BlueLake`;

/** A page at a phone's size that records console errors. */
async function phone(viewport) {
  const page = await web.browser.newPage({ viewport });
  page.errors = [];
  page.on("pageerror", (err) => page.errors.push(err.message));
  return page;
}

/** Waits for the view to settle: its main section, then no request for a moment. */
async function settle(page) {
  await page.locator("main section, main nav").first().waitFor({ timeout: 30_000 });
  await page.waitForLoadState("networkidle").catch(() => {});
  await page.waitForTimeout(600);
}

/** Scroll width against the viewport, and the widest element when the page is too wide. */
async function width(page) {
  return page.evaluate(() => {
    const view = window.innerWidth;
    const scroll = document.documentElement.scrollWidth;
    let widest = "";
    if (scroll > view) {
      let max = view;
      for (const el of document.querySelectorAll("main *, header *")) {
        const right = el.getBoundingClientRect().right;
        if (right > max + 0.5) {
          max = right;
          widest = `${el.tagName.toLowerCase()}.${[...el.classList].join(".")} (${Math.round(right)} px)`;
        }
      }
    }
    return { view, scroll, widest };
  });
}

async function fits(page, route) {
  const { view, scroll, widest } = await width(page);
  assert.ok(scroll <= view, `${route}: the page is ${scroll} px wide at ${view} px (widest: ${widest})`);
}

const DEMO_ROUTES = [
  "/", "/demo", "/demo/operator", "/demo/queue", LAB, `${BLUE}/inbox`, `${BLUE}/outbox`, `${BLUE}/contacts`,
  `${BLUE}/thread/pair-104`, `${LAB}/reservations`, `${LAB}/search?q=contract`, `${LAB}/compose`,
  `${LAB}/sessions`, `${LAB}/sessions/pair-104`, `${LAB}/sessions/pair-108`, `${LAB}/checkpoints`,
  `${LAB}/audits`, `${LAB}/conformance`, "/demo/p/po-factory/tasks", "/demo/p/droid-fleet/tasks",
  `${LAB}/tasks`, "/demo/p/scale",
];

if (!existsSync("target")) mkdirSync("target");

for (const viewport of PHONES) {
  test(`every demo route fits ${viewport.width} px without sideways scrolling`, async () => {
    const page = await phone(viewport);
    for (const route of DEMO_ROUTES) {
      await page.goto(web.url + route);
      await settle(page);
      await fits(page, route);
    }
    // A message, found from the inbox.
    await page.goto(`${web.url}${BLUE}/inbox`);
    await page.locator("li.row a").first().waitFor();
    await page.locator("li.row a").first().click();
    await settle(page);
    await fits(page, "message");
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}

test("the phone screenshots: checkpoints, a session, a message, an inbox", async () => {
  const page = await phone(PHONES[0]);
  await page.goto(`${web.url}${LAB}/checkpoints`);
  await page.locator('li.checkpoint-card[data-session="pair-104"] .evidence-audit').waitFor({ timeout: 30_000 });
  await page.getByLabel("Reviewing as").fill("Ada");
  await page.locator('li.checkpoint-card[data-session="pair-104"]').getByLabel("Decision for pair-104 (as the seed writes it)").fill("MERGE APPROVED");
  await page.locator('li.checkpoint-card[data-session="pair-104"] .override').waitFor();
  await fits(page, "checkpoints, typing");
  // The decision buttons are thumb-sized.
  const buttons = await page.locator('li.checkpoint-card[data-session="pair-104"] form.decision button').evaluateAll((els) => els.map((b) => b.getBoundingClientRect().height));
  assert.ok(buttons.every((h) => h >= 44), `button heights ${buttons}`);
  await page.screenshot({ path: "target/phone-checkpoints.png", fullPage: true });
  await page.goto(`${web.url}${LAB}/sessions/pair-104`);
  await page.locator("ol.timeline li").first().waitFor();
  await page.screenshot({ path: "target/phone-session.png", fullPage: true });
  await page.goto(`${web.url}${BLUE}/inbox`);
  await page.locator("li.row").first().waitFor();
  await page.screenshot({ path: "target/phone-inbox.png" });
  await page.locator("li.row a").first().click();
  await page.locator("article.message").waitFor();
  await page.screenshot({ path: "target/phone-message.png", fullPage: true });
  assert.deepEqual(page.errors, []);
  await page.close();
});

describe("every route of a real upstream 0.2.1 server fits a phone", {
  skip: !existsSync(pythonOf(SERVERS.upstream)) && `no venv at ${pythonOf(SERVERS.upstream)}`,
}, () => {
  let server;
  let project;

  before(async () => {
    server = await startAgentMail({ corsOrigin: web.url });
    project = await server.tool("ensure_project", { human_key: `${server.dir}/a-repository-with-a-rather-long-name-for-a-phone` });
    for (const name of ["BlueLake", "GreenCastle"]) {
      await server.tool("register_agent", { project_key: project.human_key, program: "claude-code", model: "test", name, task_description: name });
    }
    const send = (subject, body, thread) => server.tool("send_message", {
      project_key: project.human_key, sender_name: "BlueLake", to: ["GreenCastle"], subject, body_md: typeof body === "string" ? body : JSON.stringify(body), thread_id: thread,
    });
    await send("A subject long enough to need wrapping on a phone: the users API contract and its tests", "A body with a long identifier: sha256:" + "ab".repeat(32) + " and `code`", "FEAT-1");
    await send("PAIR_INIT", { protocol_version: "3.1", task: "Add JWT auth to every endpoint of the users API", my_role: "PLANNER", your_role: "BUILDER", status: "INITIALIZED" }, "pair-phone");
    await send("CONTRACT_DRAFT", { phase: "CONTRACT_GENERATION", status: "AWAITING_HUMAN_REVIEW", artifacts: { safety_reasoning: "tmp/pair_1767400000_safety.md", spec: "tmp/pair_1767400000_spec_draft.md", tests: "tmp/pair_1767400000_tests.py" } }, "pair-phone");
  });

  after(async () => {
    await server?.stop();
  });

  for (const viewport of PHONES) {
    test(`at ${viewport.width} px`, async () => {
      const page = await phone(viewport);
      await connectTo(page, web, server.url);
      await settle(page);
      await fits(page, "/live");
      const p = `/live/p/${project.slug}`;
      const inbox = `${p}/a/GreenCastle/inbox`;
      for (const route of [p, inbox, `${p}/a/GreenCastle/outbox`, `${p}/a/BlueLake/contacts`, `${p}/a/GreenCastle/thread/pair-phone`,
        `${p}/reservations`, `${p}/search?q=users`, `${p}/compose`, `${p}/sessions`, `${p}/sessions/pair-phone`, `${p}/checkpoints`,
        `${p}/audits`, `${p}/tasks`, `${p}/conformance`, "/live/operator", "/live/queue"]) {
        await page.goto(web.url + route);
        await settle(page);
        await fits(page, route);
      }
      await page.goto(web.url + inbox);
      await page.locator("li.row a").first().waitFor({ timeout: 30_000 });
      await page.locator("li.row a").first().click();
      await page.locator("article.message").waitFor({ timeout: 30_000 });
      await settle(page);
      await fits(page, "live message");
      await page.close();
    });
  }
});
