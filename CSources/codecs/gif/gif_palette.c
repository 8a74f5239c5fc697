/* The GIF encoder's colours: a frame's pixels drawn with a palette it shares (the nearest entry,
 * looked up per cell of 6 bits a channel), or quantised into one of its own by libimagequant. */
#include <string.h>

#include "codecs/gif/gif_encode.h"

/* The pending frame's pixels in `r` drawn with palette `p` (per pixel the entry nearest its cell's
 * centre, remembered in `near`; the transparent one where alpha is 0) into `idx` (rows of the
 * canvas's width); the mean squared error per channel of its opaque pixels. */
double magpie__gif_remap(magpie__gif_enc *st, const magpie__palette *p, uint8_t *near, magpie__gif_rect r) {
    double sum = 0;
    size_t n = 0;
    /* A palette of nothing but the transparent entry (a first frame with no pixel shown) draws
     * nothing: as bad as can be, so the frame gets its own. */
    if (p->count - (p->transparent >= 0) <= 0) return 1e30;
    for (uint32_t y = r.y0; y < r.y1; y++)
        for (uint32_t x = r.x0; x < r.x1; x++) {
            size_t i = (size_t)y * st->w + x;
            const uint8_t *s = st->pend + i * 4;
            if (!s[3]) {
                st->idx[i] = (uint8_t)(p->transparent >= 0 ? p->transparent : 0);
                continue;
            }
            uint32_t cell = (uint32_t)(s[0] >> 2) << 12 | (uint32_t)(s[1] >> 2) << 6 | (uint32_t)(s[2] >> 2);
            int best = near[cell] - 1;
            if (best < 0) {
                int cr = (s[0] & ~3) + 2, cg = (s[1] & ~3) + 2, cb = (s[2] & ~3) + 2, best_d = 1 << 30;
                for (int c = 0; c < p->count; c++) {
                    if (c == p->transparent) continue;
                    int dr = cr - p->rgb[c][0], dg = cg - p->rgb[c][1], db = cb - p->rgb[c][2];
                    int d = dr * dr + dg * dg + db * db;
                    if (d < best_d) best_d = d, best = c;
                }
                if (best < 255) near[cell] = (uint8_t)(best + 1); /* entry 255 is looked up each time */
            }
            st->idx[i] = (uint8_t)best;
            const uint8_t *c = p->rgb[best];
            for (int k = 0; k < 3; k++) sum += (double)(s[k] - c[k]) * (s[k] - c[k]);
            n++;
        }
    return n ? sum / (3.0 * (double)n) : 0;
}

/* The pending frame's pixels in `r` quantised into `p` and `idx`: a palette of their own. */
int magpie__gif_quantize(magpie__gif_enc *st, magpie__gif_rect r, magpie__palette *p, uint8_t *idx,
                                size_t idx_stride) {
    uint32_t w = r.x1 - r.x0, h = r.y1 - r.y0;
    const uint8_t *px = st->pend + ((size_t)r.y0 * st->w + r.x0) * 4;
    /* Quantised into compact rows, then spread onto the canvas-wide index rows. */
    int colors = st->max_colors < 255 ? st->max_colors : 255; /* and one for transparency */
    int rc = magpie__quantize(px, w, h, (size_t)st->w * 4, colors, st->dither, st->speed, p, idx);
    if (rc || idx_stride == w) return rc;
    for (uint32_t y = h; y-- > 0;) memmove(idx + (size_t)(r.y0 + y) * idx_stride + r.x0, idx + (size_t)y * w, w);
    return MAGPIE_OK;
}


double magpie__gif_error(const magpie__gif_enc *st, const magpie__palette *p, magpie__gif_rect r) {
    double sum = 0;
    size_t n = 0;
    for (uint32_t y = r.y0; y < r.y1; y++)
        for (uint32_t x = r.x0; x < r.x1; x++) {
            size_t i = (size_t)y * st->w + x;
            const uint8_t *s = st->pend + i * 4, *c = p->rgb[st->idx[i]];
            if (!s[3]) continue;
            for (int k = 0; k < 3; k++) sum += (double)(s[k] - c[k]) * (s[k] - c[k]);
            n++;
        }
    return n ? sum / (3.0 * (double)n) : 0;
}
