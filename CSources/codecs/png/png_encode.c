/* PNG encoding through libpng: RGB when every pixel is opaque, else RGBA; or, when palette colours
 * are asked for, a palette from libimagequant (as pngquant and libvips's pngsave make one: speed 4,
 * full dithering) at the smallest bit depth that holds it, its alpha in a tRNS chunk. */
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

#include "core/codec.h"
#include "codecs/quant/quant.h"

typedef struct {
    uint8_t *buf;
    size_t len, cap;
    int oom;
    uint8_t *row;
} magpie__png_out;

static void magpie__png_write(png_structp png, png_bytep data, size_t len) {
    magpie__png_out *o = png_get_io_ptr(png);
    if (len > o->cap - o->len) {
        size_t cap = o->cap ? o->cap : 4096;
        while (cap - o->len < len) {
            if (cap > SIZE_MAX / 2) {
                o->oom = 1;
                png_error(png, "output too large");
            }
            cap *= 2;
        }
        uint8_t *b = realloc(o->buf, cap);
        if (!b) {
            o->oom = 1;
            png_error(png, "out of memory");
        }
        o->buf = b;
        o->cap = cap;
    }
    memcpy(o->buf + o->len, data, len);
    o->len += len;
}

static void magpie__png_flush(png_structp png) { (void)png; }
static void magpie__png_werror(png_structp png, png_const_charp msg) {
    (void)msg;
    png_longjmp(png, 1);
}
static void magpie__png_wwarn(png_structp png, png_const_charp msg) {
    (void)png;
    (void)msg;
}

/* What the rows are: RGB(A) samples, or palette indices. */
typedef struct {
    int opaque;
    magpie__palette palette;
    uint8_t *idx; /* w × h indices, or NULL for truecolour */
} magpie__png_pixels;

static int magpie__png_quantize(const uint8_t *px, uint32_t w, uint32_t h, size_t stride, int colors,
                                magpie__png_pixels *p) {
    if ((size_t)w > SIZE_MAX / h || !(p->idx = malloc((size_t)w * h))) return MAGPIE_ENOMEM;
    int rc = magpie__quantize(px, w, h, stride, colors, 1.0f, 4, &p->palette, p->idx);
    if (rc) {
        free(p->idx);
        p->idx = NULL;
    }
    return rc;
}

/* The IHDR, PLTE and tRNS of the pixels. */
static void magpie__png_header(png_structp png, png_infop info, uint32_t w, uint32_t h, const magpie__png_pixels *p) {
    if (!p->idx) {
        png_set_IHDR(png, info, w, h, 8, p->opaque ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE,
                     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
        return;
    }
    int n = p->palette.count, depth = n <= 2 ? 1 : n <= 4 ? 2 : n <= 16 ? 4 : 8, last = -1;
    png_color colours[256];
    for (int i = 0; i < n; i++) {
        colours[i] = (png_color){p->palette.rgb[i][0], p->palette.rgb[i][1], p->palette.rgb[i][2]};
        if (p->palette.alpha[i] != 255) last = i;
    }
    png_set_IHDR(png, info, w, h, depth, PNG_COLOR_TYPE_PALETTE, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_set_PLTE(png, info, colours, n);
    if (last >= 0) png_set_tRNS(png, info, p->palette.alpha, last + 1, NULL);
}

int magpie__encode_png(const uint8_t *px, uint32_t w, uint32_t h, size_t stride,
                       const magpie_encode_options *opt, uint8_t **out, size_t *n) {
    if (opt->compression_level < 0 || opt->compression_level > 9) return MAGPIE_EINVAL;
    if (opt->palette_colors != 0 && (opt->palette_colors < 2 || opt->palette_colors > 256)) return MAGPIE_EINVAL;
    if (opt->palette_colors && !magpie__quant_available()) return MAGPIE_EUNSUPPORTED;
    magpie__png_out *o = calloc(1, sizeof *o);
    magpie__png_pixels *pix = calloc(1, sizeof *pix);
    if (!o || !pix) {
        free(o);
        free(pix);
        return MAGPIE_ENOMEM;
    }
    pix->opaque = magpie__rgba_opaque(px, w, h, stride);
    volatile int rc = opt->palette_colors ? magpie__png_quantize(px, w, h, stride, opt->palette_colors, pix) : MAGPIE_OK;
    png_structp png = NULL;
    png_infop info = NULL;
    if (!rc) {
        png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, magpie__png_werror, magpie__png_wwarn);
        info = png ? png_create_info_struct(png) : NULL;
        if (!png || !info) rc = MAGPIE_ENOMEM;
    }
    if (rc) {
        png_destroy_write_struct(png ? &png : NULL, NULL);
        free(pix->idx);
        free(pix);
        free(o);
        return rc;
    }
    if (setjmp(png_jmpbuf(png))) {
        rc = o->oom ? MAGPIE_ENOMEM : MAGPIE_EENCODE;
        goto done;
    }
    png_set_write_fn(png, o, magpie__png_write, magpie__png_flush);
    png_set_compression_level(png, opt->compression_level);
    magpie__png_header(png, info, w, h, pix);
    if (opt->icc_profile) { /* written as given: libpng's checks of it are warnings, not errors */
        png_set_benign_errors(png, 1);
        png_set_option(png, PNG_SKIP_sRGB_CHECK_PROFILE, PNG_OPTION_ON);
        png_set_iCCP(png, info, "icc", PNG_COMPRESSION_TYPE_BASE, opt->icc_profile, (png_uint_32)opt->icc_profile_size);
    }
    png_write_info(png, info);
    if (pix->idx) png_set_packing(png); /* a byte per index in, packed to the bit depth */
    if (!pix->idx && pix->opaque) {
        o->row = malloc((size_t)w * 3);
        if (!o->row) {
            rc = MAGPIE_ENOMEM;
            goto done;
        }
    }
    for (uint32_t y = 0; y < h; y++) {
        const uint8_t *r = px + (size_t)y * stride;
        if (pix->idx) {
            png_write_row(png, pix->idx + (size_t)y * w);
        } else if (pix->opaque) {
            for (uint32_t x = 0; x < w; x++) memcpy(o->row + (size_t)x * 3, r + (size_t)x * 4, 3);
            png_write_row(png, o->row);
        } else {
            png_write_row(png, (png_const_bytep)r);
        }
    }
    png_write_end(png, NULL);
done:
    png_destroy_write_struct(&png, &info);
    free(o->row);
    free(pix->idx);
    free(pix);
    if (rc == MAGPIE_OK) {
        *out = o->buf;
        *n = o->len;
    } else {
        free(o->buf);
    }
    free(o);
    return rc;
}
