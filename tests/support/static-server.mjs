// A small static file server for dist/: the right MIME types for wasm, and the single-page-app
// fallback (any path without a file extension serves index.html) so deep links work.
// Used by the demo command and the browser tests. Binds loopback only.
import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
};

/** Serves `root` on `host:port` (port 0 picks a free one); resolves to `{ url, close }`. */
export async function startStaticServer(root, { host = "127.0.0.1", port = 0 } = {}) {
  const base = resolve(root);
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
      let file = normalize(join(base, path));
      if (!file.startsWith(base)) {
        res.writeHead(403).end();
        return;
      }
      const info = await stat(file).catch(() => null);
      if (info?.isDirectory()) file = join(file, "index.html");
      else if (!info && extname(path) === "") file = join(base, "index.html");
      const body = await readFile(file);
      res.writeHead(200, {
        "content-type": TYPES[extname(file)] ?? "application/octet-stream",
        "cache-control": "no-cache",
      });
      res.end(body);
    } catch {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    }
  });
  await new Promise((ok, fail) => {
    server.once("error", fail);
    server.listen(port, host, ok);
  });
  const { port: bound } = server.address();
  return {
    url: `http://${host}:${bound}`,
    close: () => new Promise((ok) => server.close(ok)),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [root = "dist", port = "8080"] = process.argv.slice(2);
  const { url } = await startStaticServer(root, { port: Number(port) });
  console.log(`Switchboard console (built-in demo) ready at ${url} — Ctrl-C to stop`);
}
