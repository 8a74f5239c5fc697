/* BMP's DIB header, read once for the probe and the decoder (bmp_header.c), and the decoder
 * shared by BMP files and ICO/CUR entries (bmp.c). Private to the core. */
#ifndef MAGPIE_BMP_H
#define MAGPIE_BMP_H

#include "core/job.h"

#define MAGPIE__BMP_RGB 0u
#define MAGPIE__BMP_RLE8 1u
#define MAGPIE__BMP_RLE4 2u
#define MAGPIE__BMP_BITFIELDS 3u

typedef struct magpie__bmp {
    uint32_t width, height;
    int top_down;          /* rows stored top first (a negative height) */
    uint32_t bpp;          /* 1, 2, 4, 8, 16, 24 or 32 */
    uint32_t compression;  /* MAGPIE__BMP_*: the only ones decoded */
    uint32_t masks[4];     /* red, green, blue, alpha (0: no alpha) for 16 and 32 bits */
    uint64_t palette_at;   /* absolute offset of the colour table */
    uint32_t palette_count, palette_entry; /* entries used (at most 2^bpp), bytes each (3 or 4) */
    uint64_t pixels_at;    /* absolute offset of the pixel data */
    uint64_t stride;       /* bytes per stored row (uncompressed), rows padded to 4 bytes */
    uint64_t profile_at;   /* an embedded ICC profile (V5 'MBED'); 0 when none */
    uint32_t profile_size;
    int ico;               /* an ICO/CUR entry: height halved, an AND mask after the pixels */
} magpie__bmp;

/* Reads the DIB header at `dib_at` (a BMP file's at 14, with its pixel offset from the file header;
 * an ICO entry's at the entry, its pixels after the colour table). MAGPIE_OK; MAGPIE_ETRUNCATED
 * when the header is cut short; MAGPIE_ECORRUPT for sizes, depths or masks that make no image;
 * MAGPIE_EUNSUPPORTED for embedded JPEG or PNG, Huffman and RLE24 (with a reason in `why`). */
MAGPIE_HIDDEN int magpie__bmp_read(magpie__in *in, uint64_t dib_at, int ico, magpie__bmp *b, const char **why);
/* Decodes the pixels the header describes into the job (BMP or an ICO entry). */
MAGPIE_HIDDEN int magpie__bmp_decode(magpie__job *job, const magpie__bmp *b);

#endif
