"""magpie-server built with the OTLP trait, exporting to a collector on loopback.

Usage: test_otlp.py MAGPIE_SERVER_BINARY

One HTTP server on 127.0.0.1 plays both the origin (GET /a.png, a PNG made here) and the OTLP
collector (POST /v1/traces, bodies kept). A request that carries a W3C traceparent must come back
as spans of that trace (the trace ID's 16 bytes and the span names in the protobuf body), and the
download must carry the trace on to the origin. Bounded waits, no sleeps standing in for order.
"""
import http.server
import os
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import zlib

binary = sys.argv[1]
trace_id = "4bf92f3577b34da6a3ce929d0e0e4736"
incoming = f"00-{trace_id}-00f067aa0ba902b7-01"


def png(width, height):
    rows = b"".join(b"\x00" + bytes(v for x in range(width) for v in (x * 7 % 256, y * 5 % 256, 90))
                    for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


image = png(64, 48)
exports, origin_headers = [], []
lock = threading.Condition()


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        with lock:
            origin_headers.append(dict(self.headers))
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.send_header("Content-Length", str(len(image)))
        self.end_headers()
        self.wfile.write(image)

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        with lock:
            exports.append((self.path, self.headers.get("Content-Type"), body))
            lock.notify_all()
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", "0")
        self.end_headers()


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
port = server.server_address[1]
cache = tempfile.mkdtemp()
log = tempfile.TemporaryFile(mode="w+")  # the server's log, shown if the test fails
env = dict(os.environ, OTEL_BSP_SCHEDULE_DELAY="100")
child = subprocess.Popen(
    [binary, "--bind", "127.0.0.1:0", "--cache-dir", cache, "--allow-unsigned", "--allow-loopback-sources",
     "--otel-endpoint", f"http://127.0.0.1:{port}"], stdout=subprocess.PIPE, stderr=log, env=env, text=True)
ok = False
try:
    line = child.stdout.readline()
    assert "listening on" in line, line
    server_port = int(line.rsplit(":", 1)[1])
    url = f"http://127.0.0.1:{server_port}/insecure/rs:fit:16:16/plain/http://127.0.0.1:{port}/a.png@png"
    request = urllib.request.Request(url, headers={"traceparent": incoming})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200 and response.read()[:4] == b"\x89PNG"
    wanted = [b"magpie.request", b"magpie.download", b"magpie.process", b"magpie.decode", b"magpie.encode"]
    deadline = time.monotonic() + 20
    with lock:
        while not all(any(name in body for _, _, body in exports) for name in wanted):
            left = deadline - time.monotonic()
            assert left > 0, f"spans not exported within 20 s: {[len(b) for _, _, b in exports]}"
            lock.wait(left)
        path, content_type, _ = exports[0]
    assert path == "/v1/traces" and content_type == "application/x-protobuf", (path, content_type)
    raw = bytes.fromhex(trace_id)
    assert any(raw in body for _, _, body in exports), "the exported spans are not in the caller's trace"
    sent = [h.get("traceparent", "") for h in origin_headers]
    assert any(t.startswith(f"00-{trace_id}-") for t in sent), f"the origin was not told the trace: {sent}"
    print(f"OTLP: {len(exports)} export(s) of the caller's trace, spans {[n.decode() for n in wanted]}")
    ok = True
finally:
    child.send_signal(signal.SIGTERM)
    child.wait(timeout=30)
    server.shutdown()
    if not ok:
        log.seek(0)
        sys.stderr.write(log.read())
