// Helpers for the console benchmark against a real Agent Mail 0.2.1 server:
// - seedBase: a project, two agents and three real sends through MCP (schema + git archive);
// - growInbox: bulk-inserts rows into the server's SQLite until the agent holds N messages
//   (fetch_inbox and the /mail pages read only SQLite; backends.md §8 did the same);
// - routeCdn: serves the /mail pages' CDN scripts from local npm packages (Alpine.js, and
//   @tailwindcss/browser standing in for the Tailwind v3 CDN script); every other off-machine
//   request gets an empty body. What was served how is recorded in the `served` map.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { pythonOf } from "../support/agent-mail.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");

/** Creates the project, BlueLake and GreenCastle, and sends three messages BlueLake → GreenCastle. */
export async function seedBase(server) {
  const project = await server.tool("ensure_project", { human_key: `${server.dir}/repo` });
  for (const [name, program] of [["BlueLake", "claude-code"], ["GreenCastle", "codex-cli"]]) {
    await server.tool("register_agent", { project_key: project.human_key, program, model: "bench", name, task_description: name });
  }
  const send = (args) => server.tool("send_message", { project_key: project.human_key, sender_name: "BlueLake", to: ["GreenCastle"], ...args });
  await send({ subject: "API contract for /users", body_md: "Please review the **users** API. Ack when read.", importance: "high", ack_required: true, thread_id: "FEAT-1" });
  await send({ subject: "FYI: CI is green", body_md: "Nothing to do." });
  await send({ subject: "Plan for the bench", body_md: "Rows below were inserted in bulk.", thread_id: "FEAT-1" });
  return project;
}

/** Adjectives of 0.2.1's agent names (mcp_agent_mail.utils.ADJECTIVES). */
const ADJECTIVES = ["Blue", "Green", "Red", "Purple", "Orange", "Silver", "Gold", "Jade", "Amber", "Coral", "Ivory", "Teal",
  "Pink", "Black", "Brown", "White", "Azure", "Crimson", "Cyan", "Gray", "Indigo", "Lavender", "Magenta", "Maroon", "Navy",
  "Olive", "Pearl", "Rose", "Ruby", "Sage", "Scarlet", "Topaz", "Violet", "Cobalt", "Copper", "Bronze", "Emerald",
  "Sapphire", "Turquoise", "Sunny", "Misty", "Foggy", "Stormy", "Windy", "Frosty", "Dusty", "Hazy", "Cloudy", "Rainy", "Swift"];

/** `pairs` planner/builder pairs of valid 0.2.1 names, planners first in each pair (`BlueLake`, `BlueCastle`, …). */
export function sessionAgents(pairs) {
  const nouns = [["Lake", "Castle"], ["River", "Tower"]];
  return Array.from({ length: pairs }, (_, i) => {
    const [planner, builder] = nouns[Math.floor(i / ADJECTIVES.length)];
    const adjective = ADJECTIVES[i % ADJECTIVES.length];
    return [adjective + planner, adjective + builder];
  }).flat();
}

/**
 * Creates a project with `pairs` planner/builder pairs (registered in pair order) and one real
 * send, whose row bulk_pair.py copies.
 */
export async function seedSessions(server, pairs = 12) {
  const project = await server.tool("ensure_project", { human_key: `${server.dir}/sessions-${pairs}` });
  const agents = sessionAgents(pairs);
  for (const name of agents) {
    await server.tool("register_agent", { project_key: project.human_key, program: "bench", model: "bench", name, task_description: name });
  }
  await server.tool("send_message", {
    project_key: project.human_key, sender_name: agents[0], to: [agents[1]], subject: "Pairing", body_md: "Ready to pair.",
  });
  return project;
}

/** Fills the sessions project with Pair traffic up to `target` messages (bulk_pair.py). */
export async function growSessions(server, venv, project, target) {
  const { stdout } = await promisify(execFile)(
    pythonOf(venv),
    [join(here, "bulk_pair.py"), join(server.dir, "storage.sqlite3"), project.slug, String(target)],
    { timeout: 300_000 },
  );
  const [inserted, sessions, seconds] = stdout.trim().split(/\s+/).map(Number);
  return { inserted, sessions, seconds };
}

/** Grows `agent`'s inbox to `target` messages; resolves to `{ inserted, total, seconds }`. */
export async function growInbox(server, venv, agent, target) {
  const { stdout } = await promisify(execFile)(
    pythonOf(venv),
    [join(here, "bulk_insert.py"), join(server.dir, "storage.sqlite3"), agent, String(target)],
    { timeout: 300_000 },
  );
  const [inserted, total, seconds] = stdout.trim().split(/\s+/).map(Number);
  return { inserted, total, seconds };
}

const lazy = (path) => {
  let body;
  return () => (body ??= readFileSync(join(root, path)));
};
const alpine = lazy("node_modules/alpinejs/dist/cdn.min.js");
// The page assigns `tailwind.config = {…}` right after the v3 CDN script; v4's browser build
// defines no `tailwind` global, so a one-line shim keeps that inline script from throwing.
const tailwindShim = "window.tailwind = window.tailwind || {};\n";
const tailwind = lazy("node_modules/@tailwindcss/browser/dist/index.global.js");

/** Routes every request to a host other than `localOrigin`'s; records `url → how` in `served`. */
export async function routeCdn(page, localOrigin, served) {
  const local = new URL(localOrigin).host;
  await page.route(
    (url) => url.host !== local,
    async (route) => {
      const request = route.request();
      const url = request.url();
      const type = request.resourceType();
      if (/^https:\/\/cdn\.jsdelivr\.net\/npm\/alpinejs@[^/]+\/dist\/cdn(\.min)?\.js$/.test(url)) {
        served.set(url, "local node_modules/alpinejs/dist/cdn.min.js");
        return route.fulfill({ status: 200, contentType: "text/javascript", body: alpine() });
      }
      if (/^https:\/\/cdn\.tailwindcss\.com\/?/.test(url)) {
        served.set(url, "local node_modules/@tailwindcss/browser/dist/index.global.js (+ `tailwind` global shim)");
        return route.fulfill({ status: 200, contentType: "text/javascript", body: Buffer.concat([Buffer.from(tailwindShim), tailwind()]) });
      }
      const contentType = type === "script" ? "text/javascript" : type === "stylesheet" ? "text/css" : "application/octet-stream";
      served.set(url, `empty ${type}`);
      return route.fulfill({ status: 200, contentType, body: "" });
    },
  );
}
