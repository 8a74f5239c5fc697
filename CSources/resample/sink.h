/* The streaming resampler's state, shared by its two files: resize.c (set-up, rows in, the box
 * pre-shrink) and resize_pass.c (the filter passes). Private to the library. */
#ifndef MAGPIE_SINK_H
#define MAGPIE_SINK_H

#include "internal.h"

/* x86-64 always has SSE2: each RGBA pixel is one 4-float vector, accumulated tap by tap (the
 * layout Pillow-SIMD and libvips use). Elsewhere the same loops in plain C. */
/* MAGPIE_NO_SIMD forces the plain loops (the tests build it that way too). */
#if defined(__SSE2__) && !defined(MAGPIE_NO_SIMD)
#include <emmintrin.h>
#define MAGPIE_SSE2 1
#endif
/* Where the compiler can target AVX2 and FMA per function (GCC, Clang on x86-64), the passes
 * also have AVX2 versions, two pixels per vector, chosen at run time when the CPU has both
 * (MAGPIE_NO_AVX2 leaves them out, so the SSE2 ones can be tested on such a CPU). */
#if MAGPIE_SSE2 && !defined(MAGPIE_NO_AVX2) && defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#define MAGPIE_AVX2 1
#define MAGPIE_TARGET_AVX2 __attribute__((target("avx2,fma")))
#endif

struct magpie__sink {
    magpie__geometry g;
    uint8_t *dst;
    size_t dst_stride;
    int copy;            /* rows map 1:1 to the output */
    uint32_t box;        /* integer pre-shrink factor */
    uint32_t bw, bh;     /* size after the box stage */
    uint32_t in_row;     /* rows pushed so far */
    uint32_t acc_rows;   /* rows in the current box row */
    uint32_t box_row;    /* box rows completed */
    uint32_t *acc;       /* bw * 4 sums: premultiplied R, G, B (x255) and A */
    float *accf;         /* in linear light, the same sums as floats of linear values (acc unused) */
    float *brow;         /* (bw + hpad) * 4 premultiplied floats; the padded taps past the row read
                            the zeros at its end (or earlier columns' finite values), times 0 */
    int32_t *hx, *vy;    /* first input index per output column / row */
    uint16_t *hn, *vn;   /* taps used */
    float *hw, *vw;      /* weights, htaps / vtaps per output */
    int16_t *hwf;        /* opaque rows with AVX2: the weights in fixed point (resize_fixed.c) */
    int32_t *hxf;        /* their first input column per output (moved left to keep reads in) */
    uint32_t hquad;      /* their taps per output: hpad rounded up to a multiple of 4 */
    float *hw4;          /* with SSE2: hw padded with zeros to hpad taps, each weight repeated 4 times
                            (one vector a tap), so every output runs the same loop */
    uint32_t hpad;       /* the most taps any output uses, rounded up to a multiple of 2 */
    int avx2;            /* the CPU has AVX2 and FMA */
    int opaque;          /* every row has alpha 255 (magpie__sink_set_opaque) */
    uint32_t hlo;        /* the first input column any output reads */
    uint32_t *hneed;     /* per block of 16 outputs: input columns converted by its end (x4) */
    uint32_t htaps, vtaps;
    uint32_t mid_y0, mid_h; /* the box rows any output reads */
    uint32_t ring;       /* horizontally filtered rows kept at once (at most vtaps) */
    uint32_t vnext;      /* the next output row the vertical pass writes */
    float *mid;          /* out_w * 4 * ring: row y of the box rows in slot (y - mid_y0) % ring */
    float *vacc;         /* out_w * 4, the vertical pass's sums */
    float **vrows;       /* vtaps: the kept rows an output row reads, in tap order */
    uint8_t *orow;       /* out_w * 4 */
};

/* Filters one input row (RGBA8, no pre-shrink) or, with `row` NULL, the current box row into the
 * kept rows, then writes every output row whose rows are all in (see resize_pass.c). */
MAGPIE_HIDDEN void magpie__hpass(magpie__sink *s, uint32_t y, const uint8_t *row);
/* Builds the fixed-point weights when the CPU, the geometry and memory allow (else hwf stays NULL
 * and the float pass is used), and filters one opaque RGBA8 row into `o` with them. */
MAGPIE_HIDDEN void magpie__sink_fixed_create(magpie__sink *s);
#if MAGPIE_AVX2
MAGPIE_HIDDEN MAGPIE_TARGET_AVX2 void magpie__hrow_fixed(const magpie__sink *s, float *o, const uint8_t *row);
#endif

#endif
