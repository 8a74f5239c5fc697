/* Animated WebP output through libwebp's WebPAnimEncoder (libwebpmux): each frame is encoded as it
 * comes (lossy at `quality`, or lossless), as a sub-rectangle where only part of the canvas
 * changed, with blending and disposal chosen by libwebp; durations and the loop count kept.
 * One thread and no timestamps, so the same frames give the same bytes. */
#include <stdlib.h>
#include <string.h>

#include "core/codec.h"
#include "codecs/webp/webp_config.h"

#ifdef MAGPIE_HAVE_WEBP
#include <webp/encode.h>
#include <webp/mux.h>

typedef struct {
    WebPAnimEncoder *enc;
    WebPConfig config;
    uint32_t width, height;
    uint64_t timestamp, max_bytes; /* ms: where the next frame starts */
} magpie__webp_anim_enc;

static void magpie__webp_animate_close(void *state) {
    magpie__webp_anim_enc *st = state;
    if (!st) return;
    if (st->enc) WebPAnimEncoderDelete(st->enc);
    free(st);
}

static int magpie__webp_animate_open(uint32_t w, uint32_t h, const magpie_encode_options *o,
                                     const magpie_animation_options *a, void **state) {
    *state = NULL;
    if (w > WEBP_MAX_DIMENSION || h > WEBP_MAX_DIMENSION) return MAGPIE_EINVAL;
    WebPConfig config;
    int rc = magpie__webp_config(o, &config);
    if (rc) return rc;
    magpie__webp_anim_enc *st = calloc(1, sizeof *st);
    if (!st) return MAGPIE_ENOMEM;
    st->width = w;
    st->height = h;
    st->max_bytes = a->max_bytes;
    WebPAnimEncoderOptions eo;
    st->config = config;
    if (!WebPAnimEncoderOptionsInit(&eo)) {
        free(st);
        return MAGPIE_EINTERNAL;
    }
    /* Magpie's loop count is GIF's (repeats after the first play; -1 plays once); WebP's counts
     * the plays, 0 forever (as gif2webp converts it). */
    eo.anim_params.loop_count = a->loop_count == 0 ? 0 : a->loop_count < 0 ? 1 : a->loop_count + 1;
    eo.anim_params.bgcolor = 0; /* transparent: what browsers show behind a disposed frame */
    eo.minimize_size = 0;
    eo.kmin = a->kmin;
    eo.kmax = a->kmax;
    eo.allow_mixed = 0;
    eo.verbose = 0;
    if (!(st->enc = WebPAnimEncoderNew((int)w, (int)h, &eo))) {
        free(st);
        return MAGPIE_EINVAL;
    }
    *state = st;
    return MAGPIE_OK;
}

static int magpie__webp_animate_add(void *state, const uint8_t *px, size_t stride, uint32_t delay_ms) {
    magpie__webp_anim_enc *st = state;
    if (stride > INT32_MAX || st->timestamp + delay_ms > INT32_MAX) return MAGPIE_EINVAL;
    WebPPicture pic;
    if (!WebPPictureInit(&pic)) return MAGPIE_EINTERNAL;
    pic.width = (int)st->width;
    pic.height = (int)st->height;
    pic.use_argb = 1;
    if (!WebPPictureImportRGBA(&pic, px, (int)stride)) {
        WebPPictureFree(&pic);
        return MAGPIE_ENOMEM;
    }
    int ok = WebPAnimEncoderAdd(st->enc, &pic, (int)st->timestamp, &st->config);
    int err = pic.error_code;
    WebPPictureFree(&pic);
    if (!ok) return err == VP8_ENC_ERROR_OUT_OF_MEMORY ? MAGPIE_ENOMEM : MAGPIE_EENCODE;
    st->timestamp += delay_ms;
    return MAGPIE_OK;
}

static int magpie__webp_animate_finish(void *state, uint8_t **out, size_t *n) {
    magpie__webp_anim_enc *st = state;
    /* The last frame lasts until the end's timestamp. */
    if (!WebPAnimEncoderAdd(st->enc, NULL, (int)st->timestamp, NULL)) return MAGPIE_EENCODE;
    WebPData data;
    WebPDataInit(&data);
    if (!WebPAnimEncoderAssemble(st->enc, &data)) return MAGPIE_EENCODE;
    int rc = MAGPIE_OK;
    if (data.size > st->max_bytes) rc = MAGPIE_ELIMIT_MEMORY;
    else if (!(*out = malloc(data.size ? data.size : 1))) rc = MAGPIE_ENOMEM;
    else {
        memcpy(*out, data.bytes, data.size);
        *n = data.size;
    }
    WebPDataClear(&data);
    return rc;
}

const magpie__animate_ops magpie__webp_animate = {magpie__webp_animate_open, magpie__webp_animate_add,
                                                  magpie__webp_animate_finish, magpie__webp_animate_close};

#endif
