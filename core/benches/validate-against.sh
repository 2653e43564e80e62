#!/usr/bin/env bash
# validate_slice's speed on valid messages now against an earlier revision: the validate bench
# (`cargo bench -p switchboard-core --bench validate`) built from the tree as it is and from
# REV (a throwaway `git archive` of it; the corpus is built from each tree's own fixtures, so
# pick a REV whose fixtures and bench match), then run alternately (now, REV, now, REV …) so
# this shared machine's slower and faster spells hit both alike. Each run prints
# validate_slice's median throughput on the valid messages and, measured in the same run, its
# ratio to the exact tokenizer floor; the table gives both per run, the now / REV ratio of
# each, and their medians.
# Issue 21's goal, with REV 603110c (main the day it was filed): now / REV >= 0.95.
# Usage: core/benches/validate-against.sh REV [pairs] [rounds]   (default: 5 pairs of 15 rounds)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
REV="${1:?usage: core/benches/validate-against.sh REV [pairs] [rounds]}"
PAIRS="${2:-5}"
ROUNDS="${3:-15}"
# The shared build cache (scripts/lib.sh), claimed while the tree builds in it.
source "$ROOT/scripts/lib.sh"
TARGET_DIR="$CARGO_TARGET_DIR"
OUT="$TARGET_DIR/validate-against"
rm -rf "$OUT"
mkdir -p "$OUT/rev-tree"

source "$ROOT/core/benches/pairs.sh"

claim_target_dir
build "$ROOT" "$OUT/now" "$TARGET_DIR"
release_target_dir
git -C "$ROOT" archive "$REV" | tar -xf - -C "$OUT/rev-tree"
build "$OUT/rev-tree" "$OUT/rev" "$TARGET_DIR/bench-trees/rev"

echo "validate_slice on valid messages, now ($(git -C "$ROOT" rev-parse --short HEAD), tree as it is) vs $REV: $PAIRS pairs of runs ($ROUNDS rounds each), alternating; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
pairs "$PAIRS" "$OUT/now" "$ROOT" now "$OUT/rev" "$OUT/rev-tree" "$REV"
echo "Issue 21's goal, with REV 603110c (main the day it was filed): now / REV >= 0.95"
