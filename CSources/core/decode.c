/* Decode entry points: options, limits and output geometry from the header, and dispatch to
 * the codecs (the job's helpers are in job.c, the process-wide budget in budget.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/codec.h"
#include "colour/icc.h"

void magpie_decode_options_init(magpie_decode_options *o) {
    if (!o) return;
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
    o->fit = MAGPIE_FIT_NONE;
    o->filter = MAGPIE_FILTER_LANCZOS3;
}


/* The orientation to apply and the output's size and source window, from the job's info and options. */
static int magpie__plan_output(magpie__job *job) {
    const magpie_limits *l = &job->opt.limits;
    job->orientation = (job->opt.flags & MAGPIE_DECODE_KEEP_ORIENTATION) ? 1 : job->info.orientation;
    if (job->orientation < 1 || job->orientation > 8) job->orientation = 1;
    uint32_t transform = (job->opt.flags >> 8) & 0xFu;
    if (transform > 8) return MAGPIE_EINVAL;
    job->orientation = magpie_orientation_compose(job->orientation, transform);
    int swap = job->orientation >= 5;
    double uw = swap ? job->info.height : job->info.width, uh = swap ? job->info.width : job->info.height;
    magpie__fit_box box;
    int fitted = magpie__fit(job->opt.fit, uw, uh, job->opt.width, job->opt.height, job->opt.max_output_pixels,
                             (job->opt.flags & MAGPIE_DECODE_ALLOW_UPSCALE) != 0, &box);
    if (fitted) return fitted;
    uint32_t ow = box.out_w, oh = box.out_h;
    double wx = box.win_x, wy = box.win_y, ww = box.win_w, wh = box.win_h;
    if ((uint64_t)ow * oh > l->max_pixels || ow > 0x3fffffffu) {
        magpie__detail(job, "output %ux%u is over the pixel limit", ow, oh);
        return MAGPIE_ELIMIT_PIXELS;
    }
    job->out_w = ow;
    job->out_h = oh;
    job->st_w = swap ? oh : ow;
    job->st_h = swap ? ow : oh;
    job->win_x = swap ? wy : wx;
    job->win_y = swap ? wx : wy;
    job->win_w = swap ? wh : ww;
    job->win_h = swap ? ww : wh;
    return MAGPIE_OK;
}

/* Resolves options and the output geometry from the header. `all_frames`: the decode delivers
 * every frame unless the options ask for one; otherwise (one frame, or only the size) the header
 * walk stops at the frame needed. */
int magpie__prepare(magpie__job *job, magpie__in *in, const magpie_decode_options *options, int all_frames) {
    memset(job, 0, sizeof *job);
    magpie_decode_options_init(&job->opt);
    if (options) {
        if (options->struct_size < offsetof(magpie_decode_options, error_detail_size) + sizeof(size_t))
            return MAGPIE_EINVAL;
        /* A caller built against an older, shorter struct: the fields it lacks keep defaults. */
        memcpy(&job->opt, options, options->struct_size < sizeof *options ? options->struct_size : sizeof *options);
        job->opt.struct_size = sizeof job->opt;
    }
    magpie_limits *l = &job->opt.limits;
    if (!l->max_pixels) l->max_pixels = MAGPIE_DEFAULT_MAX_PIXELS;
    if (!l->max_bytes) l->max_bytes = MAGPIE_DEFAULT_MAX_BYTES;
    if (!l->max_frames) l->max_frames = MAGPIE_DEFAULT_MAX_FRAMES;
    if (!l->max_frame_work) l->max_frame_work = MAGPIE_DEFAULT_MAX_FRAME_WORK;
    if (job->opt.error_detail && job->opt.error_detail_size) job->opt.error_detail[0] = 0;
    if ((unsigned)job->opt.fit > MAGPIE_FIT_MAX_PIXELS || (unsigned)job->opt.filter > MAGPIE_FILTER_BILINEAR)
        return MAGPIE_EINVAL;
    job->in = in;
    if (in->size == 0) return in->mem || in->fd < 0 ? MAGPIE_EINVAL : MAGPIE_EUNKNOWN;
    uint32_t cap = 1;
    if (job->opt.flags & MAGPIE_DECODE_ONE_FRAME)
        cap = job->opt.frame_index < UINT32_MAX ? job->opt.frame_index + 1 : UINT32_MAX;
    else if (all_frames)
        cap = UINT32_MAX;
    int rc = magpie__probe_upto(in, &job->info, cap);
    if (rc) return rc;
    const magpie_info *info = &job->info;
    const magpie__codec *codec = magpie__codec_of(info->format);
    /* A page after the first (a TIFF's): its own size and orientation, before any limit. */
    if (codec && codec->page && (job->opt.flags & MAGPIE_DECODE_ONE_FRAME) && job->opt.frame_index > 0) {
        if (job->opt.frame_index >= info->frames) {
            magpie__detail(job, "page %u requested of %u", job->opt.frame_index, info->frames);
            return MAGPIE_ERANGE;
        }
        if ((rc = codec->page(in, job->opt.frame_index, &job->info))) return rc;
    }
    if (!magpie__codec_decodes(codec)) {
        /* An optional decoder not there says why itself (left out of this build, or its library
         * missing or the wrong version), refusing before it reads a byte. */
        if (codec && codec->decode && (codec->flags & MAGPIE__CODEC_OPTIONAL)) return codec->decode(job);
        magpie__detail(job, "%s images are recognised but not decoded", magpie_format_name(info->format));
        return MAGPIE_EUNSUPPORTED;
    }
    if ((uint64_t)info->width * info->height > l->max_pixels) {
        magpie__detail(job, "%ux%u is over the %llu-pixel limit", info->width, info->height,
                       (unsigned long long)l->max_pixels);
        return MAGPIE_ELIMIT_PIXELS;
    }
    if (info->frames > l->max_frames) {
        magpie__detail(job, "%u frames is over the limit of %u", info->frames, l->max_frames);
        return MAGPIE_ELIMIT_FRAMES;
    }
    if ((rc = magpie__plan_output(job))) return rc;
    /* The embedded thumbnail in place of the image when asked for and large enough: the output
     * stays what the image gives, the window is scaled onto the thumbnail. */
    if ((job->opt.flags & MAGPIE_DECODE_THUMBNAIL) && codec->thumbnail) {
        double w = job->info.width, h = job->info.height;
        if (codec->thumbnail(job) == MAGPIE_OK) {
            double sx = job->info.width / w, sy = job->info.height / h;
            job->win_x *= sx, job->win_w *= sx, job->win_y *= sy, job->win_h *= sy;
        }
    }
    return MAGPIE_OK;
}

static int magpie__run(magpie__job *job) {
    const magpie__codec *codec = magpie__codec_of(job->info.format);
    return codec && codec->decode ? codec->decode(job) : MAGPIE_EUNSUPPORTED;
}

static int magpie__output_size_in(magpie__in *in, const magpie_decode_options *options, uint32_t *width,
                                  uint32_t *height) {
    if (!width || !height) return MAGPIE_EINVAL;
    *width = *height = 0;
    magpie__job job;
    int rc = magpie__prepare(&job, in, options, 0);
    if (rc) return rc;
    *width = job.out_w;
    *height = job.out_h;
    return MAGPIE_OK;
}

/* Decodes a prepared job's frame into the caller's buffer. */
int magpie__finish_into(magpie__job *job, uint8_t *pixels, size_t stride, size_t buffer_size) {
    if (!pixels) return MAGPIE_EINVAL;
    size_t need;
    if (stride < (size_t)job->out_w * 4 || magpie__mul(stride, job->out_h - 1, &need) ||
        magpie__add(need, (size_t)job->out_w * 4, &need) || need > buffer_size)
        return MAGPIE_EBUFFER;
    /* The caller's buffer counts against the memory limit too, so a limit means the same thing
     * whichever entry point decodes. */
    int rc = magpie__charge(job, (uint64_t)job->out_w * 4 * job->out_h);
    if (rc) return rc;
    job->dst = pixels;
    job->dst_stride = stride;
    job->frame_bytes = 0;
    job->frames_wanted = 1;
    job->first_frame = (job->opt.flags & MAGPIE_DECODE_ONE_FRAME) ? job->opt.frame_index : 0;
    if (job->first_frame >= job->info.frames) return MAGPIE_ERANGE;
    rc = magpie__run(job);
    if (rc == MAGPIE_OK) magpie__job_finish_profile(job, 1);
    return rc;
}

static int magpie__decode_into_job(magpie__job *job, magpie__in *in, const magpie_decode_options *options,
                                   uint8_t *pixels, size_t stride, size_t buffer_size) {
    int rc = magpie__prepare(job, in, options, 0);
    return rc ? rc : magpie__finish_into(job, pixels, stride, buffer_size);
}

static int magpie__decode_into_in(magpie__in *in, const magpie_decode_options *options, uint8_t *pixels,
                                  size_t stride, size_t buffer_size) {
    magpie__job job;
    memset(&job, 0, sizeof job);
    int rc = magpie__decode_into_job(&job, in, options, pixels, stride, buffer_size);
    magpie__release(&job);
    return rc;
}

/* Decodes a prepared job's frames into a new image. */
int magpie__finish_image(magpie__job *jobp, magpie_image **out) {
#define job (*jobp)
    if (!out) return MAGPIE_EINVAL;
    *out = NULL;
    int rc;
    int one = (job.opt.flags & MAGPIE_DECODE_ONE_FRAME) != 0;
    job.first_frame = one ? job.opt.frame_index : 0;
    /* GIF, WebP and AVIF animations deliver their frames; APNG only its default image. */
    const magpie__codec *codec = magpie__codec_of(job.info.format);
    /* Pages are asked for one at a time: without a page, the first. */
    int pages = codec && codec->page && one;
    uint32_t frames = codec && (codec->frames || pages) ? job.info.frames : 1;
    if (job.first_frame >= frames) {
        magpie__detail(&job, "frame %u requested of %u", job.first_frame, frames);
        return MAGPIE_ERANGE;
    }
    job.frames_wanted = one ? 1 : frames;
    size_t stride = (size_t)job.out_w * 4, frame_bytes, total;
    if (magpie__mul(stride, job.out_h, &frame_bytes) || magpie__mul(frame_bytes, job.frames_wanted, &total))
        return MAGPIE_ELIMIT_MEMORY;
    if ((rc = magpie__charge(&job, total))) return rc;
    magpie_image *img = calloc(1, sizeof *img);
    if (!img) return MAGPIE_ENOMEM;
    img->pixels = malloc(total);
    img->delays_ms = calloc(job.frames_wanted, sizeof *img->delays_ms);
    if (!img->pixels || !img->delays_ms) {
        magpie_image_free(img);
        return MAGPIE_ENOMEM;
    }
    job.dst = img->pixels;
    job.dst_stride = stride;
    job.frame_bytes = frame_bytes;
    job.delays_ms = img->delays_ms;
    job.loop_count = job.info.loop_count;
    rc = magpie__run(&job);
    if (rc) {
        magpie_image_free(img);
        return rc;
    }
    magpie__job_finish_profile(&job, job.frames_wanted);
    img->flags = job.color_flags;
    if (job.color_flags & MAGPIE_IMAGE_PROFILE_KEPT) { /* the profile goes with the image */
        img->icc_profile = job.icc;
        img->icc_profile_size = job.icc_size;
        job.icc = NULL;
        job.icc_size = 0;
    }
    img->struct_size = sizeof *img;
    img->width = job.out_w;
    img->height = job.out_h;
    img->stride = (uint32_t)stride;
    img->frame_count = job.frames_wanted;
    img->loop_count = job.loop_count;
    img->format = job.info.format;
    img->orientation = job.info.orientation;
    img->source_width = job.info.width;
    img->source_height = job.info.height;
    *out = img;
    return MAGPIE_OK;
#undef job
}

static int magpie__decode_job(magpie__job *job, magpie__in *in, const magpie_decode_options *options,
                              magpie_image **out) {
    if (!out) return MAGPIE_EINVAL;
    *out = NULL;
    int rc = magpie__prepare(job, in, options, 1);
    return rc ? rc : magpie__finish_image(job, out);
}

static int magpie__decode_in(magpie__in *in, const magpie_decode_options *options, magpie_image **out) {
    magpie__job job;
    memset(&job, 0, sizeof job);
    int rc = magpie__decode_job(&job, in, options, out);
    magpie__release(&job);
    return rc;
}

/* ---- public entry points: bytes in memory, or a file ---- */

int magpie_output_size(const void *data, size_t size, const magpie_decode_options *options, uint32_t *width,
                       uint32_t *height) {
    if (!data || size == 0) {
        if (width && height) *width = *height = 0;
        return MAGPIE_EINVAL;
    }
    magpie__in in;
    magpie__in_memory(&in, data, size);
    return magpie__output_size_in(&in, options, width, height);
}

int magpie_decode_into(const void *data, size_t size, const magpie_decode_options *options, uint8_t *pixels,
                       size_t stride, size_t buffer_size) {
    if (!data || size == 0) return MAGPIE_EINVAL;
    magpie__in in;
    magpie__in_memory(&in, data, size);
    return magpie__decode_into_in(&in, options, pixels, stride, buffer_size);
}

int magpie_decode(const void *data, size_t size, const magpie_decode_options *options, magpie_image **out) {
    if (out) *out = NULL;
    if (!data || size == 0) return MAGPIE_EINVAL;
    magpie__in in;
    magpie__in_memory(&in, data, size);
    return magpie__decode_in(&in, options, out);
}

/* Opens `path`, writing the reason for a failure into the options' error_detail. */
int magpie__open(magpie__in *in, const char *path, const magpie_decode_options *options) {
    int has_detail = options && options->struct_size >= offsetof(magpie_decode_options, error_detail_size) + sizeof(size_t) &&
                     options->error_detail;
    return magpie__in_open(in, path, has_detail ? options->error_detail : NULL,
                           has_detail ? options->error_detail_size : 0);
}

int magpie_output_size_file(const char *path, const magpie_decode_options *options, uint32_t *width,
                            uint32_t *height) {
    if (width && height) *width = *height = 0;
    magpie__in in;
    int rc = magpie__open(&in, path, options);
    if (rc) return rc;
    rc = magpie__output_size_in(&in, options, width, height);
    magpie__in_close(&in);
    return rc;
}

int magpie_decode_file(const char *path, const magpie_decode_options *options, magpie_image **out) {
    if (out) *out = NULL;
    magpie__in in;
    int rc = magpie__open(&in, path, options);
    if (rc) return rc;
    rc = magpie__decode_in(&in, options, out);
    magpie__in_close(&in);
    return rc;
}

int magpie_decode_file_into(const char *path, const magpie_decode_options *options, uint8_t *pixels,
                            size_t stride, size_t buffer_size) {
    magpie__in in;
    int rc = magpie__open(&in, path, options);
    if (rc) return rc;
    rc = magpie__decode_into_in(&in, options, pixels, stride, buffer_size);
    magpie__in_close(&in);
    return rc;
}

void magpie_image_free(magpie_image *image) {
    if (!image) return;
    free(image->pixels);
    free(image->delays_ms);
    free(image->icc_profile);
    free(image);
}
