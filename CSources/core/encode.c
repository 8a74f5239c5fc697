/* Encoding: PNG through libpng, JPEG through TurboJPEG (the only file that uses its API). */
#include <setjmp.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

#include <png.h>
#include <turbojpeg.h>

#include "codec.h"

void magpie_encode_options_init(magpie_encode_options *o) {
    if (!o) return;
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
    o->format = MAGPIE_FORMAT_PNG;
    o->quality = 85;
    o->subsampling = MAGPIE_SUBSAMPLING_420;
    o->compression_level = 6;
    o->background = 0xFFFFFF;
    o->lossless = 0;
    o->method = 4;
    o->speed = 8;
}

void magpie_free(void *buffer) { free(buffer); }

static int magpie__opaque(const uint8_t *px, uint32_t w, uint32_t h, size_t stride) {
    for (uint32_t y = 0; y < h; y++) {
        const uint8_t *r = px + (size_t)y * stride;
        for (uint32_t x = 0; x < w; x++)
            if (r[(size_t)x * 4 + 3] != 255) return 0;
    }
    return 1;
}

/* ---- PNG ---- */

typedef struct {
    uint8_t *buf;
    size_t len, cap;
    int oom;
    int opaque;
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

int magpie__encode_png(const uint8_t *px, uint32_t w, uint32_t h, size_t stride,
                       const magpie_encode_options *opt, uint8_t **out, size_t *n) {
    if (opt->compression_level < 0 || opt->compression_level > 9) return MAGPIE_EINVAL;
    magpie__png_out *o = calloc(1, sizeof *o);
    if (!o) return MAGPIE_ENOMEM;
    o->opaque = magpie__opaque(px, w, h, stride);
    volatile int rc = MAGPIE_OK;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, magpie__png_werror, magpie__png_wwarn);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_write_struct(png ? &png : NULL, NULL);
        free(o);
        return MAGPIE_ENOMEM;
    }
    if (setjmp(png_jmpbuf(png))) {
        rc = o->oom ? MAGPIE_ENOMEM : MAGPIE_EENCODE;
        goto done;
    }
    png_set_write_fn(png, o, magpie__png_write, magpie__png_flush);
    png_set_compression_level(png, opt->compression_level);
    png_set_IHDR(png, info, w, h, 8, o->opaque ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (opt->icc_profile) { /* written as given: libpng's checks of it are warnings, not errors */
        png_set_benign_errors(png, 1);
        png_set_option(png, PNG_SKIP_sRGB_CHECK_PROFILE, PNG_OPTION_ON);
        png_set_iCCP(png, info, "icc", PNG_COMPRESSION_TYPE_BASE, opt->icc_profile, (png_uint_32)opt->icc_profile_size);
    }
    png_write_info(png, info);
    if (o->opaque) {
        o->row = malloc((size_t)w * 3);
        if (!o->row) {
            rc = MAGPIE_ENOMEM;
            goto done;
        }
    }
    for (uint32_t y = 0; y < h; y++) {
        const uint8_t *r = px + (size_t)y * stride;
        if (o->opaque) {
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
    if (rc == MAGPIE_OK) {
        *out = o->buf;
        *n = o->len;
    } else {
        free(o->buf);
    }
    free(o);
    return rc;
}

/* ---- JPEG ---- */

/* A copy of the `size`-byte JPEG with the ICC profile in APP2 "ICC_PROFILE" markers of at most
 * 65,519 bytes of profile each (ICC.1 Annex B.4), after the JFIF APP0 marker (after SOI when there
 * is none), as libjpeg's jpeg_write_icc_profile places them. */
static uint8_t *magpie__jpeg_with_icc(const uint8_t *jpeg, size_t size, const uint8_t *icc, size_t n, size_t *out_n) {
    const size_t room = 65533 - 14; /* a marker's length field counts itself and the 14-byte tag */
    size_t chunks = (n + room - 1) / room, at = 2;
    if (size < 4 || chunks > 255) return NULL;
    if (size >= 6 && jpeg[2] == 0xFF && jpeg[3] == 0xE0 && 4 + magpie__be16(jpeg + 4) <= size)
        at = 4 + magpie__be16(jpeg + 4);
    *out_n = size + n + chunks * 18;
    uint8_t *out = malloc(*out_n), *p = out;
    if (!out) return NULL;
    memcpy(p, jpeg, at);
    p += at;
    for (size_t i = 0; i < chunks; i++) {
        size_t part = n - i * room < room ? n - i * room : room, len = part + 16;
        *p++ = 0xFF;
        *p++ = 0xE2;
        *p++ = (uint8_t)(len >> 8);
        *p++ = (uint8_t)len;
        memcpy(p, "ICC_PROFILE\0", 12);
        p[12] = (uint8_t)(i + 1);
        p[13] = (uint8_t)chunks;
        memcpy(p + 14, icc + i * room, part);
        p += 14 + part;
    }
    memcpy(p, jpeg + at, size - at);
    return out;
}

int magpie__encode_jpeg(const uint8_t *px, uint32_t w, uint32_t h, size_t stride,
                        const magpie_encode_options *opt, uint8_t **out, size_t *n) {
    if (opt->quality < 1 || opt->quality > 100) return MAGPIE_EINVAL;
    if ((unsigned)opt->subsampling > MAGPIE_SUBSAMPLING_444) return MAGPIE_EINVAL;
    if (w > 65535 || h > 65535) return MAGPIE_EINVAL; /* the JPEG format's own limit */
    const uint8_t *src = px;
    uint8_t *flat = NULL;
    size_t pitch = stride;
    int pf = TJPF_RGBA;
    if (!magpie__opaque(px, w, h, stride)) {
        flat = malloc((size_t)w * h * 3);
        if (!flat) return MAGPIE_ENOMEM;
        uint32_t bg[3] = {opt->background >> 16 & 255, opt->background >> 8 & 255, opt->background & 255};
        for (uint32_t y = 0; y < h; y++) {
            const uint8_t *r = px + (size_t)y * stride;
            uint8_t *o = flat + (size_t)y * w * 3;
            for (uint32_t x = 0; x < w; x++) {
                uint32_t a = r[4 * x + 3];
                for (int c = 0; c < 3; c++) o[3 * x + c] = (uint8_t)((r[4 * x + c] * a + bg[c] * (255 - a) + 127) / 255);
            }
        }
        src = flat;
        pitch = (size_t)w * 3;
        pf = TJPF_RGB;
    }
    if (pitch > INT32_MAX) {
        free(flat);
        return MAGPIE_EINVAL;
    }
    tjhandle tj = tjInitCompress();
    if (!tj) {
        free(flat);
        return MAGPIE_ENOMEM;
    }
    unsigned char *jpeg = NULL;
    unsigned long size = 0;
    int sub = opt->subsampling == MAGPIE_SUBSAMPLING_444 ? TJSAMP_444 : TJSAMP_420;
    int rc = MAGPIE_OK;
    if (tjCompress2(tj, src, (int)w, (int)pitch, (int)h, pf, &jpeg, &size, sub, opt->quality, 0) != 0) {
        rc = MAGPIE_EENCODE;
    } else if (opt->icc_profile) {
        if (!(*out = magpie__jpeg_with_icc(jpeg, size, opt->icc_profile, opt->icc_profile_size, n))) rc = MAGPIE_ENOMEM;
    } else {
        *out = malloc(size);
        if (!*out) rc = MAGPIE_ENOMEM;
        else {
            memcpy(*out, jpeg, size);
            *n = size;
        }
    }
    tjFree(jpeg);
    tjDestroy(tj);
    free(flat);
    return rc;
}

int magpie__encode_resolve(const magpie_encode_options *options, magpie_encode_options *o) {
    magpie_encode_options_init(o);
    if (options) {
        /* The struct grew (lossless, method): older callers pass the shorter one. */
        size_t old_size = offsetof(magpie_encode_options, lossless);
        if (options->struct_size < old_size) return MAGPIE_EINVAL;
        memcpy(o, options, options->struct_size < sizeof *o ? options->struct_size : sizeof *o);
        o->struct_size = sizeof *o;
        if (options->struct_size < offsetof(magpie_encode_options, icc_profile_size) + sizeof(size_t)) {
            o->icc_profile = NULL; /* an older caller's struct ends before the profile */
            o->icc_profile_size = 0;
        }
    }
    if (o->icc_profile_size > (4u << 20) || (o->icc_profile_size > 0) != (o->icc_profile != NULL)) return MAGPIE_EINVAL;
    return MAGPIE_OK;
}

int magpie_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride,
                  const magpie_encode_options *options, uint8_t **out, size_t *out_size) {
    if (!out || !out_size) return MAGPIE_EINVAL;
    *out = NULL;
    *out_size = 0;
    if (!pixels || width == 0 || height == 0 || width > 0x3fffffffu || stride < (size_t)width * 4)
        return MAGPIE_EINVAL;
    magpie_encode_options o;
    int rc = magpie__encode_resolve(options, &o);
    if (rc) return rc;
    const magpie__codec *codec = magpie__codec_of(o.format);
    if (!magpie__codec_encodes(codec)) return MAGPIE_EUNSUPPORTED;
    return codec->encode(pixels, width, height, stride, &o, out, out_size);
}
