/* Encoding: the options, the entry point that asks the codec table for the encoder, and JPEG through
 * TurboJPEG (the only file that uses its API); PNG is png_encode.c. */
#include <setjmp.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

#include <turbojpeg.h>

#include "core/codec.h"

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
    o->effort = 7;
    o->palette_colors = 0;
    o->webp_preset = MAGPIE_WEBP_PRESET_DEFAULT;
}

void magpie_free(void *buffer) { free(buffer); }

int magpie__rgba_opaque(const uint8_t *px, uint32_t w, uint32_t h, size_t stride) {
    for (uint32_t y = 0; y < h; y++) {
        const uint8_t *r = px + (size_t)y * stride;
        for (uint32_t x = 0; x < w; x++)
            if (r[(size_t)x * 4 + 3] != 255) return 0;
    }
    return 1;
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
    if (opt->progressive != 0 && opt->progressive != 1) return MAGPIE_EINVAL;
    if (w > 65535 || h > 65535) return MAGPIE_EINVAL; /* the JPEG format's own limit */
    const uint8_t *src = px;
    uint8_t *flat = NULL;
    size_t pitch = stride;
    int pf = TJPF_RGBA;
    if (!magpie__rgba_opaque(px, w, h, stride)) {
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
    int flags = opt->progressive ? TJFLAG_PROGRESSIVE : 0;
    if (tjCompress2(tj, src, (int)w, (int)pitch, (int)h, pf, &jpeg, &size, sub, opt->quality, flags) != 0) {
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
