/* ICO and CUR: recognised by the ICONDIR header (reserved 0, type 1 or 2, at least one entry) and
 * the first entry's shape. An icon holds several images; Magpie decodes the largest (the most
 * pixels, then the most bits), measured from each entry's own header (a PNG's IHDR, a DIB's
 * header) rather than the directory's byte-sized guesses, and the probe reports that one. */
#include <string.h>

#include "bmp.h"
#include "codec.h"
#include "ico.h"

int magpie__sniff_ico(const uint8_t *d, size_t n) {
    if (n < 22 || d[0] != 0 || d[1] != 0 || (d[2] != 1 && d[2] != 2) || d[3] != 0 || d[9] != 0) return 0;
    uint32_t count = magpie__le16(d + 4);
    if (count == 0) return 0;
    if (d[2] == 1) return magpie__le16(d + 10) <= 1 && magpie__le16(d + 12) <= 32;
    /* A cursor's two middle fields are its hot spot, so its first image's offset is checked too. */
    uint32_t at = magpie__le32(d + 18);
    return at >= 6 + 16 * count && magpie__le32(d + 14) > 0;
}

#define MAGPIE__ICO_MAX_ENTRIES 1024u /* entries looked at; the rest of a longer directory ignored */

int magpie__ico_pick(magpie__in *in, magpie__ico_entry *best) {
    const uint8_t *d = magpie__peek(in, 0, 6);
    if (!d) return MAGPIE_ETRUNCATED;
    uint32_t count = magpie__le16(d + 4), found = 0;
    if (count > MAGPIE__ICO_MAX_ENTRIES) count = MAGPIE__ICO_MAX_ENTRIES;
    int first_error = MAGPIE_ECORRUPT;
    uint64_t best_px = 0;
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *e = magpie__peek(in, 6 + 16 * (uint64_t)i, 16);
        if (!e) {
            first_error = MAGPIE_ETRUNCATED;
            break;
        }
        magpie__ico_entry c;
        memset(&c, 0, sizeof c);
        c.size = magpie__le32(e + 8);
        c.offset = magpie__le32(e + 12);
        if (c.offset < 6 + 16 * (uint64_t)count) continue;
        /* An entry cut off means the icon was: refused, not decoded from a smaller entry. */
        if (c.offset >= in->size || c.size > in->size - c.offset) return MAGPIE_ETRUNCATED;
        const uint8_t *h = magpie__peek(in, c.offset, 8);
        if (h && magpie__starts(h, 8, 0, "\x89PNG\r\n\x1a\n", 8)) {
            const uint8_t *ihdr = magpie__peek(in, c.offset + 16, 10);
            if (!ihdr) continue;
            c.png = 1;
            c.width = magpie__be32(ihdr), c.height = magpie__be32(ihdr + 4);
            c.bits = 32;
        } else {
            const char *why;
            int rc = magpie__bmp_read(in, c.offset, 1, &c.bmp, &why);
            if (rc) {
                if (!found) first_error = rc;
                continue;
            }
            c.width = c.bmp.width, c.height = c.bmp.height, c.bits = c.bmp.bpp;
        }
        if (!c.width || !c.height) continue;
        uint64_t px = (uint64_t)c.width * c.height;
        if (!found || px > best_px || (px == best_px && c.bits > best->bits)) *best = c, best_px = px;
        found = 1;
    }
    if (in->io_error) return MAGPIE_EIO;
    return found ? MAGPIE_OK : first_error;
}

int magpie__probe_ico(magpie__in *in, magpie_info *info, uint32_t frame_cap) {
    (void)frame_cap;
    magpie__ico_entry e;
    int rc = magpie__ico_pick(in, &e);
    if (rc) return rc == MAGPIE_EUNSUPPORTED ? MAGPIE_OK : rc;
    info->width = e.width;
    info->height = e.height;
    info->bit_depth = e.bits < 8 ? e.bits : 8;
    info->components = 4;
    info->flags |= MAGPIE_INFO_HAS_ALPHA; /* an icon's mask or alpha */
    return MAGPIE_OK;
}
