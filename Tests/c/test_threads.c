/* The C core called from many threads at once, as the Swift layers call it: four threads released
 * together decode, thumbnail and encode the same corpus files in different orders, while the
 * process-wide memory budget is charged by all of them and libavif (when loaded on first use),
 * libtiff, libheif, libjxl and librsvg are loaded by whichever decode needs them first. Every result must equal the one a single thread
 * makes afterwards. Run under ThreadSanitizer by scripts/test.sh (MAGPIE_SANITIZE=thread). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "magpie.h"
#include "testutil.h"

#define THREADS 4
#define MAX_FILES 80

typedef struct {
    char path[600];
    uint8_t *data;
    size_t size;
    char md5[THREADS + 1][33]; /* per thread, and the single-threaded reference last */
    int rc[THREADS + 1];
} item;

static item items[MAX_FILES];
static int count;
static pthread_barrier_t start;

/* A 128-pixel thumbnail of the first frame, then its JPEG (or, for a format with alpha, PNG). */
static int work(const item *it, char md5[33]) {
    magpie_decode_options o;
    magpie_decode_options_init(&o);
    o.fit = MAGPIE_FIT_INSIDE;
    o.width = o.height = 128;
    o.flags = MAGPIE_DECODE_ONE_FRAME;
    magpie_image *img = NULL;
    int rc;
    while ((rc = magpie_decode(it->data, it->size, &o, &img)) == MAGPIE_EBUDGET) {
    }
    if (rc) return rc;
    magpie_encode_options e;
    magpie_encode_options_init(&e);
    e.format = it->size % 2 ? MAGPIE_FORMAT_JPEG : MAGPIE_FORMAT_PNG;
    e.quality = 80;
    uint8_t *out = NULL;
    size_t n = 0;
    rc = magpie_encode(img->pixels, img->width, img->height, img->stride, &e, &out, &n);
    if (!rc) magpie_md5_hex(out, n, md5);
    magpie_free(out);
    magpie_image_free(img);
    return rc;
}

static void *thread_main(void *arg) {
    int t = (int)(intptr_t)arg;
    pthread_barrier_wait(&start);
    for (int k = 0; k < count; k++) {
        int at = (k + t * count / THREADS) % count; /* each thread its own order: rotated, */
        item *it = &items[t % 2 ? count - 1 - at : at]; /* every other one backwards */
        it->rc[t] = work(it, it->md5[t]);
    }
    return NULL;
}

static void add(const char *dir, const tu_row *row) {
    if (count == MAX_FILES || strcmp(row->expected, "ok") != 0) return;
    item *it = &items[count];
    snprintf(it->path, sizeof it->path, "%s/%s", dir, row->path);
    it->data = tu_read_file(it->path, &it->size);
    if (it->data && it->size < (4u << 20)) count++;
    else free(it->data);
}

static void load(const char *dir, int per_format) {
    tu_row *rows = NULL;
    int n = tu_manifest(dir, &rows);
    const char *formats[] = {"avif", "webp", "jpeg", "png", "gif"};
    for (size_t f = 0; f < sizeof formats / sizeof *formats; f++) {
        int taken = 0;
        for (int i = 0; i < n && taken < per_format; i++)
            if (strcmp(rows[i].format, formats[f]) == 0) {
                int before = count;
                add(dir, &rows[i]);
                taken += count > before;
            }
    }
    free(rows);
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    tu_require_corpus(argv[1]);
    /* The format fixtures first, so the threads race to load libtiff, libheif, libjxl and librsvg,
     * then AVIF and WebP, to the lazy libavif load. */
    const char *fixtures[] = {"tiff-rgb8-lzw.tif", "heic-alpha.heic", "jxl-lossless.jxl", "svg-shapes.svg",
                              "tiff-jpeg.tif",     "heic-rgb.heic",   "jxl-alpha.jxl",    "svg-viewbox.svg",
                              "bmp-rle8.bmp",      "ico-png.ico"};
    for (size_t i = 0; i < sizeof fixtures / sizeof *fixtures; i++) {
        item *it = &items[count];
        snprintf(it->path, sizeof it->path, "%s/%s", MAGPIE_FIXTURES, fixtures[i]);
        if ((it->data = tu_read_file(it->path, &it->size)) != NULL) count++;
    }
    if (argc > 2 && tu_corpus_present(argv[2])) load(argv[2], 8);
    else fprintf(stderr, "test_threads: no WebP/AVIF corpus, the lazy AVIF load is not raced\n");
    load(argv[1], 10);
    /* Files with colour profiles, so the threads share (and race to fill) the transform cache. */
    const char *tagged[] = {"jpeg/ljt/testorig_rgb_444_floatdct_q100_test3icc.jpg", "jpeg/jpeg-decoder/ycck.jpg",
                            "jpeg/ljt/testorig_rot180_cmyk_411_q50_opt_rst1B_test1icc.jpg"};
    for (size_t i = 0; i < sizeof tagged / sizeof *tagged; i++) {
        tu_row row = {0};
        snprintf(row.path, sizeof row.path, "%s", tagged[i]);
        snprintf(row.expected, sizeof row.expected, "ok");
        add(argv[1], &row);
    }
    CHECK(count >= 10, "only %d corpus files", count);
    magpie_set_memory_budget(256u << 20);
    pthread_barrier_init(&start, NULL, THREADS);
    pthread_t th[THREADS];
    for (int t = 0; t < THREADS; t++) pthread_create(&th[t], NULL, thread_main, (void *)(intptr_t)t);
    for (int t = 0; t < THREADS; t++) pthread_join(th[t], NULL);
    pthread_barrier_destroy(&start);
    CHECK(magpie_memory_in_use() == 0, "%llu bytes still charged", (unsigned long long)magpie_memory_in_use());
    for (int i = 0; i < count; i++) {
        item *it = &items[i];
        it->rc[THREADS] = work(it, it->md5[THREADS]);
        CHECK(it->rc[THREADS] == MAGPIE_OK || magpie_sniff(it->data, it->size) == MAGPIE_FORMAT_AVIF,
              "%s: %s", it->path, magpie_strerror(it->rc[THREADS]));
        for (int t = 0; t < THREADS; t++) {
            CHECK(it->rc[t] == it->rc[THREADS], "%s: thread %d status %d, alone %d", it->path, t, it->rc[t],
                  it->rc[THREADS]);
            if (!it->rc[t]) CHECK(strcmp(it->md5[t], it->md5[THREADS]) == 0, "%s: thread %d differs", it->path, t);
        }
        free(it->data);
    }
    return tu_finish("threads");
}
