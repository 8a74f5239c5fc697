/* Trim: the smallest rectangle that holds every pixel unlike the background (imgproxy's `trim`,
 * after libvips's find_trim). A pixel is background when each of R, G, B and alpha is within
 * `threshold` of the background colour's, or when both are fully transparent (whatever colour
 * a transparent pixel stores). Equal trims cut the lesser margin from both sides of an axis. */
#include "internal.h"

static int magpie__is_background(const uint8_t *p, const uint8_t bg[4], int threshold) {
    if (p[3] == 0 && bg[3] == 0) return 1;
    for (int c = 0; c < 4; c++) {
        int d = (int)p[c] - (int)bg[c];
        if (d > threshold || -d > threshold) return 0;
    }
    return 1;
}

int magpie_find_trim(const magpie_pixels *src, const magpie_trim_options *options, magpie_rect *bounds) {
    if (!magpie__pixels_ok(src) || !options || !bounds || options->struct_size < sizeof *options ||
        options->threshold > 255)
        return MAGPIE_EINVAL;
    uint8_t bg[4];
    if (options->use_color) {
        uint32_t c = options->color;
        bg[0] = (uint8_t)(c >> 24), bg[1] = (uint8_t)(c >> 16), bg[2] = (uint8_t)(c >> 8), bg[3] = (uint8_t)c;
    } else {
        for (int i = 0; i < 4; i++) bg[i] = src->pixels[i];
    }
    int threshold = (int)options->threshold;
    uint32_t left = src->width, right = 0, top = src->height, bottom = 0;
    for (uint32_t y = 0; y < src->height; y++) {
        const uint8_t *row = src->pixels + (size_t)y * src->stride;
        uint32_t first = src->width, last = 0;
        for (uint32_t x = 0; x < src->width; x++)
            if (!magpie__is_background(row + (size_t)x * 4, bg, threshold)) {
                first = x;
                break;
            }
        if (first == src->width) continue;
        for (uint32_t x = src->width; x-- > first;)
            if (!magpie__is_background(row + (size_t)x * 4, bg, threshold)) {
                last = x;
                break;
            }
        if (first < left) left = first;
        if (last + 1 > right) right = last + 1;
        if (y < top) top = y;
        bottom = y + 1;
    }
    if (left >= right || top >= bottom) {
        /* All background: the image is left whole. */
        *bounds = (magpie_rect){0, 0, src->width, src->height};
        return MAGPIE_OK;
    }
    if (options->equal_horizontal) {
        uint32_t cut = left < src->width - right ? left : src->width - right;
        left = cut;
        right = src->width - cut;
    }
    if (options->equal_vertical) {
        uint32_t cut = top < src->height - bottom ? top : src->height - bottom;
        top = cut;
        bottom = src->height - cut;
    }
    *bounds = (magpie_rect){left, top, right - left, bottom - top};
    return MAGPIE_OK;
}

void magpie_trim_options_init(magpie_trim_options *o) {
    if (!o) return;
    *o = (magpie_trim_options){0};
    o->struct_size = sizeof *o;
    o->threshold = 10;
}
