#!/usr/bin/env bash
# In-process 256-px thumbnails from bytes in memory, JPEG q85 out, on generated inputs:
#   libmagpie's C API (default, and MAGPIE_DECODE_FAST), libvips 8.14 (vips_thumbnail_buffer +
#   vips_jpegsave_buffer, operation cache off) (Benchmarks/thumbbench.c), Pillow (draft +
#   thumbnail, and thumbnail alone) (Benchmarks/bench_pillow.py):
#   - instructions per thumbnail of the 4000x3000 baseline JPEG under callgrind (n=1 and n=3 runs
#     subtracted, so start-up cancels): on a shared machine the stable figure;
#   - then over every case of Benchmarks/bench_inprocess.py (web-size, 2048x1536, 4000x3000 and
#     progressive 6000x4000 JPEGs, an RGBA PNG, a 12 Mpx PNG, a 50-frame GIF, 50 small JPEGs), one and
#     two threads: thumbnails per second, each side timed inside its process, sides interleaved over ROUNDS
#     (default 5) rounds, medians; peak RSS; PSNR against Pillow's LANCZOS of the full decode.
#   - then the processors (Benchmarks/procbench.c, bench_process.py): gaussian blur sigma 5, sharpen,
#     rotations, flip and composite of a 2048x1536 RGBA image against libvips, time ratios.
#   (`scripts/bench-inprocess.sh processors` runs only that part.)
# Needs libvips-dev, valgrind and Pillow (scripts/bootstrap.sh --bench installs them).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh --bench
python3 -c "import PIL" 2>/dev/null || python3 -m pip install --quiet pillow
work=${BENCH_DIR:-/tmp/magpie-inprocess-bench}
mkdir -p "$work"
cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-bench -j"$(nproc)" >/dev/null
cc -O2 -Iinclude -DHAVE_VIPS $(pkg-config --cflags vips) Benchmarks/thumbbench.c -Lbuild-bench -lmagpie \
    -Wl,-rpath,"$(pwd)/build-bench" $(pkg-config --libs vips) -lm -lpthread -o "$work/thumbbench"
# The processors (blur, sharpen, rotations, flip, composite) against libvips, one and two threads.
processors() {
    cc -O2 -Iinclude -DHAVE_VIPS $(pkg-config --cflags vips) Benchmarks/procbench.c -Lbuild-bench -lmagpie \
        -Wl,-rpath,"$(pwd)/build-bench" $(pkg-config --libs vips) -lm -lpthread -o "$work/procbench"
    python3 Benchmarks/bench_process.py "$work/procbench" "${ROUNDS:-5}"
}
if [ "${1:-}" = processors ]; then  # scripts/bench-inprocess.sh processors: only this part
    processors
    exit 0
fi
python3 Benchmarks/bench_inprocess.py inputs "$work"
instructions() {  # instructions SIDE N
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$work/thumbbench" "$1" "$work/p4000.jpg" "$2" 2>&1 |
        awk '/Collected/ {print $4}'
}
declare -A per
for side in magpie magpie-fast vips; do
    one=$(instructions "$side" 1)
    three=$(instructions "$side" 3)
    per[$side]=$(((three - one) / 2))
done
awk -v m="${per[magpie]}" -v f="${per[magpie-fast]}" -v v="${per[vips]}" 'BEGIN {
    printf "instructions per 256-px thumbnail of a 4000x3000 JPEG: magpie %.1f M, magpie fast %.1f M, libvips %.1f M\n",
        m / 1e6, f / 1e6, v / 1e6
    printf "  ratio against libvips: %.3f (target <= 0.85), fast %.3f\n", m / v, f / v }'

# Every case, one and two threads, sides interleaved round by round.
python3 Benchmarks/bench_inprocess.py run "$work" "$work/thumbbench" "${ROUNDS:-5}"

processors
