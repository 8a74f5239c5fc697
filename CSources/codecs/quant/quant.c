/* Palettes through libimagequant (what pngquant and libvips use), loaded on first use: see quant.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/lazy.h"
#include "codecs/quant/quant.h"

#ifdef MAGPIE_HAVE_IMAGEQUANT
#include <libimagequant.h>

static struct {
    liq_attr *(*attr_create)(void);
    void (*attr_destroy)(liq_attr *);
    liq_error (*set_max_colors)(liq_attr *, int);
    liq_error (*set_speed)(liq_attr *, int);
    liq_image *(*image_create_rgba_rows)(const liq_attr *, void *const[], int, int, double);
    void (*image_destroy)(liq_image *);
    liq_error (*image_quantize)(liq_image *, liq_attr *, liq_result **);
    liq_error (*set_dithering_level)(liq_result *, float);
    const liq_palette *(*get_palette)(liq_result *);
    liq_error (*write_remapped_image_rows)(liq_result *, liq_image *, unsigned char **);
    void (*result_destroy)(liq_result *);
    int (*version)(void);
} magpie__liq;

static int magpie__quant_bind(void *h, char *why, size_t why_size) {
    int missing = 0;
#define MAGPIE__LOAD(field, symbol) MAGPIE__LAZY_SYM(magpie__liq, h, missing, field, symbol)
    MAGPIE__LOAD(attr_create, "liq_attr_create");
    MAGPIE__LOAD(attr_destroy, "liq_attr_destroy");
    MAGPIE__LOAD(set_max_colors, "liq_set_max_colors");
    MAGPIE__LOAD(set_speed, "liq_set_speed");
    MAGPIE__LOAD(image_create_rgba_rows, "liq_image_create_rgba_rows");
    MAGPIE__LOAD(image_destroy, "liq_image_destroy");
    MAGPIE__LOAD(image_quantize, "liq_image_quantize");
    MAGPIE__LOAD(set_dithering_level, "liq_set_dithering_level");
    MAGPIE__LOAD(get_palette, "liq_get_palette");
    MAGPIE__LOAD(write_remapped_image_rows, "liq_write_remapped_image_rows");
    MAGPIE__LOAD(result_destroy, "liq_result_destroy");
    MAGPIE__LOAD(version, "liq_version");
#undef MAGPIE__LOAD
    if (missing) {
        snprintf(why, why_size, "libimagequant lacks a function this build calls");
        return -1;
    }
    if (magpie__liq.version() < 20000) {
        snprintf(why, why_size, "libimagequant %d is older than the 2.x this build expects", magpie__liq.version());
        return -1;
    }
    return 0;
}

static magpie__lazy magpie__quant_lib = MAGPIE__LAZY_INIT("libimagequant.so.0", magpie__quant_bind);

int magpie__quant_available(void) { return magpie__lazy_available(&magpie__quant_lib); }

int magpie__quantize(const uint8_t *px, uint32_t w, uint32_t h, size_t stride, int max_colors, float dither,
                     int speed, magpie__palette *pal, uint8_t *idx) {
    if (magpie__lazy_ready(&magpie__quant_lib)) return MAGPIE_EUNSUPPORTED;
    void **rows = malloc(h * sizeof *rows);
    unsigned char **out = malloc(h * sizeof *out);
    liq_attr *attr = magpie__liq.attr_create();
    liq_image *image = NULL;
    liq_result *res = NULL;
    int rc = rows && out && attr ? MAGPIE_OK : MAGPIE_ENOMEM;
    if (!rc) {
        for (uint32_t y = 0; y < h; y++) {
            rows[y] = (void *)(px + (size_t)y * stride);
            out[y] = idx + (size_t)y * w;
        }
        magpie__liq.set_max_colors(attr, max_colors);
        magpie__liq.set_speed(attr, speed);
        if (!(image = magpie__liq.image_create_rgba_rows(attr, rows, (int)w, (int)h, 0))) rc = MAGPIE_ENOMEM;
    }
    if (!rc && magpie__liq.image_quantize(image, attr, &res) != LIQ_OK) rc = MAGPIE_EENCODE;
    if (!rc) magpie__liq.set_dithering_level(res, dither);
    if (!rc && magpie__liq.write_remapped_image_rows(res, image, out) != LIQ_OK) rc = MAGPIE_EENCODE;
    if (!rc) {
        const liq_palette *p = magpie__liq.get_palette(res);
        pal->count = (int)(p->count <= 256 ? p->count : 256);
        pal->transparent = -1;
        for (int i = 0; i < pal->count; i++) {
            pal->rgb[i][0] = p->entries[i].r;
            pal->rgb[i][1] = p->entries[i].g;
            pal->rgb[i][2] = p->entries[i].b;
            pal->alpha[i] = p->entries[i].a;
            if (p->entries[i].a < 128 && pal->transparent < 0) pal->transparent = i;
        }
    }
    if (res) magpie__liq.result_destroy(res);
    if (image) magpie__liq.image_destroy(image);
    if (attr) magpie__liq.attr_destroy(attr);
    free(rows);
    free(out);
    return rc;
}

#else

int magpie__quant_available(void) { return 0; }

int magpie__quantize(const uint8_t *px, uint32_t w, uint32_t h, size_t stride, int max_colors, float dither,
                     int speed, magpie__palette *pal, uint8_t *idx) {
    (void)px, (void)w, (void)h, (void)stride, (void)max_colors, (void)dither, (void)speed, (void)pal, (void)idx;
    return MAGPIE_EUNSUPPORTED;
}

#endif
