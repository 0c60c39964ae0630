#!/usr/bin/env bash
# Bytes per page of three Pathstone sheets (board, stones, rule card; English, A4)
# against the same content set by Typst in bench/typst/ (DejaVu Sans, tagged, and as
# PDF/A-2b and PDF/UA-1 as tablekit's files are). Typst comes from PyPI (`typst`,
# installed into a scratch folder when it is missing).
#   scripts/bench-size.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
./target/release/tablekit build pathstone --out "$out" >/dev/null
if ! python3 -c 'import typst' 2>/dev/null; then
    python3 -m pip install --quiet --target "$out/py" typst==0.15.2
    export PYTHONPATH="$out/py"
fi
pages() { python3 -c 'import sys,re; print(len(re.findall(rb"/Type\s*/Page[^s]", open(sys.argv[1],"rb").read())))' "$1"; }
printf '%-10s %14s %14s %7s\n' sheet tablekit typst ratio
for pair in board:board stones:stones rules:rule-card; do
    typ=${pair%%:*} ours="$out/pathstone/en-a4-5/${pair#*:}.pdf"
    python3 - "$typ" "$out/$typ.pdf" <<'PY'
import sys, typst
typst.compile(f"bench/typst/{sys.argv[1]}.typ", output=sys.argv[2], font_paths=["fonts"],
              ignore_system_fonts=True, pdf_standards=["a-2b", "ua-1"])
PY
    a=$(( $(stat -c %s "$ours") / $(pages "$ours") ))
    b=$(( $(stat -c %s "$out/$typ.pdf") / $(pages "$out/$typ.pdf") ))
    printf '%-10s %11d B/p %11d B/p %7s\n' "$typ" "$a" "$b" "$(python3 -c "print(f'{$a/$b:.2f}')")"
done
