/* MD5 known answers from RFC 1321, appendix A.5, plus block-boundary lengths; SHA-256 and SHA-1
 * from FIPS 180-4's examples, HMAC-SHA-256 from RFC 4231 and HMAC-SHA-1 from RFC 2202. */
#include <stdlib.h>
#include <string.h>

#include "magpie.h"
#include "testutil.h"

static void hex32(const uint8_t d[32], char out[65]) {
    for (int i = 0; i < 32; i++) snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static void test_sha256(void) {
    static const struct { const char *in; size_t repeat_a; const char *hex; } v[] = {
        {"", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"abc", 0, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 0,
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
        /* Lengths around the padding boundaries, against an independent implementation. */
        {NULL, 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"},
        {NULL, 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"},
        {NULL, 63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"},
        {NULL, 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"},
        {NULL, 119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"},
        {NULL, 120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"},
        {NULL, 1000, "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"},
    };
    char as[1000];
    memset(as, 'a', sizeof as);
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        uint8_t d[32];
        char hex[65];
        const char *in = v[i].in ? v[i].in : as;
        magpie_sha256(in, v[i].in ? strlen(in) : v[i].repeat_a, d);
        hex32(d, hex);
        CHECK(strcmp(hex, v[i].hex) == 0, "sha256 case %zu = %s", i, hex);
    }
    uint8_t key1[20], key6[131];
    memset(key1, 0x0b, sizeof key1);
    memset(key6, 0xaa, sizeof key6);
    static const char *data6 = "Test Using Larger Than Block-Size Key - Hash Key First";
    static const char *jefe = "what do ya want for nothing?";
    uint8_t mac[32];
    char hex[65];
    magpie_hmac_sha256(key1, sizeof key1, "Hi There", 8, mac);
    hex32(mac, hex);
    CHECK(strcmp(hex, "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7") == 0, "RFC 4231 1: %s", hex);
    magpie_hmac_sha256("Jefe", 4, jefe, strlen(jefe), mac);
    hex32(mac, hex);
    CHECK(strcmp(hex, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843") == 0, "RFC 4231 2: %s", hex);
    magpie_hmac_sha256(key6, sizeof key6, data6, strlen(data6), mac);
    hex32(mac, hex);
    CHECK(strcmp(hex, "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54") == 0, "RFC 4231 6: %s", hex);
}

static void test_sha1(void) {
    static const struct { const char *in; size_t repeat_a; const char *hex; } v[] = {
        {"", 0, "da39a3ee5e6b4b0d3255bfef95601890afd80709"},
        {"abc", 0, "a9993e364706816aba3e25717850c26c9cd0d89d"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 0, "84983e441c3bd26ebaae4aa1f95129e5e54670f1"},
        /* Lengths around the padding boundaries, against an independent implementation. */
        {NULL, 55, "c1c8bbdc22796e28c0e15163d20899b65621d65a"},
        {NULL, 56, "c2db330f6083854c99d4b5bfb6e8f29f201be699"},
        {NULL, 63, "03f09f5b158a7a8cdad920bddc29b81c18a551f5"},
        {NULL, 64, "0098ba824b5c16427bd7a1122a5a442a25ec644d"},
        {NULL, 119, "ee971065aaa017e0632a8ca6c77bb3bf8b1dfc56"},
        {NULL, 120, "f34c1488385346a55709ba056ddd08280dd4c6d6"},
        {NULL, 1000, "291e9a6c66994949b57ba5e650361e98fc36b1ba"},
    };
    char as[1000], hex[41];
    memset(as, 'a', sizeof as);
    uint8_t d[20];
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        const char *in = v[i].in ? v[i].in : as;
        magpie_sha1(in, v[i].in ? strlen(in) : v[i].repeat_a, d);
        for (int j = 0; j < 20; j++) snprintf(hex + 2 * j, 3, "%02x", d[j]);
        CHECK(strcmp(hex, v[i].hex) == 0, "sha1 case %zu = %s", i, hex);
    }
    uint8_t key1[20], key6[80];
    memset(key1, 0x0b, sizeof key1);
    memset(key6, 0xaa, sizeof key6);
    static const struct { const void *key; size_t key_size; const char *data, *hex; } h[] = {
        {NULL, 20, "Hi There", "b617318655057264e28bc0b6fb378c8ef146be00"},
        {"Jefe", 4, "what do ya want for nothing?", "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"},
        {NULL, 80, "Test Using Larger Than Block-Size Key - Hash Key First", "aa4ae5e15272d00e95705637ce8a3b55ed402112"},
    };
    for (size_t i = 0; i < sizeof h / sizeof *h; i++) {
        const void *key = h[i].key ? h[i].key : (h[i].key_size == 20 ? (const void *)key1 : (const void *)key6);
        magpie_hmac_sha1(key, h[i].key_size, h[i].data, strlen(h[i].data), d);
        for (int j = 0; j < 20; j++) snprintf(hex + 2 * j, 3, "%02x", d[j]);
        CHECK(strcmp(hex, h[i].hex) == 0, "RFC 2202 case %zu: %s", i, hex);
    }
}

int main(void) {
    test_sha256();
    test_sha1();
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
