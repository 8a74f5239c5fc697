#!/usr/bin/env bash
# Soak of magpie-server, all on loopback: REQUESTS (default 100,000) requests with wrk over 1,000
# sources × 10 widths (10,000 variants, each asked REQUESTS / 10,000 times, spread over the run)
# from nginx, with a disk limit (DISK_LIMIT, default 48 MiB) far below the sources and variants
# (about 84 MB and 100 MB), so the cache evicts all the time: sources are fetched again,
# variants encoded again. glibc's default arenas (no MALLOC_ARENA_MAX).
# Samples the server's resident memory and requests answered (its /metrics) every 2 s and reports
# RSS over the second half of the requests: lowest, highest, and their spread against the median.
#   scripts/soak-serve.sh        REQUESTS, CONNS (default 8), DISK_LIMIT from the environment
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/netbench.sh
. scripts/lib/netbench.sh
netbench_prepare
requests=${REQUESTS:-100000}
conns=${CONNS:-8}
disk_limit=${DISK_LIMIT:-$((48 << 20))}
mkdir -p "$work"
rm -f .build-bench/*/release/description.json
swift build -c release --static-swift-stdlib --product magpie-server --scratch-path .build-bench 2>&1 | tail -1
server_bin=.build-bench/release/magpie-server
netbench_images "$work/www"
netbench_nginx "$work"
origin=${base#http://}
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
rm -rf "$work/soak-cache"
"$server_bin" --bind "127.0.0.1:$port" --allow-unsigned --cache-dir "$work/soak-cache" --disk-limit "$disk_limit" \
    --allow-network 127.0.0.1/32 --max-inflight 4096 --metrics > "$work/soak-server.log" 2>&1 &
spid=$!
cleanup() { kill "$spid" 2>/dev/null || true; kill "$(cat "$work/nginx/nginx.pid" 2>/dev/null)" 2>/dev/null || true; }
trap cleanup EXIT
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/health" > /dev/null && break; sleep 0.2; done

# One wrk thread: request n asks source n % 1000 at width index (n / 1000) % 10. wrk runs until
# the server has answered REQUESTS image requests (read from its /metrics), then is stopped.
cat > "$work/soak.lua" <<LUA
local sent = 0
function request()
  local n = sent
  sent = sent + 1
  local src = n % 1000
  local ext = (src % 10 == 9) and "png" or "jpg"
  local w = 64 + 48 * (math.floor(n / 1000) % 10)
  return wrk.format("GET", string.format("/unsafe/rs:fit:%d:%d/plain/http://$origin/%04d.%s", w, w, src, ext))
end
LUA

echo "== soak: $requests requests, $conns connections, disk limit $disk_limit bytes"
: > "$work/soak-samples"
start=$SECONDS
wrk -t1 -c"$conns" -d3600s -s "$work/soak.lua" "http://127.0.0.1:$port" > "$work/soak-wrk.txt" 2>&1 &
wpid=$!
while :; do
    m=$(curl -sf "http://127.0.0.1:$port/metrics" || true)
    n=$(awk '/^magpie_requests_total\{route="image"/ {s += $2} END {print s + 0}' <<< "$m")
    rss=$(awk '/VmRSS/ {print $2}' "/proc/$spid/status" 2>/dev/null || echo 0)
    echo "$n $rss" >> "$work/soak-samples"
    if [ "$n" -ge "$requests" ] || ! kill -0 "$wpid" 2>/dev/null; then break; fi
    sleep 2
done
kill -INT "$wpid" 2>/dev/null || true
wait "$wpid" 2>/dev/null || true
took=$((SECONDS - start))
errors=$(awk '/Non-2xx|Socket errors/' "$work/soak-wrk.txt")
echo "took $took s ($(awk -v n="$n" -v t="$took" 'BEGIN {printf "%.0f", n / t}') requests/s)${errors:+; wrk: $errors}"
# (the server may still be finishing writes: a file gone between listing and reading is no error)
{ du -sk "$work/soak-cache" 2>/dev/null || true; } | awk '{printf "cache folder at the end: %.1f MiB\n", $1 / 1024}'
echo "origin requests: $(wc -l < "$access_log") (1,000 sources in a cycle larger than the cache: LRU keeps none of them)"
awk 'NR % 10 == 1 {printf "  %7d requests: RSS %6.1f MiB\n", $1, $2 / 1024}' "$work/soak-samples"
awk -v total="$requests" '$1 >= total / 2 {print $2}' "$work/soak-samples" | sort -n | awk '
    { v[NR] = $1 }
    END {
        if (NR == 0) { print "no samples in the second half"; exit 1 }
        med = v[int((NR + 1) / 2)]
        printf "second half (%d samples): RSS %.1f to %.1f MiB, median %.1f; spread %.1f%% of the median\n",
            NR, v[1] / 1024, v[NR] / 1024, med / 1024, 100 * (v[NR] - v[1]) / med
    }'
