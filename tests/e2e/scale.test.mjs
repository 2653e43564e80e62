// Scale: the demo's synthetic inbox of 100,000 messages works end to end. The list is
// virtualized (fixed row height, only visible rows plus overscan in the DOM), the pane
// normalizes all rows in the browser, and scrolling and keyboard navigation reach any row.
// How fast is measured by tests/bench/console-bench.mjs, not asserted here.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openPage } from "../support/browser.mjs";
import { useConsole } from "../support/console.mjs";

const web = useConsole();

test("a 100k-message inbox renders a window of rows and scrolls to the end", async () => {
  const page = await openPage(web.browser);
  await page.goto(web.url + "/demo/p/scale/a/Load100k/inbox");
  await page.locator("li.row").first().waitFor({ timeout: 60_000 });
  assert.equal(await page.locator(".pending-count").textContent(), "10000");
  assert.match(await page.locator(".summary").textContent(), /100000 shown/);
  const inDom = await page.locator("li.row").count();
  assert.ok(inDom < 60, `only a window of rows is in the DOM (${inDom})`);

  // Jump to the end: the last message (the oldest) is rendered, still only a window.
  await page.locator(".rows").evaluate((el) => (el.scrollTop = el.scrollHeight));
  await page.locator('li.row[data-id="1000000"]').waitFor();
  assert.ok((await page.locator("li.row").count()) < 60);

  // Keyboard navigation moves the selection through the big list.
  await page.locator(".rows").evaluate((el) => (el.scrollTop = 0));
  for (let i = 0; i < 20; i++) await page.keyboard.press("j");
  await page.locator("li.row.selected", { hasText: "Load message 99979" }).waitFor();
  assert.deepEqual(page.errors, []);
});
