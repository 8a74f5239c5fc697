/* MD5 message digest, RFC 1321, written from the specification. */
#include <string.h>

#include "internal.h"

typedef struct {
    uint32_t a, b, c, d;
} magpie__md5_state;

#define MAGPIE_ROTL(x, n) (((x) << (n)) | ((x) >> (32 - (n))))

static const uint32_t magpie__md5_k[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391};

#define MAGPIE_MD5_F(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))
#define MAGPIE_MD5_G(x, y, z) ((y) ^ ((z) & ((x) ^ (y))))
#define MAGPIE_MD5_H(x, y, z) ((x) ^ (y) ^ (z))
#define MAGPIE_MD5_I(x, y, z) ((y) ^ ((x) | ~(z)))
#define MAGPIE_STEP(f, a, b, c, d, m, k, r) (a) = (b) + MAGPIE_ROTL((a) + f((b), (c), (d)) + (m) + (k), (r))

/* One 64-byte block, the four rounds written out (RFC 1321, section 3.4). */
static void magpie__md5_block(magpie__md5_state *s, const uint8_t *p) {
    uint32_t m[16];
    for (int i = 0; i < 16; i++) m[i] = magpie__le32(p + 4 * i);
    uint32_t a = s->a, b = s->b, c = s->c, d = s->d;
    const uint32_t *k = magpie__md5_k;
    for (int i = 0; i < 16; i += 4) {
        MAGPIE_STEP(MAGPIE_MD5_F, a, b, c, d, m[i], k[i], 7);
        MAGPIE_STEP(MAGPIE_MD5_F, d, a, b, c, m[i + 1], k[i + 1], 12);
        MAGPIE_STEP(MAGPIE_MD5_F, c, d, a, b, m[i + 2], k[i + 2], 17);
        MAGPIE_STEP(MAGPIE_MD5_F, b, c, d, a, m[i + 3], k[i + 3], 22);
    }
    for (int i = 16; i < 32; i += 4) {
        MAGPIE_STEP(MAGPIE_MD5_G, a, b, c, d, m[(5 * i + 1) & 15], k[i], 5);
        MAGPIE_STEP(MAGPIE_MD5_G, d, a, b, c, m[(5 * i + 6) & 15], k[i + 1], 9);
        MAGPIE_STEP(MAGPIE_MD5_G, c, d, a, b, m[(5 * i + 11) & 15], k[i + 2], 14);
        MAGPIE_STEP(MAGPIE_MD5_G, b, c, d, a, m[(5 * i + 16) & 15], k[i + 3], 20);
    }
    for (int i = 32; i < 48; i += 4) {
        MAGPIE_STEP(MAGPIE_MD5_H, a, b, c, d, m[(3 * i + 5) & 15], k[i], 4);
        MAGPIE_STEP(MAGPIE_MD5_H, d, a, b, c, m[(3 * i + 8) & 15], k[i + 1], 11);
        MAGPIE_STEP(MAGPIE_MD5_H, c, d, a, b, m[(3 * i + 11) & 15], k[i + 2], 16);
        MAGPIE_STEP(MAGPIE_MD5_H, b, c, d, a, m[(3 * i + 14) & 15], k[i + 3], 23);
    }
    for (int i = 48; i < 64; i += 4) {
        MAGPIE_STEP(MAGPIE_MD5_I, a, b, c, d, m[(7 * i) & 15], k[i], 6);
        MAGPIE_STEP(MAGPIE_MD5_I, d, a, b, c, m[(7 * i + 7) & 15], k[i + 1], 10);
        MAGPIE_STEP(MAGPIE_MD5_I, c, d, a, b, m[(7 * i + 14) & 15], k[i + 2], 15);
        MAGPIE_STEP(MAGPIE_MD5_I, b, c, d, a, m[(7 * i + 21) & 15], k[i + 3], 21);
    }
    s->a += a;
    s->b += b;
    s->c += c;
    s->d += d;
}

void magpie_md5(const void *data, size_t size, uint8_t digest[16]) {
    if (!digest) return;
    magpie__md5_state s = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
    const uint8_t *p = data;
    if (!p) size = 0;
    size_t full = size / 64;
    for (size_t i = 0; i < full; i++) magpie__md5_block(&s, p + 64 * i);
    uint8_t tail[128];
    size_t rest = size - full * 64;
    if (rest) memcpy(tail, p + full * 64, rest);
    tail[rest] = 0x80;
    size_t padded = rest < 56 ? 64 : 128;
    memset(tail + rest + 1, 0, padded - rest - 1);
    uint64_t bits = (uint64_t)size * 8u;
    for (int i = 0; i < 8; i++) tail[padded - 8 + i] = (uint8_t)(bits >> (8 * i));
    magpie__md5_block(&s, tail);
    if (padded == 128) magpie__md5_block(&s, tail + 64);
    uint32_t words[4] = {s.a, s.b, s.c, s.d};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) digest[4 * i + j] = (uint8_t)(words[i] >> (8 * j));
}

void magpie_md5_hex(const void *data, size_t size, char hex[33]) {
    if (!hex) return;
    static const char digits[] = "0123456789abcdef";
    uint8_t d[16];
    magpie_md5(data, size, d);
    for (int i = 0; i < 16; i++) {
        hex[2 * i] = digits[d[i] >> 4];
        hex[2 * i + 1] = digits[d[i] & 15];
    }
    hex[32] = 0;
}
