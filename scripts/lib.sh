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

# How the npm package's modules are built: by scripts/npm-package.sh, and by
# tests/bench/npm-floor.sh, whose module must be the package's validation module plus the
# benchmark exports. Each function runs in the subshell that sourced scripts/wasm-env.sh.
#
# WebAssembly SIMD (Node 16.4+, every browser since 2023): the UTF-8 check, memchr and the
# tokenizer's and secret scan's vector paths (docs/benchmarks.md, "npm package").
# A panic traps at once (`-Cpanic=immediate-abort`): the package installs no panic hook, so
# a panic's message was never shown, and its formatting weighed about 9 KB gzipped in the
# main module (docs/benchmarks.md, "npm package").
npm_module_rustflags() {
    export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="$CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS -C target-feature=+simd128 -Zunstable-options -Cpanic=immediate-abort"
}
# The validation module, into $CARGO_TARGET_DIR/wasm32-unknown-unknown/release: opt-level 3
# (release) with the core's hot functions inlined (feature `speed`), not size-first: it runs
# about twice as fast, and serves the validation of both entries in Node (docs/benchmarks.md,
# "npm package"). `$1`: more features (the floor's `bench`).
build_validation_module() {
    cargo build --quiet -p switchboard-wasm --lib --target wasm32-unknown-unknown --release --no-default-features --features "speed${1:+,$1}"
}
# wasm-opt's level for the validation module, built for speed: -O3 (4-8% faster on valid
# messages than -Oz, 0.2 KB gzipped larger; docs/benchmarks.md, "npm package").
VALIDATION_WASM_OPT=(-O3)
# wasm-opt over the module `$1` into `$2` at the level given after them, then the passes every
# module of the package takes. --low-memory-unused: constant offsets fold into loads and stores
# (3 KB gzipped off the main module), which assumes no address below 1024 is used: those are
# the far end of Rust's 1 MiB stack (it comes first in memory), reached only by an overflow.
# The producers and target-features sections are read by no runtime (0.2 KB).
npm_wasm_opt() {
    local from="$1" to="$2"
    shift 2
    "$ROOT/node_modules/.bin/wasm-opt" "$@" --low-memory-unused --strip-producers --strip-target-features "$from" -o "$to"
}
