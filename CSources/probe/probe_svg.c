/* SVG: recognised as text that starts with a tag and has an <svg> tag in its first 4 KiB (an XML
 * declaration, comments or a doctype may come first); the size from the tag's width and height,
 * else its viewBox (user units taken as pixels; librsvg then draws the document into that box). */
#include <string.h>

#include "core/codec.h"

int magpie__sniff_svg(const uint8_t *d, size_t n) {
    size_t i = 0, lim = n < 4096 ? n : 4096;
    if (lim >= 3 && d[0] == 0xEF && d[1] == 0xBB && d[2] == 0xBF) i = 3;
    while (i < lim && (d[i] == ' ' || d[i] == '\t' || d[i] == '\r' || d[i] == '\n')) i++;
    if (i >= lim || d[i] != '<') return 0;
    /* Text that starts with a tag: an XML declaration, comments or a doctype may precede <svg. */
    for (size_t j = i; j + 4 <= lim; j++) {
        if (d[j] == 0) return 0; /* binary, not text */
        if (d[j] == '<' && memcmp(d + j + 1, "svg", 3) == 0 &&
            (j + 4 == lim || d[j + 4] == ' ' || d[j + 4] == '>' || d[j + 4] == '\n' ||
             d[j + 4] == '\r' || d[j + 4] == '\t' || d[j + 4] == '/' || d[j + 4] == ':'))
            return 1;
    }
    return 0;
}

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

int magpie__probe_svg(magpie__in *in, magpie_info *info, uint32_t frame_cap) {
    (void)frame_cap;
    size_t n;
    const uint8_t *d = magpie__peek_upto(in, 0, 65536, &n);
    if (!d) return MAGPIE_OK;
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
        /* A tag cut off is a truncated file; one with no size (nor a viewBox) cannot be drawn at
         * a size the caller can ask about. */
        if (!end) return MAGPIE_ETRUNCATED;
        return info->width && info->height ? MAGPIE_OK : MAGPIE_ECORRUPT;
    }
    return MAGPIE_ETRUNCATED;
}
