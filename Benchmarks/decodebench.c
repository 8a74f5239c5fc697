/* Full-size JPEG decode into memory: magpie_decode against TurboJPEG's tjDecompress2 (the engine
 * behind tjbench), both from the same bytes in memory to a freshly allocated RGBA buffer.
 * Median of 9 runs each, interleaved. Usage: decodebench FILE.jpg */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <turbojpeg.h>

#include "benchutil.h"
#include "magpie.h"

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    long n;
    unsigned char *data = slurp(argv[1], &n);
    if (!data) return 2;
    enum { R = 9 };
    double m[R], t[R];
    tjhandle tj = tjInitDecompress();
    int w, h, sub, cs;
    tjDecompressHeader3(tj, data, (unsigned long)n, &w, &h, &sub, &cs);
    for (int r = 0; r < R; r++) {
        if ((m[r] = time_magpie_decode(data, (size_t)n)) < 0) return 1;
        double s = now();
        unsigned char *buf = malloc((size_t)w * h * 4);
        if (tjDecompress2(tj, data, (unsigned long)n, buf, w, 0, h, TJPF_RGBA, 0) != 0) return 1;
        free(buf);
        t[r] = now() - s;
    }
    qsort(m, R, sizeof *m, cmp);
    qsort(t, R, sizeof *t, cmp);
    printf("full JPEG decode to RGBA in memory, %dx%d: magpie %.1f ms, TurboJPEG %.1f ms: ratio %.2f (target <= 1.15)\n",
           w, h, m[R / 2] * 1e3, t[R / 2] * 1e3, m[R / 2] / t[R / 2]);
    tjDestroy(tj);
    free(data);
    return 0;
}
