#!/usr/bin/env bash
# The crates are publishable: `cargo package` packs both (the library tablekit-core and
# the command tablekit, which carries the kits) with only what they build from and the
# licences of the fonts and colour profile they embed. The full verification (a debug
# build of both from the packed files: `cargo package --workspace --locked`) takes
# minutes; CI checks what is packed, and the README says how to verify by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo package --workspace --locked --no-verify --allow-dirty --quiet
list() { tar tzf "target/package/$1-0.1.0.crate" | sed "s|^$1-0.1.0/||"; }
fail=0
need() {
    if ! list "$1" | grep -qx "$2"; then echo "error: $1 package lacks $2"; fail=1; fi
}
for file in src/main.rs build.rs kits/pathstone/lang/en.toml kits/web/ar.toml \
    fonts/LICENSE-DejaVu.txt icc/LICENSE-Compact-ICC-Profiles.txt \
    examples/stack-top-roads-4x4/kit.toml README.md; do
    need tablekit "$file"
done
for file in src/lib.rs src/serve/page/app.js templates/contents.tera fonts/DejaVuSans.ttf \
    fonts/LICENSE-DejaVu.txt icc/sRGB-v2-micro.icc icc/LICENSE-Compact-ICC-Profiles.txt; do
    need tablekit-core "$file"
done
for crate in tablekit tablekit-core; do
    if list "$crate" | grep -E '^(tests|target|output|scripts|docs|\.ci)/'; then
        echo "error: $crate packs files the binary does not need"; fail=1
    fi
done
[ "$fail" = 0 ] && echo "package: both crates pack what they build from, and the licences"
exit "$fail"
