#!/usr/bin/env bash
# Reads a sample of the PDFs with readers independent of the writer (lopdf, which the
# tests use, is also what printpdf writes with): qpdf checks the syntax and streams,
# poppler's pdfinfo the paper and the tags, pdffonts that every face is embedded,
# subset and mapped to Unicode, and pdftotext that the sheet's title is in its text.
#   scripts/check-readers.sh     (needs qpdf and poppler-utils)
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in qpdf pdfinfo pdffonts pdftotext; do
    command -v "$tool" >/dev/null || { echo "check-readers: $tool is missing"; exit 1; }
done
cargo build --release --quiet
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
bin=./target/release/tablekit
for lang in en ar el; do $bin build --lang "$lang" --out "$out/a4" >/dev/null; done
$bin build crossway --paper letter --lang fr --out "$out/letter" >/dev/null
$bin build pathstone --players 24 --tables 6 --lang de --out "$out/class" >/dev/null
mapfile -t files < <(find "$out" -name '*.pdf' | sort)
failures=0
fail() {
    echo "FAIL ${1#"$out"/}: $2"
    failures=$((failures + 1))
}
for file in "${files[@]}"; do
    checked=$(qpdf --check "$file" 2>&1) || true
    grep -q 'No syntax or stream encoding errors' <<<"$checked" ||
        fail "$file" "qpdf --check: $checked"
    info=$(pdfinfo "$file")
    grep -q '^Tagged: *yes' <<<"$info" || fail "$file" "not tagged"
    case $file in
        "$out/letter"/*) paper='612 x 792 pts' ;;
        *) paper='595.276 x 841.89 pts' ;;
    esac
    grep -q "^Page size: *$paper" <<<"$info" || fail "$file" "$(grep '^Page size' <<<"$info")"
    # Every font line after the two heading lines: embedded, subset, with a ToUnicode map.
    fonts=$(pdffonts "$file" | tail -n +3)
    [[ -n $fonts ]] && ! grep -qv ' yes yes yes ' <<<"$fonts" ||
        fail "$file" "a font not embedded, subset and mapped: $fonts"
    # The sheet's name, the part of the title between "·" and the bracket, is in the
    # text (spaces aside: a reader may join or split words of a right-to-left line).
    title=$(sed -n 's/^Title: *//p' <<<"$info")
    sheet=${title##* · }
    sheet=${sheet% (*}
    text=$(pdftotext -layout "$file" - | tr -d ' \n')
    [[ -n $sheet && $text == *"${sheet// /}"* ]] || fail "$file" "\"$sheet\" is not in its text"
done
if ((failures > 0)); then
    echo "check-readers: $failures problems in ${#files[@]} files"
    exit 1
fi
echo "check-readers: ${#files[@]} files read by qpdf, pdfinfo, pdffonts and pdftotext"
