/* TIFF: recognised by its byte-order mark and 42; the first IFD's size, orientation, depth and
 * alpha, read wherever in the file the IFD is (writers often put it after the pixels). */
#include "codec.h"

int magpie__sniff_tiff(const uint8_t *d, size_t n) {
    return magpie__starts(d, n, 0, "II*\0", 4) || magpie__starts(d, n, 0, "MM\0*", 4);
}

#define MAGPIE__TIFF_MAX_TAGS 4096u /* entries read from the IFD; a longer one is corrupt */

int magpie__probe_tiff(magpie__in *in, magpie_info *info, uint32_t frame_cap) {
    (void)frame_cap;
    const uint8_t *d = magpie__peek(in, 0, 8);
    if (!d) return in->io_error ? MAGPIE_EIO : MAGPIE_ETRUNCATED;
    int le = d[0] == 'I';
#define RD16(q) (le ? magpie__le16(q) : magpie__be16(q))
#define RD32(q) (le ? magpie__le32(q) : magpie__be32(q))
    uint32_t ifd = RD32(d + 4);
    if (ifd < 8) return MAGPIE_ECORRUPT;
    if (!(d = magpie__peek(in, ifd, 2))) return in->io_error ? MAGPIE_EIO : MAGPIE_ETRUNCATED;
    uint32_t count = RD16(d);
    if (count == 0 || count > MAGPIE__TIFF_MAX_TAGS) return MAGPIE_ECORRUPT;
    if (!(d = magpie__peek(in, (uint64_t)ifd + 2, (size_t)count * 12)))
        return in->io_error ? MAGPIE_EIO : MAGPIE_ETRUNCATED;
    uint32_t samples = 1;
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *e = d + (size_t)i * 12;
        uint32_t tag = RD16(e), type = RD16(e + 2), n = RD32(e + 4);
        uint32_t v = type == 3 ? RD16(e + 8) : type == 4 ? RD32(e + 8) : 0;
        switch (tag) {
        case 256: info->width = v; break;
        case 257: info->height = v; break;
        case 258: info->bit_depth = type == 3 && n <= 2 ? v : 8; break; /* several samples: at an offset */
        case 274: info->orientation = v >= 1 && v <= 8 ? v : 1; break;
        case 277: samples = v; break;
        case 338: info->flags |= MAGPIE_INFO_HAS_ALPHA; break; /* ExtraSamples */
        default: break;
        }
    }
#undef RD16
#undef RD32
    info->components = samples;
    if (!info->width || !info->height) return MAGPIE_ECORRUPT;
    return MAGPIE_OK;
}
