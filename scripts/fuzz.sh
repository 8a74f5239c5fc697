#!/usr/bin/env bash
# Builds the libFuzzer harnesses (clang -fsanitize=fuzzer,address,undefined) and runs each from
# ../shared/corpus (when it is there) with a fixed seed and a fixed number of inputs, so a CI run is
# reproducible; FUZZ_SECONDS (default 60) caps each run's time. For open-ended fuzzing set
# FUZZ_RUNS=-1 (no input count) and a larger FUZZ_SECONDS.
# The url target is Swift: URL normalisation and redirect resolution (WebURL.swift), built with
# swiftc -sanitize=fuzzer,address from the module's own files, seeded with URLs written below.
# The path target is Swift too: the service's request-target parser (ServicePath.swift), built
# the same way, checking its promises and its `%3A` decoding against string replacement.
# The process target feeds raw parameters (NaN, infinities, huge and negative values) to every
# pixel processor over small images made from the input; it needs no seeds.
# The icc target builds colour-profile transforms from the input (raw, or written over real
# profiles lcms2 makes) and decodes a JPEG that carries it.
# The animation target reads any image a frame at a time and encodes the frames as an animated WebP
# and GIF, then decodes both and checks the frame count and size (the round trip).
# The encode target makes pixels and settings from the input and round-trips them through the JPEG XL
# encoder (lossy and lossless), PNG palettes and WebP presets, checking sizes, lossless samples and
# the palette's colour count.
# The resume target is Swift: the rules for continuing a cut body (ResumableBody.swift), judging a
# cut answer's head and a continuation's `Content-Range`, validator and length.
# The thumbor target is Swift: thumbor's URL grammar and geometry (ThumborPath.swift and the files
# beside it), the thumborpixels target thumbor's pixel arithmetic (ThumborPixels*.swift, its curve
# and colour readers), and the thumborconf target the thumbor.conf reader (Sources/magpie-server/Thumbor/).
# A crash a fix holds is kept as a seed in Tests/fuzz/crashes/<target>/; findings are written to
# build-fuzz/ (ignored), never to the top of the repository.
# Usage: scripts/fuzz.sh [probe|jpeg|png|gif|webp|avif|bmp|ico|tiff|heic|jxl|svg|process|icc|animation|encode|url|path|resume|thumbor|thumborpixels|thumborconf ...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
out=build-fuzz
mkdir -p "$out"
cc=${CC_FUZZ:-clang}
flags=(-g -O1 -std=c11 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -Iinclude -ICSources -D_DEFAULT_SOURCE
  -DMAGPIE_HAVE_WEBP=1 -DMAGPIE_HAVE_AVIF=1 -DMAGPIE_HAVE_TIFF=1 -DMAGPIE_HAVE_HEIF=1 -DMAGPIE_HAVE_JXL=1
  -DMAGPIE_HAVE_IMAGEQUANT=1)
libs=(-lturbojpeg -ljpeg -lpng16 -lgif -lwebpdemux -lwebpmux -lwebp -lavif -llcms2 -lz -lm -ldl -lpthread)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(probe jpeg png gif webp avif bmp ico tiff heic jxl svg process icc animation encode url path resume thumbor thumborpixels thumborconf)
corpus=../shared/corpus
# The C core is compiled once for every C harness (they differ only in their own file), two files
# at a time.
objects=$out/objects
build_core() {
  [ -n "${core_built:-}" ] && return
  rm -rf "$objects"; mkdir -p "$objects"
  find CSources -name '*.c' | xargs -P "$(nproc)" -I{} sh -c \
    "$cc ${flags[*]} -c {} -o $objects/\$(basename {} .c).o 2>>$out/build_core.log" \
    || { cat "$out/build_core.log"; exit 1; }
  core_built=1
}
more=../shared/corpus-webp-avif  # its folders are seeds too (webp/, avif/, bad/)
fixtures=$PWD/Tests/fixtures/formats  # the format fixtures (committed, so there without the corpus)
for t in "${targets[@]}"; do
  case $t in
    probe) src=Tests/fuzz/fuzz_probe.c; def=(); seeds=(jpeg png gif other bad "$more/webp" "$more/avif" "$more/bad"); runs=300000 ;;
    jpeg) src=Tests/fuzz/fuzz_decode.c; def=(-DMAGPIE_FUZZ_FORMAT=MAGPIE_FORMAT_JPEG); seeds=(jpeg bad/jpeg); runs=3000 ;;
    png) src=Tests/fuzz/fuzz_decode.c; def=(-DMAGPIE_FUZZ_FORMAT=MAGPIE_FORMAT_PNG); seeds=(png bad/png); runs=40000 ;;
    gif) src=Tests/fuzz/fuzz_decode.c; def=(-DMAGPIE_FUZZ_FORMAT=MAGPIE_FORMAT_GIF); seeds=(gif bad/gif); runs=3000 ;;
    webp) src=Tests/fuzz/fuzz_decode.c; def=(-DMAGPIE_FUZZ_FORMAT=MAGPIE_FORMAT_WEBP); seeds=("$more/webp" "$more/bad/webp"); runs=10000 ;;
    avif) src=Tests/fuzz/fuzz_decode.c; def=(-DMAGPIE_FUZZ_FORMAT=MAGPIE_FORMAT_AVIF); seeds=("$more/avif" "$more/bad/avif"); runs=2000 ;;
    bmp) src=Tests/fuzz/fuzz_decode.c; def=(-DMAGPIE_FUZZ_FORMAT=MAGPIE_FORMAT_BMP); seeds=(other bad/other "$fixtures"); runs=5000 ;;
    tiff) src=Tests/fuzz/fuzz_decode.c; def=(-DMAGPIE_FUZZ_FORMAT=MAGPIE_FORMAT_TIFF); seeds=(other bad/other "$fixtures"); runs=15000 ;;
    heic) src=Tests/fuzz/fuzz_decode.c; def=(-DMAGPIE_FUZZ_FORMAT=MAGPIE_FORMAT_HEIC); seeds=(other bad/other "$fixtures"); runs=10000 ;;
    jxl) src=Tests/fuzz/fuzz_decode.c; def=(-DMAGPIE_FUZZ_FORMAT=MAGPIE_FORMAT_JXL); seeds=("$fixtures"); runs=20000 ;;
    svg) src=Tests/fuzz/fuzz_decode.c; def=(-DMAGPIE_FUZZ_FORMAT=MAGPIE_FORMAT_SVG); seeds=(other "$fixtures"); runs=10000 ;;
    ico) src=Tests/fuzz/fuzz_decode.c; def=(-DMAGPIE_FUZZ_FORMAT=MAGPIE_FORMAT_ICO); seeds=(other bad/other "$fixtures"); runs=20000 ;;
    process) src=Tests/fuzz/fuzz_process.c; def=(); seeds=(); runs=100000 ;;
    animation) src=Tests/fuzz/fuzz_animation.c; def=(); seeds=(gif "$more/webp" "$more/avif"); runs=5000 ;;
    encode) src=Tests/fuzz/fuzz_encode.c; def=(); seeds=(); runs=12000 ;;
    icc) src=Tests/fuzz/fuzz_icc.c; def=(-ICSources); seeds=(); runs=8000 ;;
    url | path | resume | thumbor | thumborpixels | thumborconf) ;;
    *) echo "fuzz.sh: unknown target $t" >&2; exit 2 ;;
  esac
  bin=$out/fuzz_$t
  work=$out/corpus_$t
  rm -rf "$work"  # start from the seeds every time: the same inputs on every machine
  mkdir -p "$work"
  if [[ " url path resume thumbor thumborpixels thumborconf " == *" $t "* ]]; then
    if [ "$t" = url ]; then
      net=Sources/Magpie/Networking
      sources=("$net/WebURL.swift" "$net/ImageDownloadError.swift" "$net/DataLoading.swift")
      seeds=('http://a.example/x\n/y' 'HTTPS://B.Example:443/p?q#f\n//c.example:8080/'
        'http://127.0.0.1:99999/\nfile:///etc/passwd' 'http://[::1]:70000/\nhttp://u:p@d.example:65535/'
        'http://h:/a\n../../b?c' 'http://x.example/\nftp://y/' 'http://%41.example/\n\\\\evil')
      runs=${FUZZ_RUNS:-200000}
    elif [ "$t" = resume ]; then
      net=Sources/Magpie/Networking
      sources=("$net/ResumableBody.swift" "$net/DataLoading.swift" "$net/HTTPDate.swift" "$net/HTTPCacheHeaders.swift"
        "$net/ImageDownloadError.swift" "$net/ResponseValidators.swift")
      seeds=('ETag: "a"\nAccept-Ranges: bytes\nContent-Length: 4000\n\nContent-Range: bytes 800-3999/4000\nETag: "a"\n2\xc8'
        'Last-Modified: Sun, 29 Nov 2026 09:00:00 GMT\nDate: Sun, 29 Nov 2026 10:00:00 GMT\nAccept-Ranges: none, bytes\n\nContent-Range: BYTES 160-4095/4096\nLast-Modified: Sun, 29 Nov 2026 09:00:00 GMT\n\n\xf6'
        'ETag: W/"a"\nAccept-Ranges: bytes\n\nContent-Range: bytes 16-31/*\n\x01\x01'
        'ETag: "a"\nAccept-Ranges: bytes\nContent-Encoding: identity, gzip\n\nContent-Range: bytes 16-15/16\n\x01\x00')
      runs=${FUZZ_RUNS:-200000}
    elif [ "$t" = thumbor ]; then
      th=Sources/MagpieServer/Thumbor
      sources=("$th/ThumborPath.swift" "$th/ThumborPathMatcher.swift" "$th/ThumborQuoting.swift" "$th/ThumborGeometry.swift"
        "$th/ThumborGeometry+Planner.swift" Sources/MagpieServer/ServiceError.swift)
      # Each input's first six bytes size the source and MAX_WIDTH/MAX_HEIGHT; the rest is the path.
      seeds=('\x03\x20\x02\x58\x00\x00/unsafe/300x200/smart/example.com/a.jpg'
        '\x01\x00\x10\x00\x41\x43/AbCdEfGhIjKlMnOpQrStUvWxYz0=/trim:top-left:10/10x20:300x400/adaptive-full-fit-in/-0x-orig/right/bottom/filters:fill(blur):format(webp)/a%20b.png'
        '\x00\x00\x00\x00\x00\x00/meta/fit-in/99999999999x1/http%3A%2F%2Fh%2Fi.gif?x=1'
        '\xff\xff\x00\x01\xff\xff/unsafe/0x0:0x0/orig/%zz%C3%A9/')
      runs=${FUZZ_RUNS:-40000}
    elif [ "$t" = thumborpixels ]; then
      th=Sources/MagpieServer/Thumbor
      sources=("$th/ThumborPixels.swift" "$th/ThumborPixels+Convolution.swift" "$th/ThumborPixels+Canvas.swift"
        "$th/ThumborCurve.swift" "$th/ThumborColor.swift")
      # Twelve bytes pick the operation, the image's size and the arguments; then pixels, then text.
      seeds=('\x08\x03\x03\x00\x00\x00\x00\x00\x00\x00\x00\x00[(0,0),(40,59),(255,255)]'
        '\x06\x0f\x0f\x7f\xf0\x00\x00\x00\x00\x00\x00\x13' '\x0b\x02\x05\x09\xff\x80\x7f\x01\x00\x00\x00\x05'
        '\x09\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00SkyBlue' '\x02\x01\x01\x7f\xf8\x00\x00\x00\x00\x00\x01\x00')
      runs=${FUZZ_RUNS:-300000}
    elif [ "$t" = thumborconf ]; then
      th=Sources/magpie-server/Thumbor
      sources=("$th/ThumborConfFile.swift" "$th/ThumborConfLexer.swift" "$th/ThumborConfStrings.swift"
        "$th/ThumborConfParser.swift" "$th/ThumborConfArithmetic.swift" "$th/ThumborConfPaths.swift")
      seeds=("from os.path import expanduser, join\nMAX_AGE = 60 * 60 * 24\nFILE_LOADER_ROOT_PATH = join(expanduser('~'), 'img')\n"
        "ALLOWED_SOURCES = ['a.com', r'^b\\\\.', (1, 2.5e3, -0x1F)]\nX = {'k': None, 'v': [True, False]}\n"
        "Q = 2 ** 64 // 3 % 7\nS = 'a' 'b' \"\"\"c\\nd\"\"\" b'x'\nT = ('x',)\n"
        "A = (\n  1 +\n  2  # c\n)\nB = A * -A\nC = 'x' * 3\n")
      runs=${FUZZ_RUNS:-100000}
    else
      srv=Sources/MagpieServer
      sources=("$srv/ServicePath.swift" "$srv/ServiceError.swift" "$srv/PathRules.swift" "$srv/SourceReplacement.swift")
      seeds=('/sig/rs:fit:300:200/q%3A80/plain/http%3A%2F%2Fa.example%2Fb.jpg@webp?x=1'
        '/sig/w:10/aHR0cDovL2EuZXhhbXBsZS9iLmpwZw.png' '/sig/plain/http:/a.example/b.jpg' '/%3a%3A%3/x:%'
        '/sig/aHR0c/DovL2/EuZXhh.jpeg' '/s/plain/%zz@we-bp' '\xdc\x8f,/ai' '/\xdc\x8f/w:1/\xcc\x81plain/x')
      runs=${FUZZ_RUNS:-100000}
    fi
    swiftc -sanitize=fuzzer,address -parse-as-library -package-name magpie -O "${sources[@]}" "Tests/fuzz/fuzz_$t.swift" -o "$bin" \
      2>"$out/build_$t.log" || { cat "$out/build_$t.log"; exit 1; }
    i=0
    for seed in "${seeds[@]}"; do
      i=$((i + 1))
      printf '%b' "$seed" >"$work/seed$i"  # backslash escapes only: a % in a seed is a %
    done
    # Crashes a fix holds are seeds too (Tests/fuzz/crashes/<target>/).
    [ -d "Tests/fuzz/crashes/$t" ] && cp Tests/fuzz/crashes/"$t"/* "$work/"
    echo "fuzz.sh: $t, seed ${FUZZ_SEED:-1}, $runs inputs, at most ${seconds}s"
    SWIFT_BACKTRACE=enable=no "$bin" "$work" -seed="${FUZZ_SEED:-1}" -runs="$runs" -max_total_time="$seconds" \
      -artifact_prefix="$out/" \
      -timeout=10 -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1 2>"$out/$t.log" \
      || { tail -40 "$out/$t.log"; echo "fuzz.sh: $t FAILED" >&2; exit 1; }
    grep -E "stat::number_of_executed_units|Done" "$out/$t.log" | tail -2
    continue
  fi
  build_core
  "$cc" "${flags[@]}" "${def[@]}" "$src" "$objects"/*.o "${libs[@]}" -o "$bin" 2>"$out/build_$t.log" \
    || { cat "$out/build_$t.log"; exit 1; }
  [ -d "$corpus" ] || echo "fuzz.sh: corpus absent, starting $t from the committed fixtures or nothing" >&2
  for s in ${seeds[@]+"${seeds[@]}"}; do
    case $s in ../* | /*) d=$s ;; *) d=$corpus/$s ;; esac
    [ -d "$d" ] && find "$d" -type f -size -256k -exec cp -n {} "$work/" \; 2>/dev/null || true
  done
  runs=${FUZZ_RUNS:-$runs}
  echo "fuzz.sh: $t, seed ${FUZZ_SEED:-1}, $runs inputs, at most ${seconds}s"
  [ -d "Tests/fuzz/crashes/$t" ] && cp Tests/fuzz/crashes/"$t"/* "$work/"
  LSAN_OPTIONS=suppressions=$PWD/Tests/c/lsan.supp "$bin" "$work" -seed="${FUZZ_SEED:-1}" -runs="$runs" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=262144 \
    -artifact_prefix="$out/" \
    -print_final_stats=1 2>"$out/$t.log" || { tail -40 "$out/$t.log"; echo "fuzz.sh: $t FAILED" >&2; exit 1; }
  grep -E "stat::number_of_executed_units|Done" "$out/$t.log" | tail -2
done
