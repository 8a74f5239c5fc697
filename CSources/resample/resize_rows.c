/* Row kernels of the streaming resampler: RGBA8 rows to premultiplied floats, and into the
 * integer box sums of the pre-shrink. SSE2 on x86-64 (always present there), plain C elsewhere. */
#include <string.h>

#include "internal.h"

/* MAGPIE_NO_SIMD forces the plain loops (the tests build it that way too). */
#if defined(__SSE2__) && !defined(MAGPIE_NO_SIMD)
#include <emmintrin.h>
#define MAGPIE_SSE2 1
#endif

/* One RGBA8 row to premultiplied floats: R, G, B scaled by alpha / 255, alpha kept (0–255). */
void magpie__premultiply(const uint8_t *row, float *out, uint32_t w) {
    uint32_t x = 0;
#if MAGPIE_SSE2
    const __m128i zero = _mm_setzero_si128();
    const __m128 rgb = _mm_castsi128_ps(_mm_set_epi32(0, -1, -1, -1));
    const __m128 one_a = _mm_set_ps(1.0f, 0.0f, 0.0f, 0.0f);
    const __m128 inv255 = _mm_set1_ps(1.0f / 255.0f);
    for (; x + 4 <= w; x += 4) {
        __m128i px = _mm_loadu_si128((const __m128i *)(row + (size_t)x * 4));
        __m128i lo = _mm_unpacklo_epi8(px, zero), hi = _mm_unpackhi_epi8(px, zero);
        __m128 v[4] = {_mm_cvtepi32_ps(_mm_unpacklo_epi16(lo, zero)), _mm_cvtepi32_ps(_mm_unpackhi_epi16(lo, zero)),
                       _mm_cvtepi32_ps(_mm_unpacklo_epi16(hi, zero)), _mm_cvtepi32_ps(_mm_unpackhi_epi16(hi, zero))};
        for (int i = 0; i < 4; i++) {
            /* (a/255, a/255, a/255, 1): the same single multiply per channel as the plain loop. */
            __m128 k = _mm_mul_ps(_mm_shuffle_ps(v[i], v[i], _MM_SHUFFLE(3, 3, 3, 3)), inv255);
            _mm_storeu_ps(out + (size_t)(x + i) * 4, _mm_mul_ps(v[i], _mm_or_ps(_mm_and_ps(k, rgb), one_a)));
        }
    }
#endif
    for (; x < w; x++) {
        const uint8_t *p = row + (size_t)x * 4;
        float a = p[3], k = a * (1.0f / 255.0f);
        out[4 * x] = p[0] * k;
        out[4 * x + 1] = p[1] * k;
        out[4 * x + 2] = p[2] * k;
        out[4 * x + 3] = a;
    }
}

void magpie__widen(const uint8_t *row, float *out, uint32_t w) {
    uint32_t x = 0;
#if MAGPIE_SSE2
    const __m128i zero = _mm_setzero_si128();
    for (; x + 4 <= w; x += 4) {
        __m128i px = _mm_loadu_si128((const __m128i *)(row + (size_t)x * 4));
        __m128i lo = _mm_unpacklo_epi8(px, zero), hi = _mm_unpackhi_epi8(px, zero);
        float *o = out + (size_t)x * 4;
        _mm_storeu_ps(o, _mm_cvtepi32_ps(_mm_unpacklo_epi16(lo, zero)));
        _mm_storeu_ps(o + 4, _mm_cvtepi32_ps(_mm_unpackhi_epi16(lo, zero)));
        _mm_storeu_ps(o + 8, _mm_cvtepi32_ps(_mm_unpacklo_epi16(hi, zero)));
        _mm_storeu_ps(o + 12, _mm_cvtepi32_ps(_mm_unpackhi_epi16(hi, zero)));
    }
#endif
    for (size_t i = (size_t)x * 4; i < (size_t)w * 4; i++) out[i] = row[i];
}

/* Filtered floats of an opaque image back to RGBA8: each channel rounded half up and clamped to
 * 0–255 as the general path does, alpha 255 (the weights sum to one, so it is 255 up to rounding). */
void magpie__narrow_opaque(const float *in, uint8_t *row, uint32_t w) {
    uint32_t x = 0;
#if MAGPIE_SSE2
    const __m128 half = _mm_set1_ps(0.5f);
    const __m128i alpha = _mm_set1_epi32((int)0xFF000000u);
    for (; x + 4 <= w; x += 4) {
        const float *p = in + (size_t)x * 4;
        /* Truncating after +0.5 rounds half up; NaN and values below -0.5 become 0 or less, which
         * the unsigned pack clamps to 0, as it clamps what is above 255 to 255. */
        __m128i a = _mm_cvttps_epi32(_mm_add_ps(_mm_loadu_ps(p), half));
        __m128i b = _mm_cvttps_epi32(_mm_add_ps(_mm_loadu_ps(p + 4), half));
        __m128i c = _mm_cvttps_epi32(_mm_add_ps(_mm_loadu_ps(p + 8), half));
        __m128i d = _mm_cvttps_epi32(_mm_add_ps(_mm_loadu_ps(p + 12), half));
        __m128i px = _mm_packus_epi16(_mm_packs_epi32(a, b), _mm_packs_epi32(c, d));
        _mm_storeu_si128((__m128i *)(row + (size_t)x * 4), _mm_or_si128(px, alpha));
    }
#endif
    for (; x < w; x++) {
        for (int c = 0; c < 3; c++) {
            float v = in[(size_t)x * 4 + c];
            row[(size_t)x * 4 + c] = !(v > 0.0f) ? 0 : v >= 255.0f ? 255 : (uint8_t)(v + 0.5f);
        }
        row[(size_t)x * 4 + 3] = 255;
    }
}

/* Adds one RGBA8 row into the box sums: per box column, R, G, B times alpha and alpha. */
void magpie__box_row(const uint8_t *row, uint32_t *acc, uint32_t w, uint32_t box, uint32_t bw) {
    for (uint32_t bx = 0, x = 0; bx < bw; bx++) {
        uint32_t end = x + box < w ? x + box : w;
        uint32_t *sum = acc + (size_t)bx * 4;
#if MAGPIE_SSE2
        const __m128i zero = _mm_setzero_si128();
        __m128i total = zero;
        for (; x < end; x++) {
            uint32_t px;
            memcpy(&px, row + (size_t)x * 4, 4);
            short al = (short)row[(size_t)x * 4 + 3];
            /* 16-bit lanes: p × alpha ≤ 65025 fits unsigned; the alpha lane is multiplied by 1. */
            __m128i v = _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)px), zero);
            __m128i prod = _mm_mullo_epi16(v, _mm_set_epi16(0, 0, 0, 0, 1, al, al, al));
            total = _mm_add_epi32(total, _mm_unpacklo_epi16(prod, zero));
        }
        _mm_storeu_si128((__m128i *)sum, _mm_add_epi32(_mm_loadu_si128((const __m128i *)sum), total));
#else
        uint32_t r = 0, g = 0, b = 0, a = 0;
        for (; x < end; x++) {
            const uint8_t *p = row + (size_t)x * 4;
            uint32_t al = p[3];
            r += p[0] * al;
            g += p[1] * al;
            b += p[2] * al;
            a += al;
        }
        sum[0] += r;
        sum[1] += g;
        sum[2] += b;
        sum[3] += a;
#endif
    }
}
