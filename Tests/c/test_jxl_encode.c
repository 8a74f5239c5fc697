/* JPEG XL encoding through libjxl: round trips (opaque, alpha, lossless at quality 100 and with
 * `lossless`) against the pixels encoded, quality and effort ordering, determinism (profiles:
 * test_icc.c), bad options refused, an older caller's shorter options struct, and a build or machine
 * without libjxl saying so. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "magpie.h"
#include "testutil.h"

static uint8_t *encode(const uint8_t *px, uint32_t w, uint32_t h, int quality, int effort, int lossless, size_t *n,
                       int *rc) {
    magpie_encode_options o;
    magpie_encode_options_init(&o);
    o.format = MAGPIE_FORMAT_JXL;
    o.quality = quality;
    o.effort = effort;
    o.lossless = lossless;
    uint8_t *out = NULL;
    *rc = magpie_encode(px, w, h, (size_t)w * 4, &o, &out, n);
    return out;
}

static magpie_image *decode(const uint8_t *data, size_t n) {
    magpie_image *img = NULL;
    return magpie_decode(data, n, NULL, &img) == MAGPIE_OK ? img : NULL;
}

int main(void) {
    const uint32_t w = 96, h = 64;
    uint8_t *px = tu_gradient(w, h);
    size_t n = 0, m = 0;
    int rc;
    if (!magpie_format_encodable(MAGPIE_FORMAT_JXL)) {
        uint8_t *none = encode(px, w, h, 80, 7, 0, &n, &rc);
        CHECK(rc == MAGPIE_EUNSUPPORTED && !none, "without libjxl: unsupported");
        printf("SKIPPED: this build or machine has no JPEG XL encoder\n");
        free(px);
        return tu_finish("jxl_encode");
    }
    uint8_t *a = encode(px, w, h, 80, 7, 0, &n, &rc), *b = NULL;
    CHECK(rc == MAGPIE_OK && a && magpie_sniff(a, n) == MAGPIE_FORMAT_JXL, "encode: %d", rc);
    CHECK(n >= 2 && a[0] == 0xFF && a[1] == 0x0A, "a bare codestream");
    b = encode(px, w, h, 80, 7, 0, &m, &rc);
    CHECK(rc == MAGPIE_OK && m == n && b && !memcmp(a, b, n), "deterministic");
    magpie_free(b);
    magpie_image *img = decode(a, n);
    CHECK(img && img->width == w && img->height == h, "decodes at its size");
    double q80 = img ? tu_psnr_rgb(px, img->pixels, (size_t)w * h) : 0;
    CHECK(q80 > 32, "q80 PSNR %.1f dB", q80);
    CHECK(img && img->pixels[3] == 255, "opaque stays opaque");
    magpie_image_free(img);
    /* Lower quality: smaller. */
    b = encode(px, w, h, 20, 7, 0, &m, &rc);
    CHECK(rc == MAGPIE_OK && m < n, "q20 %zu bytes < q80 %zu", m, n);
    magpie_free(b);
    /* Effort 1 and 9 both write the same picture. */
    for (int effort = 1; effort <= 9; effort += 8) {
        b = encode(px, w, h, 80, effort, 0, &m, &rc);
        img = rc == MAGPIE_OK ? decode(b, m) : NULL;
        double p = img ? tu_psnr_rgb(px, img->pixels, (size_t)w * h) : 0;
        CHECK(p > 30, "effort %d: PSNR %.1f dB", effort, p);
        magpie_image_free(img);
        magpie_free(b);
    }
    magpie_free(a);
    /* Alpha: a ramp; lossless (quality 100, or `lossless`) gives every sample back. */
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) px[((size_t)y * w + x) * 4 + 3] = (uint8_t)(x * 255 / (w - 1));
    for (int way = 0; way < 2; way++) {
        a = way == 0 ? encode(px, w, h, 100, 7, 0, &n, &rc) : encode(px, w, h, 60, 7, 1, &n, &rc);
        img = rc == MAGPIE_OK ? decode(a, n) : NULL;
        CHECK(img && !memcmp(img->pixels, px, (size_t)w * h * 4), "lossless (%s) is exact",
              way ? "lossless=1" : "quality 100");
        magpie_image_free(img);
        magpie_free(a);
    }
    a = encode(px, w, h, 90, 7, 0, &n, &rc);
    img = rc == MAGPIE_OK ? decode(a, n) : NULL;
    int worst = 0;
    for (size_t i = 0; img && i < (size_t)w * h; i++) {
        int d = abs((int)img->pixels[i * 4 + 3] - px[i * 4 + 3]);
        worst = d > worst ? d : worst;
    }
    CHECK(img && worst <= 8, "lossy alpha within %d levels", worst);
    magpie_image_free(img);
    magpie_free(a);
    /* Bad options. */
    CHECK(!encode(px, w, h, 0, 7, 0, &n, &rc) && rc == MAGPIE_EINVAL, "quality 0");
    CHECK(!encode(px, w, h, 101, 7, 0, &n, &rc) && rc == MAGPIE_EINVAL, "quality 101");
    CHECK(!encode(px, w, h, 80, 0, 0, &n, &rc) && rc == MAGPIE_EINVAL, "effort 0");
    CHECK(!encode(px, w, h, 80, 10, 0, &n, &rc) && rc == MAGPIE_EINVAL, "effort 10");
    CHECK(!encode(px, w, h, 80, 7, 2, &n, &rc) && rc == MAGPIE_EINVAL, "lossless 2");
    /* A caller built before `effort` existed: its struct ends before it; the default applies. */
    magpie_encode_options o;
    magpie_encode_options_init(&o);
    o.format = MAGPIE_FORMAT_JXL;
    o.quality = 50;
    o.effort = 99;
    o.struct_size = (uint32_t)offsetof(magpie_encode_options, effort);
    uint8_t *old = NULL;
    CHECK(magpie_encode(px, w, h, (size_t)w * 4, &o, &old, &n) == MAGPIE_OK && old, "older struct");
    magpie_free(old);
    free(px);
    return tu_finish("jxl_encode");
}
