"""Pillow's side of scripts/bench-inprocess.sh, in its own process (timed inside it):
  bench_pillow.py rate FILE N draft|plain [SIZE] [THREADS]   N thumbnails on each of THREADS
      threads (1; Pillow releases the GIL while it decodes and resamples), from bytes in memory,
      JPEG q85 out (FILE "@LIST": the paths LIST holds, each N times):
      draft: im.draft("RGB", (SIZE, SIZE)) then thumbnail (shrink-on-load to the size itself);
      plain: thumbnail alone (its own draft keeps a reducing gap of 2); prints thumbnails/s
  bench_pillow.py psnr FILE SIZE PNG...            PSNR of each PNG, and of Pillow's two recipes,
      against Pillow's LANCZOS resize of the full decode to the same size (images with alpha
      compared as shown over mid grey)"""
import io
import math
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from PIL import Image


def thumb(data, box, draft):
    im = Image.open(io.BytesIO(data))
    if draft:
        im.draft("RGB", (box, box))
    im.thumbnail((box, box), Image.LANCZOS)
    return im


def flatten(im):
    """RGB as shown: with alpha, over mid grey (the colour under transparent pixels is not seen)."""
    if im.mode in ("RGBA", "LA", "PA") or (im.mode == "P" and "transparency" in im.info):
        rgba = im.convert("RGBA")
        grey = Image.new("RGBA", rgba.size, (128, 128, 128, 255))
        return Image.alpha_composite(grey, rgba).convert("RGB")
    return im.convert("RGB")


def psnr(a, b):
    a, b = flatten(a), flatten(b)
    if a.size != b.size:
        return float("nan")
    pa, pb = a.tobytes(), b.tobytes()
    se = sum((x - y) * (x - y) for x, y in zip(pa, pb))
    return 99.0 if se == 0 else 10 * math.log10(255 * 255 / (se / len(pa)))


def main():
    mode, path = sys.argv[1], sys.argv[2]
    if mode == "rate":
        paths = open(path[1:]).read().split() if path.startswith("@") else [path]
        inputs = [open(p, "rb").read() for p in paths]
        n, recipe = int(sys.argv[3]), sys.argv[4]
        box = int(sys.argv[5]) if len(sys.argv) > 5 else 256
        threads = int(sys.argv[6]) if len(sys.argv) > 6 else 1

        def work(_):
            for data in inputs:
                for _ in range(n):
                    out = io.BytesIO()
                    thumb(data, box, recipe == "draft").convert("RGB").save(out, "JPEG", quality=85)

        t0 = time.perf_counter()
        with ThreadPoolExecutor(threads) as pool:
            list(pool.map(work, range(threads)))
        print(f"{n * len(inputs) * threads / (time.perf_counter() - t0):.2f}")
        return
    data = open(path, "rb").read()
    box = int(sys.argv[3])
    full = Image.open(io.BytesIO(data))
    full = full.convert("RGBA" if full.mode in ("RGBA", "LA", "PA", "P") else "RGB")
    shown = {name: Image.open(name) for name in sys.argv[4:]}
    shown["pillow draft + thumbnail"] = thumb(data, box, True)
    shown["pillow thumbnail"] = thumb(data, box, False)
    for name, im in shown.items():
        ref = full.resize(im.size, Image.LANCZOS)
        print(f"  {name}: {im.size[0]}x{im.size[1]}, {psnr(im, ref):.2f} dB")


if __name__ == "__main__":
    main()
