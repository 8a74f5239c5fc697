/* WebP encoding through libwebp: lossy at a quality, or lossless, from one of libwebp's presets;
 * one thread and no metadata, so the same pixels and options give the same bytes. */
#include <stdlib.h>
#include <string.h>

#include "core/codec.h"
#include "codecs/webp/webp_config.h"

#ifdef MAGPIE_HAVE_WEBP
#include <webp/encode.h>
#include <webp/mux.h>

/* libwebp's presets in the order of magpie_webp_preset. */
static const WebPPreset magpie__webp_presets[] = {WEBP_PRESET_DEFAULT, WEBP_PRESET_PICTURE, WEBP_PRESET_PHOTO,
                                                  WEBP_PRESET_DRAWING, WEBP_PRESET_ICON, WEBP_PRESET_TEXT};

int magpie__webp_config(const magpie_encode_options *o, WebPConfig *cfg) {
    if (o->quality < 0 || o->quality > 100 || o->method < 0 || o->method > 6 || (o->lossless != 0 && o->lossless != 1))
        return MAGPIE_EINVAL;
    if (!o->lossless && o->quality < 1) return MAGPIE_EINVAL;
    if ((unsigned)o->webp_preset >= sizeof magpie__webp_presets / sizeof *magpie__webp_presets) return MAGPIE_EINVAL;
    if (!WebPConfigPreset(cfg, magpie__webp_presets[o->webp_preset], (float)o->quality)) return MAGPIE_EINTERNAL;
    cfg->quality = (float)o->quality;
    cfg->method = o->method;
    cfg->lossless = o->lossless;
    cfg->thread_level = 0;
    return WebPValidateConfig(cfg) ? MAGPIE_OK : MAGPIE_EINVAL;
}

/* The encoded image with the ICC profile in an ICCP chunk (libwebp's mux writes the VP8X header
 * that announces it), into our own allocation. */
static int magpie__webp_with_icc(const uint8_t *webp, size_t size, const magpie_encode_options *o, uint8_t **out,
                                 size_t *n) {
    WebPData image = {webp, size}, icc = {o->icc_profile, o->icc_profile_size}, assembled = {NULL, 0};
    WebPMux *mux = WebPMuxCreate(&image, 0);
    int rc = MAGPIE_OK;
    if (!mux) return MAGPIE_ENOMEM;
    if (WebPMuxSetChunk(mux, "ICCP", &icc, 0) != WEBP_MUX_OK || WebPMuxAssemble(mux, &assembled) != WEBP_MUX_OK)
        rc = MAGPIE_EENCODE;
    else if (!(*out = malloc(assembled.size))) rc = MAGPIE_ENOMEM;
    else {
        memcpy(*out, assembled.bytes, assembled.size);
        *n = assembled.size;
    }
    WebPDataClear(&assembled);
    WebPMuxDelete(mux);
    return rc;
}

int magpie__encode_webp(const uint8_t *px, uint32_t w, uint32_t h, size_t stride, const magpie_encode_options *o,
                        uint8_t **out, size_t *n) {
    if (w > WEBP_MAX_DIMENSION || h > WEBP_MAX_DIMENSION || stride > 0x7fffffff) return MAGPIE_EINVAL;
    WebPConfig cfg;
    WebPPicture pic;
    WebPMemoryWriter wr;
    int rc = magpie__webp_config(o, &cfg);
    if (rc) return rc;
    if (!WebPPictureInit(&pic)) return MAGPIE_EINTERNAL;
    pic.width = (int)w;
    pic.height = (int)h;
    pic.use_argb = o->lossless; /* lossless works on ARGB; lossy converts to YUV on import */
    WebPMemoryWriterInit(&wr);
    pic.writer = WebPMemoryWrite;
    pic.custom_ptr = &wr;
    if (!WebPPictureImportRGBA(&pic, px, (int)stride)) rc = MAGPIE_ENOMEM;
    else if (!WebPEncode(&cfg, &pic))
        rc = pic.error_code == VP8_ENC_ERROR_OUT_OF_MEMORY || pic.error_code == VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY
                 ? MAGPIE_ENOMEM
                 : MAGPIE_EENCODE;
    if (!rc && o->icc_profile) {
        rc = magpie__webp_with_icc(wr.mem, wr.size, o, out, n);
    } else if (!rc) {
        /* Our own allocation, so magpie_free frees it whatever allocator libwebp uses. */
        if (!(*out = malloc(wr.size ? wr.size : 1))) rc = MAGPIE_ENOMEM;
        else {
            memcpy(*out, wr.mem, wr.size);
            *n = wr.size;
        }
    }
    WebPPictureFree(&pic);
    WebPMemoryWriterClear(&wr);
    return rc;
}

#else

int magpie__encode_webp(const uint8_t *px, uint32_t w, uint32_t h, size_t stride, const magpie_encode_options *o,
                        uint8_t **out, size_t *n) {
    (void)px, (void)w, (void)h, (void)stride, (void)o, (void)out, (void)n;
    return MAGPIE_EUNSUPPORTED;
}

#endif
