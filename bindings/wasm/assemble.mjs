// Writes the npm package directory from the wasm-bindgen output already in it (wasm/): the
// entries (generated here), the JS layer (ESM, and CommonJS derived from it), the type
// declarations (.d.ts, and .d.cts for require), package.json with the workspace version, the
// README and both licence texts. Run by scripts/npm-package.sh: node bindings/wasm/assemble.mjs <package dir>
//
// Two modules, one crate (bindings/wasm, two cargo feature sets): `switchboard_wasm` (the whole
// core, the main entry `switchboard-protocol`, with the guard of js/guard.js) and
// `switchboard_validate` (validation, schema objects and `readMail`: `switchboard-protocol/validate`). The surface of each is
// one list: the names its declarations declare (`export declare function|const|class NAME` in
// js/validate.d.ts, and for the main entry also js/index.d.ts). The entries' export lists are
// generated from it, and the build fails unless `createApi` (js/api.js) and `createGuard`
// (js/guard.js) give exactly the declared functions and constants.
//
// How a module loads, per entry (package.json "exports"):
// - Node (`import`: node.mjs, `require`: node.cjs; validate.node.*) reads the .wasm file from disk
//   and compiles it synchronously. The main module is built for size (a browser bundle holds it
//   whole); in Node, where size matters little, the main entry also loads the validation module,
//   built for speed, and takes every export that module has from it (the same core functions).
// - Everything else (browsers, bundlers, the `module` field): index.js (validate.js), whose module
//   is inlined, deflated and in base64 (wasm/<module>.inline.js), and inflated (js/inflate.js) and
//   compiled synchronously. No top-level await and no asset URL, so esbuild, Vite, webpack and a
//   plain <script type="module"> need no configuration, and a bundler that wraps the package in a
//   CommonJS function (esbuild's IIFE, a project without "type": "module") still works. Base64 of
//   the module itself would gzip a third larger than the module; of the deflated module, to about
//   the deflated size.
// - `switchboard-protocol/load` (`/validate/load`): `await load(source?)` compiles the .wasm as a
//   separate asset: by default the file beside the entry (`new URL(…, import.meta.url)`, which
//   Vite and webpack 5 emit as an asset), or the URL a bundler's loader gave (esbuild
//   `--loader:.wasm=file` on `switchboard-protocol/validate.wasm`), bytes or a compiled module.
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { deflateAsync } from "@gfx/zopfli";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const root = join(here, "../..");
const [pkg] = process.argv.slice(2);
if (!pkg) throw new Error("usage: node assemble.mjs <package dir>");

const js = (name) => readFileSync(join(here, "js", name), "utf8");

// The version of the Cargo workspace ([workspace.package] version).
const cargo = readFileSync(join(root, "Cargo.toml"), "utf8");
const version = /\[workspace\.package\][^[]*?^version\s*=\s*"([^"]+)"/m.exec(cargo)?.[1];
if (!version) throw new Error("no [workspace.package] version in Cargo.toml");

// ---- the JS layer: api.js and guard.js, and their CommonJS builds ----
/** A module's `export function|class` names; it must have no imports and no other exports. */
function exportsOf(name, text) {
  const names = [...text.matchAll(/^export (?:function|class) (\w+)/gm)].map((m) => m[1]);
  if (/^\s*(import|export)\b(?! (function|class) )/m.test(text) || names.length === 0) {
    throw new Error(`${name} must have no imports and only \`export function|class\` exports`);
  }
  return names;
}
const layer = {};
for (const name of ["api", "guard"]) {
  const text = js(`${name}.js`);
  const names = exportsOf(`${name}.js`, text);
  const cjs = `"use strict";\n${text.replace(/^export (function|class) /gm, "$1 ")}\nmodule.exports = { ${names.join(", ")} };\n`;
  layer[name] = { text, cjs, names };
}

// ---- the surfaces: what the declarations declare ----
const validateDts = js("validate.d.ts");
const indexDts = js("index.d.ts");
const declared = (dts, kind) => [...new Set([...dts.matchAll(new RegExp(`^export declare ${kind} (\\w+)`, "gm"))].map((m) => m[1]))];
const surface = (texts) => ({
  values: [...new Set(texts.flatMap((t) => [...declared(t, "function"), ...declared(t, "const")]))],
  classes: [...new Set(texts.flatMap((t) => declared(t, "class")))],
});

/** Where each class comes from. */
const classHome = (name) => {
  const home = Object.keys(layer).find((m) => layer[m].names.includes(name));
  if (!home) throw new Error(`a declaration declares class ${name}; neither api.js nor guard.js exports it`);
  return home;
};

// ---- the wasm-bindgen `web` glue, reduced to its synchronous initialisation ----
// Its async `init` would make bundlers emit the .wasm as an asset (`new URL(…, import.meta.url)`)
// and fetch it; every entry here uses `initSync` instead (the `load` entries compile first).
function reduceGlue(module) {
  const path = join(pkg, `wasm/${module}.js`);
  const glue = readFileSync(path, "utf8")
    .replace(/^async function __wbg_load\([\s\S]*?^}\n\n(?=function initSync)/m, "")
    .replace(/^let __wbg_init_promise;[\s\S]*?(?=^export \{)/m, "")
    .replace(/^export \{ initSync, __wbg_init as default \};$/m, "export { initSync };");
  if (/import\.meta|fetch\(|__wbg_init\b/.test(glue) || !glue.includes("export { initSync };")) {
    throw new Error("the wasm-bindgen web glue changed shape: update the reduction in assemble.mjs");
  }
  return glue;
}

const HEADER = "// Generated by bindings/wasm/assemble.mjs from the package's declarations.\n";

/** The entries of one module: `entry` is the main file's name without `.js` ("index", "validate"). */
async function entries({ entry, module, full, dts, node, fast }) {
  const { values, classes } = surface(dts);
  const wasmFile = `${module}_bg.wasm`;
  const wasmBytes = readFileSync(join(pkg, "wasm", wasmFile));
  // Chromium refuses to compile a larger module synchronously on the main thread.
  if (wasmBytes.length > 8 * 1024 * 1024) throw new Error(`${wasmFile} exceeds 8 MiB: ${entry}.js cannot compile it synchronously`);
  // Deflated by Zopfli: the same format as zlib's, about 5% smaller (18 KB gzipped off the main
  // entry's bundle; docs/benchmarks.md, "npm package"), for a few seconds of build time.
  const deflated = await deflateAsync(wasmBytes, { numiterations: 5 });
  const byHome = (home) => classes.filter((c) => classHome(c) === home);
  // The guard (guard.js) is in the main entry only: its error replies need the builders.
  const imports = (ext) =>
    `import { createApi${byHome("api").map((c) => `, ${c}`).join("")} } from "./api.${ext}";\n` +
    (full ? `import { createGuard${byHome("guard").map((c) => `, ${c}`).join("")} } from "./guard.${ext}";\n` : "");
  const apiOf = full
    ? "function apiOf(glue) {\n  const api = createApi(glue, { full: true });\n  return { ...api, guard: createGuard(api) };\n}\n"
    : "function apiOf(glue) {\n  return createApi(glue, { full: false });\n}\n";
  const exportLines = `const api = apiOf(glue);\nexport const {\n${values.map((n) => `  ${n},\n`).join("")}} = api;\nexport { ${classes.join(", ")} };\n`;
  const files = {
    [`wasm/${module}.js`]: reduceGlue(module),
    [`wasm/${module}.inline.js`]:
      "// The wasm module, deflated and base64 (generated by bindings/wasm/assemble.mjs).\n" +
      `export const size = ${wasmBytes.length};\nexport const data = "${Buffer.from(deflated).toString("base64")}";\n`,
    [`${entry}.js`]:
      `${HEADER}// Entry for browsers, bundlers and every runtime but Node: the module is inlined (deflated,\n` +
      "// wasm/*.inline.js) and compiled synchronously, so importing needs no top-level await, fetch or asset.\n" +
      `import * as glue from "./wasm/${module}.js";\nimport { data, size } from "./wasm/${module}.inline.js";\nimport { inflate } from "./inflate.js";\n${imports("js")}\n` +
      "function bytes(base64) {\n  const text = atob(base64);\n  const out = new Uint8Array(text.length);\n" +
      "  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);\n  return out;\n}\n\n" +
      `${apiOf}\nglue.initSync({ module: inflate(bytes(data), size) });\n\n${exportLines}`,
    [`${node}.mjs`]:
      `${HEADER}// Entry for Node's \`import\`: the web glue, initialised synchronously from the .wasm file beside it.\n` +
      (fast ? `// Validation is served by the validation module (${fast}, built for speed).\n` : "") +
      `import { readFileSync } from "node:fs";\nimport * as main from "./wasm/${module}.js";\n` +
      (fast ? `import * as fast from "./wasm/${fast}.js";\n` : "") +
      `${imports("js")}\n${apiOf}\n` +
      `main.initSync({ module: readFileSync(new URL("./wasm/${wasmFile}", import.meta.url)) });\n` +
      (fast ? `fast.initSync({ module: readFileSync(new URL("./wasm/${fast}_bg.wasm", import.meta.url)) });\n` : "") +
      `const glue = ${fast ? "{ ...main, ...fast }" : "main"};\n\n${exportLines}`,
    [`${node}.cjs`]:
      `${HEADER}// Entry for Node's \`require\`: the wasm-bindgen \`nodejs\` glue (CommonJS), which loads the same\n` +
      "// .wasm file synchronously, and the CommonJS build of the API layer.\n" +
      (fast ? `// Validation is served by the validation module (${fast}, built for speed).\n` : "") +
      `"use strict";\nconst glue = ${fast ? `{ ...require("./wasm/${module}.cjs"), ...require("./wasm/${fast}.cjs") }` : `require("./wasm/${module}.cjs")`};\n` +
      `const { createApi${byHome("api").map((c) => `, ${c}`).join("")} } = require("./api.cjs");\n` +
      (full ? `const { createGuard${byHome("guard").map((c) => `, ${c}`).join("")} } = require("./guard.cjs");\n` : "") +
      "\n" +
      `${apiOf}\nmodule.exports = { ...apiOf(glue), ${classes.join(", ")} };\n`,
    [`${entry}.load.js`]:
      `${HEADER}// Entry that loads the module as a separate .wasm asset: \`await load(source)\` gives the API.\n` +
      `import * as glue from "./wasm/${module}.js";\n${imports("js")}\nexport { ${classes.join(", ")} };\n\n${apiOf}\n` +
      "/** A compiled module from a URL, a fetch response (or its promise), bytes or a module. */\n" +
      "async function compile(source) {\n" +
      "  if (source instanceof WebAssembly.Module) return source;\n" +
      '  if (typeof source === "string" || source instanceof URL) source = fetch(source);\n' +
      "  const response = await source;\n" +
      '  if (typeof Response !== "function" || !(response instanceof Response)) return WebAssembly.compile(response);\n' +
      "  if (!response.ok) throw new Error(`load: the wasm module could not be fetched: HTTP ${response.status} ${response.url}`);\n" +
      '  if (response.headers.get("content-type")?.startsWith("application/wasm")) return WebAssembly.compileStreaming(response);\n' +
      "  return WebAssembly.compile(await response.arrayBuffer());\n}\n\n" +
      "let loaded;\n\n" +
      `export function load(source = new URL("./wasm/${wasmFile}", import.meta.url)) {\n` +
      "  loaded ??= compile(source).then((module) => {\n    glue.initSync({ module });\n    return apiOf(glue);\n  });\n" +
      "  loaded.catch(() => (loaded = undefined));\n  return loaded;\n}\n",
    [`${entry}.load.d.ts`]: loadDts(entry, classes),
  };
  return { files, values, classes, module, full, entry, node };
}

/** The declarations of a `load` entry. */
function loadDts(entry, classes) {
  return `${HEADER}import type * as api from "./${entry}.js";

export { ${classes.join(", ")} } from "./${entry}.js";

/** The API of \`./${entry}.js\`: its functions and constants. */
export type Api = Omit<typeof api, ${classes.map((c) => `"${c}"`).join(" | ")}>;

/**
 * Compiles the WebAssembly module as a separate asset and resolves to the API. Called again, it
 * resolves to the same API.
 *
 * @param source - Where the module is: by default the .wasm file beside this entry
 *   (\`new URL(…, import.meta.url)\`, which Vite and webpack 5 emit as an asset); or the URL a
 *   bundler gave for \`switchboard-protocol/${entry === "index" ? "switchboard" : entry}.wasm\` (esbuild:
 *   \`--loader:.wasm=file\`), a fetch \`Response\` (or its promise), the bytes, or a compiled module.
 * @throws Error when the module cannot be fetched or compiled (the next call tries again).
 */
export declare function load(
  source?: string | URL | Response | PromiseLike<Response> | ArrayBuffer | ArrayBufferView | WebAssembly.Module,
): Promise<Api>;
`;
}

const modules = await Promise.all([
  // In Node the main entry's validation exports come from the validation module (`fast`).
  entries({ entry: "index", module: "switchboard_wasm", full: true, dts: [validateDts, indexDts], node: "node", fast: "switchboard_validate" }),
  entries({ entry: "validate", module: "switchboard_validate", full: false, dts: [validateDts], node: "validate.node" }),
]);

const files = {
  "api.js": layer.api.text,
  "api.cjs": layer.api.cjs,
  "guard.js": layer.guard.text,
  "guard.cjs": layer.guard.cjs,
  "inflate.js": js("inflate.js"),
  "index.d.ts": indexDts,
  "validate.d.ts": validateDts,
  "types.d.ts": js("types.d.ts"),
  // For require(): the same declarations as CommonJS modules.
  "index.d.cts": indexDts.replaceAll('"./types.js"', '"./types.cjs"').replaceAll('"./validate.js"', '"./validate.cjs"'),
  "validate.d.cts": validateDts.replaceAll('"./types.js"', '"./types.cjs"'),
  "types.d.cts": js("types.d.ts"),
};
for (const m of modules) Object.assign(files, m.files);
for (const [name, text] of Object.entries(files)) writeFileSync(join(pkg, name), text);

// The check: each module's API is exactly its declared functions and constants.
const require = createRequire(import.meta.url);
const { createApi } = require(join(pkg, "api.cjs"));
const { createGuard } = require(join(pkg, "guard.cjs"));
for (const m of modules) {
  const api = createApi(require(join(pkg, `wasm/${m.module}.cjs`)), { full: m.full });
  const returned = [...Object.keys(api), ...(m.full ? Object.keys({ guard: createGuard(api) }) : [])];
  const missing = m.values.filter((n) => !returned.includes(n));
  const undeclared = returned.filter((n) => !m.values.includes(n));
  if (missing.length || undeclared.length) {
    throw new Error(`${m.module}: the API and its declarations disagree: declared but not returned [${missing}], returned but not declared [${undeclared}]`);
  }
}

copyFileSync(join(here, "README.md"), join(pkg, "README.md"));
copyFileSync(join(root, "LICENSE-MIT"), join(pkg, "LICENSE-MIT"));
copyFileSync(join(root, "LICENSE-APACHE"), join(pkg, "LICENSE-APACHE"));

/** The conditional exports of a synchronous entry. */
const conditions = (entry, node) => ({
  node: {
    import: { types: `./${entry}.d.ts`, default: `./${node}.mjs` },
    require: { types: `./${entry}.d.cts`, default: `./${node}.cjs` },
  },
  import: { types: `./${entry}.d.ts`, default: `./${entry}.js` },
  require: { types: `./${entry}.d.cts`, default: `./${entry}.js` },
  default: { types: `./${entry}.d.ts`, default: `./${entry}.js` },
});

const REPOSITORY = "https://github.com/switchboard-protocol/switchboard";
const manifest = {
  name: "switchboard-protocol",
  version,
  description:
    "Validate, build and answer MCP Agent Mail coordination messages (Pair, Agent-PO, droid, Pair Claude) with the Switchboard protocol core compiled to WebAssembly: JSON Pointer paths, stable codes, Standard Schema, JSON Schema, a guard for MCP clients, sessions, the pane normalizer",
  license: "MIT OR Apache-2.0",
  keywords: ["agent-mail", "mcp", "validation", "standard-schema", "json-schema", "wasm", "agents"],
  repository: { type: "git", url: `git+${REPOSITORY}.git`, directory: "bindings/wasm" },
  homepage: `${REPOSITORY}/tree/main/bindings/wasm#readme`,
  bugs: { url: `${REPOSITORY}/issues` },
  type: "module",
  main: "./node.cjs",
  // Bundlers that read `module` get the browser entry: no top-level await, nothing to fetch.
  module: "./index.js",
  types: "./index.d.ts",
  exports: {
    ".": conditions("index", "node"),
    "./validate": conditions("validate", "validate.node"),
    "./load": { types: "./index.load.d.ts", default: "./index.load.js" },
    "./validate/load": { types: "./validate.load.d.ts", default: "./validate.load.js" },
    "./switchboard.wasm": "./wasm/switchboard_wasm_bg.wasm",
    "./validate.wasm": "./wasm/switchboard_validate_bg.wasm",
    "./package.json": "./package.json",
  },
  files: [...Object.keys(files).filter((f) => !f.startsWith("wasm/")), "wasm/", "LICENSE-MIT", "LICENSE-APACHE"].sort(),
  // The synchronous entries initialise their module on import.
  sideEffects: modules.flatMap((m) => [`./${m.entry}.js`, `./${m.node}.mjs`, `./${m.node}.cjs`]),
  engines: { node: ">=20" },
};
writeFileSync(join(pkg, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
console.log(`    wrote ${pkg} (switchboard-protocol ${version})`);
