#!/usr/bin/env bash
# In-process thumbnails (issue 15, first part): 256-px thumbnails of a generated 4000x3000
# baseline JPEG from bytes in memory, JPEG q85 out, one thread:
#   libmagpie's C API (default, and MAGPIE_DECODE_FAST), libvips 8.14 (vips_thumbnail_buffer +
#   vips_jpegsave_buffer, operation cache off) (Benchmarks/thumbbench.c), Pillow (draft +
#   thumbnail, and thumbnail alone) (Benchmarks/bench_pillow.py):
#   - instructions per thumbnail under callgrind (n=1 and n=3 runs subtracted, so start-up
#     cancels): on a shared machine the stable figure;
#   - thumbnails per second, each side timed inside its process, sides interleaved over ROUNDS
#     (default 7) rounds, medians;
#   - PSNR against Pillow's LANCZOS resize of the full decode.
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
    -Wl,-rpath,"$(pwd)/build-bench" $(pkg-config --libs vips) -lm -o "$work/thumbbench"
if [ ! -f "$work/p4000.jpg" ]; then
    python3 - "$work/p4000.jpg" <<'PY'
import random, sys
from PIL import Image, ImageDraw, ImageFilter
rng = random.Random(3)
w, h = 4000, 3000
im = Image.blend(Image.effect_noise((w, h), 70).convert("RGB"), Image.linear_gradient("L").resize((w, h)).convert("RGB"), 0.5)
d = ImageDraw.Draw(im)
for _ in range(80):
    x, y, r = rng.randrange(w), rng.randrange(h), rng.randrange(30, 600)
    d.ellipse((x - r, y - r, x + r, y + r), fill=(rng.randrange(256), rng.randrange(256), rng.randrange(256)))
im.filter(ImageFilter.GaussianBlur(0.5)).save(sys.argv[1], quality=90)
PY
fi
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

rounds=${ROUNDS:-7}
: > "$work/rates.txt"
for r in $(seq "$rounds"); do
    for side in magpie magpie-fast vips; do
        echo "$side $("$work/thumbbench" rate "$side" "$work/p4000.jpg" 10)" >> "$work/rates.txt"
    done
    for recipe in draft plain; do
        echo "pillow-$recipe $(python3 Benchmarks/bench_pillow.py rate "$work/p4000.jpg" 10 "$recipe")" >> "$work/rates.txt"
    done
done
python3 - "$work/rates.txt" <<'PY'
import statistics, sys
rates = {}
for line in open(sys.argv[1]):
    side, value = line.split()
    rates.setdefault(side, []).append(float(value))
m = {side: statistics.median(v) for side, v in rates.items()}
print(f"thumbnails per second, medians of {len(rates['magpie'])} interleaved rounds of 10: " +
      ", ".join(f"{side} {value:.1f}" for side, value in m.items()))
print(f"  magpie / libvips {m['magpie'] / m['vips']:.2f} (target >= 1.2); "
      f"magpie fast / Pillow draft + thumbnail {m['magpie-fast'] / m['pillow-draft']:.2f} (target >= 1.0); "
      f"magpie / Pillow thumbnail {m['magpie'] / m['pillow-plain']:.2f}")
PY
for side in magpie magpie-fast vips; do "$work/thumbbench" write "$side" "$work/p4000.jpg" "$work/$side.png"; done
echo "PSNR against Pillow's LANCZOS of the full decode:"
python3 Benchmarks/bench_pillow.py psnr "$work/p4000.jpg" 256 "$work/magpie.png" "$work/magpie-fast.png" "$work/vips.png"
