/* CRC-32 (ISO-HDLC, as zlib and PNG use it), for cache-entry validation. */
#include <zlib.h>

#include "internal.h"

uint32_t magpie_crc32(uint32_t crc, const void *data, size_t size) {
    const unsigned char *p = data;
    uLong c = crc;
    if (!p) return crc;
    while (size > 0) {
        uInt n = size > 0x40000000u ? 0x40000000u : (uInt)size;
        c = crc32(c, p, n);
        p += n;
        size -= n;
    }
    return (uint32_t)c;
}
