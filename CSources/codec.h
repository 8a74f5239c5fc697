/* The codec table (codecs.c): one row per format, in the order formats are sniffed, with what the
 * core does with it (sniff, probe, decode, encode) and whether this build and this machine can.
 * Everything that varies by format is asked of the table; no other file switches on a format.
 * Adding a format is a file of its functions and a row in codecs.c (the README's "Adding a
 * format"). Private to the core. */
#ifndef MAGPIE_CODEC_H
#define MAGPIE_CODEC_H

#include "job.h"

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
    /* Whether the codec is there: compiled in, and a library loaded on first use there to load
     * (found without loading it). NULL: always. */
    int (*available)(void);
    uint32_t flags; /* MAGPIE__CODEC_* */
} magpie__codec;

/* A decode delivers every frame (GIF, WebP, AVIF); otherwise only the first (APNG's default). */
#define MAGPIE__CODEC_FRAMES 1u
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

/* ---- each format's functions, in its own files ---- */
/* JPEG: probe_jpeg.c, jpeg.c, encode.c */
MAGPIE_HIDDEN magpie__sniff_fn magpie__sniff_jpeg;
MAGPIE_HIDDEN magpie__probe_fn magpie__probe_jpeg;
MAGPIE_HIDDEN magpie__decode_fn magpie__decode_jpeg;
MAGPIE_HIDDEN magpie__thumbnail_fn magpie__thumbnail_jpeg;
MAGPIE_HIDDEN magpie__encode_fn magpie__encode_jpeg;
/* PNG: probe_png.c, png.c, encode.c */
MAGPIE_HIDDEN magpie__sniff_fn magpie__sniff_png;
MAGPIE_HIDDEN magpie__probe_fn magpie__probe_png;
MAGPIE_HIDDEN magpie__decode_fn magpie__decode_png;
MAGPIE_HIDDEN magpie__encode_fn magpie__encode_png;
/* GIF: probe_gif.c, gif.c, gif_lzw.c */
MAGPIE_HIDDEN magpie__sniff_fn magpie__sniff_gif;
MAGPIE_HIDDEN magpie__probe_fn magpie__probe_gif;
MAGPIE_HIDDEN magpie__decode_fn magpie__decode_gif;
/* WebP: probe_webp.c, webp.c, webp_encode.c (the last two refuse in a build without libwebp) */
MAGPIE_HIDDEN magpie__sniff_fn magpie__sniff_webp;
MAGPIE_HIDDEN magpie__probe_fn magpie__probe_webp;
MAGPIE_HIDDEN magpie__decode_fn magpie__decode_webp;
MAGPIE_HIDDEN magpie__encode_fn magpie__encode_webp;
/* AVIF and HEIC: the brands in probe_ftyp.c, the ISOBMFF box walk in probe_avif.c; avif.c
 * decodes AVIF through libavif (avif_loader.c). */
MAGPIE_HIDDEN magpie__sniff_fn magpie__sniff_avif;
MAGPIE_HIDDEN magpie__sniff_fn magpie__sniff_heic;
MAGPIE_HIDDEN magpie__probe_fn magpie__probe_isobmff;
MAGPIE_HIDDEN magpie__decode_fn magpie__decode_avif;
MAGPIE_HIDDEN magpie__encode_fn magpie__encode_avif;
/* JPEG XL: probe_jxl.c, jxl.c (libjxl, loaded on the first decode) */
MAGPIE_HIDDEN magpie__sniff_fn magpie__sniff_jxl;
MAGPIE_HIDDEN magpie__probe_fn magpie__probe_jxl;
MAGPIE_HIDDEN magpie__decode_fn magpie__decode_jxl;
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
/* An SVG with an internal DTD subset rewritten without it, its plain entities expanded (svg_entities.c):
 * MAGPIE_OK with *out NULL when there is nothing to rewrite, or a malloc'd document in *out; an
 * error with `why` for parameter, external, nested or too many entities. */
MAGPIE_HIDDEN int magpie__svg_entities(const uint8_t *data, size_t n, uint8_t **out, size_t *out_n, const char **why);
/* Recognised only: PDF by its signature (probe_pdf.c). */
MAGPIE_HIDDEN magpie__sniff_fn magpie__sniff_pdf;

#endif
