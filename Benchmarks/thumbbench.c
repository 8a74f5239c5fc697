/* In-process thumbnails: libmagpie's C API (decode to fit SIZE × SIZE, then a JPEG at quality 85)
 * against libvips (vips_thumbnail_buffer + vips_jpegsave_buffer, one thread, operation cache off),
 * both from the same bytes in memory. Built with -DHAVE_VIPS and libvips's flags for the vips side.
 *   thumbbench magpie|vips FILE N [SIZE]   N thumbnails, nothing else (for callgrind: run n=1 and
 *                                          n=3 and subtract, so start-up cancels)
 *   thumbbench rate SIDE FILE N [SIZE] [THREADS]   N thumbnails on each of THREADS threads (1),
 *                                          timed inside the process: prints thumbnails/s; FILE
 *                                          "@LIST" names a file of paths, each thumbnailed N times
 *   thumbbench write SIDE FILE OUT [SIZE] writes one thumbnail as PNG, before the JPEG step (for PSNR)
 * SIDE: magpie, magpie-fast (MAGPIE_DECODE_FAST), magpie-linear (MAGPIE_DECODE_LINEAR), vips or
 * vips-linear (vips_thumbnail's "linear", as imgproxy's IMGPROXY_USE_LINEAR_COLORSPACE). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchutil.h"
#include "magpie.h"

#ifdef HAVE_VIPS
#include <vips/vips.h>
#endif

static unsigned char *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *data = n > 0 ? malloc((size_t)n) : NULL;
    if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
        free(data);
        data = NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return data;
}

static int fast_mode, linear_mode, png_out;

/* One thumbnail; returns its JPEG (PNG with png_out; caller frees with free()) or NULL. */
static unsigned char *magpie_thumb(const unsigned char *data, size_t size, int box, size_t *out_size) {
    magpie_decode_options o;
    magpie_decode_options_init(&o);
    o.fit = MAGPIE_FIT_INSIDE;
    o.width = o.height = (uint32_t)box;
    o.flags |= MAGPIE_DECODE_ONE_FRAME | (fast_mode ? MAGPIE_DECODE_FAST : 0) | (linear_mode ? MAGPIE_DECODE_LINEAR : 0);
    magpie_image *img = NULL;
    if (magpie_decode(data, size, &o, &img) != MAGPIE_OK) return NULL;
    magpie_encode_options e;
    magpie_encode_options_init(&e);
    e.format = png_out ? MAGPIE_FORMAT_PNG : MAGPIE_FORMAT_JPEG;
    e.quality = 85;
    uint8_t *jpeg = NULL;
    int rc = magpie_encode(img->pixels, img->width, img->height, img->stride, &e, &jpeg, out_size);
    magpie_image_free(img);
    if (rc != MAGPIE_OK) return NULL;
    unsigned char *copy = malloc(*out_size);
    if (copy) memcpy(copy, jpeg, *out_size);
    magpie_free(jpeg);
    return copy;
}

#ifdef HAVE_VIPS
static unsigned char *vips_thumb(const unsigned char *data, size_t size, int box, size_t *out_size) {
    VipsImage *t = NULL;
    if (vips_thumbnail_buffer((void *)data, size, &t, box, "height", box, "linear", linear_mode, NULL)) return NULL;
    void *buf = NULL;
    size_t len = 0;
    int rc = png_out ? vips_pngsave_buffer(t, &buf, &len, "compression", 1, NULL)
                     : vips_jpegsave_buffer(t, &buf, &len, "Q", 85, NULL);
    g_object_unref(t);
    if (rc) return NULL;
    unsigned char *copy = malloc(len);
    if (copy) memcpy(copy, buf, len);
    g_free(buf);
    *out_size = len;
    return copy;
}
#endif

typedef unsigned char *(*thumb_fn)(const unsigned char *, size_t, int, size_t *);

static thumb_fn side(const char *name) {
    if (!strcmp(name, "magpie")) return magpie_thumb;
    if (!strcmp(name, "magpie-fast")) {
        fast_mode = 1;
        return magpie_thumb;
    }
    if (!strcmp(name, "magpie-linear")) {
        linear_mode = 1;
        return magpie_thumb;
    }
#ifdef HAVE_VIPS
    if (!strcmp(name, "vips")) return vips_thumb;
    if (!strcmp(name, "vips-linear")) {
        linear_mode = 1;
        return vips_thumb;
    }
#endif
    return NULL;
}

static int run(thumb_fn f, const unsigned char *data, size_t size, int box, int n) {
    for (int i = 0; i < n; i++) {
        size_t len = 0;
        unsigned char *jpeg = f(data, size, box, &len);
        if (!jpeg) return 1;
        free(jpeg);
    }
    return 0;
}

struct worker {
    thumb_fn f;
    unsigned char *data[64];
    size_t size[64];
    int files, box, n;
    volatile int failed;
};

static void *work(void *arg) {
    struct worker *w = arg;
    for (int i = 0; i < w->files; i++)
        if (run(w->f, w->data[i], w->size[i], w->box, w->n)) w->failed = 1;
    return NULL;
}

/* The inputs of `rate`: FILE, or with "@LIST" the paths LIST holds (one a line, at most 64). */
static int load_inputs(const char *arg, struct worker *w) {
    if (arg[0] != '@') {
        w->data[0] = read_file(arg, &w->size[0]);
        w->files = 1;
        return w->data[0] != NULL;
    }
    FILE *list = fopen(arg + 1, "r");
    char line[4096];
    while (list && w->files < 64 && fgets(line, sizeof line, list)) {
        line[strcspn(line, "\n")] = 0;
        if (!line[0]) continue;
        if (!(w->data[w->files] = read_file(line, &w->size[w->files]))) break;
        w->files++;
    }
    if (list) fclose(list);
    return w->files > 0;
}

int main(int argc, char **argv) {
#ifdef HAVE_VIPS
    if (start_vips(argv[0])) return 2;
#endif
    if (argc < 3) {
        fprintf(stderr, "usage: thumbbench SIDE FILE N [SIZE] | rate SIDE FILE N [SIZE] [THREADS] | write SIDE FILE OUT\n");
        return 2;
    }
    if (!strcmp(argv[1], "rate") && argc >= 5) {
        static struct worker w;
        w.f = side(argv[2]);
        w.box = argc > 5 ? atoi(argv[5]) : 256;
        w.n = atoi(argv[4]);
        int threads = argc > 6 ? atoi(argv[6]) : 1;
        if (!w.f || !load_inputs(argv[3], &w) || w.n < 1 || threads < 1 || threads > 64) return 1;
        pthread_t t[64];
        double t0 = now();
        for (int i = 0; i < threads; i++)
            if (pthread_create(&t[i], NULL, work, &w)) return 1;
        for (int i = 0; i < threads; i++) pthread_join(t[i], NULL);
        if (w.failed) return 1;
        printf("%.2f\n", (double)w.n * w.files * threads / (now() - t0));
        return 0;
    }
    if (!strcmp(argv[1], "write") && argc >= 5) {
        png_out = 1;
        thumb_fn f = side(argv[2]);
        size_t size = 0, len = 0;
        unsigned char *data = read_file(argv[3], &size);
        unsigned char *jpeg = f && data ? f(data, size, argc > 5 ? atoi(argv[5]) : 256, &len) : NULL;
        FILE *out = jpeg ? fopen(argv[4], "wb") : NULL;
        int ok = out && fwrite(jpeg, 1, len, out) == len;
        if (out) fclose(out);
        return ok ? 0 : 1;
    }
    size_t size = 0;
    unsigned char *data = read_file(argv[2], &size);
    if (!data) return 2;
    thumb_fn f = side(argv[1]);
    if (!f || argc < 4) return 2;
    return run(f, data, size, argc > 4 ? atoi(argv[4]) : 256, atoi(argv[3]));
}
