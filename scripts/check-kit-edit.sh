#!/usr/bin/env bash
# Checks that adding, editing or removing a file under kits/ recompiles only the
# small binary crate, never the library (tablekit-core), and that the binary run
# from a folder without kits/ carries the change.
# Usage: scripts/check-kit-edit.sh   (from anywhere; builds in release)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
added=kits/three-men-slide/lang/pt.toml
elsewhere=$(mktemp -d)
trap 'rm -f "$root/$added"; rm -rf "$elsewhere"' EXIT
cargo build --release --quiet

rebuild() { # $1: what changed
    local start end log
    start=$(date +%s.%N)
    log=$(cargo build --release -v 2>&1)
    end=$(date +%s.%N)
    grep -q 'Fresh tablekit-core' <<<"$log" ||
        { echo "$1 recompiled the library:"; echo "$log"; exit 1; }
    grep -q 'Compiling tablekit v' <<<"$log" ||
        { echo "$1 did not rebuild the embedded kits:"; echo "$log"; exit 1; }
    printf '%s: library untouched, binary rebuilt in %.2f s\n' "$1" "$(bc <<<"$end - $start")"
}
languages() { (cd "$elsewhere" && "$root/target/release/tablekit" list) | grep -c ' pt '; }

cp kits/three-men-slide/lang/en.toml "$added"
rebuild "adding $added"
[ "$(languages)" = 1 ] || { echo "the built-in kits lack the added file"; exit 1; }
sed -i '0,/= "/s/= "/= "Um /' "$added"
rebuild "editing $added"
rm "$added"
rebuild "removing $added"
[ "$(languages)" = 0 ] || { echo "the built-in kits still hold the removed file"; exit 1; }
echo "kit edits: ok"
