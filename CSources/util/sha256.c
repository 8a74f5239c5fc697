/* SHA-256 (FIPS 180-4) and HMAC-SHA-256 (RFC 2104), written from the specifications. Used to
 * key cache entries by a digest of request credentials that cannot be reversed or forged. */
#include <string.h>

#include "internal.h"
#include "util/md_hash.h"

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

static void magpie__sha256_block(uint32_t hs[8], const uint8_t *p) {
    uint32_t w[64];
    for (int i = 0; i < 16; i++) w[i] = magpie__be32(p + 4 * i);
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = MAGPIE_ROTR(w[i - 15], 7) ^ MAGPIE_ROTR(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = MAGPIE_ROTR(w[i - 2], 17) ^ MAGPIE_ROTR(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = hs[0], b = hs[1], c = hs[2], d = hs[3];
    uint32_t e = hs[4], f = hs[5], g = hs[6], h = hs[7];
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
    hs[0] += a;
    hs[1] += b;
    hs[2] += c;
    hs[3] += d;
    hs[4] += e;
    hs[5] += f;
    hs[6] += g;
    hs[7] += h;
}

static const uint32_t magpie__sha256_iv[8] = {0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
                                              0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u};
static const magpie__md_kind magpie__sha256_kind = {magpie__sha256_block, magpie__sha256_iv, 8};

void magpie_sha256(const void *data, size_t size, uint8_t digest[32]) {
    magpie__md_digest(&magpie__sha256_kind, data, size, digest);
}

void magpie_hmac_sha256(const void *key, size_t key_size, const void *data, size_t size, uint8_t mac[32]) {
    magpie__md_hmac(&magpie__sha256_kind, key, key_size, data, size, mac);
}
