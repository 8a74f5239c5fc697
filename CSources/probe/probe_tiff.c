/* TIFF: recognised by its byte-order mark and 42; each page's (IFD's) size, orientation, depth and
 * alpha, read wherever in the file the IFD is (writers often put it after the pixels), and the
 * pages counted along the IFD chain. */
#include "core/codec.h"

int magpie__sniff_tiff(const uint8_t *d, size_t n) {
    return magpie__starts(d, n, 0, "II*\0", 4) || magpie__starts(d, n, 0, "MM\0*", 4);
}

#define MAGPIE__TIFF_MAX_TAGS 4096u   /* entries in an IFD; a longer one is corrupt */
#define MAGPIE__TIFF_MAX_PAGES 10000u /* pages counted; a longer chain (or a loop) stops there */

#define RD16(q) (le ? magpie__le16(q) : magpie__be16(q))
#define RD32(q) (le ? magpie__le32(q) : magpie__be32(q))

/* Reads the IFD at `at` into `info` (size, orientation, depth, samples, alpha); `*next` is the
 * offset of the next IFD (0: the last). */
static int magpie__tiff_ifd(magpie__in *in, int le, uint64_t at, magpie_info *info, uint64_t *next) {
    const uint8_t *d;
    if (at < 8) return MAGPIE_ECORRUPT;
    if (!(d = magpie__peek(in, at, 2))) return in->io_error ? MAGPIE_EIO : MAGPIE_ETRUNCATED;
    uint32_t count = RD16(d);
    if (count == 0 || count > MAGPIE__TIFF_MAX_TAGS) return MAGPIE_ECORRUPT;
    if (!(d = magpie__peek(in, at + 2, (size_t)count * 12 + 4))) return in->io_error ? MAGPIE_EIO : MAGPIE_ETRUNCATED;
    uint32_t samples = 1;
    info->width = info->height = 0, info->orientation = 1, info->bit_depth = 0, info->flags = 0;
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
    info->components = samples;
    *next = RD32(d + (size_t)count * 12);
    return info->width && info->height ? MAGPIE_OK : MAGPIE_ECORRUPT;
}

int magpie__probe_tiff(magpie__in *in, magpie_info *info, uint32_t frame_cap) {
    const uint8_t *d = magpie__peek(in, 0, 8);
    if (!d) return in->io_error ? MAGPIE_EIO : MAGPIE_ETRUNCATED;
    int le = d[0] == 'I';
    uint64_t next;
    int rc = magpie__tiff_ifd(in, le, RD32(d + 4), info, &next);
    if (rc) return rc;
    /* The pages after the first: counted, not read (a cut or bad chain ends the count). */
    uint32_t pages = 1, cap = frame_cap < MAGPIE__TIFF_MAX_PAGES ? frame_cap : MAGPIE__TIFF_MAX_PAGES;
    while (next >= 8 && pages < cap) {
        const uint8_t *h = magpie__peek(in, next, 2);
        uint32_t count = h ? RD16(h) : 0;
        const uint8_t *t = count ? magpie__peek(in, next + 2 + (uint64_t)count * 12, 4) : NULL;
        if (!t) break;
        pages++;
        next = RD32(t);
    }
    info->frames = pages;
    return MAGPIE_OK;
}

int magpie__page_tiff(magpie__in *in, uint32_t page, magpie_info *info) {
    const uint8_t *d = magpie__peek(in, 0, 8);
    if (!d) return in->io_error ? MAGPIE_EIO : MAGPIE_ETRUNCATED;
    int le = d[0] == 'I';
    uint64_t at = RD32(d + 4), next = 0;
    uint32_t frames = info->frames;
    for (uint32_t i = 0; i <= page; i++) {
        int rc = magpie__tiff_ifd(in, le, at, info, &next);
        if (rc) return rc;
        at = next;
        if (i < page && at < 8) return MAGPIE_ECORRUPT;
    }
    info->frames = frames;
    return MAGPIE_OK;
}
#undef RD16
#undef RD32
