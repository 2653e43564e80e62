# Sourced by the scripts that time the validate bench built from two trees (secret-scan-cost.sh,
# validate-against.sh): building a tree's bench, and running two builds alternately so this
# shared machine's slower and faster spells hit both alike. Expects ROUNDS, TARGET_DIR and OUT.

# Builds the validate bench from the tree at $1 in target directory $3 and copies its binary
# to $2. The other tree builds in a target directory of its own: cargo tells a workspace
# member's sources are fresh by the times of the sources its last build read, so a tree built
# where another tree's build ran could get that build's binary (scripts/lib.sh).
build() {
    local bin
    bin=$(cd "$1" && CARGO_TARGET_DIR="$3" cargo bench --quiet -p switchboard-core \
        --bench validate --no-run --message-format=json 2>/dev/null |
        grep -o '"executable":"[^"]*validate-[^"]*"' | tail -n 1 | cut -d'"' -f4)
    cp "$bin" "$2"
}

# Prints "msgs_per_s ratio_to_exact_floor" for one run of the bench binary $1 (built from the
# tree at $2, whose fixtures it reads).
run() {
    (cd "$2/core" && "$1" "$ROUNDS" --bench) >"$OUT/run.txt"
    local rate exact
    rate=$(grep -m1 '^| switchboard validate_slice |' "$OUT/run.txt" | awk -F'|' '{ gsub(/ /, "", $3); print $3 }')
    exact=$(grep -m1 'against the exact tokenizer floor' "$OUT/run.txt" | grep -o '[0-9.]*)$' | tr -d ')')
    echo "$rate $exact"
}

# Runs build A (binary $2, tree $3) and build B (binary $5, tree $6) alternately, $1 pairs,
# named $4 and $7; prints the table of validate_slice's throughput on the valid messages and
# its ratio to the exact tokenizer floor per run, A / B per pair, and the medians.
pairs() {
    local n="$1" a_bin="$2" a_tree="$3" a="$4" b_bin="$5" b_tree="$6" b="$7"
    echo "| pair | $a msgs/s | $b msgs/s | $a / $b | $a vs exact floor | $b vs exact floor | $a / $b (vs floor) |"
    echo "|---:|---:|---:|---:|---:|---:|---:|"
    for i in $(seq 1 "$n"); do
        read -r a_rate a_exact <<<"$(run "$a_bin" "$a_tree")"
        read -r b_rate b_exact <<<"$(run "$b_bin" "$b_tree")"
        awk -v i="$i" -v a="$a_rate" -v b="$b_rate" -v c="$a_exact" -v d="$b_exact" \
            'BEGIN { printf "| %d | %d | %d | %.3f | %.2f | %.2f | %.3f |\n", i, a, b, a / b, c, d, c / d }'
    done | tee "$OUT/table.md"
    echo
    median() { sort -n | awk '{ v[NR] = $1 } END { printf "%.3f", v[int((NR + 1) / 2)] }'; }
    echo "Median $a / $b: $(cut -d'|' -f5 "$OUT/table.md" | median) (throughput), $(cut -d'|' -f8 "$OUT/table.md" | median) (ratios to the exact tokenizer floor)"
}
