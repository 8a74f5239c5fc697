/* JPEG XL encoding through libjxl 0.7, loaded on first use (jxl_loader.c): a bare codestream, 8 bits
 * a sample, alpha when a pixel is not opaque, the caller's ICC profile or sRGB, at an effort and a
 * quality mapped onto libjxl's distance as libjxl's JxlEncoderDistanceFromQuality maps it (0.9 and
 * later have the function; 0.7 has not, so the mapping is here). No thread runner, so the output
 * is deterministic and one encode takes one core, as a server's worker should. */
#include <stdlib.h>
#include <string.h>

#include "core/codec.h"
#include "codecs/jxl/jxl_loader.h"

#ifdef MAGPIE_HAVE_JXL

/* libjxl's distance for a quality 1–100: 0 (lossless) at 100, 1.0 (visually lossless) at 90, 6.4
 * at 30, a parabola below; what cjxl's -q and libvips's Q give. */
static float magpie__jxl_distance(int q) {
    if (q >= 100) return 0.0f;
    if (q >= 30) return 0.1f + (float)(100 - q) * 0.09f;
    return (float)(53.0 / 3000.0 * q * q - 23.0 / 20.0 * q + 25.0);
}

/* The encoder's output into a malloc'd buffer that grows as libjxl asks for room. */
static int magpie__jxl_drain(JxlEncoder *enc, uint8_t **out, size_t *n) {
    size_t cap = 1u << 16, len = 0;
    uint8_t *buf = malloc(cap);
    if (!buf) return MAGPIE_ENOMEM;
    for (;;) {
        uint8_t *next = buf + len;
        size_t room = cap - len;
        JxlEncoderStatus st = magpie__jxl.enc_output(enc, &next, &room);
        len = (size_t)(next - buf);
        if (st == JXL_ENC_SUCCESS) break;
        if (st != JXL_ENC_NEED_MORE_OUTPUT || cap > SIZE_MAX / 2) {
            free(buf);
            return MAGPIE_EENCODE;
        }
        uint8_t *grown = realloc(buf, cap * 2);
        if (!grown) {
            free(buf);
            return MAGPIE_ENOMEM;
        }
        buf = grown;
        cap *= 2;
    }
    *out = buf;
    *n = len;
    return MAGPIE_OK;
}

/* The pixels, without their alpha when every one is opaque, as one frame of `enc`. */
static int magpie__jxl_frame(JxlEncoder *enc, JxlEncoderFrameSettings *fs, const uint8_t *px, uint32_t w,
                             uint32_t h, size_t stride, int alpha) {
    uint32_t channels = alpha ? 4 : 3;
    size_t row = (size_t)w * channels;
    if (row > SIZE_MAX / h) return MAGPIE_ENOMEM;
    uint8_t *packed = malloc(row * h);
    if (!packed) return MAGPIE_ENOMEM;
    for (uint32_t y = 0; y < h; y++) {
        const uint8_t *r = px + (size_t)y * stride;
        uint8_t *o = packed + (size_t)y * row;
        if (alpha) memcpy(o, r, row);
        else
            for (uint32_t x = 0; x < w; x++) memcpy(o + (size_t)x * 3, r + (size_t)x * 4, 3);
    }
    JxlPixelFormat format = {channels, JXL_TYPE_UINT8, JXL_NATIVE_ENDIAN, 0};
    JxlEncoderStatus st = magpie__jxl.enc_add_frame(fs, &format, packed, row * h);
    free(packed);
    if (st != JXL_ENC_SUCCESS) return MAGPIE_EENCODE;
    magpie__jxl.enc_close_input(enc);
    return MAGPIE_OK;
}

int magpie__encode_jxl(const uint8_t *px, uint32_t w, uint32_t h, size_t stride, const magpie_encode_options *o,
                       uint8_t **out, size_t *n) {
    if (o->quality < 1 || o->quality > 100 || o->effort < 1 || o->effort > 9 || (o->lossless != 0 && o->lossless != 1))
        return MAGPIE_EINVAL;
    if (magpie__jxl_ready()) return MAGPIE_EUNSUPPORTED;
    int lossless = o->lossless || o->quality == 100, alpha = !magpie__rgba_opaque(px, w, h, stride);
    JxlEncoder *enc = magpie__jxl.enc_create(NULL);
    if (!enc) return MAGPIE_ENOMEM;
    JxlBasicInfo info;
    magpie__jxl.enc_init_info(&info);
    info.xsize = w;
    info.ysize = h;
    info.bits_per_sample = 8;
    info.num_color_channels = 3;
    info.num_extra_channels = alpha ? 1 : 0;
    info.alpha_bits = alpha ? 8 : 0;
    /* Lossless keeps the samples as they are; lossy works in XYB, converted from the profile. */
    info.uses_original_profile = lossless ? JXL_TRUE : JXL_FALSE;
    int rc = MAGPIE_OK;
    JxlEncoderFrameSettings *fs = NULL;
    if (magpie__jxl.enc_set_info(enc, &info) != JXL_ENC_SUCCESS) rc = MAGPIE_EINVAL; /* a size libjxl refuses */
    if (!rc && o->icc_profile) {
        if (magpie__jxl.enc_set_icc(enc, o->icc_profile, o->icc_profile_size) != JXL_ENC_SUCCESS) rc = MAGPIE_EENCODE;
    } else if (!rc) {
        JxlColorEncoding srgb;
        magpie__jxl.enc_srgb(&srgb, JXL_FALSE);
        if (magpie__jxl.enc_set_colour(enc, &srgb) != JXL_ENC_SUCCESS) rc = MAGPIE_EENCODE;
    }
    if (!rc && !(fs = magpie__jxl.enc_settings(enc, NULL))) rc = MAGPIE_ENOMEM;
    if (!rc && (magpie__jxl.enc_option(fs, JXL_ENC_FRAME_SETTING_EFFORT, o->effort) != JXL_ENC_SUCCESS ||
                (lossless ? magpie__jxl.enc_lossless(fs, JXL_TRUE)
                          : magpie__jxl.enc_distance(fs, magpie__jxl_distance(o->quality))) != JXL_ENC_SUCCESS))
        rc = MAGPIE_EENCODE;
    if (!rc) rc = magpie__jxl_frame(enc, fs, px, w, h, stride, alpha);
    if (!rc) rc = magpie__jxl_drain(enc, out, n);
    magpie__jxl.enc_destroy(enc);
    return rc;
}

#else

int magpie__encode_jxl(const uint8_t *px, uint32_t w, uint32_t h, size_t stride, const magpie_encode_options *o,
                       uint8_t **out, size_t *n) {
    (void)px, (void)w, (void)h, (void)stride, (void)o, (void)out, (void)n;
    return MAGPIE_EUNSUPPORTED;
}

#endif
