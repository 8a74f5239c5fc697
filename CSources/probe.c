/* Header probing without decoding or allocating: the dispatch by sniffed format, the public
 * entry points, and the formats only recognised (BMP, TIFF, SVG sizes). Each decodable format
 * probes in its own probe_<format>.c. */
#include <string.h>

#include "internal.h"

void magpie_info_init(magpie_info *info) {
    if (!info) return;
    memset(info, 0, sizeof *info);
    info->struct_size = sizeof *info;
    info->loop_count = -1;
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
