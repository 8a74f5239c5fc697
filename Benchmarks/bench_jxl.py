"""JPEG XL output beside cjxl (issue 54): a 1024x768 PNG to JPEG XL at the same quality and effort,
whole process, `magpie convert` against `cjxl` as its users run it (its own thread pool) and on one
thread (as Magpie encodes, one core per request). Time (medians of interleaved runs), peak RSS,
bytes and SSIM against the source, at imgproxy's effort (4) and libjxl's default (7).
Usage: python3 Benchmarks/bench_jxl.py MAGPIE_BINARY WORKDIR
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
SRC = os.path.join(WORK, "jxl-1024.png")


def luma(jxl):
    """The file's pixels in sRGB: decoded by Magpie, which converts the colour space the decoder gives
    (djxl writes cjxl's files in a linear space with a profile that a plain PNG reader ignores)."""
    png = jxl + ".png"
    subprocess.run([MAGPIE, "convert", jxl, "-o", png], check=True, stdout=subprocess.DEVNULL)
    return np.asarray(Image.open(png).convert("L"), dtype=np.float64)


def main():
    if not shutil.which("cjxl"):
        print("SKIPPED: JPEG XL: cjxl (libjxl-tools) is not installed")
        return
    if not os.path.exists(SRC):
        source_photo().resize((1024, 768), Image.LANCZOS).save(SRC)
    ref = np.asarray(Image.open(SRC).convert("L"), dtype=np.float64)
    cmp = Comparison(MAGPIE)
    sizes = []
    for effort in (4, 7):
        mine = [MAGPIE, "convert", SRC, "-o", path(f"m{effort}.jxl"), "--quality", "75", "--jxl-effort", str(effort)]
        pooled = ["cjxl", SRC, path(f"c{effort}.jxl"), "-q", "75", "-e", str(effort), "--quiet"]
        single = pooled + ["--num_threads=0"]
        cmp.compare(f"PNG 1024x768 -> JXL q75 e{effort}", mine, pooled, "cjxl")
        cmp.compare(f"PNG 1024x768 -> JXL q75 e{effort}, 1 thread", mine, single, "cjxl 1 thread")
        m, c = os.path.getsize(path(f"m{effort}.jxl")), os.path.getsize(path(f"c{effort}.jxl"))
        sizes.append((effort, m, c, ssim(ref, luma(path(f"m{effort}.jxl"))), ssim(ref, luma(path(f"c{effort}.jxl")))))
    print_table(cmp.rows, RUNS, f"magpie --version peak RSS {cmp.base_rss:.1f} MiB")
    for effort, m, c, ms, cs in sizes:
        print(f"effort {effort}: magpie {m} bytes (SSIM {ms:.4f}), cjxl {c} bytes (SSIM {cs:.4f}): {m / c:.3f}x")


main()
