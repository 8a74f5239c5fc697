/* libFuzzer harness: every processor, and the resampler, with parameters taken raw from the input (NaN, infinities,
 * negative, zero and huge radii, sigmas, offsets and sizes) over a small image whose size and
 * pixels also come from the input. Each call must return MAGPIE_OK or MAGPIE_EINVAL, and never
 * touch memory outside the buffers (ASan) or divide by zero (UBSan: thumbor's CVE-2026-53503). */
#include <stdlib.h>
#include <string.h>

#include "magpie.h"

typedef struct {
    const uint8_t *p;
    size_t n;
} reader;

static uint64_t take(reader *r, size_t bytes) {
    uint64_t v = 0;
    for (size_t i = 0; i < bytes && r->n; i++, r->p++, r->n--) v = v << 8 | *r->p;
    return v;
}

static double take_double(reader *r) {
    uint64_t bits = take(r, 8);
    double d;
    memcpy(&d, &bits, sizeof d);
    switch (bits & 3) { /* a quarter of values small and plausible, the rest raw bits */
    case 0: return (double)(int16_t)bits / 64.0;
    default: return d;
    }
}

static void check(int rc) {
    if (rc != MAGPIE_OK && rc != MAGPIE_EINVAL) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader r = {data, size};
    uint32_t w = (uint32_t)take(&r, 1) % 48, h = (uint32_t)take(&r, 1) % 48; /* 0 is an argument error */
    size_t n = (size_t)(w ? w : 1) * (h ? h : 1) * 4;
    uint8_t *src = malloc(n), *dst = malloc(n), *big = calloc(n + 64, 16);
    for (size_t i = 0; i < n; i++) src[i] = r.n ? (uint8_t)take(&r, 1) : (uint8_t)i;
    magpie_pixels a = {src, w, h, (size_t)w * 4}, b = {dst, w, h, (size_t)w * 4};
    check(magpie_blur(&a, &b, take_double(&r)));
    magpie_sharpen_options so;
    magpie_sharpen_options_init(&so);
    so.sigma = take_double(&r), so.amount = take_double(&r), so.threshold = take_double(&r);
    so.max_brighten = take_double(&r), so.max_darken = take_double(&r);
    check(magpie_sharpen(&a, &b, &so));
    uint32_t o = (uint32_t)take(&r, 1) % 10;
    magpie_pixels t = {dst, o >= 5 ? h : w, o >= 5 ? w : h, (size_t)(o >= 5 ? h : w) * 4};
    check(magpie_transform(&a, &t, o));
    magpie_corner_options co;
    magpie_corner_options_init(&co);
    co.radius = take_double(&r), co.border_width = take_double(&r), co.corners = (uint32_t)take(&r, 1) % 17;
    co.border_color = (uint32_t)take(&r, 4);
    check(magpie_round_corners(&a, &co));
    magpie_color_options cc;
    magpie_color_options_init(&cc);
    cc.saturation = take_double(&r), cc.contrast = take_double(&r), cc.brightness = take_double(&r);
    cc.tint = (uint32_t)take(&r, 3), cc.tint_amount = take_double(&r);
    check(magpie_adjust_color(&a, &b, &cc));
    uint32_t left = (uint32_t)take(&r, 1) % 8, top = (uint32_t)take(&r, 1) % 8;
    uint32_t pw = w + left + (uint32_t)take(&r, 1) % 8, ph = h + top + (uint32_t)take(&r, 1) % 8;
    magpie_pixels p = {big, pw, ph, (size_t)pw * 4};
    check(magpie_pad(&a, &p, left, top, (uint32_t)take(&r, 4)));
    check(magpie_flatten(&a, &b, (uint32_t)take(&r, 3)));
    int64_t x = (int64_t)take(&r, 8), y = (int64_t)take(&r, 8);
    if (take(&r, 1) & 1) x %= 64, y %= 64;
    check(magpie_composite(&b, &a, x, y, take_double(&r)));
    /* Smart crop over the source and over the padded image read as a wider one (more cells than
     * pixels on one axis, fewer on the other). */
    magpie_rect found;
    uint32_t cw = (uint32_t)take(&r, 1) % 50, ch = (uint32_t)take(&r, 1) % 50;
    check(magpie_attention_crop(&a, cw, ch, &found));
    magpie_trim_options to;
    magpie_trim_options_init(&to);
    to.threshold = (uint32_t)take(&r, 2) % 300, to.use_color = (int)take(&r, 1) & 1, to.color = (uint32_t)take(&r, 4);
    to.equal_horizontal = (int)take(&r, 1) & 1, to.equal_vertical = (int)take(&r, 1) & 1;
    check(magpie_find_trim(&a, &to, &found));
    check(magpie_pixelate(&a, &b, (uint32_t)take(&r, 1) % 64));
    if (pw && ph >= 4) {
        magpie_pixels wide = {big, pw * 4, ph / 4, (size_t)pw * 16};
        check(magpie_attention_crop(&wide, 1 + cw * 4 % (pw * 4), 1, &found));
    }
    /* The resampler (its ring of filtered rows, the box pre-shrink from 4x down) over a window
     * and an output size from the input, up or down, with an unknown filter now and then. */
    magpie_rect win = {(uint32_t)take(&r, 1) % 56, (uint32_t)take(&r, 1) % 56, (uint32_t)take(&r, 1) % 56,
                       (uint32_t)take(&r, 1) % 56};
    uint32_t ow = 1 + (uint32_t)take(&r, 1) % 96, oh = 1 + (uint32_t)take(&r, 1) % 96;
    uint8_t *out = malloc((size_t)ow * oh * 4);
    magpie_resize_options ro;
    magpie_resize_options_init(&ro);
    ro.window = take(&r, 1) & 1 ? &win : NULL;
    uint64_t f = take(&r, 1);
    ro.filter = (magpie_filter)(f % 4);
    ro.linear_light = (int)(f >> 2 & 1); /* and in linear light now and then */
    magpie_pixels rs = {out, ow, oh, (size_t)ow * 4};
    check(magpie_resample(&a, &rs, &ro));
    free(out);
    free(src);
    free(dst);
    free(big);
    return 0;
}
