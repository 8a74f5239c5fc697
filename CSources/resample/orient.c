/* EXIF orientation: writes a stored-orientation row into an upright destination. */
#include <string.h>

#include "internal.h"

void magpie__orient_row(uint8_t *dst, size_t stride, uint32_t w, uint32_t h, uint32_t o, uint32_t y,
                        const uint8_t *row) {
    switch (o) {
    default:
    case 1: memcpy(dst + (size_t)y * stride, row, (size_t)w * 4); return;
    case 4: memcpy(dst + (size_t)(h - 1 - y) * stride, row, (size_t)w * 4); return;
    case 2:
    case 3: {
        uint8_t *out = dst + (size_t)(o == 2 ? y : h - 1 - y) * stride;
        for (uint32_t x = 0; x < w; x++) memcpy(out + (size_t)(w - 1 - x) * 4, row + (size_t)x * 4, 4);
        return;
    }
    case 5:   /* transpose: (x, y) -> (y, x) */
    case 6:   /* rotate 90 clockwise: (x, y) -> (h-1-y, x) */
    case 7:   /* transverse: (x, y) -> (h-1-y, w-1-x) */
    case 8: { /* rotate 90 counter-clockwise: (x, y) -> (y, w-1-x) */
        size_t ux = (o == 5 || o == 8) ? y : h - 1 - y;
        int down = (o == 5 || o == 6);
        uint8_t *p = dst + ux * 4 + (down ? 0 : (size_t)(w - 1) * stride);
        ptrdiff_t step = down ? (ptrdiff_t)stride : -(ptrdiff_t)stride;
        for (uint32_t x = 0; x < w; x++, p += step) memcpy(p, row + (size_t)x * 4, 4);
        return;
    }
    }
}
