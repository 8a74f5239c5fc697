#!/usr/bin/env bash
# Tracing's cost on warm hits: magpie-server, 100 cached variants asked over and over with wrk
# (THREADS 2 × CONNS 16, DURATION 10 s). The baseline is tracing off (no --otel-endpoint: the no-op
# tracer). Against it, Magpie's tracer (the default) recording every span with no exporter
# (OTEL_TRACES_EXPORTER=none: spans are recorded and let go as they end), the same exporting
# every span over OTLP to a collector (nginx answering POST /v1/traces with 200, so the collector
# costs next to nothing), and the same sampling 1% of new traces (parentbased_traceidratio, a
# common production setting); and, in a build with the OTLP trait, swift-otel's tracer recording
# every span with no exporter (--otel-sdk swift-otel). ROUNDS (5) interleaved rounds, each in the
# order opposite to the one before, medians.
# nginx (sendfile, no access log) is the origin.
# SIDES (default "off on export ratio otel") picks the sides. Each is also given as the median of
# its runs against the tracing-off run of the same round, which cancels the machine's drift.
# First, the same without HTTP: magpie-trace-bench answers a warm hit in process, tracing off and
# on in turn (ROUNDS processes each, before any server runs), and gives what a span costs a
# request in nanoseconds.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/netbench.sh
. scripts/lib/netbench.sh
# shellcheck source=lib/servebench.sh
. scripts/lib/servebench.sh
netbench_prepare
servebench_settings 5
rm -f .build-bench/*/release/description.json .build-bench-otlp/*/release/description.json
swift build -c release --static-swift-stdlib --product magpie-server --scratch-path .build-bench 2>&1 | tail -1
rm -f .build-bench/*/release/description.json  # (SwiftPM refuses a second product otherwise)
swift build -c release --static-swift-stdlib --product magpie-trace-bench --scratch-path .build-bench 2>&1 | tail -1
swift build -c release --static-swift-stdlib --product magpie-server --traits OTLP --scratch-path .build-bench-otlp \
    2>&1 | tail -1

netbench_images "$work/www"
rm -f "$work"/ns-*
echo "== in process: a warm hit answered by ImageService, no HTTP ($rounds rounds)"
for r in $(seq "$rounds"); do
    for side in off on; do
        .build-bench/release/magpie-trace-bench "$side" "$work/www/0000.jpg" 140000 | awk '{print $2}' >> "$work/ns-$side"
    done
done
awk -v off="$(sort -n "$work/ns-off" | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')" \
    -v on="$(sort -n "$work/ns-on" | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')" \
    'BEGIN { printf "median per request: tracing off %d ns, every span recorded %d ns: a span costs %+d ns (%+.1f%%)\n", off, on, on - off, 100 * (on - off) / off }'

netbench_nginx "$work" "access_log off; location = /v1/traces { return 200; }"
origin=${base#http://}
trap servebench_cleanup EXIT
bin=.build-bench/release
servebench_magpie offport off
OTEL_TRACES_EXPORTER=none servebench_magpie onport on --otel-endpoint "$base"
servebench_magpie exportport export --otel-endpoint "$base"
OTEL_TRACES_SAMPLER=parentbased_traceidratio OTEL_TRACES_SAMPLER_ARG=0.01 \
    servebench_magpie ratioport ratio --otel-endpoint "$base"
bin=.build-bench-otlp/release
OTEL_TRACES_EXPORTER=none servebench_magpie otelport otel --otel-endpoint "$base" --otel-sdk swift-otel
servebench_wait

mpath="/unsafe/rs:fit:%d:%d/plain/http://$origin/%s"
servebench_lua_a warm "$mpath" magpie-warm
for port in $offport $onport $exportport $ratioport $otelport; do  # cached, then kept in memory from the second request
    for pass in 1 2 3; do
        for n in $(seq 0 99); do
            ext=jpg; [ $((n % 10)) -eq 9 ] && ext=png; w=$((64 + n * 67 % 448))
            curl -sf -o /dev/null "http://127.0.0.1:$port$(printf "$mpath" $w $w "$(printf %04d "$n").$ext")"
        done
    done
done
rm -f "$work"/rps-*
echo "== warm: 100 variants, cached ($rounds rounds of ${duration} s, $threads × $conns connections)"
# Each round runs the sides in the order opposite to the round before: the machine's speed drifts
# within a round (by up to 5% here), and a fixed order would charge the drift to the later sides.
read -ra sides <<< "${SIDES:-off on export ratio otel}"
reversed=()
for side in "${sides[@]}"; do reversed=("$side" "${reversed[@]}"); done
# Before each run, every server idle: swift-otel's tracer queues span events without bound and
# works through them for seconds after a run, which took up to 19% from the side run next.
quiesce() {
    local before after waited=0
    cpu() {
        local p s=0
        for p in "${servebench_pids[@]}"; do s=$((s + $(awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null || echo 0))); done
        echo "$s"
    }
    while [ "$waited" -lt 120 ]; do
        before=$(cpu); sleep 0.5; after=$(cpu)
        [ $((after - before)) -le 2 ] && return 0
        waited=$((waited + 1))
    done
    echo "  (the servers did not go idle within 60 s)"
}
for r in $(seq "$rounds"); do
    order=("${sides[@]}")
    [ $((r % 2)) -eq 0 ] && order=("${reversed[@]}")
    for side in "${order[@]}"; do
        quiesce
        case $side in
        off) run "tracing off" "http://127.0.0.1:$offport" "$work/magpie-warm.lua" ;;
        on) run "Magpie's tracer, every span, no exporter" "http://127.0.0.1:$onport" "$work/magpie-warm.lua" ;;
        export) run "Magpie's tracer, every span exported" "http://127.0.0.1:$exportport" "$work/magpie-warm.lua" ;;
        ratio) run "Magpie's tracer, 1% exported" "http://127.0.0.1:$ratioport" "$work/magpie-warm.lua" ;;
        otel) run "swift-otel, every span, no exporter" "http://127.0.0.1:$otelport" "$work/magpie-warm.lua" ;;
        esac
    done
done
median() { sort -n "$1" | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
off=$(median "$work/rps-tracing off")
for side in "Magpie's tracer, every span, no exporter" "Magpie's tracer, every span exported" \
    "Magpie's tracer, 1% exported" "swift-otel, every span, no exporter"; do
    [ -f "$work/rps-$side" ] || continue
    # Also each run against the tracing-off run of its own round (the two a few seconds apart):
    # the machine's speed swings by ±10% from minute to minute, and the pairs cancel most of it.
    paste "$work/rps-$side" "$work/rps-tracing off" | awk '{print $1 / $2}' > "$work/pairs"
    awk -v off="$off" -v x="$(median "$work/rps-$side")" -v side="$side" -v pair="$(median "$work/pairs")" \
        -v all="$(awk '{printf "%s%.3f", (NR > 1 ? ", " : ""), $1}' "$work/pairs")" \
        'BEGIN { printf "median %s: %.0f requests/s, %.3f× tracing off (%.0f); per round %s: median %.3f×\n", side, x, x / off, off, all, pair }'
done

