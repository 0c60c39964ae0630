#!/usr/bin/env bash
# Times the full build matrix (every kit, every language, every board size, on A4 and
# on Letter) with the release binary, and prints the time per page. A benchmark, not a
# test: run it on a quiet machine, several times, and keep the best.
#   scripts/bench-matrix.sh [THREADS]   (default: all cores)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
if [[ $# -gt 0 ]]; then export RAYON_NUM_THREADS=$1; fi
pages=0
# Earlier runs' files still being written back to disk would slow this one down.
sync
start=$(date +%s%N)
for paper in a4 letter; do
    log=$(./target/release/tablekit build --lang all --all-sizes --paper "$paper" \
        --out "$out/$paper")
    n=$(awk -F'[(]' '{ split($NF, a, " "); s += a[1] } END { print s }' <<<"$log")
    pages=$((pages + n))
done
end=$(date +%s%N)
ms=$(((end - start) / 1000000))
awk -v ms="$ms" -v pages="$pages" -v threads="${RAYON_NUM_THREADS:-all}" 'BEGIN {
    printf "full matrix: %d pages in %d ms: %.2f ms a page (%s threads)\n", pages, ms, ms / pages, threads
}'
