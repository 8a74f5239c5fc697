/* The ICO/CUR entry Magpie decodes, chosen the same way by the probe and the decoder. */
#ifndef MAGPIE_ICO_H
#define MAGPIE_ICO_H

#include "codecs/bmp/bmp.h"

typedef struct {
    uint64_t offset;
    uint32_t size;          /* bytes */
    uint32_t width, height;
    uint32_t bits;
    int png;                /* a PNG stream; else a DIB described by `bmp` */
    magpie__bmp bmp;
} magpie__ico_entry;

/* The largest entry (most pixels, then most bits, then the first). MAGPIE_OK; MAGPIE_ETRUNCATED
 * when an entry runs past the end of the input; else the error of the first entry that could not
 * be read (MAGPIE_ECORRUPT when none is usable). */
MAGPIE_HIDDEN int magpie__ico_pick(magpie__in *in, magpie__ico_entry *best);

#endif
