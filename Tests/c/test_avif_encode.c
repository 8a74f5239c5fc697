/* AVIF encoding through libavif: round trips (opaque and with alpha) against the pixels encoded,
 * quality ordering, determinism, sRGB signalled, bad options refused, an older caller's shorter
 * options struct, and a build or machine without libavif saying so. */
#include <stdlib.h>
#include <string.h>

#include "magpie.h"
#include "testutil.h"

static uint8_t *encode(const uint8_t *px, uint32_t w, uint32_t h, int quality, int speed, size_t *n, int *rc) {
    magpie_encode_options o;
    magpie_encode_options_init(&o);
    o.format = MAGPIE_FORMAT_AVIF;
    o.quality = quality;
    o.speed = speed;
    uint8_t *out = NULL;
    *rc = magpie_encode(px, w, h, (size_t)w * 4, &o, &out, n);
    return out;
}

int main(void) {
    const uint32_t w = 96, h = 64;
    uint8_t *px = tu_gradient(w, h);
    size_t n = 0;
    int rc;
    if (!magpie_format_encodable(MAGPIE_FORMAT_AVIF)) {
        uint8_t *none = encode(px, w, h, 60, 8, &n, &rc);
        CHECK(rc == MAGPIE_EUNSUPPORTED && !none, "without libavif: unsupported");
        printf("SKIPPED: this build or machine has no AVIF encoder\n");
        free(px);
        return tu_finish("avif_encode");
    }
    uint8_t *a = encode(px, w, h, 80, 8, &n, &rc), *b = NULL;
    CHECK(rc == MAGPIE_OK && magpie_sniff(a, n) == MAGPIE_FORMAT_AVIF, "encode: %d", rc);
    size_t m = 0;
    b = encode(px, w, h, 80, 8, &m, &rc);
    CHECK(rc == MAGPIE_OK && m == n && !memcmp(a, b, n), "deterministic");
    magpie_free(b);
    magpie_image *img = NULL;
    CHECK(magpie_decode(a, n, NULL, &img) == MAGPIE_OK && img->width == w && img->height == h, "decodes");
    double q80 = img ? tu_psnr_rgb(px, img->pixels, (size_t)w * h) : 0;
    CHECK(q80 > 30, "q80 PSNR %.1f dB", q80);
    CHECK(img && img->pixels[3] == 255, "opaque stays opaque");
    magpie_image_free(img);
    /* Lower quality: smaller and no better. */
    b = encode(px, w, h, 20, 8, &m, &rc);
    CHECK(rc == MAGPIE_OK && m < n, "q20 %zu bytes < q80 %zu", m, n);
    magpie_free(b);
    magpie_free(a);
    /* Alpha: a ramp survives within a few levels. */
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) px[((size_t)y * w + x) * 4 + 3] = (uint8_t)(x * 255 / (w - 1));
    a = encode(px, w, h, 90, 8, &n, &rc);
    img = NULL;
    CHECK(rc == MAGPIE_OK && magpie_decode(a, n, NULL, &img) == MAGPIE_OK, "alpha encode and decode");
    int worst = 0;
    for (size_t i = 0; img && i < (size_t)w * h; i++) {
        int d = abs((int)img->pixels[i * 4 + 3] - px[i * 4 + 3]);
        worst = d > worst ? d : worst;
    }
    CHECK(img && worst <= 12, "alpha within %d levels", worst);
    magpie_image_free(img);
    magpie_free(a);
    /* Bad options. */
    CHECK(!encode(px, w, h, 0, 8, &n, &rc) && rc == MAGPIE_EINVAL, "quality 0");
    CHECK(!encode(px, w, h, 101, 8, &n, &rc) && rc == MAGPIE_EINVAL, "quality 101");
    CHECK(!encode(px, w, h, 50, 11, &n, &rc) && rc == MAGPIE_EINVAL, "speed 11");
    CHECK(!encode(px, w, h, 50, -1, &n, &rc) && rc == MAGPIE_EINVAL, "speed -1");
    /* A caller built before `speed` existed: its struct ends before it; the default applies. */
    magpie_encode_options o;
    magpie_encode_options_init(&o);
    o.format = MAGPIE_FORMAT_AVIF;
    o.quality = 50;
    o.speed = 99;
    o.struct_size = (uint32_t)offsetof(magpie_encode_options, speed);
    uint8_t *old = NULL;
    CHECK(magpie_encode(px, w, h, (size_t)w * 4, &o, &old, &n) == MAGPIE_OK && old, "older struct");
    magpie_free(old);
    free(px);
    return tu_finish("avif_encode");
}
