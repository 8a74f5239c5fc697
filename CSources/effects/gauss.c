/* The separable Gaussian engine under blur and sharpen: rows of `c` float channels come in through
 * a loader, are filtered horizontally into a ring of rows, then vertically into a row a storer
 * takes. The image is walked in column strips so the ring stays in the L2 cache. The inner loops
 * use AVX2 and FMA when the CPU has them (chosen at run time; -DMAGPIE_NO_AVX2 leaves them out, so
 * the SSE2 ones are tested too), SSE2 otherwise on x86-64, plain C elsewhere (-DMAGPIE_NO_SIMD);
 * each tap pair is added before it is weighted, as the kernel is symmetric. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__SSE2__) && !defined(MAGPIE_NO_SIMD)
#include <immintrin.h>
#define MAGPIE_X86 1
#endif

uint32_t magpie__gauss_radius(double sigma) {
    uint32_t r = (uint32_t)ceil(3.0 * sigma);
    return r ? r : 1;
}

/* Weights w[0..r] of the kernel, w[0] the centre, normalised so w[0] + 2 * sum(w[1..r]) = 1. */
static void magpie__gauss_weights(double sigma, uint32_t r, float *w) {
    double total = 0, *d = (double *)malloc(sizeof(double) * (r + 1));
    for (uint32_t k = 0; k <= r; k++) {
        /* The centre weighs 1 even for a sigma so small that 2 sigma^2 underflows to 0 (0 / 0). */
        double v = k == 0 ? 1.0 : d ? exp(-(double)k * k / (2.0 * sigma * sigma)) : 0;
        if (d) d[k] = v;
        total += k ? 2 * v : v;
    }
    for (uint32_t k = 0; k <= r; k++) w[k] = d ? (float)(d[k] / total) : (k == 0);
    free(d);
}

/* out[i] = w0 * in[i] + sum_k w[k] * (in[i - k*c] + in[i + k*c]) for i < n; `in` has r*c valid
 * floats before it and after its n. */
static void magpie__hpass_c(const float *in, float *out, size_t n, const float *w, uint32_t r, uint32_t c) {
    for (size_t i = 0; i < n; i++) {
        float s = w[0] * in[i];
        for (uint32_t k = 1; k <= r; k++) s += w[k] * (*(in + i - (size_t)k * c) + in[i + (size_t)k * c]);
        out[i] = s;
    }
}

/* out[i] = w0 * rows[r][i] + sum_k w[k] * (rows[r - k][i] + rows[r + k][i]) for i < n. */
static void magpie__vpass_c(const float *const *rows, float *out, size_t n, const float *w, uint32_t r) {
    for (size_t i = 0; i < n; i++) {
        float s = w[0] * rows[r][i];
        for (uint32_t k = 1; k <= r; k++) s += w[k] * (rows[r - k][i] + rows[r + k][i]);
        out[i] = s;
    }
}

#if MAGPIE_X86 && !defined(MAGPIE_NO_AVX2) && defined(__GNUC__)
#define MAGPIE_AVX2 1
#endif

#if MAGPIE_AVX2
/* Four AVX2 accumulators over 32 floats: each starts as w0 times the centre's, and every tap pair
 * adds wk times (lo + hi), the horizontal and vertical passes alike. */
typedef struct {
    __m256 v[4];
} magpie__acc32;

__attribute__((target("avx2,fma"))) static inline void magpie__acc32_start(magpie__acc32 *a, float w0, const float *m) {
    __m256 w = _mm256_set1_ps(w0);
    for (int j = 0; j < 4; j++) a->v[j] = _mm256_mul_ps(w, _mm256_loadu_ps(m + 8 * j));
}

__attribute__((target("avx2,fma"))) static inline void magpie__acc32_tap(magpie__acc32 *a, float wk, const float *lo,
                                                                         const float *hi) {
    __m256 w = _mm256_set1_ps(wk);
    for (int j = 0; j < 4; j++)
        a->v[j] = _mm256_fmadd_ps(w, _mm256_add_ps(_mm256_loadu_ps(lo + 8 * j), _mm256_loadu_ps(hi + 8 * j)), a->v[j]);
}

__attribute__((target("avx2,fma"))) static inline void magpie__acc32_store(const magpie__acc32 *a, float *out) {
    for (int j = 0; j < 4; j++) _mm256_storeu_ps(out + 8 * j, a->v[j]);
}

__attribute__((target("avx2,fma"))) static void magpie__hpass_avx2(const float *in, float *out, size_t n,
                                                                    const float *w, uint32_t r, uint32_t c) {
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        magpie__acc32 a;
        magpie__acc32_start(&a, w[0], in + i);
        for (uint32_t k = 1; k <= r; k++) magpie__acc32_tap(&a, w[k], in + i - (size_t)k * c, in + i + (size_t)k * c);
        magpie__acc32_store(&a, out + i);
    }
    for (; i + 8 <= n; i += 8) {
        __m256 a = _mm256_mul_ps(_mm256_set1_ps(w[0]), _mm256_loadu_ps(in + i));
        for (uint32_t k = 1; k <= r; k++)
            a = _mm256_fmadd_ps(_mm256_set1_ps(w[k]),
                                _mm256_add_ps(_mm256_loadu_ps(in + i - (size_t)k * c), _mm256_loadu_ps(in + i + (size_t)k * c)),
                                a);
        _mm256_storeu_ps(out + i, a);
    }
    if (i < n) magpie__hpass_c(in + i, out + i, n - i, w, r, c);
}

__attribute__((target("avx2,fma"))) static void magpie__vpass_avx2(const float *const *rows, float *out, size_t n,
                                                                    const float *w, uint32_t r) {
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        magpie__acc32 a;
        magpie__acc32_start(&a, w[0], rows[r] + i);
        for (uint32_t k = 1; k <= r; k++) magpie__acc32_tap(&a, w[k], rows[r - k] + i, rows[r + k] + i);
        magpie__acc32_store(&a, out + i);
    }
    for (; i < n; i++) {
        float s = w[0] * rows[r][i];
        for (uint32_t k = 1; k <= r; k++) s += w[k] * (rows[r - k][i] + rows[r + k][i]);
        out[i] = s;
    }
}
#endif

#if MAGPIE_X86
static void magpie__hpass_sse2(const float *in, float *out, size_t n, const float *w, uint32_t r, uint32_t c) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m128 w0 = _mm_set1_ps(w[0]);
        __m128 a0 = _mm_mul_ps(w0, _mm_loadu_ps(in + i)), a1 = _mm_mul_ps(w0, _mm_loadu_ps(in + i + 4));
        for (uint32_t k = 1; k <= r; k++) {
            const float *lo = in + i - (size_t)k * c, *hi = in + i + (size_t)k * c;
            __m128 wk = _mm_set1_ps(w[k]);
            a0 = _mm_add_ps(a0, _mm_mul_ps(wk, _mm_add_ps(_mm_loadu_ps(lo), _mm_loadu_ps(hi))));
            a1 = _mm_add_ps(a1, _mm_mul_ps(wk, _mm_add_ps(_mm_loadu_ps(lo + 4), _mm_loadu_ps(hi + 4))));
        }
        _mm_storeu_ps(out + i, a0);
        _mm_storeu_ps(out + i + 4, a1);
    }
    if (i < n) magpie__hpass_c(in + i, out + i, n - i, w, r, c);
}

static void magpie__vpass_sse2(const float *const *rows, float *out, size_t n, const float *w, uint32_t r) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m128 w0 = _mm_set1_ps(w[0]);
        __m128 a0 = _mm_mul_ps(w0, _mm_loadu_ps(rows[r] + i)), a1 = _mm_mul_ps(w0, _mm_loadu_ps(rows[r] + i + 4));
        for (uint32_t k = 1; k <= r; k++) {
            const float *lo = rows[r - k] + i, *hi = rows[r + k] + i;
            __m128 wk = _mm_set1_ps(w[k]);
            a0 = _mm_add_ps(a0, _mm_mul_ps(wk, _mm_add_ps(_mm_loadu_ps(lo), _mm_loadu_ps(hi))));
            a1 = _mm_add_ps(a1, _mm_mul_ps(wk, _mm_add_ps(_mm_loadu_ps(lo + 4), _mm_loadu_ps(hi + 4))));
        }
        _mm_storeu_ps(out + i, a0);
        _mm_storeu_ps(out + i + 4, a1);
    }
    if (i < n) {
        const float *p[2 * MAGPIE__MAX_RADIUS + 1];
        for (uint32_t k = 0; k <= 2 * r; k++) p[k] = rows[k] + i;
        magpie__vpass_c(p, out + i, n - i, w, r);
    }
}
#endif

typedef void (*magpie__hpass_fn)(const float *, float *, size_t, const float *, uint32_t, uint32_t);
typedef void (*magpie__vpass_fn)(const float *const *, float *, size_t, const float *, uint32_t);

int magpie__gauss_run(const magpie__gauss *g, double sigma) {
    const uint32_t w = g->width, h = g->height, c = g->channels, r = magpie__gauss_radius(sigma);
    if (r > MAGPIE__MAX_RADIUS) return MAGPIE_EINVAL;
    magpie__hpass_fn hpass = magpie__hpass_c;
    magpie__vpass_fn vpass = magpie__vpass_c;
#if MAGPIE_X86
    hpass = magpie__hpass_sse2;
    vpass = magpie__vpass_sse2;
#endif
#if MAGPIE_AVX2
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        hpass = magpie__hpass_avx2;
        vpass = magpie__vpass_avx2;
    }
#endif
    /* A strip is wide enough that its ring of rows fills about 384 KiB, and never narrower than
     * twice the kernel's reach (the context read beside it is then at most as much again). */
    const uint32_t ring = 2 * r + 1 < h ? 2 * r + 1 : h;
    size_t strip = (384u << 10) / ((size_t)ring * c * sizeof(float));
    if (strip < 4 * (size_t)r) strip = 4 * (size_t)r;
    if (strip < 64) strip = 64;
    if (strip > w) strip = w;
    const size_t padded = (strip + 2 * (size_t)r) * c;
    float *wt = malloc(sizeof(float) * (r + 1));
    float *line = malloc(sizeof(float) * padded);
    float *rows = malloc(sizeof(float) * strip * c * ring);
    float *out = malloc(sizeof(float) * strip * c);
    const float **taps = malloc(sizeof(float *) * (2 * (size_t)r + 1));
    int rc = wt && line && rows && out && taps ? MAGPIE_OK : MAGPIE_ENOMEM;
    if (rc == MAGPIE_OK) magpie__gauss_weights(sigma, r, wt);
    for (uint32_t x0 = 0; rc == MAGPIE_OK && x0 < w; x0 += (uint32_t)strip) {
        const uint32_t sw = w - x0 < strip ? w - x0 : (uint32_t)strip;
        /* Source columns [a, b) with the context the kernel reaches, inside the image. */
        const uint32_t a = x0 > r ? x0 - r : 0, b = (size_t)x0 + sw + r < w ? x0 + sw + r : w;
        const size_t n = (size_t)sw * c;
        uint32_t next = 0;
        for (uint32_t y = 0; y < h; y++) {
            uint32_t last = y + r < h ? y + r : h - 1;
            for (; next <= last; next++) {
                /* The loaded columns go where they sit relative to x0 - r; the edges repeat. */
                float *base = line + ((size_t)a + r - x0) * c;
                g->load(g->context, next, a, b, base);
                for (size_t i = 0, lead = ((size_t)a + r - x0); i < lead; i++) memcpy(line + i * c, base, c * sizeof(float));
                const size_t filled = (size_t)(b - a) + (a + r - x0);
                for (size_t i = filled; i < strip + 2 * (size_t)r && i < (size_t)sw + 2 * r; i++)
                    memcpy(line + i * c, line + (filled - 1) * c, c * sizeof(float));
                hpass(line + (size_t)r * c, rows + (size_t)(next % ring) * strip * c, n, wt, r, c);
            }
            for (uint32_t k = 0; k <= 2 * r; k++) {
                int64_t yy = (int64_t)y + k - r;
                uint32_t src = yy < 0 ? 0 : yy >= h ? h - 1 : (uint32_t)yy;
                taps[k] = rows + (size_t)(src % ring) * strip * c;
            }
            vpass(taps, out, n, wt, r);
            g->store(g->context, y, x0, sw, out);
        }
    }
    free(wt);
    free(line);
    free(rows);
    free(out);
    free(taps);
    return rc;
}
