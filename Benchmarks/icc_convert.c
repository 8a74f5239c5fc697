/* The cost of colour conversion: a JPEG thumbnailed (or decoded at a size) untagged, tagged with
 * an Adobe RGB profile and converted to sRGB (the default), and tagged but kept; the medians of 41
 * rounds of 20 decodes each, the three taken in turn within a round, as ratios to the untagged.
 * Build against a Release libmagpie:
 *   cc -O2 -Iinclude Benchmarks/icc_convert.c -Lbuild -lmagpie -llcms2 -Wl,-rpath,$PWD/build -o icc_convert
 *   ./icc_convert photo.jpg 256     (the box; the photo's own size for a full decode) */
#include <lcms2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "magpie.h"
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
static int cmp(const void *a, const void *b) { double x = *(double *)a, y = *(double *)b; return x < y ? -1 : x > y; }
int main(int argc, char **argv) {
    FILE *f = fopen(argv[1], "rb"); fseek(f, 0, SEEK_END); long n = ftell(f); fseek(f, 0, SEEK_SET);
    uint8_t *src = malloc(n); fread(src, 1, n, f); fclose(f);
    magpie_image *full; magpie_decode(src, n, NULL, &full);
    cmsCIExyY w = {0.3127, 0.3290, 1}; cmsCIExyYTRIPLE p = {{0.64, 0.33, 1}, {0.21, 0.71, 1}, {0.15, 0.06, 1}};
    cmsToneCurve *g = cmsBuildGamma(NULL, 2.2), *c[3] = {g, g, g};
    cmsHPROFILE ad = cmsCreateRGBProfile(&w, &p, c); cmsUInt32Number sz; cmsSaveProfileToMem(ad, NULL, &sz);
    uint8_t *icc = malloc(sz); cmsSaveProfileToMem(ad, icc, &sz);
    magpie_encode_options e; magpie_encode_options_init(&e); e.format = MAGPIE_FORMAT_JPEG; e.quality = 85;
    uint8_t *plain, *tagged; size_t pn, tn;
    magpie_encode(full->pixels, full->width, full->height, full->stride, &e, &plain, &pn);
    e.icc_profile = icc; e.icc_profile_size = sz;
    magpie_encode(full->pixels, full->width, full->height, full->stride, &e, &tagged, &tn);
    int size = atoi(argv[2]);
    enum { N = 41 };
    double t[3][N];
    for (int r = 0; r < N; r++)
        for (int k = 0; k < 3; k++) {
            magpie_decode_options o; magpie_decode_options_init(&o); o.fit = MAGPIE_FIT_INSIDE; o.width = o.height = size;
            if (k == 2) o.flags = MAGPIE_DECODE_KEEP_PROFILE;
            double t0 = now();
            for (int i = 0; i < 20; i++) { magpie_image *im; magpie_decode(k ? tagged : plain, k ? tn : pn, &o, &im); magpie_image_free(im); }
            t[k][r] = now() - t0;
        }
    for (int k = 0; k < 3; k++) qsort(t[k], N, sizeof(double), cmp);
    printf("%ux%u -> %d: tagged+converted / untagged = %.3f; tagged kept / untagged = %.3f\n", full->width, full->height, size,
           t[1][N / 2] / t[0][N / 2], t[2][N / 2] / t[0][N / 2]);
    return 0;
}
