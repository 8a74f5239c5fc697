/* Gaussian blur (premultiplied RGBA through the engine of gauss.c) and the unsharp mask (the
 * alpha-weighted local mean of luma through the same engine). */
#include <math.h>
#include <string.h>

#include "internal.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__SSE2__) && !defined(MAGPIE_NO_SIMD)
#include <emmintrin.h>
#define MAGPIE_SSE2 1
#endif

static int magpie__same_size(const magpie_pixels *src, const magpie_pixels *dst) {
    return magpie__pixels_ok(src) && magpie__pixels_ok(dst) && src->width == dst->width && src->height == dst->height;
}

static int magpie__opaque(const magpie_pixels *p) {
    for (uint32_t y = 0; y < p->height; y++) {
        const uint8_t *row = p->pixels + y * p->stride;
        for (uint32_t x = 0; x < p->width; x++)
            if (row[(size_t)x * 4 + 3] != 255) return 0;
    }
    return 1;
}

static uint8_t magpie__to8(float v) {
    return v <= 0.0f ? 0 : v >= 255.0f ? 255 : (uint8_t)(v + 0.5f);
}

/* ---- blur ---- */

typedef struct {
    const magpie_pixels *src, *dst;
    int opaque;
} magpie__blur_ctx;

static void magpie__blur_load(void *context, uint32_t y, uint32_t x0, uint32_t x1, float *out) {
    const magpie__blur_ctx *b = context;
    const uint8_t *row = b->src->pixels + y * b->src->stride + (size_t)x0 * 4;
    if (b->opaque)
        magpie__widen(row, out, x1 - x0);
    else
        magpie__premultiply(row, out, x1 - x0);
}

static void magpie__blur_store(void *context, uint32_t y, uint32_t x0, uint32_t n, const float *v) {
    const magpie__blur_ctx *b = context;
    uint8_t *row = b->dst->pixels + y * b->dst->stride + (size_t)x0 * 4;
    uint32_t x = 0;
    if (b->opaque) {
#if MAGPIE_SSE2
        for (; x + 4 <= n; x += 4) {
            const float *f = v + (size_t)x * 4;
            __m128i lo = _mm_packs_epi32(_mm_cvtps_epi32(_mm_loadu_ps(f)), _mm_cvtps_epi32(_mm_loadu_ps(f + 4)));
            __m128i hi = _mm_packs_epi32(_mm_cvtps_epi32(_mm_loadu_ps(f + 8)), _mm_cvtps_epi32(_mm_loadu_ps(f + 12)));
            _mm_storeu_si128((__m128i *)(row + (size_t)x * 4), _mm_packus_epi16(lo, hi));
        }
#endif
        for (size_t i = (size_t)x * 4; i < (size_t)n * 4; i++) row[i] = magpie__to8(v[i]);
        return;
    }
    for (; x < n; x++) {
        const float *p = v + (size_t)x * 4;
        uint8_t *o = row + (size_t)x * 4;
        uint8_t a = magpie__to8(p[3]);
        if (!a) {
            memset(o, 0, 4);
            continue;
        }
        float k = 255.0f / p[3];
        o[0] = magpie__to8(p[0] * k);
        o[1] = magpie__to8(p[1] * k);
        o[2] = magpie__to8(p[2] * k);
        o[3] = a;
    }
}

static int magpie__sigma_ok(double sigma) { return sigma >= 0.0 && sigma <= MAGPIE_MAX_SIGMA; }

/* Below this sigma the kernel's side taps weigh under 1e-9 of the centre (e^-22): nothing would
 * change, so the pixels are copied (exactly, where premultiplying would clear hidden colour). */
#define MAGPIE__SIGMA_COPY 0.15

int magpie_blur(const magpie_pixels *src, const magpie_pixels *dst, double sigma) {
    if (!magpie__same_size(src, dst) || magpie__pixels_overlap(src, dst) || !magpie__sigma_ok(sigma))
        return MAGPIE_EINVAL;
    if (sigma < MAGPIE__SIGMA_COPY) {
        magpie__pixels_copy(src, dst);
        return MAGPIE_OK;
    }
    magpie__blur_ctx b = {src, dst, magpie__opaque(src)};
    magpie__gauss g = {src->width, src->height, 4, magpie__blur_load, magpie__blur_store, &b};
    return magpie__gauss_run(&g, sigma);
}

/* ---- sharpen ---- */

void magpie_sharpen_options_init(magpie_sharpen_options *o) {
    if (!o) return;
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
    o->sigma = 1.0;
    o->amount = 1.0;
    o->max_brighten = 255.0;
    o->max_darken = 255.0;
}

static inline float magpie__luma(const uint8_t *p) { return 0.2126f * p[0] + 0.7152f * p[1] + 0.0722f * p[2]; }

typedef struct {
    const magpie_pixels *src, *dst;
    const magpie_sharpen_options *o;
    int opaque;
} magpie__sharpen_ctx;

/* One channel (luma) for opaque images; two (luma × alpha, alpha) otherwise. */
static void magpie__sharpen_load(void *context, uint32_t y, uint32_t x0, uint32_t x1, float *out) {
    const magpie__sharpen_ctx *s = context;
    const uint8_t *row = s->src->pixels + y * s->src->stride + (size_t)x0 * 4;
    if (s->opaque) {
        for (uint32_t x = 0; x < x1 - x0; x++) out[x] = magpie__luma(row + (size_t)x * 4);
        return;
    }
    for (uint32_t x = 0; x < x1 - x0; x++) {
        const uint8_t *p = row + (size_t)x * 4;
        out[2 * x] = magpie__luma(p) * p[3];
        out[2 * x + 1] = p[3];
    }
}

static void magpie__sharpen_store(void *context, uint32_t y, uint32_t x0, uint32_t n, const float *mean) {
    const magpie__sharpen_ctx *s = context;
    const uint8_t *in = s->src->pixels + y * s->src->stride + (size_t)x0 * 4;
    uint8_t *out = s->dst->pixels + y * s->dst->stride + (size_t)x0 * 4;
    const float threshold = (float)s->o->threshold, amount = (float)s->o->amount;
    const float up = (float)s->o->max_brighten, down = -(float)s->o->max_darken;
    for (uint32_t x = 0; x < n; x++) {
        const uint8_t *p = in + (size_t)x * 4;
        uint8_t *q = out + (size_t)x * 4;
        float y0 = magpie__luma(p), m;
        if (s->opaque)
            m = mean[x];
        else
            m = mean[2 * x + 1] > 1e-3f ? mean[2 * x] / mean[2 * x + 1] : y0;
        float d = y0 - m, e = 0.0f;
        if (d > threshold) e = amount * (d - threshold);
        if (d < -threshold) e = amount * (d + threshold);
        e = e > up ? up : e < down ? down : e;
        q[0] = magpie__to8(p[0] + e);
        q[1] = magpie__to8(p[1] + e);
        q[2] = magpie__to8(p[2] + e);
        q[3] = p[3];
    }
}

int magpie_sharpen(const magpie_pixels *src, const magpie_pixels *dst, const magpie_sharpen_options *options) {
    magpie_sharpen_options o;
    magpie_sharpen_options_init(&o);
    if (options) {
        if (options->struct_size < sizeof o) return MAGPIE_EINVAL;
        o = *options;
    }
    if (!magpie__same_size(src, dst) || magpie__pixels_overlap(src, dst) || !magpie__sigma_ok(o.sigma) ||
        !(o.amount >= 0.0 && o.amount <= 100.0) || !(o.threshold >= 0.0 && o.threshold <= 255.0) ||
        !(o.max_brighten >= 0.0 && o.max_brighten <= 255.0) || !(o.max_darken >= 0.0 && o.max_darken <= 255.0))
        return MAGPIE_EINVAL;
    if (o.sigma < MAGPIE__SIGMA_COPY || o.amount == 0.0) {
        magpie__pixels_copy(src, dst);
        return MAGPIE_OK;
    }
    magpie__sharpen_ctx s = {src, dst, &o, magpie__opaque(src)};
    magpie__gauss g = {src->width, src->height, s.opaque ? 1 : 2, magpie__sharpen_load, magpie__sharpen_store, &s};
    return magpie__gauss_run(&g, o.sigma);
}
