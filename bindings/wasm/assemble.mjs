// Writes the npm package directory from the wasm-bindgen output already in it (wasm/):
// the JS layer (ESM, and CommonJS derived from it), the type declarations (.d.ts, and .d.cts
// for require), package.json with the workspace version, the README and both licence texts.
// Run by scripts/npm-package.sh: node bindings/wasm/assemble.mjs <package dir>
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
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

// api.js → api.cjs: its only exports are top-level `export function|class NAME` lines.
const api = js("api.js");
const exported = [...api.matchAll(/^export (?:function|class) (\w+)/gm)].map((m) => m[1]);
if (/^\s*(import|export)\b(?! (function|class) )/m.test(api) || exported.length === 0) {
  throw new Error("api.js must have no imports and only `export function|class` exports");
}
const apiCjs = `"use strict";\n${api.replace(/^export (function|class) /gm, "$1 ")}\nmodule.exports = { ${exported.join(", ")} };\n`;

const files = {
  "api.js": api,
  "api.cjs": apiCjs,
  "index.js": js("index.js"),
  "node.mjs": js("node.mjs"),
  "node.cjs": js("node.cjs"),
  "index.d.ts": js("index.d.ts"),
  "types.d.ts": js("types.d.ts"),
  // For require(): the same declarations as CommonJS modules.
  "index.d.cts": js("index.d.ts").replaceAll('"./types.js"', '"./types.cjs"'),
  "types.d.cts": js("types.d.ts"),
};
for (const [name, text] of Object.entries(files)) writeFileSync(join(pkg, name), text);
copyFileSync(join(here, "README.md"), join(pkg, "README.md"));
copyFileSync(join(root, "LICENSE-MIT"), join(pkg, "LICENSE-MIT"));
copyFileSync(join(root, "LICENSE-APACHE"), join(pkg, "LICENSE-APACHE"));

const manifest = {
  name: "switchboard-protocol",
  version,
  description:
    "Validate MCP Agent Mail coordination messages (Pair, Agent-PO, droid, Pair Claude) with the Switchboard protocol core compiled to WebAssembly: JSON Pointer paths, stable codes, Standard Schema, JSON Schema, the pane normalizer",
  license: "MIT OR Apache-2.0",
  keywords: ["agent-mail", "mcp", "validation", "standard-schema", "json-schema", "wasm", "agents"],
  type: "module",
  main: "./node.cjs",
  module: "./index.js",
  types: "./index.d.ts",
  exports: {
    ".": {
      node: {
        import: { types: "./index.d.ts", default: "./node.mjs" },
        require: { types: "./index.d.cts", default: "./node.cjs" },
      },
      browser: { types: "./index.d.ts", default: "./index.js" },
      import: { types: "./index.d.ts", default: "./index.js" },
      require: { types: "./index.d.cts", default: "./node.cjs" },
      default: { types: "./index.d.ts", default: "./index.js" },
    },
    "./package.json": "./package.json",
  },
  files: [
    "index.js",
    "node.mjs",
    "node.cjs",
    "api.js",
    "api.cjs",
    "index.d.ts",
    "index.d.cts",
    "types.d.ts",
    "types.d.cts",
    "wasm/switchboard_wasm.js",
    "wasm/switchboard_wasm.cjs",
    "wasm/switchboard_wasm_bg.wasm",
    "LICENSE-MIT",
    "LICENSE-APACHE",
  ],
  sideEffects: ["./index.js", "./node.mjs", "./node.cjs"],
  engines: { node: ">=20" },
};
writeFileSync(join(pkg, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
console.log(`    wrote ${pkg} (switchboard-protocol ${version})`);
