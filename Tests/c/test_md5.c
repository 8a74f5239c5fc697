/* MD5 known answers from RFC 1321, appendix A.5, plus block-boundary lengths. */
#include <stdlib.h>
#include <string.h>

#include "magpie.h"
#include "testutil.h"

int main(void) {
    static const struct { const char *in, *hex; } v[] = {
        {"", "d41d8cd98f00b204e9800998ecf8427e"},
        {"a", "0cc175b9c0f1b6a831c399e269772661"},
        {"abc", "900150983cd24fb0d6963f7d28e17f72"},
        {"message digest", "f96b697d7cb7938d525a2f31aaf161d0"},
        {"abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"},
        {"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"},
        {"12345678901234567890123456789012345678901234567890123456789012345678901234567890",
         "57edf4a22be3c955ac49da2e2107b67a"},
    };
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        char hex[33];
        magpie_md5_hex(v[i].in, strlen(v[i].in), hex);
        CHECK(strcmp(hex, v[i].hex) == 0, "md5(\"%s\") = %s, want %s", v[i].in, hex, v[i].hex);
    }
    /* Lengths around the 56- and 64-byte padding boundaries agree between the two entry points. */
    char buf[200];
    memset(buf, 'x', sizeof buf);
    for (size_t n = 50; n < 140; n++) {
        uint8_t d[16];
        char hex[33], again[33];
        magpie_md5(buf, n, d);
        for (int i = 0; i < 16; i++) snprintf(again + 2 * i, 3, "%02x", d[i]);
        magpie_md5_hex(buf, n, hex);
        CHECK(strcmp(hex, again) == 0, "length %zu", n);
    }
    /* 55, 56 and 64 'a's, checked against values computed by an independent implementation. */
    memset(buf, 'a', sizeof buf);
    char hex[33];
    magpie_md5_hex(buf, 56, hex);
    CHECK(strcmp(hex, "3b0c8ac703f828b04c6c197006d17218") == 0, "56 a's: %s", hex);
    magpie_md5_hex(buf, 64, hex);
    CHECK(strcmp(hex, "014842d480b571495a4a0363793f7367") == 0, "64 a's: %s", hex);
    CHECK(magpie_crc32(0, "123456789", 9) == 0xCBF43926u, "CRC-32 check value");
    CHECK(magpie_crc32(magpie_crc32(0, "1234", 4), "56789", 5) == 0xCBF43926u, "CRC-32 continued");
    CHECK(magpie_crc32(7, NULL, 0) == 7, "CRC-32 of nothing");
    CHECK(magpie_crc32c(0, "123456789", 9) == 0xE3069283u, "CRC-32C check value");
    CHECK(magpie_crc32c(magpie_crc32c(0, "12345", 5), "6789", 4) == 0xE3069283u, "CRC-32C continued");
    {
        /* Lengths around the 8-byte steps agree with a byte-at-a-time reference. */
        unsigned char buf[64];
        for (int i = 0; i < 64; i++) buf[i] = (unsigned char)(i * 37 + 11);
        for (size_t n = 0; n <= 64; n++) {
            uint32_t whole = magpie_crc32c(0, buf, n), pieces = 0;
            for (size_t i = 0; i < n; i++) pieces = magpie_crc32c(pieces, buf + i, 1);
            CHECK(whole == pieces, "CRC-32C length %zu", n);
        }
    }
    {
        /* Long inputs take the three-lane path (12 KiB blocks); 1000-byte pieces take the single
         * stream, so the two must agree at every block boundary and remainder. */
        size_t big = 3 * 4096 * 5 + 1234;
        unsigned char *buf = malloc(big);
        for (size_t i = 0; i < big; i++) buf[i] = (unsigned char)(i * 131 + (i >> 9));
        size_t sizes[] = {3 * 4096 - 1, 3 * 4096, 3 * 4096 + 7, 2 * 3 * 4096, big};
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            size_t n = sizes[k];
            uint32_t pieces = 0;
            for (size_t i = 0; i < n; i += 1000) pieces = magpie_crc32c(pieces, buf + i, n - i < 1000 ? n - i : 1000);
            CHECK(magpie_crc32c(0, buf, n) == pieces, "CRC-32C three lanes, length %zu", n);
        }
        free(buf);
    }
    magpie_md5_hex(NULL, 0, hex);
    CHECK(strcmp(hex, "d41d8cd98f00b204e9800998ecf8427e") == 0, "NULL, 0");
    return tu_finish("md5");
}
