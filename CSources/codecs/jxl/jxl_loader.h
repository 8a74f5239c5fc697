/* libjxl, loaded on the first JPEG XL decode or encode (lazy.c, jxl_loader.c): the functions the
 * decoder (jxl.c) and the encoder (jxl_encode.c) call, through one table bound once. */
#ifndef MAGPIE_JXL_LOADER_H
#define MAGPIE_JXL_LOADER_H

#include "internal.h"

#ifdef MAGPIE_HAVE_JXL
#include <jxl/decode.h>
#include <jxl/encode.h>

typedef struct {
    uint32_t (*version)(void);
    /* decoding */
    JxlDecoder *(*create)(const JxlMemoryManager *);
    void (*destroy)(JxlDecoder *);
    JxlDecoderStatus (*subscribe)(JxlDecoder *, int);
    JxlDecoderStatus (*keep_orientation)(JxlDecoder *, JXL_BOOL);
    JxlDecoderStatus (*unpremultiply)(JxlDecoder *, JXL_BOOL);
    JxlDecoderStatus (*set_input)(JxlDecoder *, const uint8_t *, size_t);
    JxlDecoderStatus (*process)(JxlDecoder *);
    JxlDecoderStatus (*basic_info)(const JxlDecoder *, JxlBasicInfo *);
    JxlDecoderStatus (*icc_size)(const JxlDecoder *, const JxlPixelFormat *, JxlColorProfileTarget, size_t *);
    JxlDecoderStatus (*icc)(const JxlDecoder *, const JxlPixelFormat *, JxlColorProfileTarget, uint8_t *, size_t);
    JxlDecoderStatus (*out_size)(const JxlDecoder *, const JxlPixelFormat *, size_t *);
    JxlDecoderStatus (*set_out)(JxlDecoder *, const JxlPixelFormat *, void *, size_t);
    /* encoding */
    JxlEncoder *(*enc_create)(const JxlMemoryManager *);
    void (*enc_destroy)(JxlEncoder *);
    JxlEncoderFrameSettings *(*enc_settings)(JxlEncoder *, const JxlEncoderFrameSettings *);
    JxlEncoderStatus (*enc_option)(JxlEncoderFrameSettings *, JxlEncoderFrameSettingId, int64_t);
    JxlEncoderStatus (*enc_distance)(JxlEncoderFrameSettings *, float);
    JxlEncoderStatus (*enc_lossless)(JxlEncoderFrameSettings *, JXL_BOOL);
    void (*enc_init_info)(JxlBasicInfo *);
    JxlEncoderStatus (*enc_set_info)(JxlEncoder *, const JxlBasicInfo *);
    void (*enc_srgb)(JxlColorEncoding *, JXL_BOOL);
    JxlEncoderStatus (*enc_set_colour)(JxlEncoder *, const JxlColorEncoding *);
    JxlEncoderStatus (*enc_set_icc)(JxlEncoder *, const uint8_t *, size_t);
    JxlEncoderStatus (*enc_add_frame)(const JxlEncoderFrameSettings *, const JxlPixelFormat *, const void *, size_t);
    void (*enc_close_input)(JxlEncoder *);
    JxlEncoderStatus (*enc_output)(JxlEncoder *, uint8_t **, size_t *);
} magpie__jxl_api;

MAGPIE_HIDDEN extern magpie__jxl_api magpie__jxl;

/* NULL when libjxl is loaded and bound; else why not. Loads it on the first call; thread-safe. */
MAGPIE_HIDDEN const char *magpie__jxl_ready(void);
#endif

#endif
