#!/usr/bin/env bash
# Builds the libFuzzer harnesses (clang -fsanitize=fuzzer,address,undefined) and runs each for
# FUZZ_SECONDS (default 60), seeded from ../shared/corpus when it is there.
# Usage: scripts/fuzz.sh [probe|jpeg|png|gif ...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
out=build-fuzz
mkdir -p "$out"
cc=${CC_FUZZ:-clang}
flags=(-g -O1 -std=c11 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -Iinclude -D_DEFAULT_SOURCE)
libs=(-lturbojpeg -ljpeg -lpng16 -lgif -lz -lm)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(probe jpeg png gif)
corpus=../shared/corpus
for t in "${targets[@]}"; do
  case $t in
    probe) src=Tests/fuzz/fuzz_probe.c; def=(); seeds=(jpeg png gif other bad) ;;
    jpeg) src=Tests/fuzz/fuzz_decode.c; def=(-DMAGPIE_FUZZ_FORMAT=MAGPIE_FORMAT_JPEG); seeds=(jpeg bad/jpeg) ;;
    png) src=Tests/fuzz/fuzz_decode.c; def=(-DMAGPIE_FUZZ_FORMAT=MAGPIE_FORMAT_PNG); seeds=(png bad/png) ;;
    gif) src=Tests/fuzz/fuzz_decode.c; def=(-DMAGPIE_FUZZ_FORMAT=MAGPIE_FORMAT_GIF); seeds=(gif bad/gif) ;;
    *) echo "fuzz.sh: unknown target $t" >&2; exit 2 ;;
  esac
  bin=$out/fuzz_$t
  "$cc" "${flags[@]}" "${def[@]}" "$src" CSources/*.c "${libs[@]}" -o "$bin" 2>"$out/build_$t.log" \
    || { cat "$out/build_$t.log"; exit 1; }
  work=$out/corpus_$t
  mkdir -p "$work"
  if [ -d "$corpus" ]; then
    for s in "${seeds[@]}"; do
      find "$corpus/$s" -type f -size -256k -exec cp -n {} "$work/" \; 2>/dev/null || true
    done
  else
    echo "fuzz.sh: corpus absent, starting $t from nothing" >&2
  fi
  echo "fuzz.sh: $t for ${seconds}s"
  "$bin" "$work" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=262144 \
    -print_final_stats=1 2>"$out/$t.log" || { tail -40 "$out/$t.log"; echo "fuzz.sh: $t FAILED" >&2; exit 1; }
  grep -E "stat::number_of_executed_units|Done" "$out/$t.log" | tail -2
done
