/* The libavif functions the decoder calls, through one table: filled at link time, or by
 * dlopen on first use when MAGPIE_AVIF_DLOPEN is defined (avif_loader.c). */
#ifndef MAGPIE_AVIF_LOADER_H
#define MAGPIE_AVIF_LOADER_H

#include "internal.h"

#ifdef MAGPIE_HAVE_AVIF
#include <avif/avif.h>

typedef struct {
    const char *(*version)(void);
    const char *(*result_string)(avifResult);
    avifDecoder *(*decoder_create)(void);
    void (*decoder_destroy)(avifDecoder *);
    avifResult (*decoder_set_io_memory)(avifDecoder *, const uint8_t *, size_t);
    avifResult (*decoder_parse)(avifDecoder *);
    avifResult (*decoder_next_image)(avifDecoder *);
    avifResult (*decoder_nth_image)(avifDecoder *, uint32_t);
    avifImage *(*image_create_empty)(void);
    void (*image_destroy)(avifImage *);
    avifResult (*image_set_view_rect)(avifImage *, const avifImage *, const avifCropRect *);
    void (*rgb_image_set_defaults)(avifRGBImage *, const avifImage *);
    avifResult (*image_yuv_to_rgb)(const avifImage *, avifRGBImage *);
    /* encoding (avif_encode.c) */
    avifImage *(*image_create)(uint32_t, uint32_t, uint32_t, avifPixelFormat);
    avifResult (*image_rgb_to_yuv)(avifImage *, const avifRGBImage *);
    void (*image_set_profile_icc)(avifImage *, const uint8_t *, size_t);
    avifEncoder *(*encoder_create)(void);
    avifResult (*encoder_write)(avifEncoder *, const avifImage *, avifRWData *);
    void (*encoder_destroy)(avifEncoder *);
    void (*rw_data_free)(avifRWData *);
} magpie__avif_api;

MAGPIE_HIDDEN extern magpie__avif_api magpie__avif;

/* NULL when libavif is ready to call; else why not (it could not be loaded). Thread-safe. */
MAGPIE_HIDDEN const char *magpie__avif_ready(void);

/* Whether libavif is there to load, without loading it: once a load was tried, whether it
 * succeeded; before, whether it is already loaded or dlopen would find a file by its soname.
 * Thread-safe; the look-up runs once per process. */
MAGPIE_HIDDEN int magpie__avif_available(void);
#endif

#endif
