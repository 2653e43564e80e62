#!/usr/bin/env bash
# validate_slice's speed on valid messages now against an earlier revision: the validate bench
# (`cargo bench -p switchboard-core --bench validate`) built from the tree as it is and from
# REV (a throwaway `git archive` of it; the corpus is built from each tree's own fixtures, so
# pick a REV whose fixtures and bench match), then run alternately (now, REV, now, REV …) so
# this shared machine's slower and faster spells hit both alike. Each run prints
# validate_slice's median throughput on the valid messages and, measured in the same run, its
# ratio to the exact tokenizer floor; the table gives both per run, the now / REV ratio of
# each, and their medians.
# Usage: core/benches/validate-against.sh REV [pairs] [rounds]   (default: 5 pairs of 15 rounds)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
REV="${1:?usage: core/benches/validate-against.sh REV [pairs] [rounds]}"
PAIRS="${2:-5}"
ROUNDS="${3:-15}"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
OUT="$TARGET_DIR/validate-against"
rm -rf "$OUT"
mkdir -p "$OUT/rev-tree"

# Builds the validate bench from the tree at $1 in target directory $3 and copies its binary
# to $2. Each tree has its own target directory: cargo tells a workspace member's sources are
# fresh by their times, so a tree extracted before another tree's build in the same directory
# would get that build's binary.
build() {
    local bin
    bin=$(cd "$1" && CARGO_TARGET_DIR="$3" cargo bench --quiet -p switchboard-core \
        --bench validate --no-run --message-format=json 2>/dev/null |
        grep -o '"executable":"[^"]*validate-[^"]*"' | tail -n 1 | cut -d'"' -f4)
    cp "$bin" "$2"
}

build "$ROOT" "$OUT/now" "$TARGET_DIR"
git -C "$ROOT" archive "$REV" | tar -xf - -C "$OUT/rev-tree"
build "$OUT/rev-tree" "$OUT/rev" "$TARGET_DIR/bench-trees/rev"

# Prints "msgs_per_s ratio_to_exact_floor" for one run of the bench binary $1 from tree $2.
run() {
    (cd "$2/core" && "$1" "$ROUNDS" --bench) >"$OUT/run.txt"
    local rate exact
    rate=$(grep -m1 '^| switchboard validate_slice |' "$OUT/run.txt" | awk -F'|' '{ gsub(/ /, "", $3); print $3 }')
    exact=$(grep -m1 'against the exact tokenizer floor' "$OUT/run.txt" | grep -o '[0-9.]*)$' | tr -d ')')
    echo "$rate $exact"
}

echo "validate_slice on valid messages, now ($(git -C "$ROOT" rev-parse --short HEAD), tree as it is) vs $REV: $PAIRS pairs of runs ($ROUNDS rounds each), alternating; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| pair | now msgs/s | $REV msgs/s | now / $REV | now vs exact floor | $REV vs exact floor | now / $REV (vs floor) |"
echo "|---:|---:|---:|---:|---:|---:|---:|"
for i in $(seq 1 "$PAIRS"); do
    read -r now_rate now_exact <<<"$(run "$OUT/now" "$ROOT")"
    read -r rev_rate rev_exact <<<"$(run "$OUT/rev" "$OUT/rev-tree")"
    awk -v i="$i" -v a="$now_rate" -v b="$rev_rate" -v c="$now_exact" -v d="$rev_exact" \
        'BEGIN { printf "| %d | %d | %d | %.3f | %.2f | %.2f | %.3f |\n", i, a, b, a / b, c, d, c / d }'
done | tee "$OUT/table.md"
echo
median() { sort -n | awk '{ v[NR] = $1 } END { printf "%.3f", v[int((NR + 1) / 2)] }'; }
echo "Median now / $REV: $(cut -d'|' -f5 "$OUT/table.md" | median) (throughput), $(cut -d'|' -f8 "$OUT/table.md" | median) (ratios to the exact tokenizer floor)"
