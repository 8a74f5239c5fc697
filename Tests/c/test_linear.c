/* Linear light (MAGPIE_DECODE_LINEAR, magpie_resize_options.linear_light): every grey level comes
 * back as itself through both conversions, in the plain filter and after a box pre-shrink; a
 * black-and-white pattern averages to linear light's middle grey (sRGB 188) where sRGB filtering
 * gives 128 (the darkening imgproxy's IMGPROXY_USE_LINEAR_COLORSPACE is for); transparency stays
 * weighted; the decode path does the same; and an older caller's shorter options struct still
 * resamples, in sRGB. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "magpie.h"
#include "testutil.h"

static int resample(const uint8_t *src, uint32_t w, uint32_t h, uint8_t *out, uint32_t ow, uint32_t oh, int linear,
                    uint32_t struct_size) {
    magpie_pixels from = {(uint8_t *)src, w, h, (size_t)w * 4}, to = {out, ow, oh, (size_t)ow * 4};
    magpie_resize_options o;
    magpie_resize_options_init(&o);
    o.linear_light = linear;
    if (struct_size) o.struct_size = struct_size;
    return magpie_resample(&from, &to, &o);
}

static uint8_t *pattern(uint32_t w, uint32_t h, int checker, uint8_t level, uint8_t alpha) {
    uint8_t *p = malloc((size_t)w * h * 4);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint8_t v = checker ? (((x ^ y) & 1) ? 255 : 0) : level;
            uint8_t *q = p + ((size_t)y * w + x) * 4;
            q[0] = q[1] = q[2] = v;
            q[3] = alpha;
        }
    return p;
}

/* Every output pixel's channel c lies in [lo, hi]. */
static int all_within(const uint8_t *p, size_t n, int c, int lo, int hi) {
    for (size_t i = 0; i < n; i++)
        if (p[i * 4 + c] < lo || p[i * 4 + c] > hi) return 0;
    return 1;
}

static void grey_levels_survive(void) {
    /* 9 → 4: the filter alone; 64 → 4: a box pre-shrink of 8 first (float sums in linear light). */
    const uint32_t sizes[2] = {9, 64};
    for (int s = 0; s < 2; s++)
        for (int v = 0; v < 256; v++) {
            uint8_t *src = pattern(sizes[s], sizes[s], 0, (uint8_t)v, 255), out[4 * 4 * 4];
            CHECK(resample(src, sizes[s], sizes[s], out, 4, 4, 1, 0) == MAGPIE_OK, "linear resample");
            if (!all_within(out, 16, 0, v, v) || !all_within(out, 16, 3, 255, 255)) {
                CHECK(0, "grey level %d from %u px comes back as %d", v, sizes[s], out[0]);
                free(src);
                return;
            }
            free(src);
        }
}

static void black_and_white_average_to_linear_grey(void) {
    const uint32_t sizes[2] = {32, 256};
    for (int s = 0; s < 2; s++) {
        uint32_t n = sizes[s];
        uint8_t *src = pattern(n, n, 1, 0, 255), lin[8 * 8 * 4], srgb[8 * 8 * 4];
        CHECK(resample(src, n, n, lin, 8, 8, 1, 0) == MAGPIE_OK, "linear");
        CHECK(resample(src, n, n, srgb, 8, 8, 0, 0) == MAGPIE_OK, "srgb");
        /* Half the light: linear 0.5 is sRGB 187.5; the same average of the bytes is 127.5. */
        CHECK(all_within(lin, 64, 1, 186, 189), "%u px: linear light gives %d, not 188", n, lin[1]);
        CHECK(all_within(srgb, 64, 1, 126, 129), "%u px: sRGB gives %d, not 128", n, srgb[1]);
        /* An older caller's struct, without linear_light: accepted, sRGB. */
        uint8_t old[8 * 8 * 4];
        CHECK(resample(src, n, n, old, 8, 8, 1, (uint32_t)offsetof(magpie_resize_options, linear_light)) == MAGPIE_OK,
              "the shorter struct is accepted");
        CHECK(memcmp(old, srgb, sizeof old) == 0, "the shorter struct resamples in sRGB");
        CHECK(resample(src, n, n, old, 8, 8, 1, (uint32_t)offsetof(magpie_resize_options, error_detail)) ==
                  MAGPIE_EINVAL,
              "a struct shorter than any version is refused");
        free(src);
    }
}

/* Half the pixels white and opaque, half black and fully transparent: the transparent ones add no
 * colour, in linear light as in sRGB, so the colour stays white and alpha is halved. */
static void transparency_stays_weighted(void) {
    uint8_t *src = pattern(32, 32, 1, 0, 255);
    for (size_t i = 0; i < 32 * 32; i++)
        if (src[i * 4] == 0) src[i * 4 + 3] = 0;
    uint8_t out[8 * 8 * 4];
    CHECK(resample(src, 32, 32, out, 8, 8, 1, 0) == MAGPIE_OK, "linear");
    CHECK(all_within(out, 64, 0, 254, 255) && all_within(out, 64, 3, 126, 129), "white at half alpha: %d, %d",
          out[0], out[3]);
    free(src);
}

/* The decode path: a PNG of the pattern decoded to a smaller size with MAGPIE_DECODE_LINEAR. */
static void decode_in_linear_light(void) {
    uint8_t *src = pattern(64, 64, 1, 0, 255), *png = NULL;
    size_t size = 0;
    magpie_encode_options e;
    magpie_encode_options_init(&e);
    e.format = MAGPIE_FORMAT_PNG;
    CHECK(magpie_encode(src, 64, 64, 64 * 4, &e, &png, &size) == MAGPIE_OK, "encode");
    for (int linear = 0; linear < 2; linear++) {
        magpie_decode_options o;
        magpie_decode_options_init(&o);
        o.fit = MAGPIE_FIT_INSIDE;
        o.width = o.height = 8;
        o.flags = linear ? MAGPIE_DECODE_LINEAR : 0;
        magpie_image *img = NULL;
        CHECK(magpie_decode(png, size, &o, &img) == MAGPIE_OK && img && img->width == 8, "decode");
        if (img) {
            int lo = linear ? 186 : 126, hi = linear ? 189 : 129;
            int ok = 1;
            for (uint32_t y = 0; y < 8; y++) ok &= all_within(img->pixels + (size_t)y * img->stride, 8, 1, lo, hi);
            CHECK(ok, "decoded %s: %d", linear ? "in linear light" : "in sRGB", img->pixels[1]);
        }
        magpie_image_free(img);
    }
    magpie_free(png);
    free(src);
}

int main(void) {
    grey_levels_survive();
    black_and_white_average_to_linear_grey();
    transparency_stays_weighted();
    decode_in_linear_light();
    return tu_finish("linear");
}
