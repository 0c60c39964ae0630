#!/usr/bin/env bash
# Mutation testing of the modules whose unit tests the code review found weak:
# `src/kit/strings.rs` and `src/layout/flow.rs`. Each mutant is built and tested
# against the library's unit tests of its area only (`kit::`, `layout::`), which the
# default tier runs; a mutant they miss is a rule no unit test pins down. Slow (each
# mutant recompiles the library at release settings: 18-29 s each measured on the shared
# 2-core machine, 507 mutants in all, 3-4 hours), so it is not part of `.ci/run`; pass a
# sample or a filter through, for example:
#   scripts/run-mutants.sh --shard 1/10 --sharding round-robin   # a tenth
#   scripts/run-mutants.sh -F 'unprintable|filled_later'          # named functions
#   scripts/run-mutants.sh --list                                 # what would run
# Needs cargo-mutants (`cargo install cargo-mutants --locked`, 27.1.0 measured). The
# mutants are made in place (the library's sources are links under crates/core, which
# a copy of the tree would not share the build of), so the work tree must be clean:
# cargo-mutants puts every file back after each mutant. Results in
# target/mutants.out/ (caught.txt, missed.txt, unviable.txt), where git does not look.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cargo-mutants >/dev/null ||
    { echo "run-mutants: install it with: cargo install cargo-mutants --locked"; exit 1; }
if [ -n "$(git status --porcelain)" ]; then
    echo "run-mutants: the work tree has changes; commit or stash them first"
    exit 1
fi
cargo mutants --in-place --package tablekit-core --profile release --output target \
    --file crates/core/src/kit/strings.rs --file crates/core/src/layout/flow.rs \
    "$@" -- --lib -- kit:: layout::
