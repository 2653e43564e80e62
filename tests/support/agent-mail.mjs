// Starts a real MCP Agent Mail server (a Python venv that scripts/setup.sh installed) on a free
// loopback port with its own temporary storage, and talks to it over its stateless MCP
// JSON-RPC endpoint. Servers bind 127.0.0.1 only; always `stop()` them (tests do it in after()).
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";

const HOME = process.env.SWITCHBOARD_HOME ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "switchboard");

/** The known server venvs, by short name. */
export const SERVERS = {
  upstream: "agent-mail-0.2.1",
  fork: "mcp-mail-0.1.19",
};

/** The python of a server venv, e.g. `pythonOf("agent-mail-0.2.1")`. */
export function pythonOf(venv) {
  return join(HOME, "venvs", venv, "bin", "python");
}

/** A free TCP port on 127.0.0.1. */
export function freePort() {
  return new Promise((ok, fail) => {
    const probe = createServer();
    probe.once("error", fail);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => ok(port));
    });
  });
}

/** Unwraps a tool result: structuredContent (or content[0].text), minus `{result: …}` layers. */
export function unwrapTool(result) {
  if (result?.isError) {
    throw new Error(`tool error: ${result.content?.[0]?.text ?? JSON.stringify(result)}`);
  }
  let value = result?.structuredContent ?? JSON.parse(result?.content?.[0]?.text ?? "null");
  while (value && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 1 && "result" in value) {
    value = value.result;
  }
  return value;
}

/**
 * Starts a server. `venv` names its virtual environment (see SERVERS); `corsOrigin` is the
 * console origin to allow. Resolves to `{ url, endpoint, rpc, tool, extendedTool, resource, stop }`.
 */
export async function startAgentMail({ venv = SERVERS.upstream, corsOrigin, env = {}, timeoutMs = 90_000 } = {}) {
  const dir = await mkdtemp(join(tmpdir(), "switchboard-agent-mail-"));
  const port = await freePort();
  const child = spawn(
    pythonOf(venv),
    ["-m", "mcp_agent_mail.cli", "serve-http", "--host", "127.0.0.1", "--port", String(port)],
    {
      cwd: dir,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        STORAGE_ROOT: join(dir, "archive"),
        DATABASE_URL: `sqlite+aiosqlite:///${join(dir, "storage.sqlite3")}`,
        LLM_ENABLED: "false",
        HTTP_CORS_ENABLED: corsOrigin ? "true" : "false",
        HTTP_CORS_ORIGINS: corsOrigin ?? "",
        ...env,
      },
    },
  );
  let log = "";
  const keep = (chunk) => {
    log = (log + chunk).slice(-8000);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  let exited = null;
  const exit = new Promise((ok) => child.once("exit", (code, signal) => ok((exited = { code, signal }))));

  const url = `http://127.0.0.1:${port}`;
  const endpoint = `${url}/mcp/`;
  let nextId = 1;

  async function stop() {
    if (!exited) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {}
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {}
      }, 5000);
      await exit;
      clearTimeout(timer);
    }
    await rm(dir, { recursive: true, force: true });
  }

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited) {
      await stop();
      throw new Error(`the ${venv} server exited (${JSON.stringify(exited)}):\n${log}`);
    }
    const alive = await fetch(`${url}/health/liveness`).then((r) => r.ok, () => false);
    if (alive) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the ${venv} server did not start in ${timeoutMs} ms:\n${log}`);
    }
    await new Promise((ok) => setTimeout(ok, 250));
  }

  /** One JSON-RPC call; resolves to the reply's `result`, throws on a JSON-RPC error. */
  async function rpc(method, params) {
    const response = await fetch(endpoint, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...(env.HTTP_BEARER_TOKEN ? { authorization: `Bearer ${env.HTTP_BEARER_TOKEN}` } : {}),
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }),
    });
    if (!response.ok) throw new Error(`${method}: HTTP ${response.status}: ${await response.text()}`);
    const reply = await response.json();
    if (reply.error) throw new Error(`${method}: JSON-RPC error ${reply.error.code}: ${reply.error.message}`);
    return reply.result;
  }

  /** Calls a tool; resolves to its unwrapped payload. */
  const tool = async (name, args = {}) => unwrapTool(await rpc("tools/call", { name, arguments: args }));

  /** Calls one of the fork's extended tools through `call_extended_tool`. */
  const extendedTool = (name, args = {}) => tool("call_extended_tool", { tool_name: name, arguments: args });

  /** Reads a resource; resolves to its JSON payload. */
  async function resource(uri) {
    const result = await rpc("resources/read", { uri });
    return JSON.parse(result.contents[0].text);
  }

  return { url, endpoint, dir, rpc, tool, extendedTool, resource, stop, log: () => log };
}
