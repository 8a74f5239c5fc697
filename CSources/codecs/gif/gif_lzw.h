/* A GIF frame's LZW stream, read sub-block by sub-block (gif_lzw.c). Private to the GIF decoder. */
#ifndef MAGPIE_GIF_LZW_H
#define MAGPIE_GIF_LZW_H

#include "core/job.h"

typedef struct {
    magpie__in *in;
    uint64_t at;         /* file offset of span[0] */
    const uint8_t *span; /* bytes read ahead (valid until the next peek, and only this reader peeks) */
    size_t avail;        /* bytes left in span */
    uint32_t left;       /* bytes left in the current sub-block */
    int ended;           /* the sub-block terminator (or the end of the data) was reached */
    int truncated;       /* the data ended inside the stream */
    uint32_t bits;       /* bit buffer, LSB first */
    uint32_t nbits;
} magpie__lzw_reader;

typedef struct {
    magpie__lzw_reader r;
    int16_t prefix[4096]; /* each code's string: the code before it (-1 for a single pixel) ... */
    uint8_t suffix[4096]; /* ... and its last pixel */
    uint16_t len[4096];   /* its length */
    uint8_t stack[4097];  /* the current string, last pixel on top */
    int sp, clear, next, prev, min;
    uint32_t size, frame;
    uint8_t first;        /* the first pixel of the previous string */
    uint64_t done, pixels;
} magpie__gif_lzw;

/* Starts decoding frame `frame`, whose first sub-block starts at `at` (the minimum code size is the
 * byte before) and which has `pixels` pixels. MAGPIE_ECORRUPT for a bad code size. */
MAGPIE_HIDDEN int magpie__gif_lzw_begin(magpie__job *job, magpie__gif_lzw *z, uint64_t at, uint32_t frame,
                                        uint64_t pixels);
/* The next `n` indices into `out`: MAGPIE_OK, or MAGPIE_ECORRUPT (a code not defined) or
 * MAGPIE_ETRUNCATED (the stream ends, or an end code comes, before the frame's pixels), with a
 * detail. */
MAGPIE_HIDDEN int magpie__gif_lzw_read(magpie__job *job, magpie__gif_lzw *z, uint8_t *out, uint32_t n);

#endif
