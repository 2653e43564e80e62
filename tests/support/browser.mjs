// Launches Debian's Chromium through playwright-core (never a downloaded browser), headless,
// with the flags this machine needs, and records every console error and page error.
import { chromium } from "playwright-core";

const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Starts the browser; `close()` it when done. */
export function launchBrowser() {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
}

/** Opens a page that collects console errors and uncaught exceptions into `page.errors`. */
export async function openPage(browser) {
  const page = await browser.newPage();
  page.errors = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") page.errors.push(`console: ${msg.text()}`);
  });
  page.on("pageerror", (err) => page.errors.push(`pageerror: ${err.message}`));
  return page;
}
