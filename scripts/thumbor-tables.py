#!/usr/bin/env python3
"""Writes Tests/fixtures/thumbor/urls.json (how thumbor 7.8 itself takes request paths apart and
signs them) and Tests/fixtures/thumbor/geometry.json (the crops, resizes and flips thumbor's own
handler and Transformer ask of an engine for a source size and a request), for Magpie's tests to
hold ThumborPath, ThumborSignature and ThumborGeometry to.

Run with a Python that has thumbor (scripts/bench-serve.sh makes one):
    ../thumbor-venv/bin/python scripts/thumbor-tables.py

Each path goes through thumbor's own route as tornado runs it: libthumbor's Url.regex(),
anchored at the end, matched against the path as sent; each group percent-decoded as tornado's
router decodes it; the image quoted again as thumbor's handler quotes it. Signatures come from
libthumbor's CryptoURL, as a client makes them."""
import json
import os
import re
from importlib import metadata
from urllib.parse import quote, unquote_to_bytes

import thumbor
from libthumbor import CryptoURL
from libthumbor.url_signers.base64_hmac_sha1 import UrlSigner
from thumbor.url import Url

PATHS = [
    # thumbor's tests/test_url.py
    "/debug/meta/trim/300x200:400x500/adaptive-full-fit-in/-300x-400/left/top/smart/filters:brightness(100)/some/image.jpg",
    "",
    # the parts one at a time
    "/unsafe/img.jpg",
    "/unsafe/300x200/img.jpg",
    "/unsafe/300x200/http://example.com/img.jpg",
    "/unsafe/-300x-200/img.jpg",
    "/unsafe/-x-/img.jpg",
    "/unsafe/x/img.jpg",
    "/unsafe/0x0/img.jpg",
    "/unsafe/origx100/img.jpg",
    "/unsafe/100xorig/img.jpg",
    "/unsafe/-origx-orig/img.jpg",
    "/unsafe/300x/img.jpg",
    "/unsafe/x200/img.jpg",
    "/unsafe/fit-in/300x200/img.jpg",
    "/unsafe/adaptive-fit-in/300x200/img.jpg",
    "/unsafe/full-fit-in/300x200/img.jpg",
    "/unsafe/adaptive-full-fit-in/300x200/img.jpg",
    "/unsafe/full-adaptive-fit-in/300x200/img.jpg",
    "/unsafe/10x20:30x40/img.jpg",
    "/unsafe/10x20:30x40/100x100/img.jpg",
    "/unsafe/trim/img.jpg",
    "/unsafe/trim:top-left/img.jpg",
    "/unsafe/trim:bottom-right/img.jpg",
    "/unsafe/trim:10/img.jpg",
    "/unsafe/trim:bottom-right:25/img.jpg",
    "/unsafe/trim:middle/img.jpg",
    "/unsafe/meta/img.jpg",
    "/unsafe/debug/img.jpg",
    "/unsafe/meta/debug/img.jpg",
    "/unsafe/left/img.jpg",
    "/unsafe/right/bottom/img.jpg",
    "/unsafe/top/left/img.jpg",
    "/unsafe/center/middle/img.jpg",
    "/unsafe/smart/img.jpg",
    "/unsafe/300x200/smart/img.jpg",
    "/unsafe/filters:quality(80)/img.jpg",
    "/unsafe/filters:quality(80):format(webp)/img.jpg",
    "/unsafe/filters:watermark(http://a.com/w.png,10,-10,50)/http://b.com/img.jpg",
    "/unsafe/filters:fill(red)/x.com/a)/b.jpg",
    "/unsafe/filters:noparens/img.jpg",
    "/unsafe/filters:a()/img.jpg",
    "/unsafe/300x200/filters:blur(2)/s.glbimg.com/et/bb/f/original/2011/03/24/VN0JiwzmOw0b0lg.jpg",
    # sources as clients write them
    "/unsafe/http://example.com/a%20b.jpg",
    "/unsafe/http%3A%2F%2Fexample.com%2Fimg.jpg",
    "/unsafe/example.com/img.jpg",
    "/unsafe/https://example.com/caf%C3%A9.jpg",
    "/unsafe/https://example.com/café.jpg",
    "/unsafe/http://example.com/a+b.jpg",
    "/unsafe/http://example.com/img.jpg%3Fw%3D1",
    "/unsafe/http://example.com/%E2%82%AC/x(1).jpg",
    "/unsafe/http://example.com/100%/x.jpg",
    # what is no option is the image
    "/unsafe/300x200/left/img.jpg",
    "/unsafe/left/300x200/img.jpg",
    "/unsafe/smart/300x200/img.jpg",
    "/unsafe/fit-in/img.jpg",
    "/unsafe/300x200",
    "/unsafe/",
    "/unsafe",
    "/unsafe/300x200/",
    "/unsafe//img.jpg",
    "unsafe/img.jpg",
    # signatures and what stands where one would
    "/1234567890123456789012345678/300x200/img.jpg",
    "/abc/img.jpg",
    "/300x200/img.jpg",
    "/img.jpg",
    "/abc%3D/img.jpg",
    "/healthcheck",
    # huge numbers
    "/unsafe/99999999999999999999999x1/img.jpg",
]

# (key, options for CryptoURL.generate); each URL is also parsed
SIGNED = [
    ("MY_SECURE_KEY", dict(width=300, height=200, image_url="my.server.com/some/path/to/image.jpg")),
    ("MY_SECURE_KEY", dict(width=300, height=200, smart=True, image_url="http://example.com/img.jpg")),
    ("my-security-key", dict(fit_in=True, width=100, height=100, filters=["quality(80)", "format(webp)"],
                             image_url="https://example.com/a%20b.jpg")),
    ("my-security-key", dict(crop=((10, 20), (30, 40)), flip=True, flop=True, width=50, height=60,
                             halign="left", valign="top", image_url="example.com/x.png")),
    ("é-unicode-key", dict(meta=True, trim=("bottom-right", 10), image_url="example.com/y.gif")),
    ("k", dict(adaptive_full_fit_in=True, width=10, height=20, image_url="a.com/b.jpg")),
]


def decode(value):
    # tornado's router: url_unescape(value, encoding=None, plus=False), then decode_argument (UTF-8).
    if value is None:
        return None
    return unquote_to_bytes(value).decode("utf-8")


def parse(path):
    match = re.match(Url.regex() + "$", path)
    if not match:
        return None
    try:
        g = {k: decode(v) for k, v in match.groupdict().items()}
    except UnicodeDecodeError:
        return "400"
    out = {
        "unsafe": g["unsafe"] == "unsafe",
        "hash": g["hash"],
        "debug": g["debug"] == "debug",
        "meta": g["meta"] == "meta",
        "trim": g["trim"],
        "crop": [int(g[k]) if g[k] else 0 for k in ("crop_left", "crop_top", "crop_right", "crop_bottom")],
        "adaptive": g["adaptive"] is not None,
        "full": g["full"] is not None,
        "fit_in": g["fit_in"] is not None,
        "horizontal_flip": g["horizontal_flip"] == "-",
        "vertical_flip": g["vertical_flip"] == "-",
        "width": g["width"] if g["width"] == "orig" else str(int(g["width"] or 0)),
        "height": g["height"] if g["height"] == "orig" else str(int(g["height"] or 0)),
        "halign": g["halign"] or "center",
        "valign": g["valign"] or "middle",
        "smart": g["smart"] == "smart",
        "filters": g["filters"] or "",
        "image": quote(g["image"].encode("utf-8")),
    }
    return out


def geometry_cases():
    """Source sizes against requests, sampled with a fixed seed."""
    import random

    rng = random.Random(7)
    sources = [(800, 600), (600, 800), (200, 140), (700, 300), (300, 800), (500, 600), (1, 1), (3, 2), (10, 3),
               (1000, 1), (4000, 3000), (640, 480), (333, 777), (1920, 1080), (97, 131)]
    lengths = [0, 0, 1, 50, 100, 150, 180, 300, 400, 640, 1000, 5000, "orig"]
    crops = [None, None, None, (10, 10, 200, 150), (0, 0, 5000, 5000), (300, 300, 100, 100), (1, 2, 3, 4), (50, 0, 450, 300)]
    modes = [(False, False, False), (True, False, False), (True, True, False), (True, False, True), (True, True, True)]
    cases = []
    for sw, sh in sources:
        for _ in range(40):
            fit_in, adaptive, full = rng.choice(modes)
            cases.append(dict(
                source=[sw, sh], width=rng.choice(lengths), height=rng.choice(lengths), fit_in=fit_in,
                adaptive=adaptive, full=full, crop=rng.choice(crops), halign=rng.choice(["left", "center", "right"]),
                valign=rng.choice(["top", "middle", "bottom"]), flip=[rng.random() < 0.2, rng.random() < 0.2],
                stretch=rng.random() < 0.1, max=rng.choice([[0, 0], [0, 0], [500, 0], [0, 500], [500, 400]])))
    # thumbor's tests/fixtures/transformer_test_data.py sizes, plain and fit-in
    for (sw, sh, tw, th) in [(800, 600, 400, 150), (600, 800, 150, 400), (600, 800, 300, 400), (200, 140, 180, 100),
                             (700, 300, 150, 300), (700, 300, 300, 150), (300, 800, 200, 300), (500, 600, 300, 250)]:
        for fit_in in (False, True):
            for halign, valign in (("center", "middle"), ("left", "bottom"), ("right", "top")):
                cases.append(dict(source=[sw, sh], width=tw, height=th, fit_in=fit_in, adaptive=False, full=False,
                                  crop=None, halign=halign, valign=valign, flip=[False, False], stretch=False,
                                  max=[0, 0]))
    return cases


def run_geometry(case):
    from thumbor.config import Config
    from thumbor.context import Context, RequestParameters
    from thumbor.engines import BaseEngine
    from thumbor.handlers import BaseHandler
    from thumbor.importer import Importer
    from thumbor.transformer import Transformer

    calls = []

    class Engine(BaseEngine):
        def __init__(self, context, size):
            super().__init__(context)
            self._size = size
            self.extension = ".jpg"

        @property
        def size(self):
            return self._size

        def crop(self, left, top, right, bottom):
            calls.append(["crop", int(left), int(top), int(right), int(bottom)])
            self._size = (int(right) - int(left), int(bottom) - int(top))

        def resize(self, width, height):
            calls.append(["resize", int(width), int(height)])
            self._size = (int(width), int(height))

        def flip_horizontally(self):
            calls.append(["flip_horizontally"])

        def flip_vertically(self):
            calls.append(["flip_vertically"])

    config = Config(MAX_WIDTH=case["max"][0], MAX_HEIGHT=case["max"][1])
    context = Context(server=None, config=config, importer=Importer(config))
    crop = case["crop"] or (0, 0, 0, 0)
    req = RequestParameters(
        crop=dict(left=crop[0], top=crop[1], right=crop[2], bottom=crop[3]), width=case["width"],
        height=case["height"], fit_in=case["fit_in"], adaptive=case["adaptive"], full=case["full"],
        halign=case["halign"], valign=case["valign"], horizontal_flip=case["flip"][0],
        vertical_flip=case["flip"][1], stretch=case["stretch"], filters=[], image="x.jpg")
    # The handler's steps before the Transformer (execute_image_operations, get_image).
    if config.MAX_WIDTH and not isinstance(req.width, str) and req.width > config.MAX_WIDTH:
        req.width = config.MAX_WIDTH
    if config.MAX_HEIGHT and not isinstance(req.height, str) and req.height > config.MAX_HEIGHT:
        req.height = config.MAX_HEIGHT
    context.request = req
    engine = Engine(context, tuple(case["source"]))
    req.engine = engine
    context.modules.engine = engine
    normalized = engine.normalize()
    BaseHandler.normalize_crops(BaseHandler, normalized, req, engine)
    try:
        Transformer(context).img_operation_worker()
    except Exception as error:  # thumbor answers 500 (for `orig` against an unset side, say)
        return "error: %s" % type(error).__name__
    return calls


def main():
    table = {
        "thumbor": thumbor.__version__,
        "libthumbor": metadata.version("libthumbor"),
        "paths": [{"path": p, "thumbor": parse(p)} for p in PATHS],
        "signed": [],
    }
    for key, options in SIGNED:
        url = CryptoURL(key=key).generate(**options)
        signature, _, signed = url.lstrip("/").partition("/")
        # What thumbor's server checks: its URL_SIGNER with SECURITY_KEY as UTF-8. libthumbor's
        # CryptoURL encodes a text key as Latin-1, so for a key beyond ASCII the two differ
        # (thumbor itself refuses such a client's URLs).
        server = UrlSigner(key).signature(signed).decode()
        table["signed"].append({"key": key, "url": url, "signature": signature, "signed": signed,
                                "server_signature": server, "thumbor": parse(url)})
    here = os.path.dirname(os.path.abspath(__file__))
    out = os.path.join(here, "..", "Tests", "fixtures", "thumbor", "urls.json")
    with open(out, "w", encoding="utf-8") as f:
        # One case a line, so that a change of thumbor's answers shows as lines in a diff.
        f.write('{"thumbor": %s, "libthumbor": %s,\n' % (json.dumps(table["thumbor"]), json.dumps(table["libthumbor"])))
        for name in ("paths", "signed"):
            f.write(' "%s": [\n' % name)
            rows = [json.dumps(row, ensure_ascii=False) for row in table[name]]
            f.write(",\n".join("  " + r for r in rows))
            f.write("\n ]%s\n" % ("," if name == "paths" else ""))
        f.write("}\n")
    print(f"wrote {len(table['paths'])} paths and {len(table['signed'])} signed URLs to {os.path.relpath(out)}")
    cases = geometry_cases()
    out = os.path.join(here, "..", "Tests", "fixtures", "thumbor", "geometry.json")
    with open(out, "w", encoding="utf-8") as f:
        f.write('{"thumbor": %s, "cases": [\n' % json.dumps(thumbor.__version__))
        f.write(",\n".join(" " + json.dumps(dict(case, calls=run_geometry(case))) for case in cases))
        f.write("\n]}\n")
    print(f"wrote {len(cases)} geometry cases to {os.path.relpath(out)}")
    from thumbor.config import Config
    keys = sorted(Config.class_defaults)
    out = os.path.join(here, "..", "Tests", "fixtures", "thumbor", "config.json")
    with open(out, "w", encoding="utf-8") as f:
        f.write('{"thumbor": %s, "keys": [\n' % json.dumps(thumbor.__version__))
        f.write(",\n".join(" " + json.dumps({"key": k, "default": repr(Config.class_defaults[k])}) for k in keys))
        f.write("\n]}\n")
    print(f"wrote {len(keys)} configuration keys to {os.path.relpath(out)}")


if __name__ == "__main__":
    main()
