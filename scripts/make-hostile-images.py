#!/usr/bin/env python3
"""Writes six small files that ask a decoder for about a gigabyte each (for scripts/bench-hostile.sh).

Made here from the format specifications, with nothing but the standard library:
  progressive-17000.jpg   a progressive JPEG header declaring 17000x17000 (3 components, 4:2:0):
                          libjpeg keeps every coefficient of a progressive image (~860 MB)
  progressive-gray.jpg    the same, 30000x14000 grayscale (~840 MB)
  interlaced-16000.png    an Adam7-interlaced 16000x16000 RGBA PNG of zeros: the full image is
                          held before the last pass (~980 MB)
  interlaced-16bit.png    11000x11000 RGBA 16-bit, interlaced (~970 MB)
  canvas.gif              a 16000x16000 GIF screen, one 1x1 frame: two canvases (~2 GB, over the
                          per-decode limit: refused)
  wide.jpg                a 60000x4000 progressive JPEG header (~530 MB)
Usage: make-hostile-images.py DIR
"""
import struct
import sys
import zlib
from pathlib import Path


def jpeg_progressive(width, height, components):
    out = bytearray(b"\xff\xd8")
    out += b"\xff\xdb" + struct.pack(">H", 67) + b"\x00" + bytes([1] * 64)  # one flat quantisation table
    sof = struct.pack(">BHHB", 8, height, width, len(components))
    for cid, sampling in components:
        sof += bytes([cid, sampling, 0])
    out += b"\xff\xc2" + struct.pack(">H", 2 + len(sof)) + sof
    # A DC table with one code of length 1 for the symbol 0 (every DC difference is zero).
    dht = b"\x00" + bytes([1] + [0] * 15) + b"\x00"
    out += b"\xff\xc4" + struct.pack(">H", 2 + len(dht)) + dht
    sos = bytes([len(components)]) + b"".join(bytes([cid, 0x00]) for cid, _ in components) + b"\x00\x00\x00"
    out += b"\xff\xda" + struct.pack(">H", 2 + len(sos)) + sos
    out += b"\x00" * 64  # the first few blocks' DC bits
    return bytes(out + b"\xff\xd9")


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_interlaced(width, height, bit_depth):
    bpp = 4 * bit_depth // 8
    ihdr = struct.pack(">IIBBBBB", width, height, bit_depth, 6, 0, 0, 1)
    compressor = zlib.compressobj(9)
    data = bytearray()
    passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
    for x0, y0, dx, dy in passes:
        cols = (width - x0 + dx - 1) // dx if width > x0 else 0
        rows = (height - y0 + dy - 1) // dy if height > y0 else 0
        row = bytes(1 + cols * bpp)
        for _ in range(rows):
            data += compressor.compress(row)
    data += compressor.flush()
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IDAT", bytes(data)) + png_chunk(b"IEND", b"")


def gif_canvas(width, height):
    g = bytearray(b"GIF89a" + struct.pack("<HH", width, height) + b"\x80\x00\x00" + b"\x00\x00\x00\xff\xff\xff")
    g += b"\x2c" + struct.pack("<HHHH", 0, 0, 1, 1) + b"\x00" + b"\x02\x02\x4c\x01\x00"
    return bytes(g + b"\x3b")


def main():
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    files = {
        "progressive-17000.jpg": jpeg_progressive(17000, 17000, [(1, 0x22), (2, 0x11), (3, 0x11)]),
        "progressive-gray.jpg": jpeg_progressive(30000, 14000, [(1, 0x11)]),
        "interlaced-16000.png": png_interlaced(16000, 16000, 8),
        "interlaced-16bit.png": png_interlaced(11000, 11000, 16),
        "canvas.gif": gif_canvas(16000, 16000),
        "wide.jpg": jpeg_progressive(60000, 4000, [(1, 0x22), (2, 0x11), (3, 0x11)]),
    }
    for name, data in files.items():
        (out / name).write_bytes(data)
        print(f"{name}\t{len(data)} bytes")


if __name__ == "__main__":
    main()
