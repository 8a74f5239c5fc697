#!/usr/bin/env bash
# Tracing's cost on warm hits: magpie-server built with the OTLP trait, 100 cached variants asked
# over and over with wrk (THREADS 2 × CONNS 16, DURATION 10 s), tracing off (no --otel-endpoint:
# the no-op tracer) against tracing on with swift-otel's tracer recording every span and no
# exporter (--otel-endpoint with OTEL_TRACES_EXPORTER=none), and the default build (no trait) as
# a third side; and two more with the tracer sampling: 1% of new traces
# (OTEL_TRACES_SAMPLER=parentbased_traceidratio, ARG 0.01, a common production setting) and none
# (always_off: the instrumentation runs, nothing is recorded). ROUNDS (3) interleaved rounds,
# medians. nginx (sendfile, no access log) is the origin.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/netbench.sh
. scripts/lib/netbench.sh
# shellcheck source=lib/servebench.sh
. scripts/lib/servebench.sh
netbench_prepare
duration=${DURATION:-10}
conns=${CONNS:-16}
threads=${THREADS:-2}
rounds=${ROUNDS:-3}
mkdir -p "$work"
rm -f .build-bench/*/release/description.json .build-bench-otlp/*/release/description.json
swift build -c release --static-swift-stdlib --product magpie-server --scratch-path .build-bench 2>&1 | tail -1
swift build -c release --static-swift-stdlib --product magpie-server --traits OTLP --scratch-path .build-bench-otlp \
    2>&1 | tail -1

netbench_images "$work/www"
netbench_nginx "$work" "access_log off;"
origin=${base#http://}
trap servebench_cleanup EXIT
bin=.build-bench-otlp/release
servebench_magpie offport off
OTEL_TRACES_EXPORTER=none servebench_magpie onport on --otel-endpoint http://127.0.0.1:9
OTEL_TRACES_EXPORTER=none OTEL_TRACES_SAMPLER=parentbased_traceidratio OTEL_TRACES_SAMPLER_ARG=0.01 \
    servebench_magpie ratioport ratio --otel-endpoint http://127.0.0.1:9
OTEL_TRACES_EXPORTER=none OTEL_TRACES_SAMPLER=always_off servebench_magpie offsampledport offsampled \
    --otel-endpoint http://127.0.0.1:9
bin=.build-bench/release
servebench_magpie plainport plain
servebench_wait

mpath="/unsafe/rs:fit:%d:%d/plain/http://$origin/%s"
servebench_lua_a warm "$mpath" magpie-warm
for port in $offport $onport $ratioport $offsampledport $plainport; do  # cached, then kept in memory from the second request
    for pass in 1 2 3; do
        for n in $(seq 0 99); do
            ext=jpg; [ $((n % 10)) -eq 9 ] && ext=png; w=$((64 + n * 67 % 448))
            curl -sf -o /dev/null "http://127.0.0.1:$port$(printf "$mpath" $w $w "$(printf %04d "$n").$ext")"
        done
    done
done
rm -f "$work"/rps-*
echo "== warm: 100 variants, cached ($rounds rounds of ${duration} s, $threads × $conns connections)"
for _ in $(seq "$rounds"); do
    run "tracing off" "http://127.0.0.1:$offport" "$work/magpie-warm.lua"
    run "tracing on, no exporter" "http://127.0.0.1:$onport" "$work/magpie-warm.lua"
    run "sampling 1%" "http://127.0.0.1:$ratioport" "$work/magpie-warm.lua"
    run "sampling none" "http://127.0.0.1:$offsampledport" "$work/magpie-warm.lua"
    run "default build" "http://127.0.0.1:$plainport" "$work/magpie-warm.lua"
done
median() { sort -n "$work/rps-$1" | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
off=$(median "tracing off")
for side in "tracing on, no exporter" "sampling 1%" "sampling none" "default build"; do
    awk -v off="$off" -v x="$(median "$side")" -v side="$side" \
        'BEGIN { printf "median %s: %.0f requests/s, %.3f× tracing off (%.0f), %+.1f%%\n", side, x, x / off, off, 100 * (x - off) / off }'
done
