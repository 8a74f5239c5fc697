/* The resampler's filter passes: horizontal (fused with the conversion of its input to
 * premultiplied floats) and vertical, in SSE2, AVX2 with FMA, or plain C. */
#include <stdlib.h>
#include <string.h>

#include "resample/sink.h"

#if MAGPIE_AVX2
/* The horizontal pass two taps per vector: a tap's pixel and its splatted weight fill half of one.
 * Every output runs hpad taps (zero weights past its own), so the loop has one trip count. */
MAGPIE_TARGET_AVX2 static void magpie__hrange_avx2(const magpie__sink *s, float *o, uint32_t x0, uint32_t x1) {
    const size_t taps = s->hpad;
    const float *hw4 = s->hw4, *brow = s->brow;
    const int32_t *hx = s->hx;
    for (uint32_t x = x0; x < x1; x++) {
        const float *w = hw4 + (size_t)x * taps * 4;
        const float *p = brow + (size_t)hx[x] * 4;
        __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps();
        size_t k = 0;
        for (; k + 4 <= taps; k += 4) {
            a0 = _mm256_fmadd_ps(_mm256_loadu_ps(w + 4 * k), _mm256_loadu_ps(p + 4 * k), a0);
            a1 = _mm256_fmadd_ps(_mm256_loadu_ps(w + 4 * k + 8), _mm256_loadu_ps(p + 4 * k + 8), a1);
        }
        if (k < taps) a0 = _mm256_fmadd_ps(_mm256_loadu_ps(w + 4 * k), _mm256_loadu_ps(p + 4 * k), a0);
        __m256 a = _mm256_add_ps(a0, a1);
        _mm_storeu_ps(o + 4 * (size_t)x, _mm_add_ps(_mm256_castps256_ps128(a), _mm256_extractf128_ps(a, 1)));
    }
}

/* acc[i] = sum over k of w[k] * rows[k][i], for the first count floats rounded down to 8: a block
 * of 32 floats at a time runs through every tap in registers, so each sum is stored once. The
 * order of the sums is the tap order, as in the plain loop. Returns how many it wrote. */
MAGPIE_TARGET_AVX2 static size_t magpie__vsum_avx2(float *acc, const float *const *rows, const float *w, uint32_t n,
                                                   size_t count) {
    size_t i = 0;
    for (; i + 32 <= count; i += 32) {
        __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps();
        __m256 a2 = _mm256_setzero_ps(), a3 = _mm256_setzero_ps();
        for (uint32_t k = 0; k < n; k++) {
            __m256 wk = _mm256_broadcast_ss(w + k);
            const float *m = rows[k] + i;
            a0 = _mm256_fmadd_ps(wk, _mm256_loadu_ps(m), a0);
            a1 = _mm256_fmadd_ps(wk, _mm256_loadu_ps(m + 8), a1);
            a2 = _mm256_fmadd_ps(wk, _mm256_loadu_ps(m + 16), a2);
            a3 = _mm256_fmadd_ps(wk, _mm256_loadu_ps(m + 24), a3);
        }
        _mm256_storeu_ps(acc + i, a0);
        _mm256_storeu_ps(acc + i + 8, a1);
        _mm256_storeu_ps(acc + i + 16, a2);
        _mm256_storeu_ps(acc + i + 24, a3);
    }
    for (; i + 8 <= count; i += 8) {
        __m256 a = _mm256_setzero_ps();
        for (uint32_t k = 0; k < n; k++)
            a = _mm256_fmadd_ps(_mm256_broadcast_ss(w + k), _mm256_loadu_ps(rows[k] + i), a);
        _mm256_storeu_ps(acc + i, a);
    }
    return i;
}
#endif

/* Outputs [x0, x1) of the horizontal pass over the premultiplied row in brow. */
static void magpie__hrange(const magpie__sink *s, float *o, uint32_t x0, uint32_t x1) {
#if MAGPIE_AVX2
    if (s->avx2) {
        magpie__hrange_avx2(s, o, x0, x1);
        return;
    }
#endif
    for (uint32_t x = x0; x < x1; x++) {
        const float *w = s->hw + (size_t)x * s->htaps;
        const float *p = s->brow + (size_t)s->hx[x] * 4;
        uint32_t n = s->hn[x], k = 0;
#if MAGPIE_SSE2
        /* One pixel (four channels) per vector, weights already splatted and padded to hpad
         * taps; two accumulators hide the add latency. */
        const float *w4 = s->hw4 + (size_t)x * s->hpad * 4;
        __m128 a0 = _mm_setzero_ps(), a1 = _mm_setzero_ps();
        for (; k < s->hpad; k += 2) {
            a0 = _mm_add_ps(a0, _mm_mul_ps(_mm_loadu_ps(w4 + 4 * k), _mm_loadu_ps(p + 4 * k)));
            a1 = _mm_add_ps(a1, _mm_mul_ps(_mm_loadu_ps(w4 + 4 * k + 4), _mm_loadu_ps(p + 4 * k + 4)));
        }
        _mm_storeu_ps(o + 4 * x, _mm_add_ps(a0, a1));
        (void)w;
        (void)n;
#else
        float r = 0, g = 0, b = 0, a = 0;
        for (; k < n; k++, p += 4) {
            r += w[k] * p[0];
            g += w[k] * p[1];
            b += w[k] * p[2];
            a += w[k] * p[3];
        }
        o[4 * x] = r;
        o[4 * x + 1] = g;
        o[4 * x + 2] = b;
        o[4 * x + 3] = a;
#endif
    }
}


/* Box columns [from, to) of the current box row, from integer sums to premultiplied floats. */
static void magpie__box_to_float(magpie__sink *s, uint32_t from, uint32_t to) {
    uint32_t rows = s->acc_rows, box = s->box, w = s->g.in_w;
    for (uint32_t bx = from; bx < to; bx++) {
        uint32_t cols = (bx + 1) * box <= w ? box : w - bx * box;
        float inv = 1.0f / (float)(cols * rows);
        float *o = s->brow + (size_t)bx * 4;
        if (s->accf) { /* linear light: float sums of linear values times alpha */
            const float *f = s->accf + (size_t)bx * 4;
            o[0] = f[0] * inv / 255.0f;
            o[1] = f[1] * inv / 255.0f;
            o[2] = f[2] * inv / 255.0f;
            o[3] = f[3] * inv;
            continue;
        }
        const uint32_t *a = s->acc + (size_t)bx * 4;
        o[0] = a[0] * inv / 255.0f;
        o[1] = a[1] * inv / 255.0f;
        o[2] = a[2] * inv / 255.0f;
        o[3] = a[3] * inv;
    }
}

static uint8_t magpie__clamp8(float v) {
    if (!(v > 0.0f)) return 0;
    if (v >= 255.0f) return 255;
    return (uint8_t)(v + 0.5f);
}

/* Output row y: the vertical pass over its kept rows, back to straight alpha, into place. */
static void magpie__vrow(magpie__sink *s, uint32_t y) {
    uint32_t ow = s->g.out_w, n = s->vn[y];
    float *acc = s->vacc;
    memset(acc, 0, (size_t)ow * 4 * sizeof *acc);
    const float *w = s->vw + (size_t)y * s->vtaps;
    for (uint32_t k = 0; k < n; k++)
        s->vrows[k] = s->mid + (size_t)((uint32_t)(s->vy[y] + k - s->mid_y0) % s->ring) * ow * 4;
    size_t done = 0;
#if MAGPIE_AVX2
    if (s->avx2) done = magpie__vsum_avx2(acc, (const float *const *)s->vrows, w, n, (size_t)ow * 4);
#endif
    for (uint32_t k = 0; k < n; k++) {
        const float *m = s->vrows[k];
        float wk = w[k];
        size_t i = done;
#if MAGPIE_SSE2
        __m128 vk = _mm_set1_ps(wk);
        for (; i < (size_t)ow * 4; i += 4)
            _mm_storeu_ps(acc + i, _mm_add_ps(_mm_loadu_ps(acc + i), _mm_mul_ps(vk, _mm_loadu_ps(m + i))));
#endif
        for (; i < (size_t)ow * 4; i++) acc[i] += wk * m[i];
    }
    if (s->opaque) {
        magpie__narrow_opaque(acc, s->orow, ow);
        magpie__orient_row(s->dst, s->dst_stride, ow, s->g.out_h, s->g.orientation, y, s->orow);
        return;
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
        if (s->g.linear) {
            o[0] = magpie__linear_to_srgb8(p[0] * k);
            o[1] = magpie__linear_to_srgb8(p[1] * k);
            o[2] = magpie__linear_to_srgb8(p[2] * k);
            o[3] = a;
            continue;
        }
        o[0] = magpie__clamp8(p[0] * k);
        o[1] = magpie__clamp8(p[1] * k);
        o[2] = magpie__clamp8(p[2] * k);
        o[3] = a;
    }
    magpie__orient_row(s->dst, s->dst_stride, ow, s->g.out_h, s->g.orientation, y, s->orow);
}

/* The float horizontal pass over one input row (RGBA8, `row`) or box row (`row` NULL). Its
 * conversion to premultiplied floats is fused with it: each block of 16 outputs converts just the
 * columns it reads that are not converted yet, and uses them while they are in L1; columns no
 * output reads (outside a crop window) are never converted. */
static void magpie__hfloat(magpie__sink *s, float *o, const uint8_t *row) {
    uint32_t ow = s->g.out_w, done = s->hlo;
    for (uint32_t x0 = 0, blk = 0; x0 < ow; x0 += 16, blk++) {
        uint32_t x1 = x0 + 16 < ow ? x0 + 16 : ow, need = s->hneed[blk];
        if (need > done) {
            if (row && s->g.linear) magpie__premultiply_linear(row + (size_t)done * 4, s->brow + (size_t)done * 4, need - done);
            else if (row && s->opaque) magpie__widen(row + (size_t)done * 4, s->brow + (size_t)done * 4, need - done);
            else if (row) magpie__premultiply(row + (size_t)done * 4, s->brow + (size_t)done * 4, need - done);
            else magpie__box_to_float(s, done, need);
            done = need;
        }
        magpie__hrange(s, o, x0, x1);
    }
}

/* Filters one input row (RGBA8, `row`, no pre-shrink) or box row (the sums in acc, `row` NULL)
 * horizontally into its slot of the kept rows (an opaque row in fixed point where it can, see
 * resize_fixed.c), then writes the output rows it completes. */
void magpie__hpass(magpie__sink *s, uint32_t y, const uint8_t *row) {
    if (y < s->mid_y0 || y >= s->mid_y0 + s->mid_h) return;
    float *o = s->mid + (size_t)((y - s->mid_y0) % s->ring) * s->g.out_w * 4;
#if MAGPIE_AVX2
    if (row && s->opaque && s->hwf) magpie__hrow_fixed(s, o, row);
    else magpie__hfloat(s, o, row);
#else
    magpie__hfloat(s, o, row);
#endif
    while (s->vnext < s->g.out_h && (uint32_t)(s->vy[s->vnext] + s->vn[s->vnext]) <= y + 1)
        magpie__vrow(s, s->vnext++);
}

int magpie__sink_finish(magpie__sink *s) {
    if (s->in_row != s->g.in_h) return MAGPIE_EINTERNAL;
    if (s->copy) return MAGPIE_OK;
    /* Every window ends within the rows pushed, so every output row is written by now. */
    return s->vnext == s->g.out_h ? MAGPIE_OK : MAGPIE_EINTERNAL;
}
