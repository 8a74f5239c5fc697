/* PNG probing: IHDR, the chunks that say alpha, APNG's frame count, and the eXIf chunk's
 * orientation. */
#include <string.h>

#include "core/codec.h"

/* ---- PNG ---- */

int magpie__sniff_png(const uint8_t *d, size_t n) { return magpie__starts(d, n, 0, "\x89PNG\r\n\x1a\n", 8); }

int magpie__probe_png(magpie__in *in, magpie_info *info, uint32_t frame_cap) {
    (void)frame_cap;
    const uint8_t *h = magpie__peek(in, 8, 8 + 13);
    if (!h) return in->io_error ? MAGPIE_EIO : MAGPIE_ETRUNCATED;
    if (magpie__be32(h) != 13 || memcmp(h + 4, "IHDR", 4) != 0) return MAGPIE_ECORRUPT;
    h += 8;
    info->width = magpie__be32(h);
    info->height = magpie__be32(h + 4);
    info->bit_depth = h[8];
    uint32_t ct = h[9];
    uint8_t compression = h[10], filter = h[11], interlace = h[12];
    info->frames = 1;
    if (info->width == 0 || info->height == 0 || info->width > 0x7fffffffu || info->height > 0x7fffffffu)
        return MAGPIE_ECORRUPT;
    uint32_t bd = info->bit_depth;
    int ok;
    switch (ct) {
    case 0: ok = bd == 1 || bd == 2 || bd == 4 || bd == 8 || bd == 16; info->components = 1; break;
    case 2: ok = bd == 8 || bd == 16; info->components = 3; break;
    case 3: ok = bd == 1 || bd == 2 || bd == 4 || bd == 8; info->components = 1; break;
    case 4: ok = bd == 8 || bd == 16; info->components = 2; break;
    case 6: ok = bd == 8 || bd == 16; info->components = 4; break;
    default: ok = 0;
    }
    if (!ok || compression != 0 || filter != 0 || interlace > 1) return MAGPIE_ECORRUPT;
    if (ct == 4 || ct == 6) info->flags |= MAGPIE_INFO_HAS_ALPHA;
    if (interlace == 1) info->flags |= MAGPIE_INFO_INTERLACED;
    /* Walk the chunks before the image data for tRNS and acTL. */
    uint64_t at = 8 + 8 + 13 + 4;
    uint32_t actl = 0;
    int fctl_before_idat = 0;
    const uint8_t *c;
    while ((c = magpie__peek(in, at, 12)) != NULL) {
        uint32_t len = magpie__be32(c);
        const uint8_t *type = c + 4;
        if (len > 0x7fffffffu) break;
        if (memcmp(type, "IDAT", 4) == 0 || memcmp(type, "IEND", 4) == 0) break;
        if (memcmp(type, "tRNS", 4) == 0) info->flags |= MAGPIE_INFO_HAS_ALPHA;
        if (memcmp(type, "fcTL", 4) == 0) fctl_before_idat = 1;
        if (memcmp(type, "acTL", 4) == 0 && len >= 8) actl = magpie__be32(c + 8);
        if (memcmp(type, "eXIf", 4) == 0 && len >= 8) {
            /* A TIFF structure (PNG 1.5's extension; browsers and libvips read it before IDAT, as
             * here). IFD0's orientation tag sits near its start: 64 KiB is plenty. */
            size_t n = len < 65536 ? (size_t)len : 65536;
            const uint8_t *e = magpie__peek(in, at + 8, n);
            if (e) {
                /* Some writers keep JPEG's "Exif\0\0" prefix. */
                if (n >= 6 && memcmp(e, "Exif\0\0", 6) == 0) info->orientation = magpie__tiff_orientation(e + 6, n - 6);
                else info->orientation = magpie__tiff_orientation(e, n);
            }
        }
        at += (uint64_t)len + 12;
    }
    /* APNG: the declared frames, plus the default image when it is not the first frame. A count
     * over 2^31 - 1 is invalid and ignored. */
    if (actl >= 1 && actl <= 0x7fffffffu) info->frames = actl + (fctl_before_idat ? 0 : 1);
    if (info->frames > 1) info->flags |= MAGPIE_INFO_ANIMATED;
    return MAGPIE_OK;
}
