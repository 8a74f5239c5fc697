/* The C core called from many threads at once, as the Swift layers call it: four threads released
 * together decode, thumbnail and encode the same files (made here, the format and colour fixtures,
 * and corpus files where the corpus is present) in different orders, while the
 * process-wide memory budget is charged by all of them and libavif (when loaded on first use),
 * libtiff, libheif, libjxl and librsvg are loaded by whichever decode needs them first. Every result must equal the one a single thread
 * makes afterwards. Run under ThreadSanitizer by scripts/test.sh (MAGPIE_SANITIZE=thread). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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

/* Takes `data` (malloc'd, `n` bytes) as an input named `name`. */
static void take(const char *name, uint8_t *data, size_t n) {
    if (!data || count == MAX_FILES) {
        free(data);
        return;
    }
    item *it = &items[count++];
    snprintf(it->path, sizeof it->path, "(made) %s", name);
    it->data = data;
    it->size = n;
}

/* A picture of `w` × `h` with detail (a gradient and a checker), alpha ramped when `alpha`. */
static uint8_t *picture(uint32_t w, uint32_t h, int alpha) {
    uint8_t *px = tu_gradient(w, h);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint8_t *p = px + 4 * ((size_t)y * w + x);
            if (((x / 16) + (y / 16)) & 1) p[1] = (uint8_t)(255 - p[1]);
            if (alpha) p[3] = (uint8_t)(x * 255 / (w - 1));
        }
    return px;
}

static uint8_t *encoded(const uint8_t *px, uint32_t w, uint32_t h, magpie_format f, int quality, size_t *n) {
    magpie_encode_options e;
    magpie_encode_options_init(&e);
    e.format = f;
    e.quality = quality;
    e.speed = 10;
    uint8_t *out = NULL;
    if (magpie_encode(px, w, h, (size_t)w * 4, &e, &out, n) != MAGPIE_OK) return NULL;
    uint8_t *copy = malloc(*n);
    memcpy(copy, out, *n);
    magpie_free(out);
    return copy;
}

/* Inputs made here, so the test runs on any clone: JPEGs of several sizes and qualities, PNGs
 * with and without alpha, a GIF and WebPs; AVIFs are encoded in a child process, so that in this
 * one libavif is still not loaded when the threads start and they race to load it. */
static void make_inputs(void) {
    static const uint32_t sizes[][2] = {{640, 480}, {333, 517}, {1024, 96}, {97, 701}};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        uint32_t w = sizes[i][0], h = sizes[i][1];
        uint8_t *px = picture(w, h, 0), *pa = picture(w, h, 1);
        size_t n = 0;
        char name[64];
        snprintf(name, sizeof name, "%ux%u.jpg", w, h);
        uint8_t *out = encoded(px, w, h, MAGPIE_FORMAT_JPEG, 60 + 10 * (int)i, &n);
        take(name, out, n);
        snprintf(name, sizeof name, "%ux%u.png", w, h);
        out = encoded(i % 2 ? pa : px, w, h, MAGPIE_FORMAT_PNG, 0, &n);
        take(name, out, n);
        if (magpie_format_encodable(MAGPIE_FORMAT_WEBP)) {
            snprintf(name, sizeof name, "%ux%u.webp", w, h);
            out = encoded(pa, w, h, MAGPIE_FORMAT_WEBP, 75, &n);
            take(name, out, n);
        }
        if (i == 0 && magpie_format_encodable(MAGPIE_FORMAT_GIF)) {
            out = encoded(px, w, h, MAGPIE_FORMAT_GIF, 0, &n);
            take("640x480.gif", out, n);
        }
        free(px), free(pa);
    }
    if (!magpie_format_encodable(MAGPIE_FORMAT_AVIF)) return;
    int fds[2];
    if (pipe(fds) != 0) return;
    pid_t child = fork();
    if (child == 0) {
        close(fds[0]);
        for (uint32_t i = 0; i < 2; i++) {
            uint32_t w = 200 + 57 * i, h = 150 + 31 * i;
            uint8_t *px = picture(w, h, (int)i);
            size_t n = 0;
            uint8_t *avif = encoded(px, w, h, MAGPIE_FORMAT_AVIF, 60, &n);
            uint64_t len = avif ? n : 0;
            if (write(fds[1], &len, sizeof len) != sizeof len || (len && write(fds[1], avif, n) != (ssize_t)n)) _exit(1);
            free(avif), free(px);
        }
        _exit(0);
    }
    close(fds[1]);
    for (int i = 0; child > 0 && i < 2; i++) {
        uint64_t len = 0;
        if (read(fds[0], &len, sizeof len) != sizeof len || len == 0 || len > (16u << 20)) break;
        uint8_t *data = malloc(len);
        size_t got = 0;
        while (got < len) {
            ssize_t r = read(fds[0], data + got, len - got);
            if (r <= 0) break;
            got += (size_t)r;
        }
        if (got == len) take(i ? "257x181.avif" : "200x150.avif", data, len);
        else free(data);
    }
    close(fds[0]);
    if (child > 0) waitpid(child, NULL, 0);
}

int main(int argc, char **argv) {
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
    make_inputs();
    /* JPEGs with colour profiles (Tests/fixtures/colour), so the threads share (and race to
     * fill) the transform cache: gray through a gray profile, CMYK through a CMYK one. */
    const char *colour[][2] = {{"gray.jpg", "gray-linear.icc"}, {"cmyk.jpg", "cmyk.icc"}, {"cmyk.jpg", NULL}};
    for (size_t i = 0; i < sizeof colour / sizeof *colour; i++) {
        char path[700];
        size_t jn = 0, pn = 0;
        snprintf(path, sizeof path, "%s/../colour/%s", MAGPIE_FIXTURES, colour[i][0]);
        uint8_t *jpeg = tu_read_file(path, &jn), *icc = NULL;
        if (colour[i][1]) {
            snprintf(path, sizeof path, "%s/../colour/%s", MAGPIE_FIXTURES, colour[i][1]);
            icc = tu_read_file(path, &pn);
        }
        CHECK(jpeg && (icc || !colour[i][1]), "the colour fixtures (%s)", colour[i][0]);
        if (!jpeg || !icc) {
            take(colour[i][0], jpeg, jn);
            free(icc);
            continue;
        }
        size_t n = jn + 18 + pn, len = pn + 16;
        uint8_t *tagged = malloc(n), head[18] = {0xFF, 0xE2, (uint8_t)(len >> 8), (uint8_t)len, 'I', 'C', 'C', '_',
                                                 'P',  'R',  'O', 'F', 'I', 'L', 'E', 0, 1, 1};
        memcpy(tagged, jpeg, 2), memcpy(tagged + 2, head, 18), memcpy(tagged + 20, icc, pn);
        memcpy(tagged + 20 + pn, jpeg + 2, jn - 2);
        take(colour[i][1], tagged, n);
        free(jpeg), free(icc);
    }
    /* The corpus adds real files where it is beside the project. */
    if (argc > 2 && tu_corpus_present(argv[2])) load(argv[2], 4);
    if (argc > 1 && tu_corpus_present(argv[1])) {
        load(argv[1], 6);
        const char *tagged[] = {"jpeg/ljt/testorig_rgb_444_floatdct_q100_test3icc.jpg",
                                "jpeg/ljt/testorig_rot180_cmyk_411_q50_opt_rst1B_test1icc.jpg"};
        for (size_t i = 0; i < sizeof tagged / sizeof *tagged; i++) {
            tu_row row = {0};
            snprintf(row.path, sizeof row.path, "%s", tagged[i]);
            snprintf(row.expected, sizeof row.expected, "ok");
            add(argv[1], &row);
        }
    }
    CHECK(count >= 20, "only %d inputs", count);
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
