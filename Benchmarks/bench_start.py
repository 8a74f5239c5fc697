#!/usr/bin/env python3
"""Whole-process `magpie fetch` of one small local PNG, two binaries side by side: interleaved
runs (61 each by default), a fresh cache folder per run, medians and their ratio.

    python3 Benchmarks/bench_start.py BEFORE_BINARY AFTER_BINARY [RUNS]

Made for start-up work (what loads before the first byte is fetched), e.g. libavif's 22 libraries
loading at start or on the first AVIF decode only."""
import os
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import zlib


def tiny_png(path):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    rows = b"".join(b"\x00" + b"\xff\x80\x00" * 8 for _ in range(8))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 8, 8, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    binaries = {"before": sys.argv[1], "after": sys.argv[2]}
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 61
    work = tempfile.mkdtemp(prefix="magpie-bench-start-")
    try:
        png = os.path.join(work, "one.png")
        tiny_png(png)
        times = {name: [] for name in binaries}
        for i in range(runs):
            for name in (list(binaries) if i % 2 == 0 else list(reversed(list(binaries)))):
                cache = tempfile.mkdtemp(dir=work)
                start = time.perf_counter()
                subprocess.run([binaries[name], "fetch", png, "-s", "4", "--cache-dir", cache], check=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                times[name].append(time.perf_counter() - start)
        for name, t in times.items():
            print(f"{name}: median {statistics.median(t) * 1000:.2f} ms over {runs} runs")
        print(f"after / before: {statistics.median(times['after']) / statistics.median(times['before']):.3f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
