// Validates protocol messages with the project's own CLI (`switchboard validate`), built by
// scripts/test.sh before the end-to-end tests (`cargo build --bin switchboard`).
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

const TARGET =
  process.env.CARGO_TARGET_DIR ??
  join(process.env.SWITCHBOARD_HOME ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "switchboard"), "target");

/** The CLI binary, if built. */
export const SWITCHBOARD_BIN = process.env.SWITCHBOARD_BIN ?? join(TARGET, "debug", "switchboard");

/** Whether the CLI is there. */
export const haveCli = () => existsSync(SWITCHBOARD_BIN);

/**
 * `switchboard validate -` over `value` (an Agent Mail row `{subject, body_md}` or a bare
 * message); resolves to the report `{valid, family, message_type, issues}`.
 */
export function validate(value) {
  try {
    return JSON.parse(execFileSync(SWITCHBOARD_BIN, ["validate", "-"], { input: JSON.stringify(value) }).toString());
  } catch (err) {
    // Exit 1 (invalid) still prints the report.
    if (err.status === 1 && err.stdout?.length) return JSON.parse(err.stdout.toString());
    throw err;
  }
}
