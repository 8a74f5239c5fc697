/* Streaming resampler: integer box pre-shrink, then a separable filter on premultiplied alpha
 * (the passes are in resize_pass.c). */
#include <stdlib.h>
#include <string.h>

#include "resample/sink.h"

static uint32_t magpie__box_factor(const magpie__geometry *g) {
    double sx = g->win_w / g->out_w, sy = g->win_h / g->out_h;
    double s = sx < sy ? sx : sy;
    uint32_t b = s >= 4.0 ? (uint32_t)(s / 2.0) : 1;
    if (b > 256) b = 256; /* keeps the 32-bit box sums (box^2 * 255 * 255) from overflowing */
    if (b > g->in_w) b = g->in_w;
    if (b > g->in_h) b = g->in_h;
    return b ? b : 1;
}

static int magpie__is_copy(const magpie__geometry *g) {
    return g->out_w == g->in_w && g->out_h == g->in_h && g->win_x == 0 && g->win_y == 0 &&
           g->win_w == g->in_w && g->win_h == g->in_h;
}

size_t magpie__sink_bytes(const magpie__geometry *g) {
    if (magpie__is_copy(g)) return 0;
    uint32_t b = magpie__box_factor(g);
    size_t bw = (g->in_w + b - 1) / b, bh = (g->in_h + b - 1) / b;
    size_t ht = magpie__taps(g->filter, g->win_w / b, g->out_w);
    size_t vt = magpie__taps(g->filter, g->win_h / b, g->out_h);
    /* acc + brow (and its padding) + weights (horizontal ones also splatted and padded) + blocks +
     * the ring of filtered rows (at most vt of them, see magpie__sink_create) + vacc + orow + the
     * vertical pass's row pointers + the fixed-point weights (resize_fixed.c); sizes are bounded by
     * the caller's pixel limit, so this sum cannot overflow 64 bits. */
    return bw * 4 * 4 * (g->linear ? 3 : 2) + (ht + 3) * 16 + (size_t)g->out_w * (ht * 4 + (ht + 3) * 16 + 9) +
           (size_t)g->out_h * (vt * 4 + 8) + (size_t)g->out_w * 16 * ((vt < bh ? vt : bh) + 1) +
           (size_t)g->out_w * 4 + vt * sizeof(float *) + (size_t)g->out_w * ((ht + 3) * 8 + 4) + 256;
}

int magpie__sink_create(const magpie__geometry *g, uint8_t *dst, size_t dst_stride, magpie__sink **out) {
    *out = NULL;
    if (!g->in_w || !g->in_h || !g->out_w || !g->out_h) return MAGPIE_EINVAL;
    magpie__sink *s = calloc(1, sizeof *s);
    if (!s) return MAGPIE_ENOMEM;
    s->g = *g;
    s->dst = dst;
    s->dst_stride = dst_stride;
    s->copy = magpie__is_copy(g);
    if (s->copy) {
        *out = s;
        return MAGPIE_OK;
    }
    s->box = magpie__box_factor(g);
    s->bw = (g->in_w + s->box - 1) / s->box;
    s->bh = (g->in_h + s->box - 1) / s->box;
    double b = s->box;
    s->htaps = magpie__taps(g->filter, g->win_w / b, g->out_w);
    s->vtaps = magpie__taps(g->filter, g->win_h / b, g->out_h);
    if (s->htaps > 65535 || s->vtaps > 65535) {
        magpie__sink_destroy(s);
        return MAGPIE_EINVAL;
    }
    s->acc = calloc((size_t)s->bw * 4, sizeof *s->acc);
    if (g->linear && s->box > 1 && !(s->accf = calloc((size_t)s->bw * 4, sizeof *s->accf))) {
        magpie__sink_destroy(s);
        return MAGPIE_ENOMEM;
    }
    s->hx = malloc(g->out_w * sizeof *s->hx);
    s->hn = malloc(g->out_w * sizeof *s->hn);
    s->hw = malloc((size_t)g->out_w * s->htaps * sizeof *s->hw);
    s->vy = malloc(g->out_h * sizeof *s->vy);
    s->vn = malloc(g->out_h * sizeof *s->vn);
    s->vw = malloc((size_t)g->out_h * s->vtaps * sizeof *s->vw);
    s->orow = malloc((size_t)g->out_w * 4);
    if (!s->acc || !s->hx || !s->hn || !s->hw || !s->vy || !s->vn || !s->vw || !s->orow) {
        magpie__sink_destroy(s);
        return MAGPIE_ENOMEM;
    }
    magpie__weights(g->filter, s->bw, g->win_x / b, g->win_w / b, g->out_w, s->htaps, s->hx, s->hn, s->hw);
    s->hlo = (uint32_t)s->hx[0];
    s->hneed = malloc(((g->out_w + 15) / 16) * sizeof *s->hneed);
    if (!s->hneed) {
        magpie__sink_destroy(s);
        return MAGPIE_ENOMEM;
    }
    for (uint32_t i = 0, need = 0; i < g->out_w; i++) {
        if ((uint32_t)s->hx[i] < s->hlo) s->hlo = (uint32_t)s->hx[i];
        if ((uint32_t)s->hx[i] + s->hn[i] > need) need = (uint32_t)s->hx[i] + s->hn[i];
        /* Rounded up to whole vectors of four pixels (within the row), so conversions rarely
         * end in a scalar tail. */
        uint32_t up = (need + 3) & ~3u;
        s->hneed[i / 16] = up < s->bw ? up : s->bw;
    }
#if MAGPIE_AVX2
    s->avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#endif
    for (uint32_t i = 0; i < g->out_w; i++)
        if (s->hn[i] > s->hpad) s->hpad = s->hn[i];
    s->hpad = (s->hpad + 1) & ~1u;
    /* Zeroed, so a padded tap never multiplies a NaN of uninitialised memory. */
    s->brow = calloc(((size_t)s->bw + s->hpad) * 4, sizeof *s->brow);
    if (!s->brow) {
        magpie__sink_destroy(s);
        return MAGPIE_ENOMEM;
    }
#if MAGPIE_SSE2
    s->hw4 = calloc((size_t)g->out_w * s->hpad * 4, sizeof *s->hw4);
    if (!s->hw4) {
        magpie__sink_destroy(s);
        return MAGPIE_ENOMEM;
    }
    for (size_t i = 0; i < g->out_w; i++)
        for (size_t k = 0; k < s->hn[i]; k++)
            for (int c = 0; c < 4; c++) s->hw4[(i * s->hpad + k) * 4 + c] = s->hw[i * s->htaps + k];
#endif
    magpie__weights(g->filter, s->bh, g->win_y / b, g->win_h / b, g->out_h, s->vtaps, s->vy, s->vn, s->vw);
    /* Output rows are written in order as soon as their last row is filtered, so only the rows
     * between the oldest one an unwritten output reads and the newest one are kept: a ring of
     * `ring` rows. Row i is written once rows up to `end` (the largest window end so far) are in,
     * and then reads back to vy[i]. Window starts and ends never decrease (magpie__weights), so
     * this is at most vtaps; it is computed, not assumed. */
    int32_t y0 = s->vy[0], y1 = s->vy[0] + s->vn[0], end = 0, ring = 1;
    for (uint32_t i = 0; i < g->out_h; i++) {
        if (s->vy[i] < y0) y0 = s->vy[i];
        if (s->vy[i] + s->vn[i] > y1) y1 = s->vy[i] + s->vn[i];
        if (s->vy[i] + s->vn[i] > end) end = s->vy[i] + s->vn[i];
        if (end - s->vy[i] > ring) ring = end - s->vy[i];
    }
    s->mid_y0 = (uint32_t)y0;
    s->mid_h = (uint32_t)(y1 - y0);
    s->ring = (uint32_t)ring < s->mid_h ? (uint32_t)ring : s->mid_h;
    s->mid = malloc((size_t)g->out_w * 4 * s->ring * sizeof *s->mid);
    s->vacc = malloc((size_t)g->out_w * 4 * sizeof *s->vacc);
    s->vrows = malloc(s->vtaps * sizeof *s->vrows);
    if (!s->mid || !s->vacc || !s->vrows) {
        magpie__sink_destroy(s);
        return MAGPIE_ENOMEM;
    }
    *out = s;
    return MAGPIE_OK;
}
static void magpie__flush_box(magpie__sink *s) {
    magpie__hpass(s, s->box_row, NULL);
    memset(s->acc, 0, (size_t)s->bw * 4 * sizeof *s->acc);
    if (s->accf) memset(s->accf, 0, (size_t)s->bw * 4 * sizeof *s->accf);
    s->acc_rows = 0;
    s->box_row++;
}

uint8_t *magpie__sink_direct_row(magpie__sink *s) {
    if (!s->copy || s->g.orientation != 1 || s->in_row >= s->g.in_h) return NULL;
    return s->dst + (size_t)s->in_row * s->dst_stride;
}

void magpie__sink_set_opaque(magpie__sink *s) {
    if (s->g.linear) return; /* the opaque paths (widen, fixed point, narrow) work in sRGB bytes */
    s->opaque = 1;
    if (!s->copy && !s->hwf) magpie__sink_fixed_create(s);
}

void magpie__sink_push(magpie__sink *s, const uint8_t *row) {
    if (s->in_row >= s->g.in_h) return;
    if (s->copy) {
        if (!row) { /* written in place through magpie__sink_direct_row */
            s->in_row++;
            return;
        }
        magpie__orient_row(s->dst, s->dst_stride, s->g.out_w, s->g.out_h, s->g.orientation, s->in_row, row);
        s->in_row++;
        return;
    }
    uint32_t w = s->g.in_w;
    if (s->box == 1) {
        uint32_t y = s->in_row++;
        if (y < s->mid_y0 || y >= s->mid_y0 + s->mid_h) return;
        magpie__hpass(s, y, row);
        return;
    }
    if (s->accf) magpie__box_row_linear(row, s->accf, w, s->box, s->bw);
    else magpie__box_row(row, s->acc, w, s->box, s->bw);
    s->in_row++;
    if (++s->acc_rows == s->box || s->in_row == s->g.in_h) magpie__flush_box(s);
}

void magpie__sink_restart(magpie__sink *s, uint8_t *dst, size_t dst_stride) {
    s->dst = dst;
    s->dst_stride = dst_stride;
    s->in_row = s->acc_rows = s->box_row = s->vnext = 0;
    s->opaque = 0;
    if (s->acc) memset(s->acc, 0, (size_t)s->bw * 4 * sizeof *s->acc);
    if (s->accf) memset(s->accf, 0, (size_t)s->bw * 4 * sizeof *s->accf);
}

void magpie__sink_destroy(magpie__sink *s) {
    if (!s) return;
    free(s->acc);
    free(s->accf);
    free(s->brow);
    free(s->hx);
    free(s->hn);
    free(s->hw);
    free(s->hw4);
    free(s->hwf);
    free(s->hxf);
    free(s->hneed);
    free(s->vy);
    free(s->vn);
    free(s->vw);
    free(s->mid);
    free(s->vacc);
    free(s->vrows);
    free(s->orow);
    free(s);
}
