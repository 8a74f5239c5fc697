/* The GIF encoder's state (gif_encode.c writes the file, gif_palette.c chooses each frame's
 * colours). Private to the two. */
#ifndef MAGPIE_GIF_ENCODE_H
#define MAGPIE_GIF_ENCODE_H

#include <gif_lib.h>

#include "core/codec.h"
#include "codecs/quant/quant.h"

#define MAGPIE__GIF_CELLS (1u << 18) /* colours to 6 bits a channel: a palette's nearest entry per cell */
/* How much worse than the first frame (mean squared error per channel) a frame may be shown with
 * a palette it did not make before it gets its own (measured in the README: at 6, 0.3 dB below a
 * palette per frame, at a third of the time). */
#define MAGPIE__GIF_WORSE 6.0

typedef struct {
    GifFileType *gif;
    uint8_t *buf;
    size_t len, cap;
    uint64_t max_bytes;
    uint32_t w, h, frames;
    int max_colors, speed, loop_count, header;
    float dither;
    /* RGBA with alpha 0 or 255: the frame coming in, the frame waiting for the next one, and the
     * frame before it (what the canvas shows where a frame leaves pixels as they were); indices. */
    uint8_t *work, *pend, *prev, *idx;
    magpie__palette global, local;
    int have_local;
    uint8_t *near_global, *near_local; /* per cell: the nearest entry + 1, 0 until first needed */
    double base_mse;   /* the first frame's error under its own palette */
    int pending, pend_alpha, prev_background;
    uint32_t pend_delay;
} magpie__gif_enc;

/* A rectangle of the canvas: x0 <= x < x1, y0 <= y < y1. */
typedef struct {
    uint32_t x0, y0, x1, y1;
} magpie__gif_rect;

/* The pending frame's pixels in `r` drawn with palette `p` (per pixel the entry nearest its cell's
 * centre, remembered in `near`; the transparent one where alpha is 0) into `idx` (rows of the
 * canvas's width); the mean squared error per channel of its opaque pixels. */
MAGPIE_HIDDEN double magpie__gif_remap(magpie__gif_enc *st, const magpie__palette *p, uint8_t *near,
                                       magpie__gif_rect r);
/* The mean squared error per channel of the pending frame's opaque pixels in `r` as `idx` draws
 * them with `p`. */
MAGPIE_HIDDEN double magpie__gif_error(const magpie__gif_enc *st, const magpie__palette *p, magpie__gif_rect r);
/* The pending frame's pixels in `r` quantised into a palette of their own, `p`, and `idx`. */
MAGPIE_HIDDEN int magpie__gif_quantize(magpie__gif_enc *st, magpie__gif_rect r, magpie__palette *p, uint8_t *idx,
                                       size_t idx_stride);

#endif
