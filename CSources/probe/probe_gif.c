/* GIF probing: the block walk (no LZW), frames up to a cap, the loop count. */
#include <string.h>

#include "core/codec.h"

/* ---- GIF: the block walk (no LZW) ---- */

/* Skips GIF data sub-blocks starting at *at; returns 0 when the terminator was found. */
static int magpie__gif_skip_blocks(magpie__in *in, uint64_t *at) {
    const uint8_t *p;
    while ((p = magpie__peek(in, *at, 1)) != NULL) {
        uint8_t len = p[0];
        *at += 1;
        if (len == 0) return 0;
        *at += len;
    }
    return 1;
}

int magpie__sniff_gif(const uint8_t *d, size_t n) {
    return magpie__starts(d, n, 0, "GIF87a", 6) || magpie__starts(d, n, 0, "GIF89a", 6);
}

int magpie__probe_gif(magpie__in *in, magpie_info *info, uint32_t frame_cap) {
    const uint8_t *h = magpie__peek(in, 0, 13);
    if (!h) return in->io_error ? MAGPIE_EIO : MAGPIE_ETRUNCATED;
    info->width = magpie__le16(h + 6);
    info->height = magpie__le16(h + 8);
    info->bit_depth = 8;
    info->components = 1;
    info->frames = 0;
    uint8_t flags = h[10];
    uint64_t at = 13;
    if (flags & 0x80) at += 3u * (2u << (flags & 7));
    int truncated = 0;
    const uint8_t *p;
    while (!truncated && info->frames < frame_cap) {
        if (!(p = magpie__peek(in, at, 1))) {
            truncated = 1;
            break;
        }
        uint8_t b = p[0];
        at++;
        if (b == 0x3B) break;
        if (b == 0x21) {
            if (!(p = magpie__peek(in, at, 1))) {
                truncated = 1;
                break;
            }
            uint8_t label = p[0];
            at++;
            if (label == 0xFF && (p = magpie__peek(in, at, 16)) != NULL && p[0] == 11 &&
                (memcmp(p + 1, "NETSCAPE2.0", 11) == 0 || memcmp(p + 1, "ANIMEXTS1.0", 11) == 0) && p[12] >= 3 &&
                p[13] == 1)
                info->loop_count = (int32_t)magpie__le16(p + 14);
            if (label == 0xF9 && (p = magpie__peek(in, at, 2)) != NULL && p[0] >= 4 && (p[1] & 1))
                info->flags |= MAGPIE_INFO_HAS_ALPHA;
            truncated = magpie__gif_skip_blocks(in, &at);
        } else if (b == 0x2C) {
            const uint8_t *id = magpie__peek(in, at, 9);
            if (!id) {
                truncated = 1;
                break;
            }
            uint32_t fx = magpie__le16(id), fy = magpie__le16(id + 2), fw = magpie__le16(id + 4),
                     fh = magpie__le16(id + 6);
            uint8_t f = id[8];
            at += 9;
            if (f & 0x80) at += 3u * (2u << (f & 7));
            if (f & 0x40) info->flags |= MAGPIE_INFO_INTERLACED;
            if (fx != 0 || fy != 0 || fw < info->width || fh < info->height) info->flags |= MAGPIE_INFO_HAS_ALPHA;
            info->frames++;
            at++; /* LZW minimum code size */
            truncated = magpie__gif_skip_blocks(in, &at);
        } else {
            break; /* not a block: the stream ends here for our purposes */
        }
    }
    if (in->io_error) return MAGPIE_EIO;
    if (info->frames > 1) info->flags |= MAGPIE_INFO_ANIMATED;
    if (info->width == 0 || info->height == 0) return MAGPIE_ECORRUPT;
    if (info->frames == 0) return truncated ? MAGPIE_ETRUNCATED : MAGPIE_ECORRUPT;
    return MAGPIE_OK;
}
