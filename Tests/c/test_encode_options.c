/* Encoder settings beyond quality: PNG palettes through libimagequant (colour type, bit depth by the
 * colours asked for, tRNS for alpha, a faithful round trip, bad counts refused), libwebp's
 * presets (each writes a WebP, they differ, stills and animations, a preset out of range refused)
 * and progressive JPEG (SOF2 and several scans against baseline's SOF0 and one, the same pixels
 * back, other values refused, a caller's older struct baseline). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "magpie.h"
#include "testutil.h"

static uint8_t *png(const uint8_t *px, uint32_t w, uint32_t h, int colors, size_t *n, int *rc) {
    magpie_encode_options o;
    magpie_encode_options_init(&o);
    o.palette_colors = colors;
    uint8_t *out = NULL;
    *rc = magpie_encode(px, w, h, (size_t)w * 4, &o, &out, n);
    return out;
}

/* Whether a PNG has a chunk of this type. */
static int has_chunk(const uint8_t *d, size_t n, const char *type) {
    for (size_t at = 8; at + 8 <= n;) {
        size_t len = (size_t)d[at] << 24 | (size_t)d[at + 1] << 16 | (size_t)d[at + 2] << 8 | d[at + 3];
        if (!memcmp(d + at + 4, type, 4)) return 1;
        at += 12 + len;
    }
    return 0;
}

static void palettes(uint8_t *px, uint32_t w, uint32_t h) {
    size_t n = 0, truecolour_n = 0; /* a smooth gradient: its truecolour PNG is the smaller */
    int rc;
    if (!magpie_palette_available()) {
        CHECK(!png(px, w, h, 16, &n, &rc) && rc == MAGPIE_EUNSUPPORTED, "without libimagequant: unsupported");
        printf("SKIPPED: no libimagequant, no PNG palettes\n");
        return;
    }
    uint8_t *truecolour = png(px, w, h, 0, &truecolour_n, &rc);
    CHECK(rc == MAGPIE_OK && truecolour[25] == 2, "0 colours: truecolour RGB");
    const int counts[] = {2, 4, 16, 256}, depths[] = {1, 2, 4, 8};
    for (int i = 0; i < 4; i++) {
        uint8_t *p = png(px, w, h, counts[i], &n, &rc);
        CHECK(rc == MAGPIE_OK && p && p[25] == 3 && p[24] == depths[i], "%d colours: palette at %d bits (%d, %d)",
              counts[i], depths[i], p ? p[25] : -1, p ? p[24] : -1);
        CHECK(p && !has_chunk(p, n, "tRNS"), "%d colours, opaque: no tRNS", counts[i]);
        magpie_image *img = NULL;
        CHECK(p && magpie_decode(p, n, NULL, &img) == MAGPIE_OK && img->width == w, "%d colours decode", counts[i]);
        if (img && counts[i] == 256) {
            long worst = 0;
            for (size_t k = 0; k < (size_t)w * h * 4; k++) {
                long d = labs((long)img->pixels[k] - px[k]);
                worst = d > worst ? d : worst;
            }
            CHECK(worst <= 48, "256 colours: every sample within %ld levels", worst);
        }
        magpie_image_free(img);
        magpie_free(p);
    }
    free(truecolour);
    /* Alpha: transparent and half-transparent pixels keep their alpha through tRNS. */
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) px[((size_t)y * w + x) * 4 + 3] = x < w / 3 ? 0 : x < 2 * w / 3 ? 128 : 255;
    uint8_t *p = png(px, w, h, 64, &n, &rc);
    magpie_image *img = NULL;
    CHECK(rc == MAGPIE_OK && has_chunk(p, n, "tRNS"), "alpha: a tRNS chunk");
    CHECK(p && magpie_decode(p, n, NULL, &img) == MAGPIE_OK, "alpha decodes");
    for (uint32_t x = 0; img && x < w; x += w / 6) {
        int want = px[x * 4 + 3], got = img->pixels[x * 4 + 3];
        CHECK(abs(want - got) <= 8, "alpha at x %u: %d, want %d", x, got, want);
    }
    magpie_image_free(img);
    magpie_free(p);
    CHECK(!png(px, w, h, 1, &n, &rc) && rc == MAGPIE_EINVAL, "1 colour refused");
    CHECK(!png(px, w, h, 257, &n, &rc) && rc == MAGPIE_EINVAL, "257 colours refused");
    CHECK(!png(px, w, h, -2, &n, &rc) && rc == MAGPIE_EINVAL, "-2 colours refused");
}

static uint8_t *webp(const uint8_t *px, uint32_t w, uint32_t h, int preset, size_t *n, int *rc) {
    magpie_encode_options o;
    magpie_encode_options_init(&o);
    o.format = MAGPIE_FORMAT_WEBP;
    o.quality = 75;
    o.webp_preset = (magpie_webp_preset)preset;
    uint8_t *out = NULL;
    *rc = magpie_encode(px, w, h, (size_t)w * 4, &o, &out, n);
    return out;
}

static void presets(const uint8_t *px, uint32_t w, uint32_t h) {
    if (!magpie_format_encodable(MAGPIE_FORMAT_WEBP)) {
        printf("SKIPPED: no WebP encoder\n");
        return;
    }
    size_t n[6] = {0};
    uint8_t *out[6] = {0};
    int rc;
    for (int i = 0; i <= MAGPIE_WEBP_PRESET_TEXT; i++) {
        out[i] = webp(px, w, h, i, &n[i], &rc);
        CHECK(rc == MAGPIE_OK && magpie_sniff(out[i], n[i]) == MAGPIE_FORMAT_WEBP, "preset %d: %d", i, rc);
    }
    CHECK(n[MAGPIE_WEBP_PRESET_PHOTO] != n[MAGPIE_WEBP_PRESET_TEXT] ||
              memcmp(out[MAGPIE_WEBP_PRESET_PHOTO], out[MAGPIE_WEBP_PRESET_TEXT], n[MAGPIE_WEBP_PRESET_TEXT]),
          "photo and text presets write different files");
    for (int i = 0; i <= MAGPIE_WEBP_PRESET_TEXT; i++) magpie_free(out[i]);
    size_t m = 0;
    CHECK(!webp(px, w, h, 6, &m, &rc) && rc == MAGPIE_EINVAL, "preset 6 refused");
    CHECK(!webp(px, w, h, -1, &m, &rc) && rc == MAGPIE_EINVAL, "preset -1 refused");
    /* Animations take the preset too, and refuse a bad one when they start. */
    magpie_encode_options o;
    magpie_encode_options_init(&o);
    o.format = MAGPIE_FORMAT_WEBP;
    o.webp_preset = MAGPIE_WEBP_PRESET_DRAWING;
    magpie_animation_options a;
    magpie_animation_options_init(&a);
    magpie_animation_encoder *enc = NULL;
    CHECK(magpie_animation_encoder_new(w, h, &o, &a, &enc) == MAGPIE_OK, "animation with a preset");
    magpie_animation_encoder_free(enc);
    o.webp_preset = (magpie_webp_preset)9;
    enc = NULL;
    CHECK(magpie_animation_encoder_new(w, h, &o, &a, &enc) == MAGPIE_EINVAL && !enc, "animation, preset 9 refused");
}

/* The JPEG's first start-of-frame marker (0xC0 baseline, 0xC2 progressive) and how many scans. */
static int jpeg_frame(const uint8_t *d, size_t n, int *scans) {
    int sof = 0;
    *scans = 0;
    for (size_t i = 2; i + 1 < n; i++) {
        if (d[i] != 0xFF) continue;
        if (!sof && (d[i + 1] == 0xC0 || d[i + 1] == 0xC2)) sof = d[i + 1];
        if (d[i + 1] == 0xDA) ++*scans;
    }
    return sof;
}

static void progressive(const uint8_t *px, uint32_t w, uint32_t h) {
    magpie_encode_options o;
    magpie_encode_options_init(&o);
    CHECK(o.progressive == 0, "baseline by default");
    o.format = MAGPIE_FORMAT_JPEG;
    uint8_t *base = NULL, *prog = NULL;
    size_t nb = 0, np = 0;
    CHECK(magpie_encode(px, w, h, (size_t)w * 4, &o, &base, &nb) == MAGPIE_OK, "baseline");
    o.progressive = 1;
    CHECK(magpie_encode(px, w, h, (size_t)w * 4, &o, &prog, &np) == MAGPIE_OK, "progressive");
    int sb, sp;
    CHECK(jpeg_frame(base, nb, &sb) == 0xC0 && sb == 1, "baseline: SOF0, one scan (%d)", sb);
    CHECK(jpeg_frame(prog, np, &sp) == 0xC2 && sp > 1, "progressive: SOF2, several scans (%d)", sp);
    /* The same coefficients, another order: the pixels decode alike. */
    magpie_image *a = NULL, *b = NULL;
    CHECK(magpie_decode(base, nb, NULL, &a) == MAGPIE_OK && magpie_decode(prog, np, NULL, &b) == MAGPIE_OK, "decode");
    int same = a && b && a->width == b->width && a->height == b->height;
    for (size_t i = 0; same && i < (size_t)a->width * a->height * 4; i++) same = abs(a->pixels[i] - b->pixels[i]) <= 2;
    CHECK(same, "progressive decodes to the baseline's pixels");
    magpie_image_free(a);
    magpie_image_free(b);
    magpie_free(base);
    magpie_free(prog);
    uint8_t *out = NULL;
    size_t n = 0;
    o.progressive = 2;
    CHECK(magpie_encode(px, w, h, (size_t)w * 4, &o, &out, &n) == MAGPIE_EINVAL && !out, "progressive 2 refused");
    /* A caller built before the field passes a struct that ends before it: baseline. */
    o.progressive = 1;
    o.struct_size = offsetof(magpie_encode_options, progressive);
    CHECK(magpie_encode(px, w, h, (size_t)w * 4, &o, &out, &n) == MAGPIE_OK, "older struct");
    int s;
    CHECK(jpeg_frame(out, n, &s) == 0xC0, "an older struct's JPEG is baseline");
    magpie_free(out);
}

int main(void) {
    const uint32_t w = 90, h = 60;
    uint8_t *px = tu_gradient(w, h);
    presets(px, w, h);
    palettes(px, w, h);
    progressive(px, w, h);
    free(px);
    return tu_finish("encode_options");
}
