/* ICO and CUR: recognised by the ICONDIR header (reserved 0, type 1 or 2, at least one entry) and
 * the first entry's shape. An icon holds several images; Magpie decodes the largest (the most
 * pixels, then the most bits), measured from each entry's own header (a PNG's IHDR, a DIB's
 * header) rather than the directory's byte-sized guesses, and the probe reports that one. */
#include "core/codec.h"
#include "codecs/ico/ico.h"

int magpie__sniff_ico(const uint8_t *d, size_t n) {
    if (n < 22 || d[0] != 0 || d[1] != 0 || (d[2] != 1 && d[2] != 2) || d[3] != 0 || d[9] != 0) return 0;
    uint32_t count = magpie__le16(d + 4);
    if (count == 0) return 0;
    if (d[2] == 1) return magpie__le16(d + 10) <= 1 && magpie__le16(d + 12) <= 32;
    /* A cursor's two middle fields are its hot spot, so its first image's offset is checked too. */
    uint32_t at = magpie__le32(d + 18);
    return at >= 6 + 16 * count && magpie__le32(d + 14) > 0;
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
