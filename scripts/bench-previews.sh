#!/usr/bin/env bash
# Times the default build (every kit, English, A4) with and without previews, and the
# SVG and PNG of every page against the PDFs alone. A benchmark, not a test: best of
# ROUNDS runs (default 9) on both cores, writing every file.
#   scripts/bench-previews.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
rounds=${1:-9}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
best() { # best wall time in ms of "tablekit build ARGS…"
    local best=999999 start end ms
    for _ in $(seq "$rounds"); do
        rm -rf "$out/run"
        sync
        start=$(date +%s%N)
        ./target/release/tablekit build --out "$out/run" "$@" >/dev/null
        end=$(date +%s%N)
        ms=$(((end - start) / 1000000))
        ((ms < best)) && best=$ms
    done
    echo "$best"
}
pdf=$(best)
png=$(best --preview png)
svg=$(best --preview svg)
awk -v pdf="$pdf" -v png="$png" -v svg="$svg" 'BEGIN {
    printf "default build, PDFs only:        %4d ms\n", pdf
    printf "with PNG previews at 96 dpi:     %4d ms (%.1f times the PDF build)\n", png, png / pdf
    printf "with SVG previews:               %4d ms (the SVGs add %d ms to the %d ms that lay out and write the PDFs)\n", svg, svg - pdf, pdf
}'
