#include "internal.h"

/* Pixelate: each size × size block (the last ones clipped at the edges) filled with its mean,
 * weighted by alpha (premultiplied), so transparent pixels lend no colour. */
int magpie_pixelate(const magpie_pixels *src, const magpie_pixels *dst, uint32_t size) {
    if (!magpie__pixels_ok(src) || !magpie__pixels_ok(dst) || src->width != dst->width ||
        src->height != dst->height || size == 0 || (src->pixels != dst->pixels && magpie__pixels_overlap(src, dst)))
        return MAGPIE_EINVAL;
    for (uint32_t by = 0; by < src->height; by += size) {
        uint32_t bh = src->height - by < size ? src->height - by : size;
        for (uint32_t bx = 0; bx < src->width; bx += size) {
            uint32_t bw = src->width - bx < size ? src->width - bx : size;
            uint64_t sum[4] = {0, 0, 0, 0};
            for (uint32_t y = by; y < by + bh; y++) {
                const uint8_t *p = src->pixels + (size_t)y * src->stride + (size_t)bx * 4;
                for (uint32_t x = 0; x < bw; x++, p += 4) {
                    sum[0] += (uint64_t)p[0] * p[3];
                    sum[1] += (uint64_t)p[1] * p[3];
                    sum[2] += (uint64_t)p[2] * p[3];
                    sum[3] += p[3];
                }
            }
            uint64_t n = (uint64_t)bw * bh;
            uint8_t out[4] = {0, 0, 0, (uint8_t)((sum[3] + n / 2) / n)};
            if (sum[3])
                for (int c = 0; c < 3; c++) out[c] = (uint8_t)((sum[c] + sum[3] / 2) / sum[3]);
            for (uint32_t y = by; y < by + bh; y++) {
                uint8_t *q = dst->pixels + (size_t)y * dst->stride + (size_t)bx * 4;
                for (uint32_t x = 0; x < bw; x++, q += 4) q[0] = out[0], q[1] = out[1], q[2] = out[2], q[3] = out[3];
            }
        }
    }
    return MAGPIE_OK;
}
