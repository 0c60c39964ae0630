#!/usr/bin/env bash
# Times what a facilitator waits for on the web page: one option changed on the
# default kit (Crossway), then the new build and every page's preview fetched, as the
# page does. Each round asks for a cell size not asked before, so no build is served
# from the server's cache. Also reads the server's memory: idle after start, and
# after the rounds (its cache of builds full). A benchmark, not a test.
#   scripts/bench-serve.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
rounds=${1:-20}
port=$((20000 + RANDOM % 20000))
./target/release/tablekit serve --port "$port" >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null' EXIT
url="http://127.0.0.1:$port"
until curl -sf -o /dev/null "$url/"; do sleep 0.1; done
rss() { awk '/VmRSS/ { printf "%.1f MB", $2 / 1024 }' "/proc/$server/status"; }
curl -sf -o /dev/null "$url/api/catalog"
idle=$(rss)
times=()
for i in $(seq "$rounds"); do
    cell=$(awk -v i="$i" 'BEGIN { printf "%.1f", 20 + i / 10 }')
    start=$(date +%s%N)
    manifest=$(curl -sf -X POST -H 'Content-Type: application/json' \
        -d "{\"kit\":\"crossway\",\"lang\":\"en\",\"cell\":\"$cell\"}" "$url/api/build")
    previews=$(grep -o '/api/builds/[0-9a-f]*/previews/[a-z0-9-]*\.svg' <<<"$manifest" |
        sed "s|^|$url|")
    # shellcheck disable=SC2086
    curl -sf -o /dev/null $(printf -- '-o /dev/null %s ' $previews) >/dev/null
    end=$(date +%s%N)
    times+=($(((end - start) / 1000000)))
done
sorted=$(printf '%s\n' "${times[@]}" | sort -n)
median=$(sed -n "$(((rounds + 1) / 2))p" <<<"$sorted")
best=$(head -1 <<<"$sorted")
worst=$(tail -1 <<<"$sorted")
pages=$(wc -w <<<"$previews")
echo "one option changed → new build and its $pages previews: median $median ms (best $best, worst $worst; $rounds rounds)"
echo "server memory: idle $idle; after $rounds builds $(rss)"
