"""AVIF output, side by side in one run (issue 38's AVIF target): a 1024x768 JPEG to a 512-px AVIF,
whole process, `magpie thumb` against `vips thumbnail` writing AVIF through libheif (libvips's
defaults: Q 50, effort 4), at equal SSIM: Magpie's quality is the lowest whose SSIM against the
same Lanczos reference reaches vips's. Time (medians of interleaved runs), bytes and SSIM.
Usage: python3 Benchmarks/bench_avif.py MAGPIE_BINARY WORKDIR
"""
import os
import shutil
import subprocess
import sys

import numpy as np
from PIL import Image

from benchlib import Comparison, RUNS, print_table, source_photo, ssim, work_folder

MAGPIE = sys.argv[1]
WORK, path = work_folder(sys.argv[2])
SRC = os.path.join(WORK, "avif-1024.jpg")


def pixels(avif):
    png = avif + ".png"
    subprocess.run(["avifdec", avif, png], check=True, stdout=subprocess.DEVNULL)
    return np.asarray(Image.open(png).convert("L"), dtype=np.float64)


def main():
    if not shutil.which("avifdec"):
        print("SKIPPED: AVIF: avifdec (libavif-bin) is not installed")
        return
    if not os.path.exists(SRC):
        source_photo().resize((1024, 768), Image.LANCZOS).save(SRC, quality=90)
    ref = np.asarray(Image.open(SRC).convert("L").resize((512, 384), Image.LANCZOS), dtype=np.float64)
    theirs = ["vips", "thumbnail", SRC, path("v.avif"), "512"]
    subprocess.run(theirs, check=True)
    target = ssim(ref, pixels(path("v.avif")))
    quality = None
    for q in range(30, 96):
        subprocess.run([MAGPIE, "thumb", SRC, "-s", "512", "--quality", str(q), "-o", path("m.avif")], check=True)
        if ssim(ref, pixels(path("m.avif"))) >= target:
            quality = q
            break
    quality = quality or 95
    mine = [MAGPIE, "thumb", SRC, "-s", "512", "--quality", str(quality), "-o", path("m.avif")]
    cmp = Comparison(MAGPIE)
    cmp.compare(f"JPEG 1024x768 -> 512 AVIF (q{quality})", mine, theirs, "vips thumbnail", 1.0)
    print_table(cmp.rows, RUNS, f"magpie --version peak RSS {cmp.base_rss:.1f} MiB")
    m, v = os.path.getsize(path("m.avif")), os.path.getsize(path("v.avif"))
    print(f"\nbytes: magpie {m} (SSIM {ssim(ref, pixels(path('m.avif'))):.4f}) against vips {v} (SSIM {target:.4f}): "
          f"{m / v:.2f}x")


main()
