/* BMP: recognised by its file header and a DIB header of a known size; the size and depth from
 * the DIB header. */
#include "codec.h"

int magpie__sniff_bmp(const uint8_t *d, size_t n) {
    if (n < 18 || d[0] != 'B' || d[1] != 'M') return 0;
    /* BITMAPFILEHEADER then a DIB header whose size is one of the known ones. */
    uint32_t dib = magpie__le32(d + 14);
    return magpie__le32(d + 6) == 0 && (dib == 12 || dib == 16 || dib == 40 || dib == 52 || dib == 56 ||
                                        dib == 64 || dib == 108 || dib == 124);
}

int magpie__probe_bmp(magpie__in *in, magpie_info *info, uint32_t frame_cap) {
    (void)frame_cap;
    size_t n;
    const uint8_t *d = magpie__peek_upto(in, 0, 65536, &n);
    if (!d || n < 18) return MAGPIE_OK;
    uint32_t dib = magpie__le32(d + 14);
    if (dib == 12 && n >= 26) {
        info->width = magpie__le16(d + 18);
        info->height = magpie__le16(d + 20);
        info->bit_depth = magpie__le16(d + 24);
    } else if (dib >= 16 && n >= 30) {
        int32_t w = (int32_t)magpie__le32(d + 18), h = (int32_t)magpie__le32(d + 22);
        info->width = w < 0 ? 0 : (uint32_t)w;
        info->height = h == INT32_MIN ? 0 : (uint32_t)(h < 0 ? -h : h);
        info->bit_depth = magpie__le16(d + 28);
    }
    return MAGPIE_OK;
}
