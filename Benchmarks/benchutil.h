/* Timing helpers shared by the C benchmarks: a monotonic clock and a comparator for medians. */
#ifndef MAGPIE_BENCHUTIL_H
#define MAGPIE_BENCHUTIL_H
#include <time.h>

static inline double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}
static inline int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#endif
