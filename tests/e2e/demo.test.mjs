// The built-in demo, end to end in headless Chromium against dist/ served statically:
// navigation, the pane's filters and pending-ack count, acknowledge, reply in thread, deep
// links with back/forward, keyboard navigation, the validation badge and safe Markdown.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openPage } from "../support/browser.mjs";
import { useConsole } from "../support/console.mjs";

const web = useConsole();

const INBOX = "/demo/p/pair-lab/a/BlueLake/inbox";

async function pendingCount(page) {
  return Number(await page.locator(".pending-count").textContent());
}

// The count is redrawn after the action's status shows: wait for it (up to 10 s), then say
// what it is if it never got there.
async function pendingBecomes(page, expected) {
  await page
    .waitForFunction((n) => Number(document.querySelector(".pending-count")?.textContent) === n, expected, {
      timeout: 10_000,
    })
    .catch(() => {});
  assert.equal(await pendingCount(page), expected);
}

test("projects, agents and an inbox are reachable by links", async () => {
  const page = await openPage(web.browser);
  await page.goto(web.url);
  await page.getByRole("link", { name: "Open the demo" }).click();
  await page.getByRole("heading", { name: "Projects" }).waitFor();
  // The demo server runs in the engine worker: the projects arrive after the heading.
  for (const name of ["pair-lab", "po-factory", "droid-fleet"]) {
    await page.getByRole("link", { name, exact: true }).waitFor();
  }
  await page.getByRole("link", { name: "pair-lab", exact: true }).click();
  await page.getByRole("heading", { name: "Agents of pair-lab" }).waitFor();
  await page.getByRole("link", { name: "BlueLake", exact: true }).first().click();
  await page.getByRole("heading", { name: "BlueLake — Inbox" }).waitFor();
  assert.ok((await page.locator("li.row").count()) > 5, "inbox rows are shown");
  assert.ok(new URL(page.url()).pathname.endsWith(INBOX));
  assert.deepEqual(page.errors, []);
});

test("filters narrow the rows and acknowledging lowers the pending count", async () => {
  const page = await openPage(web.browser);
  await page.goto(web.url + INBOX);
  await page.locator("li.row").first().waitFor();
  const pending = await pendingCount(page);
  assert.ok(pending > 1, `pending acks in the demo (${pending})`);

  await page.getByRole("link", { name: "Unacked only" }).click();
  await page.waitForURL(/filter=unacked_only/);
  const summary = page.locator(".summary");
  await assert.doesNotReject(summary.filter({ hasText: `${pending} shown` }).waitFor());
  const rows = page.locator("li.row");
  assert.equal(await rows.count(), Math.min(pending, await rows.count()));
  assert.equal(await page.locator("li.row:not(.unacked)").count(), 0, "only unacked rows");

  const first = rows.first();
  const id = await first.getAttribute("data-id");
  await first.getByRole("button", { name: "Acknowledge" }).click();
  await page.getByRole("status").filter({ hasText: `Message ${id} acknowledged.` }).waitFor();
  await summary.filter({ hasText: `${pending - 1} shown` }).waitFor();
  await pendingBecomes(page, pending - 1);
  assert.equal(await page.locator(`li.row[data-id="${id}"]`).count(), 0);

  await page.getByRole("link", { name: "Ack required" }).click();
  await page.waitForURL(/filter=ack_required/);
  await page.locator(`li.row[data-id="${id}"]`).waitFor();
  assert.equal(await page.locator(`li.row[data-id="${id}"] .ack-state`).textContent(), "acknowledged");

  await page.getByRole("link", { name: "Thread only" }).click();
  await page.waitForURL(/filter=thread_only&thread=/);
  const threads = await page.locator("li.row a.thread").allTextContents();
  assert.ok(threads.length > 0 && threads.every((t) => t === threads[0]), "one thread");
  assert.deepEqual(page.errors, []);
});

test("the selection stays on its message when the list changes around it", async () => {
  const page = await openPage(web.browser);
  await page.goto(web.url + INBOX);
  await page.locator("li.row.selected").waitFor();
  // A row asking for an acknowledgement with a row that does not above it: in the unacked-only
  // list it moves up.
  const unacked = await page.locator("li.row").evaluateAll((els) => els.map((el) => el.classList.contains("unacked")));
  const at = unacked.findIndex((u, i) => u && unacked.slice(0, i).includes(false));
  assert.ok(at > 0, "an unacknowledged row below an acknowledged one among the first rows");
  for (let i = 0; i < at; i++) await page.keyboard.press("j");
  const id = await page.locator("li.row.selected").getAttribute("data-id");
  assert.equal(await page.locator("li.row").nth(at).getAttribute("data-id"), id);

  await page.getByRole("link", { name: "Unacked only" }).click();
  await page.waitForURL(/filter=unacked_only/);
  await page.locator("li.row:not(.unacked)").first().waitFor({ state: "detached" });
  const ids = await page.locator("li.row").evaluateAll((els) => els.map((el) => el.dataset.id));
  assert.ok(ids.includes(id) && ids.indexOf(id) < at, "the message moved up");
  assert.equal(await page.locator("li.row.selected").getAttribute("data-id"), id);
  await page.keyboard.press("Enter");
  await page.waitForURL(new RegExp(`/m/${id}$`));
  assert.deepEqual(page.errors, []);
});

test("keyboard: j/k move, Enter opens, a acknowledges, r replies, / searches", async () => {
  const page = await openPage(web.browser);
  await page.goto(web.url + INBOX);
  await page.locator("li.row.selected").waitFor();
  const firstId = await page.locator("li.row.selected").getAttribute("data-id");
  await page.keyboard.press("j");
  await page.keyboard.press("j");
  await page.keyboard.press("k");
  const secondId = await page.locator("li.row.selected").getAttribute("data-id");
  assert.notEqual(secondId, firstId);
  assert.equal(await page.locator("li.row").nth(1).getAttribute("data-id"), secondId);

  // Back to the top, then down to the first row that asks for an acknowledgement: `a`
  // acknowledges it.
  await page.keyboard.press("k");
  assert.equal(await page.locator("li.row.selected").getAttribute("data-id"), firstId);
  const rows = await page.locator("li.row").evaluateAll((els) => els.map((el) => el.classList.contains("unacked")));
  const unacked = rows.indexOf(true);
  assert.ok(unacked >= 0, "an unacknowledged row among the first ones");
  for (let i = 0; i < unacked; i++) await page.keyboard.press("j");
  const ackId = await page.locator("li.row.selected").getAttribute("data-id");
  const pending = await pendingCount(page);
  await page.keyboard.press("a");
  await page.getByRole("status").filter({ hasText: `Message ${ackId} acknowledged.` }).waitFor();
  await pendingBecomes(page, pending - 1);

  await page.keyboard.press("Enter");
  await page.waitForURL(new RegExp(`/m/${ackId}$`));
  await page.locator("article.message").waitFor();

  await page.keyboard.press("r");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "reply-body");
  await page.keyboard.press("Escape");
  await page.locator("body").click({ position: { x: 2, y: 2 } });
  await page.keyboard.press("/");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "search");
  await page.keyboard.type("CONTRACT_FINAL");
  await page.keyboard.press("Enter");
  await page.waitForURL(/\/search\?q=CONTRACT_FINAL/);
  await page.getByRole("heading", { name: "Search: CONTRACT_FINAL" }).waitFor();
  assert.ok((await page.locator(".results li").count()) > 0);
  assert.deepEqual(page.errors, []);
});

test("replying in thread shows progress, then the reply in the outbox and the thread", async () => {
  const page = await openPage(web.browser);
  // Message 4 is GreenCastle's BUILD_COMPLETE to BlueLake in thread pair-000.
  await page.goto(web.url + "/demo/p/pair-lab/a/BlueLake/m/4");
  await page.locator("article.message").waitFor();
  assert.match(await page.locator("#message-title").textContent(), /BUILD_COMPLETE/);

  // An empty reply fails and says why.
  await page.getByRole("button", { name: "Send reply" }).click();
  await page.getByRole("status").filter({ hasText: "Failed: The reply is empty." }).waitFor();

  await page.getByLabel("Reply as BlueLake").fill("Reviewed: **ship it**.");
  await page.getByRole("button", { name: "Send reply" }).click();
  const done = page.getByRole("status").filter({ hasText: /Reply sent \(message \d+\)\./ });
  await done.waitFor();
  const newId = (await done.textContent()).match(/message (\d+)/)[1];
  assert.equal(await page.getByLabel("Reply as BlueLake").inputValue(), "");

  await page.locator('a[href$="/thread/pair-000"]').click();
  await page.getByRole("heading", { name: "Thread pair-000" }).waitFor();
  const items = page.locator(".thread-item");
  assert.match(await items.last().textContent(), /Re: \[pair-000\] BUILD_COMPLETE/);
  assert.equal(await items.last().getAttribute("data-direction"), "sent");
  // The newest message is open with its body; an earlier one fetches its body when opened.
  assert.match(await items.last().locator(".body").textContent(), /Reviewed: ship it\./);
  assert.equal(await items.first().locator(".body").count(), 0);
  await items.first().locator("summary").focus();
  await page.keyboard.press("Enter");
  await items.first().locator(".badge").waitFor();
  assert.match(await items.first().locator(".body").textContent(), /PAIR_INIT/);

  // In-app navigation keeps the demo's in-memory state: the reply is in the outbox.
  await page.getByRole("link", { name: "outbox" }).click();
  await page.getByRole("heading", { name: "BlueLake — Outbox" }).waitFor();
  await page.locator(`li.row[data-id="${newId}"]`).waitFor();
  assert.deepEqual(page.errors, []);
});

test("deep links open every view; back and forward work", async () => {
  const page = await openPage(web.browser);
  await page.goto(web.url + INBOX + "?filter=ack_required");
  await page.locator("li.row").first().waitFor();
  assert.equal(await page.getByRole("link", { name: "Ack required" }).getAttribute("aria-current"), "page");
  const states = await page.locator("li.row .ack-state").allTextContents();
  assert.ok(states.every((s) => s === "ack required" || s === "acknowledged"), states.join());

  const firstId = await page.locator("li.row").first().getAttribute("data-id");
  await page.locator("li.row a.subject").first().click();
  await page.waitForURL(new RegExp(`/m/${firstId}$`));
  await page.goBack();
  await page.waitForURL(/filter=ack_required/);
  await page.locator("li.row").first().waitFor();
  await page.goForward();
  await page.waitForURL(new RegExp(`/m/${firstId}$`));
  await page.locator("article.message").waitFor();

  for (const [path, heading] of [
    ["/demo/p/pair-lab/a/BlueLake/thread/pair-001", "Thread pair-001"],
    ["/demo/p/pair-lab/a/BlueLake/contacts", "Contacts of BlueLake"],
    ["/demo/p/pair-lab/reservations", "File reservations in pair-lab"],
    ["/demo/p/po-factory/search?q=GO_DIRECTIVE", "Search: GO_DIRECTIVE"],
    ["/demo/p/droid-fleet/compose", "Compose"],
    ["/demo/operator", "All mail (operator)"],
    ["/demo/p/droid-fleet/m/13", null],
  ]) {
    await page.goto(web.url + path);
    if (heading) await page.getByRole("heading", { name: heading }).waitFor();
    else await page.locator("article.message").waitFor();
  }
  assert.deepEqual(page.errors, []);
});

test("contacts and reservations flag what needs attention", async () => {
  const page = await openPage(web.browser);
  await page.goto(web.url + "/demo/p/pair-lab/a/BlueLake/contacts");
  await page.locator("tr.attention").first().waitFor();
  assert.match(await page.locator("tr.attention").first().textContent(), /AmberFox.*pending.*needs attention/);
  await page.goto(web.url + "/demo/p/pair-lab/reservations");
  await page.locator("tr.conflict").first().waitFor();
  assert.equal(await page.locator("tr.conflict").count(), 2);

  // Releasing one side of the conflict (as its holder) ends it.
  await page.getByRole("button", { name: "Release auth/jwt_handler.py held by AmberFox" }).click();
  await page.getByRole("status").filter({ hasText: "Reservation 2 released." }).waitFor();
  await page.locator("p.summary", { hasText: "4 reservations, 0 conflicts" }).waitFor();
  assert.equal(await page.locator("tr.conflict").count(), 0);
  assert.match(await page.locator("tr.released").filter({ hasText: "auth/jwt_handler.py" }).textContent(), /released/);
  assert.deepEqual(page.errors, []);
});

test("compose as the human overseer: a failure keeps the draft, success delivers it", async () => {
  const page = await openPage(web.browser);
  await page.goto(web.url + "/demo/p/pair-lab/compose");
  await page.getByRole("heading", { name: "Compose" }).waitFor();
  assert.equal(await page.getByLabel("From").inputValue(), "(overseer)");
  await page.getByLabel("To (comma-separated agents)").fill(" , ");
  await page.getByLabel("Subject").fill("Stop and review");
  await page.getByLabel("Body (Markdown)").fill("Please pause **all** merges.");
  await page.getByRole("button", { name: "Send" }).click();
  await page.getByRole("status").filter({ hasText: "Failed: A message needs at least one recipient" }).waitFor();
  assert.equal(await page.getByLabel("Subject").inputValue(), "Stop and review");
  assert.equal(await page.getByLabel("Body (Markdown)").inputValue(), "Please pause **all** merges.");

  await page.getByLabel("To (comma-separated agents)").fill("BlueLake");
  await page.getByRole("button", { name: "Send" }).click();
  await page.getByRole("status").filter({ hasText: /Sent \(message \d+\)\./ }).waitFor();
  await page.getByRole("link", { name: "pair-lab", exact: true }).click();
  await page.getByRole("link", { name: "BlueLake", exact: true }).first().click();
  await page.getByRole("link", { name: "Stop and review" }).waitFor();
  assert.deepEqual(page.errors, []);
});

test("messages show a validation badge and never run markup from the body", async () => {
  const page = await openPage(web.browser);
  await page.goto(web.url + INBOX);
  await page.locator("li.row").first().waitFor();
  await page.getByRole("link", { name: "Suspicious tool output" }).click();
  await page.locator("article.message .body").waitFor();
  const body = page.locator("article.message .body");
  assert.match(await body.textContent(), /<script>window.__pwned = 1<\/script>/);
  assert.equal(await body.locator("script, img, iframe, [onerror]").count(), 0);
  for (const href of await body.locator("a").evaluateAll((as) => as.map((a) => a.getAttribute("href")))) {
    assert.ok(!/^\s*javascript:/i.test(href ?? ""), href);
  }
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.equal(await page.locator(".badge.plain").count(), 1);

  // A Pair Protocol message carried in body_md gets a family/type badge.
  await page.goto(web.url + "/demo/p/pair-lab/a/GreenCastle/m/1");
  await page.locator(".badge").waitFor();
  assert.match(await page.locator(".badge").first().textContent(), /(Valid|Invalid) · pair/);
  assert.deepEqual(page.errors, []);
});

test("secrets in mail are masked in every view until the reviewer reveals them", async () => {
  const TOKEN = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
  const KEY = "AKIAIOSFODNN7EXAMPLE";
  const MASK = /…\(\d+ chars\)/;
  const page = await openPage(web.browser);
  const leaks = async (secret) => (await page.content()).includes(secret);

  // Inbox (subject), message (title, body), thread (subject, body).
  await page.goto(web.url + INBOX);
  const note = page.getByRole("link", { name: /Staging deploy token/ }).first();
  await note.waitFor();
  assert.match(await note.textContent(), MASK);
  assert.ok(!(await leaks(TOKEN)), "the inbox masks the subject");
  await note.click();
  await page.locator("article.message .body").waitFor();
  assert.match(await page.locator("#message-title").textContent(), MASK);
  await page.locator(".masked").waitFor();
  assert.ok(!(await leaks(TOKEN)), "the message masks title and body");
  const reveal = page.getByRole("button", { name: "Reveal secrets" });
  assert.equal(await reveal.getAttribute("aria-pressed"), "false");
  await reveal.click();
  await page.locator("#message-title", { hasText: TOKEN }).waitFor();
  await page.locator("article.message .body", { hasText: TOKEN }).waitFor();
  const mask = page.getByRole("button", { name: "Mask secrets" });
  assert.equal(await mask.getAttribute("aria-pressed"), "true");
  await mask.click();
  await page.locator("#message-title", { hasText: MASK }).waitFor();
  assert.ok(!(await leaks(TOKEN)), "masked again");
  await page.locator('a[href$="/thread/chat-secret"]').click();
  await page.getByRole("heading", { name: "Thread chat-secret" }).waitFor();
  await page.locator(".thread-item .body").waitFor();
  assert.ok(!(await leaks(TOKEN)), "the thread masks subject and body");

  // Search results, then a protocol message's fields and raw JSON.
  await page.goto(web.url + "/demo/p/droid-fleet/search?q=bd-93");
  await page.locator(".results li").first().waitFor();
  await page.locator(".results a", { hasText: "error_report bd-93" }).first().click();
  await page.locator("article.message .badge").waitFor();
  assert.match(await page.locator(".badge").first().textContent(), /Invalid · droid/);
  assert.match(await page.locator(".issues").first().textContent(), /secret_in_message/);
  await page.locator("details.raw-json summary").click();
  assert.match(await page.locator("pre.raw").textContent(), /AKIA…\(20 chars\)/);
  assert.ok(!(await leaks(KEY)), "fields and raw JSON mask the key");
  await page.getByRole("button", { name: "Reveal secrets" }).click();
  await page.locator("pre.raw", { hasText: KEY }).waitFor({ state: "attached" });
  assert.deepEqual(page.errors, []);
});
