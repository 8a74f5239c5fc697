/* WebP decoding through libwebp. A still image decodes with libwebp's scaled decode when a
 * thumbnail is asked for (its rescaler, to at least twice the output, as JPEG's DCT scaling
 * does), then through the resampling sink; an animation goes through WebPAnimDecoder, which
 * blends and disposes frames onto the canvas, and every frame delivered through the sink. */
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "icc.h"

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

/* Delivers one canvas (RGBA, stride w*4) through a sink into output frame i. */
static int magpie__webp_deliver(magpie__job *job, const magpie__geometry *g, uint32_t i, const uint8_t *px,
                                size_t stride) {
    magpie__sink *sink = NULL;
    int rc = magpie__sink_create(g, job->dst + (size_t)i * job->frame_bytes, job->dst_stride, &sink);
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
    if (!rc && !direct) rc = magpie__webp_deliver(job, &g, 0, buf, buf_stride);
    if (!rc && job->delays_ms) job->delays_ms[0] = 0;
    free(buf);
    magpie__uncharge(job, need);
    return rc;
}

static int magpie__webp_animation(magpie__job *job, const uint8_t *data, size_t size) {
    const uint32_t W = job->info.width, H = job->info.height;
    const uint64_t canvas_px = (uint64_t)W * H;
    const uint32_t last = job->first_frame + job->frames_wanted;
    /* The decoder composites every frame up to the last one delivered onto the whole canvas. */
    const uint64_t work_limit = (uint64_t)job->opt.limits.max_frame_work * 1000000u;
    if ((uint64_t)last * canvas_px > work_limit) {
        magpie__detail(job, "%u frames of %ux%u is over the work limit of %u megapixels", last, W, H,
                       job->opt.limits.max_frame_work);
        return MAGPIE_ELIMIT_FRAMES;
    }
    magpie__geometry g;
    magpie__job_geometry(job, W, H, &g);
    /* WebPAnimDecoder keeps two canvases, and a frame's own decode buffers (as for a still). */
    uint64_t need = 2 * canvas_px * 4 + canvas_px * 4 + (uint64_t)W * 16 * 4 * 3 + magpie__sink_bytes(&g);
    int rc = magpie__charge(job, need);
    if (rc) return rc;
    WebPAnimDecoderOptions ao;
    WebPData wd = {data, size};
    WebPAnimDecoder *dec = NULL;
    if (!WebPAnimDecoderOptionsInit(&ao)) rc = MAGPIE_EINTERNAL;
    if (!rc) {
        ao.color_mode = MODE_RGBA;
        ao.use_threads = 0;
        if (!(dec = WebPAnimDecoderNew(&wd, &ao))) {
            /* The demuxer checks the whole file first: a cut or malformed chunk list fails here. */
            WebPDemuxState state;
            WebPDemuxer *demux = WebPDemuxPartial(&wd, &state);
            WebPDemuxDelete(demux);
            magpie__detail(job, "%s", state == WEBP_DEMUX_PARSED_HEADER || state == WEBP_DEMUX_PARSING_HEADER
                                          ? "the animation's chunks end early"
                                          : "the animation cannot be demuxed or decoded");
            rc = state == WEBP_DEMUX_PARSED_HEADER || state == WEBP_DEMUX_PARSING_HEADER ? MAGPIE_ETRUNCATED
                                                                                         : MAGPIE_ECORRUPT;
        }
    }
    WebPAnimInfo ai;
    if (!rc && !WebPAnimDecoderGetInfo(dec, &ai)) rc = MAGPIE_EINTERNAL;
    if (!rc && (ai.canvas_width != W || ai.canvas_height != H)) {
        magpie__detail(job, "canvas is %ux%u, the header says %ux%u", ai.canvas_width, ai.canvas_height, W, H);
        rc = MAGPIE_ECORRUPT;
    }
    if (!rc && last > ai.frame_count) {
        magpie__detail(job, "frame %u requested of %u", last - 1, ai.frame_count);
        rc = job->first_frame >= ai.frame_count ? MAGPIE_ERANGE : MAGPIE_ETRUNCATED;
    }
    int prev_ts = 0;
    for (uint32_t i = 0; !rc && i < last; i++) {
        uint8_t *px;
        int ts;
        if (!WebPAnimDecoderGetNext(dec, &px, &ts)) {
            magpie__detail(job, "frame %u does not decode", i);
            rc = MAGPIE_ECORRUPT;
            break;
        }
        if (i >= job->first_frame) {
            uint32_t k = i - job->first_frame;
            rc = magpie__webp_deliver(job, &g, k, px, (size_t)W * 4);
            if (job->delays_ms) job->delays_ms[k] = ts > prev_ts ? (uint32_t)(ts - prev_ts) : 0;
        }
        prev_ts = ts;
    }
    if (!rc) job->loop_count = (int32_t)ai.loop_count;
    WebPAnimDecoderDelete(dec);
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
    if (!rc) rc = cfg.input.has_animation ? magpie__webp_animation(job, data, size) : magpie__webp_still(job, data, size, &cfg);
    magpie__whole_input_free(job, owned);
    return rc;
}

#else

int magpie__decode_webp(magpie__job *job) {
    magpie__detail(job, "this build of magpie has no WebP decoder");
    return MAGPIE_EUNSUPPORTED;
}

#endif
