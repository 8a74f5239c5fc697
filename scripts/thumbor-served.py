#!/usr/bin/env python3
"""Runs thumbor 7.8 itself (its own server, in a virtualenv: python3 -m venv V && V/bin/pip install
"thumbor==7.8.*") over a loopback origin and writes how it answers a list of URLs into
Tests/fixtures/thumbor/served.json: the status, the Content-Type, the result's size and mode, and
the Cache-Control and Vary fields. Tests/MagpieTests/Server/Thumbor/ImageServiceTests+Thumbor.swift
asks Magpie the same URLs over sources of the same sizes, formats and transparency, and holds it to
these answers. The source bytes differ (each side draws its own), so pixels are not compared here.

Usage: V/bin/python scripts/thumbor-served.py
"""
import http.server
import io
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

from PIL import Image
from libthumbor.url_signers.base64_hmac_sha1 import UrlSigner

KEY = "MY_KEY"
CONF = """SECURITY_KEY = 'MY_KEY'
ALLOW_UNSAFE_URL = True
AUTO_WEBP = True
MAX_AGE = 3600
"""
# (path after the host, Accept): HOST stands for the origin's host and port; a path starting
# with "signed:" is signed with KEY (as libthumbor's CryptoURL signs it) by each side.
URLS = [
    ("/unsafe/HOST/a.jpg", None),
    ("/unsafe/48x32/HOST/a.jpg", None),
    ("/unsafe/50x50/HOST/a.jpg", None),
    ("/unsafe/0x32/HOST/a.jpg", None),
    ("/unsafe/40x0/HOST/a.jpg", None),
    ("/unsafe/-48x-32/HOST/a.jpg", None),
    ("/unsafe/fit-in/50x50/HOST/a.jpg", None),
    ("/unsafe/fit-in/200x200/HOST/a.jpg", None),
    ("/unsafe/full-fit-in/50x50/HOST/a.jpg", None),
    ("/unsafe/adaptive-fit-in/30x60/HOST/a.jpg", None),
    ("/unsafe/10x10:58x42/HOST/a.jpg", None),
    ("/unsafe/10x10:58x42/20x20/HOST/a.jpg", None),
    ("/unsafe/200x100/HOST/a.jpg", None),
    ("/unsafe/30x30/left/top/HOST/a.jpg", None),
    ("/unsafe/30x30/smart/HOST/a.jpg", None),
    ("/unsafe/20x20/HOST/a.png", None),
    ("/unsafe/48x32/HOST/a.jpg", "image/webp,*/*"),
    ("/unsafe/48x32/filters:format(png)/HOST/a.jpg", "image/webp,*/*"),
    ("/unsafe/48x32/filters:format(webp)/HOST/a.jpg", None),
    ("/unsafe/48x32/filters:format(bogus)/HOST/a.jpg", None),
    ("/unsafe/48x32/filters:quality(40):max_age(60)/HOST/a.jpg", None),
    ("/unsafe/48x32/filters:max_age(0)/HOST/a.jpg", None),
    ("/unsafe/200x200/filters:no_upscale()/HOST/a.jpg", None),
    ("/unsafe/48x32/filters:proportion(0.5)/HOST/a.jpg", None),
    ("/unsafe/fit-in/200x200/filters:upscale()/HOST/a.jpg", None),
    ("/unsafe/50x20/filters:stretch()/HOST/a.jpg", None),
    ("/unsafe/48x32/filters:rotate(90)/HOST/a.jpg", None),
    ("/unsafe/48x32/filters:grayscale()/HOST/a.jpg", None),
    ("/unsafe/48x32/filters:strip_icc():strip_exif()/HOST/a.jpg", None),
    ("/unsafe/48x32/filters:unknown(1):quality(50)/HOST/a.jpg", None),
    ("/unsafe/fit-in/100x100/filters:fill(red)/HOST/a.jpg", None),
    ("/unsafe/fit-in/100x80/filters:fill(transparent):format(png)/HOST/a.png", None),
    ("/unsafe/full-fit-in/50x50/filters:fill(blue)/HOST/a.jpg", None),
    ("/unsafe/adaptive-fit-in/40x100/filters:fill(auto)/HOST/a.jpg", None),
    ("/unsafe/fit-in/0x50/filters:fill(green)/HOST/a.jpg", None),
    ("/unsafe/fit-in/120x40/filters:fill(blur)/HOST/a.jpg", None),
    ("/unsafe/fit-in/60x60/filters:fill(00ff00,true)/HOST/a.png", None),
    ("/unsafe/fit-in/60x60/filters:fill(nocolour)/HOST/a.jpg", None),
    ("/unsafe/48x32/filters:brightness(10):contrast(5):rgb(1,2,3):saturation(1.2)/HOST/a.jpg", None),
    ("/unsafe/48x32/filters:blur(2):convolution(1;2;1;2;4;2;1;2;1,3,true):equalize()/HOST/a.jpg", None),
    ("/unsafe/48x32/filters:colorize(10,20,30,ff0000):noise(10,3)/HOST/a.jpg", None),
    ("/unsafe/20x20/filters:background_color(white):format(png)/HOST/a.png", None),
    ("/unsafe/meta/48x32/HOST/a.jpg", None),
    ("/unsafe/meta/fit-in/50x50/HOST/a.jpg", None),
    ("/unsafe/meta/-48x-32/HOST/a.jpg", None),
    ("/unsafe/meta/10x10:58x42/20x20/HOST/a.jpg", None),
    ("/unsafe/meta/HOST/a.png", None),
    ("/unsafe/meta/30x30/smart/HOST/a.jpg", None),
    ("/unsafe/meta/200x100/left/top/filters:brightness(10):fill(red)/HOST/a.jpg", None),
    ("/unsafe/meta/full-fit-in/50x50/HOST/a.jpg?callback=fn", None),
    ("/unsafe/meta/48x32/HOST/missing.jpg", None),
    ("signed:/48x32/HOST/a.jpg", None),
    ("/AAAAAAAAAAAAAAAAAAAAAAAAAAA=/48x32/HOST/a.jpg", None),
    ("/48x32/HOST/a.jpg", None),
    ("/unsafe/48x32/HOST/missing.jpg", None),
    ("/unsafe/48x32/HOST/text", None),
    ("/healthcheck", None),
]


def sources():
    jpeg = Image.new("RGB", (96, 64))
    jpeg.putdata([(x * 255 // 96, y * 255 // 64, 128) for y in range(64) for x in range(96)])
    png = Image.new("RGBA", (40, 30))
    png.putdata([(x * 6, y * 8, 200, 0 if x < 5 else 255) for y in range(30) for x in range(40)])
    out = {}
    for name, image, fmt in (("a.jpg", jpeg, "JPEG"), ("a.png", png, "PNG")):
        buf = io.BytesIO()
        image.save(buf, fmt)
        out["/" + name] = (buf.getvalue(), "image/" + fmt.lower())
    out["/text"] = (b"hello", "text/plain")
    return out


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    files = sources()

    class Origin(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body, kind = files.get(self.path, (None, None))
            if body is None:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    origin = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Origin)
    threading.Thread(target=origin.serve_forever, daemon=True).start()
    host = f"127.0.0.1:{origin.server_address[1]}"
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        conf = os.path.join(tmp, "thumbor.conf")
        with open(conf, "w") as f:
            f.write(CONF + f"FILE_STORAGE_ROOT_PATH = '{tmp}/storage'\n")
        thumbor = subprocess.Popen(
            [os.path.join(os.path.dirname(sys.executable), "thumbor"), "--port", str(port), "--ip", "127.0.0.1",
             "--conf", conf, "-l", "error"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(100):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/healthcheck", timeout=1)
                    break
                except OSError:
                    time.sleep(0.1)
            rows = [ask(port, host, path, accept) for path, accept in URLS]
        finally:
            thumbor.terminate()
            thumbor.wait()
    origin.shutdown()
    import thumbor as t
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "fixtures", "thumbor", "served.json")
    with open(out, "w", encoding="utf-8") as f:
        f.write('{"thumbor": %s, "conf": %s, "urls": [\n' % (json.dumps(t.__version__), json.dumps(CONF)))
        f.write(",\n".join(" " + json.dumps(r) for r in rows))
        f.write("\n]}\n")
    print(f"wrote {len(rows)} answers to {os.path.relpath(out)}")


def ask(port, host, path, accept):
    target = path.replace("HOST", host)
    if target.startswith("signed:"):
        unsigned = target[len("signed:/"):]
        target = "/" + UrlSigner(KEY).signature(unsigned).decode() + "/" + unsigned
    request = urllib.request.Request(f"http://127.0.0.1:{port}{target}")
    if accept:
        request.add_header("Accept", accept)
    try:
        response = urllib.request.urlopen(request, timeout=30)
        status, headers, body = response.status, response.headers, response.read()
    except urllib.error.HTTPError as e:
        status, headers, body = e.code, e.headers, b""
    row = {"path": path, "accept": accept, "status": status}
    if status == 200:
        row["type"] = headers.get("Content-Type")
        row["cache_control"] = headers.get("Cache-Control")
        row["vary"] = headers.get("Vary")
        if not row["type"].startswith("image/"):
            # The origin's host as the body quotes it, written HOST as in the path.
            row["body"] = body.decode().replace(urllib.parse.quote(host, safe=""), "HOST")
        if row["type"].startswith("image/"):
            image = Image.open(io.BytesIO(body))
            row["size"] = list(image.size)
            row["mode"] = image.mode
            # Whether any pixel is not opaque (Pillow keeps RGBA for an opaque result too).
            row["transparent"] = "A" in image.mode and image.getchannel("A").getextrema()[0] < 255
            if image.format == "JPEG":
                row["progressive"] = bool(image.info.get("progressive") or image.info.get("progression"))
    return row


if __name__ == "__main__":
    main()
