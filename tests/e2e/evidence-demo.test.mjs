// The evidence at each checkpoint, read from the demo's virtual project folder, end to end in
// headless Chromium: the draft's spec rendered and its tests with line numbers at #1, an
// intact and a tampered contract (the changed test line shown) at #2, the audit's findings
// beside their diff lines, the change order beside the manifests at #3, and APPROVED sending
// CONTRACT_FINAL with the fingerprints of exactly the tests shown, kept as a signed record in the
// project's review trail.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openPage } from "../support/browser.mjs";
import { openInApp, useConsole } from "../support/console.mjs";

const web = useConsole();
const LAB = "/demo/p/pair-lab";

const card = (page, session) => page.locator(`li.checkpoint-card[data-session="${session}"]`);
const artifact = (page, session, role) => card(page, session).locator(`.evidence-panel .artifact[data-role="${role}"]`);

test("/demo/checkpoints shows each checkpoint's evidence from the demo's folder", async () => {
  const page = await openPage(web.browser);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(web.url + "/demo/checkpoints");
  await page.waitForURL(/\/demo\/p\/pair-lab\/checkpoints$/);

  // #1: the spec rendered, the tests as code with numbered lines, each file's SHA-256.
  const spec = artifact(page, "pair-101", "spec");
  await spec.waitFor();
  assert.equal(await spec.locator(".markdown h1").textContent(), "Export invoices as CSV");
  const tests = artifact(page, "pair-101", "tests");
  assert.match(await tests.locator('tr[data-line="1"]').textContent(), /^1from invoices import export_csv$/);
  assert.match(await tests.locator(".sha code").textContent(), /^[0-9a-f]{64}$/);
  assert.match(await artifact(page, "pair-101", "safety_reasoning").textContent(), /CSV injection/);

  // #2, intact: computed from the files, not "unknown".
  const intact = card(page, "pair-102").locator(".evidence-integrity");
  await intact.waitFor();
  assert.equal(await intact.getAttribute("data-verdict"), "intact");
  assert.match(await artifact(page, "pair-102", "implementation").textContent(), /def allow\(ip\):/);

  // #2, tampered: the file named, the changed line shown.
  const tampered = card(page, "pair-104").locator(".evidence-integrity");
  assert.equal(await tampered.getAttribute("data-verdict"), "tampered");
  assert.match(await tampered.locator("p").first().textContent(), /tampered: tmp\/pair_1767104000_tests\.py/);
  const added = tampered.locator("table.diff tr.added");
  assert.equal(await added.count(), 1);
  assert.match(await added.textContent(), /\+\s*assert verify_token\(token, now=1000 \+ 3601\) is None or True/);

  // The audit's findings beside their lines of the diff it audited.
  const audit = card(page, "pair-104").locator(".evidence-audit");
  assert.match(await audit.textContent(), /The AUDIT_REPORT in the mail \(message \d+\)/);
  const edited = audit.locator('.diff-file[data-path="tmp/pair_1767104000_tests.py"] tr.flagged');
  assert.equal(await edited.getAttribute("data-old"), "9");
  const finding = edited.locator("xpath=following-sibling::tr[1]");
  assert.match(await finding.textContent(), /CRITICAL contract-test-edited .*\(tmp\/pair_1767104000_tests\.py:9\)/);
  const env = audit.locator('.diff-file[data-path="reset.py"] tr.flagged');
  assert.equal(await env.getAttribute("data-new"), "16");

  // #3: the change order's test found in its file, the dependency checked against the manifest.
  const order = card(page, "pair-103").locator(".evidence-change-order");
  await order.waitFor();
  assert.match(await order.locator(".named-test").textContent(), /tests\/test_session\.py · test test_cookie_is_signed/);
  assert.match(await order.locator(".named-test tr").first().textContent(), /^7def test_cookie_is_signed\(\):$/);
  assert.match(await order.textContent(), /Manifests read: requirements\.txt\./);
  assert.match(await order.locator("li.dependency").first().textContent(), /not declared in the folder's manifests/);

  await page.screenshot({ path: "target/evidence-checkpoints.png", fullPage: true });
  assert.deepEqual(page.errors, []);
});

test("APPROVED sends the fingerprints of the tests shown and keeps a signed review record in the trail", async () => {
  const page = await openPage(web.browser);
  await page.goto(`${web.url}${LAB}/checkpoints`);
  await page.getByLabel("Reviewing as").fill("Ada");
  const tests = artifact(page, "pair-101", "tests");
  await tests.waitFor();
  const sha = await tests.locator(".sha code").textContent();
  const c = card(page, "pair-101");
  await c.getByLabel("Decision for pair-101 (as the seed writes it)").fill("APPROVED");
  const body = JSON.parse(await c.locator(".outgoing pre").textContent());
  assert.deepEqual(body.test_fingerprints, { "tmp/pair_1767101000_tests.py": `sha256:${sha}` });
  await c.getByRole("button", { name: "Send decision" }).click();
  const sent = page.locator(".progress", { hasText: /^Sent CONTRACT_FINAL to GreenCastle \(message \d+\)\. The review record is in the project's trail\./ });
  await sent.waitFor();
  const id = Number((await sent.textContent()).match(/\(message (\d+)\)/)[1]);

  // The session lists the record from the trail (kept in the demo's mail), signed and
  // chained; its export is JSON Lines naming who decided, what was shown and sent.
  await openInApp(page, `${LAB}/sessions/pair-101`);
  const record = page.locator('li.trail-record[data-outcome="decided"]');
  await record.waitFor();
  assert.equal(await record.getAttribute("data-valid"), "true");
  assert.match(await record.textContent(), /#1 APPROVED by Ada/);
  assert.match(await record.textContent(), new RegExp(`tmp/pair_1767101000_tests\\.py \\(tests\\) ${sha}`));
  const link = page.getByRole("link", { name: "Export the project's trail as JSON Lines" });
  assert.equal(await link.getAttribute("download"), "pair-lab-review-trail.jsonl");
  const href = await link.getAttribute("href");
  const lines = decodeURIComponent(href.slice(href.indexOf(",") + 1)).trimEnd().split("\n");
  assert.equal(lines.length, 1);
  const kept = JSON.parse(lines[0]).record;
  assert.equal(kept.reviewer, "Ada");
  assert.equal(kept.decision, "APPROVED");
  assert.equal(kept.checkpoint, "contract_review");
  assert.deepEqual(kept.sent.map((s) => [s.subject, s.server_id]), [["CONTRACT_FINAL", id]]);
  assert.ok(kept.artifacts.some((a) => a.path === "tmp/pair_1767101000_tests.py" && a.sha256 === sha));
  assert.deepEqual(page.errors, []);
});
