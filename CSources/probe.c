/* Header probing without decoding or allocating. */
#include <string.h>

#include "internal.h"

void magpie_info_init(magpie_info *info) {
    if (!info) return;
    memset(info, 0, sizeof *info);
    info->struct_size = sizeof *info;
    info->loop_count = -1;
}

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

int magpie__probe_jpeg(magpie__in *in, magpie_info *info) {
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

/* ---- PNG ---- */

int magpie__probe_png(magpie__in *in, magpie_info *info) {
    const uint8_t *h = magpie__peek(in, 8, 8 + 13);
    if (!h) return in->io_error ? MAGPIE_EIO : MAGPIE_ETRUNCATED;
    if (magpie__be32(h) != 13 || memcmp(h + 4, "IHDR", 4) != 0) return MAGPIE_ECORRUPT;
    h += 8;
    info->width = magpie__be32(h);
    info->height = magpie__be32(h + 4);
    info->bit_depth = h[8];
    uint32_t ct = h[9];
    uint8_t compression = h[10], filter = h[11], interlace = h[12];
    info->frames = 1;
    if (info->width == 0 || info->height == 0 || info->width > 0x7fffffffu || info->height > 0x7fffffffu)
        return MAGPIE_ECORRUPT;
    uint32_t bd = info->bit_depth;
    int ok;
    switch (ct) {
    case 0: ok = bd == 1 || bd == 2 || bd == 4 || bd == 8 || bd == 16; info->components = 1; break;
    case 2: ok = bd == 8 || bd == 16; info->components = 3; break;
    case 3: ok = bd == 1 || bd == 2 || bd == 4 || bd == 8; info->components = 1; break;
    case 4: ok = bd == 8 || bd == 16; info->components = 2; break;
    case 6: ok = bd == 8 || bd == 16; info->components = 4; break;
    default: ok = 0;
    }
    if (!ok || compression != 0 || filter != 0 || interlace > 1) return MAGPIE_ECORRUPT;
    if (ct == 4 || ct == 6) info->flags |= MAGPIE_INFO_HAS_ALPHA;
    if (interlace == 1) info->flags |= MAGPIE_INFO_INTERLACED;
    /* Walk the chunks before the image data for tRNS and acTL. */
    uint64_t at = 8 + 8 + 13 + 4;
    uint32_t actl = 0;
    int fctl_before_idat = 0;
    const uint8_t *c;
    while ((c = magpie__peek(in, at, 12)) != NULL) {
        uint32_t len = magpie__be32(c);
        const uint8_t *type = c + 4;
        if (len > 0x7fffffffu) break;
        if (memcmp(type, "IDAT", 4) == 0 || memcmp(type, "IEND", 4) == 0) break;
        if (memcmp(type, "tRNS", 4) == 0) info->flags |= MAGPIE_INFO_HAS_ALPHA;
        if (memcmp(type, "fcTL", 4) == 0) fctl_before_idat = 1;
        if (memcmp(type, "acTL", 4) == 0 && len >= 8) actl = magpie__be32(c + 8);
        at += (uint64_t)len + 12;
    }
    /* APNG: the declared frames, plus the default image when it is not the first frame. A count
     * over 2^31 - 1 is invalid and ignored. */
    if (actl >= 1 && actl <= 0x7fffffffu) info->frames = actl + (fctl_before_idat ? 0 : 1);
    if (info->frames > 1) info->flags |= MAGPIE_INFO_ANIMATED;
    return MAGPIE_OK;
}

/* ---- recognised-only formats: size where the header makes it cheap ---- */

static void magpie__probe_bmp(const uint8_t *d, size_t n, magpie_info *info) {
    uint32_t dib = magpie__le32(d + 14);
    if (dib == 12 && n >= 26) {
        info->width = magpie__le16(d + 18);
        info->height = magpie__le16(d + 20);
        info->bit_depth = magpie__le16(d + 24);
    } else if (dib >= 16 && n >= 30) {
        int32_t w = (int32_t)magpie__le32(d + 18), h = (int32_t)magpie__le32(d + 22);
        info->width = w < 0 ? 0 : (uint32_t)w;
        info->height = h == INT32_MIN ? 0 : (uint32_t)(h < 0 ? -h : h);
        info->bit_depth = magpie__le16(d + 28);
    }
}

static void magpie__probe_tiff(const uint8_t *d, size_t n, magpie_info *info) {
    int le = d[0] == 'I';
#define RD16(q) (le ? magpie__le16(q) : magpie__be16(q))
#define RD32(q) (le ? magpie__le32(q) : magpie__be32(q))
    if (n < 8) return;
    uint32_t ifd = RD32(d + 4);
    if (ifd < 8 || ifd > n || n - ifd < 2) return;
    uint32_t count = RD16(d + ifd);
    for (size_t i = 0, at = (size_t)ifd + 2; i < count && at + 12 <= n; i++, at += 12) {
        uint32_t tag = RD16(d + at), type = RD16(d + at + 2);
        uint32_t v = type == 3 ? RD16(d + at + 8) : type == 4 ? RD32(d + at + 8) : 0;
        if (tag == 256) info->width = v;
        if (tag == 257) info->height = v;
    }
#undef RD16
#undef RD32
}

/* HEIF/AVIF: the first image spatial extents ("ispe") property, looked for in the first 64 KiB. */
/* A number attribute of the <svg> tag ("12", "12.5px"); 0 when absent or relative. */
static double magpie__svg_attr(const char *tag, size_t len, const char *name) {
    size_t nl = strlen(name);
    for (size_t i = 1; i + nl + 2 < len; i++) {
        if ((tag[i - 1] == ' ' || tag[i - 1] == '\n' || tag[i - 1] == '\t' || tag[i - 1] == '\r') &&
            memcmp(tag + i, name, nl) == 0 && tag[i + nl] == '=' && (tag[i + nl + 1] == '"' || tag[i + nl + 1] == '\'')) {
            const char *p = tag + i + nl + 2, *end = tag + len;
            double v = 0, frac = 0, scale = 1;
            int digits = 0;
            for (; p < end && *p >= '0' && *p <= '9'; p++, digits++) v = v * 10 + (*p - '0');
            if (p < end && *p == '.')
                for (p++; p < end && *p >= '0' && *p <= '9'; p++, digits++) frac += (scale /= 10) * (*p - '0');
            if (!digits || (p < end && *p == '%')) return 0;
            return v + frac;
        }
    }
    return 0;
}

static void magpie__probe_svg(const uint8_t *d, size_t n, magpie_info *info) {
    size_t lim = n < 4096 ? n : 4096;
    const char *t = (const char *)d;
    for (size_t i = 0; i + 4 <= lim; i++) {
        if (memcmp(t + i, "<svg", 4) != 0) continue;
        const char *end = memchr(t + i, '>', lim - i);
        size_t len = end ? (size_t)(end - (t + i)) : lim - i;
        double w = magpie__svg_attr(t + i, len, "width"), h = magpie__svg_attr(t + i, len, "height");
        if ((w <= 0 || h <= 0)) {
            /* viewBox="min-x min-y width height" */
            const char *vb = NULL;
            for (size_t j = 0; j + 9 < len; j++)
                if (memcmp(t + i + j, "viewBox=", 8) == 0) vb = t + i + j + 9;
            if (vb) {
                double v[4] = {0};
                const char *p = vb, *e = t + i + len;
                for (int k = 0; k < 4 && p < e; k++) {
                    while (p < e && (*p == ' ' || *p == ',')) p++;
                    int neg = p < e && *p == '-';
                    if (neg) p++;
                    double x = 0, sc = 1;
                    for (; p < e && *p >= '0' && *p <= '9'; p++) x = x * 10 + (*p - '0');
                    if (p < e && *p == '.')
                        for (p++; p < e && *p >= '0' && *p <= '9'; p++) x += (sc /= 10) * (*p - '0');
                    v[k] = neg ? -x : x;
                }
                w = v[2];
                h = v[3];
            }
        }
        if (w > 0 && h > 0 && w < 1e9 && h < 1e9) {
            info->width = (uint32_t)(w + 0.5);
            info->height = (uint32_t)(h + 0.5);
        }
        return;
    }
}

int magpie__probe(magpie__in *in, magpie_info *info) { return magpie__probe_upto(in, info, UINT32_MAX); }

int magpie__probe_upto(magpie__in *in, magpie_info *info, uint32_t frame_cap) {
    magpie_info_init(info);
    if (in->size == 0) return MAGPIE_EINVAL;
    size_t n;
    const uint8_t *d = magpie__peek_upto(in, 0, 65536, &n);
    if (!d) return in->io_error ? MAGPIE_EIO : MAGPIE_EUNKNOWN;
    info->format = magpie_sniff(d, n);
    info->frames = 1;
    info->orientation = 1;
    switch (info->format) {
    case MAGPIE_FORMAT_JPEG: return magpie__probe_jpeg(in, info);
    case MAGPIE_FORMAT_PNG: return magpie__probe_png(in, info);
    case MAGPIE_FORMAT_GIF: return magpie__probe_gif(in, info, frame_cap);
    case MAGPIE_FORMAT_WEBP: return magpie__probe_webp(in, info);
    case MAGPIE_FORMAT_BMP: magpie__probe_bmp(d, n, info); return MAGPIE_OK;
    case MAGPIE_FORMAT_TIFF: magpie__probe_tiff(d, n, info); return MAGPIE_OK;
    case MAGPIE_FORMAT_ICO:
        info->width = d[6] ? d[6] : 256;
        info->height = d[7] ? d[7] : 256;
        return MAGPIE_OK;
    case MAGPIE_FORMAT_HEIC:
    case MAGPIE_FORMAT_AVIF: return magpie__probe_isobmff(in, info);
    case MAGPIE_FORMAT_SVG: magpie__probe_svg(d, n, info); return MAGPIE_OK;
    case MAGPIE_FORMAT_PDF: return MAGPIE_OK;
    case MAGPIE_FORMAT_UNKNOWN:
    default: info->frames = 0; return MAGPIE_EUNKNOWN;
    }
}

int magpie_probe(const void *data, size_t size, magpie_info *info) {
    if (!info) return MAGPIE_EINVAL;
    magpie_info_init(info);
    if (!data || size == 0) return MAGPIE_EINVAL;
    magpie__in in;
    magpie__in_memory(&in, data, size);
    return magpie__probe(&in, info);
}

int magpie_probe_file(const char *path, magpie_info *info) {
    if (!info) return MAGPIE_EINVAL;
    magpie_info_init(info);
    magpie__in in;
    int rc = magpie__in_open(&in, path, NULL, 0);
    if (rc) return rc;
    rc = in.size ? magpie__probe(&in, info) : MAGPIE_EUNKNOWN;
    magpie__in_close(&in);
    return rc;
}

int magpie_sniff_file(const char *path, magpie_format *format) {
    if (!format) return MAGPIE_EINVAL;
    *format = MAGPIE_FORMAT_UNKNOWN;
    magpie__in in;
    int rc = magpie__in_open(&in, path, NULL, 0);
    if (rc) return rc;
    uint8_t head[4096];
    size_t n = magpie__read(&in, 0, head, sizeof head);
    if (in.io_error) rc = MAGPIE_EIO;
    else *format = magpie_sniff(head, n);
    magpie__in_close(&in);
    return rc;
}

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
