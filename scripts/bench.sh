#!/usr/bin/env bash
# Release-mode benchmark beside vipsthumbnail and djpeg (and dwebp, cwebp, avifdec for WebP and
# AVIF), in one run. Installs the baselines
# (libvips-tools, libjpeg-turbo-progs) and Pillow/numpy for input generation and PSNR.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh --bench
python3 -c "import PIL, numpy" 2>/dev/null || python3 -m pip install --quiet pillow numpy
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build build -j"$(nproc)" >/dev/null
rm -f .build-bench/*/release/description.json  # a stale one makes SwiftPM fail with "unknown build description"
swift build -c release --static-swift-stdlib --product magpie --scratch-path .build-bench 2>&1 | tail -1
bin=.build-bench/release/magpie
python3 Benchmarks/bench.py "$bin" "${BENCH_DIR:-/tmp/magpie-bench}"
printf '\n== WebP and AVIF\n'
python3 Benchmarks/bench_codecs.py "$bin" "${BENCH_DIR:-/tmp/magpie-bench}"
printf '\n== HEIC, JPEG XL, TIFF and SVG (libraries loaded on first use)\n'
python3 Benchmarks/bench_formats.py "$bin" "${BENCH_DIR:-/tmp/magpie-bench}"
printf '\n== Smart crop (attention), whole process and through the service\n'
rm -f .build-bench/*/release/description.json
swift build -c release --static-swift-stdlib --product magpie-server --scratch-path .build-bench 2>&1 | tail -1
python3 Benchmarks/bench_smartcrop.py "$bin" .build-bench/release/magpie-server "${BENCH_DIR:-/tmp/magpie-bench}"
printf '\n== AVIF output against vips (libheif), equal SSIM\n'
python3 Benchmarks/bench_avif.py "$bin" "${BENCH_DIR:-/tmp/magpie-bench}"
python3 Benchmarks/bench_jxl.py "$bin" "${BENCH_DIR:-/tmp/magpie-bench}"
python3 Benchmarks/bench_animation.py "$bin" "${BENCH_DIR:-/tmp/magpie-bench}"
