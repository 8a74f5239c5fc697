/* Format sniffing by full signatures. */
#include <string.h>

#include "internal.h"

static int magpie__has(const uint8_t *d, size_t n, size_t at, const char *sig, size_t len) {
    return n >= at + len && memcmp(d + at, sig, len) == 0;
}

static int magpie__is_heif_brand(const uint8_t *b) {
    static const char *brands[] = {"heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs",
                                   "mif1", "msf1"};
    for (size_t i = 0; i < sizeof brands / sizeof *brands; i++)
        if (memcmp(b, brands[i], 4) == 0) return 1;
    return 0;
}

static magpie_format magpie__sniff_ftyp(const uint8_t *d, size_t n) {
    /* ISO BMFF: size(4) "ftyp" major(4) minor(4) compatible brands... */
    if (!magpie__has(d, n, 4, "ftyp", 4) || n < 12) return MAGPIE_FORMAT_UNKNOWN;
    size_t box = magpie__be32(d);
    if (box < 16 || box > 4096) return MAGPIE_FORMAT_UNKNOWN;
    size_t end = box < n ? box : n;
    int heif = 0;
    const uint8_t *major = d + 8;
    if (memcmp(major, "avif", 4) == 0 || memcmp(major, "avis", 4) == 0) return MAGPIE_FORMAT_AVIF;
    heif = magpie__is_heif_brand(major);
    for (size_t at = 16; at + 4 <= end; at += 4) {
        if (memcmp(d + at, "avif", 4) == 0 || memcmp(d + at, "avis", 4) == 0)
            return heif && memcmp(major, "mif1", 4) != 0 ? MAGPIE_FORMAT_HEIC : MAGPIE_FORMAT_AVIF;
        heif |= magpie__is_heif_brand(d + at);
    }
    return heif ? MAGPIE_FORMAT_HEIC : MAGPIE_FORMAT_UNKNOWN;
}

static magpie_format magpie__sniff_svg(const uint8_t *d, size_t n) {
    size_t i = 0, lim = n < 4096 ? n : 4096;
    if (lim >= 3 && d[0] == 0xEF && d[1] == 0xBB && d[2] == 0xBF) i = 3;
    while (i < lim && (d[i] == ' ' || d[i] == '\t' || d[i] == '\r' || d[i] == '\n')) i++;
    if (i >= lim || d[i] != '<') return MAGPIE_FORMAT_UNKNOWN;
    /* Text that starts with a tag: an XML declaration, comments or a doctype may precede <svg. */
    for (size_t j = i; j + 4 <= lim; j++) {
        if (d[j] == 0) return MAGPIE_FORMAT_UNKNOWN; /* binary, not text */
        if (d[j] == '<' && memcmp(d + j + 1, "svg", 3) == 0 &&
            (j + 4 == lim || d[j + 4] == ' ' || d[j + 4] == '>' || d[j + 4] == '\n' ||
             d[j + 4] == '\r' || d[j + 4] == '\t' || d[j + 4] == '/' || d[j + 4] == ':'))
            return MAGPIE_FORMAT_SVG;
    }
    return MAGPIE_FORMAT_UNKNOWN;
}

magpie_format magpie_sniff(const void *data, size_t size) {
    const uint8_t *d = data;
    if (!d || size < 2) return MAGPIE_FORMAT_UNKNOWN;
    if (d[0] == 0xFF && d[1] == 0xD8) return MAGPIE_FORMAT_JPEG; /* SOI */
    if (magpie__has(d, size, 0, "\x89PNG\r\n\x1a\n", 8)) return MAGPIE_FORMAT_PNG;
    if (magpie__has(d, size, 0, "GIF87a", 6) || magpie__has(d, size, 0, "GIF89a", 6))
        return MAGPIE_FORMAT_GIF;
    if (magpie__has(d, size, 0, "RIFF", 4) && magpie__has(d, size, 8, "WEBP", 4))
        return MAGPIE_FORMAT_WEBP;
    if (magpie__has(d, size, 0, "II*\0", 4) || magpie__has(d, size, 0, "MM\0*", 4))
        return MAGPIE_FORMAT_TIFF;
    if (magpie__has(d, size, 0, "%PDF-", 5)) return MAGPIE_FORMAT_PDF;
    if (size >= 18 && d[0] == 'B' && d[1] == 'M') {
        /* BITMAPFILEHEADER then a DIB header whose size is one of the known ones. */
        uint32_t dib = magpie__le32(d + 14);
        if (magpie__le32(d + 6) == 0 &&
            (dib == 12 || dib == 16 || dib == 40 || dib == 52 || dib == 56 || dib == 64 ||
             dib == 108 || dib == 124))
            return MAGPIE_FORMAT_BMP;
    }
    if (size >= 22 && d[0] == 0 && d[1] == 0 && d[2] == 1 && d[3] == 0 && magpie__le16(d + 4) > 0 &&
        d[9] == 0 && (magpie__le16(d + 10) <= 1) && (magpie__le16(d + 12) <= 32 ||
                                                   magpie__le16(d + 12) == 0))
        return MAGPIE_FORMAT_ICO;
    magpie_format f = magpie__sniff_ftyp(d, size);
    if (f != MAGPIE_FORMAT_UNKNOWN) return f;
    return magpie__sniff_svg(d, size);
}
