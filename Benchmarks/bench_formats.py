"""The formats loaded on first use, whole process, side by side in one run (issue 36's targets):
- a 4032x3024 HEIC (a phone's size) to a 256-px thumbnail against vipsthumbnail, which also
  decodes through libheif: without an embedded thumbnail, and with a 320x240 one as phones write;
- a 1000x1000 SVG to 256 px against rsvg-convert -w 256 (the same librsvg);
- for the record, a 4032x3024 JPEG XL and an LZW TIFF to 256 px against vipsthumbnail.
Inputs are made from the corpus photo with heif-enc, cjxl and Pillow (Debian's libheif-examples
and libjxl-tools); a case whose tool is missing is skipped with a line saying so.
Usage: python3 Benchmarks/bench_formats.py MAGPIE_BINARY WORKDIR
"""
import math
import os
import random
import shutil
import subprocess
import sys

from PIL import Image

from benchlib import Comparison, RUNS, print_table, source_photo, work_folder

MAGPIE = sys.argv[1]
WORK, path = work_folder(sys.argv[2])


def svg_document():
    """1000x1000: 600 shapes with gradients, strokes and transparency, from a fixed seed."""
    rnd = random.Random(36)
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000" viewBox="0 0 1000 1000">',
             "<defs>"]
    for i in range(8):
        parts.append(f'<linearGradient id="g{i}" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color='
                     f'"#{rnd.randrange(1 << 24):06x}"/><stop offset="1" stop-color="#{rnd.randrange(1 << 24):06x}"'
                     f' stop-opacity="0.5"/></linearGradient>')
    parts.append("</defs>")
    for _ in range(600):
        x, y, r = rnd.uniform(0, 1000), rnd.uniform(0, 1000), rnd.uniform(5, 90)
        fill = f"url(#g{rnd.randrange(8)})" if rnd.random() < 0.5 else f"#{rnd.randrange(1 << 24):06x}"
        if rnd.random() < 0.5:
            parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{fill}" fill-opacity="0.7" '
                         f'stroke="#222" stroke-width="{rnd.uniform(0.5, 4):.1f}"/>')
        else:
            pts = " ".join(f"{x + r * math.cos(a):.1f},{y + r * math.sin(a):.1f}"
                           for a in (k * 2 * math.pi / 5 + rnd.random() for k in range(5)))
            parts.append(f'<polygon points="{pts}" fill="{fill}" fill-opacity="0.8"/>')
    parts.append("</svg>")
    return "\n".join(parts)


def inputs():
    photo = None
    if not os.path.exists(path("phone.png")):
        photo = source_photo().resize((4032, 3024), Image.LANCZOS)
        photo.save(path("phone.png"))
        photo.save(path("phone.tif"), compression="tiff_lzw")
    if shutil.which("heif-enc"):
        if not os.path.exists(path("phone.heic")):
            subprocess.run(["heif-enc", "-q", "80", path("phone.png"), "-o", path("phone.heic")], check=True,
                           stdout=subprocess.DEVNULL)
        if not os.path.exists(path("phone-thumb.heic")):
            subprocess.run(["heif-enc", "-q", "80", "-t", "320", path("phone.png"), "-o", path("phone-thumb.heic")],
                           check=True, stdout=subprocess.DEVNULL)
    if shutil.which("cjxl") and not os.path.exists(path("phone.jxl")):
        subprocess.run(["cjxl", "-d", "1", path("phone.png"), path("phone.jxl")], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(path("art.svg"), "w") as f:
        f.write(svg_document())


def main():
    inputs()
    out = lambda name: path("out_" + name)
    cmp = Comparison(MAGPIE)
    for name, label in [("phone.heic", "HEIC 4032x3024 -> 256"),
                        ("phone-thumb.heic", "HEIC 4032x3024 (thumb 320) -> 256"),
                        ("phone.jxl", "JPEG XL 4032x3024 -> 256"), ("phone.tif", "TIFF LZW 4032x3024 -> 256")]:
        if not os.path.exists(path(name)):
            print(f"SKIPPED: {label}: the tool that makes {name} is not installed")
            continue
        target = 1.0 if name.endswith(".heic") else None
        cmp.compare(label, [MAGPIE, "thumb", path(name), "-s", "256", "-o", out("m.jpg")],
                    ["vipsthumbnail", path(name), "-s", "256", "-o", out("v.jpg")], "vipsthumbnail", target)
    if shutil.which("rsvg-convert"):
        cmp.compare("SVG 1000x1000 -> 256 (PNG)", [MAGPIE, "thumb", path("art.svg"), "-s", "256", "-o", out("s.png")],
                    ["rsvg-convert", "-w", "256", path("art.svg"), "-o", out("r.png")], "rsvg-convert", 1.0)
    else:
        print("SKIPPED: SVG: rsvg-convert (librsvg2-bin) is not installed")
    print_table(cmp.rows, RUNS, f"magpie --version peak RSS {cmp.base_rss:.1f} MiB")


main()
