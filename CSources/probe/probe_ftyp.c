/* AVIF and HEIC by their ISOBMFF brands: the 'ftyp' box's major brand, then its compatible
 * brands (an AVIF brand beside a HEIF one is HEIC unless the major brand is the generic
 * 'mif1'). */
#include <string.h>

#include "core/codec.h"

static int magpie__is_heif_brand(const uint8_t *b) {
    static const char *brands[] = {"heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs",
                                   "mif1", "msf1"};
    for (size_t i = 0; i < sizeof brands / sizeof *brands; i++)
        if (memcmp(b, brands[i], 4) == 0) return 1;
    return 0;
}

/* size(4) "ftyp" major(4) minor(4) compatible brands... */
static magpie_format magpie__ftyp_format(const uint8_t *d, size_t n) {
    if (!magpie__starts(d, n, 4, "ftyp", 4) || n < 12) return MAGPIE_FORMAT_UNKNOWN;
    size_t box = magpie__be32(d);
    if (box < 16 || box > 4096) return MAGPIE_FORMAT_UNKNOWN;
    size_t end = box < n ? box : n;
    const uint8_t *major = d + 8;
    if (memcmp(major, "avif", 4) == 0 || memcmp(major, "avis", 4) == 0) return MAGPIE_FORMAT_AVIF;
    int heif = magpie__is_heif_brand(major);
    for (size_t at = 16; at + 4 <= end; at += 4) {
        if (memcmp(d + at, "avif", 4) == 0 || memcmp(d + at, "avis", 4) == 0)
            return heif && memcmp(major, "mif1", 4) != 0 ? MAGPIE_FORMAT_HEIC : MAGPIE_FORMAT_AVIF;
        heif |= magpie__is_heif_brand(d + at);
    }
    return heif ? MAGPIE_FORMAT_HEIC : MAGPIE_FORMAT_UNKNOWN;
}

int magpie__sniff_avif(const uint8_t *d, size_t n) { return magpie__ftyp_format(d, n) == MAGPIE_FORMAT_AVIF; }

int magpie__sniff_heic(const uint8_t *d, size_t n) { return magpie__ftyp_format(d, n) == MAGPIE_FORMAT_HEIC; }
