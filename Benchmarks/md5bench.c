/* MD5 of a 70-byte URL key: median nanoseconds per call over 9 batches of a million, for
 * magpie_md5 (digest), magpie_md5_hex (the cache file name) and, when built with
 * -DMAGPIE_BENCH_OPENSSL -lcrypto, OpenSSL's MD5 (hand-written assembly) as the baseline. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "magpie.h"
#include "benchutil.h"
#ifdef MAGPIE_BENCH_OPENSSL
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/md5.h>
#endif

static const char *key = "https://images.example.com/photos/2026/11/22/portraits/0001.jpg?w=1200";


enum { N = 1000000, B = 9 };
static unsigned sink;

static double bench(int which) {
    size_t n = strlen(key);
    double t[B];
    uint8_t d[16];
    char hex[33];
    for (int b = 0; b < B; b++) {
        double s = now();
        for (int i = 0; i < N; i++) {
            if (which == 0) magpie_md5(key, n, d);
            else if (which == 1) { magpie_md5_hex(key, n, hex); d[0] = (uint8_t)hex[i & 31]; }
#ifdef MAGPIE_BENCH_OPENSSL
            else MD5((const unsigned char *)key, n, d);
#endif
            sink += d[i & 15];
        }
        t[b] = (now() - s) / N * 1e9;
    }
    qsort(t, B, sizeof *t, cmp);
    return t[B / 2];
}

int main(void) {
    double digest = bench(0), hex = bench(1);
    printf("MD5 of a %zu-byte key: magpie_md5 %.0f ns, magpie_md5_hex %.0f ns per call", strlen(key), digest, hex);
#ifdef MAGPIE_BENCH_OPENSSL
    double ossl = bench(2);
    printf(", OpenSSL MD5 %.0f ns: ratio %.2f (digest) / %.2f (hex)", ossl, digest / ossl, hex / ossl);
#endif
    printf(" [%u]\n", sink & 1);
    return 0;
}
