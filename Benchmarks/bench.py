"""Side-by-side benchmark of the magpie CLI against vipsthumbnail and djpeg in one run.

Generates the inputs deterministically (from a corpus photo when ../shared/corpus is present,
otherwise procedurally), runs every command RUNS times alternating tools, and prints medians of
wall time, peak RSS and the ratios the issue sets targets for. Also MD5 speed and thumbnail PSNR
against Pillow's LANCZOS of the full upright decode.
Usage: python3 Benchmarks/bench.py MAGPIE_BINARY WORKDIR
"""
import math
import os
import subprocess
import sys

import numpy as np
from PIL import Image, ImageOps

from benchlib import CORPUS, ROOT, RUNS, Comparison, measure, print_table, source_photo

MAGPIE, WORK = sys.argv[1], sys.argv[2]
os.makedirs(WORK, exist_ok=True)


def inputs():
    def path(name):
        return os.path.join(WORK, name)
    need = ["jpeg6000.jpg", "jpeg6000p.jpg", "png4000.png", "png10000.png", "anim500.gif", "web1024.jpg"]
    if all(os.path.exists(path(n)) for n in need):
        return {n: path(n) for n in need}
    photo = source_photo()
    big = photo.resize((6000, 4000), Image.LANCZOS)
    big.save(path("jpeg6000.jpg"), quality=90, subsampling=2)
    big.save(path("jpeg6000p.jpg"), quality=90, subsampling=2, progressive=True)
    photo.resize((4000, 3000), Image.LANCZOS).save(path("png4000.png"), compress_level=6)
    photo.resize((10000, 10000), Image.BILINEAR).save(path("png10000.png"), compress_level=6)
    photo.resize((1024, 768), Image.LANCZOS).save(path("web1024.jpg"), quality=85)
    frames = []
    base = photo.resize((500, 500), Image.LANCZOS)
    for i in range(50):
        frames.append(base.rotate(i * 7.2).quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE))
    frames[0].save(path("anim500.gif"), save_all=True, append_images=frames[1:], duration=40, loop=0)
    return {n: path(n) for n in need}


def main():
    f = inputs()
    out = lambda name: os.path.join(WORK, "out_" + name)
    cmp = Comparison(MAGPIE)
    vips_base = measure({"vips --version": ["vipsthumbnail", "--vips-version"]})["vips --version"][1]
    compare = cmp.compare
    vt = lambda src, dst: ["vipsthumbnail", src, "-s", "256", "-o", dst]
    compare("JPEG 6000x4000 -> 256", [MAGPIE, "thumb", f["jpeg6000.jpg"], "-s", "256", "-o", out("a.jpg")],
            vt(f["jpeg6000.jpg"], out("va.jpg")), "vipsthumbnail", 0.7, 12)
    compare("JPEG 6000x4000 progressive -> 256", [MAGPIE, "thumb", f["jpeg6000p.jpg"], "-s", "256", "-o", out("b.jpg")],
            vt(f["jpeg6000p.jpg"], out("vb.jpg")), "vipsthumbnail", 1.0)
    compare("PNG 4000x3000 -> 256", [MAGPIE, "thumb", f["png4000.png"], "-s", "256", "-o", out("c.jpg")],
            vt(f["png4000.png"], out("vc.jpg")), "vipsthumbnail")
    compare("PNG 10000x10000 -> 256", [MAGPIE, "thumb", f["png10000.png"], "-s", "256", "-o", out("d.jpg")],
            vt(f["png10000.png"], out("vd.jpg")), "vipsthumbnail", 1.0, 10)
    compare("GIF 500x500x50 -> 256", [MAGPIE, "thumb", f["anim500.gif"], "-s", "256", "-o", out("e.jpg")],
            vt(f["anim500.gif"], out("ve.jpg")), "vipsthumbnail", 1.0)
    compare("JPEG 1024x768 -> 256 (whole process)", [MAGPIE, "thumb", f["web1024.jpg"], "-s", "256", "-o", out("f.jpg")],
            vt(f["web1024.jpg"], out("vf.jpg")), "vipsthumbnail", 0.25)
    # Whole process, PPM written to disk: magpie decodes to an RGBA image in memory first (96 MB
    # of fresh pages), djpeg streams rows to the file; the in-memory comparison follows below.
    compare("JPEG 6000x4000 full decode -> PPM", [MAGPIE, "convert", f["jpeg6000.jpg"], "-o", out("g.ppm")],
            ["djpeg", "-outfile", out("vg.ppm"), f["jpeg6000.jpg"]], "djpeg", 1.15)
    print_table(cmp.rows, RUNS, f"magpie --version peak RSS {cmp.base_rss:.1f} MiB, vipsthumbnail --vips-version "
                f"{vips_base:.1f} MiB")

    bench = os.path.join(WORK, "md5bench")
    ossl = ["-DMAGPIE_BENCH_OPENSSL", "-lcrypto"] if os.path.exists("/usr/include/openssl/md5.h") else []
    subprocess.run(["cc", "-O2", "-I", os.path.join(ROOT, "include"), os.path.join(ROOT, "Benchmarks", "md5bench.c"),
                    "-o", bench, os.path.join(ROOT, "build", "libmagpie.a"), *ossl], check=True)
    print("\n" + subprocess.run([bench], capture_output=True, text=True, check=True).stdout.strip())
    dec = os.path.join(WORK, "decodebench")
    libs = ["-lturbojpeg", "-ljpeg", "-lpng16", "-lgif", "-lwebpdemux", "-lwebp", "-lavif", "-lz", "-lm"]
    subprocess.run(["cc", "-O2", "-I", os.path.join(ROOT, "include"), os.path.join(ROOT, "Benchmarks", "decodebench.c"),
                    "-o", dec, os.path.join(ROOT, "build", "libmagpie.a"), *libs], check=True)
    for name in ("jpeg6000.jpg", "jpeg6000p.jpg"):
        print(subprocess.run([dec, f[name]], capture_output=True, text=True, check=True).stdout.strip() + f" [{name}]")

    # Quality: magpie's 256-px PNG thumbnail against Pillow LANCZOS of the full upright decode.
    print("\nPSNR of 256-px thumbnails against Pillow LANCZOS on the full upright decode (target >= 40 dB):")
    large = os.path.join(CORPUS, "jpeg", "large")
    if not os.path.isdir(large):
        print("  SKIPPED: corpus absent")
        return
    for name in sorted(os.listdir(large)):
        src = os.path.join(large, name)
        if "giant" in name:
            continue
        dst = out(name + ".png")
        subprocess.run([MAGPIE, "thumb", src, "-s", "256", "-o", dst], check=True)
        mine = np.asarray(Image.open(dst).convert("RGB"), dtype=np.float64)
        ref_img = ImageOps.exif_transpose(Image.open(src)).convert("RGB")
        ref_img = ref_img.resize((mine.shape[1], mine.shape[0]), Image.LANCZOS)
        ref = np.asarray(ref_img, dtype=np.float64)
        mse = np.mean((mine - ref) ** 2)
        psnr = 10 * math.log10(255 ** 2 / mse) if mse > 0 else float("inf")
        print(f"  {name:45} {psnr:6.2f} dB")


main()
