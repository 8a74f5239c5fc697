/* The resampler's filter passes: horizontal (fused with the conversion of its input to
 * premultiplied floats) and vertical, in SSE2, AVX2 with FMA, or plain C. */
#include <stdlib.h>
#include <string.h>

#include "sink.h"

#if MAGPIE_AVX2
/* The horizontal pass two taps per vector: a tap's pixel and its splatted weight fill half of one. */
MAGPIE_TARGET_AVX2 static void magpie__hrange_avx2(const magpie__sink *s, float *o, uint32_t x0, uint32_t x1) {
    for (uint32_t x = x0; x < x1; x++) {
        const float *w = s->hw4 + (size_t)x * s->htaps * 4;
        const float *p = s->brow + (size_t)s->hx[x] * 4;
        uint32_t n = s->hn[x], k = 0;
        __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps();
        for (; k + 4 <= n; k += 4) {
            a0 = _mm256_fmadd_ps(_mm256_loadu_ps(w + 4 * k), _mm256_loadu_ps(p + 4 * k), a0);
            a1 = _mm256_fmadd_ps(_mm256_loadu_ps(w + 4 * k + 8), _mm256_loadu_ps(p + 4 * k + 8), a1);
        }
        if (k + 2 <= n) {
            a0 = _mm256_fmadd_ps(_mm256_loadu_ps(w + 4 * k), _mm256_loadu_ps(p + 4 * k), a0);
            k += 2;
        }
        __m256 a = _mm256_add_ps(a0, a1);
        __m128 r = _mm_add_ps(_mm256_castps256_ps128(a), _mm256_extractf128_ps(a, 1));
        if (k < n) r = _mm_fmadd_ps(_mm_loadu_ps(w + 4 * k), _mm_loadu_ps(p + 4 * k), r);
        _mm_storeu_ps(o + 4 * x, r);
    }
}

/* acc[i] += wk * m[i] over `count` floats, eight at a time. */
MAGPIE_TARGET_AVX2 static size_t magpie__vaccumulate_avx2(float *acc, const float *m, float wk, size_t count) {
    size_t i = 0;
    __m256 vk = _mm256_set1_ps(wk);
    for (; i + 8 <= count; i += 8)
        _mm256_storeu_ps(acc + i, _mm256_fmadd_ps(vk, _mm256_loadu_ps(m + i), _mm256_loadu_ps(acc + i)));
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
        /* One pixel (four channels) per vector, weights already splatted; two accumulators hide
         * the add latency. */
        const float *w4 = s->hw4 + (size_t)x * s->htaps * 4;
        __m128 a0 = _mm_setzero_ps(), a1 = _mm_setzero_ps();
        for (; k + 2 <= n; k += 2) {
            a0 = _mm_add_ps(a0, _mm_mul_ps(_mm_loadu_ps(w4 + 4 * k), _mm_loadu_ps(p + 4 * k)));
            a1 = _mm_add_ps(a1, _mm_mul_ps(_mm_loadu_ps(w4 + 4 * k + 4), _mm_loadu_ps(p + 4 * k + 4)));
        }
        if (k < n) a0 = _mm_add_ps(a0, _mm_mul_ps(_mm_loadu_ps(w4 + 4 * k), _mm_loadu_ps(p + 4 * k)));
        _mm_storeu_ps(o + 4 * x, _mm_add_ps(a0, a1));
        (void)w;
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
        const uint32_t *a = s->acc + (size_t)bx * 4;
        float *o = s->brow + (size_t)bx * 4;
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
    uint32_t ow = s->g.out_w;
    float *acc = s->vacc;
    memset(acc, 0, (size_t)ow * 4 * sizeof *acc);
    const float *w = s->vw + (size_t)y * s->vtaps;
    for (uint32_t k = 0; k < s->vn[y]; k++) {
        uint32_t slot = (uint32_t)(s->vy[y] + k - s->mid_y0) % s->ring;
        const float *m = s->mid + (size_t)slot * ow * 4;
        float wk = w[k];
        size_t i = 0;
#if MAGPIE_AVX2
        if (s->avx2) i = magpie__vaccumulate_avx2(acc, m, wk, (size_t)ow * 4);
#endif
#if MAGPIE_SSE2
        __m128 vk = _mm_set1_ps(wk);
        for (; i < (size_t)ow * 4; i += 4)
            _mm_storeu_ps(acc + i, _mm_add_ps(_mm_loadu_ps(acc + i), _mm_mul_ps(vk, _mm_loadu_ps(m + i))));
#endif
        for (; i < (size_t)ow * 4; i++) acc[i] += wk * m[i];
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

/* Filters one input row (RGBA8, `row`, no pre-shrink) or box row (the sums in acc, `row` NULL)
 * horizontally into its slot of the kept rows, then writes the output rows it completes. The
 * conversion to premultiplied floats is fused with the pass: each block of 16 outputs converts
 * just the columns it reads that are not converted yet, and uses them while they are in L1;
 * columns no output reads (outside a crop window) are never converted. */
void magpie__hpass(magpie__sink *s, uint32_t y, const uint8_t *row) {
    if (y < s->mid_y0 || y >= s->mid_y0 + s->mid_h) return;
    float *o = s->mid + (size_t)((y - s->mid_y0) % s->ring) * s->g.out_w * 4;
    uint32_t ow = s->g.out_w;
    uint32_t done = s->hlo;
    for (uint32_t x0 = 0, blk = 0; x0 < ow; x0 += 16, blk++) {
        uint32_t x1 = x0 + 16 < ow ? x0 + 16 : ow, need = s->hneed[blk];
        if (need > done) {
            if (row && s->opaque) magpie__widen(row + (size_t)done * 4, s->brow + (size_t)done * 4, need - done);
            else if (row) magpie__premultiply(row + (size_t)done * 4, s->brow + (size_t)done * 4, need - done);
            else magpie__box_to_float(s, done, need);
            done = need;
        }
        magpie__hrange(s, o, x0, x1);
    }
    while (s->vnext < s->g.out_h && (uint32_t)(s->vy[s->vnext] + s->vn[s->vnext]) <= y + 1)
        magpie__vrow(s, s->vnext++);
}

int magpie__sink_finish(magpie__sink *s) {
    if (s->in_row != s->g.in_h) return MAGPIE_EINTERNAL;
    if (s->copy) return MAGPIE_OK;
    /* Every window ends within the rows pushed, so every output row is written by now. */
    return s->vnext == s->g.out_h ? MAGPIE_OK : MAGPIE_EINTERNAL;
}
