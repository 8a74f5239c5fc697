/* magpie_resample: the options-struct form of resizing (window, filter, pixel limit, detail). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "magpie.h"
#include "testutil.h"

/* Lanczos3 in double precision on premultiplied pixels, no pre-shrink: what the resampler
 * approximates (its passes run in float, vectorised or not, and shrink by boxes first when the
 * scale is 4 or more). */
static double lanczos3(double x) {
    x = fabs(x);
    if (x >= 3.0) return 0.0;
    if (x < 1e-12) return 1.0;
    double a = M_PI * x, b = a / 3.0;
    return sin(a) / a * (sin(b) / b);
}

static void reference(const uint8_t *src, uint32_t w, uint32_t h, uint8_t *dst, uint32_t ow, uint32_t oh) {
    double sx = (double)w / ow, sy = (double)h / oh;
    double *mid = calloc((size_t)ow * h * 4, sizeof *mid);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < ow; x++) {
            double c = (x + 0.5) * sx, sum = 0, acc[4] = {0};
            for (int64_t j = (int64_t)floor(c - 3 * sx); j <= (int64_t)ceil(c + 3 * sx); j++) {
                if (j < 0 || j >= (int64_t)w) continue;
                double k = lanczos3((j + 0.5 - c) / sx);
                const uint8_t *p = src + ((size_t)y * w + (size_t)j) * 4;
                for (int ch = 0; ch < 3; ch++) acc[ch] += k * p[ch] * p[3] / 255.0;
                acc[3] += k * p[3];
                sum += k;
            }
            for (int ch = 0; ch < 4; ch++) mid[((size_t)y * ow + x) * 4 + ch] = acc[ch] / sum;
        }
    for (uint32_t y = 0; y < oh; y++)
        for (uint32_t x = 0; x < ow; x++) {
            double c = (y + 0.5) * sy, sum = 0, acc[4] = {0};
            for (int64_t j = (int64_t)floor(c - 3 * sy); j <= (int64_t)ceil(c + 3 * sy); j++) {
                if (j < 0 || j >= (int64_t)h) continue;
                double k = lanczos3((j + 0.5 - c) / sy);
                for (int ch = 0; ch < 4; ch++) acc[ch] += k * mid[((size_t)j * ow + x) * 4 + ch];
                sum += k;
            }
            double a = acc[3] / sum;
            uint8_t *o = dst + ((size_t)y * ow + x) * 4;
            for (int ch = 0; ch < 3; ch++) {
                double v = a > 0 ? acc[ch] / sum * 255.0 / (a > 255 ? 255 : a) : 0;
                o[ch] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v + 0.5);
            }
            o[3] = (uint8_t)(a < 0 ? 0 : a > 255 ? 255 : a + 0.5);
        }
    free(mid);
}

static double psnr(const uint8_t *a, const uint8_t *b, size_t n) {
    double se = 0;
    for (size_t i = 0; i < n; i++) se += ((double)a[i] - b[i]) * ((double)a[i] - b[i]);
    return se == 0 ? 99.0 : 10.0 * log10(255.0 * 255.0 / (se / n));
}

/* An RGBA8 image as a JPEG at `quality` (checked), for the tests that thumbnail real JPEG rows. */
/* Decodes `data` fitted to `w` × `h` with `fit` and decode flags. */
static int decode_fit(const uint8_t *data, size_t n, magpie_fit fit, uint32_t w, uint32_t h, uint32_t flags,
                      magpie_image **out) {
    magpie_decode_options o;
    magpie_decode_options_init(&o);
    o.fit = fit;
    o.width = w;
    o.height = h;
    o.flags = flags;
    return magpie_decode(data, n, &o, out);
}

static uint8_t *encode_jpeg(const uint8_t *src, uint32_t w, uint32_t h, int quality, size_t *size) {
    magpie_encode_options e;
    magpie_encode_options_init(&e);
    e.format = MAGPIE_FORMAT_JPEG;
    e.quality = quality;
    uint8_t *jpeg = NULL;
    CHECK(magpie_encode(src, w, h, (size_t)w * 4, &e, &jpeg, size) == MAGPIE_OK, "encode");
    return jpeg;
}

/* Against the double-precision reference, on a photo-like pattern with soft alpha (at 3.1×, a
 * straight filter; at 12×, after a box pre-shrink); and a transparent region's colour never
 * bleeds into its opaque neighbours. */
static void accuracy(uint32_t W, uint32_t H, uint32_t OW, uint32_t OH, double floor_db) {
    uint8_t *src = malloc(W * H * 4), *out = malloc(OW * OH * 4), *ref = malloc(OW * OH * 4);
    uint32_t seed = 7;
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            uint8_t *p = src + ((size_t)y * W + x) * 4;
            seed = seed * 1664525u + 1013904223u;
            p[0] = (uint8_t)(128 + 100 * sin(x * 0.07) + (seed >> 28));
            p[1] = (uint8_t)(128 + 100 * cos(y * 0.05 + x * 0.01));
            p[2] = (uint8_t)((x * 3 + y * 5) & 255);
            p[3] = (uint8_t)(x < W / 2 ? 255 : 255 - (x - W / 2) * 150 / W);
        }
    CHECK(tu_resize(src, W, H, W * 4, NULL, OW, OH, MAGPIE_FILTER_LANCZOS3, out, OW * 4) == MAGPIE_OK, "resize");
    reference(src, W, H, ref, OW, OH);
    double db = psnr(out, ref, (size_t)OW * OH * 4);
    CHECK(db > floor_db, "%ux%u to %ux%u: %.1f dB from exact Lanczos3", W, H, OW, OH, db);
    if (getenv("MAGPIE_TEST_VERBOSE")) printf("resample %ux%u: %.2f dB against exact Lanczos3\n", W, H, db);

    /* Opaque red beside fully transparent green: no green may reach a visible pixel. */
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            uint8_t *p = src + ((size_t)y * W + x) * 4;
            int left = x < W / 2;
            p[0] = left ? 255 : 0;
            p[1] = left ? 0 : 255;
            p[2] = 0;
            p[3] = left ? 255 : 0;
        }
    CHECK(tu_resize(src, W, H, W * 4, NULL, OW, OH, MAGPIE_FILTER_LANCZOS3, out, OW * 4) == MAGPIE_OK, "edge");
    int clean = 1;
    for (size_t i = 0; i < (size_t)OW * OH; i++)
        if (out[i * 4 + 3] > 0 && out[i * 4 + 1] > 0) clean = 0;
    CHECK(clean, "no colour from transparent pixels at the alpha edge");
    free(src);
    free(out);
    free(ref);
}

/* MAGPIE_DECODE_FAST: shrink-on-load down to the target (not twice it) costs some fidelity
 * against resizing the full decode, and still makes the same size. MAGPIE_DECODE_NO_SHRINK (imgproxy's
 * DISABLE_SHRINK_ON_LOAD): no shrink at all, so the thumbnail is the full decode resized (within the
 * fixed-point pass's level), nearer to it than the default; it wins over FAST. */
static void fast_mode(void) {
    enum { W = 1600, H = 1200, OW = 180, OH = 135 }; /* 1/8 is more than 180: fast takes it */
    uint8_t *src = malloc((size_t)W * H * 4);
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            uint8_t *p = src + ((size_t)y * W + x) * 4;
            p[0] = (uint8_t)(128 + 120 * sin(x * 0.031) * cos(y * 0.017));
            p[1] = (uint8_t)((x ^ y) & 255);
            p[2] = (uint8_t)(128 + 120 * sin((x + y) * 0.011));
            p[3] = 255;
        }
    size_t size = 0;
    uint8_t *jpeg = encode_jpeg(src, W, H, 92, &size);
    magpie_image *full = NULL, *normal = NULL, *fast = NULL;
    CHECK(magpie_decode(jpeg, size, NULL, &full) == MAGPIE_OK, "full decode");
    uint8_t *exact = malloc((size_t)OW * OH * 4);
    CHECK(tu_resize(full->pixels, W, H, full->stride, NULL, OW, OH, MAGPIE_FILTER_LANCZOS3, exact, OW * 4) ==
              MAGPIE_OK,
          "exact");
    CHECK(decode_fit(jpeg, size, MAGPIE_FIT_INSIDE, OW, OH, 0, &normal) == MAGPIE_OK, "default thumbnail");
    CHECK(decode_fit(jpeg, size, MAGPIE_FIT_INSIDE, OW, OH, MAGPIE_DECODE_FAST, &fast) == MAGPIE_OK, "fast thumbnail");
    CHECK(normal->width == OW && fast->width == OW && fast->height == OH, "same size: %ux%u", fast->width,
          fast->height);
    double dn = psnr(normal->pixels, exact, (size_t)OW * OH * 4), df = psnr(fast->pixels, exact, (size_t)OW * OH * 4);
    CHECK(dn > df && df > 25.0 && dn > 35.0, "default %.1f dB, fast %.1f dB from resizing the full decode", dn, df);
    magpie_image *whole = NULL, *whole_fast = NULL;
    CHECK(decode_fit(jpeg, size, MAGPIE_FIT_INSIDE, OW, OH, MAGPIE_DECODE_NO_SHRINK, &whole) == MAGPIE_OK &&
              decode_fit(jpeg, size, MAGPIE_FIT_INSIDE, OW, OH, MAGPIE_DECODE_NO_SHRINK | MAGPIE_DECODE_FAST,
                         &whole_fast) == MAGPIE_OK,
          "no-shrink thumbnails");
    double dw = whole ? psnr(whole->pixels, exact, (size_t)OW * OH * 4) : 0;
    CHECK(whole && whole->width == OW && dw > dn && dw > 45.0, "no shrink %.1f dB, default %.1f dB", dw, dn);
    CHECK(whole && whole_fast && !memcmp(whole->pixels, whole_fast->pixels, (size_t)OW * OH * 4),
          "no shrink wins over fast");
    if (getenv("MAGPIE_TEST_VERBOSE")) printf("fast mode: %.2f dB, default %.2f dB, no shrink %.2f dB\n", df, dn, dw);
    magpie_image_free(whole);
    magpie_image_free(whole_fast);
    magpie_image_free(full);
    magpie_image_free(normal);
    magpie_image_free(fast);
    magpie_free(jpeg);
    free(exact);
    free(src);
}

/* A JPEG's rows are opaque: with AVX2 they are filtered horizontally in 16-bit fixed point straight
 * from the decoder (resize_fixed.c). At a scale with no shrink-on-load and no box pre-shrink, the
 * thumbnail is within one level of the float pass over the same decoded pixels, and above 70 dB
 * against the exact Lanczos3; the last outputs' taps reach the row's end. */
static void opaque_rows(uint32_t W, uint32_t H, uint32_t OW, uint32_t OH) {
    uint8_t *src = malloc((size_t)W * H * 4);
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            uint8_t *p = src + ((size_t)y * W + x) * 4;
            p[0] = (uint8_t)(128 + 120 * sin(x * 0.13) * cos(y * 0.07));
            p[1] = (uint8_t)((x * 7 ^ y * 3) & 255);
            p[2] = (uint8_t)(x < W / 3 ? 250 : 5);
            p[3] = 255;
        }
    size_t size = 0;
    uint8_t *jpeg = encode_jpeg(src, W, H, 95, &size);
    magpie_image *full = NULL, *thumb = NULL;
    CHECK(magpie_decode(jpeg, size, NULL, &full) == MAGPIE_OK, "full decode");
    CHECK(decode_fit(jpeg, size, MAGPIE_FIT_FILL, OW, OH, 0, &thumb) == MAGPIE_OK, "thumbnail");
    CHECK(thumb->width == OW && thumb->height == OH, "size %ux%u", thumb->width, thumb->height);
    uint8_t *flt = malloc((size_t)OW * OH * 4), *ref = malloc((size_t)OW * OH * 4);
    CHECK(tu_resize(full->pixels, W, H, full->stride, NULL, OW, OH, MAGPIE_FILTER_LANCZOS3, flt, OW * 4) == MAGPIE_OK,
          "float pass");
    reference(full->pixels, W, H, ref, OW, OH);
    int worst = 0;
    for (uint32_t y = 0; y < OH; y++)
        for (uint32_t i = 0; i < OW * 4; i++) {
            int d = abs((int)thumb->pixels[(size_t)y * thumb->stride + i] - (int)flt[(size_t)y * OW * 4 + i]);
            if (d > worst) worst = d;
        }
    CHECK(worst <= 1, "%ux%u to %ux%u: %d levels from the float pass", W, H, OW, OH, worst);
    uint8_t *packed = malloc((size_t)OW * OH * 4);
    for (uint32_t y = 0; y < OH; y++)
        memcpy(packed + (size_t)y * OW * 4, thumb->pixels + (size_t)y * thumb->stride, (size_t)OW * 4);
    double dt = psnr(packed, ref, (size_t)OW * OH * 4), df = psnr(flt, ref, (size_t)OW * OH * 4);
    /* A sum near a half level may round the other way: ~78 dB where the float pass has ~98. */
    CHECK(dt > 70.0, "%.2f dB against exact Lanczos3, the float pass %.2f dB", dt, df);
    if (getenv("MAGPIE_TEST_VERBOSE")) printf("opaque rows %ux%u: %.2f dB, float pass %.2f dB\n", W, H, dt, df);
    magpie_image_free(full);
    magpie_image_free(thumb);
    magpie_free(jpeg);
    free(packed);
    free(flt);
    free(ref);
    free(src);
}

/* The resampler keeps only the horizontally filtered rows an output row still needs, not all of
 * them: a tall PNG (no shrink-on-load) thumbnailed within a memory limit well under the
 * 64 x 6000 rows of floats the pass used to keep (6 MB), row for row the same pixels as the full
 * decode resampled, straight and turned a quarter while rows are written. */
static void tall_image_memory(void) {
    const uint32_t w = 512, h = 24000;
    uint8_t *src = tu_gradient(w, h);
    for (uint32_t y = 0; y < h; y += 7) src[((size_t)y * w + y % w) * 4] = (uint8_t)(y * 31); /* not separable */
    magpie_encode_options eo;
    magpie_encode_options_init(&eo);
    eo.compression_level = 1;
    uint8_t *png = NULL;
    size_t n = 0;
    CHECK(magpie_encode(src, w, h, (size_t)w * 4, &eo, &png, &n) == MAGPIE_OK, "encode the tall PNG");
    for (uint32_t turn = 1; png && turn <= 6; turn += 5) {
        magpie_decode_options o;
        magpie_decode_options_init(&o);
        o.fit = MAGPIE_FIT_INSIDE;
        o.width = o.height = 3000;
        o.flags = MAGPIE_DECODE_TRANSFORM(turn);
        o.limits.max_bytes = 2u << 20; /* output 768 KB, rows of the PNG, a few filtered rows */
        magpie_image *img = NULL;
        int rc = magpie_decode(png, n, &o, &img);
        CHECK(rc == MAGPIE_OK && img, "thumbnail within 2 MB (turn %u): %s", turn, magpie_strerror(rc));
        uint32_t ow = turn == 1 ? 64 : 3000, oh = turn == 1 ? 3000 : 64;
        if (!img || img->width != ow || img->height != oh) {
            CHECK(0, "size %ux%u", img ? img->width : 0, img ? img->height : 0);
            magpie_image_free(img);
            continue;
        }
        uint8_t *exact = malloc((size_t)64 * 3000 * 4), *turned = malloc((size_t)64 * 3000 * 4);
        CHECK(tu_resize(src, w, h, (size_t)w * 4, NULL, 64, 3000, MAGPIE_FILTER_LANCZOS3, exact, 64 * 4) == MAGPIE_OK,
              "resample the full image");
        magpie_pixels a = {exact, 64, 3000, 64 * 4}, b = {turned, ow, oh, (size_t)ow * 4};
        CHECK(magpie_transform(&a, &b, turn) == MAGPIE_OK, "turn");
        int same = 1;
        for (uint32_t y = 0; y < oh; y++)
            same &= memcmp(img->pixels + (size_t)y * img->stride, turned + (size_t)y * ow * 4, (size_t)ow * 4) == 0;
        CHECK(same, "the decode's thumbnail (turn %u) equals the full image resampled", turn);
        free(exact);
        free(turned);
        magpie_image_free(img);
    }
    magpie_free(png);
    free(src);
}

int main(void) {
    tall_image_memory();
    fast_mode();
    opaque_rows(300, 200, 171, 114);
    opaque_rows(640, 96, 360, 54);
    accuracy(300, 200, 97, 61, 48.0);
    accuracy(1200, 800, 100, 67, 47.5); /* 48.0 dB before the passes were vectorised */
    enum { W = 40, H = 30 };
    static uint8_t src[W * H * 4], out[20 * 15 * 4], old[20 * 15 * 4];
    for (size_t i = 0; i < sizeof src; i++) src[i] = (uint8_t)(i * 13 + i / 160);
    magpie_pixels from = {src, W, H, W * 4}, to = {out, 20, 15, 20 * 4};

    /* Defaults (NULL options) give what the positional form gives. */
    CHECK(magpie_resample(&from, &to, NULL) == MAGPIE_OK, "defaults");
    CHECK(tu_resize(src, W, H, W * 4, NULL, 20, 15, MAGPIE_FILTER_LANCZOS3, old, 20 * 4) == MAGPIE_OK, "old");
    CHECK(memcmp(out, old, sizeof out) == 0, "the positional form is the same resample");

    /* A window the size of the output is an exact crop. */
    magpie_resize_options o;
    magpie_resize_options_init(&o);
    magpie_rect window = {5, 7, 20, 15};
    o.window = &window;
    o.filter = MAGPIE_FILTER_BILINEAR;
    CHECK(magpie_resample(&from, &to, &o) == MAGPIE_OK, "crop");
    int exact = 1;
    for (uint32_t y = 0; y < 15; y++)
        exact &= memcmp(out + y * 20 * 4, src + ((y + 7) * W + 5) * 4, 20 * 4) == 0;
    CHECK(exact, "the window copied exactly");

    /* The pixel limit is the caller's to set, and refusals say why. */
    char why[64] = "";
    magpie_resize_options_init(&o);
    o.max_output_pixels = 299;
    o.error_detail = why;
    o.error_detail_size = sizeof why;
    CHECK(magpie_resample(&from, &to, &o) == MAGPIE_ELIMIT_PIXELS, "300 pixels over a limit of 299");
    CHECK(strstr(why, "pixel limit") != NULL, "detail: %s", why);
    o.max_output_pixels = 300;
    CHECK(magpie_resample(&from, &to, &o) == MAGPIE_OK, "300 pixels within a limit of 300");
    magpie_rect outside = {30, 0, 20, 15};
    o.window = &outside;
    CHECK(magpie_resample(&from, &to, &o) == MAGPIE_EINVAL && strstr(why, "window"), "window outside: %s", why);
    o.window = NULL;
    o.filter = (magpie_filter)9;
    CHECK(magpie_resample(&from, &to, &o) == MAGPIE_EINVAL && strstr(why, "filter"), "filter: %s", why);
    o.filter = MAGPIE_FILTER_LANCZOS3;
    o.struct_size = 8;
    CHECK(magpie_resample(&from, &to, &o) == MAGPIE_EINVAL, "an options struct from the future's past");
    /* Output rows are written while source rows are read: a destination inside the source is
     * refused, not resampled over itself; one just past it is fine. */
    magpie_pixels inside = {src + 4 * W * 4, 20, 15, 20 * 4}, after = {src + sizeof src - 20 * 15 * 4, 20, 15, 20 * 4};
    magpie_pixels head = {src, W, H - 8, W * 4};
    magpie_resize_options_init(&o);
    o.error_detail = why;
    o.error_detail_size = sizeof why;
    CHECK(magpie_resample(&from, &inside, &o) == MAGPIE_EINVAL && strstr(why, "overlap"), "overlap: %s", why);
    CHECK(magpie_resample(&head, &after, &o) == MAGPIE_OK, "the rows after the source's are free to write");
    magpie_pixels empty = {NULL, 20, 15, 80};
    CHECK(magpie_resample(&from, &empty, NULL) == MAGPIE_EINVAL, "no destination");
    return tu_finish("resample");
}
