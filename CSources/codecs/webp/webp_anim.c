/* Animated WebP decoding, a frame at a time, through libwebp's WebPAnimDecoder: it blends and
 * disposes each frame onto its canvas (ANMF), which goes through the resampling sink (frames.c). */
#include <stdlib.h>
#include <string.h>

#include "core/codec.h"

#ifdef MAGPIE_HAVE_WEBP
#include <webp/demux.h>

typedef struct {
    const uint8_t *data;
    uint8_t *owned;
    WebPAnimDecoder *dec;
    uint64_t charged;
    int prev_ts;
    uint32_t frame, count;
} magpie__webp_anim;

static void magpie__webp_anim_close(magpie__job *job, void *state) {
    magpie__webp_anim *st = state;
    if (!st) return;
    if (st->dec) WebPAnimDecoderDelete(st->dec);
    magpie__whole_input_free(job, st->owned);
    magpie__uncharge(job, st->charged);
    free(st);
}

static int magpie__webp_anim_open(magpie__job *job, void **state) {
    *state = NULL;
    const uint32_t W = job->info.width, H = job->info.height;
    const uint64_t canvas_px = (uint64_t)W * H;
    magpie__webp_anim *st = calloc(1, sizeof *st);
    if (!st) return MAGPIE_ENOMEM;
    int rc = magpie__whole_input(job, &st->data, &st->owned);
    /* WebPAnimDecoder keeps two canvases, and a frame's own decode buffers (as for a still). */
    uint64_t need = 2 * canvas_px * 4 + canvas_px * 4 + (uint64_t)W * 16 * 4 * 3;
    if (!rc && !(rc = magpie__charge(job, need))) st->charged = need;
    WebPAnimDecoderOptions ao;
    WebPData wd = {st->data, (size_t)job->in->size};
    if (!rc && !WebPAnimDecoderOptionsInit(&ao)) rc = MAGPIE_EINTERNAL;
    if (!rc) {
        ao.color_mode = MODE_RGBA;
        ao.use_threads = 0;
        if (!(st->dec = WebPAnimDecoderNew(&wd, &ao))) {
            /* The demuxer checks the whole file first: a cut or malformed chunk list fails here. */
            WebPDemuxState state_;
            WebPDemuxer *demux = WebPDemuxPartial(&wd, &state_);
            WebPDemuxDelete(demux);
            int cut = state_ == WEBP_DEMUX_PARSED_HEADER || state_ == WEBP_DEMUX_PARSING_HEADER;
            magpie__detail(job, "%s", cut ? "the animation's chunks end early" : "the animation cannot be demuxed");
            rc = cut ? MAGPIE_ETRUNCATED : MAGPIE_ECORRUPT;
        }
    }
    WebPAnimInfo ai;
    if (!rc && !WebPAnimDecoderGetInfo(st->dec, &ai)) rc = MAGPIE_EINTERNAL;
    if (!rc && (ai.canvas_width != W || ai.canvas_height != H)) {
        magpie__detail(job, "canvas is %ux%u, the header says %ux%u", ai.canvas_width, ai.canvas_height, W, H);
        rc = MAGPIE_ECORRUPT;
    }
    if (rc) {
        magpie__webp_anim_close(job, st);
        return rc;
    }
    st->count = ai.frame_count;
    /* WebP counts plays; Magpie's count is GIF's (the probe's reading). */
    job->loop_count = ai.loop_count == 0 ? 0 : ai.loop_count == 1 ? -1 : (int32_t)ai.loop_count - 1;
    *state = st;
    return MAGPIE_OK;
}

static int magpie__webp_anim_next(magpie__job *job, void *state, magpie__sink *sink, uint32_t *delay_ms) {
    magpie__webp_anim *st = state;
    if (st->frame >= st->count) {
        magpie__detail(job, "only %u frames present", st->count);
        return MAGPIE_ERANGE;
    }
    uint8_t *px;
    int ts;
    if (!WebPAnimDecoderGetNext(st->dec, &px, &ts)) {
        magpie__detail(job, "frame %u does not decode", st->frame);
        return MAGPIE_ECORRUPT;
    }
    const uint32_t W = job->info.width, H = job->info.height;
    if (sink)
        for (uint32_t y = 0; y < H; y++) magpie__sink_push(sink, px + (size_t)y * W * 4);
    *delay_ms = ts > st->prev_ts ? (uint32_t)(ts - st->prev_ts) : 0;
    st->prev_ts = ts;
    st->frame++;
    return MAGPIE_OK;
}

const magpie__frames_ops magpie__webp_frames = {magpie__webp_anim_open, magpie__webp_anim_next, NULL,
                                                magpie__webp_anim_close};

#else

static int magpie__webp_anim_none(magpie__job *job, void **state) {
    *state = NULL;
    magpie__detail(job, "this build of magpie has no WebP decoder");
    return MAGPIE_EUNSUPPORTED;
}
static int magpie__webp_anim_never(magpie__job *job, void *state, magpie__sink *sink, uint32_t *delay_ms) {
    (void)job, (void)state, (void)sink, (void)delay_ms;
    return MAGPIE_EUNSUPPORTED;
}
static void magpie__webp_anim_nothing(magpie__job *job, void *state) { (void)job, (void)state; }

const magpie__frames_ops magpie__webp_frames = {magpie__webp_anim_none, magpie__webp_anim_never, NULL,
                                                magpie__webp_anim_nothing};

#endif
