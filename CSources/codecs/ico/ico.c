/* ICO and CUR: the entry an icon is decoded from (the largest: the most pixels, then the most
 * bits, measured from each entry's own header, which the probe reports too), and its decoding: a
 * PNG stream through the PNG decoder, or a DIB with its AND mask through the BMP one (bmp.c). */
#include <string.h>

#include "core/codec.h"
#include "codecs/ico/ico.h"

#define MAGPIE__ICO_MAX_ENTRIES 1024u /* entries looked at; the rest of a longer directory ignored */

int magpie__ico_pick(magpie__in *in, magpie__ico_entry *best) {
    const uint8_t *d = magpie__peek(in, 0, 6);
    if (!d) return MAGPIE_ETRUNCATED;
    uint32_t count = magpie__le16(d + 4), found = 0;
    if (count > MAGPIE__ICO_MAX_ENTRIES) count = MAGPIE__ICO_MAX_ENTRIES;
    int first_error = MAGPIE_ECORRUPT;
    uint64_t best_px = 0;
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *e = magpie__peek(in, 6 + 16 * (uint64_t)i, 16);
        if (!e) {
            first_error = MAGPIE_ETRUNCATED;
            break;
        }
        magpie__ico_entry c;
        memset(&c, 0, sizeof c);
        c.size = magpie__le32(e + 8);
        c.offset = magpie__le32(e + 12);
        if (c.offset < 6 + 16 * (uint64_t)count) continue;
        /* An entry cut off means the icon was: refused, not decoded from a smaller entry. */
        if (c.offset >= in->size || c.size > in->size - c.offset) return MAGPIE_ETRUNCATED;
        const uint8_t *h = magpie__peek(in, c.offset, 8);
        if (h && magpie__starts(h, 8, 0, "\x89PNG\r\n\x1a\n", 8)) {
            const uint8_t *ihdr = magpie__peek(in, c.offset + 16, 10);
            if (!ihdr) continue;
            c.png = 1;
            c.width = magpie__be32(ihdr), c.height = magpie__be32(ihdr + 4);
            c.bits = 32;
        } else {
            const char *why;
            int rc = magpie__bmp_read(in, c.offset, 1, &c.bmp, &why);
            if (rc) {
                if (!found) first_error = rc;
                continue;
            }
            c.width = c.bmp.width, c.height = c.bmp.height, c.bits = c.bmp.bpp;
        }
        if (!c.width || !c.height) continue;
        uint64_t px = (uint64_t)c.width * c.height;
        if (!found || px > best_px || (px == best_px && c.bits > best->bits)) *best = c, best_px = px;
        found = 1;
    }
    if (in->io_error) return MAGPIE_EIO;
    return found ? MAGPIE_OK : first_error;
}

int magpie__decode_ico(magpie__job *job) {
    if (job->first_frame != 0) return MAGPIE_ERANGE;
    magpie__ico_entry e;
    int rc = magpie__ico_pick(job->in, &e);
    if (rc) {
        magpie__detail(job, "no icon entry could be read");
        return rc;
    }
    if (e.width != job->info.width || e.height != job->info.height) return MAGPIE_ECORRUPT;
    if (!e.png) return magpie__bmp_decode(job, &e.bmp);
    const uint8_t *data;
    uint8_t *owned = NULL;
    if ((rc = magpie__whole_input(job, &data, &owned))) return rc;
    magpie__in sub, *whole = job->in;
    magpie__in_memory(&sub, data + e.offset, e.size);
    job->in = &sub;
    rc = magpie__decode_png(job);
    job->in = whole;
    magpie__whole_input_free(job, owned);
    return rc;
}
