/* Linear light for the resampler (MAGPIE_DECODE_LINEAR): the sRGB transfer function (IEC
 * 61966-2-1) both ways, by table. Decoding is exact per byte (256 floats); encoding reads a table
 * of 8192 steps over 0–1 linear, fine enough that every byte decoded and encoded again is itself
 * (test_resample checks all 256), as libvips's scRGB round trip is. */
#include <math.h>
#include <pthread.h>

#include "internal.h"

#define MAGPIE__ENCODE_STEPS 8192

static float magpie__to_linear[256];                      /* 0–255 linear units */
static uint8_t magpie__to_srgb[MAGPIE__ENCODE_STEPS + 1]; /* by linear value * STEPS / 255 */
static pthread_once_t magpie__linear_once = PTHREAD_ONCE_INIT;

static void magpie__linear_tables(void) {
    for (int i = 0; i < 256; i++) {
        double c = i / 255.0;
        magpie__to_linear[i] = (float)(255.0 * (c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)));
    }
    for (int i = 0; i <= MAGPIE__ENCODE_STEPS; i++) {
        double l = (double)i / MAGPIE__ENCODE_STEPS;
        double c = l <= 0.0031308 ? l * 12.92 : 1.055 * pow(l, 1.0 / 2.4) - 0.055;
        magpie__to_srgb[i] = (uint8_t)(c * 255.0 + 0.5);
    }
}

static const float *magpie__linear_table(void) {
    pthread_once(&magpie__linear_once, magpie__linear_tables);
    return magpie__to_linear;
}

uint8_t magpie__linear_to_srgb8(float v) {
    if (!(v > 0.0f)) return 0;
    if (v >= 255.0f) return 255;
    /* The tables are built by now: a linear value only comes from the decoding ones. */
    return magpie__to_srgb[(int)(v * (MAGPIE__ENCODE_STEPS / 255.0f) + 0.5f)];
}

void magpie__premultiply_linear(const uint8_t *row, float *out, uint32_t w) {
    const float *lin = magpie__linear_table();
    for (uint32_t x = 0; x < w; x++) {
        const uint8_t *p = row + (size_t)x * 4;
        float a = p[3], k = a * (1.0f / 255.0f);
        out[4 * x] = lin[p[0]] * k;
        out[4 * x + 1] = lin[p[1]] * k;
        out[4 * x + 2] = lin[p[2]] * k;
        out[4 * x + 3] = a;
    }
}

void magpie__box_row_linear(const uint8_t *row, float *acc, uint32_t w, uint32_t box, uint32_t bw) {
    const float *lin = magpie__linear_table();
    for (uint32_t bx = 0, x = 0; bx < bw; bx++) {
        uint32_t end = x + box < w ? x + box : w;
        float r = 0, g = 0, b = 0, a = 0;
        for (; x < end; x++) {
            const uint8_t *p = row + (size_t)x * 4;
            float al = p[3];
            r += lin[p[0]] * al;
            g += lin[p[1]] * al;
            b += lin[p[2]] * al;
            a += al;
        }
        float *sum = acc + (size_t)bx * 4;
        sum[0] += r;
        sum[1] += g;
        sum[2] += b;
        sum[3] += a;
    }
}
