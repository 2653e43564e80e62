// Benchmark: time from navigation to the first inbox rows painted, in headless Chromium, for
// the demo's synthetic inboxes of 1k, 10k and 100k messages (release build in dist/).
// Usage: node tests/bench/console-bench.mjs [runs=3]. Prints a Markdown table (median of runs).
// Not covered: the Agent Mail server's own /mail pages (they need CDN scripts and a server
// seeded with 10k+ messages; backends.md §8 has figures measured by hand).
import { existsSync } from "node:fs";
import { launchBrowser } from "../support/browser.mjs";
import { startStaticServer } from "../support/static-server.mjs";

const runs = Number(process.argv[2] ?? 3);
if (!existsSync("dist/index.html")) {
  console.error("dist/ is missing: run `trunk build --release` first");
  process.exit(1);
}
const server = await startStaticServer("dist");
const browser = await launchBrowser();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  console.log("| inbox | first rows painted (ms, median of " + runs + ") | rows in DOM |");
  console.log("|---:|---:|---:|");
  for (const [agent, n] of [["Load1k", 1_000], ["Load10k", 10_000], ["Load100k", 100_000]]) {
    const times = [];
    let inDom = 0;
    for (let i = 0; i < runs; i++) {
      const page = await browser.newPage();
      const t0 = Date.now();
      await page.goto(`${server.url}/demo/p/scale/a/${agent}/inbox`);
      await page.locator("li.row").first().waitFor({ timeout: 120_000 });
      // Wait for the frame that shows the rows.
      await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => ok())));
      times.push(Date.now() - t0);
      inDom = await page.locator("li.row").count();
      await page.close();
    }
    console.log(`| ${n.toLocaleString("en")} | ${median(times)} | ${inDom} |`);
  }
} finally {
  await browser.close();
  await server.close();
}
