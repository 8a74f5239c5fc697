/* The rights an image states: EXIF IFD0's Copyright (0x8298) and Artist (0x013B), read from a
 * JPEG's APP1, a PNG's eXIf, a WebP's EXIF chunk or a TIFF's own IFD0, and written into an encoded
 * JPEG, PNG or WebP as a minimal EXIF block holding only them (imgproxy's `keep_copyright`).
 * Text is kept to printable ASCII, at most 255 bytes each; nothing else of the source's metadata
 * is carried over. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static uint32_t magpie__u16(const uint8_t *p, int le) { return le ? magpie__le16(p) : magpie__be16(p); }
static uint32_t magpie__u32(const uint8_t *p, int le) { return le ? magpie__le32(p) : magpie__be32(p); }

/* Copies the ASCII value of an IFD entry at `e` (within TIFF `t` of `n` bytes) into `out`. */
static void magpie__ascii(const uint8_t *t, size_t n, const uint8_t *e, int le, char out[256]) {
    if (magpie__u16(e + 2, le) != 2) return; /* type ASCII */
    uint32_t count = magpie__u32(e + 4, le);
    const uint8_t *v = e + 8;
    if (count > 4) {
        uint32_t off = magpie__u32(e + 8, le);
        if (off > n || count > n - off) return;
        v = t + off;
    }
    size_t k = 0;
    for (uint32_t i = 0; i < count && v[i] && k < 255; i++)
        if (v[i] >= 0x20 && v[i] < 0x7F) out[k++] = (char)v[i];
    out[k] = 0;
}

static void magpie__tiff_rights(const uint8_t *t, size_t n, magpie_rights *r) {
    if (n < 8) return;
    int le = t[0] == 'I' && t[1] == 'I';
    if (!le && !(t[0] == 'M' && t[1] == 'M')) return;
    if (magpie__u16(t + 2, le) != 42) return;
    uint32_t ifd = magpie__u32(t + 4, le);
    if (ifd > n - 2) return;
    uint32_t entries = magpie__u16(t + ifd, le);
    for (uint32_t i = 0; i < entries && i < 1000; i++) {
        size_t at = (size_t)ifd + 2 + (size_t)i * 12;
        if (at > n || n - at < 12) return;
        uint32_t tag = magpie__u16(t + at, le);
        if (tag == 0x8298) magpie__ascii(t, n, t + at, le, r->copyright);
        if (tag == 0x013B) magpie__ascii(t, n, t + at, le, r->artist);
    }
}

/* The TIFF block of the EXIF in `d` (JPEG APP1, PNG eXIf, WebP EXIF, or a TIFF itself), or NULL. */
const uint8_t *magpie__exif_block(const uint8_t *d, size_t n, size_t *tn) {
    if (n >= 4 && d[0] == 0xFF && d[1] == 0xD8) {
        size_t at = 2;
        while (at + 4 <= n && d[at] == 0xFF) {
            uint8_t m = d[at + 1];
            if (m == 0xDA || m == 0xD9) break;
            if (m == 0xFF) {
                at++;
                continue;
            }
            size_t len = magpie__be16(d + at + 2);
            if (len < 2 || len > n - at - 2) break;
            if (m == 0xE1 && len >= 8 && !memcmp(d + at + 4, "Exif\0\0", 6)) {
                *tn = len - 8;
                return d + at + 10;
            }
            at += 2 + len;
        }
        return NULL;
    }
    if (n >= 8 && !memcmp(d, "\x89PNG\r\n\x1a\n", 8)) {
        for (size_t at = 8; at + 12 <= n;) {
            size_t len = magpie__be32(d + at);
            if (len > n - at - 12) break;
            if (!memcmp(d + at + 4, "eXIf", 4)) {
                *tn = len;
                return d + at + 8;
            }
            if (!memcmp(d + at + 4, "IEND", 4)) break;
            at += 12 + len;
        }
        return NULL;
    }
    if (n >= 12 && !memcmp(d, "RIFF", 4) && !memcmp(d + 8, "WEBP", 4)) {
        for (size_t at = 12; at + 8 <= n;) {
            size_t len = magpie__le32(d + at + 4);
            if (len > n - at - 8) break;
            if (!memcmp(d + at, "EXIF", 4)) {
                const uint8_t *t = d + at + 8;
                if (len >= 6 && !memcmp(t, "Exif\0\0", 6)) t += 6, len -= 6;
                *tn = len;
                return t;
            }
            at += 8 + len + (len & 1);
        }
        return NULL;
    }
    if (n >= 8 && (!memcmp(d, "II*\0", 4) || !memcmp(d, "MM\0*", 4))) {
        *tn = n;
        return d;
    }
    return NULL;
}

int magpie_read_rights(const void *data, size_t size, magpie_rights *rights) {
    if (!rights || (!data && size)) return MAGPIE_EINVAL;
    memset(rights, 0, sizeof *rights);
    size_t tn = 0;
    const uint8_t *t = data ? magpie__exif_block(data, size, &tn) : NULL;
    if (t) magpie__tiff_rights(t, tn, rights);
    return MAGPIE_OK;
}

/* A little-endian TIFF with IFD0 holding Artist then Copyright (tags ascending); its size. */
static size_t magpie__rights_tiff(const magpie_rights *r, uint8_t *out) {
    const char *values[2] = {r->artist, r->copyright};
    const uint16_t tags[2] = {0x013B, 0x8298};
    size_t lens[2], n = 0;
    for (int i = 0; i < 2; i++) {
        lens[i] = strnlen(values[i], 255);
        if (lens[i]) n++;
    }
    memcpy(out, "II*\0\x08\0\0\0", 8);
    out[8] = (uint8_t)n, out[9] = 0;
    size_t data_at = 10 + n * 12 + 4, e = 10;
    for (int i = 0; i < 2; i++) {
        if (!lens[i]) continue;
        uint32_t count = (uint32_t)lens[i] + 1;
        uint8_t *p = out + e;
        p[0] = (uint8_t)tags[i], p[1] = (uint8_t)(tags[i] >> 8), p[2] = 2, p[3] = 0;
        for (int b = 0; b < 4; b++) p[4 + b] = (uint8_t)(count >> (8 * b));
        memset(p + 8, 0, 4);
        if (count <= 4) {
            memcpy(p + 8, values[i], lens[i]);
        } else {
            for (int b = 0; b < 4; b++) p[8 + b] = (uint8_t)(data_at >> (8 * b));
            memcpy(out + data_at, values[i], lens[i]);
            out[data_at + lens[i]] = 0;
            data_at += count + (count & 1);
        }
        e += 12;
    }
    memset(out + e, 0, 4); /* no next IFD */
    return data_at;
}

static void magpie__put_be32(uint8_t *p, uint32_t v) {
    for (int b = 0; b < 4; b++) p[b] = (uint8_t)(v >> (24 - 8 * b));
}
static void magpie__put_le32(uint8_t *p, uint32_t v) {
    for (int b = 0; b < 4; b++) p[b] = (uint8_t)(v >> (8 * b));
}

int magpie_write_rights(const void *encoded, size_t size, const magpie_rights *rights, uint32_t width, uint32_t height,
                        uint8_t **out, size_t *out_size) {
    if (!encoded || !rights || !out || !out_size || size < 12) return MAGPIE_EINVAL;
    *out = NULL;
    *out_size = 0;
    const uint8_t *d = encoded;
    uint8_t tiff[600];
    size_t tn = rights->copyright[0] || rights->artist[0] ? magpie__rights_tiff(rights, tiff) : 0;
    size_t at, extra;
    enum { JPEG, PNG, WEBP } kind;
    if (d[0] == 0xFF && d[1] == 0xD8) {
        kind = JPEG, at = 2, extra = 10 + tn;
        /* After a JFIF APP0, which must come first. */
        if (d[2] == 0xFF && d[3] == 0xE0) {
            size_t len = magpie__be16(d + 4);
            if (len < 2 || len > size - 4) return MAGPIE_ECORRUPT;
            at = 4 + len;
        }
    } else if (!memcmp(d, "\x89PNG\r\n\x1a\n", 8)) {
        if (size < 33 || memcmp(d + 12, "IHDR", 4) || magpie__be32(d + 8) != 13) return MAGPIE_ECORRUPT;
        kind = PNG, at = 33, extra = 12 + tn;
    } else if (!memcmp(d, "RIFF", 4) && !memcmp(d + 8, "WEBP", 4) && size >= 20) {
        if (magpie__le32(d + 4) != size - 8) return MAGPIE_ECORRUPT;
        int vp8x = !memcmp(d + 12, "VP8X", 4);
        if (!vp8x && (width == 0 || height == 0 || width > 1u << 24 || height > 1u << 24)) return MAGPIE_EINVAL;
        kind = WEBP, at = size, extra = 8 + tn + (tn & 1) + (vp8x ? 0 : 18);
    } else {
        return MAGPIE_EUNSUPPORTED;
    }
    if (at > size) return MAGPIE_ECORRUPT;
    if (!tn) extra = 0;
    uint8_t *o = malloc(size + extra);
    if (!o) return MAGPIE_ENOMEM;
    if (!tn) {
        memcpy(o, d, size);
    } else if (kind == JPEG) {
        memcpy(o, d, at);
        uint8_t *s = o + at;
        s[0] = 0xFF, s[1] = 0xE1, s[2] = (uint8_t)((8 + tn) >> 8), s[3] = (uint8_t)(8 + tn);
        memcpy(s + 4, "Exif\0\0", 6);
        memcpy(s + 10, tiff, tn);
        memcpy(s + 10 + tn, d + at, size - at);
    } else if (kind == PNG) {
        memcpy(o, d, at);
        uint8_t *c = o + at;
        magpie__put_be32(c, (uint32_t)tn);
        memcpy(c + 4, "eXIf", 4);
        memcpy(c + 8, tiff, tn);
        magpie__put_be32(c + 8 + tn, magpie_crc32(0, c + 4, 4 + tn));
        memcpy(c + 12 + tn, d + at, size - at);
    } else {
        size_t w = 12;
        memcpy(o, d, 12);
        if (!memcmp(d + 12, "VP8X", 4)) {
            memcpy(o + 12, d + 12, size - 12);
            o[20] |= 0x08; /* EXIF present */
            w = size;
        } else {
            /* The simple format becomes the extended one: a VP8X (alpha from a VP8L header). */
            int alpha = !memcmp(d + 12, "VP8L", 4) && size >= 25 && ((magpie__le32(d + 21) >> 28) & 1);
            memcpy(o + 12, "VP8X", 4);
            magpie__put_le32(o + 16, 10);
            memset(o + 20, 0, 10);
            o[20] = (uint8_t)(0x08 | (alpha ? 0x10 : 0));
            for (int b = 0; b < 3; b++) {
                o[24 + b] = (uint8_t)((width - 1) >> (8 * b));
                o[27 + b] = (uint8_t)((height - 1) >> (8 * b));
            }
            memcpy(o + 30, d + 12, size - 12);
            w = 30 + size - 12;
        }
        memcpy(o + w, "EXIF", 4);
        magpie__put_le32(o + w + 4, (uint32_t)tn);
        memcpy(o + w + 8, tiff, tn);
        if (tn & 1) o[w + 8 + tn] = 0;
        magpie__put_le32(o + 4, (uint32_t)(size + extra - 8));
    }
    *out = o;
    *out_size = size + extra;
    return MAGPIE_OK;
}
