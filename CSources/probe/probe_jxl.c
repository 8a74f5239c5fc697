/* JPEG XL: recognised by the bare codestream's signature (FF 0A) or the container's signature
 * box; the size and orientation from the codestream's SizeHeader and ImageMetadata, read bit by
 * bit as ISO/IEC 18181-1 lays them out (fields packed from the low bit of each byte). In a
 * container, the codestream is the first jxlc box, or the first jxlp box after its index. */
#include "core/codec.h"

static const uint8_t magpie__jxl_box[12] = {0, 0, 0, 0x0C, 'J', 'X', 'L', ' ', 0x0D, 0x0A, 0x87, 0x0A};

int magpie__sniff_jxl(const uint8_t *d, size_t n) {
    return (n >= 2 && d[0] == 0xFF && d[1] == 0x0A) || magpie__starts(d, n, 0, (const char *)magpie__jxl_box, 12);
}

typedef struct {
    const uint8_t *d;
    size_t n, bit;
    int over; /* read past the bytes there are */
} magpie__bits;

static uint32_t magpie__bits_u(magpie__bits *b, uint32_t count) {
    uint32_t v = 0;
    for (uint32_t i = 0; i < count; i++, b->bit++) {
        if (b->bit / 8 >= b->n) {
            b->over = 1;
            return 0;
        }
        v |= (uint32_t)((b->d[b->bit / 8] >> (b->bit % 8)) & 1u) << i;
    }
    return v;
}

/* U32(BitsOffset(9, 1), BitsOffset(13, 1), BitsOffset(18, 1), BitsOffset(30, 1)), a side. */
static uint32_t magpie__jxl_side(magpie__bits *b) {
    static const uint32_t bits[4] = {9, 13, 18, 30};
    return 1 + magpie__bits_u(b, bits[magpie__bits_u(b, 2)]);
}

/* Where the codestream starts: 0 for a bare one, else inside the container's first jxlc or jxlp
 * box; 0 with *found 0 when there is none in the boxes that could be read. */
static uint64_t magpie__jxl_codestream(magpie__in *in, int *found) {
    *found = 1;
    const uint8_t *h = magpie__peek(in, 0, 2);
    if (h && h[0] == 0xFF && h[1] == 0x0A) return 0;
    uint64_t at = 0;
    for (int boxes = 0; boxes < 64; boxes++) {
        if (!(h = magpie__peek(in, at, 16))) break;
        uint64_t size = magpie__be32(h), head = 8;
        if (size == 1) size = (uint64_t)magpie__be32(h + 8) << 32 | magpie__be32(h + 12), head = 16;
        if (magpie__starts(h, 8, 4, "jxlc", 4)) return at + head;
        if (magpie__starts(h, 8, 4, "jxlp", 4)) return at + head + 4;
        if (size == 0 || size < head || at + size < at) break;
        at += size;
    }
    *found = 0;
    return 0;
}

int magpie__probe_jxl(magpie__in *in, magpie_info *info, uint32_t frame_cap) {
    (void)frame_cap;
    int found;
    uint64_t at = magpie__jxl_codestream(in, &found);
    if (!found) return in->io_error ? MAGPIE_EIO : MAGPIE_ETRUNCATED;
    size_t n;
    const uint8_t *d = magpie__peek_upto(in, at, 32, &n);
    if (!d || n < 3) return in->io_error ? MAGPIE_EIO : MAGPIE_ETRUNCATED;
    if (d[0] != 0xFF || d[1] != 0x0A) return MAGPIE_ECORRUPT;
    magpie__bits b = {d + 2, n - 2, 0, 0};
    uint32_t small = magpie__bits_u(&b, 1), h, w;
    h = small ? 8 * (1 + magpie__bits_u(&b, 5)) : magpie__jxl_side(&b);
    uint32_t ratio = magpie__bits_u(&b, 3);
    static const uint32_t num[8] = {0, 1, 12, 4, 3, 16, 5, 2}, den[8] = {1, 1, 10, 3, 2, 9, 4, 1};
    if (ratio == 0) w = small ? 8 * (1 + magpie__bits_u(&b, 5)) : magpie__jxl_side(&b);
    else w = (uint32_t)((uint64_t)h * num[ratio] / den[ratio]);
    /* ImageMetadata: all_default, then extra_fields, whose first field is the orientation. */
    if (!magpie__bits_u(&b, 1) && magpie__bits_u(&b, 1)) info->orientation = 1 + magpie__bits_u(&b, 3);
    if (b.over) return MAGPIE_ETRUNCATED;
    info->width = w;
    info->height = h;
    return MAGPIE_OK;
}
