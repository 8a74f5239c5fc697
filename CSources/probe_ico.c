/* ICO: recognised by its ICONDIR header (reserved 0, type 1, at least one entry) and its first
 * entry's shape; the size is the first entry's (0 meaning 256). */
#include "codec.h"

int magpie__sniff_ico(const uint8_t *d, size_t n) {
    return n >= 22 && d[0] == 0 && d[1] == 0 && d[2] == 1 && d[3] == 0 && magpie__le16(d + 4) > 0 && d[9] == 0 &&
           (magpie__le16(d + 10) <= 1) && (magpie__le16(d + 12) <= 32 || magpie__le16(d + 12) == 0);
}

int magpie__probe_ico(magpie__in *in, magpie_info *info, uint32_t frame_cap) {
    (void)frame_cap;
    const uint8_t *d = magpie__peek(in, 0, 8);
    if (!d) return MAGPIE_OK;
    info->width = d[6] ? d[6] : 256;
    info->height = d[7] ? d[7] : 256;
    return MAGPIE_OK;
}
