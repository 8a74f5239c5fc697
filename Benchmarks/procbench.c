/* Pixel processors on a 2048 × 1536 RGBA image in memory: libmagpie's C API against libvips
 * (one thread per operation, operation cache off), each producing a new image in memory.
 *   procbench SIDE OP N [THREADS]   runs OP N times on each of THREADS threads (1), timed inside
 *                                   the process; prints operations per second
 * SIDE: magpie or vips. OP: blur (sigma 5), sharpen (sigma 1), rot90, rot180, flip (horizontal),
 * composite (a 512 × 384 half-transparent overlay at 60% opacity). The input is opaque,
 * photo-like (gradients, edges, noise). Built with -DHAVE_VIPS and libvips's flags. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchutil.h"
#include "magpie.h"

#ifdef HAVE_VIPS
#include <vips/vips.h>
#endif

enum { W = 2048, H = 1536, OW = 512, OH = 384 };
static uint8_t *image, *overlay;

static uint8_t *make(uint32_t w, uint32_t h, int alpha) {
    uint8_t *p = malloc((size_t)w * h * 4);
    uint32_t s = 1;
    for (size_t i = 0; i < (size_t)w * h; i++) {
        s = s * 1103515245u + 12345u;
        uint32_t x = (uint32_t)(i % w), y = (uint32_t)(i / w);
        p[i * 4] = (uint8_t)(x * 255 / w);
        p[i * 4 + 1] = (uint8_t)(((x / 37 + y / 29) & 1) ? 180 + (s >> 28) : 60 + (s >> 28));
        p[i * 4 + 2] = (uint8_t)(y * 255 / h / 2 + ((s >> 20) & 63));
        p[i * 4 + 3] = alpha ? (uint8_t)(x * 255 / w) : 255;
    }
    return p;
}

static int magpie_op(const char *op) {
    size_t bytes = (size_t)W * H * 4;
    uint8_t *out = malloc(bytes);
    magpie_pixels src = {image, W, H, (size_t)W * 4}, dst = {out, W, H, (size_t)W * 4};
    int rc = MAGPIE_EINVAL;
    if (!strcmp(op, "blur")) rc = magpie_blur(&src, &dst, 5.0);
    if (!strcmp(op, "sharpen")) {
        magpie_sharpen_options o;
        magpie_sharpen_options_init(&o);
        o.sigma = 1.0;
        rc = magpie_sharpen(&src, &dst, &o);
    }
    if (!strcmp(op, "rot90")) {
        dst.width = H, dst.height = W, dst.stride = (size_t)H * 4;
        rc = magpie_transform(&src, &dst, 6);
    }
    if (!strcmp(op, "rot180")) rc = magpie_transform(&src, &dst, 3);
    if (!strcmp(op, "flip")) rc = magpie_transform(&src, &dst, 2);
    if (!strcmp(op, "composite")) {
        memcpy(out, image, bytes);
        magpie_pixels o = {overlay, OW, OH, (size_t)OW * 4};
        rc = magpie_composite(&dst, &o, 700, 500, 0.6);
    }
    free(out);
    return rc;
}

#ifdef HAVE_VIPS
static int vips_op(const char *op) {
    VipsImage *in = vips_image_new_from_memory(image, (size_t)W * H * 4, W, H, 4, VIPS_FORMAT_UCHAR), *out = NULL;
    if (!in) return 1;
    in->Type = VIPS_INTERPRETATION_sRGB;
    int rc = 1;
    if (!strcmp(op, "blur")) rc = vips_gaussblur(in, &out, 5.0, NULL);
    if (!strcmp(op, "sharpen")) rc = vips_sharpen(in, &out, "sigma", 1.0, NULL);
    if (!strcmp(op, "rot90")) rc = vips_rot(in, &out, VIPS_ANGLE_D90, NULL);
    if (!strcmp(op, "rot180")) rc = vips_rot(in, &out, VIPS_ANGLE_D180, NULL);
    if (!strcmp(op, "flip")) rc = vips_flip(in, &out, VIPS_DIRECTION_HORIZONTAL, NULL);
    if (!strcmp(op, "composite")) {
        VipsImage *ov = vips_image_new_from_memory(overlay, (size_t)OW * OH * 4, OW, OH, 4, VIPS_FORMAT_UCHAR), *faded = NULL;
        double k[4] = {1, 1, 1, 0.6}, z[4] = {0, 0, 0, 0};
        ov->Type = VIPS_INTERPRETATION_sRGB;
        rc = vips_linear(ov, &faded, k, z, 4, "uchar", TRUE, NULL) ||
             vips_composite2(in, faded, &out, VIPS_BLEND_MODE_OVER, "x", 700, "y", 500, NULL);
        if (faded) g_object_unref(faded);
        g_object_unref(ov);
    }
    size_t n = 0;
    void *mem = rc ? NULL : vips_image_write_to_memory(out, &n);
    if (!mem) rc = 1;
    g_free(mem);
    if (out) g_object_unref(out);
    g_object_unref(in);
    return rc;
}
#endif

struct job {
    int (*f)(const char *);
    const char *op;
    int n;
    volatile int failed;
};

static void *work(void *arg) {
    struct job *j = arg;
    for (int i = 0; i < j->n; i++)
        if (j->f(j->op)) j->failed = 1;
    return NULL;
}

int main(int argc, char **argv) {
#ifdef HAVE_VIPS
    if (start_vips(argv[0])) return 2;
#endif
    if (argc < 4) {
        fprintf(stderr, "usage: procbench magpie|vips OP N [THREADS]\n");
        return 2;
    }
    image = make(W, H, 0);
    overlay = make(OW, OH, 1);
    struct job j = {NULL, argv[2], atoi(argv[3]), 0};
    if (!strcmp(argv[1], "magpie")) j.f = magpie_op;
#ifdef HAVE_VIPS
    if (!strcmp(argv[1], "vips")) j.f = vips_op;
#endif
    int threads = argc > 4 ? atoi(argv[4]) : 1;
    if (!j.f || j.n < 1 || threads < 1 || threads > 64) return 2;
    if (j.f(j.op)) return 1; /* warm up, and check the operation exists */
    pthread_t t[64];
    double t0 = now();
    for (int i = 0; i < threads; i++)
        if (pthread_create(&t[i], NULL, work, &j)) return 1;
    for (int i = 0; i < threads; i++) pthread_join(t[i], NULL);
    if (j.failed) return 1;
    printf("%.2f\n", (double)j.n * threads / (now() - t0));
    return 0;
}
