// Shared by the end-to-end files: serves the release build in dist/ on loopback and launches
// Debian's Chromium once per test file.
import { after, before } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { launchBrowser } from "./browser.mjs";
import { startStaticServer } from "./static-server.mjs";

/**
 * Registers before/after hooks in the calling test file. The returned object's `url` (the
 * console's origin) and `browser` are set before the file's tests run.
 */
export function useConsole() {
  const web = { url: undefined, browser: undefined };
  let server;
  before(async () => {
    assert.ok(existsSync("dist/index.html"), "dist/ is missing: run `trunk build --release` first");
    server = await startStaticServer("dist");
    web.url = server.url;
    web.browser = await launchBrowser();
  });
  after(async () => {
    await web.browser?.close();
    await server?.close();
  });
  return web;
}

/**
 * Follows an in-app link to `path` (the demo lives in the page: a reload would start it
 * over, losing what was sent).
 */
export async function openInApp(page, path) {
  await page.evaluate((href) => {
    const a = document.createElement("a");
    a.href = href;
    document.querySelector("main").appendChild(a);
    a.click();
    a.remove();
  }, path);
  await page.waitForURL((url) => url.pathname === path);
}

/**
 * Connects `page` (a fresh page of the console at `web`) to the Agent Mail server at
 * `serverUrl`, remembered for the tab (so a reload reconnects), and waits for its projects.
 */
export async function connectTo(page, web, serverUrl) {
  await page.goto(web.url);
  await page.getByLabel("Server URL").fill(serverUrl);
  await page.getByLabel("Remember for this tab (sessionStorage)").check();
  await page.getByRole("button", { name: "Connect" }).click();
  await page.getByRole("heading", { name: "Projects" }).waitFor();
}
