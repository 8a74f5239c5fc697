/* AVIF decoding through libavif (with dav1d): still images in 8, 10 or 12 bits, alpha, grids,
 * and image sequences frame by frame. YUV becomes RGBA8 in strips of rows (libavif's view
 * rectangles), so no full-size RGBA copy is made: the strips go straight into the resampling
 * sink. irot/imir arrive as the EXIF orientation the probe computed; clap is not applied (as
 * libavif leaves it to the caller), so sizes are the stored ones. */
#include <stdlib.h>
#include <string.h>

#include "codecs/avif/avif_loader.h"
#include "core/codec.h"
#include "colour/icc.h"

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
static int magpie__avif_push(magpie__job *job, magpie__sink *sink, const avifImage *image, uint8_t *strip) {
    avifImage *view = magpie__avif.image_create_empty();
    int rc = view ? MAGPIE_OK : MAGPIE_ENOMEM;
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
    return rc;
}

/* A still or a sequence being read: libavif's decoder over the whole input, and a strip. */
typedef struct {
    const uint8_t *data;
    uint8_t *owned, *strip;
    avifDecoder *dec;
    uint64_t charged;
    uint32_t frame, count;
} magpie__avif_state;

static void magpie__avif_close(magpie__job *job, void *state) {
    magpie__avif_state *st = state;
    if (!st) return;
    if (st->dec) magpie__avif.decoder_destroy(st->dec);
    free(st->strip);
    magpie__uncharge(job, st->charged);
    magpie__whole_input_free(job, st->owned);
    free(st);
}

static int magpie__avif_open(magpie__job *job, void **state) {
    *state = NULL;
    const char *unavailable = magpie__avif_ready();
    if (unavailable) {
        magpie__detail(job, "%s", unavailable);
        return MAGPIE_EUNSUPPORTED;
    }
    const uint32_t W = job->info.width, H = job->info.height;
    const uint64_t canvas_px = (uint64_t)W * H;
    magpie__avif_state *st = calloc(1, sizeof *st);
    if (!st) return MAGPIE_ENOMEM;
    int rc = magpie__whole_input(job, &st->data, &st->owned);
    /* dav1d's planes: up to 16 bits a sample, 4:4:4 and alpha, the picture and its references
     * (a still keeps about two, a sequence more), and the grid's assembled image. */
    uint64_t bps = job->info.bit_depth > 8 ? 2 : 1;
    uint64_t planes = canvas_px * bps * 4;
    uint64_t need = planes * (job->info.frames > 1 ? 4 : 3) + (uint64_t)W * MAGPIE__AVIF_STRIP * 4;
    /* libavif 0.11 opens a dav1d decoder for every coded item of a grid (about 0.9 MB each,
     * measured on a 20-tile grid): a small file listing 65536 one-pixel tiles would ask for tens
     * of gigabytes. Charged before libavif sees the file. */
    need += (uint64_t)magpie__avif_coded_items(job->in) * MAGPIE__AVIF_ITEM_BYTES;
    if (!rc && !(rc = magpie__charge(job, need))) st->charged = need;
    if (!rc && !(st->strip = malloc((size_t)W * MAGPIE__AVIF_STRIP * 4))) rc = MAGPIE_ENOMEM;
    if (!rc && !(st->dec = magpie__avif.decoder_create())) rc = MAGPIE_ENOMEM;
    avifDecoder *dec = st->dec;
    if (!rc) {
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
        avifResult r = magpie__avif.decoder_set_io_memory(dec, st->data, (size_t)job->in->size);
        rc = magpie__avif_status(job, r, "input");
    }
    if (!rc) rc = magpie__avif_status(job, magpie__avif.decoder_parse(dec), "parse");
    if (!rc && (dec->image->width != W || dec->image->height != H)) {
        magpie__detail(job, "image is %ux%u, the header says %ux%u", dec->image->width, dec->image->height, W, H);
        rc = MAGPIE_ECORRUPT;
    }
    if (rc) {
        magpie__avif_close(job, st);
        return rc;
    }
    if (dec->image->icc.size) magpie__job_set_profile(job, dec->image->icc.data, dec->image->icc.size);
    else magpie__job_set_cicp(job, dec->image->colorPrimaries, dec->image->transferCharacteristics);
    st->count = dec->imageCount > 0 ? (uint32_t)dec->imageCount : 0;
    job->loop_count = -1; /* libavif 0.11 does not report a sequence's repetition count */
    *state = st;
    return MAGPIE_OK;
}

static int magpie__avif_next(magpie__job *job, void *state, magpie__sink *sink, uint32_t *delay_ms) {
    magpie__avif_state *st = state;
    avifDecoder *dec = st->dec;
    const uint32_t W = job->info.width, H = job->info.height;
    if (st->frame >= st->count) {
        magpie__detail(job, "frame %u requested of %u", st->frame, st->count);
        return MAGPIE_ERANGE;
    }
    int rc = magpie__avif_status(job, magpie__avif.decoder_next_image(dec), "frame");
    if (rc) return rc;
    if (dec->image->width != W || dec->image->height != H || !dec->image->yuvPlanes[AVIF_CHAN_Y]) {
        magpie__detail(job, "frame %u is %ux%u, not %ux%u", st->frame, dec->image->width, dec->image->height, W, H);
        return MAGPIE_ECORRUPT;
    }
    if (sink && (rc = magpie__avif_push(job, sink, dec->image, st->strip))) return rc;
    double ms = dec->imageTiming.duration * 1000.0 + 0.5;
    *delay_ms = st->count > 1 && ms > 0 && ms < 4e9 ? (uint32_t)ms : 0;
    st->frame++;
    return MAGPIE_OK;
}

/* Frame `index` is reached from its keyframe, not by decoding every frame before it. */
static int magpie__avif_seek(magpie__job *job, void *state, uint32_t index) {
    magpie__avif_state *st = state;
    if (index >= st->count) {
        magpie__detail(job, "frame %u requested of %u", index, st->count);
        return MAGPIE_ERANGE;
    }
    if (index == 0) return MAGPIE_OK;
    /* nth_image decodes frame `index`; the next call of next_image would give index + 1, so it
     * is asked for `index - 1` and next gives `index`. */
    int rc = magpie__avif_status(job, magpie__avif.decoder_nth_image(st->dec, index - 1), "frame");
    if (!rc) st->frame = index;
    return rc;
}

const magpie__frames_ops magpie__avif_frames = {magpie__avif_open, magpie__avif_next, magpie__avif_seek,
                                                magpie__avif_close};

int magpie__decode_avif(magpie__job *job) { return magpie__decode_frames(job); }

#else

int magpie__decode_avif(magpie__job *job) {
    magpie__detail(job, "this build of magpie has no AVIF decoder");
    return MAGPIE_EUNSUPPORTED;
}
static int magpie__avif_none(magpie__job *job, void **state) {
    *state = NULL;
    return magpie__decode_avif(job);
}
static int magpie__avif_never(magpie__job *job, void *state, magpie__sink *sink, uint32_t *delay_ms) {
    (void)job, (void)state, (void)sink, (void)delay_ms;
    return MAGPIE_EUNSUPPORTED;
}
static void magpie__avif_nothing(magpie__job *job, void *state) { (void)job, (void)state; }
const magpie__frames_ops magpie__avif_frames = {magpie__avif_none, magpie__avif_never, NULL, magpie__avif_nothing};

#endif
