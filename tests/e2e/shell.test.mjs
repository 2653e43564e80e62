// The release build of the console, served statically from dist/, renders its shell in
// headless Chromium: the app name, the connect form and the demo entry, with no errors.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openPage } from "../support/browser.mjs";
import { useConsole } from "../support/console.mjs";

const web = useConsole();

test("the console shell renders with the app name, a connect form and a demo entry", async () => {
  const page = await openPage(web.browser);
  await page.goto(web.url);
  const name = page.getByRole("heading", { name: "Switchboard", level: 1 });
  await name.waitFor({ timeout: 15_000 });

  const form = page.getByRole("heading", { name: "Connect to an Agent Mail server" });
  assert.equal(await form.isVisible(), true);
  assert.equal(await page.getByLabel("Server URL").isVisible(), true);
  assert.equal(await page.getByLabel("Bearer token (optional)").getAttribute("type"), "password");
  // Agent tokens (a textarea, which cannot be type=password) are masked until shown.
  const tokens = page.getByLabel("Agent tokens (optional, one Agent=token per line)");
  const masking = () => tokens.evaluate((el) => getComputedStyle(el).webkitTextSecurity);
  await tokens.fill("BlueLake=s3cret");
  assert.equal(await masking(), "disc");
  await page.getByLabel("Show agent tokens").check();
  assert.equal(await masking(), "none");
  await page.getByLabel("Show agent tokens").uncheck();
  assert.equal(await masking(), "disc");
  assert.equal(await tokens.inputValue(), "BlueLake=s3cret");
  assert.equal(await page.getByRole("button", { name: "Connect" }).isVisible(), true);
  assert.equal(await page.getByRole("link", { name: "Open the demo" }).isVisible(), true);

  assert.deepEqual(page.errors, [], "the browser console reported errors");
});
