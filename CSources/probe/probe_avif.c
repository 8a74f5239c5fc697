/* HEIF/AVIF probing: a walk over the ISOBMFF boxes, headers only, without allocating.
 * - A still image is the primary item ('pitm') of the 'meta' box: its size is its 'ispe'
 *   property (a grid's own 'ispe' is the output size), its orientation the 'irot'/'imir'
 *   properties, its depth the 'av1C' (or 'pixi') property; an 'auxC' alpha property anywhere
 *   means alpha. Properties are found through 'ipma', as decoders find them.
 * - A sequence ('avis', or no primary item) is the first picture track of 'moov': the size from
 *   its sample entry, the frame count from 'stsz', alpha when an 'auxv' track is there.
 * As libavif does, the major brand picks: 'avis' means the track, 'avif' the item. */
#include <string.h>

#include "core/codec.h"

typedef struct {
    uint64_t body, size; /* where the box's payload starts, and its length */
    uint8_t type[4];
} magpie__box;

/* The box at `at` inside a parent ending at `end`: 1, 0 at the end, -1 when malformed or cut. */
static int magpie__box_read(magpie__in *in, uint64_t at, uint64_t end, magpie__box *b) {
    if (at >= end || end - at < 8) return 0;
    const uint8_t *p = magpie__peek(in, at, 8);
    if (!p) return -1;
    uint64_t size = magpie__be32(p), hdr = 8;
    memcpy(b->type, p + 4, 4);
    if (size == 1) {
        const uint8_t *q = magpie__peek(in, at, 16);
        if (!q) return -1;
        size = (uint64_t)magpie__be32(q + 8) << 32 | magpie__be32(q + 12);
        hdr = 16;
    } else if (size == 0) {
        size = end - at; /* to the end of the parent */
    }
    if (size < hdr || size > end - at) return -1;
    b->body = at + hdr;
    b->size = size - hdr;
    return 1;
}

/* Finds the first child box of `type` in [at, end). */
static int magpie__box_find(magpie__in *in, uint64_t at, uint64_t end, const char *type, magpie__box *out) {
    magpie__box b;
    int r;
    while ((r = magpie__box_read(in, at, end, &b)) == 1) {
        if (memcmp(b.type, type, 4) == 0) {
            *out = b;
            return 1;
        }
        at = b.body + b.size;
    }
    return r;
}

/* ---- the primary item, from the meta box (parsed in memory: it is small) ---- */

#define MAGPIE__MAX_PROPS 256
typedef struct {
    const uint8_t *m;
    size_t n;
    uint32_t prop_off[MAGPIE__MAX_PROPS], prop_len[MAGPIE__MAX_PROPS]; /* ipco children, 1-based */
    uint32_t prop_type[MAGPIE__MAX_PROPS];                               /* offset of each one's type */
    uint32_t props;
} magpie__meta;

/* Next child box of an in-memory parent; 1, or 0 at the end or when malformed. */
static int magpie__mbox(const uint8_t *m, size_t n, size_t *at, const uint8_t **type, size_t *body, size_t *len) {
    if (*at + 8 > n) return 0;
    uint64_t size = magpie__be32(m + *at);
    size_t hdr = 8;
    if (size == 1) {
        if (*at + 16 > n) return 0;
        size = (uint64_t)magpie__be32(m + *at + 8) << 32 | magpie__be32(m + *at + 12);
        hdr = 16;
    } else if (size == 0) {
        size = n - *at;
    }
    if (size < hdr || size > n - *at) return 0;
    *type = m + *at + 4;
    *body = *at + hdr;
    *len = (size_t)size - hdr;
    *at += (size_t)size;
    return 1;
}

/* Whether `word` occurs in the n bytes at p (an auxC URN). */
static int magpie__contains(const uint8_t *p, size_t n, const char *word) {
    size_t k = strlen(word);
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp(p + i, word, k) == 0) return 1;
    return 0;
}

static void magpie__apply_prop(const magpie__meta *mt, uint32_t index, magpie_info *info, uint32_t *angle, int *mirror) {
    if (index == 0 || index > mt->props) return;
    const uint8_t *p = mt->m + mt->prop_type[index - 1] - 4; /* so that p + 4 is the type */
    const uint8_t *b = mt->m + mt->prop_off[index - 1];
    uint32_t len = mt->prop_len[index - 1];
    if (memcmp(p + 4, "ispe", 4) == 0 && len >= 12) {
        info->width = magpie__be32(b + 4);
        info->height = magpie__be32(b + 8);
    } else if (memcmp(p + 4, "irot", 4) == 0 && len >= 1) {
        *angle = b[0] & 3;
    } else if (memcmp(p + 4, "imir", 4) == 0 && len >= 1) {
        *mirror = b[0] & 1;
    } else if (memcmp(p + 4, "av1C", 4) == 0 && len >= 3) {
        info->bit_depth = (b[2] & 0x40) ? ((b[2] & 0x20) ? 12 : 10) : 8;
        info->components = (b[2] & 0x10) ? 1 : 3;
    } else if (memcmp(p + 4, "pixi", 4) == 0 && len >= 6 && !info->bit_depth) {
        info->bit_depth = b[5];
        info->components = b[4];
    }
}

/* irot (anti-clockwise quarter turns) then imir (0: top and bottom swapped, 1: left and right)
 * as the EXIF orientation that displays the stored image the same way. */
static uint32_t magpie__heif_orientation(uint32_t angle, int mirror) {
    static const uint8_t table[4][3] = {{1, 4, 2}, {8, 5, 7}, {3, 2, 4}, {6, 7, 5}};
    return table[angle & 3][mirror + 1];
}

static int magpie__probe_meta(magpie__in *in, const magpie__box *meta, magpie_info *info, int *has_primary) {
    magpie__meta mt;
    memset(&mt, 0, sizeof mt);
    if (meta->size < 4) return MAGPIE_ECORRUPT;
    /* The meta box is headers only (item data lives in mdat or idat): a window holds it. */
    mt.n = meta->size - 4 < MAGPIE__WINDOW ? (size_t)(meta->size - 4) : MAGPIE__WINDOW;
    mt.m = magpie__peek(in, meta->body + 4, mt.n);
    if (!mt.m) return in->io_error ? MAGPIE_EIO : MAGPIE_ETRUNCATED;
    uint32_t primary = 0;
    int have_pitm = 0;
    size_t at = 0, body, len, ipma_body = 0, ipma_len = 0;
    const uint8_t *type;
    while (magpie__mbox(mt.m, mt.n, &at, &type, &body, &len)) {
        if (memcmp(type, "pitm", 4) == 0 && len >= 6) {
            primary = mt.m[body] == 0 ? magpie__be16(mt.m + body + 4) : (len >= 8 ? magpie__be32(mt.m + body + 4) : 0);
            have_pitm = 1;
        } else if (memcmp(type, "iprp", 4) == 0) {
            size_t at2 = body, b2, l2;
            const uint8_t *t2;
            while (magpie__mbox(mt.m, body + len, &at2, &t2, &b2, &l2)) {
                if (memcmp(t2, "ipco", 4) == 0) {
                    size_t at3 = b2, b3, l3;
                    const uint8_t *t3;
                    while (mt.props < MAGPIE__MAX_PROPS && magpie__mbox(mt.m, b2 + l2, &at3, &t3, &b3, &l3)) {
                        mt.prop_type[mt.props] = (uint32_t)(t3 - mt.m);
                        mt.prop_off[mt.props] = (uint32_t)b3;
                        mt.prop_len[mt.props++] = (uint32_t)l3;
                        if (memcmp(t3, "auxC", 4) == 0 && magpie__contains(mt.m + b3, l3, "alpha"))
                            info->flags |= MAGPIE_INFO_HAS_ALPHA;
                    }
                } else if (memcmp(t2, "ipma", 4) == 0) {
                    ipma_body = b2;
                    ipma_len = l2;
                }
            }
        }
    }
    *has_primary = have_pitm;
    if (!have_pitm) return MAGPIE_OK;
    uint32_t angle = 0;
    int mirror = -1;
    if (ipma_len >= 8) {
        const uint8_t *q = mt.m + ipma_body, *e = q + ipma_len;
        int version = q[0], wide = q[3] & 1;
        uint32_t entries = magpie__be32(q + 4);
        q += 8;
        for (uint32_t i = 0; i < entries; i++) {
            uint32_t item;
            if (version < 1) {
                if (e - q < 3) break;
                item = magpie__be16(q);
                q += 2;
            } else {
                if (e - q < 5) break;
                item = magpie__be32(q);
                q += 4;
            }
            uint32_t count = *q++;
            if ((size_t)(e - q) < (size_t)count * (wide ? 2 : 1)) break;
            for (uint32_t k = 0; k < count; k++) {
                uint32_t index = wide ? magpie__be16(q) & 0x7fff : q[0] & 0x7f;
                q += wide ? 2 : 1;
                if (item == primary) magpie__apply_prop(&mt, index, info, &angle, &mirror);
            }
        }
    }
    info->orientation = magpie__heif_orientation(angle, mirror);
    /* A grid's size is its data's (probe_grid.c); last, as it may move the meta window. */
    uint32_t gw, gh;
    if (magpie__heif_grid_size(in, mt.m, mt.n, primary, &gw, &gh)) info->width = gw, info->height = gh;
    return MAGPIE_OK;
}

/* ---- a sequence: the first picture track of moov ---- */

static int magpie__probe_moov(magpie__in *in, const magpie__box *moov, magpie_info *info) {
    magpie__box trak, mdia, hdlr, minf, stbl, stsd, stsz;
    uint64_t at = moov->body, end = moov->body + moov->size;
    int found = 0, r;
    while ((r = magpie__box_find(in, at, end, "trak", &trak)) == 1) {
        at = trak.body + trak.size;
        if (magpie__box_find(in, trak.body, trak.body + trak.size, "mdia", &mdia) != 1) continue;
        if (magpie__box_find(in, mdia.body, mdia.body + mdia.size, "hdlr", &hdlr) != 1 || hdlr.size < 12) continue;
        const uint8_t *h = magpie__peek(in, hdlr.body + 8, 4);
        if (!h) return MAGPIE_ETRUNCATED;
        if (memcmp(h, "auxv", 4) == 0) info->flags |= MAGPIE_INFO_HAS_ALPHA;
        if (found || (memcmp(h, "pict", 4) != 0 && memcmp(h, "vide", 4) != 0)) continue;
        if (magpie__box_find(in, mdia.body, mdia.body + mdia.size, "minf", &minf) != 1 ||
            magpie__box_find(in, minf.body, minf.body + minf.size, "stbl", &stbl) != 1)
            continue;
        /* stsd: version/flags, entry count, then a visual sample entry (av01): 6 reserved bytes,
         * the data reference index, 16 bytes, then width and height. */
        if (magpie__box_find(in, stbl.body, stbl.body + stbl.size, "stsd", &stsd) == 1 && stsd.size >= 8 + 8 + 28) {
            const uint8_t *e = magpie__peek(in, stsd.body + 8, 8 + 28);
            if (e) {
                info->width = magpie__be16(e + 8 + 24);
                info->height = magpie__be16(e + 8 + 26);
            }
        }
        if (magpie__box_find(in, stbl.body, stbl.body + stbl.size, "stsz", &stsz) == 1 && stsz.size >= 12) {
            const uint8_t *s = magpie__peek(in, stsz.body + 8, 4);
            if (s) info->frames = magpie__be32(s);
        }
        found = 1;
    }
    if (r < 0 && !found) return MAGPIE_ETRUNCATED;
    return found ? MAGPIE_OK : MAGPIE_ECORRUPT;
}

uint32_t magpie__avif_coded_items(magpie__in *in) {
    magpie__box ftyp, meta, iinf;
    if (magpie__box_read(in, 0, in->size, &ftyp) != 1) return 0;
    if (magpie__box_find(in, ftyp.body + ftyp.size, in->size, "meta", &meta) != 1 || meta.size < 4) return 0;
    if (magpie__box_find(in, meta.body + 4, meta.body + meta.size, "iinf", &iinf) != 1 || iinf.size < 6) return 0;
    const uint8_t *v = magpie__peek(in, iinf.body, 4);
    if (!v) return 0;
    uint64_t at = iinf.body + (v[0] == 0 ? 6 : 8), end = iinf.body + iinf.size;
    uint32_t count = 0;
    magpie__box infe;
    /* infe version 2 or 3: item_ID (16 or 32 bits), protection index (16), then the item type. */
    while (magpie__box_find(in, at, end, "infe", &infe) == 1) {
        at = infe.body + infe.size;
        const uint8_t *e = infe.size >= 12 ? magpie__peek(in, infe.body, 12) : NULL;
        if (!e || e[0] < 2) continue;
        const uint8_t *type = e + (e[0] == 2 ? 8 : 10);
        if (e[0] == 3 && infe.size < 14) continue;
        if (e[0] == 3 && !(e = magpie__peek(in, infe.body, 14))) continue;
        if (e[0] == 3) type = e + 10;
        if (memcmp(type, "av01", 4) == 0) count++;
    }
    return count;
}

int magpie__probe_isobmff(magpie__in *in, magpie_info *info, uint32_t frame_cap) {
    (void)frame_cap;
    magpie__box ftyp, b;
    int r = magpie__box_read(in, 0, in->size, &ftyp);
    if (r != 1 || memcmp(ftyp.type, "ftyp", 4) != 0 || ftyp.size < 4) return in->io_error ? MAGPIE_EIO : MAGPIE_ETRUNCATED;
    const uint8_t *brand = magpie__peek(in, ftyp.body, 4);
    if (!brand) return MAGPIE_ETRUNCATED;
    int sequence_brand = memcmp(brand, "avis", 4) == 0, item_brand = memcmp(brand, "avif", 4) == 0;
    magpie__box meta = {0, 0, {0}}, moov = {0, 0, {0}};
    int have_meta = 0, have_moov = 0, cut = 0;
    uint64_t at = ftyp.body + ftyp.size;
    while ((r = magpie__box_read(in, at, in->size, &b)) == 1) {
        if (!have_meta && memcmp(b.type, "meta", 4) == 0) meta = b, have_meta = 1;
        if (!have_moov && memcmp(b.type, "moov", 4) == 0) moov = b, have_moov = 1;
        at = b.body + b.size;
    }
    if (r < 0) cut = 1;
    if (in->io_error) return MAGPIE_EIO;
    info->frames = 1;
    info->bit_depth = 0;
    int rc = MAGPIE_ECORRUPT, has_primary = 0;
    if (have_meta) rc = magpie__probe_meta(in, &meta, info, &has_primary);
    if (rc != MAGPIE_OK && rc != MAGPIE_ECORRUPT) return rc;
    if (have_moov && (sequence_brand || (!item_brand && !has_primary))) {
        rc = magpie__probe_moov(in, &moov, info);
        info->orientation = 1; /* a track carries no irot/imir */
        if (info->frames > 1) info->flags |= MAGPIE_INFO_ANIMATED;
    } else if (have_meta && !has_primary) {
        rc = MAGPIE_ECORRUPT;
    }
    if (!info->bit_depth) info->bit_depth = 8;
    if (info->flags & MAGPIE_INFO_HAS_ALPHA && info->components) info->components++;
    if (in->io_error) return MAGPIE_EIO;
    if (rc == MAGPIE_OK && (info->width == 0 || info->height == 0)) rc = cut ? MAGPIE_ETRUNCATED : MAGPIE_ECORRUPT;
    if (rc == MAGPIE_ECORRUPT && cut && !have_meta && !have_moov) rc = MAGPIE_ETRUNCATED;
    return rc;
}
