/* An animation a frame at a time, through its codec's frames ops (codec.h): the whole decode of
 * the frames an image asks for, and the frame iterator of the decoder handle. The resampling plan
 * (the geometry and the sink's filter windows) is made once and reused for every frame. */
#include <stdlib.h>
#include <string.h>

#include "core/codec.h"

int magpie__frames_begin(magpie__job *job, magpie__frames *f) {
    memset(f, 0, sizeof *f);
    const magpie__codec *codec = magpie__codec_of(job->info.format);
    if (!codec || !codec->frames) return MAGPIE_EINTERNAL;
    f->ops = codec->frames;
    magpie__job_geometry(job, job->info.width, job->info.height, &f->g);
    uint64_t need = magpie__sink_bytes(&f->g);
    int rc = magpie__charge(job, need);
    if (rc) return rc;
    f->charged = need;
    if ((rc = f->ops->open(job, &f->state))) magpie__frames_end(job, f);
    return rc;
}

int magpie__frames_next(magpie__job *job, magpie__frames *f, uint8_t *dst, size_t stride, uint32_t *delay_ms) {
    uint32_t delay = 0;
    int rc;
    if (dst) {
        /* Every frame delivered is composited into and resampled from the whole canvas. */
        job->work += (uint64_t)job->info.width * job->info.height;
        if (job->work > (uint64_t)job->opt.limits.max_frame_work * 1000000u) {
            magpie__detail(job, "frame %u goes over the work limit of %u megapixels", f->index,
                           job->opt.limits.max_frame_work);
            return MAGPIE_ELIMIT_FRAMES;
        }
        if (!f->sink) {
            if ((rc = magpie__sink_create(&f->g, dst, stride, &f->sink))) return rc;
        } else {
            magpie__sink_restart(f->sink, dst, stride);
        }
    }
    rc = f->ops->next(job, f->state, dst ? f->sink : NULL, &delay);
    if (!rc && dst) rc = magpie__sink_finish(f->sink);
    if (rc) return rc;
    f->index++;
    if (delay_ms) *delay_ms = delay;
    return MAGPIE_OK;
}

void magpie__frames_end(magpie__job *job, magpie__frames *f) {
    if (f->ops && f->state) f->ops->close(job, f->state);
    magpie__sink_destroy(f->sink);
    magpie__uncharge(job, f->charged);
    memset(f, 0, sizeof *f);
}

int magpie__decode_frames(magpie__job *job) {
    const uint64_t canvas_px = (uint64_t)job->info.width * job->info.height;
    const uint64_t work_limit = (uint64_t)job->opt.limits.max_frame_work * 1000000u;
    /* The frames delivered are known up front: refused before anything is decoded. */
    uint32_t delivered = job->frames_wanted < job->info.frames ? job->frames_wanted : job->info.frames;
    if (delivered > 1 && (uint64_t)delivered * canvas_px > work_limit) {
        magpie__detail(job, "%u frames of %ux%u is over the work limit of %u megapixels", delivered,
                       job->info.width, job->info.height, job->opt.limits.max_frame_work);
        return MAGPIE_ELIMIT_FRAMES;
    }
    magpie__frames f;
    int rc = magpie__frames_begin(job, &f);
    if (rc) return rc;
    if (job->first_frame > 0 && f.ops->seek) {
        rc = f.ops->seek(job, f.state, job->first_frame);
        f.index = job->first_frame;
    }
    while (!rc && f.index < job->first_frame) rc = magpie__frames_next(job, &f, NULL, 0, NULL);
    for (uint32_t k = 0; !rc && k < job->frames_wanted; k++) {
        uint32_t delay = 0;
        rc = magpie__frames_next(job, &f, job->dst + (size_t)k * job->frame_bytes, job->dst_stride, &delay);
        if (rc == MAGPIE_ERANGE) rc = MAGPIE_ETRUNCATED; /* fewer frames than the header walk counted */
        if (!rc && job->delays_ms) job->delays_ms[k] = delay;
    }
    magpie__frames_end(job, &f);
    return rc;
}
