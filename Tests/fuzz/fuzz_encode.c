/* Encoder round trips from fuzzed pixels and settings: the input's first bytes choose the size
 * (1–64 a side), the encoding (JPEG XL lossy or lossless at an effort, a PNG palette of 2–256
 * colours, WebP at a preset) and its quality; the rest are the RGBA pixels (repeated to fill).
 * Every encode must succeed and decode back at its size; a lossless JPEG XL gives every sample
 * back; a PNG palette has no more colours than asked. An encoder this machine has not is skipped. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "magpie.h"

static void check_palette(const magpie_image *img, int colors) {
    uint32_t seen[256];
    int count = 0;
    for (size_t i = 0; i < (size_t)img->width * img->height; i++) {
        uint32_t c;
        memcpy(&c, img->pixels + i * 4, 4);
        int known = 0;
        for (int k = 0; k < count && !known; k++) known = seen[k] == c;
        if (known) continue;
        if (count == colors) abort(); /* more colours than the palette holds */
        seen[count++] = c;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 6) return 0;
    uint32_t w = 1 + data[0] % 64, h = 1 + data[1] % 64;
    int kind = data[2] % 3, quality = 1 + data[3] % 100, knob = data[4];
    const uint8_t *body = data + 5;
    size_t body_n = size - 5, n = (size_t)w * h * 4;
    uint8_t *px = malloc(n);
    if (!px) return 0;
    for (size_t i = 0; i < n; i++) px[i] = body[i % body_n];
    magpie_encode_options o;
    magpie_encode_options_init(&o);
    o.quality = quality;
    int lossless = 0, colors = 0;
    if (kind == 0) {
        o.format = MAGPIE_FORMAT_JXL;
        o.effort = 1 + knob % 3; /* the fast efforts: a fuzzer's time is for the inputs */
        lossless = o.lossless = knob & 0x80 ? 1 : 0;
    } else if (kind == 1) {
        o.format = MAGPIE_FORMAT_PNG;
        colors = o.palette_colors = 2 + knob % 255;
        if (!magpie_palette_available()) goto out;
    } else {
        o.format = MAGPIE_FORMAT_WEBP;
        o.webp_preset = (magpie_webp_preset)(knob % 6);
        o.method = knob >> 5 & 3;
    }
    if (!magpie_format_encodable(o.format)) goto out;
    uint8_t *file = NULL;
    size_t file_n = 0;
    if (magpie_encode(px, w, h, (size_t)w * 4, &o, &file, &file_n) != MAGPIE_OK) abort();
    magpie_image *img = NULL;
    if (magpie_decode(file, file_n, NULL, &img) != MAGPIE_OK || img->width != w || img->height != h) abort();
    if (lossless) {
        /* Colour under a fully transparent pixel need not survive; everything else must. */
        for (size_t i = 0; i < (size_t)w * h; i++)
            if (px[i * 4 + 3] != img->pixels[i * 4 + 3] || (px[i * 4 + 3] && memcmp(px + i * 4, img->pixels + i * 4, 3)))
                abort();
    }
    if (colors) check_palette(img, colors);
    magpie_image_free(img);
    magpie_free(file);
out:
    free(px);
    return 0;
}
