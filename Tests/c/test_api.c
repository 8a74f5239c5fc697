/* API behaviour on images made here: round trips, sizes, orientation, alpha, GIF compositing,
 * limits on forged headers and argument errors. */
#include <stdlib.h>
#include <string.h>

#include <fcntl.h>
#include <gif_lib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "magpie.h"
#include "testutil.h"

static uint8_t *encode(const uint8_t *px, uint32_t w, uint32_t h, magpie_format f, int quality, size_t *n) {
    magpie_encode_options o;
    magpie_encode_options_init(&o);
    o.format = f;
    o.quality = quality;
    o.subsampling = MAGPIE_SUBSAMPLING_444;
    uint8_t *out = NULL;
    int rc = magpie_encode(px, w, h, (size_t)w * 4, &o, &out, n);
    CHECK(rc == MAGPIE_OK, "encode %s: %s", magpie_format_name(f), magpie_strerror(rc));
    return out;
}

/* Inserts an EXIF APP1 with the given orientation after SOI. */
static uint8_t *with_orientation(const uint8_t *jpeg, size_t n, int orientation, size_t *out_n) {
    static const uint8_t tmpl[] = {0xFF, 0xE1, 0x00, 0x22, 'E', 'x', 'i', 'f', 0, 0, 'M', 'M', 0, 42, 0, 0, 0, 8,
                                   0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0};
    uint8_t *o = malloc(n + sizeof tmpl);
    memcpy(o, jpeg, 2);
    memcpy(o + 2, tmpl, sizeof tmpl);
    o[2 + 28] = 0;
    o[2 + 29] = (uint8_t)orientation;
    memcpy(o + 2 + sizeof tmpl, jpeg + 2, n - 2);
    *out_n = n + sizeof tmpl;
    return o;
}

static int px_diff(const uint8_t *a, const uint8_t *b) {
    int m = 0;
    for (int c = 0; c < 4; c++) {
        int d = abs(a[c] - b[c]);
        if (d > m) m = d;
    }
    return m;
}

static void test_round_trip(void) {
    const uint32_t w = 64, h = 48;
    uint8_t *px = tu_gradient(w, h);
    px[3] = 0; /* one transparent pixel keeps the PNG in RGBA */
    size_t n;
    uint8_t *png = encode(px, w, h, MAGPIE_FORMAT_PNG, 85, &n);
    magpie_image *img = NULL;
    CHECK(magpie_decode(png, n, NULL, &img) == MAGPIE_OK, "png decode");
    CHECK(img && img->width == w && img->height == h && memcmp(img->pixels, px, (size_t)w * h * 4) == 0,
          "png round trip is lossless");
    magpie_image_free(img);
    size_t n2;
    uint8_t *png2 = encode(px, w, h, MAGPIE_FORMAT_PNG, 85, &n2);
    CHECK(n == n2 && memcmp(png, png2, n) == 0, "png output is deterministic");
    free(png);
    free(png2);

    px[3] = 255;
    uint8_t *jpg = encode(px, w, h, MAGPIE_FORMAT_JPEG, 95, &n);
    CHECK(magpie_sniff(jpg, n) == MAGPIE_FORMAT_JPEG, "jpeg sniff");
    img = NULL;
    CHECK(magpie_decode(jpg, n, NULL, &img) == MAGPIE_OK, "jpeg decode");
    int worst = 0;
    for (size_t i = 0; img && i < (size_t)w * h; i++) {
        int d = px_diff(img->pixels + 4 * i, px + 4 * i);
        if (d > worst) worst = d;
    }
    CHECK(img && worst <= 12, "jpeg q95 round trip within 12 levels, got %d", worst);
    magpie_image_free(img);
    free(jpg);
    free(px);
}

static void test_orientation(void) {
    /* A 40x20 image: left half red, right half blue, top-left 10x10 block green. */
    const uint32_t w = 40, h = 20;
    uint8_t *px = malloc(w * h * 4);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint8_t *q = px + (y * w + x) * 4;
            int green = x < 10 && y < 10;
            q[0] = green ? 0 : x < 20 ? 230 : 0;
            q[1] = green ? 230 : 0;
            q[2] = green ? 0 : x < 20 ? 0 : 230;
            q[3] = 255;
        }
    size_t n;
    uint8_t *jpg = encode(px, w, h, MAGPIE_FORMAT_JPEG, 98, &n);
    /* What the displayed (upright) image is for each orientation: rotate the reference. */
    magpie_image *ref = NULL;
    magpie_decode(jpg, n, NULL, &ref);
    for (int o = 1; o <= 8; o++) {
        size_t on;
        uint8_t *oj = with_orientation(jpg, n, o, &on);
        magpie_info info;
        CHECK(magpie_probe(oj, on, &info) == MAGPIE_OK && info.orientation == (uint32_t)o, "probe orientation %d", o);
        magpie_image *img = NULL;
        CHECK(magpie_decode(oj, on, NULL, &img) == MAGPIE_OK, "decode orientation %d", o);
        if (!img || !ref) continue;
        int swap = o >= 5;
        CHECK(img->width == (swap ? h : w) && img->height == (swap ? w : h), "orientation %d size", o);
        /* Inverse mapping: upright (u, v) shows stored pixel (x, y). */
        int worst = 0;
        for (uint32_t v = 0; v < img->height; v++)
            for (uint32_t u = 0; u < img->width; u++) {
                uint32_t x, y;
                switch (o) {
                case 1: x = u; y = v; break;
                case 2: x = w - 1 - u; y = v; break;
                case 3: x = w - 1 - u; y = h - 1 - v; break;
                case 4: x = u; y = h - 1 - v; break;
                case 5: x = v; y = u; break;
                case 6: x = v; y = h - 1 - u; break;
                case 7: x = w - 1 - v; y = h - 1 - u; break;
                default: x = w - 1 - v; y = u; break;
                }
                int d = px_diff(img->pixels + ((size_t)v * img->width + u) * 4, ref->pixels + ((size_t)y * w + x) * 4);
                if (d > worst) worst = d;
            }
        CHECK(worst == 0, "orientation %d: upright pixels differ by %d", o, worst);
        magpie_decode_options keep;
        magpie_decode_options_init(&keep);
        keep.flags = MAGPIE_DECODE_KEEP_ORIENTATION;
        magpie_image *raw = NULL;
        CHECK(magpie_decode(oj, on, &keep, &raw) == MAGPIE_OK && raw->width == w && raw->height == h &&
                  memcmp(raw->pixels, ref->pixels, w * h * 4) == 0,
              "orientation %d kept raw", o);
        magpie_image_free(raw);
        magpie_image_free(img);
        free(oj);
    }
    magpie_image_free(ref);
    free(jpg);
    free(px);
}

static void test_fit_modes(void) {
    const uint32_t w = 600, h = 400;
    uint8_t *px = tu_gradient(w, h);
    size_t n;
    uint8_t *jpg = encode(px, w, h, MAGPIE_FORMAT_JPEG, 90, &n);
    struct { magpie_fit fit; uint32_t tw, th; uint64_t mp; uint32_t flags; uint32_t ew, eh; } c[] = {
        {MAGPIE_FIT_INSIDE, 256, 256, 0, 0, 256, 171},
        {MAGPIE_FIT_INSIDE, 100, 300, 0, 0, 100, 67},
        {MAGPIE_FIT_INSIDE, 1000, 1000, 0, 0, 600, 400},            /* no upscale */
        {MAGPIE_FIT_INSIDE, 1200, 1200, 0, MAGPIE_DECODE_ALLOW_UPSCALE, 1200, 800},
        {MAGPIE_FIT_FILL, 100, 100, 0, 0, 100, 100},
        {MAGPIE_FIT_FILL, 800, 100, 0, 0, 600, 100},                /* no upscale: clipped */
        {MAGPIE_FIT_EXACT, 50, 70, 0, 0, 50, 70},
        {MAGPIE_FIT_MAX_PIXELS, 0, 0, 60000, 0, 300, 200},
    };
    for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
        magpie_decode_options o;
        magpie_decode_options_init(&o);
        o.fit = c[i].fit;
        o.width = c[i].tw;
        o.height = c[i].th;
        o.max_output_pixels = c[i].mp;
        o.flags = c[i].flags;
        uint32_t ow, oh;
        CHECK(magpie_output_size(jpg, n, &o, &ow, &oh) == MAGPIE_OK && ow == c[i].ew && oh == c[i].eh,
              "case %zu: output size %ux%u, want %ux%u", i, ow, oh, c[i].ew, c[i].eh);
        magpie_image *img = NULL;
        CHECK(magpie_decode(jpg, n, &o, &img) == MAGPIE_OK && img->width == c[i].ew && img->height == c[i].eh,
              "case %zu: decode size", i);
        if (img && i == 0) {
            /* The gradient survives downscaling: red rises left to right, green top to bottom. */
            const uint8_t *l = img->pixels + (85 * img->width + 2) * 4, *r = img->pixels + (85 * img->width + 253) * 4;
            CHECK(l[0] < 10 && r[0] > 245, "horizontal gradient kept (%d, %d)", l[0], r[0]);
        }
        magpie_image_free(img);
    }
    /* decode_into: the caller's buffer with a wider stride; too small is refused. */
    magpie_decode_options o;
    magpie_decode_options_init(&o);
    o.fit = MAGPIE_FIT_INSIDE;
    o.width = o.height = 64;
    size_t stride = 64 * 4 + 16;
    uint8_t *buf = calloc(stride * 64, 1);
    CHECK(magpie_decode_into(jpg, n, &o, buf, stride, stride * 42) == MAGPIE_EBUFFER, "small buffer refused");
    CHECK(magpie_decode_into(jpg, n, &o, buf, stride, stride * 43) == MAGPIE_OK, "decode_into");
    CHECK(buf[64 * 4] == 0 && buf[64 * 4 + 15] == 0, "padding untouched");
    free(buf);
    free(jpg);
    free(px);
}

static void test_alpha_fringe(void) {
    /* Opaque white disc on fully transparent *black* pixels: straight-alpha filtering would drag
     * the black into the edge; premultiplied filtering must not. */
    const uint32_t w = 300, h = 300;
    uint8_t *px = calloc(w * h * 4, 1);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            int dx = (int)x - 150, dy = (int)y - 150;
            if (dx * dx + dy * dy < 100 * 100) memset(px + (y * w + x) * 4, 255, 4);
        }
    size_t n;
    uint8_t *png = encode(px, w, h, MAGPIE_FORMAT_PNG, 0, &n);
    magpie_decode_options o;
    magpie_decode_options_init(&o);
    o.fit = MAGPIE_FIT_INSIDE;
    o.width = o.height = 37;
    magpie_image *img = NULL;
    CHECK(magpie_decode(png, n, &o, &img) == MAGPIE_OK, "decode alpha png");
    int darkest = 255, partial = 0;
    for (size_t i = 0; img && i < (size_t)img->width * img->height; i++) {
        const uint8_t *p = img->pixels + 4 * i;
        if (p[3] > 8 && p[0] < darkest) darkest = p[0];
        if (p[3] > 0 && p[3] < 255) partial++;
    }
    CHECK(partial > 0, "edge pixels are partly transparent");
    CHECK(darkest >= 250, "no dark fringe: darkest visible pixel %d", darkest);
    magpie_image_free(img);
    free(png);
    free(px);
}

/* ---- GIF compositing with giflib's encoder ---- */
typedef struct { uint8_t buf[8192]; int len; } membuf;
static int gif_write(GifFileType *g, const GifByteType *b, int n) {
    membuf *m = g->UserData;
    memcpy(m->buf + m->len, b, (size_t)n);
    m->len += n;
    return n;
}

typedef struct { int x, y, w, h, color, disposal, transparent; } gframe;

static int make_gif(membuf *m, const gframe *f, int count) {
    int err;
    GifFileType *g = EGifOpen(m, gif_write, &err);
    GifColorType colors[4] = {{0, 0, 0}, {255, 0, 0}, {0, 255, 0}, {0, 0, 255}};
    ColorMapObject *map = GifMakeMapObject(4, colors);
    EGifSetGifVersion(g, true);
    EGifPutScreenDesc(g, 4, 4, 2, 0, map);
    for (int i = 0; i < count; i++) {
        GraphicsControlBlock gcb = {f[i].disposal, false, 7, f[i].transparent};
        GifByteType ext[4];
        EGifGCBToExtension(&gcb, ext);
        EGifPutExtension(g, GRAPHICS_EXT_FUNC_CODE, 4, ext);
        EGifPutImageDesc(g, f[i].x, f[i].y, f[i].w, f[i].h, false, NULL);
        GifPixelType row[4];
        for (int y = 0; y < f[i].h; y++) {
            for (int x = 0; x < f[i].w; x++) row[x] = (GifPixelType)f[i].color;
            EGifPutLine(g, row, f[i].w);
        }
    }
    EGifCloseFile(g, &err);
    GifFreeMapObject(map);
    return m->len;
}

static const uint8_t *at(const magpie_image *img, uint32_t frame, uint32_t x, uint32_t y) {
    return img->pixels + (size_t)frame * img->height * img->stride + (size_t)y * img->stride + x * 4;
}

static void test_gif_disposal(void) {
    /* 1: red everywhere (keep). 2: blue 2x2 at (2,2), restore-previous. 3: green 1x1 at (0,0),
     * background. 4: index 0 everywhere but transparent, keep. */
    gframe frames[] = {{0, 0, 4, 4, 1, DISPOSE_DO_NOT, NO_TRANSPARENT_COLOR},
                       {2, 2, 2, 2, 3, DISPOSE_PREVIOUS, NO_TRANSPARENT_COLOR},
                       {0, 0, 1, 1, 2, DISPOSE_BACKGROUND, NO_TRANSPARENT_COLOR},
                       {0, 0, 4, 4, 0, DISPOSE_DO_NOT, 0}};
    membuf m = {.len = 0};
    int n = make_gif(&m, frames, 4);
    magpie_info info;
    CHECK(magpie_probe(m.buf, (size_t)n, &info) == MAGPIE_OK && info.frames == 4, "gif probe frames %u", info.frames);
    magpie_image *img = NULL;
    CHECK(magpie_decode(m.buf, (size_t)n, NULL, &img) == MAGPIE_OK && img->frame_count == 4, "gif decode");
    if (!img) return;
    CHECK(at(img, 0, 3, 3)[0] == 255 && at(img, 0, 3, 3)[3] == 255, "frame 1 red");
    CHECK(at(img, 1, 3, 3)[2] == 255 && at(img, 1, 0, 0)[0] == 255, "frame 2 blue over red");
    CHECK(at(img, 2, 3, 3)[0] == 255 && at(img, 2, 3, 3)[2] == 0, "frame 3: frame 2 restored to red");
    CHECK(at(img, 2, 0, 0)[1] == 255, "frame 3 green pixel");
    CHECK(at(img, 3, 0, 0)[3] == 0, "frame 4: green pixel disposed to transparent");
    CHECK(at(img, 3, 1, 1)[0] == 255 && at(img, 3, 1, 1)[3] == 255, "frame 4: transparent index keeps red");
    CHECK(img->delays_ms[0] == 70, "delay 70 ms, got %u", img->delays_ms[0]);
    magpie_image_free(img);
    magpie_decode_options o;
    magpie_decode_options_init(&o);
    o.flags = MAGPIE_DECODE_ONE_FRAME;
    o.frame_index = 2;
    CHECK(magpie_decode(m.buf, (size_t)n, &o, &img) == MAGPIE_OK && img->frame_count == 1 &&
              at(img, 0, 0, 0)[1] == 255 && at(img, 0, 3, 3)[0] == 255,
          "single composited frame 3");
    magpie_image_free(img);
    o.frame_index = 4;
    CHECK(magpie_decode(m.buf, (size_t)n, &o, &img) == MAGPIE_ERANGE, "frame 5 of 4 is out of range");
}

/* A 115 KB GIF: a 4000x4000 screen and 4999 frames of 1x1 (alternately kept and restored to
 * the previous state). Every frame delivered costs the whole canvas, so all frames are refused
 * before any work; one late frame decodes, its predecessors costing only their rectangles. */
static uint8_t *gif_frame_bomb(size_t *n) {
    const uint32_t frames = 4999;
    uint8_t *g = malloc(13 + 6 + frames * 23 + 1), *p = g;
    memcpy(p, "GIF89a", 6);
    p += 6;
    *p++ = 4000 & 255, *p++ = 4000 >> 8, *p++ = 4000 & 255, *p++ = 4000 >> 8;
    *p++ = 0x80, *p++ = 0, *p++ = 0;                  /* 2-colour global table */
    *p++ = 0, *p++ = 0, *p++ = 0, *p++ = 255, *p++ = 255, *p++ = 255;
    for (uint32_t i = 0; i < frames; i++) {
        uint8_t disposal = i % 2 ? 3 : 1; /* restore previous / keep */
        uint8_t gce[] = {0x21, 0xF9, 4, (uint8_t)(disposal << 2), 0, 0, 0, 0};
        memcpy(p, gce, sizeof gce);
        p += sizeof gce;
        uint32_t x = (i * 7919u) % 4000u, y = (i * 104729u) % 4000u;
        uint8_t desc[] = {0x2C, (uint8_t)x, (uint8_t)(x >> 8), (uint8_t)y, (uint8_t)(y >> 8), 1, 0, 1, 0, 0,
                          2, 2, 0x4C, 0x01, 0};
        memcpy(p, desc, sizeof desc);
        p += sizeof desc;
    }
    *p++ = 0x3B;
    *n = (size_t)(p - g);
    return g;
}

static void test_gif_frame_work(void) {
    size_t n;
    uint8_t *gif = gif_frame_bomb(&n);
    CHECK(n < 120 * 1024, "the bomb is small: %zu bytes", n);
    magpie_info info;
    CHECK(magpie_probe(gif, n, &info) == MAGPIE_OK && info.frames == 4999, "bomb probes: %u frames", info.frames);
    magpie_decode_options o;
    magpie_decode_options_init(&o);
    o.fit = MAGPIE_FIT_INSIDE;
    o.width = o.height = 64;
    magpie_image *img = NULL;
    CHECK(magpie_decode(gif, n, &o, &img) == MAGPIE_ELIMIT_FRAMES && img == NULL, "every frame: refused");
    o.flags = MAGPIE_DECODE_ONE_FRAME;
    o.frame_index = 4998;
    CHECK(magpie_decode(gif, n, &o, &img) == MAGPIE_OK && img && img->frame_count == 1, "the last frame alone");
    magpie_image_free(img);
    img = NULL;
    /* The limit is the caller's to lower: one 16-Mpx frame is over a 10-megapixel budget. */
    o.limits.max_frame_work = 10;
    CHECK(magpie_decode(gif, n, &o, &img) == MAGPIE_ELIMIT_FRAMES && img == NULL, "lowered limit");
    free(gif);
}

/* The process-wide budget: decodes charge it while they run and give everything back. */
static void test_memory_budget(void) {
    uint8_t *px = tu_gradient(600, 400);
    size_t n;
    uint8_t *png = encode(px, 600, 400, MAGPIE_FORMAT_PNG, 0, &n);
    magpie_image *img = NULL;
    magpie_set_memory_budget(4u << 20);
    CHECK(magpie_memory_budget() == 4u << 20, "budget set");
    CHECK(magpie_decode(png, n, NULL, &img) == MAGPIE_OK && magpie_memory_in_use() == 0, "fits: 960 KB");
    magpie_image_free(img);
    /* Another 3.5 MB held elsewhere: the same decode must wait its turn. */
    CHECK(magpie_memory_charge(3500000) == MAGPIE_OK, "charge");
    img = NULL;
    CHECK(magpie_decode(png, n, NULL, &img) == MAGPIE_EBUDGET && img == NULL, "budget in use");
    CHECK(magpie_memory_in_use() == 3500000, "a failed decode gives its charges back");
    CHECK(magpie_memory_charge(1u << 20) == MAGPIE_EBUDGET, "charge that does not fit now");
    CHECK(magpie_memory_charge(5u << 20) == MAGPIE_ELIMIT_MEMORY, "charge that never fits");
    magpie_memory_discharge(3500000);
    CHECK(magpie_decode(png, n, NULL, &img) == MAGPIE_OK && magpie_memory_in_use() == 0, "fits again");
    magpie_image_free(img);
    /* Larger than the whole budget: a limit, not a wait. */
    magpie_set_memory_budget(100000);
    CHECK(magpie_decode(png, n, NULL, &img) == MAGPIE_ELIMIT_MEMORY && magpie_memory_in_use() == 0, "never fits");
    magpie_set_memory_budget(0);
    CHECK(magpie_decode(png, n, NULL, &img) == MAGPIE_OK && magpie_memory_in_use() == 0, "no budget");
    magpie_image_free(img);
    free(png);
    free(px);
}

static void test_limits(void) {
    /* Forged PNG: IHDR says 65535 x 65535, then nothing. */
    static const uint8_t png[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R',
                                  0, 0, 0xff, 0xff, 0, 0, 0xff, 0xff, 8, 6, 0, 0, 0, 0, 0, 0, 0};
    /* Forged JPEG: SOF0 65500 x 65500. */
    static const uint8_t jpg[] = {0xFF, 0xD8, 0xFF, 0xC0, 0, 17, 8, 0xff, 0xdc, 0xff, 0xdc, 3,
                                  1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1, 0xFF, 0xD9};
    /* Forged GIF: 65535 x 65535 screen with one frame descriptor. */
    static const uint8_t gif[] = {'G', 'I', 'F', '8', '9', 'a', 0xff, 0xff, 0xff, 0xff, 0, 0, 0,
                                  0x2C, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 2, 0, 0x3B};
    const struct { const char *name; const uint8_t *d; size_t n; } cases[] = {
        {"png", png, sizeof png}, {"jpeg", jpg, sizeof jpg}, {"gif", gif, sizeof gif}};
    for (size_t i = 0; i < 3; i++) {
        magpie_image *img = NULL;
        int rc = magpie_decode(cases[i].d, cases[i].n, NULL, &img);
        CHECK(rc == MAGPIE_ELIMIT_PIXELS && img == NULL, "%s bomb: %s", cases[i].name, magpie_strerror(rc));
    }
    /* A 60-byte PNG declaring a 2 GB text chunk: refused before libpng allocates the chunk. */
    {
        uint8_t *px = tu_gradient(8, 8);
        size_t n;
        uint8_t *png = encode(px, 8, 8, MAGPIE_FORMAT_PNG, 0, &n);
        static const uint8_t text[] = {0x7e, 0x00, 0x00, 0x31, 't', 'E', 'X', 't', 'C', 'o', 'p', 'y'};
        uint8_t forged[64];
        memcpy(forged, png, 33); /* signature + IHDR */
        memcpy(forged + 33, text, sizeof text);
        magpie_image *img = NULL;
        int rc = magpie_decode(forged, 33 + sizeof text, NULL, &img);
        CHECK(rc == MAGPIE_ECORRUPT && img == NULL, "oversized ancillary chunk: %s", magpie_strerror(rc));
        free(png);
        free(px);
    }
    /* A lower per-call pixel limit refuses an ordinary image; a memory limit refuses the full
     * decode but not the shrink-on-load thumbnail. */
    uint8_t *px = tu_gradient(800, 800);
    size_t n;
    uint8_t *j = encode(px, 800, 800, MAGPIE_FORMAT_JPEG, 80, &n);
    magpie_decode_options o;
    magpie_decode_options_init(&o);
    o.limits.max_pixels = 640000 - 1;
    magpie_image *img = NULL;
    CHECK(magpie_decode(j, n, &o, &img) == MAGPIE_ELIMIT_PIXELS, "per-call pixel limit");
    magpie_decode_options_init(&o);
    o.limits.max_bytes = 1000000;
    CHECK(magpie_decode(j, n, &o, &img) == MAGPIE_ELIMIT_MEMORY, "memory limit refuses full decode");
    uint8_t *big = malloc(800 * 800 * 4);
    CHECK(magpie_decode_into(j, n, &o, big, 800 * 4, 800 * 800 * 4) == MAGPIE_ELIMIT_MEMORY,
          "the caller's buffer counts against the memory limit");
    free(big);
    o.fit = MAGPIE_FIT_INSIDE;
    o.width = o.height = 100;
    CHECK(magpie_decode(j, n, &o, &img) == MAGPIE_OK, "memory limit allows the thumbnail");
    magpie_image_free(img);
    /* Frame limit. */
    gframe frames[] = {{0, 0, 4, 4, 1, DISPOSE_DO_NOT, NO_TRANSPARENT_COLOR},
                       {0, 0, 4, 4, 2, DISPOSE_DO_NOT, NO_TRANSPARENT_COLOR}};
    membuf m = {.len = 0};
    int gn = make_gif(&m, frames, 2);
    magpie_decode_options_init(&o);
    o.limits.max_frames = 1;
    CHECK(magpie_decode(m.buf, (size_t)gn, &o, &img) == MAGPIE_ELIMIT_FRAMES, "frame limit");
    /* A one-frame decode walks the file only up to its frame: the limit counts what it reads. */
    o.flags = MAGPIE_DECODE_ONE_FRAME;
    o.frame_index = 0;
    CHECK(magpie_decode(m.buf, (size_t)gn, &o, &img) == MAGPIE_OK && img->frame_count == 1, "first frame alone");
    magpie_image_free(img);
    img = NULL;
    uint8_t first[4 * 4 * 4];
    CHECK(magpie_decode_into(m.buf, (size_t)gn, &o, first, 16, sizeof first) == MAGPIE_OK, "first frame into");
    o.frame_index = 1;
    CHECK(magpie_decode(m.buf, (size_t)gn, &o, &img) == MAGPIE_ELIMIT_FRAMES && img == NULL, "second frame: limit");
    o.limits.max_frames = 2;
    CHECK(magpie_decode(m.buf, (size_t)gn, &o, &img) == MAGPIE_OK && img->frame_count == 1, "second frame");
    magpie_image_free(img);
    img = NULL;
    o.frame_index = 2;
    CHECK(magpie_decode(m.buf, (size_t)gn, &o, &img) == MAGPIE_ERANGE && img == NULL, "no third frame");
    free(j);
    free(px);
}

static void test_files(void) {
    char dir[] = "/tmp/magpie-test-XXXXXX";
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    char path[256], detail[128];
    magpie_decode_options o;
    magpie_decode_options_init(&o);
    o.error_detail = detail;
    o.error_detail_size = sizeof detail;
    magpie_image *img = NULL;
    magpie_info info;
    snprintf(path, sizeof path, "%s/missing.png", dir);
    CHECK(magpie_decode_file(path, &o, &img) == MAGPIE_EIO && img == NULL, "missing file");
    CHECK(strstr(detail, "No such file") != NULL, "detail names the cause: %s", detail);
    CHECK(magpie_probe_file(path, &info) == MAGPIE_EIO, "probe of a missing file");
    magpie_format sniffed = MAGPIE_FORMAT_PNG;
    CHECK(magpie_sniff_file(path, &sniffed) == MAGPIE_EIO && sniffed == MAGPIE_FORMAT_UNKNOWN, "sniff of a missing file");
    CHECK(magpie_sniff_file(dir, &sniffed) == MAGPIE_EIO, "sniff of a directory");
    CHECK(magpie_sniff_file(path, NULL) == MAGPIE_EINVAL && magpie_sniff_file(NULL, &sniffed) == MAGPIE_EINVAL,
          "sniff of NULL");
    CHECK(magpie_decode_file(dir, &o, &img) == MAGPIE_EIO && strstr(detail, "directory"), "a directory");
    snprintf(path, sizeof path, "%s/empty.png", dir);
    FILE *f = fopen(path, "wb");
    fclose(f);
    CHECK(magpie_decode_file(path, &o, &img) == MAGPIE_EUNKNOWN, "empty file");
    CHECK(magpie_probe_file(path, &info) == MAGPIE_EUNKNOWN, "probe of an empty file");
    CHECK(magpie_sniff_file(path, &sniffed) == MAGPIE_OK && sniffed == MAGPIE_FORMAT_UNKNOWN, "sniff of an empty file");
    /* A real image written to disk decodes the same from the file as from memory. */
    uint8_t *px = tu_gradient(300, 200);
    size_t n;
    uint8_t *png = encode(px, 300, 200, MAGPIE_FORMAT_PNG, 0, &n);
    snprintf(path, sizeof path, "%s/image.png", dir);
    f = fopen(path, "wb");
    fwrite(png, 1, n, f);
    fclose(f);
    uint32_t w, h;
    o.fit = MAGPIE_FIT_INSIDE;
    o.width = o.height = 30;
    CHECK(magpie_output_size_file(path, &o, &w, &h) == MAGPIE_OK && w == 30 && h == 20, "output size from file");
    CHECK(magpie_sniff_file(path, &sniffed) == MAGPIE_OK && sniffed == MAGPIE_FORMAT_PNG, "sniff of a PNG file");
    uint8_t buf[30 * 20 * 4];
    CHECK(magpie_decode_file_into(path, &o, buf, 30 * 4, sizeof buf) == MAGPIE_OK, "decode_file_into");
    CHECK(magpie_decode(png, n, &o, &img) == MAGPIE_OK && memcmp(img->pixels, buf, sizeof buf) == 0,
          "file and memory agree");
    magpie_image_free(img);
    /* Cut the file short: the decode fails as truncated, never a crash or a partial image. */
    CHECK(truncate(path, (off_t)(n / 2)) == 0, "truncate");
    img = NULL;
    CHECK(magpie_decode_file(path, &o, &img) == MAGPIE_ETRUNCATED && img == NULL, "half a file is truncated");
    remove(path);
    snprintf(path, sizeof path, "%s/empty.png", dir);
    remove(path);
    rmdir(dir);
    free(png);
    free(px);
}

/* A photo cut at a third with an end-of-image marker pasted on decodes "successfully" in
 * libjpeg (it warns "premature end of data segment" and fills grey): missing data is an error. */
static void test_jpeg_cut_with_eoi(void) {
    uint8_t *px = tu_gradient(320, 240);
    size_t n;
    uint8_t *jpeg = encode(px, 320, 240, MAGPIE_FORMAT_JPEG, 90, &n);
    size_t cut = n / 3;
    uint8_t *bad = malloc(cut + 2);
    memcpy(bad, jpeg, cut);
    bad[cut] = 0xFF;
    bad[cut + 1] = 0xD9;
    magpie_decode_options o;
    magpie_decode_options_init(&o);
    magpie_image *img = NULL;
    CHECK(magpie_decode(bad, cut + 2, &o, &img) == MAGPIE_ETRUNCATED && img == NULL, "cut JPEG + EOI, full");
    o.fit = MAGPIE_FIT_INSIDE;
    o.width = o.height = 40;
    CHECK(magpie_decode(bad, cut + 2, &o, &img) == MAGPIE_ETRUNCATED && img == NULL, "cut JPEG + EOI, thumbnail");
    /* The whole file still decodes. */
    CHECK(magpie_decode(jpeg, n, &o, &img) == MAGPIE_OK, "whole JPEG");
    magpie_image_free(img);
    free(bad);
    free(jpeg);
    free(px);
}

/* A FIFO with no writer, or a character device, must fail at once, not hang the caller. */
static void test_special_files(void) {
    char dir[] = "/tmp/magpie-test-XXXXXX";
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    char path[256], detail[128];
    snprintf(path, sizeof path, "%s/fifo", dir);
    CHECK(mkfifo(path, 0600) == 0, "mkfifo");
    magpie_decode_options o;
    magpie_decode_options_init(&o);
    o.error_detail = detail;
    o.error_detail_size = sizeof detail;
    magpie_image *img = NULL;
    magpie_info info;
    CHECK(magpie_probe_file(path, &info) == MAGPIE_EIO, "probe of a FIFO");
    magpie_format sniffed;
    CHECK(magpie_sniff_file(path, &sniffed) == MAGPIE_EIO, "sniff of a FIFO");
    CHECK(magpie_decode_file(path, &o, &img) == MAGPIE_EIO && img == NULL, "decode of a FIFO");
    CHECK(strstr(detail, "not a regular file") != NULL, "FIFO detail: %s", detail);
    CHECK(magpie_decode_file("/dev/zero", &o, &img) == MAGPIE_EIO && img == NULL, "a device");
    remove(path);
    rmdir(dir);
}

static void test_arguments(void) {
    magpie_image *img = (magpie_image *)1;
    CHECK(magpie_decode(NULL, 10, NULL, &img) == MAGPIE_EINVAL && img == NULL, "NULL data");
    CHECK(magpie_decode("x", 1, NULL, NULL) == MAGPIE_EINVAL, "NULL out");
    CHECK(magpie_decode("hello world", 11, NULL, &img) == MAGPIE_EUNKNOWN, "not an image");
    CHECK(magpie_probe(NULL, 0, NULL) == MAGPIE_EINVAL, "probe NULL");
    uint8_t px[16] = {0};
    uint8_t *out;
    size_t n;
    CHECK(magpie_encode(px, 2, 2, 4, NULL, &out, &n) == MAGPIE_EINVAL, "stride too small");
    CHECK(magpie_encode(px, 0, 2, 8, NULL, &out, &n) == MAGPIE_EINVAL, "zero width");
    magpie_encode_options eo;
    magpie_encode_options_init(&eo);
    eo.format = MAGPIE_FORMAT_JPEG;
    eo.quality = 101;
    CHECK(magpie_encode(px, 2, 2, 8, &eo, &out, &n) == MAGPIE_EINVAL, "quality 101");
    eo.format = MAGPIE_FORMAT_BMP;
    eo.quality = 80;
    CHECK(magpie_encode(px, 2, 2, 8, &eo, &out, &n) == MAGPIE_EUNSUPPORTED, "bmp encoding unsupported");
    CHECK(strcmp(magpie_strerror(MAGPIE_ETRUNCATED), "truncated image data") == 0, "strerror");
    CHECK(strcmp(magpie_strerror(12345), "unknown status code") == 0, "strerror unknown");
    CHECK(magpie_version() == MAGPIE_VERSION_NUMBER, "version");
    magpie_image_free(NULL);
    magpie_free(NULL);
}

static void test_resize(void) {
    uint32_t w = 120, h = 80;
    uint8_t *px = tu_gradient(w, h);
    /* A window the size of the output is an exact crop. */
    magpie_rect r = {10, 20, 30, 15};
    uint8_t crop[30 * 15 * 4];
    CHECK(tu_resize(px, w, h, (size_t)w * 4, &r, 30, 15, MAGPIE_FILTER_LANCZOS3, crop, 30 * 4) == MAGPIE_OK,
          "crop");
    int same = 1;
    for (uint32_t y = 0; y < 15; y++)
        same &= memcmp(crop + y * 30 * 4, px + ((size_t)(20 + y) * w + 10) * 4, 30 * 4) == 0;
    CHECK(same, "crop copies the window exactly");
    /* Halving keeps the gradient's ends and its monotone rise. */
    uint8_t *half = malloc((size_t)60 * 40 * 4);
    CHECK(tu_resize(px, w, h, (size_t)w * 4, NULL, 60, 40, MAGPIE_FILTER_MITCHELL, half, 60 * 4) == MAGPIE_OK,
          "halve");
    int rising = 1;
    for (uint32_t x = 1; x < 60; x++) rising &= half[(20 * 60 + x) * 4] >= half[(20 * 60 + x - 1) * 4];
    CHECK(rising && half[20 * 60 * 4] < 16 && half[(20 * 60 + 59) * 4] > 239, "halved gradient rises end to end");
    /* A window resized: the right half of the image, scaled to 20 x 20, starts mid-gradient. */
    magpie_rect right = {60, 0, 60, 80};
    uint8_t small[20 * 20 * 4];
    CHECK(tu_resize(px, w, h, (size_t)w * 4, &right, 20, 20, MAGPIE_FILTER_LANCZOS3, small, 20 * 4) == MAGPIE_OK,
          "window resize");
    CHECK(small[(10 * 20) * 4] > 110 && small[(10 * 20) * 4] < 150, "window starts mid-gradient (%d)",
          small[(10 * 20) * 4]);
    /* Bad arguments. */
    magpie_rect outside = {100, 0, 30, 10};
    CHECK(tu_resize(px, w, h, (size_t)w * 4, &outside, 10, 10, MAGPIE_FILTER_LANCZOS3, small, 20 * 4) ==
              MAGPIE_EINVAL,
          "window outside the image");
    CHECK(tu_resize(px, w, h, 4, NULL, 10, 10, MAGPIE_FILTER_LANCZOS3, small, 40) == MAGPIE_EINVAL,
          "short stride");
    CHECK(tu_resize(px, w, h, (size_t)w * 4, NULL, 0, 10, MAGPIE_FILTER_LANCZOS3, small, 40) == MAGPIE_EINVAL,
          "zero output");
    CHECK(tu_resize(px, w, h, (size_t)w * 4, NULL, 10, 10, (magpie_filter)7, small, 40) == MAGPIE_EINVAL,
          "unknown filter");
    CHECK(tu_resize(px, w, h, (size_t)w * 4, NULL, 100000, 100000, MAGPIE_FILTER_BILINEAR, small, 400000) ==
              MAGPIE_ELIMIT_PIXELS,
          "output over the pixel limit");
    free(half);
    free(px);
}

#include "test_decoder.inc"

int main(void) {
    test_decoder_handle();
    test_round_trip();
    test_orientation();
    test_fit_modes();
    test_alpha_fringe();
    test_gif_disposal();
    test_gif_frame_work();
    test_memory_budget();
    test_limits();
    test_files();
    test_jpeg_cut_with_eoi();
    test_special_files();
    test_arguments();
    test_resize();
    return tu_finish("api");
}
