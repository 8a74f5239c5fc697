#!/usr/bin/env bash
# Revalidation benchmark (issue 14). nginx (Debian's package) serves the 1,000-image set of
# bench-net.sh with `expires epoch` (Cache-Control: no-cache): every cached entry is stale at once
# and is revalidated before each use. With 256-px thumbnails of all 1,000 in the disk cache, the
# same run times, in interleaved rounds:
#   - revalidating them all: `magpie prefetch -s 256` (1,000 conditional requests answered 304;
#     the entries are renewed, nothing is downloaded, decoded or resized);
#   - refetching them all: the same with --force-refresh (download, decode, resize, store);
# and counts the bytes nginx sent for each (status lines, headers and bodies, from its access log).
#   scripts/bench-revalidate.sh          ROUNDS (default 5) and JOBS (default 8) from the environment
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/netbench.sh
. scripts/lib/netbench.sh
netbench_prepare
rounds=${ROUNDS:-5}
mkdir -p "$work"
rm -f .build-bench/*/release/description.json  # a stale one makes SwiftPM fail with "unknown build description"
swift build -c release --static-swift-stdlib --product magpie --scratch-path .build-bench 2>&1 | tail -1
bin=.build-bench/release

netbench_images "$work/www"
netbench_nginx "$work" "expires epoch;"
ls "$work/www" | grep -v '^\.' | sed "s|^|$base/|" > "$work/urls.txt"
echo "nginx on $base serving $(wc -l < "$work/urls.txt") images ($(du -sh "$work/www" | cut -f1)) with" \
    "'expires epoch' (no-cache), $jobs requests at a time"

cache=$work/revalidate-cache
rm -rf "$cache"
run() {  # run NAME [flags...]: one prefetch of all, its JSON, wall time and the bytes nginx sent
    local name=$1
    shift
    local mark
    mark=$(wc -l < "$access_log")
    /usr/bin/time -f %e -o "$work/$name.time" "$bin/magpie" prefetch -i "$work/urls.txt" -s 256 \
        --cache-dir "$cache" -j "$jobs" --disk-limit 0 --memory-limit 8388608 --json "$@" > "$work/$name.json"
    # nginx logs a request as it finalises it, which can trail the last byte the client read.
    local want=$((mark + 1000))
    for _ in $(seq 50); do [ "$(wc -l < "$access_log")" -ge "$want" ] && break; sleep 0.1; done
    tail -n +$((mark + 1)) "$access_log" | awk '{n++; s += $2; if ($1 == 304) m++} END {print n, s, m + 0}' \
        > "$work/$name.sent"
}
run cold
echo "cold: $(cat "$work/cold.time") s, $(cut -d' ' -f2 "$work/cold.sent") bytes sent"
for r in $(seq "$rounds"); do
    run "revalidate-$r"
    run "refetch-$r" --force-refresh
    echo "round $r: revalidate $(cat "$work/revalidate-$r.time") s, $(cut -d' ' -f2 "$work/revalidate-$r.sent") bytes" \
        "($(cut -d' ' -f3 "$work/revalidate-$r.sent") answered 304); refetch $(cat "$work/refetch-$r.time") s," \
        "$(cut -d' ' -f2 "$work/refetch-$r.sent") bytes"
done
python3 - "$work" "$rounds" <<'PY'
import json, statistics, sys
w, rounds = sys.argv[1], int(sys.argv[2])
def t(name): return float(open(f"{w}/{name}.time").read().split()[-1])
def sent(name): return [int(x) for x in open(f"{w}/{name}.sent").read().split()]
for r in range(1, rounds + 1):
    j = json.load(open(f"{w}/revalidate-{r}.json"))
    assert j["not_modified"] == 1000 and j["failed"] == 0 and j["received"] == 0, j
    assert sent(f"revalidate-{r}")[2] == 1000, sent(f"revalidate-{r}")
rt = statistics.median(t(f"revalidate-{r}") for r in range(1, rounds + 1))
ft = statistics.median(t(f"refetch-{r}") for r in range(1, rounds + 1))
rb = statistics.median(sent(f"revalidate-{r}")[1] for r in range(1, rounds + 1))
fb = statistics.median(sent(f"refetch-{r}")[1] for r in range(1, rounds + 1))
print(f"revalidating 1,000 stale thumbnails vs refetching them (medians of {rounds} interleaved rounds):")
print(f"  bytes nginx sent: {rb:.0f} vs {fb:.0f}: ratio {rb / fb:.4f} (target <= 0.02)")
print(f"  wall time: {rt:.2f} s vs {ft:.2f} s: ratio {rt / ft:.3f} (target <= 0.3)")
PY
