# Sourced before any wasm32 build: selects the route that setup.sh found.
# - rustup: the active toolchain has the wasm32 target; nothing to change.
# - debian: Debian's rustc-web 1.96 builds std from source (-Zbuild-std), linked by wasm-ld 22.
#   Only wasm builds get these variables, so native builds keep using the rustup toolchain.
_route="$(cat "${SWITCHBOARD_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/switchboard}/wasm-route" 2>/dev/null || echo rustup)"
if [ "$_route" = debian ]; then
    export PATH="/usr/bin:$PATH"
    export RUSTC_BOOTSTRAP=1
    export CARGO_UNSTABLE_BUILD_STD=std,panic_abort
    export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=/usr/lib/llvm-22/bin/wasm-ld
fi
# binaryen's wasm-opt from node_modules (npm package binaryen, pinned in package.json) first.
export PATH="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/node_modules/.bin:$PATH"
# wasm-bindgen-test runs tests under Node, or in headless Chromium for crates that ask for it.
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
unset _route
