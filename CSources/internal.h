/* Internal declarations shared by the C core. Not installed; not part of the API. */
#ifndef MAGPIE_INTERNAL_H
#define MAGPIE_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "magpie.h"

#define MAGPIE_HIDDEN __attribute__((visibility("hidden")))

/* Overflow-checked size arithmetic: return 0 on success, 1 on overflow. */
static inline int magpie__mul(size_t a, size_t b, size_t *out) { return __builtin_mul_overflow(a, b, out); }
static inline int magpie__add(size_t a, size_t b, size_t *out) { return __builtin_add_overflow(a, b, out); }
static inline int magpie__mul3(size_t a, size_t b, size_t c, size_t *out) {
    size_t t;
    return magpie__mul(a, b, &t) || magpie__mul(t, c, out);
}

/* Whether the n bytes at d hold `sig` (len bytes) at offset `at`. */
static inline int magpie__starts(const uint8_t *d, size_t n, size_t at, const char *sig, size_t len) {
    return n >= at + len && __builtin_memcmp(d + at, sig, len) == 0;
}

/* Big-endian and little-endian readers over bounded input. */
static inline uint32_t magpie__be16(const uint8_t *p) { return (uint32_t)p[0] << 8 | p[1]; }
static inline uint32_t magpie__be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static inline uint32_t magpie__le16(const uint8_t *p) { return (uint32_t)p[1] << 8 | p[0]; }
static inline uint32_t magpie__le32(const uint8_t *p) {
    return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

/* ---- input (input.c): memory, or a file read through a window ---- */
#define MAGPIE__WINDOW (256u << 10)
typedef struct magpie__in {
    const uint8_t *mem; /* the whole input in memory, or NULL for a file */
    uint64_t size;
    int fd;
    uint8_t *win;       /* file window, allocated on first use */
    uint64_t win_off;
    size_t win_len;
    int io_error;       /* errno of a failed read */
} magpie__in;

MAGPIE_HIDDEN void magpie__in_memory(magpie__in *in, const void *data, size_t size);
MAGPIE_HIDDEN int magpie__in_open(magpie__in *in, const char *path, char *detail, size_t detail_size);
MAGPIE_HIDDEN void magpie__in_close(magpie__in *in);
/* Copies up to n bytes at off; returns the count (short at the end or on a read error). */
MAGPIE_HIDDEN size_t magpie__read(magpie__in *in, uint64_t off, void *dst, size_t n);
/* Pointer to exactly n bytes at off (n <= MAGPIE__WINDOW), valid until the next peek; NULL past
 * the end or on a read error. */
MAGPIE_HIDDEN const uint8_t *magpie__peek(magpie__in *in, uint64_t off, size_t n);
/* As magpie__peek, but returns what there is up to n bytes, with the count in *got. */
MAGPIE_HIDDEN const uint8_t *magpie__peek_upto(magpie__in *in, uint64_t off, size_t n, size_t *got);

/* ---- probing: the dispatch in probe.c, each format's probe named in the codec table (codec.h) ---- */
MAGPIE_HIDDEN int magpie__probe(magpie__in *in, magpie_info *info);
/* As magpie__probe, but an animation's frames are counted only up to `frame_cap`: a decode that
 * needs the first frames does not walk the rest of the file (the count, and the flags the later
 * frames would set, then stop there). */
MAGPIE_HIDDEN int magpie__probe_upto(magpie__in *in, magpie_info *info, uint32_t frame_cap);
/* The output size of a primary item that is a 'grid', from its data (probe_grid.c): 1 with the
 * size, 0 when the primary is no grid or its data cannot be read. `m`/`n`: the meta box's children. */
MAGPIE_HIDDEN int magpie__heif_grid_size(magpie__in *in, const uint8_t *m, size_t n, uint32_t primary,
                                         uint32_t *width, uint32_t *height);
/* How many coded AV1 items ('av01' in 'iinf': tiles, alpha, layers) an AVIF declares (probe_avif.c). */
MAGPIE_HIDDEN uint32_t magpie__avif_coded_items(magpie__in *in);
/* The orientation tag (1..8, else 1) of a TIFF structure, the body of an EXIF block (probe_jpeg.c). */
MAGPIE_HIDDEN uint32_t magpie__tiff_orientation(const uint8_t *tiff, size_t size);

/* ---- resampling sink (resize.c) ----
 * A decoder pushes rows of straight RGBA8, top to bottom, in stored orientation. The sink either
 * copies them (no resize) or box-reduces by an integer factor and filters horizontally as rows
 * arrive, then filters vertically in `finish`. Every output row goes through the orientation
 * writer into the destination, so no second full-size buffer is needed to rotate. */
typedef struct magpie__geometry {
    uint32_t in_w, in_h;            /* rows the decoder delivers */
    double win_x, win_y, win_w, win_h; /* source window in input coordinates (crop for FIT_FILL) */
    uint32_t out_w, out_h;          /* stored-orientation output size */
    uint32_t orientation;           /* 1..8, applied when writing */
    magpie_filter filter;
    int linear;                     /* filter in linear light (MAGPIE_DECODE_LINEAR) */
} magpie__geometry;

typedef struct magpie__sink magpie__sink;

/* Bytes the sink will allocate for this geometry (for the memory budget). */
MAGPIE_HIDDEN size_t magpie__sink_bytes(const magpie__geometry *g);
/* dst is the upright destination: (orientation >= 5 ? out_h : out_w) wide. */
MAGPIE_HIDDEN int magpie__sink_create(const magpie__geometry *g, uint8_t *dst, size_t dst_stride,
                                      magpie__sink **out);
MAGPIE_HIDDEN void magpie__sink_push(magpie__sink *s, const uint8_t *row);
/* Promises that every row pushed from now on has alpha 255 (a JPEG): its conversion to floats
 * skips the premultiplication, which would multiply by exactly 1. */
MAGPIE_HIDDEN void magpie__sink_set_opaque(magpie__sink *s);
/* When rows map 1:1 onto the destination (no resize, no rotation), the destination row the next
 * push would fill, so a decoder can write it in place and call magpie__sink_push(s, NULL);
 * otherwise NULL. */
MAGPIE_HIDDEN uint8_t *magpie__sink_direct_row(magpie__sink *s);
MAGPIE_HIDDEN int magpie__sink_finish(magpie__sink *s);
/* Makes a finished (or new) sink ready for another image of the same geometry into `dst`: the
 * filter windows are kept, so an animation's frames are resampled with the plan made once. */
MAGPIE_HIDDEN void magpie__sink_restart(magpie__sink *s, uint8_t *dst, size_t dst_stride);
MAGPIE_HIDDEN void magpie__sink_destroy(magpie__sink *s);
/* Copies a stored-orientation row y (w pixels of a w x h image) into the upright destination. */
MAGPIE_HIDDEN void magpie__orient_row(uint8_t *dst, size_t dst_stride, uint32_t w, uint32_t h,
                                      uint32_t orientation, uint32_t y, const uint8_t *row);

/* ---- the process-wide decode memory budget (budget.c) ---- */
/* Adds `bytes` to what decodes hold: MAGPIE_OK; MAGPIE_EBUDGET when it does not fit beside the
 * others now, MAGPIE_ELIMIT_MEMORY when it never would (then *limit_seen and *used_seen, when
 * given, say why). */
MAGPIE_HIDDEN int magpie__budget_take(uint64_t bytes, uint64_t *limit_seen, uint64_t *used_seen);
MAGPIE_HIDDEN void magpie__budget_give(uint64_t bytes);

/* What a fit mode makes of an upright source of `uw` × `uh` (fit.c): the output size, and the
 * window of the source that maps onto it (all of it but for FIT_FILL's centre crop). */
typedef struct {
    uint32_t out_w, out_h;
    double win_x, win_y, win_w, win_h;
} magpie__fit_box;
/* MAGPIE_OK, or MAGPIE_EINVAL for a target the mode needs and lacks. */
MAGPIE_HIDDEN int magpie__fit(magpie_fit fit, double uw, double uh, double tw, double th, uint64_t max_output_pixels,
                              int up, magpie__fit_box *box);

/* The filter's half-width in source pixels at scale 1 (resize.c). */
MAGPIE_HIDDEN double magpie__support(magpie_filter f);
/* Taps an output sample needs when `win` input samples map to `out` (with room for rounding). */
MAGPIE_HIDDEN uint32_t magpie__taps(magpie_filter f, double win, uint32_t out);
/* Normalised weights of `out` samples over a window of `win` inputs starting at `off` within `in`:
 * per output, its first input, how many taps it uses (at most `taps`), and `taps` weights. */
MAGPIE_HIDDEN void magpie__premultiply(const uint8_t *row, float *out, uint32_t w);
/* One RGBA8 row of alpha 255 to floats: the premultiplied values, without the multiply. */
MAGPIE_HIDDEN void magpie__widen(const uint8_t *row, float *out, uint32_t w);
/* Filtered floats of an opaque row back to RGBA8 (alpha 255). */
MAGPIE_HIDDEN void magpie__narrow_opaque(const float *in, uint8_t *row, uint32_t w);
MAGPIE_HIDDEN void magpie__box_row(const uint8_t *row, uint32_t *acc, uint32_t w, uint32_t box, uint32_t bw);
/* Linear light (colour/linear.c): an RGBA8 sRGB row to premultiplied linear floats (R, G, B in
 * 0–255 linear units times alpha / 255, alpha 0–255); into float box sums; and a linear value in
 * 0–255 units back to an sRGB byte. */
MAGPIE_HIDDEN void magpie__premultiply_linear(const uint8_t *row, float *out, uint32_t w);
MAGPIE_HIDDEN void magpie__box_row_linear(const uint8_t *row, float *acc, uint32_t w, uint32_t box, uint32_t bw);
MAGPIE_HIDDEN uint8_t magpie__linear_to_srgb8(float v);
MAGPIE_HIDDEN void magpie__weights(magpie_filter f, uint32_t in, double off, double win, uint32_t out,
                                   uint32_t taps, int32_t *first, uint16_t *count, float *w);

/* ---- processing pixels (gauss.c, blur.c, transform.c, corners.c, color.c, composite.c) ---- */
/* The largest kernel radius: 3 * MAGPIE_MAX_SIGMA. */
#define MAGPIE__MAX_RADIUS 300u
/* A separable Gaussian over `width` × `height` pixels of `channels` floats: `load` writes row y's
 * columns [x0, x1) (x1 - x0 pixels) as floats; `store` takes row y's filtered columns
 * [x0, x0 + n). Rows are loaded top to bottom once per column strip, each before any row they
 * feed is stored. */
typedef struct magpie__gauss {
    uint32_t width, height, channels;
    void (*load)(void *context, uint32_t y, uint32_t x0, uint32_t x1, float *out);
    void (*store)(void *context, uint32_t y, uint32_t x0, uint32_t n, const float *row);
    void *context;
} magpie__gauss;
/* The kernel radius for sigma: ceil(3 sigma), at least 1. */
MAGPIE_HIDDEN uint32_t magpie__gauss_radius(double sigma);
/* MAGPIE_OK, MAGPIE_ENOMEM, or MAGPIE_EINVAL for a radius over MAGPIE__MAX_RADIUS. */
MAGPIE_HIDDEN int magpie__gauss_run(const magpie__gauss *g, double sigma);
/* The TIFF structure of the EXIF in `d` (a JPEG's APP1, a PNG's eXIf, a WebP's EXIF chunk, or a
 * TIFF file itself) and its size; NULL when there is none (rights.c). */
MAGPIE_HIDDEN const uint8_t *magpie__exif_block(const uint8_t *d, size_t n, size_t *tn);
/* ---- the pixel checks (util/pixels.c) ----
 * Whether `p` is usable pixels: a buffer, non-zero sizes, a stride of at least width * 4 that
 * does not overflow. */
MAGPIE_HIDDEN int magpie__pixels_ok(const magpie_pixels *p);
/* Whether two pixel rectangles share any byte. */
MAGPIE_HIDDEN int magpie__pixels_overlap(const magpie_pixels *a, const magpie_pixels *b);
/* Copies `src` into `dst` of the same size, row by row (nothing when they are the same). */
MAGPIE_HIDDEN void magpie__pixels_copy(const magpie_pixels *src, const magpie_pixels *dst);

#endif
