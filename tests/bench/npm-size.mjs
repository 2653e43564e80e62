// Browser bundle sizes of the npm package (switchboard-protocol, core/pkg, installed from its
// packed tarball): a page that imports only `validateJson`, bundled by esbuild with --bundle
// --minify for the browser, from the validation-only entry and from the main entry, each
// zero-config (the module inlined) and with the module as a separate asset (the load entry and
// esbuild's --loader:.wasm=file). A bundle's size is all its files, raw and gzip -9.
//
// Usage: scripts/npm-package.sh && node tests/bench/npm-size.mjs
// Not a test: it prints a table and the goals (validation-only <= 150 KB, main <= 400 KB gzipped).
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { scratchProject } from "../../bindings/wasm/tests/js/support.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const ESBUILD = join(ROOT, "node_modules/.bin/esbuild");

const USE = 'document.body.textContent = JSON.stringify(validateJson(\'{"type": "request_review"}\'));\n';

/** The pages: the entry they import and how. */
const PAGES = [
  { entry: "switchboard-protocol/validate", how: "zero-config", goal: 150_000, source: `import { validateJson } from "switchboard-protocol/validate";\n${USE}` },
  {
    entry: "switchboard-protocol/validate",
    how: "separate .wasm (load)",
    goal: 150_000,
    source: `import { load } from "switchboard-protocol/validate/load";\nimport url from "switchboard-protocol/validate.wasm";\nload(url).then(({ validateJson }) => {\n${USE}});\n`,
  },
  { entry: "switchboard-protocol", how: "zero-config", goal: 400_000, source: `import { validateJson } from "switchboard-protocol";\n${USE}` },
  {
    entry: "switchboard-protocol",
    how: "separate .wasm (load)",
    goal: 400_000,
    source: `import { load } from "switchboard-protocol/load";\nimport url from "switchboard-protocol/switchboard.wasm";\nload(url).then(({ validateJson }) => {\n${USE}});\n`,
  },
];

/** Bundles each page; returns rows of {entry, how, files, raw, gzip, goal}. */
export function bundleSizes() {
  const dir = join(scratchProject(), "bundle-sizes");
  return PAGES.map((p, i) => {
    const work = join(dir, String(i));
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    writeFileSync(join(work, "page.js"), p.source);
    execFileSync(
      ESBUILD,
      ["page.js", "--bundle", "--minify", "--platform=browser", "--format=esm", "--loader:.wasm=file", "--outdir=out", "--log-level=warning"],
      { cwd: work, stdio: "pipe" },
    );
    const files = readdirSync(join(work, "out"));
    let raw = 0;
    let gzip = 0;
    for (const f of files) {
      const bytes = readFileSync(join(work, "out", f));
      raw += bytes.length;
      gzip += gzipSync(bytes, { level: 9 }).length;
    }
    return { ...p, files: files.length, raw, gzip };
  });
}

/** Prints the table and the goals. */
export function printBundleSizes(rows = bundleSizes()) {
  console.log("\nBrowser bundles of a page importing only validateJson (esbuild --bundle --minify, browser, ESM; all files, gzip -9)\n");
  console.log("| entry | module | files | bytes | gzip -9 | goal (gzip) |");
  console.log("|---|---|---:|---:|---:|---|");
  for (const r of rows) {
    const met = r.gzip <= r.goal ? "met" : "missed";
    console.log(`| \`${r.entry}\` | ${r.how} | ${r.files} | ${r.raw.toLocaleString("en")} | ${r.gzip.toLocaleString("en")} | <= ${r.goal.toLocaleString("en")}: ${met} |`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) printBundleSizes();
