# Sourced before any wasm32 build. Every route compiles the standard library from source
# with the build's own profile and std's `optimize_for_size` feature: the release console is
# about 20 KB smaller gzipped than with a prebuilt std (docs/console.md, "Size"). Cargo takes
# these -Z settings from the environment, with RUSTC_BOOTSTRAP=1 on a stable compiler.
# Only wasm builds source this (in a subshell), so native builds stay as they are.
export RUSTC_BOOTSTRAP=1
export CARGO_UNSTABLE_BUILD_STD=std,panic_abort
export CARGO_UNSTABLE_BUILD_STD_FEATURES=optimize_for_size
# Panics keep their messages but not their file:line:column (`-Zlocation-detail=none`): the
# paths of every crate's source files and the code passing them weigh several KB gzipped in
# the console (docs/console.md, "Size"). The `--cfg` repeats .cargo/config.toml's, which this
# variable would otherwise replace.
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="--cfg erase_components -Zlocation-detail=none"
# The route setup.sh chose:
# - rustup: the active toolchain with rust-src; it links with its own rust-lld.
# - debian: Debian's rustc-web 1.96 (std source in rust-web-src), linked by wasm-ld 22.
_route="$(cat "${SWITCHBOARD_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/switchboard}/wasm-route" 2>/dev/null || echo rustup)"
if [ "$_route" = debian ]; then
    export PATH="/usr/bin:$PATH"
    export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=/usr/lib/llvm-22/bin/wasm-ld
fi
# binaryen's wasm-opt from node_modules (npm package binaryen, pinned in package.json) first.
export PATH="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/node_modules/.bin:$PATH"
# wasm-bindgen-test runs tests under Node, or in headless Chromium for crates that ask for it.
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
unset _route
