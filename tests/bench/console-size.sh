#!/usr/bin/env bash
# Size of the release console: builds it as scripts/demo.sh does (`trunk build --release`,
# cached when nothing changed) and prints each file of dist/ raw and gzipped (`gzip -9`),
# with the main module's ratio to the 400 KB goal (400,000 bytes gzipped). The engine worker
# (switchboard-engine_bg.wasm) is a second module, loaded when a view first needs it.
# Usage: tests/bench/console-size.sh
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
source scripts/lib.sh
claim_target_dir
(
    source scripts/wasm-env.sh
    trunk build --release --quiet
)
release_target_dir
GOAL=400000
echo "route: $(cat "$SWITCHBOARD_HOME/wasm-route" 2>/dev/null || echo unknown) ($(
    [ "$(cat "$SWITCHBOARD_HOME/wasm-route" 2>/dev/null)" = debian ] && /usr/bin/rustc --version || rustc --version
))"
echo "| file | bytes | gzip -9 bytes | gzip / goal |"
echo "|---|---:|---:|---:|"
# Every file, the wasm-bindgen snippets (dist/snippets/…: the reviewer's key) too.
find dist -type f | sort | while read -r file; do
    raw=$(stat -c %s "$file")
    gz=$(gzip -9c "$file" | wc -c)
    ratio="-"
    case "$file" in
    */switchboard-web-*.wasm) ratio=$(awk -v g="$gz" -v goal="$GOAL" 'BEGIN { printf "%.3f", g / goal }') ;;
    */switchboard-engine_bg.wasm) ratio="(worker)" ;;
    esac
    echo "| $(basename "$file") | $raw | $gz | $ratio |"
done
