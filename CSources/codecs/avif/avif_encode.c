/* AVIF still encoding through libavif (loaded on first use, as decoding does) and its AV1 encoder
 * (libaom in Debian's libavif): 4:2:0 8-bit, full range, sRGB signalled (BT.709 primaries, sRGB
 * transfer, BT.601 matrix as libavif converts), alpha kept only when a pixel is not opaque, one
 * thread, so the same pixels and options give the same bytes. `quality` 1–100 maps onto the AV1
 * quantizer as libavif's own `quality` does ((100 - q) * 63 / 100, rounded); `speed` is the
 * encoder's 0 (slowest, smallest) – 10. */
#include <stdlib.h>
#include <string.h>

#include "codecs/avif/avif_loader.h"
#include "core/codec.h"

#ifdef MAGPIE_HAVE_AVIF

int magpie__encode_avif(const uint8_t *px, uint32_t w, uint32_t h, size_t stride, const magpie_encode_options *o,
                        uint8_t **out, size_t *n) {
    if (o->quality < 1 || o->quality > 100 || o->speed < 0 || o->speed > 10 || w > 65536 || h > 65536 ||
        stride > 0xffffffffu)
        return MAGPIE_EINVAL;
    if (magpie__avif_ready()) return MAGPIE_EUNSUPPORTED;
    int alpha = 0;
    for (uint32_t y = 0; y < h && !alpha; y++)
        for (uint32_t x = 0; x < w; x++)
            if (px[(size_t)y * stride + (size_t)x * 4 + 3] != 255) {
                alpha = 1;
                break;
            }
    avifImage *image = magpie__avif.image_create(w, h, 8, AVIF_PIXEL_FORMAT_YUV420);
    avifEncoder *encoder = magpie__avif.encoder_create();
    avifRWData data = AVIF_DATA_EMPTY;
    int rc = MAGPIE_OK;
    if (!image || !encoder) {
        rc = MAGPIE_ENOMEM;
        goto out;
    }
    image->colorPrimaries = AVIF_COLOR_PRIMARIES_BT709;
    image->transferCharacteristics = AVIF_TRANSFER_CHARACTERISTICS_SRGB;
    image->matrixCoefficients = AVIF_MATRIX_COEFFICIENTS_BT601;
    image->yuvRange = AVIF_RANGE_FULL;
    if (o->icc_profile) magpie__avif.image_set_profile_icc(image, o->icc_profile, o->icc_profile_size);
    avifRGBImage rgb;
    magpie__avif.rgb_image_set_defaults(&rgb, image);
    rgb.format = AVIF_RGB_FORMAT_RGBA;
    rgb.depth = 8;
    rgb.ignoreAlpha = !alpha;
    rgb.pixels = (uint8_t *)px;
    rgb.rowBytes = (uint32_t)stride;
    if (magpie__avif.image_rgb_to_yuv(image, &rgb) != AVIF_RESULT_OK) {
        rc = MAGPIE_EENCODE;
        goto out;
    }
    int quantizer = ((100 - o->quality) * 63 + 50) / 100;
    encoder->maxThreads = 1;
    encoder->speed = o->speed;
    encoder->minQuantizer = encoder->maxQuantizer = quantizer;
    encoder->minQuantizerAlpha = encoder->maxQuantizerAlpha = quantizer;
    if (magpie__avif.encoder_write(encoder, image, &data) != AVIF_RESULT_OK) {
        rc = MAGPIE_EENCODE;
        goto out;
    }
    if (!(*out = malloc(data.size))) {
        rc = MAGPIE_ENOMEM;
        goto out;
    }
    memcpy(*out, data.data, data.size);
    *n = data.size;
out:
    if (data.data) magpie__avif.rw_data_free(&data);
    if (encoder) magpie__avif.encoder_destroy(encoder);
    if (image) magpie__avif.image_destroy(image);
    return rc;
}

#else

int magpie__encode_avif(const uint8_t *px, uint32_t w, uint32_t h, size_t stride, const magpie_encode_options *o,
                        uint8_t **out, size_t *n) {
    (void)px, (void)w, (void)h, (void)stride, (void)o, (void)out, (void)n;
    return MAGPIE_EUNSUPPORTED;
}

#endif
