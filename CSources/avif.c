/* AVIF decoding through libavif (with dav1d): still images in 8, 10 or 12 bits, alpha, grids,
 * and image sequences frame by frame. YUV becomes RGBA8 in strips of rows (libavif's view
 * rectangles), so no full-size RGBA copy is made: the strips go straight into the resampling
 * sink. irot/imir arrive as the EXIF orientation the probe computed; clap is not applied (as
 * libavif leaves it to the caller), so sizes are the stored ones. */
#include <stdlib.h>
#include <string.h>

#include "avif_loader.h"
#include "codec.h"
#include "icc.h"

#ifdef MAGPIE_HAVE_AVIF

#define MAGPIE__AVIF_STRIP 16u /* rows converted at a time: even, for 4:2:0 chroma */
#define MAGPIE__AVIF_ITEM_BYTES (1u << 20) /* a dav1d decoder, charged per coded item */

static int magpie__avif_status(magpie__job *job, avifResult r, const char *stage) {
    if (r == AVIF_RESULT_OK) return MAGPIE_OK;
    magpie__detail(job, "%s: %s", stage, magpie__avif.result_string(r));
    switch (r) {
    case AVIF_RESULT_OUT_OF_MEMORY: return MAGPIE_ENOMEM;
    case AVIF_RESULT_TRUNCATED_DATA:
    case AVIF_RESULT_WAITING_ON_IO: return MAGPIE_ETRUNCATED;
    case AVIF_RESULT_NOT_IMPLEMENTED:
    case AVIF_RESULT_NO_CODEC_AVAILABLE: return MAGPIE_EUNSUPPORTED;
    default: return MAGPIE_ECORRUPT;
    }
}

/* Converts the decoder's current image to RGBA8 strip by strip and pushes the rows. */
static int magpie__avif_deliver(magpie__job *job, const magpie__geometry *g, uint32_t i, const avifImage *image,
                                uint8_t *strip) {
    magpie__sink *sink = NULL;
    int rc = magpie__sink_create(g, job->dst + (size_t)i * job->frame_bytes, job->dst_stride, &sink);
    if (rc) return rc;
    avifImage *view = magpie__avif.image_create_empty();
    if (!view) rc = MAGPIE_ENOMEM;
    for (uint32_t y = 0; !rc && y < image->height; y += MAGPIE__AVIF_STRIP) {
        uint32_t rows = image->height - y < MAGPIE__AVIF_STRIP ? image->height - y : MAGPIE__AVIF_STRIP;
        avifCropRect rect = {0, y, image->width, rows};
        rc = magpie__avif_status(job, magpie__avif.image_set_view_rect(view, image, &rect), "view");
        if (rc) break;
        avifRGBImage rgb;
        magpie__avif.rgb_image_set_defaults(&rgb, view);
        rgb.format = AVIF_RGB_FORMAT_RGBA;
        rgb.depth = 8;
        rgb.alphaPremultiplied = AVIF_FALSE; /* straight alpha, whatever the file stores */
        rgb.pixels = strip;
        rgb.rowBytes = image->width * 4;
        rc = magpie__avif_status(job, magpie__avif.image_yuv_to_rgb(view, &rgb), "YUV to RGB");
        for (uint32_t r = 0; !rc && r < rows; r++) magpie__sink_push(sink, strip + (size_t)r * rgb.rowBytes);
    }
    if (view) magpie__avif.image_destroy(view);
    if (!rc) rc = magpie__sink_finish(sink);
    magpie__sink_destroy(sink);
    return rc;
}

int magpie__decode_avif(magpie__job *job) {
    const char *unavailable = magpie__avif_ready();
    if (unavailable) {
        magpie__detail(job, "%s", unavailable);
        return MAGPIE_EUNSUPPORTED;
    }
    const uint32_t W = job->info.width, H = job->info.height;
    const uint64_t canvas_px = (uint64_t)W * H;
    const uint32_t last = job->first_frame + job->frames_wanted;
    const uint64_t work_limit = (uint64_t)job->opt.limits.max_frame_work * 1000000u;
    if (last > 1 && (uint64_t)last * canvas_px > work_limit) {
        magpie__detail(job, "%u frames of %ux%u is over the work limit of %u megapixels", last, W, H,
                       job->opt.limits.max_frame_work);
        return MAGPIE_ELIMIT_FRAMES;
    }
    const uint8_t *data;
    uint8_t *owned = NULL, *strip = NULL;
    int rc = magpie__whole_input(job, &data, &owned);
    if (rc) return rc;
    magpie__geometry g;
    magpie__job_geometry(job, W, H, &g);
    /* dav1d's planes: up to 16 bits a sample, 4:4:4 and alpha, the picture and its references
     * (a still keeps about two, a sequence more), and the grid's assembled image. */
    uint64_t bps = job->info.bit_depth > 8 ? 2 : 1;
    uint64_t planes = canvas_px * bps * 4;
    uint64_t need = planes * (job->info.frames > 1 ? 4 : 3) + (uint64_t)W * MAGPIE__AVIF_STRIP * 4 + magpie__sink_bytes(&g);
    /* libavif 0.11 opens a dav1d decoder for every coded item of a grid (about 0.9 MB each,
     * measured on a 20-tile grid): a small file listing 65536 one-pixel tiles would ask for tens
     * of gigabytes. Charged before libavif sees the file. */
    need += (uint64_t)magpie__avif_coded_items(job->in) * MAGPIE__AVIF_ITEM_BYTES;
    uint64_t charged = 0;
    avifDecoder *dec = NULL;
    if ((rc = magpie__charge(job, need))) goto out;
    charged = need;
    if (!(strip = malloc((size_t)W * MAGPIE__AVIF_STRIP * 4)) || !(dec = magpie__avif.decoder_create())) {
        rc = MAGPIE_ENOMEM;
        goto out;
    }
    dec->maxThreads = 1;
    /* Browsers' and Pillow's leniency: a missing 'pixi' and a clap that is no whole-pixel crop
     * (neither changes a decoded pixel) are accepted; an alpha item without 'ispe' is not. */
    dec->strictFlags = AVIF_STRICT_ALPHA_ISPE_REQUIRED;
    dec->imageSizeLimit = job->opt.limits.max_pixels < AVIF_DEFAULT_IMAGE_SIZE_LIMIT
                              ? (uint32_t)job->opt.limits.max_pixels
                              : AVIF_DEFAULT_IMAGE_SIZE_LIMIT;
    dec->imageCountLimit = job->opt.limits.max_frames;
    dec->ignoreExif = AVIF_TRUE;
    dec->ignoreXMP = AVIF_TRUE;
    if ((rc = magpie__avif_status(job, magpie__avif.decoder_set_io_memory(dec, data, (size_t)job->in->size), "input"))) goto out;
    if ((rc = magpie__avif_status(job, magpie__avif.decoder_parse(dec), "parse"))) goto out;
    if (dec->image->width != W || dec->image->height != H) {
        magpie__detail(job, "image is %ux%u, the header says %ux%u", dec->image->width, dec->image->height, W, H);
        rc = MAGPIE_ECORRUPT;
        goto out;
    }
    if (dec->image->icc.size) magpie__job_set_profile(job, dec->image->icc.data, dec->image->icc.size);
    else magpie__job_set_cicp(job, dec->image->colorPrimaries, dec->image->transferCharacteristics);
    uint32_t count = dec->imageCount > 0 ? (uint32_t)dec->imageCount : 0;
    if (job->first_frame >= count) {
        magpie__detail(job, "frame %u requested of %u", job->first_frame, count);
        rc = MAGPIE_ERANGE;
        goto out;
    }
    if (last > count) {
        magpie__detail(job, "%u frames wanted, %u present", last, count);
        rc = MAGPIE_ETRUNCATED;
        goto out;
    }
    for (uint32_t i = job->first_frame; i < last; i++) {
        /* The first frame delivered may be reached from its keyframe; the rest follow in order. */
        avifResult r = i == job->first_frame && i > 0 ? magpie__avif.decoder_nth_image(dec, i) : magpie__avif.decoder_next_image(dec);
        if ((rc = magpie__avif_status(job, r, "frame"))) goto out;
        if (dec->image->width != W || dec->image->height != H || !dec->image->yuvPlanes[AVIF_CHAN_Y]) {
            magpie__detail(job, "frame %u is %ux%u, not %ux%u", i, dec->image->width, dec->image->height, W, H);
            rc = MAGPIE_ECORRUPT;
            goto out;
        }
        uint32_t k = i - job->first_frame;
        if ((rc = magpie__avif_deliver(job, &g, k, dec->image, strip))) goto out;
        if (job->delays_ms) {
            double ms = dec->imageTiming.duration * 1000.0 + 0.5;
            job->delays_ms[k] = count > 1 && ms > 0 && ms < 4e9 ? (uint32_t)ms : 0;
        }
    }
    job->loop_count = -1; /* libavif 0.11 does not report a sequence's repetition count */
out:
    if (dec) magpie__avif.decoder_destroy(dec);
    free(strip);
    magpie__uncharge(job, charged);
    magpie__whole_input_free(job, owned);
    return rc;
}

#else

int magpie__decode_avif(magpie__job *job) {
    magpie__detail(job, "this build of magpie has no AVIF decoder");
    return MAGPIE_EUNSUPPORTED;
}

#endif
