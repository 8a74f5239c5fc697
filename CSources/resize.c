/* Streaming resampler: integer box pre-shrink, then a separable filter on premultiplied alpha. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct magpie__sink {
    magpie__geometry g;
    uint8_t *dst;
    size_t dst_stride;
    int copy;            /* rows map 1:1 to the output */
    uint32_t box;        /* integer pre-shrink factor */
    uint32_t bw, bh;     /* size after the box stage */
    uint32_t in_row;     /* rows pushed so far */
    uint32_t acc_rows;   /* rows in the current box row */
    uint32_t box_row;    /* box rows completed */
    uint32_t *acc;       /* bw * 4 sums: premultiplied R, G, B (x255) and A */
    float *brow;         /* bw * 4 premultiplied floats */
    int32_t *hx, *vy;    /* first input index per output column / row */
    uint16_t *hn, *vn;   /* taps used */
    float *hw, *vw;      /* weights, htaps / vtaps per output */
    uint32_t htaps, vtaps;
    uint32_t mid_y0, mid_h; /* box rows kept for the vertical pass */
    float *mid;          /* out_w * 4 * mid_h, horizontally filtered rows */
    uint8_t *orow;       /* out_w * 4 */
};

static double magpie__sinc(double x) {
    if (x == 0.0) return 1.0;
    x *= M_PI;
    return sin(x) / x;
}

static double magpie__kernel(magpie_filter f, double x) {
    x = fabs(x);
    switch (f) {
    case MAGPIE_FILTER_BILINEAR: return x < 1.0 ? 1.0 - x : 0.0;
    case MAGPIE_FILTER_MITCHELL: {
        const double B = 1.0 / 3.0, C = 1.0 / 3.0;
        if (x < 1.0)
            return ((12 - 9 * B - 6 * C) * x * x * x + (-18 + 12 * B + 6 * C) * x * x + (6 - 2 * B)) / 6;
        if (x < 2.0)
            return ((-B - 6 * C) * x * x * x + (6 * B + 30 * C) * x * x + (-12 * B - 48 * C) * x +
                    (8 * B + 24 * C)) / 6;
        return 0.0;
    }
    case MAGPIE_FILTER_LANCZOS3:
    default: return x < 3.0 ? magpie__sinc(x) * magpie__sinc(x / 3.0) : 0.0;
    }
}

double magpie__support(magpie_filter f) {
    return f == MAGPIE_FILTER_BILINEAR ? 1.0 : f == MAGPIE_FILTER_MITCHELL ? 2.0 : 3.0;
}

static uint32_t magpie__taps(magpie_filter f, double win, uint32_t out) {
    double scale = win / out;
    double support = magpie__support(f) * (scale > 1.0 ? scale : 1.0);
    return (uint32_t)ceil(2.0 * support) + 2;
}

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
    /* acc + brow + weights + mid (bounded by all box rows) + orow; sizes are bounded by the
     * caller's pixel limit, so this sum cannot overflow 64 bits. */
    return bw * 4 * 4 * 2 + (size_t)g->out_w * (ht * 4 + 8) + (size_t)g->out_h * (vt * 4 + 8) +
           (size_t)g->out_w * 16 * bh + (size_t)g->out_w * 4 + 256;
}

static int magpie__weights(magpie_filter f, uint32_t in, double off, double win, uint32_t out,
                           uint32_t taps, int32_t *first, uint16_t *count, float *w) {
    double scale = win / out;
    double fs = scale > 1.0 ? scale : 1.0;
    double support = magpie__support(f) * fs;
    for (uint32_t i = 0; i < out; i++) {
        double center = off + (i + 0.5) * scale;
        int64_t lo = (int64_t)floor(center - support), hi = (int64_t)ceil(center + support);
        if (lo < 0) lo = 0;
        if (hi > (int64_t)in) hi = in;
        if (hi - lo > (int64_t)taps) hi = lo + taps;
        float *wi = w + (size_t)i * taps;
        double sum = 0;
        for (int64_t j = lo; j < hi; j++) {
            double k = magpie__kernel(f, ((double)j + 0.5 - center) / fs);
            wi[j - lo] = (float)k;
            sum += k;
        }
        if (hi <= lo || sum == 0.0) { /* degenerate: take the nearest sample */
            int64_t c = (int64_t)floor(center);
            if (c < 0) c = 0;
            if (c >= (int64_t)in) c = in - 1;
            lo = c;
            hi = c + 1;
            wi[0] = 1.0f;
            sum = 1.0;
        }
        for (int64_t j = lo; j < hi; j++) wi[j - lo] = (float)(wi[j - lo] / sum);
        first[i] = (int32_t)lo;
        count[i] = (uint16_t)(hi - lo);
    }
    return MAGPIE_OK;
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
    s->brow = malloc((size_t)s->bw * 4 * sizeof *s->brow);
    s->hx = malloc(g->out_w * sizeof *s->hx);
    s->hn = malloc(g->out_w * sizeof *s->hn);
    s->hw = malloc((size_t)g->out_w * s->htaps * sizeof *s->hw);
    s->vy = malloc(g->out_h * sizeof *s->vy);
    s->vn = malloc(g->out_h * sizeof *s->vn);
    s->vw = malloc((size_t)g->out_h * s->vtaps * sizeof *s->vw);
    s->orow = malloc((size_t)g->out_w * 4);
    if (!s->acc || !s->brow || !s->hx || !s->hn || !s->hw || !s->vy || !s->vn || !s->vw || !s->orow) {
        magpie__sink_destroy(s);
        return MAGPIE_ENOMEM;
    }
    magpie__weights(g->filter, s->bw, g->win_x / b, g->win_w / b, g->out_w, s->htaps, s->hx, s->hn, s->hw);
    magpie__weights(g->filter, s->bh, g->win_y / b, g->win_h / b, g->out_h, s->vtaps, s->vy, s->vn, s->vw);
    int32_t y0 = s->vy[0], y1 = s->vy[0] + s->vn[0];
    for (uint32_t i = 1; i < g->out_h; i++) {
        if (s->vy[i] < y0) y0 = s->vy[i];
        if (s->vy[i] + s->vn[i] > y1) y1 = s->vy[i] + s->vn[i];
    }
    s->mid_y0 = (uint32_t)y0;
    s->mid_h = (uint32_t)(y1 - y0);
    s->mid = malloc((size_t)g->out_w * 4 * s->mid_h * sizeof *s->mid);
    if (!s->mid) {
        magpie__sink_destroy(s);
        return MAGPIE_ENOMEM;
    }
    *out = s;
    return MAGPIE_OK;
}

/* Filters one premultiplied box row horizontally into the kept rows. */
static void magpie__hpass(magpie__sink *s, uint32_t y) {
    if (y < s->mid_y0 || y >= s->mid_y0 + s->mid_h) return;
    float *o = s->mid + (size_t)(y - s->mid_y0) * s->g.out_w * 4;
    for (uint32_t x = 0; x < s->g.out_w; x++) {
        const float *w = s->hw + (size_t)x * s->htaps;
        const float *p = s->brow + (size_t)s->hx[x] * 4;
        float r = 0, g = 0, b = 0, a = 0;
        for (uint32_t k = 0; k < s->hn[x]; k++, p += 4) {
            r += w[k] * p[0];
            g += w[k] * p[1];
            b += w[k] * p[2];
            a += w[k] * p[3];
        }
        o[4 * x] = r;
        o[4 * x + 1] = g;
        o[4 * x + 2] = b;
        o[4 * x + 3] = a;
    }
}

static void magpie__flush_box(magpie__sink *s) {
    uint32_t rows = s->acc_rows, box = s->box, w = s->g.in_w;
    for (uint32_t bx = 0; bx < s->bw; bx++) {
        uint32_t cols = (bx + 1) * box <= w ? box : w - bx * box;
        float inv = 1.0f / (float)(cols * rows);
        uint32_t *a = s->acc + (size_t)bx * 4;
        float *o = s->brow + (size_t)bx * 4;
        o[0] = a[0] * inv / 255.0f;
        o[1] = a[1] * inv / 255.0f;
        o[2] = a[2] * inv / 255.0f;
        o[3] = a[3] * inv;
    }
    magpie__hpass(s, s->box_row);
    memset(s->acc, 0, (size_t)s->bw * 4 * sizeof *s->acc);
    s->acc_rows = 0;
    s->box_row++;
}

uint8_t *magpie__sink_direct_row(magpie__sink *s) {
    if (!s->copy || s->g.orientation != 1 || s->in_row >= s->g.in_h) return NULL;
    return s->dst + (size_t)s->in_row * s->dst_stride;
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
        for (uint32_t x = 0; x < w; x++) {
            const uint8_t *p = row + (size_t)x * 4;
            float a = p[3], k = a * (1.0f / 255.0f);
            s->brow[4 * x] = p[0] * k;
            s->brow[4 * x + 1] = p[1] * k;
            s->brow[4 * x + 2] = p[2] * k;
            s->brow[4 * x + 3] = a;
        }
        magpie__hpass(s, y);
        return;
    }
    uint32_t box = s->box;
    for (uint32_t bx = 0, x = 0; bx < s->bw; bx++) {
        uint32_t r = 0, g = 0, b = 0, a = 0;
        uint32_t end = x + box < w ? x + box : w;
        for (; x < end; x++) {
            const uint8_t *p = row + (size_t)x * 4;
            uint32_t al = p[3];
            r += p[0] * al;
            g += p[1] * al;
            b += p[2] * al;
            a += al;
        }
        uint32_t *acc = s->acc + (size_t)bx * 4;
        acc[0] += r;
        acc[1] += g;
        acc[2] += b;
        acc[3] += a;
    }
    s->in_row++;
    if (++s->acc_rows == box || s->in_row == s->g.in_h) magpie__flush_box(s);
}

static uint8_t magpie__clamp8(float v) {
    if (!(v > 0.0f)) return 0;
    if (v >= 255.0f) return 255;
    return (uint8_t)(v + 0.5f);
}

int magpie__sink_finish(magpie__sink *s) {
    if (s->in_row != s->g.in_h) return MAGPIE_EINTERNAL;
    if (s->copy) return MAGPIE_OK;
    uint32_t ow = s->g.out_w;
    float *acc = malloc((size_t)ow * 4 * sizeof *acc);
    if (!acc) return MAGPIE_ENOMEM;
    for (uint32_t y = 0; y < s->g.out_h; y++) {
        memset(acc, 0, (size_t)ow * 4 * sizeof *acc);
        const float *w = s->vw + (size_t)y * s->vtaps;
        for (uint32_t k = 0; k < s->vn[y]; k++) {
            const float *m = s->mid + (size_t)(s->vy[y] + k - s->mid_y0) * ow * 4;
            float wk = w[k];
            for (size_t i = 0; i < (size_t)ow * 4; i++) acc[i] += wk * m[i];
        }
        for (uint32_t x = 0; x < ow; x++) {
            float *p = acc + (size_t)x * 4;
            uint8_t *o = s->orow + (size_t)x * 4;
            uint8_t a = magpie__clamp8(p[3]);
            if (a == 0) {
                o[0] = o[1] = o[2] = o[3] = 0;
                continue;
            }
            float k = 255.0f / (p[3] > 255.0f ? 255.0f : p[3]);
            o[0] = magpie__clamp8(p[0] * k);
            o[1] = magpie__clamp8(p[1] * k);
            o[2] = magpie__clamp8(p[2] * k);
            o[3] = a;
        }
        magpie__orient_row(s->dst, s->dst_stride, ow, s->g.out_h, s->g.orientation, y, s->orow);
    }
    free(acc);
    return MAGPIE_OK;
}

void magpie__sink_destroy(magpie__sink *s) {
    if (!s) return;
    free(s->acc);
    free(s->brow);
    free(s->hx);
    free(s->hn);
    free(s->hw);
    free(s->vy);
    free(s->vn);
    free(s->vw);
    free(s->mid);
    free(s->orow);
    free(s);
}
