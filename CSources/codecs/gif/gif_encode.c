/* GIF output through giflib, palettes from libimagequant (quant.c). The first frame's palette is
 * the global colour table; a later frame is drawn with it unless that shows it much worse than the
 * first was shown (or it needs transparency the table lacks), then it gets its own. A frame is
 * written once the next one is known, so each is only the rectangle that changed (unchanged pixels
 * in it transparent, disposal "leave") unless transparency needs the canvas cleared. */
#include <stdlib.h>
#include <string.h>

#include <gif_lib.h>

#include "codecs/gif/gif_encode.h"

static int magpie__gif_write(GifFileType *gif, const GifByteType *data, int n) {
    magpie__gif_enc *st = gif->UserData;
    if (n <= 0) return 0;
    if (st->len + (size_t)n > st->max_bytes) return 0;
    if (st->len + (size_t)n > st->cap) {
        size_t cap = st->cap ? st->cap * 2 : 65536;
        while (cap < st->len + (size_t)n) cap *= 2;
        uint8_t *b = realloc(st->buf, cap);
        if (!b) return 0;
        st->buf = b;
        st->cap = cap;
    }
    memcpy(st->buf + st->len, data, (size_t)n);
    st->len += (size_t)n;
    return n;
}

static void magpie__gif_enc_close(void *state) {
    magpie__gif_enc *st = state;
    if (!st) return;
    int err;
    if (st->gif) EGifCloseFile(st->gif, &err);
    free(st->buf);
    free(st->work);
    free(st->pend);
    free(st->prev);
    free(st->idx);
    free(st->near_global);
    free(st->near_local);
    free(st);
}

static int magpie__gif_enc_open(uint32_t w, uint32_t h, const magpie_encode_options *o,
                                const magpie_animation_options *a, void **state) {
    (void)o;
    *state = NULL;
    magpie__gif_enc *st = calloc(1, sizeof *st);
    if (!st) return MAGPIE_ENOMEM;
    st->w = w;
    st->h = h;
    st->max_bytes = a->max_bytes;
    st->max_colors = a->max_colors;
    st->dither = (float)a->dither / 100.0f;
    st->loop_count = a->loop_count;
    st->speed = 8; /* measured in the README: a tenth of speed 4's time at 0.2 dB less */
    size_t px = (size_t)w * h;
    int err = 0;
    st->work = malloc(px * 4);
    st->pend = malloc(px * 4);
    st->prev = calloc(px, 4);
    st->idx = malloc(px);
    st->near_global = calloc(MAGPIE__GIF_CELLS, 1);
    st->near_local = calloc(MAGPIE__GIF_CELLS, 1);
    if (!st->near_global || !st->near_local || !st->work || !st->pend || !st->prev || !st->idx ||
        !(st->gif = EGifOpen(st, magpie__gif_write, &err))) {
        magpie__gif_enc_close(st);
        return MAGPIE_ENOMEM;
    }
    EGifSetGifVersion(st->gif, true);
    *state = st;
    return MAGPIE_OK;
}

/* A transparent entry at the end of a palette with room, for pixels a frame leaves as they were. */
static void magpie__gif_reserve(magpie__palette *p) {
    if (p->transparent >= 0 || p->count >= 256) return;
    p->rgb[p->count][0] = p->rgb[p->count][1] = p->rgb[p->count][2] = 0;
    p->transparent = p->count++;
}

static ColorMapObject *magpie__gif_map(const magpie__palette *p) {
    int size = 2;
    while (size < p->count) size *= 2;
    GifColorType colors[256];
    memset(colors, 0, sizeof colors);
    for (int i = 0; i < p->count; i++) colors[i] = (GifColorType){p->rgb[i][0], p->rgb[i][1], p->rgb[i][2]};
    return GifMakeMapObject(size, colors);
}

static int magpie__gif_header(magpie__gif_enc *st) {
    ColorMapObject *map = magpie__gif_map(&st->global);
    if (!map) return MAGPIE_ENOMEM;
    int ok = EGifPutScreenDesc(st->gif, (int)st->w, (int)st->h, 8, 0, map) != GIF_ERROR;
    GifFreeMapObject(map);
    if (ok && st->loop_count >= 0) {
        uint8_t loop[3] = {1, (uint8_t)(st->loop_count & 255), (uint8_t)(st->loop_count >> 8)};
        ok = EGifPutExtensionLeader(st->gif, APPLICATION_EXT_FUNC_CODE) != GIF_ERROR &&
             EGifPutExtensionBlock(st->gif, 11, "NETSCAPE2.0") != GIF_ERROR &&
             EGifPutExtensionBlock(st->gif, 3, loop) != GIF_ERROR && EGifPutExtensionTrailer(st->gif) != GIF_ERROR;
    }
    st->header = 1;
    return ok ? MAGPIE_OK : st->len >= st->max_bytes ? MAGPIE_ELIMIT_MEMORY : MAGPIE_EENCODE;
}

/* Writes the waiting frame; `next_alpha`: the frame after it has transparent pixels, so this one
 * is cleared after it is shown (and, to clear all of it, covers the whole canvas). Otherwise it is
 * only the rectangle where it differs from the frame before, whose unchanged pixels in it are
 * transparent (the canvas keeps them). */
static int magpie__gif_flush(magpie__gif_enc *st, int next_alpha) {
    const uint32_t W = st->w, H = st->h;
    int full = st->frames == 0 || st->pend_alpha || next_alpha || st->prev_background;
    magpie__gif_rect r = {0, 0, W, H};
    if (!full) {
        r = (magpie__gif_rect){W, H, 0, 0};
        for (uint32_t y = 0; y < H; y++) {
            const uint32_t *a = (const uint32_t *)(const void *)(st->pend + (size_t)y * W * 4);
            const uint32_t *b = (const uint32_t *)(const void *)(st->prev + (size_t)y * W * 4);
            for (uint32_t x = 0; x < W; x++) {
                if (a[x] == b[x]) continue;
                if (x < r.x0) r.x0 = x;
                if (x >= r.x1) r.x1 = x + 1;
                if (y < r.y0) r.y0 = y;
                if (y >= r.y1) r.y1 = y + 1;
            }
        }
        if (r.x1 == 0) r = (magpie__gif_rect){0, 0, 1, 1}; /* nothing changed: one pixel, as GIF needs one */
    }
    /* The palette: the first frame's becomes the global one; later frames use it unless it shows
     * them clearly worse than the first was shown, or they need a transparent entry it lacks. */
    int rc, local = 0;
    magpie__palette *p = &st->global;
    int needs_clear = st->pend_alpha || !full;
    double enough = st->base_mse + MAGPIE__GIF_WORSE;
    if (!st->header) {
        if ((rc = magpie__gif_quantize(st, r, &st->global, st->idx, W))) return rc;
        magpie__gif_reserve(&st->global);
        st->base_mse = magpie__gif_error(st, &st->global, r);
        if ((rc = magpie__gif_header(st))) return rc;
    } else if ((needs_clear && st->global.transparent < 0) ||
               magpie__gif_remap(st, &st->global, st->near_global, r) > enough) {
        /* The last frame's own palette often fits the next (a pan, a scene): else a new one. */
        local = 1;
        p = &st->local;
        if (!st->have_local || (needs_clear && st->local.transparent < 0) ||
            magpie__gif_remap(st, &st->local, st->near_local, r) > enough) {
            if ((rc = magpie__gif_quantize(st, r, &st->local, st->idx, W))) return rc;
            magpie__gif_reserve(&st->local);
            memset(st->near_local, 0, MAGPIE__GIF_CELLS);
            st->have_local = 1;
        }
    }
    if (!full && p->transparent >= 0)
        for (uint32_t y = r.y0; y < r.y1; y++)
            for (uint32_t x = r.x0; x < r.x1; x++) {
                size_t i = (size_t)y * W + x;
                if (((const uint32_t *)(const void *)st->pend)[i] == ((const uint32_t *)(const void *)st->prev)[i])
                    st->idx[i] = (uint8_t)p->transparent;
            }
    int uses_transparent = p->transparent >= 0 && needs_clear;
    int delay = (int)((st->pend_delay + 5) / 10 > 65535 ? 65535 : (st->pend_delay + 5) / 10);
    GraphicsControlBlock gcb = {next_alpha ? DISPOSE_BACKGROUND : DISPOSE_DO_NOT, false, delay,
                                uses_transparent ? p->transparent : NO_TRANSPARENT_COLOR};
    GifByteType ext[4];
    size_t n = EGifGCBToExtension(&gcb, ext);
    ColorMapObject *map = local ? magpie__gif_map(p) : NULL;
    if (local && !map) return MAGPIE_ENOMEM;
    int ok = EGifPutExtension(st->gif, GRAPHICS_EXT_FUNC_CODE, (int)n, ext) != GIF_ERROR &&
             EGifPutImageDesc(st->gif, (int)r.x0, (int)r.y0, (int)(r.x1 - r.x0), (int)(r.y1 - r.y0), false, map) !=
                 GIF_ERROR;
    GifFreeMapObject(map);
    for (uint32_t y = r.y0; ok && y < r.y1; y++)
        ok = EGifPutLine(st->gif, st->idx + (size_t)y * W + r.x0, (int)(r.x1 - r.x0)) != GIF_ERROR;
    /* giflib 5.2 keeps its copy of a local map until the next image that has one, and forgets it
     * (unfreed) at one that has none: freed here, once the image is written. */
    GifFreeMapObject(st->gif->Image.ColorMap);
    st->gif->Image.ColorMap = NULL;
    if (!ok) return st->len >= st->max_bytes ? MAGPIE_ELIMIT_MEMORY : MAGPIE_EENCODE;
    /* What the next frame is compared with: this one, or nothing once it is cleared. */
    if (next_alpha) memset(st->prev, 0, (size_t)W * H * 4);
    else memcpy(st->prev, st->pend, (size_t)W * H * 4);
    st->prev_background = next_alpha;
    st->frames++;
    st->pending = 0;
    return MAGPIE_OK;
}

static int magpie__gif_enc_add(void *state, const uint8_t *px, size_t stride, uint32_t delay_ms) {
    magpie__gif_enc *st = state;
    const uint32_t W = st->w, H = st->h;
    /* GIF shows a pixel or nothing: alpha below 128 is nothing. */
    int alpha = 0;
    for (uint32_t y = 0; y < H; y++) {
        const uint8_t *s = px + (size_t)y * stride;
        uint8_t *o = st->work + (size_t)y * W * 4;
        for (uint32_t x = 0; x < W; x++, s += 4, o += 4) {
            if (s[3] < 128) {
                memset(o, 0, 4);
                alpha = 1;
            } else {
                memcpy(o, s, 3);
                o[3] = 255;
            }
        }
    }
    int rc;
    if (st->pending && (rc = magpie__gif_flush(st, alpha))) return rc;
    uint8_t *t = st->pend;
    st->pend = st->work;
    st->work = t;
    st->pending = 1;
    st->pend_alpha = alpha;
    st->pend_delay = delay_ms;
    return MAGPIE_OK;
}

static int magpie__gif_enc_finish(void *state, uint8_t **out, size_t *n) {
    magpie__gif_enc *st = state;
    int rc = st->pending ? magpie__gif_flush(st, 0) : MAGPIE_OK;
    if (rc) return rc;
    int err = 0;
    GifFileType *gif = st->gif;
    st->gif = NULL;
    if (EGifCloseFile(gif, &err) == GIF_ERROR) return st->len >= st->max_bytes ? MAGPIE_ELIMIT_MEMORY : MAGPIE_EENCODE;
    *out = st->buf;
    *n = st->len;
    st->buf = NULL;
    return MAGPIE_OK;
}

const magpie__animate_ops magpie__gif_animate = {magpie__gif_enc_open, magpie__gif_enc_add, magpie__gif_enc_finish,
                                                 magpie__gif_enc_close};

int magpie__gif_encode_available(void) { return magpie__quant_available(); }

/* A still GIF: an animation of one frame that does not loop. */
int magpie__encode_gif(const uint8_t *px, uint32_t w, uint32_t h, size_t stride, const magpie_encode_options *o,
                       uint8_t **out, size_t *n) {
    if (w > 65535 || h > 65535) return MAGPIE_EINVAL;
    magpie_animation_options a;
    magpie_animation_options_init(&a);
    a.loop_count = -1;
    void *st = NULL;
    int rc = magpie__gif_enc_open(w, h, o, &a, &st);
    if (!rc) rc = magpie__gif_enc_add(st, px, stride, 0);
    if (!rc) rc = magpie__gif_enc_finish(st, out, n);
    magpie__gif_enc_close(st);
    return rc;
}
