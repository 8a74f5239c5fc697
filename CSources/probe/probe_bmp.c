/* BMP: recognised by its file header and a DIB header of a known size; probed through the DIB
 * header reader the decoder uses (codecs/bmp/bmp_header.c). */
#include "codecs/bmp/bmp.h"
#include "core/codec.h"

int magpie__sniff_bmp(const uint8_t *d, size_t n) {
    if (n < 18 || d[0] != 'B' || d[1] != 'M') return 0;
    /* BITMAPFILEHEADER then a DIB header whose size is one of the known ones. */
    uint32_t dib = magpie__le32(d + 14);
    return magpie__le32(d + 6) == 0 && (dib == 12 || dib == 16 || dib == 40 || dib == 52 || dib == 56 ||
                                        dib == 64 || dib == 108 || dib == 124);
}

int magpie__probe_bmp(magpie__in *in, magpie_info *info, uint32_t frame_cap) {
    (void)frame_cap;
    magpie__bmp b;
    const char *why;
    int rc = magpie__bmp_read(in, 14, 0, &b, &why);
    if (rc && rc != MAGPIE_EUNSUPPORTED) return in->io_error ? MAGPIE_EIO : rc;
    info->width = b.width;
    info->height = b.height;
    if (rc) return MAGPIE_OK; /* the format and size are known; the decoder says why it cannot */
    info->bit_depth = b.bpp < 8 ? b.bpp : 8;
    info->components = b.masks[3] ? 4 : 3;
    /* RLE can skip pixels, which stay transparent. */
    if (b.masks[3] || b.compression == MAGPIE__BMP_RLE8 || b.compression == MAGPIE__BMP_RLE4)
        info->flags |= MAGPIE_INFO_HAS_ALPHA;
    return MAGPIE_OK;
}
