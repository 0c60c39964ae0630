#!/usr/bin/env bash
# Times the default tier: `cargo test --release` after a build, run three times (or
# as many as given), each run's wall time and CPU (user + sys, the test processes and
# every command they start). A benchmark, not a test: run it on a quiet machine and
# keep the best.
#   scripts/bench-tier.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
# Built and run once first, so that no run below compiles anything.
cargo test --release --quiet >/dev/null 2>&1
TIMEFORMAT='default tier: %R s wall, %U s user + %S s sys of CPU'
for _ in $(seq "$runs"); do
    time cargo test --release --quiet >/dev/null 2>&1
done
