/* The processors against references computed here, in double precision and by other methods:
 * blur and sharpen (PSNR), rotations and flips (exact), corner coverage (numerical integration),
 * colour, padding, flattening and compositing; and bad parameters. */
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "magpie.h"
#include "testutil.h"

/* A photo-like test image: gradients, edges and noise; with `alpha`, a ramp with a hole. */
static uint8_t *picture(uint32_t w, uint32_t h, int alpha) {
    uint8_t *p = malloc((size_t)w * h * 4);
    uint32_t s = 12345;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint8_t *q = p + ((size_t)y * w + x) * 4;
            s = s * 1103515245u + 12345u;
            q[0] = (uint8_t)((x * 255) / w);
            q[1] = (uint8_t)(((x / 7 + y / 5) & 1) ? 200 : 40);
            q[2] = (uint8_t)((s >> 16) & 0xFF);
            q[3] = alpha ? (uint8_t)((x + y) % 9 == 0 ? 0 : (y * 255) / h) : 255;
        }
    return p;
}

static magpie_pixels px(uint8_t *p, uint32_t w, uint32_t h) { return (magpie_pixels){p, w, h, (size_t)w * 4}; }

/* PSNR over the colour of visible pixels and over alpha. */
static double psnr(const uint8_t *a, const uint8_t *b, size_t n) {
    double se = 0;
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        if ((i % 4) != 3 && a[i | 3] == 0 && b[i | 3] == 0) continue;
        double d = (double)a[i] - b[i];
        se += d * d;
        count++;
    }
    return se == 0 ? 99.0 : 10 * log10(255.0 * 255.0 / (se / count));
}

/* The Gaussian as the header defines it, in double: radius ceil(3 sigma), edges repeated,
 * premultiplied. Writes the premultiplied result (floats, 0–255 and alpha 0–255) to `out`. */
static void gauss_reference(const double *in, uint32_t w, uint32_t h, int c, double sigma, double *out) {
    int r = (int)ceil(3 * sigma);
    r = r ? r : 1;
    double *k = malloc(sizeof(double) * (2 * r + 1)), total = 0;
    for (int i = -r; i <= r; i++) total += k[i + r] = exp(-(double)i * i / (2 * sigma * sigma));
    double *mid = malloc(sizeof(double) * w * h * c);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++)
            for (int ch = 0; ch < c; ch++) {
                double s = 0;
                for (int i = -r; i <= r; i++) {
                    int64_t xx = (int64_t)x + i;
                    xx = xx < 0 ? 0 : xx >= w ? w - 1 : xx;
                    s += k[i + r] * in[((size_t)y * w + xx) * c + ch];
                }
                mid[((size_t)y * w + x) * c + ch] = s / total;
            }
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++)
            for (int ch = 0; ch < c; ch++) {
                double s = 0;
                for (int i = -r; i <= r; i++) {
                    int64_t yy = (int64_t)y + i;
                    yy = yy < 0 ? 0 : yy >= h ? h - 1 : yy;
                    s += k[i + r] * mid[((size_t)yy * w + x) * c + ch];
                }
                out[((size_t)y * w + x) * c + ch] = s / total;
            }
    free(k);
    free(mid);
}

static uint8_t to8(double v) { return (uint8_t)(v <= 0 ? 0 : v >= 255 ? 255 : v + 0.5); }

static void blur_reference(const uint8_t *src, uint32_t w, uint32_t h, double sigma, uint8_t *dst) {
    size_t n = (size_t)w * h;
    double *in = malloc(sizeof(double) * n * 4), *out = malloc(sizeof(double) * n * 4);
    for (size_t i = 0; i < n; i++) {
        for (int ch = 0; ch < 3; ch++) in[i * 4 + ch] = src[i * 4 + ch] * (src[i * 4 + 3] / 255.0);
        in[i * 4 + 3] = src[i * 4 + 3];
    }
    gauss_reference(in, w, h, 4, sigma, out);
    for (size_t i = 0; i < n; i++) {
        double a = out[i * 4 + 3];
        for (int ch = 0; ch < 3; ch++) dst[i * 4 + ch] = to8(a >= 0.5 ? out[i * 4 + ch] * 255.0 / a : 0);
        dst[i * 4 + 3] = to8(a);
        if (dst[i * 4 + 3] == 0) memset(dst + i * 4, 0, 4);
    }
    free(in);
    free(out);
}

static void test_blur(void) {
    const uint32_t w = 97, h = 61; /* odd sizes: every SIMD loop has a tail */
    const double sigmas[] = {0.2, 0.4, 1.0, 2.5, 5.0, 12.0};
    for (int alpha = 0; alpha <= 1; alpha++)
        for (size_t s = 0; s < sizeof sigmas / sizeof *sigmas; s++) {
            uint8_t *src = picture(w, h, alpha), *got = malloc((size_t)w * h * 4), *want = malloc((size_t)w * h * 4);
            magpie_pixels a = px(src, w, h), b = px(got, w, h);
            CHECK(magpie_blur(&a, &b, sigmas[s]) == MAGPIE_OK, "blur sigma %g", sigmas[s]);
            blur_reference(src, w, h, sigmas[s], want);
            double db = psnr(got, want, (size_t)w * h * 4);
            CHECK(db >= 45.0, "blur sigma %g alpha %d: PSNR %.1f dB", sigmas[s], alpha, db);
            free(src);
            free(got);
            free(want);
        }
    /* Identity, a transparent pixel lending no colour, edge cases. */
    uint8_t *src = picture(40, 30, 1), *got = malloc(40 * 30 * 4);
    magpie_pixels a = px(src, 40, 30), b = px(got, 40, 30);
    CHECK(magpie_blur(&a, &b, 0.0) == MAGPIE_OK && !memcmp(src, got, 40 * 30 * 4), "sigma 0 copies");
    uint8_t two[8] = {255, 0, 0, 255, 0, 255, 0, 0}, out2[8];
    magpie_pixels t = px(two, 2, 1), t2 = px(out2, 2, 1);
    CHECK(magpie_blur(&t, &t2, 3.0) == MAGPIE_OK && out2[1] == 0 && out2[5] == 0 && out2[0] == 255 && out2[4] == 255,
          "transparent green lends no colour: %u %u %u / %u %u %u", out2[0], out2[1], out2[2], out2[4], out2[5], out2[6]);
    uint8_t one[4] = {10, 20, 30, 40}, o1[4];
    magpie_pixels p1 = px(one, 1, 1), q1 = px(o1, 1, 1);
    CHECK(magpie_blur(&p1, &q1, 50.0) == MAGPIE_OK && !memcmp(one, o1, 4), "a 1x1 image keeps its pixel");
    /* A sigma so small that 2 sigma^2 underflows (found by fuzz_process: 0 / 0 gave NaN pixels). */
    CHECK(magpie_blur(&a, &b, 1e-320) == MAGPIE_OK && !memcmp(src, got, 40 * 30 * 4), "a denormal sigma copies");
    const double bad[] = {-1.0, NAN, INFINITY, MAGPIE_MAX_SIGMA * 2, 1e300};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        CHECK(magpie_blur(&a, &b, bad[i]) == MAGPIE_EINVAL, "sigma %g refused", bad[i]);
    CHECK(magpie_blur(&a, &a, 1.0) == MAGPIE_EINVAL, "in place is refused");
    magpie_pixels zero = px(got, 0, 30), small = px(got, 20, 30);
    CHECK(magpie_blur(&a, &zero, 1.0) == MAGPIE_EINVAL, "zero width");
    CHECK(magpie_blur(&a, &small, 1.0) == MAGPIE_EINVAL, "size mismatch");
    CHECK(magpie_blur(NULL, &b, 1.0) == MAGPIE_EINVAL, "NULL");
    free(src);
    free(got);
}

static void sharpen_reference(const uint8_t *src, uint32_t w, uint32_t h, const magpie_sharpen_options *o,
                              uint8_t *dst) {
    size_t n = (size_t)w * h;
    double *in = malloc(sizeof(double) * n * 2), *mean = malloc(sizeof(double) * n * 2);
    for (size_t i = 0; i < n; i++) {
        const uint8_t *p = src + i * 4;
        double y = 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2];
        in[i * 2] = y * p[3];
        in[i * 2 + 1] = p[3];
    }
    gauss_reference(in, w, h, 2, o->sigma, mean);
    for (size_t i = 0; i < n; i++) {
        const uint8_t *p = src + i * 4;
        double y = 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2];
        double m = mean[i * 2 + 1] > 1e-3 ? mean[i * 2] / mean[i * 2 + 1] : y, d = y - m, e = 0;
        if (fabs(d) > o->threshold) e = o->amount * (fabs(d) - o->threshold) * (d > 0 ? 1 : -1);
        e = fmin(o->max_brighten, fmax(-o->max_darken, e));
        for (int ch = 0; ch < 3; ch++) dst[i * 4 + ch] = to8(p[ch] + e);
        dst[i * 4 + 3] = p[3];
    }
    free(in);
    free(mean);
}

static void test_sharpen(void) {
    const uint32_t w = 83, h = 57;
    magpie_sharpen_options cases[3];
    for (int i = 0; i < 3; i++) magpie_sharpen_options_init(&cases[i]);
    cases[1].sigma = 0.5, cases[1].amount = 3, cases[1].threshold = 5, cases[1].max_brighten = 25, cases[1].max_darken = 51;
    cases[2].sigma = 3, cases[2].amount = 0.7, cases[2].threshold = 2;
    for (int alpha = 0; alpha <= 1; alpha++)
        for (int c = 0; c < 3; c++) {
            uint8_t *src = picture(w, h, alpha), *got = malloc((size_t)w * h * 4), *want = malloc((size_t)w * h * 4);
            magpie_pixels a = px(src, w, h), b = px(got, w, h);
            CHECK(magpie_sharpen(&a, &b, &cases[c]) == MAGPIE_OK, "sharpen case %d", c);
            sharpen_reference(src, w, h, &cases[c], want);
            double db = psnr(got, want, (size_t)w * h * 4);
            CHECK(db >= 45.0, "sharpen case %d alpha %d: PSNR %.1f dB", c, alpha, db);
            if (c == 0) {
                magpie_sharpen_options none = cases[0];
                none.amount = 0;
                CHECK(magpie_sharpen(&a, &b, &none) == MAGPIE_OK && !memcmp(src, got, (size_t)w * h * 4),
                      "amount 0 copies");
                none.amount = NAN;
                CHECK(magpie_sharpen(&a, &b, &none) == MAGPIE_EINVAL, "amount NaN refused");
                none.amount = 1, none.threshold = -1;
                CHECK(magpie_sharpen(&a, &b, &none) == MAGPIE_EINVAL, "negative threshold refused");
                none.threshold = 0, none.sigma = 1e9;
                CHECK(magpie_sharpen(&a, &b, &none) == MAGPIE_EINVAL, "huge sigma refused");
            }
            free(src);
            free(got);
            free(want);
        }
}

/* Where (x, y) of a w × h image lands under orientation o, written from the EXIF definitions. */
static void place(int o, uint32_t w, uint32_t h, uint32_t x, uint32_t y, uint32_t *dx, uint32_t *dy) {
    uint32_t tx = x, ty = y;
    if (o >= 5) tx = y, ty = x;                                       /* transpose first: */
    uint32_t tw = o >= 5 ? h : w, th = o >= 5 ? w : h;                /* 5 = T, 6 = H·T, 7 = H·V·T, 8 = V·T */
    int mirror_x = o == 2 || o == 3 || o == 6 || o == 7, mirror_y = o == 3 || o == 4 || o == 7 || o == 8;
    *dx = mirror_x ? tw - 1 - tx : tx;
    *dy = mirror_y ? th - 1 - ty : ty;
}

static void test_transform(void) {
    const uint32_t sizes[][2] = {{1, 1}, {3, 7}, {64, 64}, {67, 130}, {130, 5}};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        uint32_t w = sizes[s][0], h = sizes[s][1];
        uint8_t *src = picture(w, h, 1), *got = malloc((size_t)w * h * 4), *back = malloc((size_t)w * h * 4);
        for (uint32_t o = 1; o <= 8; o++) {
            uint32_t ow = o >= 5 ? h : w, oh = o >= 5 ? w : h;
            magpie_pixels a = px(src, w, h), b = px(got, ow, oh);
            CHECK(magpie_transform(&a, &b, o) == MAGPIE_OK, "transform %u", o);
            int exact = 1;
            for (uint32_t y = 0; y < h && exact; y++)
                for (uint32_t x = 0; x < w && exact; x++) {
                    uint32_t dx, dy;
                    place((int)o, w, h, x, y, &dx, &dy);
                    exact = !memcmp(got + ((size_t)dy * ow + dx) * 4, src + ((size_t)y * w + x) * 4, 4);
                }
            CHECK(exact, "orientation %u of %ux%u moves every pixel where EXIF says", o, w, h);
            /* Composition: o then p equals compose(o, p) at once. */
            for (uint32_t p = 1; p <= 8; p++) {
                uint32_t pw = p >= 5 ? oh : ow, ph = p >= 5 ? ow : oh;
                uint8_t *twice = malloc((size_t)w * h * 4);
                magpie_pixels c = px(twice, pw, ph), d = px(back, pw, ph);
                magpie_transform(&b, &c, p);
                magpie_transform(&a, &d, magpie_orientation_compose(o, p));
                CHECK(!memcmp(twice, back, (size_t)w * h * 4), "%u then %u is %u", o, p, magpie_orientation_compose(o, p));
                free(twice);
            }
        }
        magpie_pixels a = px(src, w, h), wrong = px(got, w + 1, h);
        CHECK(magpie_transform(&a, &wrong, 1) == MAGPIE_EINVAL, "wrong size");
        CHECK(magpie_transform(&a, &a, 3) == MAGPIE_EINVAL, "in place");
        CHECK(magpie_transform(&a, &wrong, 9) == MAGPIE_EINVAL && magpie_transform(&a, &wrong, 0) == MAGPIE_EINVAL,
              "orientation out of range");
        free(src);
        free(got);
        free(back);
    }
    CHECK(magpie_orientation_compose(6, 6) == 3 && magpie_orientation_compose(6, 8) == 1 &&
              magpie_orientation_compose(2, 2) == 1 && magpie_orientation_compose(99, 6) == 6,
          "compose table");
}

#include "test_process_more.inc"
#include "test_process_corpus.inc"

int main(int argc, char **argv) {
    test_blur();
    test_sharpen();
    test_transform();
    test_corners();
    test_color();
    test_compose();
    test_fixture_chain();
    test_corpus_chain(argc > 1 ? argv[1] : NULL);
    test_corpus_chain(argc > 2 ? argv[2] : NULL);
    return tu_finish("process");
}
