"""The parts of scripts/bench-compare.sh that run a process at a time, and its report.

  bench_compare.py inputs WORK                     the CLI's inputs (6000x4000 JPEG, 10000x10000 PNG), once
  bench_compare.py local BASE_BIN HEAD_BIN WORK ROUNDS RESULTS
                                                   the CLI's thumbnails (whole process), the library's
                                                   thumbnails/s on 1 and 2 threads, the disk cache's
                                                   reads; the two builds interleaved in every round,
                                                   the first side alternating; rows appended to RESULTS
  bench_compare.py report RESULTS BASE HEAD        the table: medians, HEAD/BASE, and a row worse
                                                   than 0.95x (in its better direction) marked

RESULTS holds one measurement a line: workload, side (base or head), value (tab-separated).
"""
import glob
import os
import re
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

# Each workload: its unit and whether more is better. The order is the report's.
WORKLOADS = {
    "magpie thumb, JPEG 6000x4000 -> 256": ("ms", False),
    "magpie thumb, PNG 10000x10000 -> 256": ("ms", False),
    "magpie thumb, JPEG, peak RSS": ("MiB", False),
    "library thumbnails, 1 thread": ("per s", True),
    "library thumbnails, 2 threads": ("per s", True),
    "service cold B": ("requests/s", True),
    "service cold B, peak RSS": ("MiB", False),
    "service warm": ("requests/s", True),
    "service warm, p99": ("ms", False),
    "disk cache hit, 4 KB rows": ("us", False),
    "disk cache hit, 64 KB files": ("us", False),
    "disk cache miss": ("us", False),
}


def inputs(work):
    from benchlib import source_photo
    from PIL import Image

    os.makedirs(work, exist_ok=True)
    jpeg, png = os.path.join(work, "jpeg6000.jpg"), os.path.join(work, "png10000.png")
    if os.path.exists(jpeg) and os.path.exists(png):
        return
    photo = source_photo()
    photo.resize((6000, 4000), Image.LANCZOS).save(jpeg, quality=90, subsampling=2)
    photo.resize((10000, 10000), Image.BILINEAR).save(png + ".part", format="PNG", compress_level=6)
    os.replace(png + ".part", png)


def run_local(base_bin, head_bin, work, rounds, results):
    from benchlib import run

    sources = sorted(glob.glob(os.path.join(work, "www", "b", "*.jpg")))
    if not sources:
        raise SystemExit(f"no cold B sources in {work}/www/b")
    bins = {"base": base_bin, "head": head_bin}
    rows = []

    def record(workload, side, value):
        rows.append((workload, side, value))
        with open(results, "a") as f:
            f.write(f"{workload}\t{side}\t{value}\n")

    def disk(side, size, misses):
        exe = os.path.join(bins[side], "magpie-disk-cache-bench")
        if not os.path.exists(exe):
            return None
        env = dict(os.environ, MAGPIE_DISK_SIZE=str(size), MAGPIE_DISK_PASSES="5", MAGPIE_DISK_MISS="1" if misses else "0")
        out = subprocess.run([exe, "--only", "profile", "--dir", os.path.join(work, f"disk-{side}")], env=env,
                             capture_output=True, text=True, check=True).stdout
        # "hybrid 4096 B: write W µs, read R µs" (or "miss R µs"), among other lines.
        found = re.search(r"(?:read|miss) ([0-9.]+) µs", out)
        if not found:
            raise SystemExit(f"{exe}: no read time in\n{out}")
        return float(found.group(1))

    for r in range(rounds):
        order = ["base", "head"] if r % 2 == 0 else ["head", "base"]
        for side in order:
            magpie = os.path.join(bins[side], "magpie")
            out = os.path.join(work, f"out-{side}.jpg")
            wall, rss = run([magpie, "thumb", os.path.join(work, "jpeg6000.jpg"), "-s", "256", "-o", out])
            record("magpie thumb, JPEG 6000x4000 -> 256", side, wall * 1000)
            record("magpie thumb, JPEG, peak RSS", side, rss)
            wall, _ = run([magpie, "thumb", os.path.join(work, "png10000.png"), "-s", "256", "-o", out])
            record("magpie thumb, PNG 10000x10000 -> 256", side, wall * 1000)
        for threads in (1, 2):
            for side in order:
                env = dict(os.environ, FLOOR_SECONDS=os.environ.get("FLOOR_SECONDS", "4"))
                exe = os.path.join(bins[side], "magpie-decode-bench")
                out = subprocess.run([exe, "--floor", str(threads), "80", *sources], env=env, capture_output=True,
                                     text=True, check=True).stdout
                name = f"library thumbnails, {threads} thread{'s' if threads > 1 else ''}"
                record(name, side, float(out.split()[-3]))
        for workload, size, misses in (("disk cache hit, 4 KB rows", 4096, False),
                                       ("disk cache hit, 64 KB files", 65536, False),
                                       ("disk cache miss", 4096, True)):
            for side in order:
                v = disk(side, size, misses)
                if v is not None:
                    record(workload, side, v)


def report(results, base, head):
    samples = {}
    with open(results) as f:
        for line in f:
            workload, side, value = line.rstrip("\n").split("\t")
            samples.setdefault(workload, {}).setdefault(side, []).append(float(value))
    print(f"\nHEAD {head[:10]} against BASE {base[:10]}: medians of interleaved rounds;"
          " HEAD/BASE is the median of the rounds' own ratios")
    print(f"{'workload':40} {'unit':>11} {'BASE':>10} {'HEAD':>10} {'HEAD/BASE':>10}  verdict")
    worse = 0
    for workload in list(WORKLOADS) + [w for w in samples if w not in WORKLOADS]:
        sides = samples.get(workload, {})
        if "base" not in sides or "head" not in sides:
            if sides:
                print(f"{workload:40} (only one build has it)")
            continue
        unit, more_better = WORKLOADS.get(workload, ("", True))
        b, h = statistics.median(sides["base"]), statistics.median(sides["head"])
        # The median of each round's own ratio where the rounds pair up: a machine that speeds up
        # or slows down over the run (here the service's rounds drifted by 15%) moves both sides
        # of a round alike.
        pairs = [y / x for x, y in zip(sides["base"], sides["head"]) if x] if len(sides["base"]) == len(
            sides["head"]) else []
        ratio = statistics.median(pairs) if pairs else (h / b if b else float("nan"))
        # In the better direction: 1.05 = 5% better, 0.95 = 5% worse.
        goodness = ratio if more_better else (1 / ratio if ratio else float("nan"))
        verdict = "ok" if goodness >= 0.95 else "WORSE: explain it in the commit"
        worse += goodness < 0.95
        print(f"{workload:40} {unit:>11} {b:10.1f} {h:10.1f} {ratio:9.3f}x  {verdict}"
              f" ({'more' if more_better else 'less'} is better, n={len(sides['base'])})")
    print(f"\n{worse} row(s) worse than 0.95x" if worse else "\nno row worse than 0.95x")


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "inputs":
        inputs(sys.argv[2])
    elif command == "local":
        run_local(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), sys.argv[6])
    elif command == "report":
        report(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        raise SystemExit(__doc__)
