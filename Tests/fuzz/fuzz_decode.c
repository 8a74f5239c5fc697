/* libFuzzer harness: decode bytes of one format (MAGPIE_FUZZ_FORMAT at compile time), full size,
 * and as a thumbnail of one frame into a caller buffer. Limits are lowered so a run stays in memory. */
#include <stdlib.h>

#include "magpie.h"

#ifndef MAGPIE_FUZZ_FORMAT
#define MAGPIE_FUZZ_FORMAT MAGPIE_FORMAT_JPEG
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (magpie_sniff(data, size) != MAGPIE_FUZZ_FORMAT) return 0;
    magpie_decode_options o;
    magpie_decode_options_init(&o);
    o.limits.max_pixels = 16u << 20;
    o.limits.max_bytes = 256u << 20;
    o.limits.max_frames = 64;
    magpie_image *img = NULL;
    if (magpie_decode(data, size, &o, &img) == MAGPIE_OK) magpie_image_free(img);
    /* The thumbnail's fit, box and turn vary with the input's length, so the resampler meets
     * many geometries (crops, upscales, box pre-shrinks, rows written turned). */
    o.fit = (magpie_fit)(1 + size % 3);
    o.width = 1 + (uint32_t)(size % 97);
    o.height = 1 + (uint32_t)(size / 97 % 61);
    o.flags = MAGPIE_DECODE_ONE_FRAME | MAGPIE_DECODE_TRANSFORM(1 + size / 7 % 8) |
              (size % 5 == 0 ? MAGPIE_DECODE_LINEAR : 0);
    o.frame_index = size % 3;
    uint32_t w, h;
    if (magpie_output_size(data, size, &o, &w, &h) == MAGPIE_OK) {
        size_t stride = (size_t)w * 4 + 8;
        uint8_t *buf = malloc(stride * h);
        if (buf) magpie_decode_into(data, size, &o, buf, stride, stride * h);
        free(buf);
    }
    return 0;
}
