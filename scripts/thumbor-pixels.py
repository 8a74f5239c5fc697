#!/usr/bin/env python3
"""Runs thumbor 7.8's own pixel filters (its C extensions, thumbor/ext/filters/_*.c, called with
the arguments its filter classes pass them) over one small RGBA image and writes each output into
Tests/fixtures/thumbor/pixels.json. ThumborPixelTests runs Magpie's filters of the same names over
the same pixels and holds every byte to thumbor's.

The input is drawn here from a formula (a 23x17 image: gradients, a few flat patches, alpha from
opaque to clear), so the test makes the same pixels without a file.

Usage: V/bin/python scripts/thumbor-pixels.py   (V: python3 -m venv V && V/bin/pip install "thumbor==7.8.*")
"""
import ast
import asyncio
import json
import os

import thumbor
from PIL import ImageColor
from thumbor.ext.filters import (_brightness, _colorize, _contrast, _convolution, _curve, _equalize, _fill, _noise,
                                 _rgb, _saturation)
from thumbor.filters.blur import apply_blur

W, H = 23, 17


def source():
    """Pixel (x, y): the same formula as ThumborPixelTests.source."""
    out = bytearray()
    for y in range(H):
        for x in range(W):
            if x < 4 and y < 4:
                r, g, b = 200, 40, 90  # a flat patch
            else:
                r, g, b = (x * 11 + y * 3) % 256, (y * 15 + x * x) % 256, (x * y * 7 + 60) % 256
            a = 255 if y < 9 else (255 - (x * 11)) % 256
            out += bytes((r, g, b, a))
    return bytes(out)


def curve_args(text):
    return tuple(ast.literal_eval(text))


CURVE_A = "[(0,0),(40,59),(255,255)]"
CURVE_R = "[(32,59),(64,80),(92,111),(128,153),(140,169),(164,201),(192,214),(224,215),(240,214),(255,212)]"
CURVE_G = "[(34,41),(64,51),(92,76),(128,112),(140,124),(164,147),(192,180),(224,216),(240,236),(255,255)]"
CURVE_B = "[(40,46),(64,55),(92,83),(128,127),(140,144),(164,174),(192,197),(224,199),(240,197),(255,198)]"

# (the filter as a URL writes it, the call thumbor's filter makes)
CASES = [
    ("brightness(10)", lambda d: _brightness.apply("RGBA", 10, d)),
    ("brightness(-33)", lambda d: _brightness.apply("RGBA", -33, d)),
    ("brightness(150)", lambda d: _brightness.apply("RGBA", 150, d)),
    ("contrast(25)", lambda d: _contrast.apply("RGBA", 25, d)),
    ("contrast(-60)", lambda d: _contrast.apply("RGBA", -60, d)),
    ("contrast(100)", lambda d: _contrast.apply("RGBA", 100, d)),
    ("rgb(10,-20,35)", lambda d: _rgb.apply("RGBA", 10, -20, 35, d)),
    ("saturation(1.5)", lambda d: _saturation.apply("RGBA", 1.5, d)),
    ("saturation(0)", lambda d: _saturation.apply("RGBA", 0.0, d)),
    ("saturation(-0.7)", lambda d: _saturation.apply("RGBA", -0.7, d)),
    ("saturation(3.3)", lambda d: _saturation.apply("RGBA", 3.3, d)),
    ("colorize(40,70,10,ff8800)", lambda d: _colorize.apply("RGBA", 40, 70, 10, 0xFF, 0x88, 0x00, d)),
    ("colorize(100,0,250,102030)", lambda d: _colorize.apply("RGBA", 100, 0, 250, 0x10, 0x20, 0x30, d)),
    ("equalize()", lambda d: _equalize.apply("RGBA", d)),
    (f"curve({CURVE_A},{CURVE_R},{CURVE_G},{CURVE_B})",
     lambda d: _curve.apply("RGBA", d, curve_args(CURVE_A), curve_args(CURVE_R), curve_args(CURVE_G),
                            curve_args(CURVE_B))),
    ("curve([(0,0),(255,255)],[(0,255),(255,0)],[(10,20)],[(0,0),(128,200),(255,255)])",
     lambda d: _curve.apply("RGBA", d, ((0, 0), (255, 255)), ((0, 255), (255, 0)), ((10, 20),),
                            ((0, 0), (128, 200), (255, 255)))),
    ("noise(20,7)", lambda d: _noise.apply("RGBA", 20, d, 7)),
    ("noise(255,123456)", lambda d: _noise.apply("RGBA", 255, d, 123456)),
    ("blur(2)", lambda d: apply_blur("RGBA", d, (W, H), 2)),
    ("blur(3,1.5)", lambda d: apply_blur("RGBA", d, (W, H), 3, 1.5)),
    ("blur(30)", lambda d: apply_blur("RGBA", d, (W, H), 30)),
    ("convolution(1;2;1;2;4;2;1;2;1,3,true)",
     lambda d: _convolution.apply("RGBA", d, W, H, tuple("1;2;1;2;4;2;1;2;1".split(";")), 3, True)),
    ("convolution(-1;-1;-1;-1;8;-1;-1;-1;-1,3,false)",
     lambda d: _convolution.apply("RGBA", d, W, H, tuple("-1;-1;-1;-1;8;-1;-1;-1;-1".split(";")), 3, False)),
    ("convolution(1;0.5;2.;-1;3,5)",
     lambda d: _convolution.apply("RGBA", d, W, H, tuple("1;0.5;2.;-1;3".split(";")), 5, True)),
]

# The same filters on the opaque rows as Pillow's RGB (no alpha channel): what an opaque source is.
OPAQUE_ROWS = 9
OPAQUE = [
    ("blur(2)", lambda d: apply_blur("RGB", d, (W, OPAQUE_ROWS), 2)),
    ("convolution(1;2;1;2;4;2;1;2;1,3,true)",
     lambda d: _convolution.apply("RGB", d, W, OPAQUE_ROWS, tuple("1;2;1;2;4;2;1;2;1".split(";")), 3, True)),
    ("saturation(1.5)", lambda d: _saturation.apply("RGB", 1.5, d)),
]


# fill and background_color through thumbor's own filter classes and Pillow engine: (filter,
# the request's width and height as the transform leaves them).
CANVAS = [
    ("fill(red)", 30, 25), ("fill(red,true)", 30, 25), ("fill(transparent)", 30, 25), ("fill(auto)", 30, 25),
    ("fill(00ff00,1)", 31, 20), ("fill(f0a)", 26, 18), ("fill(ff000080,true)", 30, 25), ("fill(blue)", 20, 10),
    ("fill(SkyBlue,true)", 0, 25), ("fill(black)", 23, 0), ("background_color(white)", 0, 0),
    ("background_color(abcdef)", 50, 50), ("background_color(f00a)", 0, 0),
]


def canvas_cases(src):
    from PIL import Image
    from thumbor.config import Config
    from thumbor.context import Context, RequestParameters
    from thumbor.engines.pil import Engine
    from thumbor.filters.background_color import Filter as Background
    from thumbor.filters.fill import Filter as Fill
    from thumbor.importer import Importer

    config = Config()
    importer = Importer(config)
    importer.import_modules()
    rows = []
    for text, w, h in CANVAS:
        context = Context(config=config, importer=importer)
        context.request = RequestParameters(width=w, height=h)
        engine = Engine(context)
        context.modules.engine = engine
        engine.image = Image.frombytes("RGBA", (W, H), src)
        f = (Fill if text.startswith("fill") else Background)(text, context)
        asyncio.run(f.run())
        image = engine.image.convert("RGBA")
        rows.append({"filter": text, "box": [w, h], "size": list(image.size), "pixels": image.tobytes().hex()})
    return rows


def max_bytes_cases():
    """thumbor's reload_to_fit_in_kb over an engine whose body at quality q is 100 q bytes: the
    qualities it asks for and the size it answers."""
    from thumbor.handlers import BaseHandler

    class Engine:
        def __init__(self):
            self.asked = []

        def read(self, extension, quality):
            self.asked.append(quality)
            return b"x" * (quality * 100)

    rows = []
    for quality, limit in [(80, 5000), (80, 100), (95, 9000), (30, 2000), (80, 9000), (12, 1000), (100, 7400)]:
        engine = Engine()
        out = BaseHandler.reload_to_fit_in_kb(engine, engine.read(".jpg", quality), ".jpg", quality, limit)
        rows.append({"quality": quality, "max_bytes": limit, "asked": engine.asked, "size": len(out)})
    return rows


def colormap():
    """Pillow's names and colours, as `#rrggbb` (a name it has read is cached there as a tuple)."""
    out = {}
    for name, value in sorted(ImageColor.colormap.items()):
        out[name] = value[1:] if isinstance(value, str) else "%02x%02x%02x" % tuple(value[:3])
    return out


def main():
    colors = colormap()
    src = source()
    rows = []
    for text, call in CASES:
        # The extensions change the bytes object they are given, in place: each its own copy.
        out = call(bytes(bytearray(src)))
        rows.append({"filter": text, "pixels": bytes(out).hex()})
    rgb = bytes(b for i, b in enumerate(src[:W * OPAQUE_ROWS * 4]) if i % 4 != 3)
    opaque = [{"filter": text, "pixels": bytes(call(bytes(bytearray(rgb)))).hex()} for text, call in OPAQUE]
    fill = _fill.apply("RGBA", bytes(bytearray(src)))
    table = {"thumbor": thumbor.__version__, "width": W, "height": H, "source": src.hex(), "cases": rows,
             "opaque_rows": OPAQUE_ROWS, "opaque": opaque,
             "canvas": canvas_cases(src), "colors": colors, "max_bytes": max_bytes_cases(),
             "fill_auto": "%02x%02x%02x" % tuple(fill)}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "fixtures", "thumbor", "pixels.json")
    with open(path, "w") as f:
        json.dump(table, f, indent=1)
        f.write("\n")
    print(f"{len(rows)} cases written to {os.path.normpath(path)}")


if __name__ == "__main__":
    main()
