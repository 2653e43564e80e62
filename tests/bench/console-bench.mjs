// Benchmark: time from navigation to the first inbox rows painted, in headless Chromium
// (release build in dist/), for inboxes of 1k, 10k and 100k messages, three ways in one run:
// - console live: the console connected (through its connect form) to a real Agent Mail 0.2.1
//   server, from the click that opens GreenCastle's inbox to the first `li.row` painted;
// - console demo: the built-in demo's synthetic inboxes (Load1k/Load10k/Load100k), from the
//   start of page.goto of the deep link to the first `li.row` painted;
// - /mail: the same server's own unified inbox page, from the start of page.goto to the first
//   message row visible (its CDN scripts served locally, see agent-mail-load.mjs).
// "Painted" = the element is visible, then one requestAnimationFrame.
// Then the protocol views as a reviewer feels them, on projects of 10,000 and 100,000 messages
// of Pair traffic on the same server (tests/bench/bulk_pair.py; 12 and 100 planner/builder
// pairs, so that no inbox exceeds the 1,000 messages 0.2.1's fetch_inbox returns and the
// console reads every message): from the click on "Sessions" to the first session row
// painted, and to the first one with its verdict (read in full); from the click on
// "Checkpoints" to the first open checkpoint painted; and, once the whole project was read,
// from a reload of the sessions view (connection remembered for the tab, the traffic kept in
// IndexedDB) to the first session row painted. Goal: 1,000 ms each. With them, the page's and
// the engine worker's memory once the whole project is read: JS heap (CDP
// Runtime.getHeapUsage) and wasm linear memory.
// One server (temporary storage) is seeded through MCP and then grown between sizes by direct
// SQLite inserts (tests/bench/bulk_insert.py).
// Usage: node tests/bench/console-bench.mjs [runs=3] [all|inbox|protocol].
// Prints a Markdown table on stdout (median of runs); progress and the CDN log go to stderr.
import { existsSync } from "node:fs";
import { launchBrowser, openPage } from "../support/browser.mjs";
import { startStaticServer } from "../support/static-server.mjs";
import { SERVERS, pythonOf, startAgentMail } from "../support/agent-mail.mjs";
import { growInbox, growSessions, routeCdn, seedBase, seedSessions } from "./agent-mail-load.mjs";
import { memoryOf, paintObserver } from "./console-memory.mjs";

const runs = Math.max(1, Number(process.argv[2] ?? 3));
const sections = process.argv[3] ?? "all";
const TIMEOUT = 120_000; // per measurement; a timeout is printed, never waited out twice
const SIZES = [["Load1k", 1_000], ["Load10k", 10_000], ["Load100k", 100_000]];
/** Protocol-view projects: messages, planner/builder pairs. */
const PROTOCOL_SIZES = [[10_000, 12], [100_000, 100]];
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
  for (const [agent, n] of sections === "protocol" ? [] : SIZES) {
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
  // The protocol views on projects of Pair traffic.
  const protocolRows = [];
  if (server && sections !== "inbox") {
    /** Connects (remembered for the tab when `remember`) and opens the project's agents page. */
    const openProject = async (page, sp, remember = false) => {
      await page.goto(web.url);
      await page.getByLabel("Server URL").fill(server.url);
      if (remember) await page.getByLabel("Remember for this tab (sessionStorage)").check();
      await page.getByRole("button", { name: "Connect" }).click();
      await page.getByRole("heading", { name: "Projects" }).waitFor({ timeout: TIMEOUT });
      await page.getByRole("link", { name: sp.slug }).click();
    };
    /** The time from a click on `link` to the first element matching each selector painted. */
    const clickToPaint = (sp, link, selectors) => async () => {
      const page = await openPage(browser);
      try {
        await openProject(page, sp);
        const target = page.getByRole("link", { name: link, exact: true });
        await target.waitFor({ timeout: TIMEOUT });
        await page.evaluate(paintObserver, selectors);
        const clicked = await page.evaluate(() => performance.now());
        await target.click();
        try {
          await page.waitForFunction((n) => window.__paint.filter((t) => t > 0).length === n, selectors.length, { timeout: LOAD_TIMEOUT, polling: 50 });
        } catch {
          return { ms: null, rows: null };
        }
        const painted = await page.evaluate(() => window.__paint);
        for (const e of page.errors) pageErrors.add(`${link}: ${e}`);
        return { ms: Math.round(painted[0] - clicked), rows: painted.map((t) => Math.round(t - clicked)) };
      } finally {
        await page.close();
      }
    };
    /** Reads the whole project, then times a reload to the first session row painted. */
    const reloadToPaint = (sp, memory) => async () => {
      const page = await openPage(browser);
      try {
        await openProject(page, sp, true);
        await page.getByRole("link", { name: "Sessions", exact: true }).click();
        const clicked = await page.evaluate(() => performance.now());
        try {
          await page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, "switchboard:traffic-arrived", { timeout: LOAD_TIMEOUT, polling: 250 });
        } catch {
          return { ms: null, rows: null };
        }
        const arrived = await page.evaluate((mark) => performance.getEntriesByName(mark).at(-1).startTime, "switchboard:traffic-arrived");
        if (!memory.page) {
          // Let the engine finish folding and the view settle before weighing.
          await page.waitForTimeout(2_000);
          Object.assign(memory, await memoryOf(page));
          memory.kept = await page.evaluate(() => new Promise((ok) => {
            const open = indexedDB.open("switchboard-traffic", 1);
            open.onsuccess = () => {
              const count = open.result.transaction("pages").objectStore("pages").count();
              count.onsuccess = () => ok(count.result);
              count.onerror = () => ok(null);
            };
            open.onerror = () => ok(null);
          }));
          memory.summary = (await page.locator("p.traffic").textContent().catch(() => ""))?.trim();
        }
        await page.addInitScript(paintObserver, ["tr.session-row"]);
        await page.reload({ waitUntil: "commit" });
        try {
          await page.waitForFunction(() => window.__paint?.[0] > 0, null, { timeout: LOAD_TIMEOUT, polling: 50 });
        } catch {
          return { ms: null, rows: null };
        }
        const painted = await page.evaluate(() => window.__paint[0]);
        for (const e of page.errors) pageErrors.add(`reload: ${e}`);
        return { ms: Math.round(painted), rows: { read: Math.round(arrived - clicked) } };
      } finally {
        await page.close();
      }
    };
    for (const [n, pairs] of PROTOCOL_SIZES) {
      const sp = await seedSessions(server, pairs);
      const grown = await growSessions(server, venv, sp, n);
      log(`protocol views: ${grown.inserted} messages inserted (${grown.sessions} sessions, ${pairs * 2} agents) in ${grown.seconds} s`);
      const sessions = await repeat(`${fmt(n)} sessions`, clickToPaint(sp, "Sessions", ["tr.session-row", "tr.session-row:not(.reading)"]));
      const checkpoints = await repeat(`${fmt(n)} checkpoints`, clickToPaint(sp, "Checkpoints", ["li.checkpoint-card"]));
      const memory = {};
      const reads = [];
      const reload = await repeat(`${fmt(n)} reload`, async () => {
        const r = await reloadToPaint(sp, memory)();
        if (r.rows) reads.push(r.rows.read);
        return r;
      });
      protocolRows.push({ n, agents: pairs * 2, sessions, checkpoints, reload, read: reads.length ? median(reads) : null, memory });
    }
  }

  if (lines.length) {
    console.log(`Median of ${runs} run(s); ms from navigation to first inbox rows painted (headless Chromium).`);
    console.log("");
    console.log("| size | console live (ms) | console demo (ms) | /mail (ms) | ratio console live / mail | rows shown by each |");
    console.log("|---:|---:|---:|---:|---:|---|");
    for (const line of lines) console.log(line);
    console.log("");
    console.log("Rows: console = its \"N shown\" count (virtualized list, `li.row` in DOM in brackets); " +
      "live is capped by fetch_inbox's limit maximum (1000 at 0.2.1); /mail shows the newest 500 messages of all projects.");
  }
  if (protocolRows.length) {
    const mb = (bytes) => (typeof bytes === "number" ? (bytes / 1048576).toFixed(1) : "–");
    const cell = (r) => (typeof r.ms === "number" ? `${r.ms}` : r.ms);
    const ratio = (r) => (typeof r.ms === "number" ? (r.ms / 1000).toFixed(2) : "–");
    console.log("");
    console.log(`Protocol views on a real Agent Mail 0.2.1 server (median of ${runs} run(s); goal 1,000 ms each):`);
    console.log("");
    console.log("| messages (agents) | click → first session row (ms) | click → first session row with its verdict (ms) | click → first open checkpoint (ms) | reload → first session row (ms) | ratio to goal (worst) | click → whole project read (ms) | page heap: JS + wasm (MB) | worker heap: JS + wasm (MB) |");
    console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (const r of protocolRows) {
      const verdict = r.sessions.rows?.[1];
      const times = [r.sessions.ms, verdict, r.checkpoints.ms, r.reload.ms];
      const worst = times.every((t) => typeof t === "number") ? (Math.max(...times) / 1000).toFixed(2) : "–";
      const m = r.memory;
      console.log(`| ${fmt(r.n)} (${r.agents}) | ${cell(r.sessions)} | ${verdict ?? "–"} | ${cell(r.checkpoints)} | ${cell(r.reload)} | ${worst} | ${r.read ?? "–"} | ${mb(m.page?.js)} + ${mb(m.page?.wasm)} | ${mb(m.worker?.js)} + ${mb(m.worker?.wasm)} |`);
      for (const [name, t] of [["first session row", r.sessions.ms], ["first session row with its verdict", verdict], ["first open checkpoint", r.checkpoints.ms], ["reload to the first session row", r.reload.ms]]) {
        if (typeof t === "number") goals.push(`${name} at ${fmt(r.n)}: ${t} ms (goal ≤ 1000 ms): ${t <= 1000 ? "met" : "NOT met"}`);
      }
    }
    for (const r of protocolRows) if (r.memory.summary) console.log(`\nAt ${fmt(r.n)} messages, once read, the page said: ${r.memory.summary} (${r.memory.kept ?? "no"} pages kept in IndexedDB)`);
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
