/* libavif, linked or loaded on first use. Debian's libavif brings 22 shared libraries with it
 * (dav1d, libaom, rav1e, SVT-AV1, libgav1, libyuv, abseil): linked, the dynamic loader maps and
 * relocates them at every start of every program, about 3 ms, whether it ever meets an AVIF or
 * not. With MAGPIE_AVIF_DLOPEN (the SwiftPM build) the first AVIF decode loads it instead. */
#include <stdio.h>
#include <string.h>

#include "avif_loader.h"

#ifdef MAGPIE_HAVE_AVIF
#ifdef MAGPIE_AVIF_DLOPEN
#include <dlfcn.h>
#include <pthread.h>

magpie__avif_api magpie__avif;
static pthread_once_t magpie__avif_once = PTHREAD_ONCE_INIT;
static int magpie__avif_loaded;
static char magpie__avif_error[200];

/* The soname that matches the headers compiled against (the structs' layout is the ABI). */
#if AVIF_VERSION_MAJOR == 0 && AVIF_VERSION_MINOR == 11
#define MAGPIE__AVIF_SONAME "libavif.so.15"
#elif AVIF_VERSION_MAJOR == 1 && AVIF_VERSION_MINOR == 0
#define MAGPIE__AVIF_SONAME "libavif.so.16"
#else
#define MAGPIE__AVIF_SONAME "libavif.so"
#endif

static void magpie__avif_load(void) {
    void *h = dlopen(MAGPIE__AVIF_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(magpie__avif_error, sizeof magpie__avif_error, "libavif could not be loaded: %s", dlerror());
        return;
    }
    int missing = 0;
#define MAGPIE__LOAD(field, symbol)                                         \
    do {                                                                    \
        *(void **)&magpie__avif.field = dlsym(h, symbol);                   \
        if (!magpie__avif.field) missing = 1;                               \
    } while (0)
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
#undef MAGPIE__LOAD
    char want[16];
    snprintf(want, sizeof want, "%d.%d.", AVIF_VERSION_MAJOR, AVIF_VERSION_MINOR);
    if (missing || strncmp(magpie__avif.version(), want, strlen(want)) != 0) {
        snprintf(magpie__avif_error, sizeof magpie__avif_error, "libavif %s is not the %d.%d this build expects",
                 missing ? "(incomplete)" : magpie__avif.version(), AVIF_VERSION_MAJOR, AVIF_VERSION_MINOR);
        dlclose(h);
        return;
    }
    magpie__avif_loaded = 1; /* kept loaded for the life of the process */
}

const char *magpie__avif_ready(void) {
    pthread_once(&magpie__avif_once, magpie__avif_load);
    return magpie__avif_loaded ? NULL : magpie__avif_error;
}

#else

magpie__avif_api magpie__avif = {avifVersion,          avifResultToString,     avifDecoderCreate,
                                 avifDecoderDestroy,   avifDecoderSetIOMemory, avifDecoderParse,
                                 avifDecoderNextImage, avifDecoderNthImage,    avifImageCreateEmpty,
                                 avifImageDestroy,     avifImageSetViewRect,   avifRGBImageSetDefaults,
                                 avifImageYUVToRGB};

const char *magpie__avif_ready(void) { return NULL; }

#endif
#endif
