// Benchmark: time from navigation to the first inbox rows painted, in headless Chromium
// (release build in dist/), for inboxes of 1k, 10k and 100k messages, three ways in one run:
// - console live: the console connected (through its connect form) to a real Agent Mail 0.2.1
//   server, from the click that opens GreenCastle's inbox to the first `li.row` painted;
// - console demo: the built-in demo's synthetic inboxes (Load1k/Load10k/Load100k), from the
//   start of page.goto of the deep link to the first `li.row` painted;
// - /mail: the same server's own unified inbox page, from the start of page.goto to the first
//   message row visible (its CDN scripts served locally, see agent-mail-load.mjs).
// "Painted" = the element is visible, then one requestAnimationFrame.
// Then one more row, the sessions view: a second project on the same server holds 10,000
// messages of Pair traffic (tests/bench/bulk_pair.py); the console reads the whole project
// (every agent's mailbox) and the row times from the moment that mail has arrived (the page's
// `switchboard:traffic-arrived` performance mark) to the first session row painted (goal
// < 1 s), and from the click on "Sessions".
// One server (temporary storage) is seeded through MCP and then grown between sizes by direct
// SQLite inserts (tests/bench/bulk_insert.py). Usage: node tests/bench/console-bench.mjs [runs=3].
// Prints a Markdown table on stdout (median of runs); progress and the CDN log go to stderr.
import { existsSync } from "node:fs";
import { launchBrowser, openPage } from "../support/browser.mjs";
import { startStaticServer } from "../support/static-server.mjs";
import { SERVERS, pythonOf, startAgentMail } from "../support/agent-mail.mjs";
import { growInbox, growSessions, routeCdn, seedBase, seedSessions } from "./agent-mail-load.mjs";

const runs = Math.max(1, Number(process.argv[2] ?? 3));
const TIMEOUT = 120_000; // per measurement; a timeout is printed, never waited out twice
const SIZES = [["Load1k", 1_000], ["Load10k", 10_000], ["Load100k", 100_000]];
const SESSION_MESSAGES = 10_000;
const LOAD_TIMEOUT = 600_000; // reading 10,000 messages through the server's resources
const AGENT = "GreenCastle";
if (!existsSync("dist/index.html")) {
  console.error("dist/ is missing: run `trunk build --release` first");
  process.exit(1);
}
const venv = SERVERS.upstream;
const haveVenv = existsSync(pythonOf(venv));
if (!haveVenv) console.error(`no venv at ${pythonOf(venv)}: live and /mail columns are skipped`);

const log = (...args) => console.error("[bench]", ...args);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (n) => n.toLocaleString("en");
const nextFrame = (page) => page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => ok())));
const shownOf = async (page) => {
  const text = (await page.locator("p.summary").textContent({ timeout: 5_000 }).catch(() => "")) ?? "";
  return Number(text.match(/(\d+) shown/)?.[1] ?? NaN);
};

/** Runs `measure` up to `runs` times; stops at the first timeout. → `{ ms: number|"timeout", rows }` */
async function repeat(label, measure) {
  const times = [];
  let rows = null;
  for (let i = 0; i < runs; i++) {
    const result = await measure();
    log(`${label} run ${i + 1}: ${result.ms === null ? "timeout" : `${result.ms} ms`}, rows ${JSON.stringify(result.rows)}`);
    if (result.ms === null) return { ms: "timeout", rows: result.rows };
    times.push(result.ms);
    rows = result.rows;
  }
  return { ms: median(times), rows };
}

/**
 * Waits for the first inbox row and the frame that paints it. → `{ ms, rows }` with `ms` since
 * `t0`, or nulls on a timeout; the page's errors are kept under `label`.
 */
async function rowsPainted(page, t0, label) {
  try {
    await page.locator("li.row").first().waitFor({ timeout: TIMEOUT });
  } catch {
    return { ms: null, rows: null };
  }
  await nextFrame(page);
  const ms = Date.now() - t0;
  const rows = { shown: await shownOf(page), inDom: await page.locator("li.row").count() };
  for (const e of page.errors) pageErrors.add(`${label}: ${e}`);
  return { ms, rows };
}

const web = await startStaticServer("dist");
const browser = await launchBrowser();
let server = null;
const served = new Map();
const pageErrors = new Set();
const mailErrors = new Set(); // expected: the scripts answered with an empty body are missing
try {
  let project = null;
  if (haveVenv) {
    server = await startAgentMail({ venv, corsOrigin: web.url, timeoutMs: 90_000 });
    project = await seedBase(server);
    log(`server ${server.url}, project ${project.slug}`);
  }

  // Console, live: connect through the form, open the project, then time the click that
  // opens the agent's inbox until the first row is painted.
  const consoleLive = async () => {
    const page = await openPage(browser);
    try {
      await page.goto(web.url);
      await page.getByLabel("Server URL").fill(server.url);
      await page.getByRole("button", { name: "Connect" }).click();
      await page.getByRole("heading", { name: "Projects" }).waitFor({ timeout: TIMEOUT });
      await page.getByRole("link", { name: project.slug }).click();
      const link = page.getByRole("link", { name: AGENT, exact: true }).first();
      await link.waitFor({ timeout: TIMEOUT });
      const t0 = Date.now();
      await link.click();
      return await rowsPainted(page, t0, "console live");
    } finally {
      await page.close();
    }
  };

  // Console, demo: the synthetic inbox of the same size, by deep link.
  const consoleDemo = (agent) => async () => {
    const page = await openPage(browser);
    try {
      const t0 = Date.now();
      await page.goto(`${web.url}/demo/p/scale/a/${agent}/inbox`, { waitUntil: "commit" });
      return await rowsPainted(page, t0, "console demo");
    } finally {
      await page.close();
    }
  };

  // The server's /mail unified inbox (all projects, newest 500 messages).
  const mailPage = async () => {
    const page = await openPage(browser);
    try {
      await routeCdn(page, server.url, served);
      const t0 = Date.now();
      try {
        await page.goto(`${server.url}/mail`, { timeout: TIMEOUT, waitUntil: "commit" });
        await page.locator("[data-message-id]").first().waitFor({ timeout: Math.max(1, TIMEOUT - (Date.now() - t0)) });
      } catch {
        return { ms: null, rows: null };
      }
      await nextFrame(page);
      const ms = Date.now() - t0;
      for (const e of page.errors) mailErrors.add(e);
      return { ms, rows: await page.locator("[data-message-id]").count() };
    } finally {
      await page.close();
    }
  };

  const lines = [];
  const goals = [];
  let mail10k = null;
  for (const [agent, n] of SIZES) {
    let live = { ms: "n/a", rows: null };
    let mail = { ms: "n/a", rows: null };
    if (server) {
      const grown = await growInbox(server, venv, AGENT, n);
      log(`${fmt(n)}: inserted ${grown.inserted} rows in ${grown.seconds} s, ${AGENT} holds ${grown.total}`);
      for (const limit of [1000, 5000]) {
        const t = Date.now();
        const got = await server.tool("fetch_inbox", { project_key: project.human_key, agent_name: AGENT, limit });
        log(`${fmt(n)}: fetch_inbox over MCP with limit=${limit} returned ${got.length} rows in ${Date.now() - t} ms`);
      }
      live = await repeat(`${fmt(n)} console live`, consoleLive);
      mail = await repeat(`${fmt(n)} /mail`, mailPage);
    }
    const demo = await repeat(`${fmt(n)} console demo`, consoleDemo(agent));
    const ratio = typeof live.ms === "number" && typeof mail.ms === "number" ? (live.ms / mail.ms).toFixed(2) : "–";
    if (n === 10_000 && typeof mail.ms === "number") mail10k = mail.ms;
    if (n === 10_000 && typeof mail.ms === "number") {
      for (const [name, r] of [["live", live], ["demo", demo]]) {
        if (typeof r.ms === "number") goals.push(`console ${name} at 10k: ${(r.ms / mail.ms).toFixed(2)} × /mail (goal ≤ 0.5): ${r.ms <= mail.ms / 2 ? "met" : "NOT met"}`);
      }
    }
    if (n === 100_000) {
      for (const [name, r] of [["live", live], ["demo", demo]]) {
        if (typeof r.ms === "number") goals.push(`console ${name} at 100k: ${r.ms} ms (goal < 1000 ms): ${r.ms < 1000 ? "met" : "NOT met"}`);
      }
    }
    const rowsCell = (r) => (r ? `${fmt(r.shown)} (${r.inDom} in DOM)` : "–");
    lines.push(
      `| ${fmt(n)} | ${live.ms} | ${demo.ms} | ${mail.ms} | ${ratio} | ` +
        `live ${rowsCell(live.rows)} · demo ${rowsCell(demo.rows)} · /mail ${mail.rows === null ? "–" : fmt(mail.rows)} |`,
    );
  }
  // The sessions view at 10,000 messages in a project.
  let sessionsRow = null;
  if (server) {
    const sp = await seedSessions(server);
    const grown = await growSessions(server, venv, sp, SESSION_MESSAGES);
    log(`sessions: inserted ${grown.inserted} messages (${grown.sessions} sessions) in ${grown.seconds} s`);
    const consoleSessions = async () => {
      const page = await openPage(browser);
      try {
        await page.goto(web.url);
        await page.getByLabel("Server URL").fill(server.url);
        await page.getByRole("button", { name: "Connect" }).click();
        await page.getByRole("heading", { name: "Projects" }).waitFor({ timeout: TIMEOUT });
        await page.getByRole("link", { name: sp.slug }).click();
        const link = page.getByRole("link", { name: "Sessions", exact: true });
        await link.waitFor({ timeout: TIMEOUT });
        await page.evaluate(() => {
          window.__paint = null;
          const seen = new MutationObserver(() => {
            if (window.__paint === null && document.querySelector("tr.session-row")) {
              window.__paint = 0;
              seen.disconnect();
              requestAnimationFrame(() => (window.__paint = performance.now()));
            }
          });
          seen.observe(document.body, { childList: true, subtree: true });
        });
        const clicked = await page.evaluate(() => performance.now());
        await link.click();
        try {
          await page.waitForFunction(() => window.__paint > 0, null, { timeout: LOAD_TIMEOUT, polling: 100 });
        } catch {
          return { ms: null, rows: null };
        }
        const t = await page.evaluate(() => ({
          paint: window.__paint,
          arrived: performance.getEntriesByName("switchboard:traffic-arrived").at(-1)?.startTime,
          summary: document.querySelector("p.traffic")?.textContent ?? "",
          shown: document.querySelectorAll("tr.session-row").length,
        }));
        for (const e of page.errors) pageErrors.add(`sessions: ${e}`);
        return {
          ms: Math.round(t.paint - t.arrived),
          rows: { total: Math.round(t.paint - clicked), read: Math.round(t.arrived - clicked), summary: t.summary, shown: t.shown },
        };
      } finally {
        await page.close();
      }
    };
    const totals = [];
    const reads = [];
    const measured = await repeat("sessions view", async () => {
      const r = await consoleSessions();
      if (r.rows) {
        totals.push(r.rows.total);
        reads.push(r.rows.read);
      }
      return r;
    });
    sessionsRow = { ...measured, total: totals.length ? median(totals) : null, read: reads.length ? median(reads) : null };
  }

  console.log(`Median of ${runs} run(s); ms from navigation to first inbox rows painted (headless Chromium).`);
  console.log("");
  console.log("| size | console live (ms) | console demo (ms) | /mail (ms) | ratio console live / mail | rows shown by each |");
  console.log("|---:|---:|---:|---:|---:|---|");
  for (const line of lines) console.log(line);
  console.log("");
  console.log("Rows: console = its \"N shown\" count (virtualized list, `li.row` in DOM in brackets); " +
    "live is capped by fetch_inbox's limit maximum (1000 at 0.2.1); /mail shows the newest 500 messages of all projects.");
  if (sessionsRow) {
    console.log("");
    console.log(`Sessions view, ${fmt(SESSION_MESSAGES)} messages in a project on the same server (median of ${runs} run(s)):`);
    console.log("");
    console.log("| view | mail arrived → first session row painted (ms) | goal (ms) | ratio to goal | /mail at 10k (ms) | ratio to /mail | click → mail arrived (ms) | click → painted (ms) | what the page says |");
    console.log("|---|---:|---:|---:|---:|---:|---:|---:|---|");
    const ms = sessionsRow.ms;
    const num = typeof ms === "number";
    console.log(`| sessions, ${fmt(SESSION_MESSAGES)} messages | ${ms} | 1000 | ${num ? (ms / 1000).toFixed(2) : "–"} | ${mail10k ?? "–"} | ${num && mail10k ? (ms / mail10k).toFixed(2) : "–"} | ${sessionsRow.read ?? "–"} | ${sessionsRow.total ?? "–"} | ${sessionsRow.rows?.summary?.trim() ?? "–"} (${sessionsRow.rows?.shown ?? "–"} rows in DOM) |`);
    if (typeof ms === "number") goals.push(`sessions view at ${fmt(SESSION_MESSAGES)} messages: ${ms} ms after the mail arrived (goal < 1000 ms): ${ms < 1000 ? "met" : "NOT met"}`);
  }
  if (goals.length) console.log(`Goals: ${goals.join("; ")}.`);
} finally {
  if (served.size) {
    log("off-machine requests made by /mail, and how they were answered:");
    for (const [url, how] of [...served].sort()) log(`  ${url} → ${how}`);
  }
  for (const e of pageErrors) log(`page error: ${e}`);
  for (const e of mailErrors) log(`/mail page error (scripts stubbed empty): ${e}`);
  await browser.close().catch(() => {});
  await server?.stop().catch(() => {});
  await web.close();
}
