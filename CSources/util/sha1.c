/* SHA-1 (FIPS 180-4) and HMAC-SHA-1 (RFC 2104), written from the specifications. thumbor signs
 * its URLs with HMAC-SHA-1 (libthumbor's base64_hmac_sha1 signer), so the service checks them
 * with it; SHA-1 is used for nothing else here. */
#include <string.h>

#include "internal.h"
#include "util/md_hash.h"

#define MAGPIE_ROTL(x, n) (((x) << (n)) | ((x) >> (32 - (n))))

static void magpie__sha1_block(uint32_t h[8], const uint8_t *p) {
    uint32_t w[80];
    for (int i = 0; i < 16; i++) w[i] = magpie__be32(p + 4 * i);
    for (int i = 16; i < 80; i++) w[i] = MAGPIE_ROTL(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
    for (int i = 0; i < 80; i++) {
        uint32_t f, k;
        if (i < 20) {
            f = (b & c) | (~b & d);
            k = 0x5a827999u;
        } else if (i < 40) {
            f = b ^ c ^ d;
            k = 0x6ed9eba1u;
        } else if (i < 60) {
            f = (b & c) | (b & d) | (c & d);
            k = 0x8f1bbcdcu;
        } else {
            f = b ^ c ^ d;
            k = 0xca62c1d6u;
        }
        uint32_t t = MAGPIE_ROTL(a, 5) + f + e + k + w[i];
        e = d;
        d = c;
        c = MAGPIE_ROTL(b, 30);
        b = a;
        a = t;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
}

static const uint32_t magpie__sha1_iv[5] = {0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u, 0xc3d2e1f0u};
static const magpie__md_kind magpie__sha1_kind = {magpie__sha1_block, magpie__sha1_iv, 5};

void magpie_sha1(const void *data, size_t size, uint8_t digest[20]) {
    magpie__md_digest(&magpie__sha1_kind, data, size, digest);
}

void magpie_hmac_sha1(const void *key, size_t key_size, const void *data, size_t size, uint8_t mac[20]) {
    magpie__md_hmac(&magpie__sha1_kind, key, key_size, data, size, mac);
}
