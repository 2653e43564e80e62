// The browser build (the package's ESM entry for browsers and bundlers) in headless Chromium:
// a page maps the package name to the installed package with an import map, imports it, and
// validates messages from text, bytes and objects, through a schema object too.
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { after, before, test } from "node:test";
import { launchBrowser, openPage } from "../../../../tests/support/browser.mjs";
import { startStaticServer } from "../../../../tests/support/static-server.mjs";
import { scratchProject } from "./support.mjs";

const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>switchboard-protocol in the browser</title>
<link rel="icon" href="data:,">
<script type="importmap">
  { "imports": { "switchboard-protocol": "/node_modules/switchboard-protocol/index.js" } }
</script>
<script type="module">
  import { validate, validateJson, validateBytes, schemas } from "switchboard-protocol";
  const text = '{"type": "request_review", "context": "PR 12"}';
  const bad = schemas["pair-claude/DriverCommand"].safeParse({ type: "approve" });
  window.results = {
    text: validateJson(text),
    bytes: validateBytes(new TextEncoder().encode(text)),
    object: validate({ type: "request_review", context: 5 }),
    schema: { success: bad.success, path: bad.error.issues[0].path, code: bad.error.issues[0].code },
  };
  document.body.textContent = window.results.text.valid ? "valid" : "invalid";
</script>
`;

let server;
let browser;
let url;

before(async () => {
  const project = scratchProject();
  const dir = mkdtempSync(join(project, "browser-"));
  writeFileSync(join(dir, "index.html"), PAGE);
  server = await startStaticServer(project);
  url = `${server.url}/${basename(dir)}/index.html`;
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test("a page importing the ESM build validates messages in headless Chromium", async () => {
  const page = await openPage(browser);
  await page.goto(url);
  await page.waitForFunction(() => window.results !== undefined, null, { timeout: 20000 });
  const results = await page.evaluate(() => window.results);
  const valid = { valid: true, family: "pair-claude", messageType: "DriverCommand", version: "1.0.0", issues: [] };
  assert.deepEqual(results.text, valid);
  assert.deepEqual(results.bytes, valid);
  assert.deepEqual(results.object.issues, [
    { path: "/context", code: "wrong_type", message: "expected a string, found number", severity: "error" },
  ]);
  assert.deepEqual(results.schema, { success: false, path: ["type"], code: "not_in_enum" });
  assert.equal(await page.textContent("body"), "valid");
  assert.deepEqual(page.errors, []);
});
