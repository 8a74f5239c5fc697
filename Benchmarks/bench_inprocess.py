"""Inputs and the interleaved part of scripts/bench-inprocess.sh:
  bench_inprocess.py inputs WORK                   makes the inputs once
  bench_inprocess.py run WORK THUMBBENCH ROUNDS    runs every case
Makes the inputs once (web-size, 2048x1536, 4000x3000 and progressive 6000x4000 JPEGs, an RGBA
PNG, a 12 Mpx PNG, a 50-frame GIF, 50 small JPEGs), then for one and two threads runs each side's `rate` in its
own process, sides interleaved round by round, under GNU time for the peak RSS; prints median
thumbnails per second (a set of 50 small JPEGs counts each), the ratios the issue asks for, peak RSS, and PSNR against Pillow's
LANCZOS of the full decode."""
import os
import random
import statistics
import subprocess
import sys

from PIL import Image, ImageDraw, ImageFilter

HERE = os.path.dirname(os.path.abspath(__file__))
# name, file, thumbnails per run, whether Pillow's draft and magpie's fast mode apply
CASES = [("JPEG 1024x768", "web.jpg", 40, True), ("JPEG 2048x1536", "j2048.jpg", 20, True),
         ("JPEG 4000x3000", "p4000.jpg", 10, True), ("JPEG 6000x4000 progressive", "p6000p.jpg", 3, True),
         ("PNG RGBA 2000x1500", "rgba.png", 5, False), ("PNG 4000x3000", "p12.png", 3, False),
         ("GIF 500x500x50", "anim.gif", 10, False), ("50 small JPEGs (640x480)", "@small.txt", 1, True)]


def photo(w, h, seed):
    rng = random.Random(seed)
    im = Image.blend(Image.effect_noise((w, h), 70).convert("RGB"),
                     Image.linear_gradient("L").resize((w, h)).convert("RGB"), 0.5)
    d = ImageDraw.Draw(im)
    for _ in range(80):
        x, y, r = rng.randrange(w), rng.randrange(h), rng.randrange(w // 130 + 1, w // 7 + 2)
        d.ellipse((x - r, y - r, x + r, y + r), fill=(rng.randrange(256), rng.randrange(256), rng.randrange(256)))
    return im.filter(ImageFilter.GaussianBlur(0.5))


def make_inputs(work):
    os.makedirs(work, exist_ok=True)

    def at(name):
        return os.path.join(work, name)
    if not os.path.exists(at("web.jpg")):
        photo(1024, 768, 1).save(at("web.jpg"), quality=85)
    if not os.path.exists(at("j2048.jpg")):
        photo(2048, 1536, 2).save(at("j2048.jpg"), quality=88)
    if not os.path.exists(at("p4000.jpg")):
        photo(4000, 3000, 3).save(at("p4000.jpg"), quality=90)
    if not os.path.exists(at("p6000p.jpg")):
        photo(6000, 4000, 4).save(at("p6000p.jpg"), quality=90, progressive=True)
    if not os.path.exists(at("rgba.png")):
        im = photo(2000, 1500, 5).convert("RGBA")
        im.putalpha(Image.linear_gradient("L").rotate(90).resize((2000, 1500)))
        im.save(at("rgba.png"), compress_level=6)
    if not os.path.exists(at("p12.png")):
        photo(4000, 3000, 6).save(at("p12.png"), compress_level=6)
    if not os.path.exists(at("small.txt")):
        names = []
        for i in range(50):
            names.append(at(f"small{i:02d}.jpg"))
            photo(640, 480, 100 + i).save(names[-1], quality=82)
        open(at("small.txt"), "w").write("\n".join(names) + "\n")
    if not os.path.exists(at("anim.gif")):
        frames = [photo(500, 500, 10 + i).quantize(64) for i in range(50)]
        frames[0].save(at("anim.gif"), save_all=True, append_images=frames[1:], duration=40, loop=0)


def rate(cmd, work):
    out = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", os.path.join(work, "rss.txt")] + cmd,
                         capture_output=True, text=True, check=True)
    return float(out.stdout.strip()), int(open(os.path.join(work, "rss.txt")).read().split()[-1]) / 1024


def main():
    if sys.argv[1] == "inputs":
        make_inputs(sys.argv[2])
        return
    work, thumbbench, rounds = sys.argv[2], sys.argv[3], int(sys.argv[4])
    make_inputs(work)
    pillow = [sys.executable, os.path.join(HERE, "bench_pillow.py"), "rate"]
    for name, file, n, lossy in CASES:
        path = "@" + os.path.join(work, file[1:]) if file.startswith("@") else os.path.join(work, file)
        sides = {"magpie": [thumbbench, "rate", "magpie", path, str(n)],
                 "vips": [thumbbench, "rate", "vips", path, str(n)],
                 "pillow": pillow + [path, str(n), "plain"]}
        if lossy:
            sides["magpie fast"] = [thumbbench, "rate", "magpie-fast", path, str(n)]
            sides["pillow draft"] = pillow + [path, str(n), "draft"]
        for threads in (1, 2):
            rates, rss = {s: [] for s in sides}, {s: 0.0 for s in sides}
            for _ in range(rounds):
                for side, cmd in sides.items():
                    extra = ["256", str(threads)]
                    r, m = rate(cmd + extra, work)
                    rates[side].append(r)
                    rss[side] = max(rss[side], m)
            med = {s: statistics.median(v) for s, v in rates.items()}
            line = ", ".join(f"{s} {v:.1f}" for s, v in med.items())
            ratios = f"magpie/vips {med['magpie'] / med['vips']:.2f}, magpie/pillow {med['magpie'] / med['pillow']:.2f}"
            if lossy:
                ratios += f", fast/pillow draft {med['magpie fast'] / med['pillow draft']:.2f}"
            print(f"{name}, {threads} thread{'s' if threads > 1 else ''}: {line} /s; {ratios}")
            if threads == 1:
                print("    peak RSS MiB: " + ", ".join(f"{s} {v:.0f}" for s, v in rss.items()))
        if file.startswith("@"):
            continue  # PSNR is measured on the single files
        pngs = []
        for side in (["magpie", "magpie-fast"] if lossy else ["magpie"]) + ["vips"]:
            out = os.path.join(work, f"{file}.{side}.png")
            subprocess.run([thumbbench, "write", side, path, out], check=True)
            pngs.append(out)
        subprocess.run([sys.executable, os.path.join(HERE, "bench_pillow.py"), "psnr", path, "256"] + pngs, check=True)


if __name__ == "__main__":
    main()
