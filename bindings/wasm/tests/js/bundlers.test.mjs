// The package in browsers with no configuration: the packed tarball, installed into a scratch
// project written as `npm init -y` writes one (no "type": "module"), bundled by esbuild, Vite and
// webpack 5 at their defaults (the versions pinned in the repository's package-lock.json), from
// an ES module app and a CommonJS one, and loaded unbundled by a plain <script type="module">
// from a static server (by path, and by name through an import map). Each page runs the
// same app in headless Chromium and must give the same results, with no console error. The
// validation-only entry is bundled the same way, and its load entry with the module as a
// separate .wasm asset (esbuild's file loader; Vite and webpack at their defaults; unbundled).
//
// Bundles are cached per package build and app text (a second run only loads the pages).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { launchBrowser, openPage } from "../../../../tests/support/browser.mjs";
import { startStaticServer } from "../../../../tests/support/static-server.mjs";
import { ROOT, scratchProject } from "./support.mjs";

const BIN = join(ROOT, "node_modules/.bin");

/** The app every page runs: it imports the package by name, as a user's code would. */
const APP = `import { validate, validateJson, validateBytes, schemas, families, sessions, build, parseJson, SwitchboardError } from "switchboard-protocol";

const text = '{"type": "request_review", "context": "PR 12"}';
const bad = schemas["pair-claude/DriverCommand"].safeParse({ type: "approve" });
let refusal = null;
try {
  sessions("[", { now: 0 });
} catch (err) {
  refusal = err instanceof SwitchboardError ? err.code : String(err);
}
window.results = {
  text: validateJson(text),
  bytes: validateBytes(new TextEncoder().encode(text)),
  object: validate({ type: "request_review", context: 5 }).issues,
  schema: { success: bad.success, path: bad.error.issues[0].path, code: bad.error.issues[0].code },
  families: families.map((f) => f.name),
  refusal,
  parsed: parseJson(text).key,
  built: build("pair-claude/DriverCommand", { type: "request_review", context: "PR 12" }).type,
  id: build("droid/task_assignment", { task_id: "bd-1", description: "d", specification: { acceptance_criteria: [] },
    file_patterns: [], priority: "low", priority_value: 3 }, { sender: "o" }).message_id.length,
};
document.body.textContent = window.results.text.valid ? "valid" : "invalid";
`;

/** The same app written as CommonJS. */
const CJS_APP = APP.replace(
  /^import (\{[^}]*\}) from "switchboard-protocol";$/m,
  (_, names) => `const ${names} = require("switchboard-protocol");`,
);

const EXPECTED = {
  text: { valid: true, family: "pair-claude", messageType: "DriverCommand", version: "1.0.0", issues: [] },
  bytes: { valid: true, family: "pair-claude", messageType: "DriverCommand", version: "1.0.0", issues: [] },
  object: [{ path: "/context", code: "wrong_type", message: "expected a string, found number", severity: "error" }],
  schema: { success: false, path: ["type"], code: "not_in_enum" },
  families: ["pair", "agent-po", "droid", "pair-claude"],
  refusal: "bad_log",
  parsed: "pair-claude/DriverCommand",
  built: "request_review",
  id: 40,
};

/** The app of the validation-only entry; `IMPORT` is replaced by how each page gets the API. */
const VALIDATE_APP = `IMPORT
const text = '{"type": "request_review", "context": "PR 12"}';
const bad = sb.schemas["pair-claude/DriverCommand"].safeParse({ type: "approve" });
window.results = {
  text: sb.validateJson(text),
  bytes: sb.validateBytes(new TextEncoder().encode(text)),
  object: sb.validate({ type: "request_review", context: 5 }).issues,
  schema: { success: bad.success, path: bad.error.issues[0].path, code: bad.error.issues[0].code },
  families: sb.families.map((f) => f.name),
  parsed: sb.parseJson(text).key,
  mail: sb.readMail({ subject: "review", body_md: text }).kind,
};
document.body.textContent = window.results.text.valid ? "valid" : "invalid";
`;

/** The validation app over the zero-config entry, and over the load entry (the .wasm as an asset). */
const validateApp = (entry) => VALIDATE_APP.replace("IMPORT", `import * as sb from "${entry}";`);
const assetApp = (url) =>
  `import { load } from "switchboard-protocol/validate/load";
${url ? 'import url from "switchboard-protocol/validate.wasm";\n' : ""}load(${url ? "url" : ""}).then((sb) => {
${VALIDATE_APP.replace("IMPORT\n", "").replace(/^/gm, "  ")}
});
`;

const VALIDATE_EXPECTED = {
  text: EXPECTED.text,
  bytes: EXPECTED.bytes,
  object: EXPECTED.object,
  schema: EXPECTED.schema,
  families: EXPECTED.families,
  parsed: EXPECTED.parsed,
  mail: "message",
};

const page = (script) => `<!doctype html>
<meta charset="utf-8">
<title>switchboard-protocol bundled</title>
<link rel="icon" href="data:,">
<body>
${script}
`;

/**
 * How each bundler is run: the files of its folder in the scratch project and the command, run
 * there; `page` is the built page's path in the folder.
 */
const BUNDLERS = {
  // esbuild's defaults for --bundle: the browser platform and an IIFE (a classic script).
  "esbuild (iife)": {
    files: { "src/index.js": APP, "dist/index.html": page('<script src="main.js"></script>') },
    run: [join(BIN, "esbuild"), ["--bundle", "src/index.js", "--outfile=dist/main.js", "--log-level=warning"]],
    page: "dist/index.html",
  },
  // The issue's command: an ES module for the browser.
  "esbuild (esm)": {
    files: { "src/index.js": APP, "dist/index.html": page('<script type="module" src="main.js"></script>') },
    run: [
      join(BIN, "esbuild"),
      ["--bundle", "src/index.js", "--platform=browser", "--format=esm", "--outfile=dist/main.js", "--log-level=warning"],
    ],
    page: "dist/index.html",
  },
  // `vite build` with no config file: index.html is the entry.
  vite: {
    files: { "src/index.js": APP, "index.html": page('<script type="module" src="/src/index.js"></script>') },
    run: [join(BIN, "vite"), ["build", "--logLevel", "warn", "--base", "./"]],
    page: "dist/index.html",
  },
  // `webpack` with no config file: ./src/index.js → ./dist/main.js, production mode.
  "webpack 5": {
    files: { "src/index.js": APP, "dist/index.html": page('<script src="main.js"></script>') },
    run: [join(BIN, "webpack"), ["--mode", "production", "--no-stats"]],
    page: "dist/index.html",
  },
  // A CommonJS app (require) in the same project, bundled by webpack and by esbuild.
  "webpack 5 (CommonJS app)": {
    files: { "src/index.js": CJS_APP, "dist/index.html": page('<script src="main.js"></script>') },
    run: [join(BIN, "webpack"), ["--mode", "production", "--no-stats"]],
    page: "dist/index.html",
  },
  "esbuild (CommonJS app)": {
    files: { "src/index.js": CJS_APP, "dist/index.html": page('<script src="main.js"></script>') },
    run: [join(BIN, "esbuild"), ["--bundle", "src/index.js", "--outfile=dist/main.js", "--log-level=warning"]],
    page: "dist/index.html",
  },
  // The validation-only entry, zero-config (its module inlined).
  "esbuild (esm), switchboard-protocol/validate": {
    files: { "src/index.js": validateApp("switchboard-protocol/validate"), "dist/index.html": page('<script type="module" src="main.js"></script>') },
    run: [
      join(BIN, "esbuild"),
      ["--bundle", "src/index.js", "--platform=browser", "--format=esm", "--minify", "--outfile=dist/main.js", "--log-level=warning"],
    ],
    page: "dist/index.html",
    expected: VALIDATE_EXPECTED,
  },
  "webpack 5, switchboard-protocol/validate": {
    files: { "src/index.js": validateApp("switchboard-protocol/validate"), "dist/index.html": page('<script src="main.js"></script>') },
    run: [join(BIN, "webpack"), ["--mode", "production", "--no-stats"]],
    page: "dist/index.html",
    expected: VALIDATE_EXPECTED,
  },
  // The load entry: the module as a separate .wasm asset.
  "esbuild (esm, --loader:.wasm=file), switchboard-protocol/validate/load": {
    files: { "src/index.js": assetApp(true), "dist/index.html": page('<script type="module" src="main.js"></script>') },
    run: [
      join(BIN, "esbuild"),
      ["--bundle", "src/index.js", "--platform=browser", "--format=esm", "--minify", "--loader:.wasm=file", "--outdir=dist", "--entry-names=main", "--log-level=warning"],
    ],
    page: "dist/index.html",
    expected: VALIDATE_EXPECTED,
    asset: true,
  },
  "vite, switchboard-protocol/validate/load": {
    files: { "src/index.js": assetApp(false), "index.html": page('<script type="module" src="/src/index.js"></script>') },
    run: [join(BIN, "vite"), ["build", "--logLevel", "warn", "--base", "./"]],
    page: "dist/index.html",
    expected: VALIDATE_EXPECTED,
    asset: true,
  },
  "webpack 5, switchboard-protocol/validate/load": {
    files: { "src/index.js": assetApp(false), "dist/index.html": page('<script src="main.js"></script>') },
    run: [join(BIN, "webpack"), ["--mode", "production", "--no-stats"]],
    page: "dist/index.html",
    expected: VALIDATE_EXPECTED,
    asset: true,
  },
  "<script type=module>, switchboard-protocol/validate/load": {
    files: {
      "app.js": assetApp(false),
      "index.html": page(
        '<script type="importmap">{ "imports": { "switchboard-protocol/validate/load": "../node_modules/switchboard-protocol/validate.load.js" } }</script>\n' +
          '<script type="module" src="app.js"></script>',
      ),
    },
    run: null,
    page: "index.html",
    expected: VALIDATE_EXPECTED,
  },
  // No bundler: the page imports the package by name through an import map.
  "<script type=module> with an import map": {
    files: {
      "app.js": APP,
      "index.html": page(
        '<script type="importmap">{ "imports": { "switchboard-protocol": "../node_modules/switchboard-protocol/index.js" } }</script>\n' +
          '<script type="module" src="app.js"></script>',
      ),
    },
    run: null,
    page: "index.html",
  },
  // No bundler: the page imports the installed package's file from a static server.
  "<script type=module>": {
    files: {
      "app.js": APP.replace('from "switchboard-protocol"', 'from "../node_modules/switchboard-protocol/index.js"'),
      "index.html": page('<script type="module" src="app.js"></script>'),
    },
    run: null,
    page: "index.html",
  },
};

/** Builds one bundler's page in the scratch project (once per package build and app text). */
function build(name, spec) {
  const project = scratchProject();
  const key = createHash("sha256").update(JSON.stringify([name, spec.files, spec.run])).digest("hex").slice(0, 12);
  const dir = join(project, `bundle-${key}`);
  const done = join(dir, ".built");
  if (existsSync(done)) return dir;
  rmSync(dir, { recursive: true, force: true });
  for (const [file, text] of Object.entries(spec.files)) {
    mkdirSync(join(dir, file, ".."), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  if (spec.run) {
    const [cmd, args] = spec.run;
    try {
      execFileSync(cmd, args, { cwd: dir, encoding: "utf8", stdio: "pipe" });
    } catch (err) {
      assert.fail(`${name} failed:\n${err.stdout}${err.stderr}`);
    }
  }
  writeFileSync(done, "");
  return dir;
}

let server;
let browser;

before(async () => {
  server = await startStaticServer(scratchProject());
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

for (const [name, spec] of Object.entries(BUNDLERS)) {
  test(`${name}: the app runs in headless Chromium with no configuration`, async () => {
    const dir = build(name, spec);
    const tab = await openPage(browser);
    const path = `${dir.slice(scratchProject().length)}/${spec.page}`;
    await tab.goto(`${server.url}${path}`);
    try {
      await tab.waitForFunction(() => window.results !== undefined, null, { timeout: 20000 });
    } catch (err) {
      assert.fail(`${name}: the page never ran the app: ${JSON.stringify(tab.errors)} (${err.message})`);
    }
    assert.deepEqual(await tab.evaluate(() => window.results), spec.expected ?? EXPECTED);
    assert.equal((await tab.textContent("body")).trim(), "valid");
    assert.deepEqual(tab.errors, []);
    await tab.close();
  });
}

test("the zero-config bundles carry no separate .wasm file to fetch; the load entry's carry one", () => {
  for (const [name, spec] of Object.entries(BUNDLERS)) {
    if (!spec.run) continue;
    const out = readdirSync(join(build(name, spec), "dist"), { recursive: true });
    assert.equal(out.filter((f) => f.endsWith(".wasm")).length, spec.asset ? 1 : 0, name);
  }
});
