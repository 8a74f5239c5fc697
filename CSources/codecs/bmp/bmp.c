/* BMP decoding, our own (no library is worth the dependency): 1, 2, 4 and 8 bits through the
 * colour table, 16 and 32 bits through bit fields, 24 bits, RLE8 and RLE4, rows stored bottom up
 * or top down, the V5 header's embedded ICC profile. Also the pixels of an ICO/CUR entry (ico.c),
 * with its AND mask. Every size comes from the header and is checked against the input before a
 * row is read; uncompressed rows stream into the resampler a strip at a time. */
#include <stdlib.h>
#include <string.h>

#include "codecs/bmp/bmp.h"
#include "core/codec.h"
#include "colour/icc.h"

#define MAGPIE__BMP_STRIP (256u << 10) /* bytes of stored rows read at once */

/* Stored rows read in strips: in the order asked for, top down or bottom up. */
typedef struct {
    magpie__in *in;
    uint64_t at, stride;
    uint32_t h, per, first, count; /* rows a strip holds; the strip's first row and row count */
    uint8_t *buf;
} magpie__bmp_rows;

static const uint8_t *magpie__bmp_row(magpie__bmp_rows *r, uint32_t row, int top_down) {
    if (row < r->first || row >= r->first + r->count) {
        r->first = top_down ? row : (row + 1 >= r->per ? row + 1 - r->per : 0);
        r->count = r->h - r->first < r->per ? r->h - r->first : r->per;
        size_t n = (size_t)(r->stride * r->count);
        if (magpie__read(r->in, r->at + r->first * r->stride, r->buf, n) != n) return NULL;
    }
    return r->buf + (size_t)((row - r->first) * r->stride);
}

typedef struct {
    uint32_t shift, bits, max;
} magpie__bmp_field;

static magpie__bmp_field magpie__bmp_field_of(uint32_t mask) {
    magpie__bmp_field f = {0, 0, 0};
    if (!mask) return f;
    f.shift = (uint32_t)__builtin_ctz(mask);
    f.bits = (uint32_t)__builtin_popcount(mask);
    f.max = f.bits >= 32 ? UINT32_MAX : (1u << f.bits) - 1;
    return f;
}

static inline uint8_t magpie__bmp_scale(uint32_t v, uint32_t mask, magpie__bmp_field f) {
    if (!f.bits) return 0;
    v = (v & mask) >> f.shift;
    if (f.bits >= 8) return (uint8_t)(v >> (f.bits - 8));
    return (uint8_t)((v * 255u + f.max / 2) / f.max);
}

typedef struct {
    const magpie__bmp *b;
    uint8_t pal[256][4];
    magpie__bmp_field f[4];
    int alpha; /* the alpha field is used (not all zero) */
} magpie__bmp_conv;

/* One stored row to RGBA8. */
static void magpie__bmp_convert(const magpie__bmp_conv *c, const uint8_t *s, uint8_t *o) {
    const magpie__bmp *b = c->b;
    const uint32_t w = b->width, bpp = b->bpp;
    if (bpp <= 8) {
        const uint32_t m = (1u << bpp) - 1;
        for (uint32_t x = 0; x < w; x++) {
            uint32_t bit = x * bpp;
            uint32_t i = (uint32_t)(s[bit >> 3] >> (8 - bpp - (bit & 7))) & m;
            memcpy(o + 4 * (size_t)x, c->pal[i], 4);
        }
    } else if (bpp == 24) {
        for (uint32_t x = 0; x < w; x++, s += 3, o += 4) o[0] = s[2], o[1] = s[1], o[2] = s[0], o[3] = 255;
    } else {
        for (uint32_t x = 0; x < w; x++, o += 4) {
            uint32_t v = bpp == 16 ? magpie__le16(s + 2 * (size_t)x) : magpie__le32(s + 4 * (size_t)x);
            o[0] = magpie__bmp_scale(v, b->masks[0], c->f[0]);
            o[1] = magpie__bmp_scale(v, b->masks[1], c->f[1]);
            o[2] = magpie__bmp_scale(v, b->masks[2], c->f[2]);
            o[3] = c->alpha ? magpie__bmp_scale(v, b->masks[3], c->f[3]) : 255;
        }
    }
}

/* Whether any pixel's alpha field is non-zero: writers that fill it with zeros mean opaque (as
 * browsers read them). */
static int magpie__bmp_any_alpha(magpie__bmp_rows *r, const magpie__bmp *b) {
    for (uint32_t y = 0; y < b->height; y++) {
        const uint8_t *s = magpie__bmp_row(r, y, 1);
        if (!s) return -1;
        for (uint32_t x = 0; x < b->width; x++) {
            uint32_t v = b->bpp == 16 ? magpie__le16(s + 2 * (size_t)x) : magpie__le32(s + 4 * (size_t)x);
            if (v & b->masks[3]) return 1;
        }
    }
    return 0;
}

/* RLE8 and RLE4 (bottom up): the indices into a buffer first (a delta or an early end leaves
 * pixels undefined, transparent as browsers show them), then the rows top down. */
#define MAGPIE__BMP_UNSET 0xFFFFu
static int magpie__bmp_rle(magpie__job *job, const magpie__bmp *b, const magpie__bmp_conv *c, magpie__sink *sink) {
    const uint32_t w = b->width, h = b->height;
    const uint64_t cells = (uint64_t)w * h;
    int rc = magpie__charge(job, cells * 2);
    if (rc) return rc;
    const uint8_t *d;
    uint8_t *owned = NULL, *row = NULL;
    uint16_t *idx = malloc((size_t)cells * 2);
    if (!idx || !(row = malloc((size_t)w * 4))) {
        rc = MAGPIE_ENOMEM;
        goto out;
    }
    for (uint64_t i = 0; i < cells; i++) idx[i] = MAGPIE__BMP_UNSET;
    if ((rc = magpie__whole_input(job, &d, &owned))) goto out;
    const uint64_t n = job->in->size;
    const int four = b->compression == MAGPIE__BMP_RLE4;
    uint64_t pos = b->pixels_at, x = 0, y = 0; /* y counts from the bottom row */
    int ended = 0;
#define MAGPIE__BMP_PUT(v)                                                        \
    do {                                                                          \
        if (x < w && y < h) idx[(uint64_t)(h - 1 - y) * w + x] = (uint16_t)(v); \
        x++;                                                                      \
    } while (0)
    while (!ended && y < h && pos + 2 <= n) {
        uint32_t a = d[pos], v = d[pos + 1];
        pos += 2;
        if (a) { /* a run of `a` pixels */
            for (uint32_t k = 0; k < a; k++) MAGPIE__BMP_PUT(four ? (k & 1 ? v & 15 : v >> 4) : v);
        } else if (v == 0) { /* end of line */
            x = 0, y++;
        } else if (v == 1) { /* end of bitmap */
            ended = 1;
        } else if (v == 2) { /* delta: right and up */
            if (pos + 2 > n) break;
            x += d[pos], y += d[pos + 1];
            pos += 2;
        } else { /* `v` literal pixels, padded to a 16-bit boundary */
            uint64_t bytes = four ? (v + 1) / 2 : v;
            if (pos + bytes + (bytes & 1) > n) break;
            for (uint32_t k = 0; k < v; k++) MAGPIE__BMP_PUT(four ? (k & 1 ? d[pos + k / 2] & 15 : d[pos + k / 2] >> 4)
                                                                  : d[pos + k]);
            pos += bytes + (bytes & 1);
        }
    }
#undef MAGPIE__BMP_PUT
    if (!ended && y < h) {
        magpie__detail(job, "RLE data ends before the end of the bitmap");
        rc = MAGPIE_ETRUNCATED;
        goto out;
    }
    for (uint32_t r = 0; r < h; r++) {
        const uint16_t *s = idx + (size_t)r * w;
        for (uint32_t i = 0; i < w; i++) {
            uint8_t *o = row + 4 * (size_t)i;
            if (s[i] == MAGPIE__BMP_UNSET) memset(o, 0, 4);
            else memcpy(o, c->pal[s[i]], 4);
        }
        magpie__sink_push(sink, row);
    }
    rc = magpie__sink_finish(sink);
out:
    magpie__whole_input_free(job, owned);
    free(row);
    free(idx);
    magpie__uncharge(job, cells * 2);
    return rc;
}

static int magpie__bmp_palette(magpie__job *job, const magpie__bmp *b, magpie__bmp_conv *c) {
    for (uint32_t i = 0; i < 256; i++) c->pal[i][0] = c->pal[i][1] = c->pal[i][2] = 0, c->pal[i][3] = 255;
    if (!b->palette_count) return MAGPIE_OK;
    uint8_t raw[256 * 4];
    size_t n = (size_t)b->palette_count * b->palette_entry;
    if (magpie__read(job->in, b->palette_at, raw, n) != n) {
        magpie__detail(job, "colour table runs past the end of the data");
        return job->in->io_error ? MAGPIE_EIO : MAGPIE_ETRUNCATED;
    }
    for (uint32_t i = 0; i < b->palette_count; i++) {
        const uint8_t *p = raw + (size_t)i * b->palette_entry;
        c->pal[i][0] = p[2], c->pal[i][1] = p[1], c->pal[i][2] = p[0];
    }
    return MAGPIE_OK;
}

static void magpie__bmp_profile(magpie__job *job, const magpie__bmp *b) {
    if (!b->profile_at || !b->profile_size) return;
    if (b->profile_size > MAGPIE__ICC_MAX_BYTES || b->profile_at >= job->in->size ||
        b->profile_size > job->in->size - b->profile_at) {
        job->color_flags |= MAGPIE_IMAGE_PROFILE_IGNORED;
        return;
    }
    uint8_t *p = malloc(b->profile_size);
    if (p && magpie__read(job->in, b->profile_at, p, b->profile_size) == b->profile_size)
        magpie__job_set_profile(job, p, b->profile_size);
    else job->color_flags |= MAGPIE_IMAGE_PROFILE_IGNORED;
    free(p);
}

/* Applies an icon's AND mask (a set bit is transparent) to a converted row. */
static void magpie__bmp_and_mask(const uint8_t *m, uint8_t *o, uint32_t w) {
    for (uint32_t x = 0; x < w; x++)
        if (m[x >> 3] & (0x80u >> (x & 7))) o[4 * (size_t)x + 3] = 0;
}

int magpie__bmp_decode(magpie__job *job, const magpie__bmp *b) {
    const uint32_t w = b->width, h = b->height;
    if (w != job->info.width || h != job->info.height) {
        magpie__detail(job, "image is %ux%u, the header says %ux%u", w, h, job->info.width, job->info.height);
        return MAGPIE_ECORRUPT;
    }
    magpie__bmp_conv c = {.b = b, .alpha = b->masks[3] != 0};
    for (int i = 0; i < 4; i++) c.f[i] = magpie__bmp_field_of(b->masks[i]);
    int rc = magpie__bmp_palette(job, b, &c);
    if (rc) return rc;
    magpie__bmp_profile(job, b);
    int rle = b->compression == MAGPIE__BMP_RLE8 || b->compression == MAGPIE__BMP_RLE4;
    const uint64_t mask_stride = ((uint64_t)w + 31) / 32 * 4;
    const uint64_t mask_at = b->pixels_at + b->stride * h;
    if (!rle && (b->pixels_at > job->in->size || b->stride * h > job->in->size - b->pixels_at)) {
        magpie__detail(job, "%ux%u pixels at %u bits run past the end of the data", w, h, b->bpp);
        return MAGPIE_ETRUNCATED;
    }
    /* An icon's AND mask is used unless its alpha says more; one cut off is taken as opaque. */
    int use_mask = b->ico && !rle && mask_at <= job->in->size && mask_stride * h <= job->in->size - mask_at;
    magpie__geometry g;
    magpie__job_geometry(job, w, h, &g);
    uint32_t per = (uint32_t)(MAGPIE__BMP_STRIP / b->stride);
    if (per < 1) per = 1;
    if (per > h) per = h;
    uint64_t strip = rle ? 0 : b->stride * per, mstrip = use_mask ? mask_stride * per : 0;
    uint64_t need = (uint64_t)w * 4 + strip + mstrip + magpie__sink_bytes(&g);
    if ((rc = magpie__charge(job, need))) return rc;
    magpie__bmp_rows rows = {job->in, b->pixels_at, b->stride, h, per, 0, 0, NULL};
    magpie__bmp_rows mask = {job->in, mask_at, mask_stride, h, per, 0, 0, NULL};
    uint8_t *out = malloc((size_t)w * 4);
    magpie__sink *sink = NULL;
    if (!out || (strip && !(rows.buf = malloc((size_t)strip))) || (mstrip && !(mask.buf = malloc((size_t)mstrip)))) {
        rc = MAGPIE_ENOMEM;
        goto out;
    }
    if (!rle && c.alpha) {
        int any = magpie__bmp_any_alpha(&rows, b);
        if (any < 0) goto read_error;
        c.alpha = any;
    }
    if (c.alpha) use_mask = 0;
    if ((rc = magpie__sink_create(&g, job->dst, job->dst_stride, &sink))) goto out;
    if (rle) {
        rc = magpie__bmp_rle(job, b, &c, sink);
        goto out;
    }
    if (!c.alpha && !use_mask) magpie__sink_set_opaque(sink);
    for (uint32_t y = 0; y < h; y++) {
        uint32_t stored = b->top_down ? y : h - 1 - y;
        const uint8_t *s = magpie__bmp_row(&rows, stored, b->top_down);
        if (!s) goto read_error;
        magpie__bmp_convert(&c, s, out);
        if (use_mask) {
            const uint8_t *m = magpie__bmp_row(&mask, stored, b->top_down);
            if (!m) goto read_error;
            magpie__bmp_and_mask(m, out, w);
        }
        magpie__sink_push(sink, out);
    }
    rc = magpie__sink_finish(sink);
    goto out;
read_error:
    magpie__detail(job, "pixel data could not be read");
    rc = job->in->io_error ? MAGPIE_EIO : MAGPIE_ETRUNCATED;
out:
    magpie__sink_destroy(sink);
    free(out);
    free(rows.buf);
    free(mask.buf);
    magpie__uncharge(job, need);
    return rc;
}

int magpie__decode_bmp(magpie__job *job) {
    if (job->first_frame != 0) return MAGPIE_ERANGE;
    magpie__bmp b;
    const char *why;
    int rc = magpie__bmp_read(job->in, 14, 0, &b, &why);
    if (rc) {
        magpie__detail(job, "%s", *why ? why : "header cut short");
        return job->in->io_error ? MAGPIE_EIO : rc;
    }
    return magpie__bmp_decode(job, &b);
}
