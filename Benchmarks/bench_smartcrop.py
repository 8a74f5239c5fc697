"""Smart crop, side by side in one run (issue 37's targets):
- whole process: a 4000x3000 JPEG filled to 300x300 with the attention crop, `magpie thumb --fill
  --smart` against `vipsthumbnail -s 300x300 --smartcrop attention` (target <= 1.0); the centre
  crops of both for the record; and how far apart the two windows are (the offset, in output
  pixels, at which magpie's result best matches vips's);
- through the service: `rs:fill:300:300/g:sm` against the centre crop `rs:fill:300:300`, each
  request a new variant (`cb:N`) of the one source already in the source cache, interleaved,
  sequential, over loopback (target <= 1.15); and `mb` (max_bytes) the same way: 1024 px JPEGs
  with `mb` at half the size they have without it, against without.
Usage: python3 Benchmarks/bench_smartcrop.py MAGPIE_BINARY MAGPIE_SERVER_BINARY WORKDIR
"""
import http.client
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
from PIL import Image

from benchlib import Comparison, RUNS, print_table, source_photo, work_folder

MAGPIE, SERVER = sys.argv[1], sys.argv[2]
WORK, path = work_folder(sys.argv[3])
SRC = os.path.join(WORK, "smart-4000.jpg")


def window_offset(mine, theirs):
    """The shift of `mine` against `theirs` (both 300x300 windows of near-equal covers) with the
    least mean difference, searched along the axis that had slack (x for a landscape source)."""
    a = np.asarray(Image.open(mine).convert("L"), dtype=np.float32)
    b = np.asarray(Image.open(theirs).convert("L"), dtype=np.float32)
    best = (1e9, 0)
    for d in range(-150, 151):
        lo, hi = max(0, d), min(300, 300 + d)
        if hi - lo < 100:
            continue
        err = np.mean(np.abs(a[:, lo - d:hi - d] - b[:, lo:hi]))
        best = min(best, (err, d))
    return best[1], best[0]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def service():
    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    origin = ThreadingHTTPServer(("127.0.0.1", 0), partial(Quiet, directory=WORK))
    threading.Thread(target=origin.serve_forever, daemon=True).start()
    port = free_port()
    cache = tempfile.mkdtemp(prefix="magpie-smart-")
    proc = subprocess.Popen([SERVER, "--bind", f"127.0.0.1:{port}", "--allow-unsigned", "--cache-dir", cache,
                             "--allow-network", "127.0.0.0/8", "--no-access-log"], stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        src = f"http://127.0.0.1:{origin.server_address[1]}/smart-4000.jpg"

        def get(options):
            start = time.perf_counter()
            conn.request("GET", f"/unsafe/{options}/plain/{src}@jpg")
            r = conn.getresponse()
            body = r.read()
            if r.status != 200:
                raise SystemExit(f"{options}: {r.status} {body[:200]!r}")
            return time.perf_counter() - start

        get("rs:fit:64:64")  # the source into the source cache
        n = max(15, RUNS * 3)
        smart, centre = [], []
        for i in range(n):
            smart.append(get(f"rs:fill:300:300/g:sm/cb:s{i}"))
            centre.append(get(f"rs:fill:300:300/cb:c{i}"))
        ms, mc = statistics.median(smart) * 1000, statistics.median(centre) * 1000
        print(f"\nservice, cold variant of a cached 4000x3000 source, median of {n} interleaved: "
              f"g:sm {ms:.1f} ms, centre {mc:.1f} ms, ratio {ms / mc:.2f} (target <= 1.15)")
        conn.request("GET", f"/unsafe/rs:fit:1024:1024/cb:size/plain/{src}@jpg")
        plain_size = len(conn.getresponse().read())
        limited, free = [], []
        for i in range(n):
            limited.append(get(f"rs:fit:1024:1024/mb:{plain_size // 2}/cb:m{i}"))
            free.append(get(f"rs:fit:1024:1024/cb:f{i}"))
        ml, mf = statistics.median(limited) * 1000, statistics.median(free) * 1000
        conn.request("GET", f"/unsafe/rs:fit:1024:1024/mb:{plain_size // 2}/cb:size/plain/{src}@jpg")
        limited_size = len(conn.getresponse().read())
        print(f"service, mb at half the body ({plain_size} -> {limited_size} bytes): {ml:.1f} ms against "
              f"{mf:.1f} ms without, {mf / ml:.2f}x the cold rate")
    finally:
        proc.terminate()
        proc.wait()
        origin.shutdown()


def main():
    if not os.path.exists(SRC):
        source_photo().resize((4000, 3000), Image.LANCZOS).save(SRC, quality=90)
    out = lambda name: path("smart_out_" + name)
    cmp = Comparison(MAGPIE)
    cmp.compare("JPEG 4000x3000 -> 300x300 attention",
                [MAGPIE, "thumb", SRC, "-s", "300", "--fill", "--smart", "-o", out("m.jpg")],
                ["vipsthumbnail", SRC, "-s", "300x300", "--smartcrop", "attention", "-o", out("v.jpg")],
                "vipsthumbnail", 1.0)
    cmp.compare("JPEG 4000x3000 -> 300x300 centre",
                [MAGPIE, "thumb", SRC, "-s", "300", "--fill", "-o", out("mc.jpg")],
                ["vipsthumbnail", SRC, "-s", "300x300", "--smartcrop", "centre", "-o", out("vc.jpg")],
                "vipsthumbnail")
    print_table(cmp.rows, RUNS, f"magpie --version peak RSS {cmp.base_rss:.1f} MiB")
    d, err = window_offset(out("m.jpg"), out("v.jpg"))
    dc, errc = window_offset(out("mc.jpg"), out("vc.jpg"))
    print(f"\nwindows: magpie's attention crop lies {d:+d} px from vips's (mean abs diff there {err:.1f}); "
          f"the centre crops {dc:+d} px apart ({errc:.1f})")
    service()


main()
