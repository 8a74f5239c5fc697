/* SHA-256 (FIPS 180-4) and HMAC-SHA-256 (RFC 2104), written from the specifications. Used to
 * key cache entries by a digest of request credentials that cannot be reversed or forged. */
#include <string.h>

#include "internal.h"

typedef struct {
    uint32_t h[8];
    uint8_t block[64];
    size_t used;    /* bytes in block */
    uint64_t total; /* bytes hashed */
} magpie__sha256;

static const uint32_t magpie__sha256_k[64] = {
    0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u, 0x923f82a4u, 0xab1c5ed5u,
    0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu, 0x9bdc06a7u, 0xc19bf174u,
    0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu, 0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau,
    0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u, 0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u,
    0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu, 0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u,
    0xa2bfe8a1u, 0xa81a664bu, 0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u,
    0x19a4c116u, 0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
    0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u, 0x90befffau, 0xa4506cebu, 0xbef9a3f7u, 0xc67178f2u,
};

#define MAGPIE_ROTR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void magpie__sha256_block(magpie__sha256 *s, const uint8_t *p) {
    uint32_t w[64];
    for (int i = 0; i < 16; i++) w[i] = magpie__be32(p + 4 * i);
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = MAGPIE_ROTR(w[i - 15], 7) ^ MAGPIE_ROTR(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = MAGPIE_ROTR(w[i - 2], 17) ^ MAGPIE_ROTR(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = s->h[0], b = s->h[1], c = s->h[2], d = s->h[3];
    uint32_t e = s->h[4], f = s->h[5], g = s->h[6], h = s->h[7];
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = h + (MAGPIE_ROTR(e, 6) ^ MAGPIE_ROTR(e, 11) ^ MAGPIE_ROTR(e, 25)) + ((e & f) ^ (~e & g)) +
                      magpie__sha256_k[i] + w[i];
        uint32_t t2 = (MAGPIE_ROTR(a, 2) ^ MAGPIE_ROTR(a, 13) ^ MAGPIE_ROTR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    s->h[0] += a;
    s->h[1] += b;
    s->h[2] += c;
    s->h[3] += d;
    s->h[4] += e;
    s->h[5] += f;
    s->h[6] += g;
    s->h[7] += h;
}

static void magpie__sha256_init(magpie__sha256 *s) {
    static const uint32_t iv[8] = {0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
                                   0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u};
    memcpy(s->h, iv, sizeof iv);
    s->used = 0;
    s->total = 0;
}

static void magpie__sha256_update(magpie__sha256 *s, const uint8_t *p, size_t n) {
    s->total += n;
    if (s->used) {
        size_t take = 64 - s->used < n ? 64 - s->used : n;
        memcpy(s->block + s->used, p, take);
        s->used += take;
        p += take;
        n -= take;
        if (s->used < 64) return;
        magpie__sha256_block(s, s->block);
        s->used = 0;
    }
    for (; n >= 64; p += 64, n -= 64) magpie__sha256_block(s, p);
    if (n) memcpy(s->block, p, n);
    s->used = n;
}

static void magpie__sha256_final(magpie__sha256 *s, uint8_t out[32]) {
    uint64_t bits = s->total * 8;
    uint8_t pad[72] = {0x80};
    size_t padding = (s->used < 56 ? 56 : 120) - s->used;
    for (int i = 0; i < 8; i++) pad[padding + (size_t)i] = (uint8_t)(bits >> (56 - 8 * i));
    magpie__sha256_update(s, pad, padding + 8);
    for (int i = 0; i < 8; i++) {
        out[4 * i] = (uint8_t)(s->h[i] >> 24);
        out[4 * i + 1] = (uint8_t)(s->h[i] >> 16);
        out[4 * i + 2] = (uint8_t)(s->h[i] >> 8);
        out[4 * i + 3] = (uint8_t)s->h[i];
    }
}

void magpie_sha256(const void *data, size_t size, uint8_t digest[32]) {
    magpie__sha256 s;
    magpie__sha256_init(&s);
    if (size) magpie__sha256_update(&s, data, size);
    magpie__sha256_final(&s, digest);
}

void magpie_hmac_sha256(const void *key, size_t key_size, const void *data, size_t size, uint8_t mac[32]) {
    uint8_t k[64] = {0};
    if (key_size > 64) magpie_sha256(key, key_size, k);
    else if (key_size) memcpy(k, key, key_size);
    uint8_t pad[64], inner[32];
    magpie__sha256 s;
    for (int i = 0; i < 64; i++) pad[i] = k[i] ^ 0x36;
    magpie__sha256_init(&s);
    magpie__sha256_update(&s, pad, 64);
    if (size) magpie__sha256_update(&s, data, size);
    magpie__sha256_final(&s, inner);
    for (int i = 0; i < 64; i++) pad[i] = k[i] ^ 0x5c;
    magpie__sha256_init(&s);
    magpie__sha256_update(&s, pad, 64);
    magpie__sha256_update(&s, inner, 32);
    magpie__sha256_final(&s, mac);
}
