/* Streaming resampler: integer box pre-shrink, then a separable filter on premultiplied alpha. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* x86-64 always has SSE2: each RGBA pixel is one 4-float vector, accumulated tap by tap (the
 * layout Pillow-SIMD and libvips use). Elsewhere the same loops in plain C. */
/* MAGPIE_NO_SIMD forces the plain loops (the tests build it that way too). */
#if defined(__SSE2__) && !defined(MAGPIE_NO_SIMD)
#include <emmintrin.h>
#define MAGPIE_SSE2 1
#endif
/* Where the compiler can target AVX2 and FMA per function (GCC, Clang on x86-64), the passes
 * also have AVX2 versions, two pixels per vector, chosen at run time when the CPU has both
 * (MAGPIE_NO_AVX2 leaves them out, so the SSE2 ones can be tested on such a CPU). */
#if MAGPIE_SSE2 && !defined(MAGPIE_NO_AVX2) && defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#define MAGPIE_AVX2 1
#define MAGPIE_TARGET_AVX2 __attribute__((target("avx2,fma")))
#endif

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
    float *hw4;          /* with SSE2: hw with each weight repeated 4 times (one vector a tap) */
    int avx2;            /* the CPU has AVX2 and FMA */
    uint32_t htaps, vtaps;
    uint32_t mid_y0, mid_h; /* box rows kept for the vertical pass */
    float *mid;          /* out_w * 4 * mid_h, horizontally filtered rows */
    uint8_t *orow;       /* out_w * 4 */
};

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
    /* acc + brow + weights (horizontal ones also splatted) + mid (bounded by all box rows) + orow;
     * sizes are bounded by the caller's pixel limit, so this sum cannot overflow 64 bits. */
    return bw * 4 * 4 * 2 + (size_t)g->out_w * (ht * 20 + 8) + (size_t)g->out_h * (vt * 4 + 8) +
           (size_t)g->out_w * 16 * bh + (size_t)g->out_w * 4 + 256;
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
#if MAGPIE_AVX2
    s->avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#endif
#if MAGPIE_SSE2
    s->hw4 = malloc((size_t)g->out_w * s->htaps * 4 * sizeof *s->hw4);
    if (!s->hw4) {
        magpie__sink_destroy(s);
        return MAGPIE_ENOMEM;
    }
    for (size_t i = 0; i < (size_t)g->out_w * s->htaps; i++)
        for (int c = 0; c < 4; c++) s->hw4[4 * i + c] = s->hw[i];
#endif
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

#if MAGPIE_AVX2
/* The horizontal pass two taps per vector: a tap's pixel and its splatted weight fill half of one. */
MAGPIE_TARGET_AVX2 static void magpie__hpass_avx2(const magpie__sink *s, float *o) {
    for (uint32_t x = 0; x < s->g.out_w; x++) {
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

/* Filters one premultiplied box row horizontally into the kept rows. */
static void magpie__hpass(magpie__sink *s, uint32_t y) {
    if (y < s->mid_y0 || y >= s->mid_y0 + s->mid_h) return;
    float *o = s->mid + (size_t)(y - s->mid_y0) * s->g.out_w * 4;
#if MAGPIE_AVX2
    if (s->avx2) {
        magpie__hpass_avx2(s, o);
        return;
    }
#endif
    for (uint32_t x = 0; x < s->g.out_w; x++) {
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
        magpie__premultiply(row, s->brow, w);
        magpie__hpass(s, y);
        return;
    }
    magpie__box_row(row, s->acc, w, s->box, s->bw);
    s->in_row++;
    if (++s->acc_rows == s->box || s->in_row == s->g.in_h) magpie__flush_box(s);
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
    free(s->hw4);
    free(s->vy);
    free(s->vn);
    free(s->vw);
    free(s->mid);
    free(s->orow);
    free(s);
}
