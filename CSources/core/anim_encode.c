/* The animated encoder's public face: options, argument checks and the file's size bound, then
 * the format's row of the codec table (its animate ops: webp_anim_encode.c, gif_encode.c). */
#include <stdlib.h>
#include <string.h>

#include "core/codec.h"

struct magpie_animation_encoder {
    const magpie__animate_ops *ops;
    void *state;
    uint32_t width, height, frames;
    int failed, finished;
};

void magpie_animation_options_init(magpie_animation_options *o) {
    if (!o) return;
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
    o->max_colors = 256;
    o->max_bytes = 256u << 20;
}

int magpie_animation_encoder_new(uint32_t width, uint32_t height, const magpie_encode_options *options,
                                 const magpie_animation_options *anim, magpie_animation_encoder **out) {
    if (!out) return MAGPIE_EINVAL;
    *out = NULL;
    /* WebP's canvas is at most 16384 on a side, GIF's 65535: each format checks its own. */
    if (width == 0 || height == 0 || width > 65535 || height > 65535) return MAGPIE_EINVAL;
    magpie_encode_options o;
    int rc = magpie__encode_resolve(options, &o);
    if (rc) return rc;
    magpie_animation_options a;
    magpie_animation_options_init(&a);
    if (anim) {
        if (anim->struct_size < offsetof(magpie_animation_options, max_bytes) + sizeof(uint64_t)) return MAGPIE_EINVAL;
        memcpy(&a, anim, sizeof a);
        a.struct_size = sizeof a;
        if (!a.max_bytes) a.max_bytes = 256u << 20;
        if (!a.max_colors) a.max_colors = 256;
    }
    if (a.loop_count < -1 || a.loop_count > 65535 || a.dither < 0 || a.dither > 100 || a.max_colors < 2 ||
        a.max_colors > 256 || a.kmin < 0 || a.kmax < 0 || (a.kmax > 0 && a.kmin >= a.kmax))
        return MAGPIE_EINVAL;
    const magpie__codec *codec = magpie__codec_of(o.format);
    if (!codec || !codec->animate) return MAGPIE_EUNSUPPORTED;
    if (!magpie__codec_animates(codec)) return MAGPIE_EUNSUPPORTED;
    magpie_animation_encoder *e = calloc(1, sizeof *e);
    if (!e) return MAGPIE_ENOMEM;
    e->ops = codec->animate;
    e->width = width;
    e->height = height;
    if ((rc = e->ops->open(width, height, &o, &a, &e->state))) {
        free(e);
        return rc;
    }
    *out = e;
    return MAGPIE_OK;
}

int magpie_animation_encoder_add(magpie_animation_encoder *e, const uint8_t *pixels, size_t stride,
                                 uint32_t delay_ms) {
    if (!e || e->failed || e->finished || !pixels || stride < (size_t)e->width * 4) return MAGPIE_EINVAL;
    int rc = e->ops->add(e->state, pixels, stride, delay_ms);
    if (rc) e->failed = 1;
    else e->frames++;
    return rc;
}

int magpie_animation_encoder_finish(magpie_animation_encoder *e, uint8_t **out, size_t *out_size) {
    if (!out || !out_size) return MAGPIE_EINVAL;
    *out = NULL;
    *out_size = 0;
    if (!e || e->failed || e->finished || e->frames == 0) return MAGPIE_EINVAL;
    e->finished = 1;
    return e->ops->finish(e->state, out, out_size);
}

void magpie_animation_encoder_free(magpie_animation_encoder *e) {
    if (!e) return;
    e->ops->close(e->state);
    free(e);
}
