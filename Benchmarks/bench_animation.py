"""Animations, side by side in one run (issue 38's targets): a 100-frame 480x270 GIF to a 128-px
animated WebP against `vipsthumbnail 'in.gif[n=-1]' -s 128` (time <= 0.8x, peak RSS <= 0.5x), and to
a 128-px GIF against `gifsicle --resize-fit 128x128` (time <= 1.0x at equal or better PSNR per frame,
each frame against a Lanczos resize of the composited source frame). Then the same conversions of a
500-frame source: time and memory grow with frames, not with what is held (frames go one at a time).
Usage: python3 Benchmarks/bench_animation.py MAGPIE_BINARY WORKDIR
"""
import os
import shutil
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageSequence

from benchlib import Comparison, RUNS, measure, print_table, source_photo, work_folder

MAGPIE = sys.argv[1]
WORK, path = work_folder(sys.argv[2])


def make_gif(name, frames):
    """A pan across a photo with a ball bouncing over it: `frames` frames of 480x270, 40 ms each,
    quantised by Pillow (a palette per frame), as GIFs from video are."""
    out = path(name)
    if os.path.exists(out):
        return out
    photo = source_photo().resize((960, 540), Image.LANCZOS)
    images = []
    for k in range(frames):
        x = int(240 * (1 + np.sin(k / 25.0)))
        frame = photo.crop((x, 120, x + 480, 390)).copy()
        d = ImageDraw.Draw(frame)
        bx, by = 40 + (k * 7) % 400, 200 - abs(((k * 9) % 300) - 150)
        d.ellipse((bx, by, bx + 40, by + 40), fill=(230, 40, 40))
        images.append(frame.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE))
    images[0].save(out, save_all=True, append_images=images[1:], duration=40, loop=0, optimize=False)
    return out


def frames_rgb(p):
    """Every frame, composited, as RGB float arrays."""
    im = Image.open(p)
    return [np.asarray(f.convert("RGBA").convert("RGB"), dtype=np.float64) for f in ImageSequence.Iterator(im)]


def psnr(a, b):
    mse = np.mean((a - b) ** 2)
    return 99.0 if mse == 0 else 10 * np.log10(255 * 255 / mse)


def frame_psnr(out, reference):
    got = frames_rgb(out)
    if len(got) != len(reference):
        return float("nan"), float("nan"), len(got)
    scores = [psnr(g, r) for g, r in zip(got, reference)]
    return float(np.mean(scores)), float(np.min(scores)), len(got)


def reference(src, size):
    refs = []
    for f in ImageSequence.Iterator(Image.open(src)):
        rgb = f.convert("RGBA").convert("RGB")
        w, h = rgb.size
        s = size / max(w, h)
        refs.append(np.asarray(rgb.resize((round(w * s), round(h * s)), Image.LANCZOS), dtype=np.float64))
    return refs


def main():
    missing = [t for t in ("vipsthumbnail", "gifsicle") if not shutil.which(t)]
    if missing:
        print(f"SKIPPED: animation: {', '.join(missing)} not installed (scripts/bootstrap.sh --bench)")
        return
    src = make_gif("anim-100.gif", 100)
    c = Comparison(MAGPIE)
    # libvips writes WebP at Q 75 by default: the same quality here.
    c.compare("100 frames -> 128px animated WebP",
              [MAGPIE, "thumb", src, "-s", "128", "--quality", "75", "-o", path("m.webp")],
              ["vipsthumbnail", src + "[n=-1]", "-s", "128", "-o", path("v.webp")], "vipsthumbnail", 0.8)
    c.compare("100 frames -> 128px GIF", [MAGPIE, "thumb", src, "-s", "128", "-o", path("m.gif")],
              ["gifsicle", "--resize-fit", "128x128", src, "-o", path("g.gif")], "gifsicle", 1.0)
    print_table(c.rows, RUNS, "vipsthumbnail (libvips defaults), gifsicle --resize-fit")
    rss = {r[0]: (r[5], r[6]) for r in c.rows}
    mine, theirs = rss["100 frames -> 128px animated WebP"]
    print(f"\npeak RSS, WebP: {mine:.1f} MiB against vips's {theirs:.1f}: {mine / theirs:.2f}x (target <= 0.5)")
    ref = reference(src, 128)
    print("\nPSNR per frame against a Lanczos resize of each composited source frame (mean / min dB, frames):")
    for name in ("m.gif", "g.gif", "m.webp", "v.webp"):
        mean, low, n = frame_psnr(path(name), ref)
        print(f"  {name:8} {mean:6.2f} / {low:6.2f}  {n} frames  {os.path.getsize(path(name)):8d} bytes")
    # 500 frames: the work grows, what is held does not.
    long = make_gif("anim-500.gif", 500)
    r = measure({"100": [MAGPIE, "thumb", src, "-s", "128", "-o", path("m100.webp")],
                 "500": [MAGPIE, "thumb", long, "-s", "128", "-o", path("m500.webp")],
                 "500 gif": [MAGPIE, "thumb", long, "-s", "128", "-o", path("m500.gif")]})
    print(f"\n500 frames -> WebP: {r['500'][0] * 1000:.0f} ms at {r['500'][1]:.1f} MiB; 100 frames: "
          f"{r['100'][0] * 1000:.0f} ms at {r['100'][1]:.1f} MiB (time {r['500'][0] / r['100'][0]:.2f}x, "
          f"RSS {r['500'][1] / r['100'][1]:.2f}x); 500 -> GIF {r['500 gif'][0] * 1000:.0f} ms at "
          f"{r['500 gif'][1]:.1f} MiB")


if __name__ == "__main__":
    main()
