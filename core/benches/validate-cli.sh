#!/usr/bin/env bash
# End-to-end benchmark of `switchboard validate --jsonl` against `jq -c .` on the same JSON
# Lines files, in the same run: wall time (median of three) and peak RSS (GNU time) for each,
# at two sizes, so
# that memory independent of the input size shows. The lines are the corpus of
# `cargo bench --bench validate` (valid and invalid messages, Agent Mail rows, pretty ones
# compacted), minus the lines that are not JSON at all (jq stops at the first of those).
# Installs jq and GNU time from Debian when missing (not part of CI).
# Usage: core/benches/validate-cli.sh [lines ...]   (default: 100000 1000000)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
OUT="$TARGET_DIR/validate-cli-bench"
mkdir -p "$OUT"

missing=()
command -v jq >/dev/null || missing+=(jq)
[ -x /usr/bin/time ] || missing+=(time)
if [ ${#missing[@]} -gt 0 ]; then
    as_root=()
    [ "$(id -u)" = 0 ] || as_root=(sudo)
    "${as_root[@]}" apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null
fi

cargo build --quiet --release -p switchboard-core --bin switchboard
SB="$TARGET_DIR/release/switchboard"

# Runs a command three times with stdout to /dev/null; prints "seconds peak_KiB": the median
# wall time and the largest peak RSS.
measure() {
    for _ in 1 2 3; do
        /usr/bin/time -f "%e %M" -o "$OUT/time" "$@" >/dev/null 2>"$OUT/stderr" || true
        tail -n 1 "$OUT/time"
    done | sort -n | awk '{ s[NR] = $1; if ($2 > m) m = $2 } END { print s[2], m }'
}

echo "switchboard validate --jsonl vs jq -c . ($(jq --version)); median wall time of three runs, largest peak RSS"
echo
echo "| lines | file MiB | switchboard s | jq s | jq time / switchboard time | switchboard lines/s | switchboard peak RSS MiB | jq peak RSS MiB | switchboard exit |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for lines in ${@:-100000 1000000}; do
    file="$OUT/corpus-$lines.jsonl"
    [ -s "$file" ] || cargo bench --quiet -p switchboard-core --bench validate -- --jsonl "$file" "$lines" >/dev/null
    mib=$(awk -v b="$(stat -c %s "$file")" 'BEGIN { printf "%.1f", b / 1048576 }')
    read -r sb_s sb_kib <<<"$(measure "$SB" validate --jsonl "$file")"
    sb_exit=$("$SB" validate --jsonl "$file" >/dev/null 2>&1; echo $?)
    read -r jq_s jq_kib <<<"$(measure jq -c . "$file")"
    awk -v n="$lines" -v mib="$mib" -v s="$sb_s" -v j="$jq_s" -v sk="$sb_kib" -v jk="$jq_kib" -v e="$sb_exit" 'BEGIN {
        printf "| %d | %s | %.2f | %.2f | %.1fx | %.0f | %.1f | %.1f | %s |\n", n, mib, s, j, j / s, n / s, sk / 1024, jk / 1024, e
    }'
done
echo
echo "Goal: switchboard at least 5x faster than jq -c . on the same file, peak RSS independent of the file size."
