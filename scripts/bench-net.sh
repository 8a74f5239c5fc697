#!/usr/bin/env bash
# Network-path benchmark: nginx (Debian's package) serves 1,000 generated images of mixed sizes on
# loopback; the same run measures, side by side:
#   - the bytes-only path (disk-only prefetch) against a plain AsyncHTTPClient loop, same concurrency;
#   - 256-px thumbnails of all 1,000 with a cold cache (`magpie prefetch -s 256`), wall time and peak
#     RSS, against the raw fetch followed by vipsthumbnail on the fetched files;
#   - warm memory-cache retrievals per second from one task;
#   - 1,000 concurrent retrievals of one URL, counting the origin requests in nginx's access log;
#   - warm downloads by name with the address policy off and on.
#   scripts/bench-net.sh [bytes]    "bytes": only the first part
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/netbench.sh
. scripts/lib/netbench.sh
netbench_prepare
mkdir -p "$work"
for product in magpie magpie-net-bench; do
    rm -f .build-bench/*/release/description.json  # a stale one makes SwiftPM fail with "unknown build description"
    swift build -c release --static-swift-stdlib --product "$product" --scratch-path .build-bench 2>&1 | tail -1
done
bin=.build-bench/release

netbench_images "$work/www"
netbench_nginx "$work"
ls "$work/www" | grep -v '^\.' | sed "s|^|$base/|" > "$work/urls.txt"
echo "nginx on $base serving $(wc -l < "$work/urls.txt") images ($(du -sh "$work/www" | cut -f1)), $jobs downloads at a time"

# Time the hypervisor gave to others (the "steal" column of /proc/stat): on a shared VM it makes
# every figure noisier, so the run reports it.
cpu_ticks() { awk '/^cpu / {print $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9}' /proc/stat; }
steal_report() {
    read -r steal0 total0 <<< "$ticks0"
    read -r steal1 total1 <<< "$(cpu_ticks)"
    awk -v s=$((steal1 - steal0)) -v t=$((total1 - total0)) \
        'BEGIN { printf "\nCPU time stolen by the hypervisor during this run: %.0f%%\n", t ? 100 * s / t : 0 }'
}
ticks0=$(cpu_ticks)

echo; echo "== bytes-only path"
"$bin/magpie-net-bench" compare "$work/urls.txt" "$work/run" -j "$jobs"
# What writing the bytes costs at the least, against the 10% of the fetch loop's time that a
# ratio of 0.9 leaves (nginx and this process already share the cores during the fetch).
"$bin/magpie-net-bench" floor "$work/www" "$work/run"
echo; echo "== the address policy on warm downloads"
"$bin/magpie-net-bench" policy "$work/urls.txt" "$work/run" -j "$jobs"
if [ "${1:-}" = "bytes" ]; then steal_report; exit 0; fi

echo; echo "== 256-px thumbnails of all, cold cache (3 interleaved rounds)"
rss() { awk '/Maximum resident/ {print $6}' "$1"; }
wall() { awk '/Elapsed \(wall/ {n=split($8,a,":"); s=0; for(i=1;i<=n;i++) s=s*60+a[i]; print s}' "$1"; }
for round in 1 2 3; do
    rm -rf "$work/thumbcache" "$work/fetched" "$work/tn"
    # An 8 MiB memory cache: vipsthumbnail keeps nothing, and a prefetch never reads its memory cache.
    /usr/bin/time -v "$bin/magpie" prefetch -i "$work/urls.txt" -s 256 --cache-dir "$work/thumbcache" -j "$jobs" --disk-limit 0 --memory-limit 8388608 \
        > /dev/null 2> "$work/time-magpie-$round.txt"
    /usr/bin/time -v "$bin/magpie-net-bench" raw "$work/urls.txt" "$work/fetched" -j "$jobs" > /dev/null 2> "$work/time-raw-$round.txt"
    mkdir -p "$work/tn"
    /usr/bin/time -v sh -c "ls '$work/fetched'/* | xargs -P $(nproc) -n 25 vipsthumbnail -s 256 -o '$work/tn/%s.jpg'" \
        2> "$work/time-vips-$round.txt"
    echo "round $round: magpie $(wall "$work/time-magpie-$round.txt") s, $(rss "$work/time-magpie-$round.txt") KiB;" \
        "raw fetch $(wall "$work/time-raw-$round.txt") s, $(rss "$work/time-raw-$round.txt") KiB;" \
        "vipsthumbnail $(wall "$work/time-vips-$round.txt") s, $(rss "$work/time-vips-$round.txt") KiB"
done
python3 - "$work" <<'PY'
import re, statistics, sys
w = sys.argv[1]
def field(path, key):
    for line in open(path):
        if key in line:
            v = line.split(": ", 1)[1].strip()
            if ":" in v:
                parts = [float(p) for p in v.split(":")]
                s = 0.0
                for p in parts: s = s * 60 + p
                return s
            return float(v)
m = [field(f"{w}/time-magpie-{r}.txt", "Elapsed (wall") for r in (1, 2, 3)]
b = [field(f"{w}/time-raw-{r}.txt", "Elapsed (wall") + field(f"{w}/time-vips-{r}.txt", "Elapsed (wall") for r in (1, 2, 3)]
mr = max(field(f"{w}/time-magpie-{r}.txt", "Maximum resident") for r in (1, 2, 3))
br = max(max(field(f"{w}/time-raw-{r}.txt", "Maximum resident"), field(f"{w}/time-vips-{r}.txt", "Maximum resident")) for r in (1, 2, 3))
print(f"thumbnails: magpie {statistics.median(m):.2f} s vs raw fetch + vipsthumbnail {statistics.median(b):.2f} s: "
      f"time ratio {statistics.median(m) / statistics.median(b):.2f}; peak RSS {mr / 1024:.0f} MiB vs {br / 1024:.0f} MiB")
PY

echo; echo "== warm memory-cache retrievals"
"$bin/magpie-net-bench" warm "$work/urls.txt" "$work/run"

echo; echo "== 1,000 concurrent retrievals of one URL"
target="$base/$(head -1 "$work/urls.txt" | sed 's|.*/||')?coalesce=$RANDOM$RANDOM"
before=$(grep -c "coalesce=" "$access_log" || true)
"$bin/magpie-net-bench" coalesce "$target" "$work/run" -n 1000
sleep 1  # nginx logs a request as it finalises it, which can trail the last byte the client read
origin=$(grep -c "${target#"$base"}" "$access_log" || true)
echo "origin requests for that URL in nginx's access log: $origin"
steal_report
