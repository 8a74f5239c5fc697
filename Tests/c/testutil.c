#include "testutil.h"

#include "magpie.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int tu_failures = 0;
int tu_checks = 0;

uint8_t *tu_read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
    if (buf && n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *size = n > 0 ? (size_t)n : 0;
    return buf;
}

int tu_corpus_present(const char *dir) {
    struct stat st;
    char path[1024];
    snprintf(path, sizeof path, "%s/MANIFEST.tsv", dir ? dir : "");
    return dir && stat(path, &st) == 0;
}

void tu_require_corpus(const char *dir) {
    if (!tu_corpus_present(dir)) {
        printf("SKIPPED: corpus not found at %s (clone ../shared beside the project to run it)\n", dir ? dir : "(none)");
        exit(77);
    }
}

static int tu_int(const char *s) { return *s ? atoi(s) : -1; }

int tu_manifest(const char *dir, tu_row **rows) {
    char path[1024];
    snprintf(path, sizeof path, "%s/MANIFEST.tsv", dir);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    size_t cap = 1024, n = 0;
    tu_row *r = calloc(cap, sizeof *r);
    static char line[65536];
    int first = 1;
    while (fgets(line, sizeof line, f)) {
        if (first) { first = 0; continue; }
        line[strcspn(line, "\n")] = 0;
        char *cols[9] = {0};
        char *p = line;
        for (int i = 0; i < 9 && p; i++) {
            cols[i] = p;
            p = strchr(p, '\t');
            if (p) *p++ = 0;
        }
        if (!cols[5]) continue;
        if (n == cap) r = realloc(r, (cap *= 2) * sizeof *r);
        tu_row *row = &r[n++];
        memset(row, 0, sizeof *row);
        snprintf(row->path, sizeof row->path, "%.511s", cols[0]);
        snprintf(row->format, sizeof row->format, "%s", cols[1]);
        row->width = tu_int(cols[2]);
        row->height = tu_int(cols[3]);
        row->frames = tu_int(cols[4]);
        snprintf(row->expected, sizeof row->expected, "%s", cols[5]);
        snprintf(row->notes, sizeof row->notes, "%.500s", cols[8] ? cols[8] : "");
    }
    fclose(f);
    *rows = r;
    return (int)n;
}

int tu_finish(const char *name) {
    printf("%s: %d passed, %d failed\n", name, tu_checks - tu_failures, tu_failures);
    return tu_failures ? 1 : 0;
}

uint8_t *tu_gradient(uint32_t w, uint32_t h) {
    uint8_t *p = malloc((size_t)w * h * 4);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint8_t *q = p + ((size_t)y * w + x) * 4;
            q[0] = (uint8_t)(x * 255 / (w - 1));
            q[1] = (uint8_t)(y * 255 / (h - 1));
            q[2] = (uint8_t)((x + y) * 127 / (w + h));
            q[3] = 255;
        }
    return p;
}

double tu_psnr_rgb(const uint8_t *a, const uint8_t *b, size_t pixels) {
    double se = 0;
    for (size_t i = 0; i < pixels; i++)
        for (int c = 0; c < 3; c++) se += (double)(a[i * 4 + c] - b[i * 4 + c]) * (a[i * 4 + c] - b[i * 4 + c]);
    return se == 0 ? 99.0 : 10 * log10(255.0 * 255.0 * (double)pixels * 3 / se);
}

int tu_resize(const uint8_t *src, uint32_t src_w, uint32_t src_h, size_t src_stride, const void *window,
              uint32_t out_w, uint32_t out_h, int filter, uint8_t *dst, size_t dst_stride) {
    magpie_pixels from = {(uint8_t *)src, src_w, src_h, src_stride}, to = {dst, out_w, out_h, dst_stride};
    magpie_resize_options o;
    magpie_resize_options_init(&o);
    o.window = (const magpie_rect *)window;
    o.filter = (magpie_filter)filter;
    return magpie_resample(&from, &to, &o);
}

int tu_mapped(const char *name) {
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f) return -1;
    char line[4096];
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) found = strstr(line, name) != NULL;
    fclose(f);
    return found;
}

#ifdef MAGPIE_FIXTURES
uint8_t *tu_fixture(const char *name, size_t *size) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", MAGPIE_FIXTURES, name);
    uint8_t *d = tu_read_file(path, size);
    CHECK(d != NULL, "fixture %s is there", path);
    return d;
}
#endif
