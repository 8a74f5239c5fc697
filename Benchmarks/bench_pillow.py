"""Pillow's side of scripts/bench-inprocess.sh, in its own process (timed inside it):
  bench_pillow.py rate FILE N draft|plain [SIZE]   N thumbnails from bytes in memory, JPEG q85 out:
      draft: im.draft("RGB", (SIZE, SIZE)) then thumbnail (shrink-on-load to the size itself);
      plain: thumbnail alone (its own draft keeps a reducing gap of 2); prints thumbnails/s
  bench_pillow.py psnr FILE SIZE PNG...            PSNR of each PNG, and of Pillow's two recipes,
      against Pillow's LANCZOS resize of the full decode to the same size"""
import io
import math
import sys
import time

from PIL import Image


def thumb(data, box, draft):
    im = Image.open(io.BytesIO(data))
    if draft:
        im.draft("RGB", (box, box))
    im.thumbnail((box, box), Image.LANCZOS)
    return im


def psnr(a, b):
    a, b = a.convert("RGB"), b.convert("RGB")
    if a.size != b.size:
        return float("nan")
    pa, pb = a.tobytes(), b.tobytes()
    se = sum((x - y) * (x - y) for x, y in zip(pa, pb))
    return 99.0 if se == 0 else 10 * math.log10(255 * 255 / (se / len(pa)))


def main():
    mode, path = sys.argv[1], sys.argv[2]
    data = open(path, "rb").read()
    if mode == "rate":
        n, recipe = int(sys.argv[3]), sys.argv[4]
        box = int(sys.argv[5]) if len(sys.argv) > 5 else 256
        t0 = time.perf_counter()
        for _ in range(n):
            out = io.BytesIO()
            thumb(data, box, recipe == "draft").save(out, "JPEG", quality=85)
        print(f"{n / (time.perf_counter() - t0):.2f}")
        return
    box = int(sys.argv[3])
    full = Image.open(io.BytesIO(data)).convert("RGB")
    shown = {name: Image.open(name) for name in sys.argv[4:]}
    shown["pillow draft + thumbnail"] = thumb(data, box, True)
    shown["pillow thumbnail"] = thumb(data, box, False)
    for name, im in shown.items():
        ref = full.resize(im.size, Image.LANCZOS)
        print(f"  {name}: {im.size[0]}x{im.size[1]}, {psnr(im, ref):.2f} dB")


if __name__ == "__main__":
    main()
