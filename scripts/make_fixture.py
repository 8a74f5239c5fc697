"""Draws fixtures/magpie-demo.jpg (the README's main-job input) procedurally and encodes it with
Magpie's own encoder through ctypes. Deterministic; rerun to regenerate."""
import ctypes
import math
import os
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
lib = ctypes.CDLL(sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "build", "libmagpie.so"))
W, H = 1200, 800
px = bytearray(W * H * 4)
circles = [(300, 300, 180, (230, 80, 60)), (700, 420, 260, (60, 140, 220)), (980, 220, 140, (250, 200, 60))]
for y in range(H):
    for x in range(W):
        r = 40 + 120 * y // H
        g = 60 + 100 * x // W
        b = 110 + int(60 * math.sin(x / 90.0) * math.cos(y / 70.0))
        for cx, cy, rad, col in circles:
            d = math.hypot(x - cx, y - cy)
            if d < rad:
                t = min(1.0, (rad - d) / 6.0)  # soft edge
                shade = 0.75 + 0.25 * (1 - d / rad)
                r = int(r * (1 - t) + col[0] * shade * t)
                g = int(g * (1 - t) + col[1] * shade * t)
                b = int(b * (1 - t) + col[2] * shade * t)
        i = (y * W + x) * 4
        px[i:i + 4] = bytes((r, g, b, 255))


class EncodeOptions(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("format", ctypes.c_int), ("quality", ctypes.c_int),
                ("subsampling", ctypes.c_int), ("compression_level", ctypes.c_int), ("background", ctypes.c_uint32)]


o = EncodeOptions()
lib.magpie_encode_options_init(ctypes.byref(o))
o.format, o.quality = 1, 88
out = ctypes.POINTER(ctypes.c_uint8)()
size = ctypes.c_size_t()
buf = (ctypes.c_uint8 * len(px)).from_buffer(px)
rc = lib.magpie_encode(buf, W, H, ctypes.c_size_t(W * 4), ctypes.byref(o), ctypes.byref(out), ctypes.byref(size))
assert rc == 0, rc
os.makedirs(os.path.join(root, "fixtures"), exist_ok=True)
with open(os.path.join(root, "fixtures", "magpie-demo.jpg"), "wb") as f:
    f.write(bytes(out[:size.value]))
lib.magpie_free(out)
print(f"fixtures/magpie-demo.jpg: {size.value} bytes")
