"""magpie-server exporting traces over OTLP/HTTP to a collector on loopback.

Usage: test_otlp.py MAGPIE_SERVER_BINARY [EXTRA SERVER ARGUMENTS...] (say --otel-sdk swift-otel)

One HTTP server on 127.0.0.1 plays both the origin (GET /a.png, a PNG made here) and the OTLP
collector (POST /v1/traces, bodies kept). The export bodies are decoded with OpenTelemetry's own
protobuf classes (the opentelemetry-proto package) when they can be imported, else with the wire
format decoder below, and the spans checked: a request that carries a W3C traceparent comes back
as one tree of that trace, the request span the caller's child, the decode inside the processing,
the origin told the download span's own ID. The export's schedule is a minute, so the spans
arrive only through the last export at shutdown (SIGTERM), which is what is tested. Bounded waits,
no sleeps standing in for order.
"""
import http.server
import os
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import urllib.request
import zlib

binary, extra = sys.argv[1], sys.argv[2:]
trace_id = "4bf92f3577b34da6a3ce929d0e0e4736"
incoming = f"00-{trace_id}-00f067aa0ba902b7-01"


def png(width, height):
    rows = b"".join(b"\x00" + bytes(v for x in range(width) for v in (x * 7 % 256, y * 5 % 256, 90))
                    for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def wire(data):
    """A protobuf message's fields: {number: [value, ...]} (varints as ints, fixed as bytes)."""
    fields, at = {}, 0

    def varint():
        nonlocal at
        value, shift = 0, 0
        while True:
            b = data[at]
            at += 1
            value |= (b & 0x7F) << shift
            shift += 7
            if b < 0x80:
                return value
    while at < len(data):
        key = varint()
        number, kind = key >> 3, key & 7
        if kind == 0:
            value = varint()
        elif kind == 1:
            value, at = data[at:at + 8], at + 8
        elif kind == 5:
            value, at = data[at:at + 4], at + 4
        elif kind == 2:
            n = varint()
            value, at = data[at:at + n], at + n
        else:
            raise ValueError(f"wire type {kind}")
        fields.setdefault(number, []).append(value)
    return fields


def any_value(m):  # AnyValue: 1 string, 2 bool, 3 int, 4 double
    f = wire(m)
    if 1 in f:
        return f[1][0].decode()
    if 2 in f:
        return bool(f[2][0])
    if 3 in f:
        return f[3][0] - (1 << 64) if f[3][0] >= 1 << 63 else f[3][0]
    if 4 in f:
        return struct.unpack("<d", f[4][0])[0]
    return None


def attributes(kvs):
    return {wire(kv)[1][0].decode(): any_value(wire(kv)[2][0]) for kv in kvs}


def decode(bodies):
    """(spans, service names, which decoder) from ExportTraceServiceRequest bodies."""
    spans, services = [], set()
    try:
        from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
    except ImportError:
        for body in bodies:
            for rs in wire(body).get(1, []):
                rs = wire(rs)
                services.add(attributes(wire(rs[1][0]).get(1, [])).get("service.name"))
                for ss in rs.get(2, []):
                    for sp in wire(ss).get(2, []):
                        f = wire(sp)
                        spans.append({
                            "trace_id": f[1][0], "span_id": f[2][0], "parent": f.get(4, [b""])[0],
                            "name": f[5][0].decode(), "kind": f.get(6, [0])[0],
                            "start": struct.unpack("<Q", f[7][0])[0], "end": struct.unpack("<Q", f[8][0])[0],
                            "attributes": attributes(f.get(9, []))})
        return spans, services, "wire format decoder"
    for body in bodies:
        request = ExportTraceServiceRequest()
        request.ParseFromString(body)
        for rs in request.resource_spans:
            for kv in rs.resource.attributes:
                if kv.key == "service.name":
                    services.add(kv.value.string_value)
            for ss in rs.scope_spans:
                for sp in ss.spans:
                    attrs = {kv.key: getattr(kv.value, kv.value.WhichOneof("value")) for kv in sp.attributes}
                    spans.append({
                        "trace_id": sp.trace_id, "span_id": sp.span_id, "parent": sp.parent_span_id,
                        "name": sp.name, "kind": sp.kind, "start": sp.start_time_unix_nano,
                        "end": sp.end_time_unix_nano, "attributes": attrs})
    return spans, services, "opentelemetry-proto"


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
env = dict(os.environ, OTEL_BSP_SCHEDULE_DELAY="60000", OTEL_SERVICE_NAME="magpie-test")
child = subprocess.Popen(
    [binary, "--bind", "127.0.0.1:0", "--cache-dir", cache, "--allow-unsigned", "--allow-loopback-sources",
     "--otel-endpoint", f"http://127.0.0.1:{port}", "--otel-propagate-external", *extra], stdout=subprocess.PIPE, stderr=log, env=env, text=True)
ok = False
try:
    line = child.stdout.readline()
    assert "listening on" in line, line
    server_port = int(line.rsplit(":", 1)[1])
    url = f"http://127.0.0.1:{server_port}/insecure/rs:fit:16:16/plain/http://127.0.0.1:{port}/a.png@png"
    request = urllib.request.Request(url, headers={"traceparent": incoming})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200 and response.read()[:4] == b"\x89PNG"
    sent = [h.get("traceparent", "") for h in origin_headers]
    child.send_signal(signal.SIGTERM)
    child.wait(timeout=30)
    with lock:
        assert exports, "nothing was exported at shutdown"
        path, content_type, _ = exports[0]
        bodies = [body for _, _, body in exports]
    assert path == "/v1/traces" and content_type == "application/x-protobuf", (path, content_type)
    spans, services, decoder = decode(bodies)
    assert "magpie-test" in services, services
    by_name = {}
    for span in spans:
        by_name.setdefault(span["name"], span)
    wanted = ["magpie.request", "magpie.download", "magpie.process", "magpie.decode", "magpie.encode"]
    assert all(n in by_name for n in wanted), sorted(by_name)
    raw = bytes.fromhex(trace_id)
    assert all(s["trace_id"] == raw for s in spans), "a span is not in the caller's trace"
    request_span = by_name["magpie.request"]
    assert request_span["parent"] == bytes.fromhex("00f067aa0ba902b7"), request_span["parent"].hex()
    assert request_span["kind"] == 2 and by_name["magpie.download"]["kind"] == 3
    attributes = request_span["attributes"]
    assert attributes.get("http.response.status_code") == 200, attributes
    assert attributes.get("http.request.method") == "GET" and attributes.get("magpie.cache") == "miss", attributes
    assert by_name["magpie.download"]["attributes"].get("http.response.body.size") == len(image)
    ids = {s["span_id"]: s for s in spans}
    for span in spans:  # every span descends from the request span
        at, hops = span, 0
        while at is not request_span:
            at, hops = ids.get(at["parent"]), hops + 1
            assert at is not None and hops < 10, f"{span['name']} does not descend from the request"
        assert span["end"] >= span["start"] > 0
    assert by_name["magpie.decode"]["parent"] == by_name["magpie.process"]["span_id"]
    download = by_name["magpie.download"]["span_id"].hex()
    assert f"00-{trace_id}-{download}-01" in sent, f"the origin was not told the download span: {sent}"
    print(f"OTLP ({decoder}): {len(spans)} spans of the caller's trace in {len(bodies)} export(s): {wanted}")
    ok = True
finally:
    if child.poll() is None:
        child.send_signal(signal.SIGTERM)
        child.wait(timeout=30)
    server.shutdown()
    if not ok:
        log.seek(0)
        sys.stderr.write(log.read())
