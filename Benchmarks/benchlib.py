"""Helpers shared by the whole-process benchmarks: input photo, timed runs with peak RSS, the
interleaved medians and the results table."""
import os
import statistics
import subprocess
import time

import numpy as np
from PIL import Image, ImageOps

RUNS = int(os.environ.get("RUNS", "7"))
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(os.path.dirname(ROOT), "shared", "corpus")


def work_folder(folder):
    """The benchmark's work folder, made, and a function naming a file in it."""
    os.makedirs(folder, exist_ok=True)
    return folder, lambda name: os.path.join(folder, name)


def source_photo():
    p = os.path.join(CORPUS, "jpeg", "large", "olena-ivanova-jKb0EfemiLk-unsplash.jpg")
    if os.path.exists(p):
        return ImageOps.exif_transpose(Image.open(p)).convert("RGB")
    xs = np.linspace(0, 12, 1600)
    ys = np.linspace(0, 8, 1200)
    g = (np.sin(xs)[None, :] * np.cos(ys)[:, None] * 100 + 128).astype(np.uint8)
    return Image.fromarray(np.dstack([g, g[::-1], 255 - g]))


def run(cmd):
    # GNU time reports the peak RSS of the command itself (a fork of this Python process would
    # carry the parent's pages until exec).
    start = time.perf_counter()
    proc = subprocess.run(["/usr/bin/time", "-f", "MAXRSS %M", *cmd], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"command failed: {' '.join(cmd)}\n{proc.stderr}")
    rss = [line for line in proc.stderr.splitlines() if line.startswith("MAXRSS ")][-1]
    return wall, int(rss.split()[1]) / 1024.0  # MiB


def measure(cmds):
    """Runs each named command RUNS times, interleaved; returns {name: (median s, median MiB)}."""
    samples = {name: [] for name in cmds}
    for _ in range(RUNS):
        for name, cmd in cmds.items():
            samples[name].append(run(cmd))
    return {n: (statistics.median(s[0] for s in v), statistics.median(s[1] for s in v)) for n, v in samples.items()}


def ssim(a, b):
    """Mean SSIM over 8x8 windows (step 4) of two luma arrays (their common size), the usual constants."""
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
    h, w = min(a.shape[0], b.shape[0]), min(a.shape[1], b.shape[1])
    scores = []
    for y in range(0, h - 7, 4):
        for x in range(0, w - 7, 4):
            p, q = a[y:y + 8, x:x + 8], b[y:y + 8, x:x + 8]
            mp, mq = p.mean(), q.mean()
            vp, vq, cov = p.var(), q.var(), ((p - mp) * (q - mq)).mean()
            scores.append(((2 * mp * mq + c1) * (2 * cov + c2)) / ((mp * mp + mq * mq + c1) * (vp + vq + c2)))
    return float(np.mean(scores))


def print_table(rows, runs, baselines):
    """rows: (label, mine ms, theirs ms, theirs name, ratio, mine MiB, theirs MiB, working set, target, ws target)."""
    print(f"\nbaselines: {baselines}; medians of {runs} interleaved runs\n")
    print(f"{'case':40} {'magpie ms':>10} {'baseline ms':>12} {'baseline':>14} {'ratio':>6} {'target':>7}"
          f" {'RSS MiB':>8} {'base RSS':>9} {'working set':>12}")
    for label, mt, tt, tn, ratio, mm, tm, ws, target, wst in rows:
        tgt = f"<={target}" if target else "-"
        wss = f"{ws:.1f}" + (f" (<={wst})" if wst else "")
        print(f"{label:40} {mt:10.1f} {tt:12.1f} {tn:>14} {ratio:6.2f} {tgt:>7} {mm:8.1f} {tm:9.1f} {wss:>12}")


class Comparison:
    """Collects side-by-side rows: magpie's command against a baseline's, interleaved."""

    def __init__(self, magpie):
        self.rows = []
        self.base_rss = measure({"magpie --version": [magpie, "--version"]})["magpie --version"][1]

    def compare(self, label, mine, theirs, theirs_name, target=None, ws_target=None):
        r = measure({"magpie": mine, theirs_name: theirs})
        (mt, mm), (tt, tm) = r["magpie"], r[theirs_name]
        self.rows.append((label, mt * 1000, tt * 1000, theirs_name, mt / tt, mm, tm, mm - self.base_rss, target,
                          ws_target))
