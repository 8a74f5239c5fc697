"""The processors against libvips in the same run: Benchmarks/procbench.c on a 2048x1536 RGBA image,
each operation on each side in turn, ROUNDS rounds interleaved, one and two threads; medians, and the
time ratio magpie/vips (below 1: magpie is faster), with the issue's targets.
Usage: bench_process.py PROCBENCH ROUNDS"""
import statistics
import subprocess
import sys

TARGETS = {"blur": 0.8, "sharpen": 1.0, "rot90": 1.0, "rot180": 1.0, "flip": 1.0, "composite": None}
N = {"blur": 10, "sharpen": 10, "rot90": 40, "rot180": 80, "flip": 80, "composite": 60}


def rate(cmd):
    return float(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.strip())


def main():
    procbench, rounds = sys.argv[1], int(sys.argv[2])
    for threads in (1, 2):
        for op, target in TARGETS.items():
            rates = {"magpie": [], "vips": []}
            for _ in range(rounds):
                for side in rates:
                    rates[side].append(rate([procbench, side, op, str(N[op]), str(threads)]))
            m, v = statistics.median(rates["magpie"]), statistics.median(rates["vips"])
            verdict = "" if target is None else f" (target <= {target})"
            print(f"{op}, {threads} thread{'s' if threads > 1 else ''}: magpie {m:.1f}/s, vips {v:.1f}/s; "
                  f"time ratio magpie/vips {v / m:.3f}{verdict}")


if __name__ == "__main__":
    main()
