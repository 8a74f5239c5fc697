/* WebP probing: a walk over the RIFF chunks (headers only, through the input window, no
 * allocation). Simple files hold one VP8 (lossy) or VP8L (lossless) chunk; extended files start
 * with VP8X (canvas size and flags) and may hold ANIM/ANMF (animation), ALPH, ICCP, EXIF, XMP. */
#include <string.h>

#include "core/codec.h"

static uint32_t magpie__le24(const uint8_t *p) { return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16; }

/* Size of a VP8 (lossy) key frame: 10 bytes of frame header. 0 when it is not a key frame. */
static int magpie__vp8_size(const uint8_t *p, size_t n, uint32_t *w, uint32_t *h) {
    if (n < 10 || (p[0] & 1) || p[3] != 0x9d || p[4] != 0x01 || p[5] != 0x2a) return 0;
    *w = magpie__le16(p + 6) & 0x3fff;
    *h = magpie__le16(p + 8) & 0x3fff;
    return 1;
}

/* Size of a VP8L (lossless) bitstream: signature 0x2f, then 14 + 14 bits, alpha hint, version. */
static int magpie__vp8l_size(const uint8_t *p, size_t n, uint32_t *w, uint32_t *h, int *alpha) {
    if (n < 5 || p[0] != 0x2f) return 0;
    uint32_t bits = magpie__le32(p + 1);
    if (bits >> 29) return 0; /* version must be 0 */
    *w = (bits & 0x3fff) + 1;
    *h = ((bits >> 14) & 0x3fff) + 1;
    *alpha = (bits >> 28) & 1;
    return 1;
}

int magpie__sniff_webp(const uint8_t *d, size_t n) {
    return magpie__starts(d, n, 0, "RIFF", 4) && magpie__starts(d, n, 8, "WEBP", 4);
}

int magpie__probe_webp(magpie__in *in, magpie_info *info, uint32_t frame_cap) {
    (void)frame_cap;
    const uint8_t *h = magpie__peek(in, 0, 20);
    if (!h) return in->io_error ? MAGPIE_EIO : MAGPIE_ETRUNCATED;
    info->bit_depth = 8;
    info->components = 3;
    uint64_t end = (uint64_t)magpie__le32(h + 4) + 8;
    if (end > in->size) end = in->size; /* a truncated file: walk what there is */
    uint64_t at = 12;
    int extended = 0, animated = 0, truncated = 0, have_size = 0;
    uint32_t frames = 0;
    while (at + 8 <= end) {
        const uint8_t *c = magpie__peek(in, at, 8);
        if (!c) break;
        uint32_t len = magpie__le32(c + 4);
        uint64_t body = at + 8;
        uint64_t avail = body + len <= in->size ? len : in->size - body;
        if (body + len > in->size) truncated = 1;
        size_t want = avail < 64 ? (size_t)avail : 64;
        const uint8_t *p = want ? magpie__peek(in, body, want) : NULL;
        if (want && !p) break;
        if (at == 12 && memcmp(c, "VP8X", 4) == 0) {
            if (want < 10) {
                truncated = 1;
                break;
            }
            extended = 1;
            animated = (p[0] & 0x02) != 0;
            if (p[0] & 0x10) info->flags |= MAGPIE_INFO_HAS_ALPHA;
            info->width = magpie__le24(p + 4) + 1;
            info->height = magpie__le24(p + 7) + 1;
            have_size = 1;
        } else if (!extended && at == 12) {
            /* A simple file: the image chunk alone gives the size. */
            int alpha = 0;
            if (memcmp(c, "VP8 ", 4) == 0) have_size = magpie__vp8_size(p, want, &info->width, &info->height);
            else if (memcmp(c, "VP8L", 4) == 0) {
                have_size = magpie__vp8l_size(p, want, &info->width, &info->height, &alpha);
                if (alpha) info->flags |= MAGPIE_INFO_HAS_ALPHA;
            }
            if (!have_size) return want < 10 ? MAGPIE_ETRUNCATED : MAGPIE_ECORRUPT;
            frames = 1;
            break;
        } else if (memcmp(c, "ANIM", 4) == 0 && want >= 6) {
            /* WebP counts plays (0: forever); Magpie's count is GIF's, the repeats after the first. */
            uint32_t plays = magpie__le16(p + 4);
            info->loop_count = plays == 0 ? 0 : plays == 1 ? -1 : (int32_t)plays - 1;
        } else if (memcmp(c, "ANMF", 4) == 0) {
            frames++;
        } else if (memcmp(c, "VP8 ", 4) == 0 || memcmp(c, "VP8L", 4) == 0) {
            if (!animated) frames = 1;
        } else if (memcmp(c, "EXIF", 4) == 0 && avail >= 8) {
            /* The orientation tag sits in IFD0, near the start: 64 KiB is plenty. */
            size_t n = avail < 65536 ? (size_t)avail : 65536;
            const uint8_t *e = magpie__peek(in, body, n);
            if (e) {
                /* Some writers keep JPEG's "Exif\0\0" prefix. */
                if (n >= 6 && memcmp(e, "Exif\0\0", 6) == 0) info->orientation = magpie__tiff_orientation(e + 6, n - 6);
                else info->orientation = magpie__tiff_orientation(e, n);
            }
        }
        at = body + len + (len & 1);
    }
    if (in->io_error) return MAGPIE_EIO;
    if (!have_size) return truncated || at + 8 > end ? MAGPIE_ETRUNCATED : MAGPIE_ECORRUPT;
    if (info->width == 0 || info->height == 0) return MAGPIE_ECORRUPT;
    if (info->flags & MAGPIE_INFO_HAS_ALPHA) info->components = 4;
    if (extended && !animated && frames == 0) frames = 1; /* its image chunk lies past a cut: the decode says */
    info->frames = frames;
    if (animated && frames > 1) info->flags |= MAGPIE_INFO_ANIMATED;
    if (animated && frames == 0) return truncated ? MAGPIE_ETRUNCATED : MAGPIE_ECORRUPT;
    return MAGPIE_OK;
}
