/* The decoder handle: the header parsed once (decode.c prepares and finishes the job). */
#include <stdlib.h>

#include "job.h"

struct magpie_decoder {
    magpie__in in;
    magpie__job job;
    int decoded; /* a handle decodes once */
    uint32_t color_flags; /* after the decode: MAGPIE_IMAGE_PROFILE_* */
    uint8_t *icc;         /* ... and the profile it kept */
    size_t icc_size;
};

static int magpie__decoder_open(magpie_decoder *d, const magpie_decode_options *options, magpie_decoder **out) {
    int rc = magpie__prepare(&d->job, &d->in, options, 1);
    if (rc) {
        magpie_decoder_free(d);
        return rc;
    }
    *out = d;
    return MAGPIE_OK;
}

int magpie_decoder_open(const void *data, size_t size, const magpie_decode_options *options, magpie_decoder **out) {
    if (!out) return MAGPIE_EINVAL;
    *out = NULL;
    if (!data || size == 0) return MAGPIE_EINVAL;
    magpie_decoder *d = calloc(1, sizeof *d);
    if (!d) return MAGPIE_ENOMEM;
    magpie__in_memory(&d->in, data, size);
    return magpie__decoder_open(d, options, out);
}

int magpie_decoder_open_file(const char *path, const magpie_decode_options *options, magpie_decoder **out) {
    if (!out) return MAGPIE_EINVAL;
    *out = NULL;
    magpie_decoder *d = calloc(1, sizeof *d);
    if (!d) return MAGPIE_ENOMEM;
    int rc = magpie__open(&d->in, path, options);
    if (rc) {
        free(d);
        return rc;
    }
    return magpie__decoder_open(d, options, out);
}

int magpie_decoder_info(const magpie_decoder *d, magpie_info *info) {
    if (!d || !info || info->struct_size < sizeof *info) return MAGPIE_EINVAL;
    *info = d->job.info;
    return MAGPIE_OK;
}

int magpie_decoder_output_size(const magpie_decoder *d, uint32_t *width, uint32_t *height) {
    if (!d || !width || !height) return MAGPIE_EINVAL;
    *width = d->job.out_w;
    *height = d->job.out_h;
    return MAGPIE_OK;
}

int magpie_decoder_decode_into(magpie_decoder *d, uint8_t *pixels, size_t stride, size_t buffer_size) {
    if (!d || d->decoded) return MAGPIE_EINVAL;
    d->decoded = 1;
    int rc = magpie__finish_into(&d->job, pixels, stride, buffer_size);
    d->color_flags = d->job.color_flags;
    if (rc == MAGPIE_OK && (d->job.color_flags & MAGPIE_IMAGE_PROFILE_KEPT)) {
        d->icc = d->job.icc;
        d->icc_size = d->job.icc_size;
        d->job.icc = NULL;
        d->job.icc_size = 0;
    }
    magpie__release(&d->job);
    return rc;
}

int magpie_decoder_decode(magpie_decoder *d, magpie_image **out) {
    if (out) *out = NULL;
    if (!d || d->decoded) return MAGPIE_EINVAL;
    d->decoded = 1;
    int rc = magpie__finish_image(&d->job, out);
    magpie__release(&d->job);
    return rc;
}

int magpie_decoder_color(const magpie_decoder *d, uint32_t *flags, const uint8_t **icc_profile, size_t *icc_profile_size) {
    if (!d || !flags || !icc_profile || !icc_profile_size) return MAGPIE_EINVAL;
    *flags = d->color_flags;
    *icc_profile = d->icc;
    *icc_profile_size = d->icc_size;
    return MAGPIE_OK;
}

void magpie_decoder_free(magpie_decoder *d) {
    if (!d) return;
    magpie__release(&d->job);
    magpie__in_close(&d->in);
    free(d->icc);
    free(d);
}
