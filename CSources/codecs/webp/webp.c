/* WebP decoding through libwebp. A still image decodes with libwebp's scaled decode when a
 * thumbnail is asked for (its rescaler, to at least twice the output, as JPEG's DCT scaling
 * does), then through the resampling sink; an animation goes frame by frame (webp_anim.c). */
#include <stdlib.h>
#include <string.h>

#include "core/codec.h"
#include "colour/icc.h"

#ifdef MAGPIE_HAVE_WEBP
#include <webp/decode.h>
#include <webp/demux.h>

static int magpie__webp_status(magpie__job *job, VP8StatusCode s, const char *stage) {
    switch (s) {
    case VP8_STATUS_OK: return MAGPIE_OK;
    case VP8_STATUS_OUT_OF_MEMORY: magpie__detail(job, "%s: out of memory", stage); return MAGPIE_ENOMEM;
    case VP8_STATUS_NOT_ENOUGH_DATA: magpie__detail(job, "%s: the data ends early", stage); return MAGPIE_ETRUNCATED;
    case VP8_STATUS_UNSUPPORTED_FEATURE:
        magpie__detail(job, "%s: unsupported WebP feature", stage);
        return MAGPIE_EUNSUPPORTED;
    default: magpie__detail(job, "%s: invalid WebP bitstream (status %d)", stage, (int)s); return MAGPIE_ECORRUPT;
    }
}

/* Delivers one image (RGBA, `stride` apart) through a new sink into the output. */
static int magpie__webp_deliver(magpie__job *job, const magpie__geometry *g, const uint8_t *px, size_t stride) {
    magpie__sink *sink = NULL;
    int rc = magpie__sink_create(g, job->dst, job->dst_stride, &sink);
    if (rc) return rc;
    for (uint32_t y = 0; y < g->in_h; y++) magpie__sink_push(sink, px + (size_t)y * stride);
    rc = magpie__sink_finish(sink);
    magpie__sink_destroy(sink);
    return rc;
}

static int magpie__webp_still(magpie__job *job, const uint8_t *data, size_t size, WebPDecoderConfig *cfg) {
    const uint32_t W = job->info.width, H = job->info.height;
    if ((uint32_t)cfg->input.width != W || (uint32_t)cfg->input.height != H) {
        magpie__detail(job, "bitstream is %dx%d, the header says %ux%u", cfg->input.width, cfg->input.height, W, H);
        return MAGPIE_ECORRUPT;
    }
    if (job->first_frame != 0) return MAGPIE_ERANGE;
    /* Scaled decode: the smallest size that keeps twice the output across the window. Not with
     * alpha: libwebp rescales before it converts YUV to RGB, without weighting by alpha, so the
     * colour under transparent pixels bleeds into the edges (lossy_alpha1.webp: 35.8 dB against
     * 51.1 through the sink, which resamples premultiplied). */
    uint32_t sw = W, sh = H;
    double gap = magpie__reducing_gap(job); /* 1 with MAGPIE_DECODE_FAST */
    double s = gap * job->st_w / job->win_w, t = gap * job->st_h / job->win_h;
    if (t > s) s = t;
    if (s < 1.0 && !cfg->input.has_alpha) {
        sw = (uint32_t)(W * s + 0.999);
        sh = (uint32_t)(H * s + 0.999);
        if (sw < 1) sw = 1;
        if (sh < 1) sh = 1;
        cfg->options.use_scaling = 1;
        cfg->options.scaled_width = (int)sw;
        cfg->options.scaled_height = (int)sh;
    }
    magpie__geometry g;
    magpie__job_geometry(job, sw, sh, &g);
    /* libwebp's own memory: lossless keeps the whole ARGB image (back-references reach any
     * earlier pixel), lossy with alpha the whole alpha plane, lossy rows a few macroblocks. */
    uint64_t internal = (uint64_t)W * 16 * 4 * 3;
    if (cfg->input.format == 2) internal += (uint64_t)W * H * 4;
    else if (cfg->input.has_alpha) internal += (uint64_t)W * H;
    int direct = sw == W && sh == H && job->st_w == W && job->st_h == H && job->orientation == 1 &&
                 job->win_x == 0 && job->win_y == 0;
    size_t buf_stride = (size_t)sw * 4, buf_bytes = direct ? 0 : buf_stride * sh;
    uint64_t need = internal + buf_bytes + (direct ? 0 : magpie__sink_bytes(&g));
    int rc = magpie__charge(job, need);
    if (rc) return rc;
    uint8_t *buf = NULL;
    if (!direct && !(buf = malloc(buf_bytes))) rc = MAGPIE_ENOMEM;
    if (!rc) {
        cfg->options.use_threads = 0;
        cfg->output.colorspace = MODE_RGBA;
        cfg->output.is_external_memory = 1;
        cfg->output.u.RGBA.rgba = direct ? job->dst : buf;
        cfg->output.u.RGBA.stride = (int)(direct ? job->dst_stride : buf_stride);
        cfg->output.u.RGBA.size = direct ? job->dst_stride * (H - 1) + (size_t)W * 4 : buf_bytes;
        rc = magpie__webp_status(job, WebPDecode(data, size, cfg), "decode");
        WebPFreeDecBuffer(&cfg->output);
    }
    if (!rc && !direct) rc = magpie__webp_deliver(job, &g, buf, buf_stride);
    if (!rc && job->delays_ms) job->delays_ms[0] = 0;
    free(buf);
    magpie__uncharge(job, need);
    return rc;
}

/* The ICCP chunk a VP8X header announces, onto the job. */
static void magpie__webp_profile(magpie__job *job, const uint8_t *data, size_t size) {
    WebPData wd = {data, size};
    WebPDemuxer *demux = WebPDemux(&wd);
    if (!demux) return;
    WebPChunkIterator it;
    if ((WebPDemuxGetI(demux, WEBP_FF_FORMAT_FLAGS) & ICCP_FLAG) && WebPDemuxGetChunk(demux, "ICCP", 1, &it)) {
        magpie__job_set_profile(job, it.chunk.bytes, it.chunk.size);
        WebPDemuxReleaseChunkIterator(&it);
    }
    WebPDemuxDelete(demux);
}

int magpie__decode_webp(magpie__job *job) {
    const uint8_t *data;
    uint8_t *owned;
    size_t size = (size_t)job->in->size;
    int rc = magpie__whole_input(job, &data, &owned);
    WebPDecoderConfig cfg;
    if (!rc && !WebPInitDecoderConfig(&cfg)) rc = MAGPIE_EINTERNAL;
    if (!rc) rc = magpie__webp_status(job, WebPGetFeatures(data, size, &cfg.input), "header");
    if (!rc) magpie__webp_profile(job, data, size);
    int animated = !rc && cfg.input.has_animation;
    if (!rc && !animated) rc = magpie__webp_still(job, data, size, &cfg);
    magpie__whole_input_free(job, owned);
    /* An animation frame by frame (webp_anim.c), which takes the whole input again. */
    return animated ? magpie__decode_frames(job) : rc;
}

#else

int magpie__decode_webp(magpie__job *job) {
    magpie__detail(job, "this build of magpie has no WebP decoder");
    return MAGPIE_EUNSUPPORTED;
}

#endif
