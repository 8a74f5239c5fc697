/* A JPEG's EXIF thumbnail (IFD1's JPEGInterchangeFormat and its length: a small JPEG inside the
 * APP1 segment), as cameras and phones write one, decoded in place of the image for
 * MAGPIE_DECODE_THUMBNAIL when it is at least the output's stored size and has the image's shape
 * (within a pixel: a letterboxed thumbnail is not used). It keeps the image's EXIF orientation (it
 * is stored as the image is). Memory inputs only: the thumbnail is a range of the same bytes. */
#include <string.h>

#include "core/codec.h"

int magpie__thumbnail_jpeg(magpie__job *job) {
    magpie__in *in = job->in;
    if (!in->mem) return MAGPIE_ERANGE;
    size_t tn = 0;
    const uint8_t *t = magpie__exif_block(in->mem, (size_t)in->size, &tn);
    if (!t || tn < 8) return MAGPIE_ERANGE;
    int le = t[0] == 'I';
#define RD16(q) (le ? magpie__le16(q) : magpie__be16(q))
#define RD32(q) (le ? magpie__le32(q) : magpie__be32(q))
    uint32_t ifd0 = RD32(t + 4);
    if (ifd0 < 8 || ifd0 > tn - 2) return MAGPIE_ERANGE;
    size_t next_at = (size_t)ifd0 + 2 + (size_t)RD16(t + ifd0) * 12;
    if (next_at > tn - 4) return MAGPIE_ERANGE;
    uint32_t ifd1 = RD32(t + next_at);
    if (ifd1 < 8 || ifd1 > tn - 2) return MAGPIE_ERANGE;
    uint32_t count = RD16(t + ifd1), offset = 0, length = 0;
    for (uint32_t i = 0; i < count && i < 1000; i++) {
        size_t at = (size_t)ifd1 + 2 + (size_t)i * 12;
        if (at > tn - 12) break;
        uint32_t tag = RD16(t + at), type = RD16(t + at + 2);
        uint32_t v = type == 3 ? RD16(t + at + 8) : type == 4 ? RD32(t + at + 8) : 0;
        if (tag == 0x0201) offset = v;
        if (tag == 0x0202) length = v;
    }
#undef RD16
#undef RD32
    if (!offset || length < 4 || offset > tn || length > tn - offset) return MAGPIE_ERANGE;
    const uint8_t *thumb = t + offset;
    if (thumb[0] != 0xFF || thumb[1] != 0xD8) return MAGPIE_ERANGE;
    magpie__in sub;
    magpie__in_memory(&sub, thumb, length);
    magpie_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    if (magpie__probe_upto(&sub, &info, 1) || info.format != MAGPIE_FORMAT_JPEG) return MAGPIE_ERANGE;
    const double W = job->info.width, H = job->info.height, shape = info.width * H / W - info.height;
    if (info.width < job->st_w || info.height < job->st_h || info.width >= job->info.width || shape >= 1.0 ||
        shape <= -1.0)
        return MAGPIE_ERANGE;
    info.orientation = job->info.orientation;
    *in = sub;
    job->info = info;
    return MAGPIE_OK;
}
