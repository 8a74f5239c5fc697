/* TIFF: recognised by its byte-order mark and 42; the size from the first IFD's ImageWidth and
 * ImageLength tags. */
#include "codec.h"

int magpie__sniff_tiff(const uint8_t *d, size_t n) {
    return magpie__starts(d, n, 0, "II*\0", 4) || magpie__starts(d, n, 0, "MM\0*", 4);
}

int magpie__probe_tiff(magpie__in *in, magpie_info *info, uint32_t frame_cap) {
    (void)frame_cap;
    size_t n;
    const uint8_t *d = magpie__peek_upto(in, 0, 65536, &n);
    if (!d || n < 8) return MAGPIE_OK;
    int le = d[0] == 'I';
#define RD16(q) (le ? magpie__le16(q) : magpie__be16(q))
#define RD32(q) (le ? magpie__le32(q) : magpie__be32(q))
    uint32_t ifd = RD32(d + 4);
    if (ifd < 8 || ifd > n || n - ifd < 2) return MAGPIE_OK;
    uint32_t count = RD16(d + ifd);
    for (size_t i = 0, at = (size_t)ifd + 2; i < count && at + 12 <= n; i++, at += 12) {
        uint32_t tag = RD16(d + at), type = RD16(d + at + 2);
        uint32_t v = type == 3 ? RD16(d + at + 8) : type == 4 ? RD32(d + at + 8) : 0;
        if (tag == 256) info->width = v;
        if (tag == 257) info->height = v;
    }
#undef RD16
#undef RD32
    return MAGPIE_OK;
}
