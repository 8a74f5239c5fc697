#!/usr/bin/env bash
# Sets up a fresh Debian machine and runs every test: C (ctest, plain, under ASan+UBSan, and from
# four threads under TSan), the installed library through pkg-config and CMake, Python ctypes,
# Swift Testing, swift-format, the example package and the fuzzers. FUZZ_SECONDS (default 45: sixteen
# harnesses, each done in 2-30 s on this machine, so the cap only binds when a machine runs slow)
# caps each fuzzer. The Swift stress tests run under ThreadSanitizer too; MAGPIE_TSAN=0 skips them.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
source scripts/lib/swiftbuild.sh
step() { printf '\n== %s (at %s)\n' "$*" "$(elapsed "$SECONDS")"; }
printf 'magpie tests: a first run builds everything in debug mode, once more under ThreadSanitizer, and runs\n'
printf 'the fuzzers: about 25 to 35 minutes on 2 cores (MAGPIE_OTLP=1: about 6 more); later runs build only what changed\n'

step "system packages"
scripts/bootstrap.sh

step "C core alone: CMake build and ctest"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_LIBDIR=lib >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
ctest --test-dir build --output-on-failure -j"$(nproc)"

step "C core's rooms: headers beside their code, a folder per format, no two rooms calling each other"
scripts/check-rooms.sh build

step "C core under AddressSanitizer and UndefinedBehaviorSanitizer (the resampler's SSE2 passes, not AVX2; libavif loaded on first use, as SwiftPM builds it)"
cmake -S . -B build-asan -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMAGPIE_SANITIZE=address,undefined \
    -DCMAKE_C_FLAGS=-DMAGPIE_NO_AVX2 -DMAGPIE_AVIF_DLOPEN=ON >/dev/null
cmake --build build-asan -j"$(nproc)" >/dev/null 2>&1
ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$PWD/Tests/c/lsan.supp \
  ctest --test-dir build-asan --output-on-failure -j"$(nproc)"

step "C core from four threads at once under ThreadSanitizer (libavif loaded by whichever decode comes first)"
# Swift's clang links ThreadSanitizer's libdispatch interceptors: they need the toolchain's
# libdispatch and BlocksRuntime.
swiftlib=$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")/lib/swift/linux
cmake -S . -B build-tsan-c -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMAGPIE_SANITIZE=thread \
    -DMAGPIE_AVIF_DLOPEN=ON "-DCMAKE_EXE_LINKER_FLAGS=-L$swiftlib -Wl,-rpath,$swiftlib -ldispatch -lBlocksRuntime" >/dev/null
cmake --build build-tsan-c -j"$(nproc)" --target test_threads >/dev/null 2>&1
TSAN_OPTIONS=halt_on_error=1 ctest --test-dir build-tsan-c --output-on-failure -R threads

step "C core without the optional codecs (WebP, AVIF, TIFF, HEIC, JPEG XL recognised, not decoded), resampler in plain C"
cmake -S . -B build-nocodec -DMAGPIE_WITH_WEBP=OFF -DMAGPIE_WITH_AVIF=OFF -DMAGPIE_WITH_TIFF=OFF -DMAGPIE_WITH_HEIF=OFF -DMAGPIE_WITH_JXL=OFF \
  -DCMAKE_C_FLAGS=-DMAGPIE_NO_SIMD >/dev/null
cmake --build build-nocodec -j"$(nproc)" >/dev/null
ctest --test-dir build-nocodec --output-on-failure -j"$(nproc)" -R 'api|codecs|corpus|resample'

step "installed library: pkg-config and find_package consumers"
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install build --prefix "$prefix" >/dev/null
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
cc -std=c11 -Wall -Wextra Tests/c/consumer/main.c $(pkg-config --cflags --libs magpie) -o "$prefix/consumer-pc"
LD_LIBRARY_PATH="$prefix/lib" "$prefix/consumer-pc"
cc -std=c11 Tests/c/consumer/main.c $(pkg-config --cflags magpie) "$prefix/lib/libmagpie.a" $(pkg-config --static --libs-only-l magpie | sed 's/-lmagpie//') -o "$prefix/consumer-static"
"$prefix/consumer-static"
cmake -S Tests/c/consumer -B "$prefix/consumer-build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$prefix/consumer-build" >/dev/null
LD_LIBRARY_PATH="$prefix/lib" "$prefix/consumer-build/consumer"

step "Python through ctypes"
MAGPIE_LIB="$root/build/libmagpie.so" python3 Tests/python/test_ctypes.py

step "layering: only Sources/MagpieImage/Core touches the C core"
outside=$(grep -rlE '^[[:space:]]*(internal |@_implementationOnly |public )?import CMagpie' Sources Tests --include='*.swift' | grep -v '^Sources/MagpieImage/Core/' || true)
if [ -n "$outside" ]; then
  printf 'import CMagpie outside Sources/MagpieImage/Core:\n%s\n' "$outside" >&2
  exit 1
fi

step "layering: only Sources/Magpie/Cache/Store/SQLite.swift touches SQLite"
outside=$(grep -rlE '^[[:space:]]*(internal |@_implementationOnly |public )?import CSQLite' Sources Tests --include='*.swift' | grep -v '^Sources/Magpie/Cache/Store/SQLite.swift$' || true)
if [ -n "$outside" ]; then
  printf 'import CSQLite outside Sources/Magpie/Cache/Store/SQLite.swift:\n%s\n' "$outside" >&2
  exit 1
fi

step "layering: Core names no Image-layer type (it speaks in its own, CoreTypes.swift)"
named=$(grep -nE '\b(Image|ImageFrame|ImageInfo|ImageFormat|DecodingOptions|EncodingFormat|PixelRect|ImageProcessor)\b' \
  Sources/MagpieImage/Core/*.swift | grep -vE '^[^:]+:[0-9]+:[[:space:]]*//' || true)
if [ -n "$named" ]; then
  printf 'Image-layer types named in Sources/MagpieImage/Core:\n%s\n' "$named" >&2
  exit 1
fi

step "docs: every relative link of README.md and docs/ resolves"
scripts/check-links.sh

step "file sizes: no Swift file over 300 lines (a type grows with Type+Concern.swift)"
long=$(find Sources Tests Examples Benchmarks Integrations -name '*.swift' -not -path '*/.build*' -exec wc -l {} + | awk '$2 != "total" && $1 > 300')
if [ -n "$long" ]; then
  printf 'Swift files over 300 lines (split them by concern):\n%s\n' "$long" >&2
  exit 1
fi

step "Swift: build, tests, format"
rm -f .build/*/debug/description.json  # a stale one makes SwiftPM fail with "unknown build description"
swift_build "Magpie and its tests in debug mode" "4 to 12" --build-tests
# The whole output is kept: on a failure, every recorded issue is printed, not just the summary.
# One test at a time: on two cores Swift's cooperative pool has two threads, and tests that block
# one (a corpus walk, a child process waited for, one that holds the pool on purpose) stalled the
# others by seconds, past a deadline or an `eventually` under test. Serial runs take about a
# minute and measure each test alone.
swift_log=$(mktemp)
# With moto's S3 server on loopback for the S3 tests (installed into a virtualenv on first use).
if ! scripts/with-moto.sh swift test --skip-build --no-parallel > "$swift_log" 2>&1; then
  grep -F '*** S3 tests skipped' "$swift_log" >&2 || true
  grep -E "recorded an issue|✘ Test [^r]|error:|Fatal error|failed \(" "$swift_log" | head -40 >&2
  tail -4 "$swift_log"
  rm -f "$swift_log"
  exit 1
fi
grep -F '*** S3 tests skipped' "$swift_log" >&2 || true
tail -4 "$swift_log"
rm -f "$swift_log"
swift format lint --strict --recursive Sources Tests Package.swift Examples Benchmarks Integrations

step "API reference: the DocC catalogs of MagpieImage, Magpie and MagpieServer, warnings as errors"
scripts/docs.sh --check

# The Swift stress tests under ThreadSanitizer compile swift-nio and AsyncHTTPClient a second time
# (minutes; docs/tests.md has the figures). Swift 6's strict concurrency checks the Swift layers as
# they compile; these check what it cannot see (locks, atomics, the C core called from every
# thread). MAGPIE_TSAN=0 skips them.
if [ "${MAGPIE_TSAN:-1}" = 1 ]; then
  step "Swift: concurrent cache stress test under ThreadSanitizer"
  rm -f .build-tsan/*/debug/description.json  # a stale one makes SwiftPM fail with "unknown build description"
  # MAGPIE_STRESS_ONLY=1: the manifest keeps only the stress tests and what they link (see the end
  # of Package.swift), so no service, Hummingbird, CLI or MagpieTests is compiled under the sanitizer.
  MAGPIE_STRESS_ONLY=1 swift_build "the stress tests under ThreadSanitizer" "3 to 8" --build-tests --sanitize=thread \
    --scratch-path .build-tsan
  # swift test does not take swift build's description of a sanitized build: it plans again (seconds).
  rm -f .build-tsan/*/debug/description.json
  MAGPIE_STRESS_ONLY=1 TSAN_OPTIONS=halt_on_error=1 swift test --sanitize=thread --scratch-path .build-tsan \
    --filter MagpieStressTests 2>&1 | tail -3
else
  printf '\n(the Swift stress tests under ThreadSanitizer are skipped: MAGPIE_TSAN=0)\n'
fi

step "MagpieVapor, a package of its own (Vapor 4): the service mounted on a Vapor app, over live HTTP"
# Into the main scratch directory too: Magpie, swift-nio and AsyncHTTPClient are reused, and Vapor
# with its own dependencies (swift-crypto, routing-kit, multipart-kit…) is compiled once, about 3
# minutes here, which the example package's Vapor app below then reuses.
rm -f .build/*/debug/description.json
swift build --package-path Integrations/MagpieVapor --scratch-path .build --build-tests 2>&1 | tail -1
swift test --package-path Integrations/MagpieVapor --scratch-path .build --skip-build 2>&1 | tail -1

step "Swift package that depends on Magpie by path"
# Built into the main scratch directory, so Magpie and its dependencies compiled above are reused
# (a separate one would compile AsyncHTTPClient and swift-nio again, about six minutes here).
rm -f .build/*/debug/description.json  # the main package's; a stale one fails with "no target named"
swift run --package-path Examples/thumbnailer --scratch-path .build thumbnailer 2>&1 | tail -1
# Its test uses the MagpieLoopback product, as an application's tests would.
swift test --package-path Examples/thumbnailer --scratch-path .build 2>&1 | tail -1

step "magpie-server exporting traces over OTLP to a collector on loopback"
# The export bodies are decoded with OpenTelemetry's own protobuf classes (opentelemetry-proto,
# installed into a virtualenv on first use); where it cannot be installed, with the test's own
# wire-format decoder, and a line says so.
otlp_venv=.build/otlp-venv
if [ ! -x "$otlp_venv/bin/python" ] || ! "$otlp_venv/bin/python" -c 'import opentelemetry.proto' 2>/dev/null; then
  python3 -m venv "$otlp_venv" >/dev/null 2>&1 && "$otlp_venv/bin/pip" install -q opentelemetry-proto >/dev/null 2>&1 \
    || printf '*** opentelemetry-proto could not be installed: the OTLP test decodes with its own decoder\n' >&2
fi
otlp_python=python3
"$otlp_venv/bin/python" -c 'import opentelemetry.proto' 2>/dev/null && otlp_python=$otlp_venv/bin/python
"$otlp_python" Tests/otlp/test_otlp.py .build/debug/magpie-server
# swift-otel (and swift-protobuf), behind the package trait OTLP, is a build of its own, about 10
# minutes from nothing here: MAGPIE_OTLP=1 builds magpie-server with it and runs the same test
# with --otel-sdk swift-otel.
if [ "${MAGPIE_OTLP:-0}" = 1 ]; then
  step "magpie-server with swift-otel (the OTLP trait): the same test"
  rm -f .build-otlp/*/debug/description.json
  swift build --traits OTLP --product magpie-server --scratch-path .build-otlp 2>&1 | tail -1
  "$otlp_python" Tests/otlp/test_otlp.py .build-otlp/debug/magpie-server --otel-sdk swift-otel
else
  printf '\n(the same test with swift-otel is skipped: MAGPIE_OTLP=1 runs it)\n'
fi

step "fuzzers (fixed seed and input count, at most ${FUZZ_SECONDS:-45}s each)"
FUZZ_SECONDS=${FUZZ_SECONDS:-45} scripts/fuzz.sh

printf '\nall tests passed in %s\n' "$(elapsed "$SECONDS")"
