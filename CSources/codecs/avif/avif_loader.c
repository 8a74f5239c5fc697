/* libavif, linked or loaded on first use. Debian's libavif brings 22 shared libraries with it
 * (dav1d, libaom, rav1e, SVT-AV1, libgav1, libyuv, abseil): linked, the dynamic loader maps and
 * relocates them at every start of every program, about 3 ms, whether it ever meets an AVIF or
 * not. With MAGPIE_AVIF_DLOPEN (the SwiftPM build) the first AVIF decode loads it instead. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "codecs/avif/avif_loader.h"

#ifdef MAGPIE_HAVE_AVIF
#ifdef MAGPIE_AVIF_DLOPEN
#include "util/lazy.h"

magpie__avif_api magpie__avif;

/* The soname that matches the headers compiled against (the structs' layout is the ABI). */
#if AVIF_VERSION_MAJOR == 0 && AVIF_VERSION_MINOR == 11
#define MAGPIE__AVIF_SONAME "libavif.so.15"
#elif AVIF_VERSION_MAJOR == 1 && AVIF_VERSION_MINOR == 0
#define MAGPIE__AVIF_SONAME "libavif.so.16"
#else
#define MAGPIE__AVIF_SONAME "libavif.so"
#endif

static int magpie__avif_bind(void *h, char *why, size_t why_size) {
    int missing = 0;
#define MAGPIE__LOAD(field, symbol) MAGPIE__LAZY_SYM(magpie__avif, h, missing, field, symbol)
    MAGPIE__LOAD(version, "avifVersion");
    MAGPIE__LOAD(result_string, "avifResultToString");
    MAGPIE__LOAD(decoder_create, "avifDecoderCreate");
    MAGPIE__LOAD(decoder_destroy, "avifDecoderDestroy");
    MAGPIE__LOAD(decoder_set_io_memory, "avifDecoderSetIOMemory");
    MAGPIE__LOAD(decoder_parse, "avifDecoderParse");
    MAGPIE__LOAD(decoder_next_image, "avifDecoderNextImage");
    MAGPIE__LOAD(decoder_nth_image, "avifDecoderNthImage");
    MAGPIE__LOAD(image_create_empty, "avifImageCreateEmpty");
    MAGPIE__LOAD(image_destroy, "avifImageDestroy");
    MAGPIE__LOAD(image_set_view_rect, "avifImageSetViewRect");
    MAGPIE__LOAD(rgb_image_set_defaults, "avifRGBImageSetDefaults");
    MAGPIE__LOAD(image_yuv_to_rgb, "avifImageYUVToRGB");
    MAGPIE__LOAD(image_create, "avifImageCreate");
    MAGPIE__LOAD(image_rgb_to_yuv, "avifImageRGBToYUV");
    MAGPIE__LOAD(image_set_profile_icc, "avifImageSetProfileICC");
    MAGPIE__LOAD(encoder_create, "avifEncoderCreate");
    MAGPIE__LOAD(encoder_write, "avifEncoderWrite");
    MAGPIE__LOAD(encoder_destroy, "avifEncoderDestroy");
    MAGPIE__LOAD(rw_data_free, "avifRWDataFree");
#undef MAGPIE__LOAD
    char want[16];
    snprintf(want, sizeof want, "%d.%d.", AVIF_VERSION_MAJOR, AVIF_VERSION_MINOR);
    if (missing || strncmp(magpie__avif.version(), want, strlen(want)) != 0) {
        snprintf(why, why_size, "libavif %s is not the %d.%d this build expects",
                 missing ? "(incomplete)" : magpie__avif.version(), AVIF_VERSION_MAJOR, AVIF_VERSION_MINOR);
        return -1;
    }
    return 0;
}

static magpie__lazy magpie__avif_lib = MAGPIE__LAZY_INIT(MAGPIE__AVIF_SONAME, magpie__avif_bind);

const char *magpie__avif_ready(void) { return magpie__lazy_ready(&magpie__avif_lib); }

int magpie__avif_available(void) { return magpie__lazy_available(&magpie__avif_lib); }

#else

magpie__avif_api magpie__avif = {avifVersion,          avifResultToString,     avifDecoderCreate,
                                 avifDecoderDestroy,   avifDecoderSetIOMemory, avifDecoderParse,
                                 avifDecoderNextImage, avifDecoderNthImage,    avifImageCreateEmpty,
                                 avifImageDestroy,     avifImageSetViewRect,   avifRGBImageSetDefaults,
                                 avifImageYUVToRGB,    avifImageCreate,        avifImageRGBToYUV,
                                 avifImageSetProfileICC, avifEncoderCreate,    avifEncoderWrite,
                                 avifEncoderDestroy,   avifRWDataFree};

const char *magpie__avif_ready(void) { return NULL; }

int magpie__avif_available(void) { return 1; }

#endif
#endif
