/* The decoder handle: the header parsed once (decode.c prepares and finishes the job), then one
 * decode, or frames one at a time (frames.c). */
#include <stdlib.h>

#include "core/codec.h"
#include "colour/icc.h"

struct magpie_decoder {
    magpie__in in;
    magpie__job job;
    int decoded; /* a handle decodes once */
    uint32_t color_flags; /* after the decode: MAGPIE_IMAGE_PROFILE_* */
    uint8_t *icc;         /* ... and the profile it kept */
    size_t icc_size;
    /* The frame iterator: the animation open (iterating), frames given, and a failure seen. */
    magpie__frames frames;
    int iterating, failed;
    uint32_t delivered;
};

/* The profile the decode kept moves to the handle (the job is released before the handle). */
static void magpie__decoder_keep_profile(magpie_decoder *d) {
    d->color_flags = d->job.color_flags;
    if (d->job.color_flags & MAGPIE_IMAGE_PROFILE_KEPT) {
        free(d->icc);
        d->icc = d->job.icc;
        d->icc_size = d->job.icc_size;
        d->job.icc = NULL;
        d->job.icc_size = 0;
    }
}

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
    if (!d || d->decoded || d->delivered || d->iterating) return MAGPIE_EINVAL;
    d->decoded = 1;
    int rc = magpie__finish_into(&d->job, pixels, stride, buffer_size);
    d->color_flags = d->job.color_flags;
    if (rc == MAGPIE_OK) magpie__decoder_keep_profile(d);
    magpie__release(&d->job);
    return rc;
}

int magpie_decoder_decode(magpie_decoder *d, magpie_image **out) {
    if (out) *out = NULL;
    if (!d || d->decoded || d->delivered || d->iterating) return MAGPIE_EINVAL;
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

/* Whether the handle iterates through the codec's frames (else its one frame is the decode's). */
static int magpie__decoder_animated(const magpie_decoder *d) {
    const magpie__codec *codec = magpie__codec_of(d->job.info.format);
    return codec && codec->frames && d->job.info.frames > 1 && !(d->job.opt.flags & MAGPIE_DECODE_ONE_FRAME);
}

int magpie_decoder_frame_count(const magpie_decoder *d, uint32_t *frames, int32_t *loop_count) {
    if (!d || !frames || !loop_count) return MAGPIE_EINVAL;
    *frames = magpie__decoder_animated(d) ? d->job.info.frames : 1;
    *loop_count = d->iterating ? d->job.loop_count : d->job.info.loop_count;
    return MAGPIE_OK;
}

static int magpie__decoder_next(magpie_decoder *d, uint8_t *pixels, size_t stride, size_t buffer_size,
                                uint32_t *delay_ms) {
    magpie__job *job = &d->job;
    if (!magpie__decoder_animated(d)) {
        int rc = magpie__finish_into(job, pixels, stride, buffer_size);
        if (rc != MAGPIE_EBUFFER && rc != MAGPIE_EINVAL) d->decoded = 1; /* a later call is past the end */
        if (!rc) magpie__decoder_keep_profile(d);
        return rc;
    }
    size_t need;
    if (!pixels || stride < (size_t)job->out_w * 4 || magpie__mul(stride, job->out_h - 1, &need) ||
        magpie__add(need, (size_t)job->out_w * 4, &need) || need > buffer_size)
        return pixels ? MAGPIE_EBUFFER : MAGPIE_EINVAL;
    int rc;
    if (!d->iterating) {
        /* The caller's frame counts against the memory limit, as a one-frame decode's does. */
        if ((rc = magpie__charge(job, (uint64_t)job->out_w * 4 * job->out_h))) return rc;
        if ((rc = magpie__frames_begin(job, &d->frames))) return rc;
        d->iterating = 1;
    }
    if ((rc = magpie__frames_next(job, &d->frames, pixels, stride, delay_ms))) return rc;
    /* Each frame through the source's profile on its own (the one-frame decode's conversion). */
    job->dst = pixels;
    job->dst_stride = stride;
    job->frame_bytes = 0;
    job->icc_applied = 0;
    magpie__job_finish_profile(job, 1);
    magpie__decoder_keep_profile(d);
    return MAGPIE_OK;
}

int magpie_decoder_next_frame(magpie_decoder *d, uint8_t *pixels, size_t stride, size_t buffer_size,
                              uint32_t *delay_ms) {
    if (delay_ms) *delay_ms = 0;
    if (!d || d->failed || (d->decoded && d->delivered == 0)) return MAGPIE_EINVAL;
    uint32_t frames;
    int32_t loop;
    magpie_decoder_frame_count(d, &frames, &loop);
    if (d->delivered >= frames) return MAGPIE_ERANGE;
    int rc = magpie__decoder_next(d, pixels, stride, buffer_size, delay_ms);
    if (rc == MAGPIE_EBUFFER || (rc == MAGPIE_EINVAL && !pixels)) return rc; /* nothing was read: try again */
    if (rc == MAGPIE_OK) d->delivered++;
    if (rc || d->delivered == frames) {
        /* Done, or failed (a second try would read from where the failure left the codec). */
        d->failed = rc != MAGPIE_OK;
        if (rc == MAGPIE_ERANGE) rc = MAGPIE_ETRUNCATED; /* fewer frames than the header walk counted */
        magpie__frames_end(&d->job, &d->frames);
        d->iterating = 0;
        magpie__release(&d->job);
    }
    return rc;
}

void magpie_decoder_free(magpie_decoder *d) {
    if (!d) return;
    magpie__frames_end(&d->job, &d->frames);
    magpie__release(&d->job);
    magpie__in_close(&d->in);
    free(d->icc);
    free(d);
}
