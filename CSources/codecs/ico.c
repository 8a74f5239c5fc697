/* ICO and CUR decoding: the entry the probe chose (probe_ico.c), a PNG stream through the PNG
 * decoder, or a DIB with its AND mask through the BMP one (bmp.c). */
#include "codec.h"
#include "ico.h"

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
