// Retakes the README screenshots from the release build in dist/ (run from the repo root:
// `node docs/screenshots/take.mjs` after `trunk build --release`).
import { launchBrowser, openPage } from "../../tests/support/browser.mjs";
import { startStaticServer } from "../../tests/support/static-server.mjs";
const server = await startStaticServer("dist");
const browser = await launchBrowser();
for (const [path, file] of [
  ["/demo/p/pair-lab/a/BlueLake/inbox", "inbox.png"],
  ["/demo/p/pair-lab/a/BlueLake/thread/pair-001", "thread.png"],
  ["/demo/p/pair-lab/a/BlueLake/m/4", "message.png"],
]) {
  const page = await openPage(browser);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(server.url + path);
  await page.waitForTimeout(2500);
  await page.screenshot({ path: "docs/screenshots/" + file });
  console.log(file, page.errors);
  await page.close();
}
await browser.close(); await server.close();
