#!/usr/bin/env bash
# What the secret scan (issue 21) costs `validate_slice` on valid messages: the validate bench
# (`cargo bench -p switchboard-core --bench validate`) built twice, as the tree is ("scan on")
# and from a throwaway copy whose `secrets::holds_secret` answers "no secret" at once ("scan
# off": the floor), then run alternately (on, off, on, off …) so this shared machine's slower
# and faster spells hit both alike. Each run prints validate_slice's median throughput on the
# valid messages and, measured in the same run, its ratio to the exact tokenizer floor; the
# table gives both per run, the scan-on / scan-off ratio of each, and their medians.
# What the scan itself costs; issue 21's goal (validation speed on messages without secrets
# within 5% of the day it was filed) is judged by `core/benches/validate-against.sh 603110c`.
# Usage: core/benches/secret-scan-cost.sh [pairs] [rounds]   (default: 5 pairs of 15 rounds)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
PAIRS="${1:-5}"
ROUNDS="${2:-15}"
# The shared build cache (scripts/lib.sh), claimed while the tree builds in it.
source "$ROOT/scripts/lib.sh"
TARGET_DIR="$CARGO_TARGET_DIR"
OUT="$TARGET_DIR/secret-scan-bench"
rm -rf "$OUT"
mkdir -p "$OUT/off-tree"

source "$ROOT/core/benches/pairs.sh"

claim_target_dir
build "$ROOT" "$OUT/on" "$TARGET_DIR"
release_target_dir
# The throwaway copy: the tracked files as they are now, the scan's entry point answering
# "no secret" first.
git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$OUT/off-tree"
ENTRY="$OUT/off-tree/core/src/protocol/secrets/mod.rs"
# (`return false` first: the rest of the scan is dead code, so nothing of it is left in the
# binary, as when the scan is not there at all.)
perl -0pi -e 's/(pub fn holds_secret\(name: Option<&str>, value: &str\) -> bool \{\n)/#[allow(unreachable_code, unused_variables)]\n$1    return false;\n/' "$ENTRY"
grep -q 'allow(unreachable_code, unused_variables)' "$ENTRY" || {
    echo "could not switch the scan off in $ENTRY" >&2
    exit 1
}
build "$OUT/off-tree" "$OUT/off" "$TARGET_DIR/bench-trees/scan-off"

echo "secret scan on vs off: validate_slice on valid messages, $PAIRS pairs of runs ($ROUNDS rounds each), alternating; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
pairs "$PAIRS" "$OUT/on" "$ROOT" on "$OUT/off" "$OUT/off-tree" off
echo "The scan's own share of the path; issue 21's goal is judged against 603110c by core/benches/validate-against.sh (now / 603110c >= 0.95)"
