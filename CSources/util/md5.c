/* MD5 message digest, RFC 1321, written from the specification. */
#include <string.h>

#include "internal.h"

typedef struct {
    uint32_t a, b, c, d;
} magpie__md5_state;

#define MAGPIE_ROTL(x, n) (((x) << (n)) | ((x) >> (32 - (n))))


#define MAGPIE_MD5_F(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))
#define MAGPIE_MD5_G(x, y, z) ((y) ^ ((z) & ((x) ^ (y))))
#define MAGPIE_MD5_H(x, y, z) ((x) ^ (y) ^ (z))
#define MAGPIE_MD5_I(x, y, z) ((y) ^ ((x) | ~(z)))
#define MAGPIE_STEP(f, a, b, c, d, m, k, r) (a) = (b) + MAGPIE_ROTL((a) + f((b), (c), (d)) + (m) + (k), (r))

/* One 64-byte block: the 64 steps of RFC 1321, section 3.4, written out with constant indices. */
static void magpie__md5_block(magpie__md5_state *s, const uint8_t *p) {
    uint32_t m[16];
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(m, p, sizeof m);
#else
    for (int i = 0; i < 16; i++) m[i] = magpie__le32(p + 4 * i);
#endif
    uint32_t a = s->a, b = s->b, c = s->c, d = s->d;
    MAGPIE_STEP(MAGPIE_MD5_F, a, b, c, d, m[0], 0xd76aa478u, 7);
    MAGPIE_STEP(MAGPIE_MD5_F, d, a, b, c, m[1], 0xe8c7b756u, 12);
    MAGPIE_STEP(MAGPIE_MD5_F, c, d, a, b, m[2], 0x242070dbu, 17);
    MAGPIE_STEP(MAGPIE_MD5_F, b, c, d, a, m[3], 0xc1bdceeeu, 22);
    MAGPIE_STEP(MAGPIE_MD5_F, a, b, c, d, m[4], 0xf57c0fafu, 7);
    MAGPIE_STEP(MAGPIE_MD5_F, d, a, b, c, m[5], 0x4787c62au, 12);
    MAGPIE_STEP(MAGPIE_MD5_F, c, d, a, b, m[6], 0xa8304613u, 17);
    MAGPIE_STEP(MAGPIE_MD5_F, b, c, d, a, m[7], 0xfd469501u, 22);
    MAGPIE_STEP(MAGPIE_MD5_F, a, b, c, d, m[8], 0x698098d8u, 7);
    MAGPIE_STEP(MAGPIE_MD5_F, d, a, b, c, m[9], 0x8b44f7afu, 12);
    MAGPIE_STEP(MAGPIE_MD5_F, c, d, a, b, m[10], 0xffff5bb1u, 17);
    MAGPIE_STEP(MAGPIE_MD5_F, b, c, d, a, m[11], 0x895cd7beu, 22);
    MAGPIE_STEP(MAGPIE_MD5_F, a, b, c, d, m[12], 0x6b901122u, 7);
    MAGPIE_STEP(MAGPIE_MD5_F, d, a, b, c, m[13], 0xfd987193u, 12);
    MAGPIE_STEP(MAGPIE_MD5_F, c, d, a, b, m[14], 0xa679438eu, 17);
    MAGPIE_STEP(MAGPIE_MD5_F, b, c, d, a, m[15], 0x49b40821u, 22);
    MAGPIE_STEP(MAGPIE_MD5_G, a, b, c, d, m[1], 0xf61e2562u, 5);
    MAGPIE_STEP(MAGPIE_MD5_G, d, a, b, c, m[6], 0xc040b340u, 9);
    MAGPIE_STEP(MAGPIE_MD5_G, c, d, a, b, m[11], 0x265e5a51u, 14);
    MAGPIE_STEP(MAGPIE_MD5_G, b, c, d, a, m[0], 0xe9b6c7aau, 20);
    MAGPIE_STEP(MAGPIE_MD5_G, a, b, c, d, m[5], 0xd62f105du, 5);
    MAGPIE_STEP(MAGPIE_MD5_G, d, a, b, c, m[10], 0x02441453u, 9);
    MAGPIE_STEP(MAGPIE_MD5_G, c, d, a, b, m[15], 0xd8a1e681u, 14);
    MAGPIE_STEP(MAGPIE_MD5_G, b, c, d, a, m[4], 0xe7d3fbc8u, 20);
    MAGPIE_STEP(MAGPIE_MD5_G, a, b, c, d, m[9], 0x21e1cde6u, 5);
    MAGPIE_STEP(MAGPIE_MD5_G, d, a, b, c, m[14], 0xc33707d6u, 9);
    MAGPIE_STEP(MAGPIE_MD5_G, c, d, a, b, m[3], 0xf4d50d87u, 14);
    MAGPIE_STEP(MAGPIE_MD5_G, b, c, d, a, m[8], 0x455a14edu, 20);
    MAGPIE_STEP(MAGPIE_MD5_G, a, b, c, d, m[13], 0xa9e3e905u, 5);
    MAGPIE_STEP(MAGPIE_MD5_G, d, a, b, c, m[2], 0xfcefa3f8u, 9);
    MAGPIE_STEP(MAGPIE_MD5_G, c, d, a, b, m[7], 0x676f02d9u, 14);
    MAGPIE_STEP(MAGPIE_MD5_G, b, c, d, a, m[12], 0x8d2a4c8au, 20);
    MAGPIE_STEP(MAGPIE_MD5_H, a, b, c, d, m[5], 0xfffa3942u, 4);
    MAGPIE_STEP(MAGPIE_MD5_H, d, a, b, c, m[8], 0x8771f681u, 11);
    MAGPIE_STEP(MAGPIE_MD5_H, c, d, a, b, m[11], 0x6d9d6122u, 16);
    MAGPIE_STEP(MAGPIE_MD5_H, b, c, d, a, m[14], 0xfde5380cu, 23);
    MAGPIE_STEP(MAGPIE_MD5_H, a, b, c, d, m[1], 0xa4beea44u, 4);
    MAGPIE_STEP(MAGPIE_MD5_H, d, a, b, c, m[4], 0x4bdecfa9u, 11);
    MAGPIE_STEP(MAGPIE_MD5_H, c, d, a, b, m[7], 0xf6bb4b60u, 16);
    MAGPIE_STEP(MAGPIE_MD5_H, b, c, d, a, m[10], 0xbebfbc70u, 23);
    MAGPIE_STEP(MAGPIE_MD5_H, a, b, c, d, m[13], 0x289b7ec6u, 4);
    MAGPIE_STEP(MAGPIE_MD5_H, d, a, b, c, m[0], 0xeaa127fau, 11);
    MAGPIE_STEP(MAGPIE_MD5_H, c, d, a, b, m[3], 0xd4ef3085u, 16);
    MAGPIE_STEP(MAGPIE_MD5_H, b, c, d, a, m[6], 0x04881d05u, 23);
    MAGPIE_STEP(MAGPIE_MD5_H, a, b, c, d, m[9], 0xd9d4d039u, 4);
    MAGPIE_STEP(MAGPIE_MD5_H, d, a, b, c, m[12], 0xe6db99e5u, 11);
    MAGPIE_STEP(MAGPIE_MD5_H, c, d, a, b, m[15], 0x1fa27cf8u, 16);
    MAGPIE_STEP(MAGPIE_MD5_H, b, c, d, a, m[2], 0xc4ac5665u, 23);
    MAGPIE_STEP(MAGPIE_MD5_I, a, b, c, d, m[0], 0xf4292244u, 6);
    MAGPIE_STEP(MAGPIE_MD5_I, d, a, b, c, m[7], 0x432aff97u, 10);
    MAGPIE_STEP(MAGPIE_MD5_I, c, d, a, b, m[14], 0xab9423a7u, 15);
    MAGPIE_STEP(MAGPIE_MD5_I, b, c, d, a, m[5], 0xfc93a039u, 21);
    MAGPIE_STEP(MAGPIE_MD5_I, a, b, c, d, m[12], 0x655b59c3u, 6);
    MAGPIE_STEP(MAGPIE_MD5_I, d, a, b, c, m[3], 0x8f0ccc92u, 10);
    MAGPIE_STEP(MAGPIE_MD5_I, c, d, a, b, m[10], 0xffeff47du, 15);
    MAGPIE_STEP(MAGPIE_MD5_I, b, c, d, a, m[1], 0x85845dd1u, 21);
    MAGPIE_STEP(MAGPIE_MD5_I, a, b, c, d, m[8], 0x6fa87e4fu, 6);
    MAGPIE_STEP(MAGPIE_MD5_I, d, a, b, c, m[15], 0xfe2ce6e0u, 10);
    MAGPIE_STEP(MAGPIE_MD5_I, c, d, a, b, m[6], 0xa3014314u, 15);
    MAGPIE_STEP(MAGPIE_MD5_I, b, c, d, a, m[13], 0x4e0811a1u, 21);
    MAGPIE_STEP(MAGPIE_MD5_I, a, b, c, d, m[4], 0xf7537e82u, 6);
    MAGPIE_STEP(MAGPIE_MD5_I, d, a, b, c, m[11], 0xbd3af235u, 10);
    MAGPIE_STEP(MAGPIE_MD5_I, c, d, a, b, m[2], 0x2ad7d2bbu, 15);
    MAGPIE_STEP(MAGPIE_MD5_I, b, c, d, a, m[9], 0xeb86d391u, 21);
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
    uint8_t d[16];
    magpie_md5(data, size, d);
    for (int i = 0; i < 16; i++) {
        unsigned hi = d[i] >> 4, lo = d[i] & 15u;
        /* '0'..'9' then 'a'..'f' without a branch or a table load */
        hex[2 * i] = (char)('0' + hi + (((9u - hi) >> 8) & 39u));
        hex[2 * i + 1] = (char)('0' + lo + (((9u - lo) >> 8) & 39u));
    }
    hex[32] = 0;
}
