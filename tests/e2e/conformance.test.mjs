// Agent conformance in the built-in demo, end to end in headless Chromium: the view lists each
// agent with its level, expandable to its checks; a rule-breaking agent's failing checks come first with their stable
// ids, seed sections and deciding messages (linked to the message view), secrets stay
// masked, and the protocol views link to it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openPage } from "../support/browser.mjs";
import { useConsole } from "../support/console.mjs";

const web = useConsole();

test("the demo's rule breakers fail checks, each with its id, seed and deciding messages", async () => {
  const page = await openPage(web.browser);
  await page.goto(web.url + "/demo/p/pair-lab/conformance");
  await page.getByRole("heading", { name: "Agent conformance in pair-lab" }).waitFor();

  // GreenCastle sent a GitHub token: it fails; its checks open under its name.
  const green = page.locator('details.agent-conformance[data-agent="GreenCastle"]');
  await green.waitFor();
  assert.equal(await green.getAttribute("data-level"), "fail");
  await green.locator("summary").click();
  const secret = green.locator('tr.check[data-check="any.secret-in-message"]');
  assert.equal(await secret.getAttribute("data-status"), "fail");
  assert.equal(await secret.locator(".check-id").textContent(), "any.secret-in-message");
  assert.equal(await secret.locator(".seed").textContent(), "004 Security Considerations 4");
  assert.match(await secret.locator(".check-details").textContent(), /ghp_…\(40 chars\)/);
  assert.ok(!(await page.content()).includes("ghp_0123456789abcdefghijABCDEFGHIJ012345"));
  // Failing checks come first.
  assert.equal(await green.locator("tr.check").first().getAttribute("data-status"), "fail");

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
  await olive.locator('tr.check[data-check="any.secret-in-message"][data-status="fail"]').waitFor({ state: "attached" });
  assert.equal(await olive.getAttribute("data-level"), "fail");
  assert.match(await olive.locator("summary").textContent(), /OliveMarsh — \d+ fail/);
  const teal = page.locator('details.agent-conformance[data-agent="TealHarbor"]');
  await teal.locator('tr.check[data-check="droid.sender.authorized"][data-status="fail"]').waitFor({ state: "attached" });
  assert.deepEqual(page.errors, []);
});
