/* libjxl 0.7, loaded on the first JPEG XL decode or encode (see lazy.h): the decoder's and the
 * encoder's functions bound together, and the library's version checked against the headers. */
#include <dlfcn.h>
#include <stdio.h>

#include "codecs/jxl/jxl_loader.h"

#ifdef MAGPIE_HAVE_JXL
#include "util/lazy.h"

magpie__jxl_api magpie__jxl;

static int magpie__jxl_bind(void *h, char *why, size_t why_size) {
    int missing = 0;
#define MAGPIE__LOAD(field, symbol) MAGPIE__LAZY_SYM(magpie__jxl, h, missing, field, symbol)
    MAGPIE__LOAD(version, "JxlDecoderVersion");
    MAGPIE__LOAD(create, "JxlDecoderCreate");
    MAGPIE__LOAD(destroy, "JxlDecoderDestroy");
    MAGPIE__LOAD(subscribe, "JxlDecoderSubscribeEvents");
    MAGPIE__LOAD(keep_orientation, "JxlDecoderSetKeepOrientation");
    MAGPIE__LOAD(unpremultiply, "JxlDecoderSetUnpremultiplyAlpha");
    MAGPIE__LOAD(set_input, "JxlDecoderSetInput");
    MAGPIE__LOAD(process, "JxlDecoderProcessInput");
    MAGPIE__LOAD(basic_info, "JxlDecoderGetBasicInfo");
    MAGPIE__LOAD(icc_size, "JxlDecoderGetICCProfileSize");
    MAGPIE__LOAD(icc, "JxlDecoderGetColorAsICCProfile");
    MAGPIE__LOAD(out_size, "JxlDecoderImageOutBufferSize");
    MAGPIE__LOAD(set_out, "JxlDecoderSetImageOutBuffer");
    MAGPIE__LOAD(enc_create, "JxlEncoderCreate");
    MAGPIE__LOAD(enc_destroy, "JxlEncoderDestroy");
    MAGPIE__LOAD(enc_settings, "JxlEncoderFrameSettingsCreate");
    MAGPIE__LOAD(enc_option, "JxlEncoderFrameSettingsSetOption");
    MAGPIE__LOAD(enc_distance, "JxlEncoderSetFrameDistance");
    MAGPIE__LOAD(enc_lossless, "JxlEncoderSetFrameLossless");
    MAGPIE__LOAD(enc_init_info, "JxlEncoderInitBasicInfo");
    MAGPIE__LOAD(enc_set_info, "JxlEncoderSetBasicInfo");
    MAGPIE__LOAD(enc_srgb, "JxlColorEncodingSetToSRGB");
    MAGPIE__LOAD(enc_set_colour, "JxlEncoderSetColorEncoding");
    MAGPIE__LOAD(enc_set_icc, "JxlEncoderSetICCProfile");
    MAGPIE__LOAD(enc_add_frame, "JxlEncoderAddImageFrame");
    MAGPIE__LOAD(enc_close_input, "JxlEncoderCloseInput");
    MAGPIE__LOAD(enc_output, "JxlEncoderProcessOutput");
#undef MAGPIE__LOAD
    uint32_t v = missing ? 0 : magpie__jxl.version(), want = JPEGXL_MAJOR_VERSION * 1000000u + JPEGXL_MINOR_VERSION * 1000u;
    if (missing || v / 1000 != want / 1000) {
        snprintf(why, why_size, "libjxl %u.%u is not the %d.%d this build expects", v / 1000000, v / 1000 % 1000,
                 JPEGXL_MAJOR_VERSION, JPEGXL_MINOR_VERSION);
        return -1;
    }
    return 0;
}

#define MAGPIE__JXL_SONAME_(major, minor) "libjxl.so." #major "." #minor
#define MAGPIE__JXL_SONAME(major, minor) MAGPIE__JXL_SONAME_(major, minor)
static magpie__lazy magpie__jxl_lib =
    MAGPIE__LAZY_INIT(MAGPIE__JXL_SONAME(JPEGXL_MAJOR_VERSION, JPEGXL_MINOR_VERSION), magpie__jxl_bind);

const char *magpie__jxl_ready(void) { return magpie__lazy_ready(&magpie__jxl_lib); }

int magpie__jxl_available(void) { return magpie__lazy_available(&magpie__jxl_lib); }

#else

int magpie__jxl_available(void) { return 0; }

#endif
