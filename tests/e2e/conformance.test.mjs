// Agent conformance in the built-in demo, end to end in headless Chromium: the view lists each
// agent with its level and how many of its MUST rules were tested, expandable to its rules; a
// rule-breaking agent's failing rules come first with their stable ids, levels, the seed's
// section and own words, and deciding messages (linked to the message view); a rule that could
// not be decided says so and why; secrets stay masked, and the protocol views link to it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openPage } from "../support/browser.mjs";
import { useConsole } from "../support/console.mjs";

const web = useConsole();

test("the demo's rule breakers fail rules, each with its id, the seed's words and deciding messages", async () => {
  const page = await openPage(web.browser);
  await page.goto(web.url + "/demo/p/pair-lab/conformance");
  await page.getByRole("heading", { name: "Agent conformance in pair-lab" }).waitFor();

  // GreenCastle sent a GitHub token: it fails; its checks open under its name.
  const green = page.locator('details.agent-conformance[data-agent="GreenCastle"]');
  await green.waitFor();
  assert.equal(await green.getAttribute("data-level"), "fail");
  await green.locator("summary").click();
  const secret = green.locator('tr.rule[data-rule="004.security.secrets"]');
  assert.equal(await secret.getAttribute("data-status"), "fail");
  assert.equal(await secret.locator(".rule-id").textContent(), "004.security.secrets");
  assert.equal(await secret.locator(".rule-level").textContent(), "MUST");
  assert.equal(await secret.locator(".seed").textContent(), "004 Security Considerations");
  assert.match(await secret.locator(".seed-words").textContent(), /Never include passwords, API keys, or secrets in messages/);
  assert.match(await secret.locator(".rule-details").textContent(), /ghp_…\(40 chars\)/);
  assert.ok(!(await page.content()).includes("ghp_0123456789abcdefghijABCDEFGHIJ012345"));
  // Failing rules come first; the summary says how many MUST rules were actually tested.
  assert.equal(await green.locator("tr.rule").first().getAttribute("data-status"), "fail");
  assert.match(await green.locator("summary").textContent(), /GreenCastle — MUST rules tested \d+ of \d+ · \d+ fail/);
  // A rule the console cannot decide (the contract's files are not read) is not tested, with
  // why, and never counted as a pass: BlueLake's tests are the contract's, which it cannot read.
  const blue = page.locator('details.agent-conformance[data-agent="BlueLake"]');
  await blue.locator("summary").click();
  const untested = blue.locator('tr.rule[data-status="not tested"][data-rule="000.error.test-syntax-error"]');
  assert.match(await untested.locator(".rule-details").textContent(), /the contract's files were not read/);
  assert.match(await blue.locator("summary").textContent(), /· [1-9]\d* not tested ·/);

  // The deciding message opens in the message view.
  const link = secret.locator(".messages a").first();
  const href = await link.getAttribute("href");
  assert.match(href, /^\/demo\/p\/pair-lab\/m\/\d+$/);
  await link.click();
  await page.waitForURL((url) => url.pathname === href);
  await page.locator("article.message").waitFor();
  await page.goBack();

  // From the other protocol views, the navigation leads here.
  await page.goto(web.url + "/demo/p/droid-fleet/tasks");
  // TealHarbor reported on OliveMarsh's task: the board names the sender without the role.
  const wrongRole = page.locator('ul.senders li[data-code="wrong_role"]');
  await wrongRole.filter({ hasText: "TealHarbor" }).waitFor();
  assert.equal(await wrongRole.count(), 1);
  assert.match(await wrongRole.locator("a").getAttribute("href"), /^\/demo\/p\/droid-fleet\/m\/\d+$/);
  await page.getByRole("navigation", { name: "Protocol views" }).getByRole("link", { name: "Conformance" }).click();
  await page.waitForURL(/\/demo\/p\/droid-fleet\/conformance$/);
  const olive = page.locator('details.agent-conformance[data-agent="OliveMarsh"]');
  await olive.locator('tr.rule[data-rule="004.security.secrets"][data-status="fail"]').waitFor({ state: "attached" });
  assert.equal(await olive.getAttribute("data-level"), "fail");
  assert.match(await olive.locator("summary").textContent(), /OliveMarsh — MUST rules tested \d+ of \d+ · \d+ fail/);
  const teal = page.locator('details.agent-conformance[data-agent="TealHarbor"]');
  await teal.locator('tr.rule[data-rule="004.common.sender-id"][data-status="fail"]').waitFor({ state: "attached" });
  assert.deepEqual(page.errors, []);
});
