// The protocol views in the built-in demo, end to end in headless Chromium: every view is
// populated, a contract goes through checkpoint #1 (REVISE, then APPROVED) and a change
// order through checkpoint #3 with the sent messages checked (valid, as the core builds
// them, with the project's own `switchboard validate`), the keyboard, the tab title and
// notifications, an audit run in the browser, and hostile markup shown as text everywhere.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openPage } from "../support/browser.mjs";
import { openInApp, useConsole } from "../support/console.mjs";
import { haveCli, validate } from "../support/validate.mjs";

const web = useConsole();
const LAB = "/demo/p/pair-lab";

/** The checkpoint card of a session. */
const card = (page, session) => page.locator(`li.checkpoint-card[data-session="${session}"]`);

/** Opens the project's checkpoints as reviewer Ada (the review trail names who decided). */
async function checkpoints(page) {
  await page.goto(`${web.url}${LAB}/checkpoints`);
  await page.getByLabel("Reviewing as").fill("Ada");
}

/** Types a decision into a session's card and waits for its preview; → the outgoing blocks. */
async function decide(page, session, text) {
  const c = card(page, session);
  await c.getByLabel(`Decision for ${session} (as the seed writes it)`).fill(text);
  await c.locator(".preview").waitFor();
  return c;
}

/** The message a sent decision became, read back from its message page: subject and body. */
async function sentMessage(page, id) {
  await openInApp(page, `${LAB}/m/${id}`);
  await page.locator("article.message .badge").waitFor();
  const subject = await page.locator("#message-title").textContent();
  await page.locator("details.raw-json summary").click();
  const raw = JSON.parse(await page.locator("details.raw-json pre").textContent());
  return { subject, raw, badge: await page.locator("article.message .badge").first().textContent() };
}

/** The ids in "Sent A to X (message 5), B to Y (message 6)." */
const sentIds = (text) => [...text.matchAll(/\(message (\d+)\)/g)].map((m) => Number(m[1]));

test("the demo's short URLs open populated protocol views", async () => {
  const page = await openPage(web.browser);
  await page.goto(web.url + "/demo/sessions");
  await page.waitForURL(/\/demo\/p\/pair-lab\/sessions$/);
  const row = (id) => page.locator(`tr.session-row[data-session="${id}"]`);
  await row("pair-101").waitFor();
  assert.match(await row("pair-101").textContent(), /#1 Contract review/);
  assert.match(await row("pair-102").textContent(), /#2 Implementation review/);
  assert.match(await row("pair-103").textContent(), /#3 Change-order review/);
  assert.match(await row("pair-104").locator(".integrity").textContent(), /tampered: tmp\/pair_1767104000_tests\.py/);
  assert.equal(await row("pair-105").getAttribute("data-status"), "merged");
  assert.equal(await row("pair-106").getAttribute("data-status"), "aborted");
  assert.match(await row("pair-107").locator(".countdown").textContent(), /^in \d+m \d\ds$/);
  assert.match(await row("pair-107").textContent(), /then TIMEOUT_WARNING #1 from BlueLake/);

  await page.goto(web.url + "/demo/checkpoints");
  await card(page, "pair-101").waitFor();
  for (const [session, n] of [["pair-101", "1"], ["pair-102", "2"], ["pair-103", "3"]]) {
    assert.equal(await card(page, session).getAttribute("data-checkpoint"), n);
  }
  const order = card(page, "pair-103").locator(".change-order");
  assert.match(await order.locator(".evidence").textContent(), /ModuleNotFoundError: No module named 'jwt'/);
  assert.equal(await order.locator(".attempted li").count(), 2);
  assert.match(await card(page, "pair-101").locator(".needs").textContent(), /tmp\/pair_1767101000_spec_draft\.md/);

  await page.goto(web.url + "/demo/audits");
  await page.waitForURL(/\/demo\/p\/pair-lab\/audits$/);
  const failed = page.locator("article.audit.failed").filter({ hasText: "pair-104" });
  await failed.waitFor();
  assert.match(await failed.textContent(), /scheming detected/);
  assert.ok((await failed.locator(".location").allTextContents()).includes("tmp/pair_1767104000_tests.py:9"));
  assert.match(await page.locator("article.audit").filter({ hasText: "pair-102" }).locator(".audit-status").textContent(), /PASS/);

  await page.goto(web.url + "/demo/tasks");
  await page.waitForURL(/\/demo\/p\/po-factory\/tasks$/);
  const blocked = page.locator('tr.po-task.blocked[data-task="TASK-200"]');
  await blocked.waitFor();
  assert.match(await blocked.textContent(), /blocked by po/);
  assert.match(await blocked.textContent(), /2 of 2/);
  await page.getByRole("link", { name: "droid-fleet (droid tasks)" }).click();
  const first = page.locator("table.errors tbody tr").first();
  await first.waitFor();
  assert.match(await first.textContent(), /bd-90.*blocking.*needs a human.*MIGRATION_LOCK_TIMEOUT/s);
  assert.ok((await page.locator("li.conflict").count()) > 0);
  await page.getByRole("link", { name: "pair-lab (Pair Claude)" }).click();
  await page.locator('.permissions li[data-status="timed_out"]').filter({ hasText: "perm-901" }).waitFor();
  assert.equal(await page.locator('.permissions li[data-status="approved"]').count(), 1);
  assert.ok((await page.locator("table.ack-debt tbody tr").count()) > 0);
  assert.deepEqual(page.errors, []);
});

test("checkpoint #1: REVISE, the planner drafts again, then APPROVED sends CONTRACT_FINAL", async () => {
  const page = await openPage(web.browser);
  await checkpoints(page);
  await card(page, "pair-101").waitFor();
  const openBefore = Number((await page.title()).match(/^\((\d+)\)/)[1]);

  // A text that is no decision of this checkpoint is refused before anything is sent.
  let c = await decide(page, "pair-101", "MERGE APPROVED");
  assert.match(await c.locator(".preview .error").textContent(), /not a decision of checkpoint #1/);
  assert.equal(await c.getByRole("button", { name: "Send decision" }).isDisabled(), true);

  c = await decide(page, "pair-101", "revise:  cover currencies with a comma decimal ");
  const preview = c.locator(".outgoing");
  assert.equal(await preview.count(), 1);
  assert.match(await c.locator(".literal").textContent(), /^REVISE: cover currencies with a comma decimal$/);
  assert.match(await preview.textContent(), /Will send CONTRACT_REVISION_REQUESTED from BlueLake to BlueLake in thread pair-101/);
  const shown = JSON.parse(await preview.locator("pre").textContent());
  assert.deepEqual(shown, {
    phase: "CONTRACT_GENERATION", decision: "REVISE", feedback: "cover currencies with a comma decimal", status: "REVISION_REQUESTED",
  });
  await c.getByRole("button", { name: "Send decision" }).click();
  const sent = page.locator(".progress", { hasText: /^Sent CONTRACT_REVISION_REQUESTED to BlueLake/ });
  await sent.waitFor();
  const [reviseId] = sentIds(await sent.textContent());

  // The demo's planner answers with a new draft: checkpoint #1 is open again on it.
  await card(page, "pair-101").locator(".needs", { hasText: "tmp/pair_1767101000_spec_draft_v2.md" }).waitFor();
  c = await decide(page, "pair-101", "APPROVED");
  assert.match(await c.locator(".outgoing").textContent(), /Will send CONTRACT_FINAL from BlueLake to GreenCastle in thread pair-101/);
  const final = JSON.parse(await c.locator(".outgoing pre").textContent());
  assert.deepEqual(final.artifacts, { spec: "tmp/pair_1767101000_spec_final_v2.md", tests: "tmp/pair_1767101000_tests_v2.py" });
  assert.equal(final.contract_immutable, true);
  await c.getByRole("button", { name: "Send decision" }).click();
  const approved = page.locator(".progress", { hasText: /^Sent CONTRACT_FINAL to GreenCastle/ });
  await approved.waitFor();
  const [finalId] = sentIds(await approved.textContent());
  await card(page, "pair-101").waitFor({ state: "detached" });
  await page.waitForFunction((n) => document.title === `(${n}) Switchboard`, openBefore - 1);

  // The messages as the demo server holds them: valid, in the thread, as previewed.
  for (const [id, subject, body] of [[reviseId, "CONTRACT_REVISION_REQUESTED", shown], [finalId, "CONTRACT_FINAL", final]]) {
    const m = await sentMessage(page, id);
    assert.equal(m.subject, subject);
    assert.match(m.badge, new RegExp(`^Valid · pair 3\\.1 · ${subject}$`));
    assert.deepEqual(m.raw, { subject, body });
    if (haveCli()) assert.equal(validate({ subject, body_md: JSON.stringify(body) }).valid, true);
  }
  await openInApp(page, `${LAB}/sessions/pair-101`);
  const history = page.locator("ul.checkpoint-history li");
  await history.nth(1).waitFor();
  assert.match(await history.nth(0).textContent(), /#1 Contract review .*REVISE: cover currencies with a comma decimal/);
  assert.match(await history.nth(1).textContent(), /#1 Contract review .*APPROVED/);
  assert.match(await page.locator(".session-meta").textContent(), /CONTRACT_FINALIZED/);
  assert.deepEqual(page.errors, []);
});

test("checkpoint #3: ACCEPT CHANGE sends the contract's next version", async () => {
  const page = await openPage(web.browser);
  await checkpoints(page);
  const c = await decide(page, "pair-103", "ACCEPT CHANGE: the tests import jwt; allow pyjwt>=2.8");
  const out = c.locator(".outgoing");
  assert.match(await out.textContent(), /Will send CHANGE_ORDER_ACCEPTED from BlueLake to GreenCastle in thread pair-103 · valid/);
  const body = JSON.parse(await out.locator("pre").textContent());
  assert.deepEqual(body, {
    phase: "CONTRACT_REVISED", decision: "ACCEPTED",
    updated_artifacts: { spec: "tmp/pair_1767103000_spec_final_v2.md", tests: "tmp/pair_1767103000_tests_v2.py" },
    reasoning: "the tests import jwt; allow pyjwt>=2.8", status: "READY_FOR_BUILD",
  });
  await c.getByRole("button", { name: "Send decision" }).click();
  const sent = page.locator(".progress", { hasText: /^Sent CHANGE_ORDER_ACCEPTED to GreenCastle/ });
  await sent.waitFor();
  const [id] = sentIds(await sent.textContent());
  await card(page, "pair-103").waitFor({ state: "detached" });
  const m = await sentMessage(page, id);
  assert.deepEqual(m.raw, { subject: "CHANGE_ORDER_ACCEPTED", body });
  if (haveCli()) assert.equal(validate({ subject: "CHANGE_ORDER_ACCEPTED", body_md: JSON.stringify(body) }).valid, true);
  // The message page places it in its session.
  assert.match(await page.locator(".belongs").textContent(), /Session pair-103 · phase after this message: CONTRACT_REVISED/);
  await openInApp(page, `${LAB}/sessions/pair-103`);
  const order = page.locator("article.change-order");
  await order.waitFor();
  assert.equal(await order.getAttribute("data-outcome"), "accepted");
  assert.match(await order.textContent(), /contract revision 2/);
  assert.deepEqual(page.errors, []);
});

test("keyboard: j/k and Enter in the sessions list and the checkpoint queue", async () => {
  const page = await openPage(web.browser);
  await page.goto(`${web.url}${LAB}/sessions`);
  // The list is whole once the project's mail is read (the note says so), and drawn with its
  // first row selected.
  await page.locator("p.traffic", { hasText: "messages read from the project's mail" }).waitFor();
  await page.locator("tr.session-row.selected").waitFor();
  const [first, second] = await page.locator("tr.session-row").evaluateAll((rows) => rows.slice(0, 2).map((r) => r.dataset.session));
  assert.equal(await page.locator("tr.session-row.selected").getAttribute("data-session"), first);
  // The selection is marked when the page next draws, not as the key returns: wait for it.
  await page.keyboard.press("j");
  await page.locator(`tr.session-row.selected[data-session="${second}"]`).waitFor();
  await page.keyboard.press("Enter");
  await page.waitForURL(new RegExp(`/sessions/${second}$`));
  await page.locator("ol.timeline li").first().waitFor();

  await page.goto(`${web.url}${LAB}/checkpoints`);
  await page.locator("p.traffic", { hasText: "messages read from the project's mail" }).waitFor();
  await page.locator("li.checkpoint-card").first().waitFor();
  await page.keyboard.press("j");
  await page.keyboard.press("Enter");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "decision-1");
  assert.deepEqual(page.errors, []);
});

test("a reviewer who allows it is notified when a checkpoint opens", async () => {
  const page = await openPage(web.browser);
  await page.addInitScript(() => {
    window.__notes = [];
    window.Notification = class {
      constructor(title, options) { window.__notes.push({ title, body: options?.body }); }
      static permission = "granted";
      static requestPermission() { return Promise.resolve("granted"); }
    };
  });
  await checkpoints(page);
  await page.getByRole("button", { name: "Notify me when a checkpoint opens" }).click();
  await page.getByText("You will get a desktop notification when a checkpoint opens.").waitFor();
  const c = await decide(page, "pair-101", "REVISE: add a test for an empty invoice");
  await c.getByRole("button", { name: "Send decision" }).click();
  await page.waitForFunction(() => window.__notes.length > 0);
  const notes = await page.evaluate(() => window.__notes);
  assert.equal(notes.length, 1);
  assert.equal(notes[0].title, "Checkpoint open");
  assert.match(notes[0].body, /Session pair-101 in pair-lab waits for checkpoint #1 \(Contract review\)/);
  assert.deepEqual(page.errors, []);
});

test("an audit runs in the browser from the demo's contract and a pasted diff", async () => {
  const page = await openPage(web.browser);
  await page.goto(`${web.url}${LAB}/audits?session=pair-104`);
  await page.getByRole("button", { name: "Load the demo's contract and diff for this session" }).click();
  await page.getByLabel("Path of file 2").waitFor();
  assert.equal(await page.getByLabel("Path of file 2").inputValue(), "tmp/pair_1767104000_tests.py");
  assert.match(await page.getByLabel("Diff (git diff or unified diff)").inputValue(), /^diff --git a\/reset\.py/);
  await page.getByRole("button", { name: "Run the audit" }).click();
  const result = page.locator(".audit-result article.audit");
  await result.waitFor();
  assert.equal(await result.getAttribute("data-status"), "FAIL");
  const locations = await result.locator(".location").allTextContents();
  assert.ok(locations.includes("tmp/pair_1767104000_tests.py:9"), locations.join());
  assert.ok(locations.includes("reset.py:16"), locations.join());

  // A contract file read from disk joins the contract.
  await page.getByLabel("Add files from disk").setInputFiles([
    { name: "conftest.py", mimeType: "text/x-python", buffer: Buffer.from("import pytest\n") },
  ]);
  await page.getByLabel("Path of file 3").waitFor();
  assert.equal(await page.getByLabel("Path of file 3").inputValue(), "conftest.py");
  assert.equal(await page.getByLabel("Text of file 3").inputValue(), "import pytest\n");

  // Not a diff: the core's reason, no report.
  await page.getByLabel("Diff (git diff or unified diff)").fill("hello");
  await page.getByRole("button", { name: "Run the audit" }).click();
  await page.getByRole("alert").filter({ hasText: /^Diff: / }).waitFor();
  assert.deepEqual(page.errors, []);
});

test("hostile markup in names, evidence and diffs renders as text in every protocol view", async () => {
  const page = await openPage(web.browser);
  const noMarkup = async (where) => {
    const main = page.locator("main");
    assert.equal(await main.locator("script, img, iframe, svg, b").count(), 0, `${where}: active markup`);
    assert.equal(await page.evaluate(() => window.__pwned), undefined, `${where}: a payload ran`);
  };
  await page.goto(`${web.url}${LAB}/sessions`);
  await page.locator('tr.session-row[data-session="pair-108"]').waitFor();
  assert.match(await page.locator('tr.session-row[data-session="pair-108"] .task').textContent(), /<b>user<\/b> names <script>window\.__pwned=1<\/script>/);
  await noMarkup("sessions");

  await page.goto(`${web.url}${LAB}/sessions/pair-108`);
  await page.locator("article.change-order").waitFor();
  assert.match(await page.locator("article.change-order .evidence").textContent(), /<img src=x onerror=window\.__pwned=1> TypeError/);
  assert.match(await page.locator(".timeline").textContent(), /BUILD_REJECTED/);
  assert.match(await page.locator("dl.meta").filter({ hasText: "Spec" }).textContent(), /<img src=x onerror=window\.__pwned=1>\.md/);
  await noMarkup("session");

  await page.goto(`${web.url}${LAB}/checkpoints`);
  const c = card(page, "pair-108");
  await c.waitFor();
  assert.match(await c.locator(".attempted").textContent(), /<script>window\.__pwned=1<\/script>/);
  assert.match(await c.locator(".requested").textContent(), /<iframe src="javascript:window\.__pwned=1">/);
  await noMarkup("checkpoints");

  await page.goto(`${web.url}${LAB}/audits`);
  const report = page.locator("article.audit").filter({ hasText: "pair-108" });
  await report.waitFor();
  assert.ok((await report.locator(".location").allTextContents()).some((l) => l === "src/<img/src=x/onerror=window.__pwned=1>.py:3"));
  await noMarkup("audits");
  // The same diff pasted into the audit form.
  await page.getByLabel("Session (its id or thread)").fill("pair-108");
  await page.getByRole("button", { name: "Load the demo's contract and diff for this session" }).click();
  await page.getByLabel("Path of file 1").waitFor();
  await page.getByRole("button", { name: "Run the audit" }).click();
  await page.locator(".audit-result .location", { hasText: "<img/src=x/onerror=window.__pwned=1>" }).first().waitFor();
  await noMarkup("audit run");

  for (const project of ["po-factory", "droid-fleet"]) {
    await page.goto(`${web.url}/demo/p/${project}/tasks`);
    await page.locator("main table").first().waitFor();
  }
  assert.match(await page.locator("table.errors").textContent(), /<script>window\.__pwned=1<\/script>/);
  await noMarkup("tasks");
  await page.goto(`${web.url}/demo/p/po-factory/tasks`);
  await page.locator(".po-task.blocked .reason").waitFor();
  assert.match(await page.locator(".po-task.blocked .reason").textContent(), /<b>escaping<\/b>/);
  await noMarkup("agent-po tasks");

  // A message's fields: the change order's evidence, as text.
  await page.goto(`${web.url}${LAB}/sessions/pair-108`);
  const link = page.locator("li.timeline-item[data-type=CHANGE_ORDER] a");
  await link.waitFor();
  await link.click();
  await page.locator("section.carried").waitFor();
  assert.match(await page.locator("section.carried").textContent(), /<img src=x onerror=window\.__pwned=1> TypeError/);
  await noMarkup("message");
  assert.deepEqual(page.errors, []);
});
