"""Magpie's C API from Python through ctypes (standard library only).

Loads the CMake-built shared library (MAGPIE_LIB, default build/libmagpie.so) and sniffs, probes,
decodes and thumbnails corpus images, checking sizes and error codes against MANIFEST.tsv.
"""
import csv
import ctypes
import os
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.environ.get("MAGPIE_CORPUS", os.path.join(os.path.dirname(ROOT), "shared", "corpus"))
CORPUS_WEBP_AVIF = os.environ.get("MAGPIE_CORPUS_WEBP_AVIF", os.path.join(os.path.dirname(ROOT), "shared",
                                                                          "corpus-webp-avif"))
LIB = os.environ.get("MAGPIE_LIB", os.path.join(ROOT, "build", "libmagpie.so"))

FORMATS = ["unknown", "jpeg", "png", "gif", "webp", "bmp", "tiff", "heic", "avif", "ico", "svg", "pdf", "jxl"]
E_UNKNOWN, E_UNSUPPORTED, E_TRUNCATED, E_CORRUPT, E_LIMIT_PIXELS = 2, 3, 4, 5, 6
FIT_INSIDE = 1


class Info(ctypes.Structure):
    _fields_ = [(n, ctypes.c_uint32) for n in
                ("struct_size", "format", "width", "height", "frames", "orientation", "bit_depth", "components",
                 "flags")] + [("loop_count", ctypes.c_int32)]


class Limits(ctypes.Structure):
    _fields_ = [("max_pixels", ctypes.c_uint64), ("max_bytes", ctypes.c_uint64), ("max_frames", ctypes.c_uint32)]


class DecodeOptions(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("flags", ctypes.c_uint32), ("limits", Limits),
                ("fit", ctypes.c_int), ("width", ctypes.c_uint32), ("height", ctypes.c_uint32),
                ("max_output_pixels", ctypes.c_uint64), ("filter", ctypes.c_int), ("frame_index", ctypes.c_uint32),
                ("error_detail", ctypes.c_char_p), ("error_detail_size", ctypes.c_size_t)]


class ImageStruct(ctypes.Structure):
    _fields_ = [(n, ctypes.c_uint32) for n in ("struct_size", "width", "height", "stride", "frame_count")] + [
        ("loop_count", ctypes.c_int32), ("format", ctypes.c_int), ("orientation", ctypes.c_uint32),
        ("source_width", ctypes.c_uint32), ("source_height", ctypes.c_uint32),
        ("pixels", ctypes.POINTER(ctypes.c_uint8)), ("delays_ms", ctypes.POINTER(ctypes.c_uint32))]


class EncodeOptions(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("format", ctypes.c_int), ("quality", ctypes.c_int),
                ("subsampling", ctypes.c_int), ("compression_level", ctypes.c_int), ("background", ctypes.c_uint32),
                ("lossless", ctypes.c_int), ("method", ctypes.c_int), ("icc_profile", ctypes.c_void_p),
                ("icc_profile_size", ctypes.c_size_t), ("speed", ctypes.c_int)]


class AnimationOptions(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("loop_count", ctypes.c_int32), ("kmin", ctypes.c_int),
                ("kmax", ctypes.c_int), ("dither", ctypes.c_int), ("max_colors", ctypes.c_int),
                ("max_bytes", ctypes.c_uint64)]


class Pixels(ctypes.Structure):
    _fields_ = [("pixels", ctypes.POINTER(ctypes.c_uint8)), ("width", ctypes.c_uint32), ("height", ctypes.c_uint32),
                ("stride", ctypes.c_size_t)]


def load():
    lib = ctypes.CDLL(LIB)
    lib.magpie_sniff.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
    lib.magpie_sniff.restype = ctypes.c_int
    lib.magpie_sniff_file.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_int)]
    lib.magpie_format_decodable.argtypes = [ctypes.c_int]
    lib.magpie_probe.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(Info)]
    lib.magpie_decode_options_init.argtypes = [ctypes.POINTER(DecodeOptions)]
    lib.magpie_decode.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(DecodeOptions),
                                  ctypes.POINTER(ctypes.POINTER(ImageStruct))]
    lib.magpie_image_free.argtypes = [ctypes.POINTER(ImageStruct)]
    lib.magpie_strerror.restype = ctypes.c_char_p
    lib.magpie_md5_hex.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p]
    lib.magpie_version_string.restype = ctypes.c_char_p
    lib.magpie_format_name.restype = ctypes.c_char_p
    lib.magpie_format_name.argtypes = [ctypes.c_int]
    lib.magpie_format_media_type.restype = ctypes.c_char_p
    lib.magpie_format_media_type.argtypes = [ctypes.c_int]
    return lib


def rows(corpus=CORPUS):
    with open(os.path.join(corpus, "MANIFEST.tsv"), newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


class CTypesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.path.exists(LIB):
            raise unittest.SkipTest(f"SKIPPED: {LIB} not built (cmake -S . -B build && cmake --build build)")
        cls.lib = load()

    def decode(self, data, fit=0, size=0):
        opts = DecodeOptions()
        self.lib.magpie_decode_options_init(ctypes.byref(opts))
        opts.fit, opts.width, opts.height = fit, size, size
        out = ctypes.POINTER(ImageStruct)()
        rc = self.lib.magpie_decode(data, len(data), ctypes.byref(opts), ctypes.byref(out))
        if rc != 0:
            self.assertFalse(bool(out))
            return rc, None
        img = out.contents
        result = (img.width, img.height, img.frame_count, bytes(img.pixels[:img.stride * img.height]))
        self.lib.magpie_image_free(out)
        return rc, result

    def test_format_fixtures(self):
        """Every committed format fixture decodes to the size and pixels of its reference decode
        (another tool's, stored as PNG), within a few levels."""
        folder = os.path.join(ROOT, "Tests", "fixtures", "formats")
        names = sorted(n for n in os.listdir(folder) if not n.endswith((".png", ".sh", ".c")))
        self.assertGreater(len(names), 30)
        for name in names:
            ref = os.path.join(folder, os.path.splitext(name)[0] + ".ref.png")
            with open(os.path.join(folder, name), "rb") as f, open(ref, "rb") as r:
                data, png = f.read(), r.read()
            sniffed = FORMATS[self.lib.magpie_sniff(data, len(data))]
            self.assertEqual(sniffed, {"tif": "tiff", "cur": "ico"}.get(name.rsplit(".", 1)[1], name.rsplit(".", 1)[1]))
            rc, mine = self.decode(data)
            self.assertEqual(rc, 0, name)
            _, theirs = self.decode(png)
            self.assertEqual(mine[:2], theirs[:2], name)
            # The largest colour difference, weighted by alpha as it is seen.
            worst = 0
            for i in range(0, len(mine[3]), 4):
                a = max(mine[3][i + 3], theirs[3][i + 3])
                d = [abs(mine[3][i + k] - theirs[3][i + k]) * (a if k < 3 else 255) // 255 for k in range(4)]
                worst = max(worst, *d)
            self.assertLessEqual(worst, 4, name)

    def test_version_strerror_md5(self):
        self.assertEqual(self.lib.magpie_version_string(), b"0.1.0")
        self.assertEqual(self.lib.magpie_strerror(E_TRUNCATED), b"truncated image data")
        hex_out = ctypes.create_string_buffer(33)
        self.lib.magpie_md5_hex(b"abc", 3, hex_out)
        self.assertEqual(hex_out.value, b"900150983cd24fb0d6963f7d28e17f72")

    def test_format_names_and_media_types(self):
        for value, name in enumerate(FORMATS):
            self.assertEqual(self.lib.magpie_format_name(value).decode(), name)
            media = self.lib.magpie_format_media_type(value)
            self.assertEqual(media is None, name == "unknown", name)
        self.assertEqual(self.lib.magpie_format_media_type(2), b"image/png")
        self.assertIsNone(self.lib.magpie_format_media_type(99))

    def test_processors(self):
        """A quarter turn moves every pixel where EXIF orientation 6 says; a NaN sigma is refused."""
        w, h = 4, 3
        src = (ctypes.c_uint8 * (w * h * 4))(*[(i * 37) % 256 for i in range(w * h * 4)])
        dst = (ctypes.c_uint8 * (w * h * 4))()
        a = Pixels(ctypes.cast(src, ctypes.POINTER(ctypes.c_uint8)), w, h, w * 4)
        b = Pixels(ctypes.cast(dst, ctypes.POINTER(ctypes.c_uint8)), h, w, h * 4)
        self.lib.magpie_transform.argtypes = [ctypes.POINTER(Pixels), ctypes.POINTER(Pixels), ctypes.c_uint32]
        self.assertEqual(self.lib.magpie_transform(ctypes.byref(a), ctypes.byref(b), 6), 0)
        for y in range(h):
            for x in range(w):
                at = (x * h + (h - 1 - y)) * 4  # (x, y) lands at (h - 1 - y, x)
                self.assertEqual(bytes(dst[at:at + 4]), bytes(src[(y * w + x) * 4:(y * w + x) * 4 + 4]))
        self.lib.magpie_blur.argtypes = [ctypes.POINTER(Pixels), ctypes.POINTER(Pixels), ctypes.c_double]
        b.width, b.height, b.stride = w, h, w * 4
        self.assertEqual(self.lib.magpie_blur(ctypes.byref(a), ctypes.byref(b), float("nan")), 1)
        self.assertEqual(self.lib.magpie_blur(ctypes.byref(a), ctypes.byref(b), 1.5), 0)

    def test_smart_crop_trim_and_rights(self):
        """The attention crop keeps a red square on grey; trim finds it; rights round-trip in a PNG."""
        w, h = 120, 40
        px = bytearray([128, 128, 128, 255] * (w * h))
        for y in range(12, 28):
            for x in range(96, 112):
                px[(y * w + x) * 4:(y * w + x) * 4 + 3] = bytes([230, 20, 30])
        buf = (ctypes.c_uint8 * len(px)).from_buffer(px)
        src = Pixels(ctypes.cast(buf, ctypes.POINTER(ctypes.c_uint8)), w, h, w * 4)
        rect = (ctypes.c_uint32 * 4)()
        self.lib.magpie_attention_crop.argtypes = [ctypes.POINTER(Pixels), ctypes.c_uint32, ctypes.c_uint32,
                                                   ctypes.c_void_p]
        self.assertEqual(self.lib.magpie_attention_crop(ctypes.byref(src), 40, 40, rect), 0)
        self.assertTrue(rect[0] <= 96 and rect[0] + 40 >= 112, list(rect))
        self.assertEqual(self.lib.magpie_attention_crop(ctypes.byref(src), 121, 40, rect), 1)
        trim = (ctypes.c_uint32 * 8)()
        self.lib.magpie_trim_options_init.argtypes = [ctypes.c_void_p]
        self.lib.magpie_trim_options_init(trim)
        self.lib.magpie_find_trim.argtypes = [ctypes.POINTER(Pixels), ctypes.c_void_p, ctypes.c_void_p]
        self.assertEqual(self.lib.magpie_find_trim(ctypes.byref(src), trim, rect), 0)
        self.assertEqual(list(rect), [96, 12, 16, 16])
        png = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00"
               b"\x1f\x15\xc4\x89")
        rights = ctypes.create_string_buffer(512)
        rights.raw = b"(c) Py".ljust(256, b"\0") + b"Artist".ljust(256, b"\0")
        out, n = ctypes.POINTER(ctypes.c_uint8)(), ctypes.c_size_t()
        self.lib.magpie_write_rights.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_void_p, ctypes.c_uint32,
                                                 ctypes.c_uint32, ctypes.c_void_p, ctypes.c_void_p]
        self.assertEqual(self.lib.magpie_write_rights(png, len(png), rights, 1, 1, ctypes.byref(out),
                                                      ctypes.byref(n)), 0)
        written = ctypes.string_at(out, n.value)
        self.lib.magpie_free.argtypes = [ctypes.c_void_p]
        self.lib.magpie_free(out)
        back = ctypes.create_string_buffer(512)
        self.lib.magpie_read_rights.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_void_p]
        self.assertEqual(self.lib.magpie_read_rights(written, len(written), back), 0)
        self.assertEqual((back.raw[:6], back.raw[256:262]), (b"(c) Py", b"Artist"))

    def test_animation_round_trip(self):
        """Four frames into an animated WebP (lossless) and back a frame at a time, with delays and loops."""
        lib = self.lib
        lib.magpie_encode_options_init.argtypes = [ctypes.POINTER(EncodeOptions)]
        lib.magpie_animation_options_init.argtypes = [ctypes.POINTER(AnimationOptions)]
        lib.magpie_animation_encoder_new.argtypes = [ctypes.c_uint32, ctypes.c_uint32, ctypes.POINTER(EncodeOptions),
                                                     ctypes.POINTER(AnimationOptions), ctypes.POINTER(ctypes.c_void_p)]
        lib.magpie_animation_encoder_add.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t,
                                                     ctypes.c_uint32]
        lib.magpie_animation_encoder_finish.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.POINTER(ctypes.c_uint8)),
                                                        ctypes.POINTER(ctypes.c_size_t)]
        lib.magpie_animation_encoder_free.argtypes = [ctypes.c_void_p]
        lib.magpie_decoder_open.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_void_p,
                                            ctypes.POINTER(ctypes.c_void_p)]
        lib.magpie_decoder_frame_count.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint32),
                                                   ctypes.POINTER(ctypes.c_int32)]
        lib.magpie_decoder_next_frame.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_size_t,
                                                  ctypes.POINTER(ctypes.c_uint32)]
        lib.magpie_decoder_free.argtypes = [ctypes.c_void_p]
        lib.magpie_free.argtypes = [ctypes.c_void_p]
        if not lib.magpie_format_decodable(FORMATS.index("webp")):
            self.skipTest("SKIPPED: this build of the library has no WebP")
        w, h = 16, 8
        frames = [bytes([(x * 16 + k * 50) % 256, 40 * k, 200, 255] [c] for y in range(h) for x in range(w)
                        for c in range(4)) for k in range(4)]
        eo, ao = EncodeOptions(), AnimationOptions()
        lib.magpie_encode_options_init(ctypes.byref(eo))
        lib.magpie_animation_options_init(ctypes.byref(ao))
        eo.format, eo.lossless, ao.loop_count = FORMATS.index("webp"), 1, 2
        enc = ctypes.c_void_p()
        self.assertEqual(lib.magpie_animation_encoder_new(w, h, ctypes.byref(eo), ctypes.byref(ao), ctypes.byref(enc)),
                         0)
        for k, frame in enumerate(frames):
            self.assertEqual(lib.magpie_animation_encoder_add(enc, frame, w * 4, 30 + 10 * k), 0)
        out, n = ctypes.POINTER(ctypes.c_uint8)(), ctypes.c_size_t()
        self.assertEqual(lib.magpie_animation_encoder_finish(enc, ctypes.byref(out), ctypes.byref(n)), 0)
        lib.magpie_animation_encoder_free(enc)
        data = ctypes.string_at(out, n.value)
        lib.magpie_free(out)
        dec = ctypes.c_void_p()
        self.assertEqual(lib.magpie_decoder_open(data, len(data), None, ctypes.byref(dec)), 0)
        count, loop = ctypes.c_uint32(), ctypes.c_int32()
        lib.magpie_decoder_frame_count(dec, ctypes.byref(count), ctypes.byref(loop))
        self.assertEqual((count.value, loop.value), (4, 2))
        buf, delay = (ctypes.c_uint8 * (w * h * 4))(), ctypes.c_uint32()
        for k, frame in enumerate(frames):
            self.assertEqual(lib.magpie_decoder_next_frame(dec, buf, w * 4, len(buf), ctypes.byref(delay)), 0)
            self.assertEqual((bytes(buf), delay.value), (frame, 30 + 10 * k))
        self.assertEqual(lib.magpie_decoder_next_frame(dec, buf, w * 4, len(buf), None), 12)  # past the end
        lib.magpie_decoder_free(dec)

    def test_hmac_sha256_matches_python(self):
        import hashlib
        import hmac
        self.lib.magpie_hmac_sha256.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t,
                                                ctypes.c_void_p]
        self.lib.magpie_hmac_sha256.restype = None
        self.lib.magpie_sha256.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_void_p]
        self.lib.magpie_sha256.restype = None
        mac = (ctypes.c_uint8 * 32)()
        key, message = b"k" * 70, b"Authorization:Bearer x"
        self.lib.magpie_hmac_sha256(key, len(key), message, len(message), mac)
        self.assertEqual(bytes(mac), hmac.new(key, message, hashlib.sha256).digest())
        self.lib.magpie_sha256(message, len(message), mac)
        self.assertEqual(bytes(mac), hashlib.sha256(message).digest())

    def test_errors_for_non_images(self):
        rc, _ = self.decode(b"definitely not an image")
        self.assertEqual(rc, E_UNKNOWN)
        bomb = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x01\x00\x00\x00\x01\x00\x00\x08\x06\x00\x00\x00"
                b"\x00\x00\x00\x00")
        rc, _ = self.decode(bomb)
        self.assertEqual(rc, E_LIMIT_PIXELS)

    def test_corpus(self):
        if not os.path.exists(os.path.join(CORPUS, "MANIFEST.tsv")):
            self.skipTest(f"SKIPPED: corpus not found at {CORPUS}")
        checked = self.check_corpus(CORPUS)
        self.assertGreater(checked, 700)
        print(f"\nctypes: checked {checked} corpus files")

    def test_webp_avif(self):
        """An AVIF with irot made here (Tests/fixtures/formats/avif-orient6.avif) probes with its
        orientation and decodes upright; the WebP/AVIF corpus adds its files where present."""
        with open(os.path.join(ROOT, "Tests", "fixtures", "formats", "avif-orient6.avif"), "rb") as f:
            data = f.read()
        self.assertEqual(FORMATS[self.lib.magpie_sniff(data, len(data))], "avif")
        info = Info()
        self.assertEqual(self.lib.magpie_probe(data, len(data), ctypes.byref(info)), 0)
        self.assertEqual((info.width, info.height, info.orientation), (37, 23, 6))
        if not (self.lib.magpie_format_decodable(FORMATS.index("webp"))
                and self.lib.magpie_format_decodable(FORMATS.index("avif"))):
            rc, _ = self.decode(data)
            self.assertEqual(rc, E_UNSUPPORTED, "a build without AVIF says so")
            return
        rc, thumb = self.decode(data, FIT_INSIDE, 16)
        self.assertEqual(rc, 0)
        self.assertEqual(thumb[1], 16)
        self.assertLess(thumb[0], thumb[1], "upright: portrait")
        if os.path.exists(os.path.join(CORPUS_WEBP_AVIF, "MANIFEST.tsv")):
            checked = self.check_corpus(CORPUS_WEBP_AVIF)
            self.assertEqual(checked, 207)
            print(f"\nctypes: checked {checked} WebP/AVIF corpus files")

    def check_corpus(self, corpus):
        checked = 0
        for row in rows(corpus):
            with open(os.path.join(corpus, row["path"]), "rb") as f:
                data = f.read()
            self.assertEqual(FORMATS[self.lib.magpie_sniff(data, len(data))], row["format"], row["path"])
            sniffed = ctypes.c_int(-1)
            path = os.path.join(corpus, row["path"]).encode()
            self.assertEqual(self.lib.magpie_sniff_file(path, ctypes.byref(sniffed)), 0, row["path"])
            self.assertEqual(FORMATS[sniffed.value], row["format"], row["path"])
            info = Info()
            prc = self.lib.magpie_probe(data, len(data), ctypes.byref(info))
            if row["expected"] == "ok":
                self.assertEqual(prc, 0, row["path"])
                self.assertEqual((info.width, info.height), (int(row["width"]), int(row["height"])), row["path"])
                if self.lib.magpie_format_decodable(FORMATS.index(row["format"])):
                    rc, thumb = self.decode(data, FIT_INSIDE, 64)
                    self.assertEqual(rc, 0, row["path"])
                    self.assertTrue(thumb[0] <= 64 and thumb[1] <= 64, row["path"])
                    self.assertEqual(len(thumb[3]), thumb[0] * thumb[1] * 4)
                else:
                    rc, _ = self.decode(data)
                    self.assertEqual(rc, E_UNSUPPORTED, row["path"])
            elif row["expected"] == "error":
                rc, _ = self.decode(data)
                self.assertNotEqual(rc, 0, row["path"])
            checked += 1
        return checked


if __name__ == "__main__":
    unittest.main(verbosity=1)
