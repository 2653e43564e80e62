#!/usr/bin/env bash
# What the secret scan (issue 21) costs `validate_slice` on valid messages: the validate bench
# (`cargo bench -p switchboard-core --bench validate`) built twice, as the tree is ("scan on")
# and from a throwaway copy whose `secrets::holds_secret` answers "no secret" at once ("scan
# off": the floor), then run alternately (on, off, on, off …) so this shared machine's slower
# and faster spells hit both alike. Each run prints validate_slice's median throughput on the
# valid messages and, measured in the same run, its ratio to the exact tokenizer floor; the
# table gives both per run, the scan-on / scan-off ratio of each, and their medians.
# Goal (issue 21): scan on >= 0.95 of scan off.
# Usage: core/benches/secret-scan-cost.sh [pairs] [rounds]   (default: 5 pairs of 15 rounds)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
PAIRS="${1:-5}"
ROUNDS="${2:-15}"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
OUT="$TARGET_DIR/secret-scan-bench"
rm -rf "$OUT"
mkdir -p "$OUT/off-tree"

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

build "$ROOT" "$OUT/on" "$TARGET_DIR"
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

# Prints "msgs_per_s ratio_to_exact_floor" for one run of a bench binary.
run() {
    (cd "$ROOT/core" && "$1" "$ROUNDS" --bench) >"$OUT/run.txt"
    local rate exact
    rate=$(grep -m1 '^| switchboard validate_slice |' "$OUT/run.txt" | awk -F'|' '{ gsub(/ /, "", $3); print $3 }')
    exact=$(grep -m1 'against the exact tokenizer floor' "$OUT/run.txt" | grep -o '[0-9.]*)$' | tr -d ')')
    echo "$rate $exact"
}

echo "secret scan on vs off: validate_slice on valid messages, $PAIRS pairs of runs ($ROUNDS rounds each), alternating; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| pair | on msgs/s | off msgs/s | on / off | on vs exact floor | off vs exact floor | on / off (vs floor) |"
echo "|---:|---:|---:|---:|---:|---:|---:|"
for i in $(seq 1 "$PAIRS"); do
    read -r on_rate on_exact <<<"$(run "$OUT/on")"
    read -r off_rate off_exact <<<"$(run "$OUT/off")"
    awk -v i="$i" -v a="$on_rate" -v b="$off_rate" -v c="$on_exact" -v d="$off_exact" \
        'BEGIN { printf "| %d | %d | %d | %.3f | %.2f | %.2f | %.3f |\n", i, a, b, a / b, c, d, c / d }'
done | tee "$OUT/table.md"
echo
median() { sort -n | awk '{ v[NR] = $1 } END { printf "%.3f", v[int((NR + 1) / 2)] }'; }
echo "Median on / off: $(cut -d'|' -f5 "$OUT/table.md" | median) (throughput), $(cut -d'|' -f8 "$OUT/table.md" | median) (ratios to the exact tokenizer floor); goal >= 0.95"
