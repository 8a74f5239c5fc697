#!/usr/bin/env bash
# Peak memory of `magpie fetch -j 8 -s 256` over six small files that each ask a decoder for about
# a gigabyte (scripts/make-hostile-images.py), side by side in one run: without a decode budget
# (each decode bounded only by its own 1 GiB limit, as before the budget existed), with the
# default budget (a quarter of the process's memory), and with a 1 GiB budget. Medians of ROUNDS
# (default 3) interleaved rounds; peak RSS from GNU time, and the ratios against the first side.
# Needs GNU time (scripts/bootstrap.sh --bench).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${BENCH_DIR:-/tmp/magpie-hostile-bench}
rounds=${ROUNDS:-3}
[ -d "$dir/in" ] || python3 scripts/make-hostile-images.py "$dir/in" >/dev/null
rm -f .build/release/description.json
swift build -c release --product magpie 2>&1 | tail -1
bin=.build/release/magpie
sides=(none default 1GiB)
declare -A rss secs
for ((r = 0; r < rounds; r++)); do
  for side in "${sides[@]}"; do
    case $side in
      none) flag=(--decode-memory 0) ;;
      default) flag=() ;;
      1GiB) flag=(--decode-memory 1073741824) ;;
    esac
    rm -rf "$dir/cache"
    out=$( { /usr/bin/time -f "%M %e" "$bin" fetch "$dir"/in/* -j 8 -s 256 --cache-dir "$dir/cache" "${flag[@]}" \
      >/dev/null 2>"$dir/stderr-$side" || true; } 2>&1 | tail -1)
    out=$(tail -1 "$dir/stderr-$side")
    rss[$side]+="${out% *} "
    secs[$side]+="${out#* } "
  done
done
median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
base=$(echo "${rss[none]}" | median)
printf '%-8s %12s %8s %10s\n' side "peak RSS MB" seconds "RSS ratio"
for side in "${sides[@]}"; do
  m=$(echo "${rss[$side]}" | median)
  s=$(echo "${secs[$side]}" | median)
  awk -v side="$side" -v m="$m" -v s="$s" -v b="$base" 'BEGIN {printf "%-8s %12.0f %8.2f %10.2f\n", side, m / 1024, s, m / b}'
done
