/* The codec table (codecs.c): one row per format, in the order formats are sniffed, with what the
 * core does with it (sniff, probe, decode, encode) and whether this build and this machine can.
 * Everything that varies by format is asked of the table; no other file switches on a format.
 * Adding a format is a file of its functions and a row in codecs.c (docs/adding-a-format.md).
 * Private to the core. */
#ifndef MAGPIE_CODEC_H
#define MAGPIE_CODEC_H

#include "core/job.h"

/* The function types of a row (each format's functions are declared with them below). */
/* Whether the `n` (>= 2) bytes at `d`, the start of an input, are this format. */
typedef int magpie__sniff_fn(const uint8_t *d, size_t n);
/* The header's facts into `info` (its format, frames = 1 and orientation = 1 already set); an
 * animation's frames counted only up to `frame_cap`. */
typedef int magpie__probe_fn(magpie__in *in, magpie_info *info, uint32_t frame_cap);
/* For a format of pages (TIFF): the facts of page `page` (> 0) into `info`, in place of the first
 * page's the probe gave; `info->frames` (the page count) is kept. */
typedef int magpie__page_fn(magpie__in *in, uint32_t page, magpie_info *info);
/* For MAGPIE_DECODE_THUMBNAIL, once the output is planned from the image: makes the embedded
 * thumbnail the input when it is at least the output's stored size (`job->st_w` × `st_h`) and of
 * the image's shape, its size in `job->info` (the image's orientation kept); MAGPIE_ERANGE when
 * there is none to use (the image itself is then decoded). */
typedef int magpie__thumbnail_fn(magpie__job *job);
/* Decodes a prepared job. */
typedef int magpie__decode_fn(magpie__job *job);
/* Encodes w × h RGBA8 pixels into a buffer the caller frees with magpie_free. */
typedef int magpie__encode_fn(const uint8_t *px, uint32_t w, uint32_t h, size_t stride,
                              const magpie_encode_options *o, uint8_t **out, size_t *n);

/* An animation decoded a frame at a time (GIF, animated WebP, AVIF sequences; frames.c drives
 * it for a whole decode and for the decoder handle's frame iterator):
 * - open: reads what comes before the first frame, allocates and charges the canvas and codec
 *   state, sets `job->loop_count`;
 * - next: composites the next frame onto the canvas (disposal, blending) and, with a `sink`,
 *   pushes the canvas's rows through it; MAGPIE_ERANGE, with a detail, when the file has no
 *   more frames; its delay in `*delay_ms`;
 * - seek (NULL: frames are skipped by decoding them): makes frame `index` the next one;
 * - close: frees and uncharges what open took (also after a failure). */
typedef struct magpie__frames_ops {
    int (*open)(magpie__job *job, void **state);
    int (*next)(magpie__job *job, void *state, magpie__sink *sink, uint32_t *delay_ms);
    int (*seek)(magpie__job *job, void *state, uint32_t index);
    void (*close)(magpie__job *job, void *state);
} magpie__frames_ops;

/* What an animated encoder is asked for, per format (anim_encode.c drives it):
 * - open: a w × h animation with `o` and `a` (checked), state in *state;
 * - add: one frame, RGBA8, shown for `delay_ms`;
 * - finish: the file into a malloc'd buffer (*out, *n); close frees (also after a failure). */
typedef struct magpie__animate_ops {
    int (*open)(uint32_t w, uint32_t h, const magpie_encode_options *o, const magpie_animation_options *a,
                void **state);
    int (*add)(void *state, const uint8_t *px, size_t stride, uint32_t delay_ms);
    int (*finish)(void *state, uint8_t **out, size_t *n);
    void (*close)(void *state);
} magpie__animate_ops;

typedef struct magpie__codec {
    magpie_format format;
    const char *name;       /* magpie_format_name: "jpeg" */
    const char *media_type; /* magpie_format_media_type: "image/jpeg" */
    magpie__sniff_fn *sniff;
    magpie__probe_fn *probe;   /* NULL: the format is all there is to say */
    magpie__page_fn *page;     /* NULL: no pages; else a decode delivers the page asked for */
    magpie__thumbnail_fn *thumbnail; /* NULL: no embedded thumbnails */
    magpie__decode_fn *decode; /* NULL: recognised, not decoded */
    magpie__encode_fn *encode; /* NULL: not written */
    const magpie__frames_ops *frames;   /* NULL: one frame (or pages) */
    const magpie__animate_ops *animate; /* NULL: no animated output */
    /* Whether the codec is there: compiled in, and a library loaded on first use there to load
     * (found without loading it). NULL: always. */
    int (*available)(void);
    /* Whether the encoder's own libraries are there besides (GIF's libimagequant); NULL: they are. */
    int (*encoder_available)(void);
    uint32_t flags; /* MAGPIE__CODEC_* */
} magpie__codec;

/* A build may leave the codec out, or its library may be missing: then `decode` is still called, to
 * refuse first thing with the reason (a stub in a build without it, the loader's error else). */
#define MAGPIE__CODEC_OPTIONAL 2u

/* The row of a format; NULL for MAGPIE_FORMAT_UNKNOWN or a value no row has. */
MAGPIE_HIDDEN const magpie__codec *magpie__codec_of(magpie_format format);
/* The first row whose sniff takes the bytes; NULL when none does (or for fewer than 2 bytes). */
MAGPIE_HIDDEN const magpie__codec *magpie__codec_sniff(const uint8_t *d, size_t n);
/* Whether a row's decoder, or encoder, is there to use. */
MAGPIE_HIDDEN int magpie__codec_decodes(const magpie__codec *c);
MAGPIE_HIDDEN int magpie__codec_encodes(const magpie__codec *c);
MAGPIE_HIDDEN int magpie__codec_animates(const magpie__codec *c);
/* A caller's encode options (NULL, or an older shorter struct) with defaults filled in, checked
 * (encode.c). */
MAGPIE_HIDDEN int magpie__encode_resolve(const magpie_encode_options *options, magpie_encode_options *o);

/* frames.c: a whole decode of an animation's frames through its row's frames ops (its codec's
 * decode calls it); and the frame iterator the decoder handle keeps. */
MAGPIE_HIDDEN int magpie__decode_frames(magpie__job *job);
typedef struct magpie__frames {
    const magpie__frames_ops *ops;
    void *state;
    magpie__sink *sink;
    magpie__geometry g;
    uint32_t index;   /* the next frame */
    uint64_t charged; /* the sink's bytes */
} magpie__frames;
/* Opens the job's animation; `f` is zeroed first. */
MAGPIE_HIDDEN int magpie__frames_begin(magpie__job *job, magpie__frames *f);
/* The next frame into `dst` (the output size, rows `stride` apart), or past it with `dst` NULL. */
MAGPIE_HIDDEN int magpie__frames_next(magpie__job *job, magpie__frames *f, uint8_t *dst, size_t stride,
                                      uint32_t *delay_ms);
MAGPIE_HIDDEN void magpie__frames_end(magpie__job *job, magpie__frames *f);

/* ---- each format's functions, in its own files ---- */
/* JPEG: probe_jpeg.c, jpeg.c, encode.c */
MAGPIE_HIDDEN magpie__sniff_fn magpie__sniff_jpeg;
MAGPIE_HIDDEN magpie__probe_fn magpie__probe_jpeg;
MAGPIE_HIDDEN magpie__decode_fn magpie__decode_jpeg;
MAGPIE_HIDDEN magpie__thumbnail_fn magpie__thumbnail_jpeg;
MAGPIE_HIDDEN magpie__encode_fn magpie__encode_jpeg;
/* Whether every one of w × h RGBA pixels (rows `stride` apart) is opaque (encode.c). */
MAGPIE_HIDDEN int magpie__rgba_opaque(const uint8_t *px, uint32_t w, uint32_t h, size_t stride);
/* PNG: probe_png.c, png.c, png_encode.c */
MAGPIE_HIDDEN magpie__sniff_fn magpie__sniff_png;
MAGPIE_HIDDEN magpie__probe_fn magpie__probe_png;
MAGPIE_HIDDEN magpie__decode_fn magpie__decode_png;
MAGPIE_HIDDEN magpie__encode_fn magpie__encode_png;
/* GIF: probe_gif.c, gif.c, gif_lzw.c */
MAGPIE_HIDDEN magpie__sniff_fn magpie__sniff_gif;
MAGPIE_HIDDEN magpie__probe_fn magpie__probe_gif;
MAGPIE_HIDDEN magpie__decode_fn magpie__decode_gif;
MAGPIE_HIDDEN extern const magpie__frames_ops magpie__gif_frames;
/* gif_encode.c (giflib, its palettes from libimagequant, loaded on first use: quant_loader.c) */
MAGPIE_HIDDEN magpie__encode_fn magpie__encode_gif;
MAGPIE_HIDDEN extern const magpie__animate_ops magpie__gif_animate;
MAGPIE_HIDDEN int magpie__gif_encode_available(void);
/* WebP: probe_webp.c, webp.c, webp_encode.c (the last two refuse in a build without libwebp) */
MAGPIE_HIDDEN magpie__sniff_fn magpie__sniff_webp;
MAGPIE_HIDDEN magpie__probe_fn magpie__probe_webp;
MAGPIE_HIDDEN magpie__decode_fn magpie__decode_webp;
MAGPIE_HIDDEN magpie__encode_fn magpie__encode_webp;
MAGPIE_HIDDEN extern const magpie__frames_ops magpie__webp_frames;   /* webp_anim.c */
MAGPIE_HIDDEN extern const magpie__animate_ops magpie__webp_animate; /* webp_anim_encode.c */
/* AVIF and HEIC: the brands in probe_ftyp.c, the ISOBMFF box walk in probe_avif.c; avif.c
 * decodes AVIF through libavif (avif_loader.c). */
MAGPIE_HIDDEN magpie__sniff_fn magpie__sniff_avif;
MAGPIE_HIDDEN magpie__sniff_fn magpie__sniff_heic;
MAGPIE_HIDDEN magpie__probe_fn magpie__probe_isobmff;
MAGPIE_HIDDEN magpie__decode_fn magpie__decode_avif;
MAGPIE_HIDDEN magpie__encode_fn magpie__encode_avif;
MAGPIE_HIDDEN extern const magpie__frames_ops magpie__avif_frames;
/* JPEG XL: probe_jxl.c, jxl.c, jxl_encode.c (libjxl, loaded on first use: jxl_loader.c) */
MAGPIE_HIDDEN magpie__sniff_fn magpie__sniff_jxl;
MAGPIE_HIDDEN magpie__probe_fn magpie__probe_jxl;
MAGPIE_HIDDEN magpie__decode_fn magpie__decode_jxl;
MAGPIE_HIDDEN magpie__encode_fn magpie__encode_jxl;
MAGPIE_HIDDEN int magpie__jxl_available(void);
/* HEIC: heic.c (libheif, loaded on the first decode) */
MAGPIE_HIDDEN magpie__decode_fn magpie__decode_heic;
MAGPIE_HIDDEN int magpie__heic_available(void);
/* BMP: probe_bmp.c, bmp.c (our own decoder) */
MAGPIE_HIDDEN magpie__sniff_fn magpie__sniff_bmp;
MAGPIE_HIDDEN magpie__probe_fn magpie__probe_bmp;
MAGPIE_HIDDEN magpie__decode_fn magpie__decode_bmp;
/* ICO and CUR: probe_ico.c, ico.c (PNG entries through png.c, DIB entries through bmp.c) */
MAGPIE_HIDDEN magpie__sniff_fn magpie__sniff_ico;
MAGPIE_HIDDEN magpie__probe_fn magpie__probe_ico;
MAGPIE_HIDDEN magpie__decode_fn magpie__decode_ico;
/* TIFF: probe_tiff.c, tiff.c (libtiff, loaded on the first decode) */
MAGPIE_HIDDEN magpie__sniff_fn magpie__sniff_tiff;
MAGPIE_HIDDEN magpie__probe_fn magpie__probe_tiff;
MAGPIE_HIDDEN magpie__page_fn magpie__page_tiff;
MAGPIE_HIDDEN magpie__decode_fn magpie__decode_tiff;
MAGPIE_HIDDEN int magpie__tiff_available(void);
/* SVG: probe_svg.c, svg.c (librsvg, loaded on the first decode) */
MAGPIE_HIDDEN magpie__sniff_fn magpie__sniff_svg;
MAGPIE_HIDDEN magpie__probe_fn magpie__probe_svg;
MAGPIE_HIDDEN magpie__decode_fn magpie__decode_svg;
MAGPIE_HIDDEN int magpie__svg_available(void);
/* Recognised only: PDF by its signature (probe_pdf.c). */
MAGPIE_HIDDEN magpie__sniff_fn magpie__sniff_pdf;

#endif
