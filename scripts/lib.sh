# Shared helpers for the scripts in this folder (sourced, not run).

# Where installed tools and virtual environments live, outside any checkout.
SWITCHBOARD_HOME="${SWITCHBOARD_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/switchboard}"
mkdir -p "$SWITCHBOARD_HOME"
export SWITCHBOARD_HOME
export PATH="$HOME/.cargo/bin:$PATH"
# One cargo build cache for every checkout on this machine, so a fresh clone (as in CI) only
# recompiles the workspace's own crates. Set CARGO_TARGET_DIR to choose another.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$SWITCHBOARD_HOME/target}"
# Cargo judges a workspace crate fresh by comparing file times with its fingerprint, and
# checkouts sharing this cache share those fingerprints (dep-info paths are relative to the
# workspace). So a checkout could reuse another one's newer build of different code. Before
# building, a script claims the cache: one checkout at a time (a lock held until
# release_target_dir or exit), and a checkout taking over from another marks its sources
# newer, so its workspace crates rebuild.
claim_target_dir() {
    # A script run by a script that holds the claim (scripts/test.sh running
    # scripts/npm-package.sh) shares it; claiming again would wait for itself.
    [ "${SWITCHBOARD_TARGET_CLAIMED:-}" = "$CARGO_TARGET_DIR" ] && return
    mkdir -p "$CARGO_TARGET_DIR"
    exec 9>"$CARGO_TARGET_DIR/.switchboard.lock"
    if ! flock -n 9; then
        say "waiting for another checkout's build to finish with $CARGO_TARGET_DIR"
        flock 9
    fi
    local owner="$CARGO_TARGET_DIR/.switchboard-checkout"
    if [ "$(cat "$owner" 2>/dev/null)" != "$ROOT" ]; then
        find "$ROOT/core" "$ROOT/web" "$ROOT/bindings" "$ROOT/.cargo" "$ROOT/Cargo.toml" "$ROOT/Cargo.lock" \
            "$ROOT/index.html" "$ROOT/Trunk.toml" -type f -exec touch {} +
        echo "$ROOT" >"$owner"
    fi
    export SWITCHBOARD_TARGET_CLAIMED="$CARGO_TARGET_DIR"
}
release_target_dir() {
    [ "${SWITCHBOARD_TARGET_CLAIMED:-}" = "$CARGO_TARGET_DIR" ] || return 0
    exec 9>&-
    unset SWITCHBOARD_TARGET_CLAIMED
}
# Agent Mail servers import LiteLLM, which otherwise tries to download a price list at start.
export LITELLM_LOCAL_MODEL_COST_MAP=True

CURRENT_STEP="(start)"
step() { CURRENT_STEP="$1"; printf '==> %s\n' "$1"; }
say() { printf '    %s\n' "$*"; }
ok() { printf '    ok: %s\n' "$*"; }
fail() {
    printf 'error: step "%s" failed: %s\n' "$CURRENT_STEP" "$*" >&2
    exit 1
}

# Runs a command with its output in $SWITCHBOARD_HOME/setup.log; on failure names the step
# and shows the end of the log.
run_logged() {
    local what="$1"
    shift
    say "$what"
    if ! "$@" >>"$SWITCHBOARD_HOME/setup.log" 2>&1; then
        tail -n 25 "$SWITCHBOARD_HOME/setup.log" >&2
        fail "'$what' exited non-zero (full log: $SWITCHBOARD_HOME/setup.log)"
    fi
}

# True when the active rustup toolchain has the standard library's source (the rust-src
# component), from which every wasm32 build compiles std (see scripts/wasm-env.sh).
rustup_has_rust_src() {
    command -v rustc >/dev/null || return 1
    local sysroot
    sysroot="$(rustc --print sysroot 2>/dev/null)" || return 1
    [ -f "$sysroot/lib/rustlib/src/rust/library/std/Cargo.toml" ]
}

# True when Debian's rustc-web, its std source and wasm-ld 22 are installed.
debian_wasm_route_present() {
    [ -x /usr/bin/cargo ] && [ -x /usr/bin/rustc ] && [ -d /usr/lib/rustlib/src/rust/library ] &&
        [ -x /usr/lib/llvm-22/bin/wasm-ld ]
}

# The exact wasm-bindgen version pinned in the workspace Cargo.toml.
wasm_bindgen_version() {
    sed -n 's/^wasm-bindgen = "=\([0-9.]*\)".*/\1/p' "$ROOT/Cargo.toml" | head -n1
}
