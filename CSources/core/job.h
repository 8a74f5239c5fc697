/* A decode in progress: the job every codec is handed, and what codecs call back on it
 * (job.c). Private to the decoder and the codecs. */
#ifndef MAGPIE_JOB_H
#define MAGPIE_JOB_H

#include <math.h>

#include "internal.h"

typedef struct magpie__job {
    magpie__in *in;
    magpie_decode_options opt; /* resolved: limits filled with defaults */
    magpie_info info;
    uint32_t orientation;      /* orientation to apply (1 when kept raw) */
    uint32_t out_w, out_h;     /* upright output size */
    uint32_t st_w, st_h;       /* stored-orientation output size */
    double win_x, win_y, win_w, win_h; /* window in stored full-resolution source coordinates */
    uint64_t used;             /* bytes charged against opt.limits.max_bytes */
    uint64_t global;           /* bytes of this job charged to the process-wide budget */
    /* output */
    uint8_t *dst;              /* frame 0 */
    size_t dst_stride;
    size_t frame_bytes;        /* distance between frames in dst */
    uint32_t frames_wanted;    /* frames to deliver */
    uint32_t first_frame;      /* index of the first frame delivered */
    uint32_t *delays_ms;       /* frames_wanted entries or NULL */
    int32_t loop_count;
    uint64_t work;             /* canvas pixels composited and resampled so far (max_frame_work) */
    /* colour (icc_job.c) */
    uint8_t *icc;              /* the source's ICC profile, charged; NULL when none */
    size_t icc_size;
    uint32_t color_flags;      /* MAGPIE_IMAGE_PROFILE_* */
    int icc_applied;           /* the pixels were converted through it already (CMYK rows) */
} magpie__job;

/* Charges `bytes` to the job's budget; returns MAGPIE_ELIMIT_MEMORY when it would overflow. */
MAGPIE_HIDDEN int magpie__charge(magpie__job *job, uint64_t bytes);
/* How much larger than the output shrink-on-load keeps the image: 2 (the "reducing gap"), 1 with
 * MAGPIE_DECODE_FAST, and without bound (the full size) with MAGPIE_DECODE_NO_SHRINK. */
static inline double magpie__reducing_gap(const magpie__job *job) {
    if (job->opt.flags & MAGPIE_DECODE_NO_SHRINK) return HUGE_VAL;
    return (job->opt.flags & MAGPIE_DECODE_FAST) ? 1.0 : 2.0;
}
MAGPIE_HIDDEN void magpie__uncharge(magpie__job *job, uint64_t bytes);
/* Frees the job's profile bytes (the colour room's icc_job.c sets and uses them; the job owns
 * them, so the core never calls into the colour room to end a job). */
MAGPIE_HIDDEN void magpie__job_drop_profile(magpie__job *job);
/* Frees the job's profile and returns what it still holds of the process-wide budget (at the end
 * of every decode). */
MAGPIE_HIDDEN void magpie__release(magpie__job *job);
MAGPIE_HIDDEN void magpie__detail(magpie__job *job, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The whole input in one piece, for codecs that want it so (libwebp, libavif): memory input as
 * it is, a file read in and charged. Give it back with magpie__whole_input_free. */
MAGPIE_HIDDEN int magpie__whole_input(magpie__job *job, const uint8_t **data, uint8_t **owned);
MAGPIE_HIDDEN void magpie__whole_input_free(magpie__job *job, uint8_t *owned);
/* Geometry for rows delivered at in_w x in_h (a scaled version of the stored source). */
MAGPIE_HIDDEN void magpie__job_geometry(const magpie__job *job, uint32_t in_w, uint32_t in_h,
                                        magpie__geometry *g);

/* decode.c, shared with the decoder handle (decoder.c): resolve options and the output geometry
 * from the header; decode a prepared job into the caller's buffer or a new image; open a file with
 * the options' error detail. */
MAGPIE_HIDDEN int magpie__prepare(magpie__job *job, magpie__in *in, const magpie_decode_options *options,
                                  int all_frames);
MAGPIE_HIDDEN int magpie__finish_into(magpie__job *job, uint8_t *pixels, size_t stride, size_t buffer_size);
MAGPIE_HIDDEN int magpie__finish_image(magpie__job *jobp, magpie_image **out);
MAGPIE_HIDDEN int magpie__open(magpie__in *in, const char *path, const magpie_decode_options *options);

#endif
