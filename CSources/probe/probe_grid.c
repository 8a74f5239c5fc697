/* A HEIF/AVIF primary item that is a 'grid': its output size from the grid's own data (ISO/IEC
 * 23008-12 6.6.2.3), found through 'iinf' (the item's type) and 'iloc' (where its data is: in
 * 'idat' or at a file offset). The two must equal the grid's 'ispe', but libheif 1.15 writes the
 * turned size into 'ispe' when it adds an 'irot', and decodes by the grid's data: so the data is
 * what the probe believes, as the decoder does. Headers only, no allocation. */
#include <string.h>

#include "core/codec.h"

/* Next child box of an in-memory parent, as probe_avif.c reads them. */
static int magpie__gbox(const uint8_t *m, size_t n, size_t *at, const uint8_t **type, size_t *body, size_t *len) {
    if (*at + 8 > n) return 0;
    uint64_t size = magpie__be32(m + *at);
    if (size < 8 || size > n - *at) return 0; /* 64-bit or to-the-end sizes do not occur in meta */
    *type = m + *at + 4, *body = *at + 8, *len = (size_t)size - 8, *at += (size_t)size;
    return 1;
}

/* An unsigned big-endian field of `bytes` (0, 4 or 8) at *p, advancing it; 0 past `end`. */
static uint64_t magpie__gfield(const uint8_t **p, const uint8_t *end, uint32_t bytes, int *bad) {
    if ((size_t)(end - *p) < bytes) return *bad = 1, 0;
    uint64_t v = 0;
    for (uint32_t i = 0; i < bytes; i++) v = v << 8 | (*p)[i];
    *p += bytes;
    return v;
}

/* Whether item `item` is a 'grid' in the iinf box at m[body, body + len). */
static int magpie__grid_item(const uint8_t *m, size_t body, size_t len, uint32_t item) {
    if (len < 6) return 0;
    size_t at = body + (m[body] == 0 ? 6 : 8), b, l;
    const uint8_t *t;
    while (magpie__gbox(m, body + len, &at, &t, &b, &l))
        if (memcmp(t, "infe", 4) == 0 && l >= 12 && m[b] >= 2) {
            int wide = m[b] == 3;
            uint32_t id = wide ? magpie__be32(m + b + 4) : magpie__be16(m + b + 4);
            size_t type_at = b + (wide ? 10 : 8);
            if (id == item && type_at + 4 <= b + l) return memcmp(m + type_at, "grid", 4) == 0;
        }
    return 0;
}

/* Where item `item`'s first extent is, from the iloc box: 1 with *method (0: a file offset, 1: in
 * idat) and *offset; 0 when it is not there or the box is malformed. */
static int magpie__grid_data(const uint8_t *m, size_t body, size_t len, uint32_t item, int *method, uint64_t *offset) {
    const uint8_t *p = m + body, *end = p + len;
    int bad = 0;
    uint32_t version = (uint32_t)magpie__gfield(&p, end, 4, &bad) >> 24;
    uint32_t sizes = (uint32_t)magpie__gfield(&p, end, 2, &bad);
    uint32_t off_size = sizes >> 12, len_size = (sizes >> 8) & 15, base_size = (sizes >> 4) & 15;
    uint32_t index_size = version >= 1 ? sizes & 15 : 0;
    uint64_t count = magpie__gfield(&p, end, version < 2 ? 2 : 4, &bad);
    for (uint64_t i = 0; i < count && !bad; i++) {
        uint64_t id = magpie__gfield(&p, end, version < 2 ? 2 : 4, &bad);
        uint32_t construction = version >= 1 ? (uint32_t)magpie__gfield(&p, end, 2, &bad) & 15 : 0;
        magpie__gfield(&p, end, 2, &bad); /* data_reference_index */
        uint64_t base = magpie__gfield(&p, end, base_size, &bad);
        uint64_t extents = magpie__gfield(&p, end, 2, &bad);
        for (uint64_t e = 0; e < extents && !bad; e++) {
            magpie__gfield(&p, end, index_size, &bad);
            uint64_t extent = magpie__gfield(&p, end, off_size, &bad);
            magpie__gfield(&p, end, len_size, &bad);
            if (!bad && e == 0 && id == item && construction <= 1) {
                *method = (int)construction, *offset = base + extent;
                return 1;
            }
        }
    }
    return 0;
}

int magpie__heif_grid_size(magpie__in *in, const uint8_t *m, size_t n, uint32_t primary, uint32_t *width,
                           uint32_t *height) {
    size_t at = 0, body, len, iinf = 0, iinf_len = 0, iloc = 0, iloc_len = 0, idat = 0, idat_len = 0;
    const uint8_t *type;
    while (magpie__gbox(m, n, &at, &type, &body, &len)) {
        if (memcmp(type, "iinf", 4) == 0) iinf = body, iinf_len = len;
        else if (memcmp(type, "iloc", 4) == 0) iloc = body, iloc_len = len;
        else if (memcmp(type, "idat", 4) == 0) idat = body, idat_len = len;
    }
    int method;
    uint64_t offset;
    if (!iinf_len || !magpie__grid_item(m, iinf, iinf_len, primary) ||
        !magpie__grid_data(m, iloc, iloc_len, primary, &method, &offset))
        return 0;
    const uint8_t *g;
    if (method == 1) {
        if (offset > idat_len || idat_len - offset < 8) return 0;
        g = m + idat + offset;
        if ((g[1] & 1) && idat_len - offset < 12) return 0;
    } else { /* a peek: `m` (the caller's meta window) may move, so this comes last */
        if (!(g = magpie__peek(in, offset, 8))) return 0;
        if ((g[1] & 1) && !(g = magpie__peek(in, offset, 12))) return 0;
    }
    if (g[0] != 0) return 0; /* version 0 is the only one defined */
    *width = (g[1] & 1) ? magpie__be32(g + 4) : magpie__be16(g + 4);
    *height = (g[1] & 1) ? magpie__be32(g + 8) : magpie__be16(g + 6);
    return *width && *height;
}
