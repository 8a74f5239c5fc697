"""WebP and AVIF, whole process, side by side in one run (issue 13's targets):
- a 2048x1536 lossy WebP to a 256-px thumbnail, against vipsthumbnail (time and working set);
- full WebP decode to PPM against dwebp -ppm;
- full AVIF decode against avifdec (one thread, the same dav1d), both writing uncompressed output:
  magpie a PPM, avifdec a PNG at --png-compress 0 (avifdec writes no PPM);
- WebP encoding of a 256-px thumbnail (read from PNG) against cwebp at the same quality and method.
Also the thumbnail's PSNR against Pillow's LANCZOS of the full decode.
Usage: python3 Benchmarks/bench_codecs.py MAGPIE_BINARY WORKDIR
"""
import math
import os
import subprocess
import sys

import numpy as np
from PIL import Image

from benchlib import Comparison, ROOT, RUNS, measure, print_table, source_photo, work_folder

MAGPIE = sys.argv[1]
WORK, path = work_folder(sys.argv[2])


def inputs():
    need = ["webp2048.webp", "avif2048.avif", "thumb256.png"]
    if all(os.path.exists(path(n)) for n in need):
        return
    photo = source_photo().resize((2048, 1536), Image.LANCZOS)
    photo.save(path("webp2048.webp"), quality=80, method=4)
    photo.save(path("avif2048.avif"), quality=70, speed=6)
    photo.resize((256, 192), Image.LANCZOS).save(path("thumb256.png"))


def psnr(a, b):
    mse = np.mean((np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64)) ** 2)
    return 10 * math.log10(255 ** 2 / mse) if mse > 0 else float("inf")


def main():
    inputs()
    out = lambda name: path("out_" + name)
    cmp = Comparison(MAGPIE)
    cmp.compare("WebP 2048x1536 -> 256", [MAGPIE, "thumb", path("webp2048.webp"), "-s", "256", "-o", out("w.jpg")],
                ["vipsthumbnail", path("webp2048.webp"), "-s", "256", "-o", out("vw.jpg")], "vipsthumbnail", 0.8, 8)
    cmp.compare("WebP 2048x1536 full decode -> PPM", [MAGPIE, "convert", path("webp2048.webp"), "-o", out("w.ppm")],
                ["dwebp", "-quiet", path("webp2048.webp"), "-ppm", "-o", out("dw.ppm")], "dwebp", 1.1)
    cmp.compare("AVIF 2048x1536 full decode", [MAGPIE, "convert", path("avif2048.avif"), "-o", out("a.ppm")],
                ["avifdec", "-j", "1", "--png-compress", "0", path("avif2048.avif"), out("da.png")], "avifdec", 1.1)
    cmp.compare("WebP encode of a 256-px thumbnail", [MAGPIE, "convert", path("thumb256.png"), "-o", out("t.webp"),
                                                     "--quality", "85"],
                ["cwebp", "-quiet", "-q", "85", "-m", "4", path("thumb256.png"), "-o", out("ct.webp")], "cwebp", 1.2)
    print_table(cmp.rows, RUNS, f"magpie --version peak RSS {cmp.base_rss:.1f} MiB")
    # The floor under whole-process ratios: start-up alone (a static Swift binary against small C tools).
    floor = measure({"magpie --version": [MAGPIE, "--version"], "dwebp -version": ["dwebp", "-version"],
                     "cwebp -version": ["cwebp", "-version"]})
    print("\nstart-up alone: " + ", ".join(f"{k} {v[0] * 1000:.1f} ms" for k, v in floor.items()))
    bench = path("codecbench")
    subprocess.run(["cc", "-O2", "-I", os.path.join(ROOT, "include"), "-I", os.path.join(ROOT, "Benchmarks"),
                    os.path.join(ROOT, "Benchmarks", "codecbench.c"), "-o", bench,
                    os.path.join(ROOT, "build", "libmagpie.a"), "-lturbojpeg", "-ljpeg", "-lpng16", "-lgif",
                    "-lwebpdemux", "-lwebp", "-lavif", "-lz", "-lm"], check=True)
    print(subprocess.run([bench, path("webp2048.webp"), out("t.webp")], capture_output=True, text=True,
                         check=True).stdout.strip())
    mine, theirs = os.path.getsize(out("t.webp")), os.path.getsize(out("ct.webp"))
    print(f"\nWebP of the 256-px thumbnail: magpie {mine} bytes, cwebp {theirs} bytes (same quality and method)")
    subprocess.run([MAGPIE, "thumb", path("webp2048.webp"), "-s", "256", "-o", out("w.png")], check=True)
    full = Image.open(path("webp2048.webp")).convert("RGB")
    thumb = Image.open(out("w.png")).convert("RGB")
    ref = full.resize(thumb.size, Image.LANCZOS)
    print(f"PSNR of the WebP thumbnail against Pillow LANCZOS of the full decode: {psnr(thumb, ref):.2f} dB")


main()
