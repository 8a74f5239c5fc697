#!/usr/bin/env bash
# The guard before a change to a hot path lands: scripts/bench-compare.sh BASE [HEAD]
# builds both commits in release mode (as bench.sh and bench-serve.sh build: static Swift
# runtime) and prints HEAD/BASE for the headline workloads, the two builds interleaved in every
# round (the first side alternating), medians of ROUNDS (default 5):
#   - `magpie thumb` of a 6000x4000 JPEG and a 10000x10000 PNG to 256 px, the whole process
#     (start-up and linking count), and the JPEG run's peak RSS;
#   - the library's own thumbnails/s on 1 and 2 threads (magpie-decode-bench --floor: the cold B
#     sources at its 50 sizes, q80, FLOOR_SECONDS 4 a run);
#   - the service, cold (bench-serve.sh's cold B: 200 JPEGs 1024x768 x 50 sizes, each request a
#     new variant; requests/s and the process's peak RSS) and warm (100 variants cached;
#     requests/s and p99), wrk on loopback, DURATION 8 s a run, nginx the origin;
#   - the disk cache's reads (magpie-disk-cache-bench --only profile: 4 KB rows, 64 KB files,
#     misses), where both commits have that benchmark.
# A row more than 5% worse (in its better direction) is marked; docs/benchmarks.md says what to do.
# Both commits are built from one worktree (.build-compare/src) into one scratch folder, so the
# second build compiles only what differs; each commit's binaries are kept under
# .build-compare/bin/SHA, and a later run with either commit builds nothing for it. The commits are
# built as committed: uncommitted changes are not in HEAD's build.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
[ $# -ge 1 ] || { sed -n 2,3p "$0" >&2; exit 64; }
base_sha=$(git rev-parse --verify "$1^{commit}")
head_sha=$(git rev-parse --verify "${2:-HEAD}^{commit}")
export BENCH_DIR=${BENCH_DIR:-/tmp/magpie-compare}
# shellcheck source=lib/netbench.sh
. scripts/lib/netbench.sh
# shellcheck source=lib/servebench.sh
. scripts/lib/servebench.sh
netbench_prepare
DURATION=${DURATION:-8} servebench_settings 5
compare=${COMPARE_DIR:-$root/.build-compare}
products=(magpie magpie-server magpie-decode-bench magpie-disk-cache-bench)

build() {  # build SHA: its release binaries into $compare/bin/SHA
    local sha=$1 out=$compare/bin/$1 product
    [ -f "$out/.complete" ] && return 0
    if [ ! -d "$compare/src" ]; then
        git worktree prune
        git worktree add -q --detach "$compare/src" "$sha"
    else
        git -C "$compare/src" checkout -q --detach "$sha"
    fi
    mkdir -p "$out"
    for product in "${products[@]}"; do
        rm -f "$compare"/scratch/*/release/description.json  # a stale one fails the next product's build
        # A product the commit does not have (an older one) leaves its rows out.
        if swift build -c release --static-swift-stdlib --package-path "$compare/src" --scratch-path "$compare/scratch" \
            --product "$product" > "$compare/build-$product.log" 2>&1; then
            cp "$compare/scratch/release/$product" "$out/"
        elif grep -q "no product named" "$compare/build-$product.log"; then
            echo "  ($sha has no $product)"
        else
            tail -20 "$compare/build-$product.log" >&2
            exit 1
        fi
    done
    touch "$out/.complete"
}
echo "== building BASE $base_sha and HEAD $head_sha (release)"
build "$base_sha"
build "$head_sha"
base_bin=$compare/bin/$base_sha
head_bin=$compare/bin/$head_sha

results=$work/results.tsv
: > "$results"
python3 Benchmarks/bench_compare.py inputs "$work"
servebench_images_b "$work/www/b" "$rounds"
netbench_nginx "$work"
origin=${base#http://}  # netbench_nginx sets $base, its URL
trap servebench_cleanup EXIT

echo "== the CLI, the library and the disk cache ($rounds rounds)"
python3 Benchmarks/bench_compare.py local "$base_bin" "$head_bin" "$work" "$rounds" "$results"

echo "== the service, cold and warm ($rounds rounds of ${duration} s, $threads x $conns connections)"
SERVEBENCH_BIN=$base_bin servebench_magpie base_port base
SERVEBENCH_BIN=$head_bin servebench_magpie head_port head
servebench_wait
servebench_lua_b "/unsafe/rs:fit:%d:%d/q:80/plain/http://$origin/b/r%d/%03d.jpg" cold
# Warm: 100 variants of the first round's sources, asked over and over after one pass caches them.
{ servebench_lua_head; cat <<LUA
function request()
  local n = counter % 100
  counter = counter + step
  return wrk.format("GET", string.format("/unsafe/rs:fit:%d:%d/q:80/plain/http://$origin/b/r0/%03d.jpg", 120 + n, 120 + n, n))
end
LUA
} > "$work/warm.lua"
measure() {  # measure WORKLOAD SIDE PORT LUA ARG: requests/s (and p99 for warm) into the results
    local out rps p99
    out=$(wrk -t"$threads" -c"$conns" -d"${duration}s" --latency -s "$4" "http://127.0.0.1:$3" -- "${5:-0}" 2>&1)
    rps=$(awk '/Requests\/sec/ {print $2}' <<< "$out")
    # wrk prints 99% as 1.23ms, 456.00us or 1.02s: in milliseconds.
    p99=$(awk '$1 == "99%" {v = $2; if (v ~ /us$/) print v / 1000; else if (v ~ /ms$/) print v + 0; else print v * 1000}' <<< "$out")
    echo "  $1, $2: $rps requests/s, p99 ${p99} ms$(awk '/Non-2xx/ {print ", " $5 " non-2xx"}' <<< "$out")"
    printf '%s\t%s\t%s\n' "$1" "$2" "$rps" >> "$results"
    [ "$1" = "service warm" ] && printf '%s\t%s\t%s\n' "service warm, p99" "$2" "$p99" >> "$results"
    return 0
}
for r in $(seq 0 $((rounds - 1))); do
    if [ $((r % 2)) = 0 ]; then order="base head"; else order="head base"; fi
    for side in $order; do
        port_var=${side}_port
        measure "service cold B" "$side" "${!port_var}" "$work/cold.lua" "$r"
    done
done
for side in base head; do
    rss=$(awk '/VmHWM/ {print $2}' "/proc/$(eval echo "\$pid_$side")/status")
    printf '%s\t%s\t%s\n' "service cold B, peak RSS" "$side" "$((rss / 1024))" >> "$results"
done
for side in base head; do  # the warm variants, made once on each side
    port_var=${side}_port
    for n in $(seq 0 99); do
        curl -sf -o /dev/null "http://127.0.0.1:${!port_var}/unsafe/rs:fit:$((120 + n)):$((120 + n))/q:80/plain/http://$origin/b/r0/$(printf %03d "$n").jpg"
    done
done
for r in $(seq 0 $((rounds - 1))); do
    if [ $((r % 2)) = 0 ]; then order="base head"; else order="head base"; fi
    for side in $order; do
        port_var=${side}_port
        measure "service warm" "$side" "${!port_var}" "$work/warm.lua"
    done
done
python3 Benchmarks/bench_compare.py report "$results" "$base_sha" "$head_sha"
