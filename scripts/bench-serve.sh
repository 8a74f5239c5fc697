#!/usr/bin/env bash
# Service benchmark, all on loopback, with wrk: magpie-server against thumbor 7.8 (PyPI, in a
# virtualenv, Pillow as it requires, 2 processes) and against nginx serving the same output bytes
# as static files. nginx is also the origin, serving the 1,000 images of the network benchmark.
#   cold: every request a new variant (1,000 sources × widths, each URL asked once), and the
#         same against a second magpie-server with --fast
#   warm: 100 variants asked over and over, after one pass that caches them; and the same
#         against a third magpie-server with --variant-memory-limit 0, every hit read from disk
# ROUNDS rounds (default 3), the servers interleaved within each; medians reported.
# Reports requests/s, p50 and p99 latency (wrk --latency) and each server's peak RSS.
#   scripts/bench-serve.sh        DURATION (s, default 15), CONNS (default 8), ROUNDS from the environment
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/netbench.sh
. scripts/lib/netbench.sh
netbench_prepare
duration=${DURATION:-15}
conns=${CONNS:-8}
mkdir -p "$work"
rm -f .build-bench/*/release/description.json
swift build -c release --static-swift-stdlib --product magpie-server --scratch-path .build-bench 2>&1 | tail -1
server_bin=.build-bench/release/magpie-server
venv=${THUMBOR_VENV:-$work/thumbor-venv}
[ -x "$venv/bin/thumbor" ] || { python3 -m venv "$venv" && "$venv/bin/pip" install -q "thumbor==7.8.*"; }

netbench_images "$work/www"
netbench_nginx "$work"
origin=${base#http://}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
peak_rss() { local total=0; for pid in "$@"; do
    total=$((total + $(awk '/VmHWM/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0))); done; echo "$total"; }
pids=()
cleanup() {  # thumbor's worker processes too (killing its parent leaves them running)
    kill "${pids[@]}" 2>/dev/null || true
    [ -n "${tport:-}" ] && pkill -f "thumbor --ip 127.0.0.1 --port $tport" 2>/dev/null || true
    kill "$(cat "$work/nginx/nginx.pid")" 2>/dev/null || true
}
trap cleanup EXIT

# magpie-server
mport=$(free_port)
rm -rf "$work/serve-cache"
"$server_bin" --bind "127.0.0.1:$mport" --allow-unsigned --cache-dir "$work/serve-cache" \
    --allow-network 127.0.0.1/32 --max-inflight 4096 > "$work/magpie-server.log" 2>&1 &
mpid=$!; pids+=("$mpid")
# the same with --fast: shrink-on-load only to just past the output, as thumbor (Pillow's draft)
fport=$(free_port)
rm -rf "$work/serve-cache-fast"
"$server_bin" --bind "127.0.0.1:$fport" --allow-unsigned --cache-dir "$work/serve-cache-fast" \
    --allow-network 127.0.0.1/32 --max-inflight 4096 --fast > "$work/magpie-server-fast.log" 2>&1 &
fpid=$!; pids+=("$fpid")
# the same with no variants in memory: every warm hit is a disk read (its peak RSS is warm only)
dport=$(free_port)
rm -rf "$work/serve-cache-disk"
"$server_bin" --bind "127.0.0.1:$dport" --allow-unsigned --cache-dir "$work/serve-cache-disk" \
    --allow-network 127.0.0.1/32 --max-inflight 4096 --variant-memory-limit 0 > "$work/magpie-server-disk.log" 2>&1 &
dpid=$!; pids+=("$dpid")
# thumbor: originals kept by its file storage, results by its file result storage (its variant cache)
tport=$(free_port)
rm -rf "$work/thumbor"
cat > "$work/thumbor.conf" <<CONF
ALLOW_UNSAFE_URL = True
LOADER = 'thumbor.loaders.http_loader'
STORAGE = 'thumbor.storages.file_storage'
FILE_STORAGE_ROOT_PATH = '$work/thumbor/storage'
RESULT_STORAGE = 'thumbor.result_storages.file_storage'
RESULT_STORAGE_FILE_STORAGE_ROOT_PATH = '$work/thumbor/result'
RESULT_STORAGE_STORES_UNSAFE = True
QUALITY = 80
CONF
"$venv/bin/thumbor" --ip 127.0.0.1 --port "$tport" --conf "$work/thumbor.conf" --processes 2 \
    -l error > "$work/thumbor.log" 2>&1 &
tpid=$!; pids+=("$tpid")
for url in "http://127.0.0.1:$mport/health" "http://127.0.0.1:$fport/health" "http://127.0.0.1:$dport/health" "http://127.0.0.1:$tport/healthcheck"; do
    for _ in $(seq 100); do curl -sf "$url" > /dev/null && break; sleep 0.2; done
done

# wrk scripts (one wrk thread): request n (from the offset given after --) asks source
# s = n % 1000 at width 64 + (7 × floor(n / 1000) + 67 × s) % 448: every thousand requests span
# the widths, and no URL repeats for n below 64,000 (rounds start 20,000 apart); warm: n % 100.
lua() {  # $1 mode (cold|warm), $2 format of one path: %d width twice, %s source
    cat > "$work/$1.lua" <<LUA
local counter = 0
function init(args) counter = tonumber(args[1] or "0") end
function request()
  local n = counter
  counter = counter + 1
  if "$1" == "warm" then n = n % 100 end
  local src = n % 1000
  local ext = (src % 10 == 9) and "png" or "jpg"
  local w = 64 + (math.floor(n / 1000) * 7 + src * 67) % 448
  return wrk.format("GET", string.format("$2", w, w, string.format("%04d.", src) .. ext))
end
LUA
}
run() {  # $1 label, $2 base URL, $3 lua, $4 offset; prints "label: req/s, p50, p99"
    local out
    out=$(wrk -t1 -c"$conns" -d"${duration}s" --latency -s "$3" "$2" -- "${4:-0}" 2>&1)
    local rps p50 p99 errs
    rps=$(awk '/Requests\/sec/ {print $2}' <<< "$out")
    p50=$(awk '$1 == "50%" {print $2}' <<< "$out")
    p99=$(awk '$1 == "99%" {print $2}' <<< "$out")
    errs=$(awk '/Non-2xx/ {print $5}' <<< "$out")
    echo "  $1: $rps requests/s, p50 $p50, p99 $p99${errs:+, $errs non-2xx}"
    echo "$rps" >> "$work/rps-$1"
}
median() { sort -g "$work/rps-$1" | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
rm -f "$work"/rps-*
steal() { awk '/^cpu / {print $9}' /proc/stat; }
total() { awk '/^cpu / {s = 0; for (i = 2; i <= NF; i++) s += $i; print s}' /proc/stat; }
mpath="/unsafe/rs:fit:%d:%d/plain/http://$origin/%s"
tpath="/unsafe/fit-in/%dx%d/$origin/%s"
lua cold "$mpath"; cp "$work/cold.lua" "$work/magpie-cold.lua"
lua warm "$mpath"; cp "$work/warm.lua" "$work/magpie-warm.lua"
lua cold "$tpath"; cp "$work/cold.lua" "$work/thumbor-cold.lua"
lua warm "$tpath"; cp "$work/warm.lua" "$work/thumbor-warm.lua"
rounds=${ROUNDS:-3}
steal0=$(steal); total0=$(total)

# Each round a new range of URLs, the servers interleaved (this VM's speed drifts between runs).
echo "== cold: every request a new variant ($rounds rounds of ${duration} s, $conns connections)"
for r in $(seq 0 $((rounds - 1))); do
    run "magpie cold" "http://127.0.0.1:$mport" "$work/magpie-cold.lua" $((r * 20000))
    run "thumbor cold" "http://127.0.0.1:$tport" "$work/thumbor-cold.lua" $((r * 20000))
    run "magpie cold --fast" "http://127.0.0.1:$fport" "$work/magpie-cold.lua" $((r * 20000))
done

echo "== warm: 100 variants, cached ($rounds rounds)"
mkdir -p "$work/www/out"
for n in $(seq 0 99); do  # one pass caches them (and gives nginx the same bytes as files)
    ext=jpg; [ $((n % 10)) -eq 9 ] && ext=png; w=$((64 + n * 67 % 448))
    curl -sf -o "$work/www/out/$n.img" "http://127.0.0.1:$mport$(printf "$mpath" $w $w "$(printf %04d "$n").$ext")"
    curl -sf -o /dev/null "http://127.0.0.1:$dport$(printf "$mpath" $w $w "$(printf %04d "$n").$ext")"
    curl -sf -o /dev/null "http://127.0.0.1:$tport$(printf "$tpath" $w $w "$(printf %04d "$n").$ext")"
done
cat > "$work/static.lua" <<LUA
local counter = 0
function request() counter = counter + 1; return wrk.format("GET", "/out/" .. (counter % 100) .. ".img") end
LUA
for _ in $(seq "$rounds"); do
    run "magpie warm" "http://127.0.0.1:$mport" "$work/magpie-warm.lua"
    run "magpie warm, from disk" "http://127.0.0.1:$dport" "$work/magpie-warm.lua"
    run "thumbor warm" "http://127.0.0.1:$tport" "$work/thumbor-warm.lua"
    run "nginx static" "$base" "$work/static.lua"
done
awk -v s="$(( $(steal) - steal0 ))" -v t="$(( $(total) - total0 ))" \
    'BEGIN { printf "steal (CPU time the hypervisor gave other guests) during the runs: %.1f%%\n", t ? 100 * s / t : 0 }'
mrss=$(peak_rss "$mpid")
frss=$(peak_rss "$fpid")
drss=$(peak_rss "$dpid")
trss=$(peak_rss $(pgrep -f "thumbor --ip 127.0.0.1 --port $tport" || true))
echo "== peak RSS: magpie-server $mrss KiB (--fast: $frss KiB, cold only; --variant-memory-limit 0: $drss KiB, warm only), thumbor (all processes) $trss KiB"
echo "== medians of $rounds rounds (requests/s): magpie cold $(median "magpie cold"), thumbor cold $(median "thumbor cold"), magpie cold --fast $(median "magpie cold --fast"); magpie warm $(median "magpie warm"), from disk $(median "magpie warm, from disk"), thumbor warm $(median "thumbor warm"), nginx static $(median "nginx static")"
awk -v mc="$(median "magpie cold")" -v tc="$(median "thumbor cold")" -v mf="$(median "magpie cold --fast")" \
    -v fr="$frss" -v mw="$(median "magpie warm")" -v ns="$(median "nginx static")" -v mr="$mrss" -v tr="$trss" \
    'BEGIN { printf "ratios: cold magpie/thumbor %.2f× requests/s at %.2f× the RSS; warm magpie/nginx static %.2f×\n",
             mc / tc, mr / tr, mw / ns
           printf "ratios: cold magpie --fast/thumbor %.2f× requests/s at %.2f× the RSS\n", mf / tc, fr / tr }'
