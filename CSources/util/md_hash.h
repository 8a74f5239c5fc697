/* What SHA-1 and SHA-256 share (FIPS 180-4 section 5 and 6): 64-byte blocks, the message padded
 * with 0x80, zeros and its bit length, big-endian words out; and HMAC over either (RFC 2104). Each
 * hash gives its compression function, its initial words and how many of them it outputs. */
#ifndef MAGPIE_UTIL_MD_HASH_H
#define MAGPIE_UTIL_MD_HASH_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    void (*compress)(uint32_t h[8], const uint8_t block[64]);
    const uint32_t *iv;
    int words; /* output words: 5 for SHA-1, 8 for SHA-256 */
} magpie__md_kind;

typedef struct {
    const magpie__md_kind *kind;
    uint32_t h[8];
    uint8_t block[64];
    size_t used;    /* bytes in block */
    uint64_t total; /* bytes hashed */
} magpie__md;

void magpie__md_init(magpie__md *s, const magpie__md_kind *kind);
void magpie__md_update(magpie__md *s, const uint8_t *p, size_t n);
/* Writes kind->words * 4 bytes. */
void magpie__md_final(magpie__md *s, uint8_t *out);
/* The digest of `size` bytes (`data` may be NULL when `size` is 0). */
void magpie__md_digest(const magpie__md_kind *kind, const void *data, size_t size, uint8_t *out);
/* HMAC under `key` (hashed first when over 64 bytes); `mac` takes kind->words * 4 bytes. */
void magpie__md_hmac(const magpie__md_kind *kind, const void *key, size_t key_size, const void *data, size_t size,
                     uint8_t *mac);

#endif
