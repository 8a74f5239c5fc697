/* Padding with a colour, flattening alpha onto a colour, and compositing one image over another
 * (Porter-Duff "over" on straight alpha, clipped to the base). */
#include <string.h>

#include "internal.h"

int magpie_pad(const magpie_pixels *src, const magpie_pixels *dst, uint32_t left, uint32_t top, uint32_t color) {
    if (!magpie__pixels_ok(src) || !magpie__pixels_ok(dst) || magpie__pixels_overlap(src, dst) ||
        left > dst->width || top > dst->height || src->width > dst->width - left || src->height > dst->height - top)
        return MAGPIE_EINVAL;
    const uint8_t fill[4] = {(uint8_t)(color >> 24), (uint8_t)(color >> 16), (uint8_t)(color >> 8), (uint8_t)color};
    for (uint32_t y = 0; y < dst->height; y++) {
        uint8_t *row = dst->pixels + (size_t)y * dst->stride;
        int inside = y >= top && y - top < src->height;
        for (uint32_t x = 0; x < dst->width; x++) {
            if (inside && x == left) {
                memcpy(row + (size_t)x * 4, src->pixels + (size_t)(y - top) * src->stride, (size_t)src->width * 4);
                x += src->width - 1;
                continue;
            }
            memcpy(row + (size_t)x * 4, fill, 4);
        }
    }
    return MAGPIE_OK;
}

/* v / 255, rounded to nearest, for v <= 255 * 255. */
static inline uint32_t magpie__div255(uint32_t v) { return (v + 128 + ((v + 128) >> 8)) >> 8; }

int magpie_flatten(const magpie_pixels *src, const magpie_pixels *dst, uint32_t rgb) {
    if (!magpie__pixels_ok(src) || !magpie__pixels_ok(dst) || src->width != dst->width || src->height != dst->height ||
        rgb > 0xFFFFFFu || (src->pixels != dst->pixels && magpie__pixels_overlap(src, dst)))
        return MAGPIE_EINVAL;
    const uint32_t bg[3] = {rgb >> 16, rgb >> 8 & 0xFF, rgb & 0xFF};
    for (uint32_t y = 0; y < src->height; y++) {
        const uint8_t *in = src->pixels + (size_t)y * src->stride;
        uint8_t *out = dst->pixels + (size_t)y * dst->stride;
        for (uint32_t x = 0; x < src->width; x++, in += 4, out += 4) {
            uint32_t a = in[3];
            for (int c = 0; c < 3; c++) out[c] = (uint8_t)magpie__div255(in[c] * a + bg[c] * (255 - a));
            out[3] = 255;
        }
    }
    return MAGPIE_OK;
}

int magpie_composite(const magpie_pixels *base, const magpie_pixels *overlay, int64_t x, int64_t y, double opacity) {
    if (!magpie__pixels_ok(base) || !magpie__pixels_ok(overlay) || !(opacity >= 0.0 && opacity <= 1.0) ||
        magpie__pixels_overlap(base, overlay))
        return MAGPIE_EINVAL;
    if (opacity == 0.0 || x >= (int64_t)base->width || y >= (int64_t)base->height || x <= -(int64_t)overlay->width ||
        y <= -(int64_t)overlay->height)
        return MAGPIE_OK; /* wholly outside (and no sum below can overflow) */
    /* The overlay's rectangle clipped to the base, in base coordinates. */
    int64_t x0 = x < 0 ? 0 : x, y0 = y < 0 ? 0 : y;
    int64_t x1 = x + (int64_t)overlay->width, y1 = y + (int64_t)overlay->height;
    if (x1 > (int64_t)base->width) x1 = base->width;
    if (y1 > (int64_t)base->height) y1 = base->height;
    
    const float k = (float)opacity / 255.0f;
    for (int64_t by = y0; by < y1; by++) {
        uint8_t *b = base->pixels + (size_t)by * base->stride + (size_t)x0 * 4;
        const uint8_t *o = overlay->pixels + (size_t)(by - y) * overlay->stride + (size_t)(x0 - x) * 4;
        for (int64_t bx = x0; bx < x1; bx++, b += 4, o += 4) {
            float oa = o[3] * k;
            if (oa <= 0.0f) continue;
            float ba = b[3] / 255.0f * (1.0f - oa), out = oa + ba;
            for (int c = 0; c < 3; c++) {
                float v = (o[c] * oa + b[c] * ba) / out;
                b[c] = (uint8_t)(v >= 255.0f ? 255 : v + 0.5f);
            }
            float a = out * 255.0f + 0.5f;
            b[3] = (uint8_t)(a >= 255.0f ? 255 : a);
        }
    }
    return MAGPIE_OK;
}
