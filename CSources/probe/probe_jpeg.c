/* JPEG probing: the marker walk to the frame header, and the EXIF orientation (with the TIFF
 * reader WebP's and AVIF's EXIF blocks share). */
#include <string.h>

#include "core/codec.h"

/* ---- JPEG ---- */

/* Reads the orientation tag from a TIFF structure (an EXIF block). Returns 1..8, or 1. */
uint32_t magpie__tiff_orientation(const uint8_t *t, size_t tn) {
    if (tn < 8) return 1;
    int le;
    if (t[0] == 'I' && t[1] == 'I') le = 1;
    else if (t[0] == 'M' && t[1] == 'M') le = 0;
    else return 1;
#define RD16(q) (le ? magpie__le16(q) : magpie__be16(q))
#define RD32(q) (le ? magpie__le32(q) : magpie__be32(q))
    if (RD16(t + 2) != 42) return 1;
    uint32_t ifd = RD32(t + 4);
    if (ifd < 8 || ifd > tn || tn - ifd < 2) return 1;
    uint32_t count = RD16(t + ifd);
    size_t at = (size_t)ifd + 2;
    for (uint32_t i = 0; i < count; i++, at += 12) {
        if (at + 12 > tn) return 1;
        if (RD16(t + at) == 0x0112) {
            uint32_t type = RD16(t + at + 2);
            uint32_t v;
            if (type == 3) v = RD16(t + at + 8);
            else if (type == 4) v = RD32(t + at + 8);
            else return 1;
            return v >= 1 && v <= 8 ? v : 1;
        }
    }
    return 1;
#undef RD16
#undef RD32
}

/* The EXIF orientation of an APP1 payload ("Exif\0\0" + TIFF). */
static uint32_t magpie__exif_orientation(const uint8_t *p, size_t n) {
    if (n < 6 + 8 || memcmp(p, "Exif\0\0", 6) != 0) return 1;
    return magpie__tiff_orientation(p + 6, n - 6);
}

int magpie__sniff_jpeg(const uint8_t *d, size_t n) { return n >= 2 && d[0] == 0xFF && d[1] == 0xD8; /* SOI */ }

int magpie__probe_jpeg(magpie__in *in, magpie_info *info, uint32_t frame_cap) {
    (void)frame_cap;
    uint64_t i = 2, n = in->size;
    int have_sof = 0, have_exif = 0;
    const uint8_t *p;
    info->orientation = 1;
    info->frames = 1;
    while (i < n) {
        /* Extraneous bytes before a marker are tolerated, as libjpeg does: find the next 0xFF. */
        size_t got;
        while ((p = magpie__peek_upto(in, i, 4096, &got)) != NULL && p[0] != 0xFF) {
            const uint8_t *ff = memchr(p, 0xFF, got);
            i += ff ? (uint64_t)(ff - p) : got;
        }
        while ((p = magpie__peek(in, i, 1)) != NULL && p[0] == 0xFF) i++;
        if (!p) break;
        uint8_t m = p[0];
        i++;
        if (m == 0xD8 || m == 0x01 || (m >= 0xD0 && m <= 0xD7) || m == 0x00) continue;
        if (m == 0xD9) break;
        if (!(p = magpie__peek(in, i, 2))) break;
        size_t len = magpie__be16(p);
        if (len < 2) { /* libjpeg skips a bogus length and resynchronises on the next marker */
            i += 2;
            continue;
        }
        size_t seglen = len - 2;
        const uint8_t *seg = magpie__peek(in, i + 2, seglen);
        int complete = seg != NULL;
        if ((m >= 0xC0 && m <= 0xCF) && m != 0xC4 && m != 0xC8 && m != 0xCC) {
            if (!complete || seglen < 6) return have_sof ? MAGPIE_OK : MAGPIE_ETRUNCATED;
            if (!have_sof) {
                info->bit_depth = seg[0];
                info->height = magpie__be16(seg + 1);
                info->width = magpie__be16(seg + 3);
                info->components = seg[5];
                if (m == 0xC2 || m == 0xC6 || m == 0xCA || m == 0xCE) info->flags |= MAGPIE_INFO_PROGRESSIVE;
                have_sof = 1;
            }
        } else if (m == 0xE1 && !have_exif && complete && seglen >= 6 && memcmp(seg, "Exif\0\0", 6) == 0) {
            info->orientation = magpie__exif_orientation(seg, seglen);
            have_exif = 1;
        } else if (m == 0xDA) {
            break;
        }
        if (!complete) break;
        i += len;
    }
    if (in->io_error) return MAGPIE_EIO;
    if (!have_sof) return i >= n ? MAGPIE_ETRUNCATED : MAGPIE_ECORRUPT;
    if (info->width == 0 || info->height == 0) return MAGPIE_ECORRUPT;
    return MAGPIE_OK;
}
