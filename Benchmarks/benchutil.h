/* Helpers shared by the C benchmarks: a monotonic clock, a comparator for medians, reading a file
 * whole, timing one magpie_decode, and libvips started as the comparisons run it. */
#ifndef MAGPIE_BENCHUTIL_H
#define MAGPIE_BENCHUTIL_H
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "magpie.h"

#ifdef HAVE_VIPS
#include <vips/vips.h>
#endif

static inline double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}
static inline int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The whole file, its size in *n; NULL where it cannot be read. */
static inline uint8_t *slurp(const char *path, long *n) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    *n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *data = *n > 0 ? malloc((size_t)*n) : NULL;
    if (!data || fread(data, 1, (size_t)*n, f) != (size_t)*n) {
        free(data);
        fclose(f);
        return NULL;
    }
    fclose(f);
    return data;
}

/* Seconds one full magpie_decode of the bytes takes (image made and freed); -1 on failure. */
static inline double time_magpie_decode(const uint8_t *data, size_t n) {
    double s = now();
    magpie_image *img;
    if (magpie_decode(data, n, NULL, &img) != MAGPIE_OK) return -1;
    magpie_image_free(img);
    return now() - s;
}

#ifdef HAVE_VIPS
/* libvips as the comparisons run it: one thread per operation, the operation cache off. */
static inline int start_vips(const char *argv0) {
    if (VIPS_INIT(argv0)) return -1;
    vips_concurrency_set(1);
    vips_cache_set_max(0);
    return 0;
}
#endif

#endif
