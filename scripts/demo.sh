#!/usr/bin/env bash
# README command 1: builds the console in release mode and serves it on its built-in demo
# at http://127.0.0.1:8080 (PORT=… to change). Runs setup first (fast when done before).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
bash scripts/setup.sh
source scripts/lib.sh
source scripts/wasm-env.sh
claim_target_dir
step "trunk build --release"
trunk build --release
release_target_dir
step "serving dist/"
exec node tests/support/static-server.mjs dist "${PORT:-8080}"
