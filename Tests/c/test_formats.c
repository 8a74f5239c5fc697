/* The formats decoded by Magpie's own small decoders (BMP, ICO/CUR) and by libraries loaded on
 * the first decode (TIFF), against reference decodes by other tools (Tests/fixtures/formats/make.sh made
 * both): every fixture decoded whole and as a thumbnail, every prefix of it refused with a typed
 * error, and headers that lie about their size refused before anything large is allocated. */
#include <stdlib.h>
#include <string.h>

#include "magpie.h"
#include "testutil.h"

#ifndef MAGPIE_FIXTURES
#error "MAGPIE_FIXTURES: the folder of Tests/fixtures/formats"
#endif

typedef struct {
    const char *name;
    magpie_format format;
    int tolerance; /* largest difference per sample from the reference */
    int thumb_tolerance; /* as a 20-pixel thumbnail, when not tolerance + 1 (an embedded thumbnail) */
} fixture;

static const fixture fixtures[] = {
    {"bmp-rgb24.bmp", MAGPIE_FORMAT_BMP, 0, 0},      {"bmp-os2-core.bmp", MAGPIE_FORMAT_BMP, 0, 0},
    {"bmp-pal1.bmp", MAGPIE_FORMAT_BMP, 0, 0},       {"bmp-pal4.bmp", MAGPIE_FORMAT_BMP, 0, 0},
    {"bmp-pal8.bmp", MAGPIE_FORMAT_BMP, 0, 0},       {"bmp-rle8.bmp", MAGPIE_FORMAT_BMP, 0, 0},
    {"bmp-rle4.bmp", MAGPIE_FORMAT_BMP, 0, 0},       {"bmp-argb32-v5.bmp", MAGPIE_FORMAT_BMP, 0, 0},
    {"bmp-topdown32.bmp", MAGPIE_FORMAT_BMP, 0, 0},  {"bmp-zero-alpha32.bmp", MAGPIE_FORMAT_BMP, 0, 0},
    /* 5-bit channels widened by rounding (ImageMagick replicates the bits): at most 1 apart */
    {"bmp-rgb555.bmp", MAGPIE_FORMAT_BMP, 1, 0},     {"bmp-rgb565.bmp", MAGPIE_FORMAT_BMP, 1, 0},
    {"ico-bmp.ico", MAGPIE_FORMAT_ICO, 0, 0},        {"ico-png.ico", MAGPIE_FORMAT_ICO, 0, 0},
    {"cur-bmp.cur", MAGPIE_FORMAT_ICO, 0, 0},
    /* TIFF through libtiff: 16-bit sources narrowed (libtiff truncates, ImageMagick rounds), CMYK
     * by libtiff's plain formula, JPEG in TIFF by another IDCT */
    {"tiff-rgb8-lzw.tif", MAGPIE_FORMAT_TIFF, 0, 0},     {"tiff-rgba16-tiles.tif", MAGPIE_FORMAT_TIFF, 2, 0},
    {"tiff-g4.tif", MAGPIE_FORMAT_TIFF, 0, 0},           {"tiff-palette.tif", MAGPIE_FORMAT_TIFF, 1, 0},
    {"tiff-cmyk.tif", MAGPIE_FORMAT_TIFF, 2, 0},         {"tiff-jpeg.tif", MAGPIE_FORMAT_TIFF, 4, 0},
    {"tiff-planar-msb.tif", MAGPIE_FORMAT_TIFF, 1, 0},   {"tiff-orient6.tif", MAGPIE_FORMAT_TIFF, 1, 0},
    {"tiff-two-pages.tif", MAGPIE_FORMAT_TIFF, 1, 0},
    /* JPEG XL through libjxl, references by djxl (the same libjxl); an animation's first frame */
    {"jxl-lossless.jxl", MAGPIE_FORMAT_JXL, 0, 0},    {"jxl-alpha.jxl", MAGPIE_FORMAT_JXL, 1, 0},
    {"jxl-container.jxl", MAGPIE_FORMAT_JXL, 1, 0},   {"jxl-animated.jxl", MAGPIE_FORMAT_JXL, 0, 0},
    {"jxl-orient6.jxl", MAGPIE_FORMAT_JXL, 0, 0},
    /* SVG through librsvg, references by rsvg-convert (the same librsvg); a thumbnail is drawn at
     * its size, not resized from the reference, so its edges differ */
    {"svg-shapes.svg", MAGPIE_FORMAT_SVG, 1, 80},     {"svg-viewbox.svg", MAGPIE_FORMAT_SVG, 1, 80},
    /* HEIC through libheif, references by heif-convert (the same HEVC decode) */
    {"heic-rgb.heic", MAGPIE_FORMAT_HEIC, 2, 0},         {"heic-alpha.heic", MAGPIE_FORMAT_HEIC, 2, 0},
    /* its 20-pixel thumbnail is made from the embedded 64-pixel one, a lossy copy of its own */
    {"heic-thumb.heic", MAGPIE_FORMAT_HEIC, 2, 40},
    /* a one-tile grid turned by irot, whose ispe holds the turned size (libheif 1.15's writer) */
    {"heic-orient6.heic", MAGPIE_FORMAT_HEIC, 2, 0},
};

/* The largest difference as seen: a colour difference counts in proportion to its alpha (under
 * alpha 0 a colour is not there to differ; premultiplied sources keep less of it as alpha falls). */
static int max_diff(const magpie_image *a, const magpie_image *b) {
    int worst = 0;
    for (uint32_t y = 0; y < a->height; y++) {
        const uint8_t *p = a->pixels + (size_t)y * a->stride, *q = b->pixels + (size_t)y * b->stride;
        for (uint32_t x = 0; x < a->width; x++, p += 4, q += 4) {
            int alpha = p[3] > q[3] ? p[3] : q[3];
            for (int c = 0; c < 4; c++) {
                int d = abs((int)p[c] - (int)q[c]);
                if (c < 3) d = (d * alpha + 127) / 255;
                if (d > worst) worst = d;
            }
        }
    }
    return worst;
}

static int decode(const uint8_t *d, size_t n, uint32_t w, uint32_t h, magpie_image **img) {
    magpie_decode_options o;
    magpie_decode_options_init(&o);
    if (w) o.fit = MAGPIE_FIT_INSIDE, o.width = w, o.height = h;
    return magpie_decode(d, n, &o, img);
}

static void test_fixture(const fixture *f) {
    char refname[256];
    snprintf(refname, sizeof refname, "%.*s.ref.png", (int)(strrchr(f->name, '.') - f->name), f->name);
    size_t n, rn;
    uint8_t *d = tu_fixture(f->name, &n), *r = tu_fixture(refname, &rn);
    if (!d || !r) goto out;
    magpie_info info, rinfo;
    CHECK(magpie_probe(d, n, &info) == MAGPIE_OK && info.format == f->format, "%s probes", f->name);
    CHECK(magpie_probe(r, rn, &rinfo) == MAGPIE_OK, "%s probes", refname);
    int turned = info.orientation >= 5; /* the reference is upright */
    CHECK((turned ? info.height : info.width) == rinfo.width && (turned ? info.width : info.height) == rinfo.height,
          "%s: probe %ux%u (orientation %u), reference %ux%u", f->name, info.width, info.height, info.orientation,
          rinfo.width, rinfo.height);
    /* Whole, then as a thumbnail (rows through the resampler, bottom-up files read in strips). */
    const uint32_t sizes[][2] = {{0, 0}, {20, 20}};
    for (int s = 0; s < 2; s++) {
        magpie_image *a = NULL, *b = NULL;
        int rc = decode(d, n, sizes[s][0], sizes[s][1], &a);
        CHECK(rc == MAGPIE_OK, "%s decodes at %u: %s", f->name, sizes[s][0], magpie_strerror(rc));
        CHECK(decode(r, rn, sizes[s][0], sizes[s][1], &b) == MAGPIE_OK, "%s decodes", refname);
        if (a && b) {
            CHECK(a->width == b->width && a->height == b->height, "%s: %ux%u", f->name, a->width, a->height);
            int worst = a->width == b->width && a->height == b->height ? max_diff(a, b) : 999;
            int allowed = s ? (f->thumb_tolerance ? f->thumb_tolerance : f->tolerance + 1) : f->tolerance;
            CHECK(worst <= allowed, "%s at %u: %d from the reference", f->name, sizes[s][0], worst);
        }
        magpie_image_free(a);
        magpie_image_free(b);
    }
    /* The same from a file (read through the window). */
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", MAGPIE_FIXTURES, f->name);
    magpie_image *a = NULL, *b = NULL;
    CHECK(magpie_decode_file(path, NULL, &a) == MAGPIE_OK && decode(d, n, 0, 0, &b) == MAGPIE_OK &&
              a->width == b->width && max_diff(a, b) == 0,
          "%s: a file decodes as memory does", f->name);
    magpie_image_free(a);
    magpie_image_free(b);
    /* Every prefix: a typed error, never a crash or a made-up picture. A prefix may decode only
     * when it lost nothing the picture needs (padding after the pixels, bytes after the end of an
     * RLE bitmap, an icon's entries that are not decoded): then to the same pixels. */
    magpie_image *whole = NULL;
    CHECK(decode(d, n, 0, 0, &whole) == MAGPIE_OK, "%s decodes", f->name);
    size_t step = n > 4000 ? n / 1500 : 1;
    for (size_t k = 1; whole && k < n; k += (k < 200 ? 1 : step)) {
        magpie_image *img = NULL;
        int rc = decode(d, k, 0, 0, &img);
        int typed = rc == MAGPIE_ETRUNCATED || rc == MAGPIE_ECORRUPT || rc == MAGPIE_EUNKNOWN || rc == MAGPIE_EUNSUPPORTED;
        int same = rc == MAGPIE_OK && img->width == whole->width && img->height == whole->height &&
                   max_diff(img, whole) == 0;
        CHECK(typed || same, "%s cut at %zu: %s", f->name, k, magpie_strerror(rc));
        magpie_image_free(img);
    }
    magpie_image_free(whole);
out:
    free(d);
    free(r);
}

/* A BMP file header and BITMAPINFOHEADER for w x h at `bpp` bits with `compression`, no pixels. */
static size_t bmp_header(uint8_t *b, int32_t w, int32_t h, uint16_t bpp, uint32_t compression) {
    memset(b, 0, 54);
    uint32_t v[] = {54, 40, (uint32_t)w, (uint32_t)h};
    b[0] = 'B', b[1] = 'M';
    for (int i = 0; i < 4; i++) memcpy(b + (i == 0 ? 10 : 14 + 4 * (i - 1)), &v[i], 4);
    memcpy(b + 26, &(uint16_t){1}, 2);
    memcpy(b + 28, &bpp, 2);
    memcpy(b + 30, &compression, 4);
    return 54;
}

static void test_lying_headers(void) {
    uint8_t b[64 + 1024] = {0};
    magpie_decode_options o;
    magpie_decode_options_init(&o);
    o.limits.max_bytes = 1u << 20;
    char detail[200];
    o.error_detail = detail, o.error_detail_size = sizeof detail;
    magpie_image *img = NULL;
    size_t n = bmp_header(b, 10000, 10000, 24, 0);
    o.fit = MAGPIE_FIT_INSIDE, o.width = o.height = 64; /* a thumbnail: only the decoder's buffers count */
    int rc = magpie_decode(b, n + 16, &o, &img);
    CHECK(rc == MAGPIE_ETRUNCATED && !img, "100 megapixels in 70 bytes: %s (%s)", magpie_strerror(rc), detail);
    n = bmp_header(b, 60000, 60000, 24, 0);
    CHECK(magpie_decode(b, n + 16, &o, &img) == MAGPIE_ELIMIT_PIXELS, "3.6 gigapixels: over the pixel limit");
    n = bmp_header(b, 10000, 10000, 8, 1); /* RLE8: the index buffer is charged before it is made */
    memcpy(b + 46, &(uint32_t){1}, 4);
    b[54 + 4] = 0, b[54 + 5] = 1; /* end of bitmap */
    rc = magpie_decode(b, n + 6, &o, &img);
    CHECK(rc == MAGPIE_ELIMIT_MEMORY, "RLE8 of 100 megapixels under a 1 MiB limit: %s", magpie_strerror(rc));
    n = bmp_header(b, 16, 16, 24, 4);
    rc = magpie_decode(b, n + 64, &o, &img);
    CHECK(rc == MAGPIE_EUNSUPPORTED && strstr(detail, "JPEG"), "embedded JPEG: %s (%s)", magpie_strerror(rc), detail);
    n = bmp_header(b, 16, 16, 64, 0);
    CHECK(magpie_decode(b, n + 64, &o, &img) == MAGPIE_EUNSUPPORTED, "64-bit");
    n = bmp_header(b, 16, 16, 24, 3); /* bit fields at 24 bits */
    CHECK(magpie_decode(b, n + 1024, &o, &img) == MAGPIE_ECORRUPT, "bit fields at 24 bits");
    n = bmp_header(b, 0, 16, 24, 0);
    magpie_info info;
    CHECK(magpie_probe(b, n + 64, &info) == MAGPIE_ECORRUPT, "zero width");
    n = bmp_header(b, 4, 4, 32, 3); /* masks that are no run of bits */
    memcpy(b + 54, &(uint32_t){0x0F0F0000u}, 4);
    memcpy(b + 58, &(uint32_t){0xFF00}, 4);
    memcpy(b + 62, &(uint32_t){0xFF}, 4);
    memcpy(b + 10, &(uint32_t){66}, 4);
    CHECK(magpie_decode(b, 66 + 64, &o, &img) == MAGPIE_ECORRUPT, "split mask");
    CHECK(!img, "nothing made");
}

static void test_icons_pick_the_largest(void) {
    const char *names[] = {"ico-bmp.ico", "ico-png.ico"};
    const uint32_t want[][2] = {{48, 48}, {64, 40}};
    for (int i = 0; i < 2; i++) {
        size_t n;
        uint8_t *d = tu_fixture(names[i], &n);
        magpie_info info;
        CHECK(d && magpie_probe(d, n, &info) == MAGPIE_OK && info.width == want[i][0] && info.height == want[i][1],
              "%s: the largest entry, %ux%u", names[i], info.width, info.height);
        free(d);
    }
}

/* The decoders whose library loads on the first decode: there to use, and not loaded by asking. */
static const struct {
    magpie_format format;
    const char *library;
} lazy[] = {{MAGPIE_FORMAT_TIFF, "libtiff.so"}, {MAGPIE_FORMAT_HEIC, "libheif.so"},
              {MAGPIE_FORMAT_JXL, "libjxl.so"}, {MAGPIE_FORMAT_SVG, "librsvg-2.so"}};
#define LAZY_COUNT (sizeof lazy / sizeof *lazy)

/* HEIC's shrink-on-load: a thumbnail no larger than the embedded one decodes from it, in less
 * memory than the full picture needs; a larger one cannot. */
static void test_heic_thumbnail(void) {
    size_t n;
    uint8_t *d = tu_fixture("heic-thumb.heic", &n);
    if (!d) return;
    magpie_decode_options o;
    magpie_decode_options_init(&o);
    o.limits.max_bytes = 1u << 20; /* 512x384 needs 2.3 MB; its 64x48 thumbnail 40 kB */
    o.fit = MAGPIE_FIT_INSIDE;
    magpie_image *img = NULL;
    o.width = o.height = 64;
    int rc = magpie_decode(d, n, &o, &img);
    CHECK(rc == MAGPIE_OK && img->width == 64 && img->height == 48, "64 px from the thumbnail: %s", magpie_strerror(rc));
    magpie_image_free(img);
    img = NULL;
    o.width = o.height = 65;
    rc = magpie_decode(d, n, &o, &img);
    CHECK(rc == MAGPIE_ELIMIT_MEMORY, "65 px needs the full picture: %s", magpie_strerror(rc));
    free(d);
}

/* fuzz_heic's find (Tests/fuzz/crashes/heic/): a 1.8 KB HEIC whose 37x23 grid has an 'iovl'
 * overlay as its tile, the overlay's canvas sized by its own data at 26988 x 28515. libheif
 * allocated it (6 GB resident) before Magpie bounded every side libheif makes by the primary's;
 * now it is refused, without the allocation. */
static void test_heic_overlay_bomb(void) {
    size_t n;
    uint8_t *d = tu_read_file(MAGPIE_FIXTURES "/../../fuzz/crashes/heic/oom-overlay-tile-canvas", &n);
    CHECK(d != NULL, "the overlay bomb is there");
    if (!d) return;
    magpie_info info;
    CHECK(magpie_probe(d, n, &info) == MAGPIE_OK && info.width == 37 && info.height == 23, "probed as its grid");
    magpie_image *img = NULL;
    int rc = magpie_decode(d, n, NULL, &img);
    CHECK(rc != MAGPIE_OK && !img, "an overlay canvas past the primary's size is refused: %s", magpie_strerror(rc));
    magpie_image_free(img);
    free(d);
}

/* A TIFF's pages: counted by the probe, the first decoded unless another is asked for, each at
 * its own size. */
static void test_tiff_pages(void) {
    size_t n, rn;
    uint8_t *d = tu_fixture("tiff-two-pages.tif", &n), *r = tu_fixture("tiff-two-pages.page1.ref.png", &rn);
    magpie_info info;
    CHECK(d && magpie_probe(d, n, &info) == MAGPIE_OK && info.frames == 2 && info.width == 37, "two pages");
    magpie_decode_options o;
    magpie_decode_options_init(&o);
    o.flags = MAGPIE_DECODE_ONE_FRAME, o.frame_index = 1;
    magpie_image *a = NULL, *b = NULL;
    int rc = d ? magpie_decode(d, n, &o, &a) : -1;
    CHECK(rc == MAGPIE_OK && a->width == 20 && a->height == 12 && a->frame_count == 1, "page 2: %s",
          magpie_strerror(rc));
    if (a && r && magpie_decode(r, rn, NULL, &b) == MAGPIE_OK)
        CHECK(max_diff(a, b) <= 2, "page 2 as ImageMagick reads it: %d", max_diff(a, b)); /* 16 bits, alpha */
    magpie_image_free(a);
    magpie_image_free(b);
    a = NULL;
    CHECK(d && magpie_decode(d, n, NULL, &a) == MAGPIE_OK && a->width == 37 && a->frame_count == 1, "the first page");
    magpie_image_free(a);
    a = NULL;
    o.frame_index = 2;
    CHECK(d && magpie_decode(d, n, &o, &a) == MAGPIE_ERANGE && !a, "no third page");
    free(d);
    free(r);
}

int main(void) {
    CHECK(magpie_format_decodable(MAGPIE_FORMAT_BMP) && magpie_format_decodable(MAGPIE_FORMAT_ICO), "decodable");
    for (size_t i = 0; i < LAZY_COUNT; i++) {
        CHECK(magpie_format_decodable(lazy[i].format), "%s decodes here", magpie_format_name(lazy[i].format));
        CHECK(tu_mapped(lazy[i].library) == 0, "asking about %s did not load %s", magpie_format_name(lazy[i].format),
              lazy[i].library);
    }
    for (size_t i = 0; i < sizeof fixtures / sizeof *fixtures; i++) test_fixture(&fixtures[i]);
    for (size_t i = 0; i < LAZY_COUNT; i++)
        CHECK(tu_mapped(lazy[i].library) == 1, "decoding %s loaded %s", magpie_format_name(lazy[i].format),
              lazy[i].library);
    test_lying_headers();
    test_heic_thumbnail();
    if (magpie_format_decodable(MAGPIE_FORMAT_HEIC)) test_heic_overlay_bomb();
    test_tiff_pages();
    test_icons_pick_the_largest();
    return tu_finish("formats");
}
