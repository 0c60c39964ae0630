#!/usr/bin/env bash
# Times `tablekit check` of each shipped kit, and of two hostile kits (a template that
# loops for ever, one that doubles a string), with the release binary: best of RUNS
# (default 3) wall-clock seconds, and the peak memory of the slowest run (GNU time). A benchmark,
# not a test: run it on a quiet machine.
#   scripts/bench-check.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
runs=${1:-3}
bin=$PWD/target/release/tablekit
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/loop/templates" "$work/doubling/templates"
cp -r kits/three-men-slide/. "$work/loop"
cp -r kits/three-men-slide/. "$work/doubling"
printf '%s' '{% for a in range(end=1000) %}{% for b in range(end=1000) %}{% for c in range(end=1000) %}{% endfor %}{% endfor %}{% endfor %}' \
    >"$work/loop/templates/board.tera"
printf '%s' '{% set_global s = "xxxxxxxxxxxxxxxx" %}{% for i in range(end=40) %}{% set_global s = s ~ s %}{% endfor %}{{ s }}' \
    >"$work/doubling/templates/board.tera"
for kit in pathstone crossway stack-top-roads three-men-slide "$work/loop" "$work/doubling"; do
    best=
    peak=0
    for _ in $(seq "$runs"); do
        # GNU time's %e and %M: wall seconds, and the largest resident set of the
        # command and its render workers, in KiB.
        /usr/bin/time -o "$work/time" -f '%e %M' "$bin" check "$kit" >/dev/null 2>&1 || true
        read -r secs kib < <(tail -1 "$work/time")
        if [[ -z $best ]] || awk -v a="$secs" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$secs; fi
        if ((kib > peak)); then peak=$kib; fi
    done
    printf '%-18s best %5.2f s, peak %4d MiB\n' "$(basename "$kit")" "$best" $((peak / 1024))
done
