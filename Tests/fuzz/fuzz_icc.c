/* libFuzzer harness: colour profiles as hostile input. The bytes are a profile, or are written
 * over a real one (an RGB, a gray or an Adobe-RGB-like profile made by lcms2 once) at an offset
 * they choose, so the mutations reach past the header; the profile's transform is built for RGBA,
 * CMYK and inverted CMYK pixels and run over a few rows, and it rides in a small JPEG through the
 * public decoder, converted and kept. */
#include <lcms2.h>
#include <stdlib.h>
#include <string.h>

#include "colour/icc.h"
#include "magpie.h"

static uint8_t *templates[3];
static cmsUInt32Number template_sizes[3];
static uint8_t *jpeg_head; /* an 8x8 JPEG to carry the profile */
static size_t jpeg_size;

static void save(int i, cmsHPROFILE p) {
    cmsSaveProfileToMem(p, NULL, &template_sizes[i]);
    templates[i] = malloc(template_sizes[i]);
    cmsSaveProfileToMem(p, templates[i], &template_sizes[i]);
    cmsCloseProfile(p);
}

static void setup(void) {
    save(0, cmsCreate_sRGBProfile());
    cmsToneCurve *g = cmsBuildGamma(NULL, 2.2);
    cmsCIExyY d65 = {0.3127, 0.3290, 1};
    save(1, cmsCreateGrayProfile(&d65, g));
    cmsCIExyYTRIPLE adobe = {{0.64, 0.33, 1}, {0.21, 0.71, 1}, {0.15, 0.06, 1}};
    cmsToneCurve *c3[3] = {g, g, g};
    save(2, cmsCreateRGBProfile(&d65, &adobe, c3));
    cmsFreeToneCurve(g);
    uint8_t px[8 * 8 * 4];
    for (size_t i = 0; i < sizeof px; i++) px[i] = (uint8_t)(i * 37);
    magpie_encode_options e;
    magpie_encode_options_init(&e);
    e.format = MAGPIE_FORMAT_JPEG;
    magpie_encode(px, 8, 8, 32, &e, &jpeg_head, &jpeg_size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!templates[0]) setup();
    if (size < 4) return 0;
    uint8_t *icc = NULL;
    size_t n = 0;
    int mode = data[0] % 4;
    if (mode == 3) {
        n = size - 4;
        icc = malloc(n ? n : 1);
        memcpy(icc, data + 4, n);
    } else {
        n = template_sizes[mode];
        icc = malloc(n);
        memcpy(icc, templates[mode], n);
        size_t at = ((size_t)data[1] << 8 | data[2]) % n;
        for (size_t i = 4; i < size && at < n; i++, at++) icc[at] = data[i];
    }
    uint8_t rows[16 * 3 * 4];
    for (int kind = MAGPIE__ICC_RGBA; kind <= MAGPIE__ICC_CMYK_INVERTED; kind++) {
        magpie__color *c = NULL;
        for (size_t i = 0; i < sizeof rows; i++) rows[i] = (uint8_t)(i * 13 + data[3]);
        if (magpie__color_acquire(icc, n, kind, &c) == MAGPIE_OK) {
            magpie__color_rows(c, rows, 16 * 4, 16, 3);
            magpie__color_release(c);
        }
    }
    /* Through the public decoder, in a JPEG (APP2 keeps the bytes as they are). */
    magpie_encode_options e;
    magpie_encode_options_init(&e);
    e.format = MAGPIE_FORMAT_JPEG;
    e.icc_profile = icc;
    e.icc_profile_size = n;
    uint8_t px[8 * 8 * 4] = {0}, *file = NULL;
    size_t file_size = 0;
    if (n && magpie_encode(px, 8, 8, 32, &e, &file, &file_size) == MAGPIE_OK) {
        for (uint32_t flags = 0; flags <= MAGPIE_DECODE_KEEP_PROFILE; flags += MAGPIE_DECODE_KEEP_PROFILE) {
            magpie_decode_options o;
            magpie_decode_options_init(&o);
            o.flags = flags;
            magpie_image *img = NULL;
            if (magpie_decode(file, file_size, &o, &img) == MAGPIE_OK) magpie_image_free(img);
        }
    }
    magpie_free(file);
    free(icc);
    return 0;
}
