/* The resampler's horizontal pass for opaque rows in 16-bit fixed point (AVX2): the decoder's RGBA8
 * row is read as it is, four taps of one output pixel per multiply-add (vpmaddwd: sixteen 16-bit
 * products), with no conversion of the row to floats first. The sums go into the kept rows as
 * floats, so the vertical pass is the same for both. Weights have 14 fractional bits and sum to
 * exactly 1 (a flat area stays flat; alpha stays 255); against the float pass an output differs by
 * at most a few 1/16384 of a level before rounding. */
#include <stdlib.h>

#include "resample/sink.h"

#define MAGPIE_FIXED_ONE 16384

#if MAGPIE_AVX2
/* Quantises one output's weights (float, summing to 1) to 14-bit fixed point summing to exactly
 * MAGPIE_FIXED_ONE: the rounding error goes to the largest weight. */
static void magpie__fixed_weights(const float *w, uint32_t n, int16_t *out) {
    int32_t sum = 0;
    uint32_t big = 0;
    for (uint32_t k = 0; k < n; k++) {
        float v = w[k] * MAGPIE_FIXED_ONE;
        out[k] = (int16_t)(v < 0 ? v - 0.5f : v + 0.5f);
        sum += out[k];
        if (w[k] > w[big]) big = k;
    }
    out[big] = (int16_t)(out[big] + (MAGPIE_FIXED_ONE - sum));
}

void magpie__sink_fixed_create(magpie__sink *s) {
    uint32_t ow = s->g.out_w, in_w = s->g.in_w;
    uint32_t quad = (s->hpad + 3) & ~3u;
    /* Only where it reads the decoder's own rows (no box pre-shrink) and every read of 16 bytes
     * stays within the row: starts are moved left (weights shifted right) to keep quad taps in. */
    if (!s->avx2 || s->box != 1 || s->htaps > 1024 || quad > in_w) return;
    int16_t *hwf = calloc((size_t)ow * quad * 4, sizeof *hwf);
    int32_t *hxf = malloc((size_t)ow * sizeof *hxf);
    if (!hwf || !hxf) { /* the float pass does the work */
        free(hwf);
        free(hxf);
        return;
    }
    int16_t q[1024];
    for (uint32_t x = 0; x < ow; x++) {
        uint32_t n = s->hn[x], start = (uint32_t)s->hx[x];
        if (start + quad > in_w) start = in_w - quad;
        uint32_t shift = (uint32_t)s->hx[x] - start;
        magpie__fixed_weights(s->hw + (size_t)x * s->htaps, n, q);
        /* Per four taps, one 256-bit vector: taps k, k+1 repeated for R, G, B, A in the low
         * half, k+2, k+3 in the high half, matching the shuffled pixels. */
        int16_t *w = hwf + (size_t)x * quad * 4;
        for (uint32_t t = 0; t < n; t++) {
            uint32_t k = t + shift, block = k / 4, pair = (k % 4) / 2, odd = k % 2;
            for (uint32_t c = 0; c < 4; c++) w[block * 16 + pair * 8 + c * 2 + odd] = q[t];
        }
        hxf[x] = (int32_t)start;
    }
    s->hwf = hwf;
    s->hxf = hxf;
    s->hquad = quad;
}

MAGPIE_TARGET_AVX2 void magpie__hrow_fixed(const magpie__sink *s, float *o, const uint8_t *row) {
    /* Four RGBA pixels (taps k to k+3) in both halves; each half picks its two pixels' channels
     * as 16-bit pairs: R(k) R(k+1) G(k) G(k+1) ... */
    const __m256i pick = _mm256_setr_epi8(0, -1, 4, -1, 1, -1, 5, -1, 2, -1, 6, -1, 3, -1, 7, -1, 8, -1, 12, -1, 9,
                                          -1, 13, -1, 10, -1, 14, -1, 11, -1, 15, -1);
    const __m128 unit = _mm_set1_ps(1.0f / MAGPIE_FIXED_ONE);
    const size_t quad = s->hquad;
    const int16_t *hwf = s->hwf;
    const int32_t *hxf = s->hxf;
    for (uint32_t x = 0, ow = s->g.out_w; x < ow; x++) {
        const uint8_t *p = row + (size_t)hxf[x] * 4;
        const int16_t *w = hwf + (size_t)x * quad * 4;
        __m256i acc = _mm256_setzero_si256();
        for (size_t k = 0; k < quad; k += 4) {
            __m256i px = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(p + 4 * k)));
            __m256i wk = _mm256_loadu_si256((const __m256i *)(w + 4 * k));
            acc = _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_shuffle_epi8(px, pick), wk));
        }
        __m128i sum = _mm_add_epi32(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
        _mm_storeu_ps(o + 4 * (size_t)x, _mm_mul_ps(_mm_cvtepi32_ps(sum), unit));
    }
}
#else
void magpie__sink_fixed_create(magpie__sink *s) { (void)s; }
#endif
