// Shared by the package's Node tests: the packed tarball of core/pkg installed into a scratch
// project (once per package build, cached in the temp dir), the native CLI, and the corpus.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
export const PKG = join(ROOT, "core/pkg");
export const FIXTURES = join(ROOT, "core/tests/fixtures/protocol");

/**
 * A scratch project with the packed package installed from its tarball (`npm pack core/pkg`,
 * then `npm install <tarball>`), keyed by the package build so test files share it.
 */
export function scratchProject() {
  const stampFile = join(PKG, ".build-stamp");
  if (!existsSync(stampFile)) throw new Error("core/pkg is not built: run scripts/npm-package.sh");
  const stamp = readFileSync(stampFile, "utf8").trim().slice(0, 16);
  const dir = join(tmpdir(), `switchboard-npm-scratch-${stamp}`);
  if (existsSync(join(dir, "node_modules/switchboard-protocol/package.json"))) return dir;
  const work = mkdtempSync(join(tmpdir(), "switchboard-npm-install-"));
  writeFileSync(join(work, "package.json"), JSON.stringify({ name: "scratch", private: true, version: "0.0.0" }));
  // The tests import the package by name through these, as a user's module would.
  writeFileSync(join(work, "load.mjs"), 'export * from "switchboard-protocol";\n');
  const packed = JSON.parse(execFileSync("npm", ["pack", PKG, "--json", "--pack-destination", work], { encoding: "utf8" }));
  const tarball = join(work, packed[0].filename);
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--offline", tarball], { cwd: work, stdio: "pipe" });
  // Scratch projects of earlier package builds are no longer needed.
  for (const old of readdirSync(tmpdir())) {
    if (old.startsWith("switchboard-npm-scratch-") && join(tmpdir(), old) !== dir) rmSync(join(tmpdir(), old), { recursive: true, force: true });
  }
  try {
    renameSync(work, dir);
  } catch (err) {
    // Another test process installed the same build first.
    rmSync(work, { recursive: true, force: true });
    if (!existsSync(dir)) throw err;
  }
  return dir;
}

/** The installed package, imported by name from a module of the scratch project (ESM). */
export function loadPackage() {
  return import(pathToFileURL(join(scratchProject(), "load.mjs")).href);
}

/** The native `switchboard` CLI: $SWITCHBOARD_BIN, else built with cargo. */
export function cliBinary() {
  if (process.env.SWITCHBOARD_BIN) return process.env.SWITCHBOARD_BIN;
  execFileSync("cargo", ["build", "--quiet", "-p", "switchboard-core", "--bin", "switchboard"], { cwd: ROOT, stdio: "inherit" });
  const meta = JSON.parse(execFileSync("cargo", ["metadata", "--format-version", "1", "--no-deps"], { cwd: ROOT, encoding: "utf8" }));
  return join(meta.target_directory, "debug/switchboard");
}

/** Every fixture file of the corpus (relative paths), except the manifest and the rule cases. */
export function fixtureFiles(dir = FIXTURES, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) fixtureFiles(path, out);
    else if (entry.name.endsWith(".json")) {
      const rel = relative(FIXTURES, path);
      if (rel !== "manifest.json" && rel !== join("invalid", "cases.json")) out.push(rel);
    }
  }
  return out.sort();
}

/** A fresh empty directory under the temp dir. */
export function tempDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** The own fields of a droid task_assignment (what `build` takes), shared by the tests. */
export const TASK_FIELDS = Object.freeze({
  task_id: "bd-42",
  description: "Implement the login form",
  specification: { acceptance_criteria: ["Login form displays"] },
  file_patterns: ["src/auth/**"],
  priority: "high",
  priority_value: 1,
});
