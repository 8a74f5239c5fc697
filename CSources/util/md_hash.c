/* The block buffering, padding and HMAC that SHA-1 and SHA-256 share (util/md_hash.h). */
#include "util/md_hash.h"

#include <string.h>

void magpie__md_init(magpie__md *s, const magpie__md_kind *kind) {
    s->kind = kind;
    memset(s->h, 0, sizeof s->h);
    memcpy(s->h, kind->iv, (size_t)kind->words * sizeof(uint32_t));
    s->used = 0;
    s->total = 0;
}

void magpie__md_update(magpie__md *s, const uint8_t *p, size_t n) {
    s->total += n;
    if (s->used) {
        size_t take = 64 - s->used < n ? 64 - s->used : n;
        memcpy(s->block + s->used, p, take);
        s->used += take;
        p += take;
        n -= take;
        if (s->used < 64) return;
        s->kind->compress(s->h, s->block);
        s->used = 0;
    }
    for (; n >= 64; p += 64, n -= 64) s->kind->compress(s->h, p);
    if (n) memcpy(s->block, p, n);
    s->used = n;
}

void magpie__md_final(magpie__md *s, uint8_t *out) {
    uint64_t bits = s->total * 8;
    uint8_t pad[72] = {0x80};
    size_t padding = (s->used < 56 ? 56 : 120) - s->used;
    for (int i = 0; i < 8; i++) pad[padding + (size_t)i] = (uint8_t)(bits >> (56 - 8 * i));
    magpie__md_update(s, pad, padding + 8);
    for (int i = 0; i < s->kind->words; i++) {
        out[4 * i] = (uint8_t)(s->h[i] >> 24);
        out[4 * i + 1] = (uint8_t)(s->h[i] >> 16);
        out[4 * i + 2] = (uint8_t)(s->h[i] >> 8);
        out[4 * i + 3] = (uint8_t)s->h[i];
    }
}

void magpie__md_digest(const magpie__md_kind *kind, const void *data, size_t size, uint8_t *out) {
    magpie__md s;
    magpie__md_init(&s, kind);
    if (size) magpie__md_update(&s, data, size);
    magpie__md_final(&s, out);
}

void magpie__md_hmac(const magpie__md_kind *kind, const void *key, size_t key_size, const void *data, size_t size,
                     uint8_t *mac) {
    uint8_t k[64] = {0};
    size_t out_size = (size_t)kind->words * 4;
    if (key_size > 64) magpie__md_digest(kind, key, key_size, k);
    else if (key_size) memcpy(k, key, key_size);
    uint8_t pad[64], inner[32];
    magpie__md s;
    for (int i = 0; i < 64; i++) pad[i] = k[i] ^ 0x36;
    magpie__md_init(&s, kind);
    magpie__md_update(&s, pad, 64);
    if (size) magpie__md_update(&s, data, size);
    magpie__md_final(&s, inner);
    for (int i = 0; i < 64; i++) pad[i] = k[i] ^ 0x5c;
    magpie__md_init(&s, kind);
    magpie__md_update(&s, pad, 64);
    magpie__md_update(&s, inner, out_size);
    magpie__md_final(&s, mac);
}
