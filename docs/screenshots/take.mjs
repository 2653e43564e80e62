// Retakes the README screenshots from the release build in dist/ (run from the repo root:
// `node docs/screenshots/take.mjs` after `trunk build --release`).
import { launchBrowser, openPage } from "../../tests/support/browser.mjs";
import { startStaticServer } from "../../tests/support/static-server.mjs";
const server = await startStaticServer("dist");
const browser = await launchBrowser();
for (const [path, file, act] of [
  ["/demo/p/pair-lab/a/BlueLake/inbox", "inbox.png"],
  ["/demo/p/pair-lab/a/BlueLake/thread/pair-001", "thread.png"],
  ["/demo/p/pair-lab/a/BlueLake/m/4", "message.png"],
  ["/demo/p/pair-lab/sessions", "sessions.png"],
  ["/demo/p/pair-lab/sessions/pair-104", "session.png"],
  ["/demo/p/pair-lab/checkpoints", "checkpoints.png", async (page) => {
    const card = page.locator('li.checkpoint-card[data-session="pair-103"]');
    await card.getByLabel("Decision for pair-103 (as the seed writes it)").fill("ACCEPT CHANGE: the tests import jwt; allow pyjwt>=2.8");
    await card.locator(".outgoing").waitFor();
    await card.locator(".change-order").scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollBy(0, -120));
  }],
  ["/demo/p/pair-lab/audits", "audits.png", async (page) => {
    await page.locator("article.audit.failed").first().scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollBy(0, -160));
  }],
  ["/demo/p/po-factory/tasks", "tasks.png"],
]) {
  const page = await openPage(browser);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(server.url + path);
  await page.waitForTimeout(2500);
  if (act) await act(page);
  await page.waitForTimeout(300);
  await page.screenshot({ path: "docs/screenshots/" + file });
  console.log(file, page.errors);
  await page.close();
}
await browser.close(); await server.close();
