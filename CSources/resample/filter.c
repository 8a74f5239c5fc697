/* Resampling filters: the kernels (bilinear, Mitchell, Lanczos3) and the per-output weight tables. */
#include <math.h>

#include "internal.h"

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
    default: {
        if (x >= 3.0) return 0.0;
        if (x == 0.0) return 1.0;
        /* sinc(x) sinc(x/3) with one sine: sin(3t) = s (3 - 4 s^2) where s = sin(t), t = pi x / 3. */
        double t = x * (M_PI / 3.0), s = sin(t);
        return s * s * (3.0 - 4.0 * s * s) / (3.0 * t * t);
    }
    }
}

double magpie__support(magpie_filter f) {
    return f == MAGPIE_FILTER_BILINEAR ? 1.0 : f == MAGPIE_FILTER_MITCHELL ? 2.0 : 3.0;
}

uint32_t magpie__taps(magpie_filter f, double win, uint32_t out) {
    double scale = win / out;
    double support = magpie__support(f) * (scale > 1.0 ? scale : 1.0);
    return (uint32_t)ceil(2.0 * support) + 2;
}

void magpie__weights(magpie_filter f, uint32_t in, double off, double win, uint32_t out,
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
}
