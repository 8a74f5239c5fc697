/* A BMP's DIB header: every header Windows and OS/2 wrote (core, info, V2 to V5, OS/2 2.x) read
 * into one description that the probe (probe_bmp.c, probe_ico.c) and the decoders (bmp.c, ico.c)
 * share, checked before a pixel is read. */
#include <string.h>

#include "codecs/bmp/bmp.h"

/* Whether a mask's set bits are one run (an empty mask is: that channel reads as 0). */
static int magpie__bmp_mask_ok(uint32_t m) {
    if (!m) return 1;
    uint32_t v = m >> __builtin_ctz(m);
    return (v & (v + 1)) == 0;
}

int magpie__bmp_read(magpie__in *in, uint64_t dib_at, int ico, magpie__bmp *b, const char **why) {
    static const char *none = "";
    *why = none;
    memset(b, 0, sizeof *b);
    const uint8_t *d = magpie__peek(in, dib_at, 4);
    if (!d) return MAGPIE_ETRUNCATED;
    uint32_t size = magpie__le32(d);
    if (size != 12 && (size < 16 || size > 4096)) {
        *why = "DIB header size is not one BMP has";
        return MAGPIE_ECORRUPT;
    }
    size_t want = size < 56 ? size : 56;
    if (size >= 124) want = 124;
    if (!(d = magpie__peek(in, dib_at, want))) return MAGPIE_ETRUNCATED;
    int64_t w, h;
    uint32_t palette_entry = 4, used = 0;
    b->ico = ico;
    if (size == 12) {
        w = magpie__le16(d + 4), h = magpie__le16(d + 6), b->bpp = magpie__le16(d + 10);
        palette_entry = 3;
    } else {
        w = (int32_t)magpie__le32(d + 4), h = (int32_t)magpie__le32(d + 8), b->bpp = magpie__le16(d + 14);
        b->compression = size >= 20 ? magpie__le32(d + 16) : 0;
        used = size >= 36 ? magpie__le32(d + 32) : 0;
    }
    if (h < 0) b->top_down = 1, h = -h;
    if (ico) h /= 2; /* the colour rows, then the AND mask's */
    if (w <= 0 || h <= 0) {
        *why = "zero or negative width or height";
        return MAGPIE_ECORRUPT;
    }
    b->width = (uint32_t)w, b->height = (uint32_t)h;
    if (size == 16 || size == 64) { /* OS/2 2.x: 3 is Huffman 1D, 4 RLE24 */
        if (b->compression >= 3) {
            *why = "OS/2 Huffman and RLE24 bitmaps are not decoded";
            return MAGPIE_EUNSUPPORTED;
        }
    } else if (b->compression == 4 || b->compression == 5) {
        *why = b->compression == 4 ? "BMP with an embedded JPEG is not decoded" : "BMP with an embedded PNG is not decoded";
        return MAGPIE_EUNSUPPORTED;
    }
    uint32_t bpp = b->bpp, comp = b->compression;
    if (bpp == 64) {
        *why = "64-bit BMP is not decoded";
        return MAGPIE_EUNSUPPORTED;
    }
    int depth_ok = bpp == 1 || bpp == 2 || bpp == 4 || bpp == 8 || bpp == 16 || bpp == 24 || bpp == 32;
    int fields = comp == MAGPIE__BMP_BITFIELDS || comp == 6; /* 6: ALPHABITFIELDS */
    if (!depth_ok || comp > 6 || (comp == MAGPIE__BMP_RLE8 && bpp != 8) || (comp == MAGPIE__BMP_RLE4 && bpp != 4) ||
        (fields && bpp != 16 && bpp != 32) || ((comp == 1 || comp == 2) && b->top_down)) {
        *why = "bit depth and compression do not go together";
        return MAGPIE_ECORRUPT;
    }
    uint64_t after = dib_at + size; /* the colour table, after the masks that follow a short header */
    if (fields) {
        uint32_t count = comp == 6 ? 4 : 3;
        const uint8_t *m = size >= 40 + 4 * count ? d + 40 : magpie__peek(in, after, 4 * count);
        if (!m) return MAGPIE_ETRUNCATED;
        for (uint32_t i = 0; i < count; i++) b->masks[i] = magpie__le32(m + 4 * i);
        if (size >= 56) b->masks[3] = magpie__le32(d + 52);
        if (size < 40 + 4 * count) after += 4 * count;
        b->compression = MAGPIE__BMP_BITFIELDS;
        for (int i = 0; i < 4; i++)
            if (!magpie__bmp_mask_ok(b->masks[i])) {
                *why = "a bit-field mask is not one run of bits";
                return MAGPIE_ECORRUPT;
            }
    } else if (bpp == 16) {
        b->masks[0] = 0x7C00, b->masks[1] = 0x03E0, b->masks[2] = 0x001F;
    } else if (bpp == 32) {
        /* BI_RGB's fourth byte is padding by the letter of the format; browsers read it as alpha
         * unless every pixel's is 0 (bmp.c), and so does Magpie. */
        b->masks[0] = 0xFF0000, b->masks[1] = 0xFF00, b->masks[2] = 0xFF, b->masks[3] = 0xFF000000u;
    }
    if (bpp <= 8) {
        uint32_t full = 1u << bpp;
        b->palette_count = used && used < full ? used : full;
    } else if (used <= (1u << 16)) {
        after += (uint64_t)used * palette_entry; /* a colour table a true-colour image may carry */
    }
    b->palette_at = after;
    b->palette_entry = palette_entry;
    b->stride = (((uint64_t)b->width * bpp + 31) / 32) * 4;
    if (size >= 124 && magpie__le32(d + 56) == 0x4D424544u) { /* 'MBED'; a 'LINK'ed file is never read */
        b->profile_at = dib_at + magpie__le32(d + 112);
        b->profile_size = magpie__le32(d + 116);
    }
    if (ico) {
        b->pixels_at = after + (uint64_t)b->palette_count * palette_entry;
    } else {
        const uint8_t *f = magpie__peek(in, 10, 4);
        if (!f) return MAGPIE_ETRUNCATED;
        b->pixels_at = magpie__le32(f);
        if (b->pixels_at < dib_at + size) {
            *why = "pixel data starts inside the headers";
            return MAGPIE_ECORRUPT;
        }
    }
    return MAGPIE_OK;
}
