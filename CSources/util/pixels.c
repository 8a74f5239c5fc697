/* The checks every function that takes caller's pixels shares (effects, colour, resample): a
 * buffer that is whole and addressable, two that overlap, a copy between two of one size. */
#include <string.h>

#include "internal.h"

int magpie__pixels_ok(const magpie_pixels *p) {
    size_t bytes;
    return p && p->pixels && p->width && p->height && p->stride / 4 >= p->width &&
           !magpie__mul(p->stride, p->height, &bytes);
}

int magpie__pixels_overlap(const magpie_pixels *a, const magpie_pixels *b) {
    uintptr_t a0 = (uintptr_t)a->pixels, b0 = (uintptr_t)b->pixels;
    uintptr_t a1 = a0 + (a->height - 1) * a->stride + (size_t)a->width * 4;
    uintptr_t b1 = b0 + (b->height - 1) * b->stride + (size_t)b->width * 4;
    return a0 < b1 && b0 < a1;
}

void magpie__pixels_copy(const magpie_pixels *src, const magpie_pixels *dst) {
    if (src->pixels == dst->pixels && src->stride == dst->stride) return;
    for (uint32_t y = 0; y < src->height; y++)
        memmove(dst->pixels + y * dst->stride, src->pixels + y * src->stride, (size_t)src->width * 4);
}
