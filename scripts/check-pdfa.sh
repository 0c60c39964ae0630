#!/usr/bin/env bash
# Runs veraPDF's PDF/A-2b and PDF/UA-1 profiles over a sample of builds that covers every sheet kind,
# every language and script, a board in parts, the calibration page, puzzles, a class
# build and a printer-corrected build: every file must comply.
#   scripts/check-pdfa.sh VERAPDF        (the path of veraPDF's `verapdf` script)
set -euo pipefail
verapdf=${1:?usage: scripts/check-pdfa.sh PATH/TO/verapdf}
cd "$(dirname "$0")/.."
cargo build --release --quiet
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
bin=./target/release/tablekit
$bin build --lang all --out "$out" >/dev/null
$bin build --lang all --paper letter --out "$out/letter" >/dev/null
$bin build pathstone --size 8 --lang ar --puzzles 3 --measured 99.5x100.5 --players 6 --out "$out" >/dev/null
$bin build crossway --size 19 --paper letter --cut outline --out "$out" >/dev/null
$bin calibrate --sheet --paper letter --lang el --out "$out" >/dev/null
mapfile -t files < <(find "$out" -name '*.pdf' | sort)
for profile in 2b ua1; do
    report=$("$verapdf" "$profile" "${files[@]}") || true
    failed=$(grep -c '"compliant":false' <<<"$report" || true)
    checked=$(grep -c '"compliant":' <<<"$report" || true)
    if ((checked != ${#files[@]})); then
        echo "veraPDF ($profile) reported on $checked of ${#files[@]} files:"; echo "$report"; exit 1
    fi
    if ((failed > 0)); then
        grep '"compliant":false' <<<"$report"
        echo "$profile: $failed of $checked files fail veraPDF"; exit 1
    fi
    echo "$profile: all $checked files pass veraPDF"
done
