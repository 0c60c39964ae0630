#!/usr/bin/env bash
# Times the edit loop: one constant of one figure file changed (to a value that draws
# the same), then `cargo test --release`, the default tier, rebuilt and run. A
# benchmark, not a test: run it on a quiet machine, several times, and keep the best.
#   scripts/bench-edit.sh
set -euo pipefail
cd "$(dirname "$0")/.."
file=src/games/crossway/figures.rs
constant='const BAR_GAP_MM: f64 = 2.0;'
grep -qF "$constant" "$file" || { echo "bench-edit: $file no longer has $constant"; exit 1; }
backup=$(mktemp)
cp "$file" "$backup"
trap 'cp "$backup" "$file"; rm -f "$backup"' EXIT
# Warm: everything built, as after the previous edit.
cargo test --release --quiet >/dev/null 2>&1
sed -i "s/^$constant/const BAR_GAP_MM: f64 = 2.0 + 0.0;/" "$file"
start=$(date +%s%N)
cargo build --release --quiet
built=$(date +%s%N)
cargo test --release --quiet >/dev/null 2>&1
end=$(date +%s%N)
awk -v b="$(((built - start) / 1000000))" -v t="$(((end - start) / 1000000))" 'BEGIN {
    printf "one figure file edited: library and binary rebuilt in %.1f s; to a passing default tier %.1f s\n", b / 1000, t / 1000
}'
