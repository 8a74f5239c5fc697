#!/usr/bin/env bash
# Service benchmark, all on loopback, with wrk (THREADS 2 × CONNS 16, DURATION 10 s a side, as
# the outside benchmark): magpie-server against thumbor 7.8 (PyPI, in a virtualenv, defaults but
# for file storage, 2 processes), against nginx set up as a production static server (sendfile,
# access_log off, keepalive_requests 100000; one worker and two), and against a bare Hummingbird
# route answering the same bytes from memory (the framework's floor). nginx is also the origin.
#   cold A: every request a new variant: 1,000 mixed sources (640×480 to 3000×2000, every tenth a
#           PNG) × widths 64–511, `rs:fit:W:W` (against magpie-server --fast too)
#   cold B: the outside benchmark's workload: 200 JPEGs of 1024×768 (q85) × 50 sizes 100–394 in
#           steps of 6, `rs:fit:S:S/q:80` against thumbor's `fit-in/SxS/filters:quality(80)`;
#           each round new source URLs (same bytes), so every request is a new variant and the
#           first of each source downloads it; servers of their own, so peak RSS is this
#           workload's; PSNR of 24 outputs of each side against a Lanczos resize of the full
#           decode (Pillow), and the library's own rate on the same work (the floor, no HTTP)
#   warm:   100 variants asked over and over after one pass that caches them; also from disk
#           (--variant-memory-limit 0); the floor also with NIO's event loops as Swift's global
#           executor (a dynamically linked build: the static runtime keeps the hook NIO needs local)
# ROUNDS rounds (default 3), the servers interleaved within each; medians reported. PARTS (say
# "cold-b quality") runs only some parts, without the final report. BASELINE_BIN (a folder with
# another build's magpie-server, say the previous commit's) adds that build to cold B (default
# and --fast) and warm, interleaved with this one in every round, and prints this build's
# medians as ratios of its.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/netbench.sh
. scripts/lib/netbench.sh
# shellcheck source=lib/servebench.sh
. scripts/lib/servebench.sh
netbench_prepare
servebench_settings 3
for product in magpie-server magpie-hb-floor magpie-decode-bench; do
    rm -f .build-bench/*/release/description.json  # a stale one fails the next product's build
    swift build -c release --static-swift-stdlib --product "$product" --scratch-path .build-bench 2>&1 | tail -1
done
rm -f .build-bench-dyn/*/release/description.json
swift build -c release --product magpie-hb-floor --scratch-path .build-bench-dyn 2>&1 | tail -1
bin=.build-bench/release
venv=${THUMBOR_VENV:-$work/thumbor-venv}
[ -x "$venv/bin/thumbor" ] || { python3 -m venv "$venv" && "$venv/bin/pip" install -q "thumbor==7.8.*"; }

netbench_images "$work/www"
servebench_images_b "$work/www/b" "$rounds"
netbench_nginx "$work"
origin=${base#http://}
trap servebench_cleanup EXIT

# magpie-server: cold A and warm; --fast (cold A); no variant memory (warm from disk); and for
# cold B, default and --fast of their own.
servebench_magpie mport main
servebench_magpie fport fast --fast
servebench_magpie dport disk --variant-memory-limit 0
servebench_magpie bport b
servebench_magpie bfport b-fast --fast
if [ -n "${BASELINE_BIN:-}" ]; then
    SERVEBENCH_BIN=$BASELINE_BIN servebench_magpie mbport main-base
    SERVEBENCH_BIN=$BASELINE_BIN servebench_magpie bbport b-base
    SERVEBENCH_BIN=$BASELINE_BIN servebench_magpie bfbport b-fast-base --fast
fi
servebench_thumbor tport a
servebench_thumbor tbport b
servebench_wait

mpath="/unsafe/rs:fit:%d:%d/plain/http://$origin/%s"
tpath="/unsafe/fit-in/%dx%d/$origin/%s"
servebench_lua_a cold "$mpath" magpie-cold; servebench_lua_a warm "$mpath" magpie-warm
servebench_lua_a cold "$tpath" thumbor-cold; servebench_lua_a warm "$tpath" thumbor-warm
servebench_lua_b "/unsafe/rs:fit:%d:%d/q:80/plain/http://$origin/b/r%d/%03d.jpg" magpie-b
servebench_lua_b "/unsafe/fit-in/%dx%d/filters:quality(80)/$origin/b/r%d/%03d.jpg" thumbor-b
rm -f "$work"/rps-*
steal0=$(steal); total0=$(total)
M=http://127.0.0.1

echo "== cold A: every request a new variant of 1,000 mixed sources ($rounds rounds of ${duration} s, $threads × $conns connections)"
part cold-a && for r in $(seq 0 $((rounds - 1))); do
    run "magpie cold" "$M:$mport" "$work/magpie-cold.lua" $((r * 20000))
    run_thumbor "thumbor cold" "$tport" "$work/thumbor-cold.lua" $((r * 20000))
    run "magpie cold --fast" "$M:$fport" "$work/magpie-cold.lua" $((r * 20000))
done

echo "== cold B: 200 JPEGs 1024×768 × 50 sizes, q80, every request a new variant ($rounds rounds)"
baseline_b() {  # the baseline's cold B sides, when there is one
    if [ -n "${BASELINE_BIN:-}" ]; then
        run "baseline B" "$M:$bbport" "$work/magpie-b.lua" "$1"
        run "baseline B --fast" "$M:$bfbport" "$work/magpie-b.lua" "$1"
    fi
}
part cold-b && for r in $(seq 0 $((rounds - 1))); do
    # With a baseline, it goes first in every other round, so neither side always follows thumbor.
    if [ $((r % 2)) = 1 ]; then baseline_b "$r"; fi
    run "magpie B" "$M:$bport" "$work/magpie-b.lua" "$r"
    run_thumbor "thumbor B" "$tbport" "$work/thumbor-b.lua" "$r"
    run "magpie B --fast" "$M:$bfport" "$work/magpie-b.lua" "$r"
    if [ $((r % 2)) = 0 ]; then baseline_b "$r"; fi
done

part cold-b && echo "  peak RSS (KiB): magpie-server $(peak_rss "$pid_b"), --fast $(peak_rss "$pid_b_fast"), thumbor (all processes) $(peak_rss $(pgrep -f "thumbor --ip 127.0.0.1 --port $tbport" || true))"

echo "== warm: 100 variants, cached ($rounds rounds)"
part warm && servebench_warm_files
part warm && for r in $(seq "$rounds"); do
    if [ -n "${BASELINE_BIN:-}" ] && [ $((r % 2)) = 0 ]; then run "baseline warm" "$M:$mbport" "$work/magpie-warm.lua"; fi
    run "magpie warm" "$M:$mport" "$work/magpie-warm.lua"
    if [ -n "${BASELINE_BIN:-}" ] && [ $((r % 2)) = 1 ]; then run "baseline warm" "$M:$mbport" "$work/magpie-warm.lua"; fi
    run "Hummingbird floor" "$M:$hport" "$work/static.lua"
    run "Hummingbird floor --nio-executor" "$M:$hnport" "$work/static.lua"
    run "nginx static, 1 worker" "$M:$s1port" "$work/static.lua"
    run "nginx static, 2 workers" "$M:$s2port" "$work/static.lua"
    run "magpie warm, from disk" "$M:$dport" "$work/magpie-warm.lua"
    run "magpie health" "$M:$mport" "$work/health.lua"
    run_thumbor "thumbor warm" "$tport" "$work/thumbor-warm.lua"
done
awk -v s="$(( $(steal) - steal0 ))" -v t="$(( $(total) - total0 ))" \
    'BEGIN { printf "steal (CPU time the hypervisor gave other guests) during the runs: %.1f%%\n", t ? 100 * s / t : 0 }'

if [ -n "${BASELINE_BIN:-}" ]; then
    echo "== this build against the baseline ($BASELINE_BIN), medians of $rounds interleaved rounds"
    for pair in "magpie B|baseline B" "magpie B --fast|baseline B --fast" "magpie warm|baseline warm"; do
        # A part PARTS left out has no runs to compare.
        [ -s "$work/rps-${pair%|*}" ] && [ -s "$work/rps-${pair#*|}" ] || continue
        a=$(median "${pair%|*}"); b=$(median "${pair#*|}")
        awk -v l="${pair%|*}" -v a="$a" -v b="$b" 'BEGIN { if (b > 0) printf "  %s: %.0f against %.0f requests/s, %.3f×\n", l, a, b, a / b }'
    done
    echo "  peak RSS (KiB), cold B: this build $(peak_rss "$pid_b"), baseline $(peak_rss "$pid_b_base")"
fi
part quality || exit 0
echo "== cold B at equal work: PSNR (dB) of 24 outputs against Pillow's LANCZOS of the full decode"
servebench_psnr "magpie" "$M:$bport" "/unsafe/rs:fit:%d:%d/q:80/plain/http://$origin/b/%03d.jpg"
servebench_psnr "magpie --fast" "$M:$bfport" "/unsafe/rs:fit:%d:%d/q:80/plain/http://$origin/b/%03d.jpg"
servebench_psnr "thumbor" "$M:$tbport" "/unsafe/fit-in/%dx%d/filters:quality(80)/$origin/b/%03d.jpg"

echo "== cold B floor: the library alone, the same thumbnails and q80 encodes on 2 threads, 10 s"
floor=$("$bin/magpie-decode-bench" --floor 2 80 "$work"/www/b/*.jpg | awk '{print $(NF-2)}')
floorfast=$("$bin/magpie-decode-bench" --floor 2 80 --fast "$work"/www/b/*.jpg | awk '{print $(NF-2)}')
echo "  library: $floor thumbnails/s; --fast: $floorfast"

[ -z "${PARTS:-}" ] && servebench_report
