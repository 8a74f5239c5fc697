/* Colour controls (saturation, contrast, brightness, tint) composed into one affine map of R, G, B,
 * applied per pixel; alpha is kept. */
#include <string.h>

#include "internal.h"

void magpie_color_options_init(magpie_color_options *o) {
    if (!o) return;
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
    o->saturation = 1.0;
    o->contrast = 1.0;
}

static uint8_t magpie__clamp8(float v) { return v <= 0.0f ? 0 : v >= 255.0f ? 255 : (uint8_t)(v + 0.5f); }

int magpie_adjust_color(const magpie_pixels *src, const magpie_pixels *dst, const magpie_color_options *options) {
    magpie_color_options o;
    magpie_color_options_init(&o);
    if (options) {
        if (options->struct_size < sizeof o) return MAGPIE_EINVAL;
        o = *options;
    }
    if (!magpie__pixels_ok(src) || !magpie__pixels_ok(dst) || src->width != dst->width || src->height != dst->height ||
        !(o.saturation >= 0 && o.saturation <= 10) || !(o.contrast >= 0 && o.contrast <= 10) ||
        !(o.brightness >= -255 && o.brightness <= 255) || !(o.tint_amount >= 0 && o.tint_amount <= 1) ||
        o.tint > 0xFFFFFFu)
        return MAGPIE_EINVAL;
    if (src->pixels != dst->pixels && magpie__pixels_overlap(src, dst)) return MAGPIE_EINVAL;
    if (o.saturation == 1 && o.contrast == 1 && o.brightness == 0 && o.tint_amount == 0) {
        magpie__pixels_copy(src, dst);
        return MAGPIE_OK;
    }
    /* out = M in + b: saturation about Rec. 709 luma, then contrast about 128, brightness, tint. */
    static const double luma[3] = {0.2126, 0.7152, 0.0722};
    const double s = o.saturation, c = o.contrast, t = o.tint_amount;
    const double tint[3] = {(double)(o.tint >> 16), (double)(o.tint >> 8 & 0xFF), (double)(o.tint & 0xFF)};
    float m[3][3], b[3];
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) m[i][j] = (float)((1 - t) * c * ((i == j) * s + (1 - s) * luma[j]));
        b[i] = (float)((1 - t) * (128.0 * (1 - c) + o.brightness) + t * tint[i]);
    }
    for (uint32_t y = 0; y < src->height; y++) {
        const uint8_t *in = src->pixels + (size_t)y * src->stride;
        uint8_t *out = dst->pixels + (size_t)y * dst->stride;
        for (uint32_t x = 0; x < src->width; x++, in += 4, out += 4) {
            float r = in[0], g = in[1], bl = in[2];
            uint8_t a = in[3];
            out[0] = magpie__clamp8(m[0][0] * r + m[0][1] * g + m[0][2] * bl + b[0]);
            out[1] = magpie__clamp8(m[1][0] * r + m[1][1] * g + m[1][2] * bl + b[1]);
            out[2] = magpie__clamp8(m[2][0] * r + m[2][1] * g + m[2][2] * bl + b[2]);
            out[3] = a;
        }
    }
    return MAGPIE_OK;
}
