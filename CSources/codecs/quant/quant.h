/* libimagequant, loaded on the first GIF encode or PNG palette (lazy.c, quant.c): the functions the GIF encoder
 * calls, and the palette of one frame. libimagequant is GPL-3.0 (or commercial): loaded at run time
 * only where GIF output is asked for, and only if installed (the README says so). */
#ifndef MAGPIE_QUANT_H
#define MAGPIE_QUANT_H

#include "internal.h"

/* A frame's palette: at most 256 RGB colours and their alpha; `transparent` the first index whose
 * alpha is below 128 (what GIF draws as nothing), or -1. */
typedef struct magpie__palette {
    uint8_t rgb[256][3];
    uint8_t alpha[256];
    int count, transparent;
} magpie__palette;

/* Quantises w × h RGBA pixels (rows `stride` apart; GIF's alpha already 0 or 255) into a palette of at
 * most `max_colors` (one kept for transparency when a pixel is transparent) and writes each
 * pixel's index into `idx` (w per row), dithered at `dither` (0–1). `speed` is libimagequant's
 * (1 best – 10 fastest). MAGPIE_EUNSUPPORTED (with `*why`) when libimagequant is not there. */
MAGPIE_HIDDEN int magpie__quantize(const uint8_t *px, uint32_t w, uint32_t h, size_t stride, int max_colors,
                                   float dither, int speed, magpie__palette *pal, uint8_t *idx);
/* Whether libimagequant is there to load, without loading it. */
MAGPIE_HIDDEN int magpie__quant_available(void);

#endif
