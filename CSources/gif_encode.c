/* GIF output through giflib, palettes from libimagequant (quant.c). The first frame's palette is
 * the global colour table; a later frame is drawn with it unless that shows it much worse than the
 * first was shown (or it needs transparency the table lacks), then it gets its own. A frame is
 * written once the next one is known, so each is only the rectangle that changed (unchanged pixels
 * in it transparent, disposal "leave") unless transparency needs the canvas cleared. */
#include <stdlib.h>
#include <string.h>

#include <gif_lib.h>

#include "codec.h"
#include "quant.h"

typedef struct {
    GifFileType *gif;
    uint8_t *buf;
    size_t len, cap;
    uint64_t max_bytes;
    uint32_t w, h, frames;
    int max_colors, speed, loop_count, header;
    float dither;
    uint8_t *work, *display, *idx; /* the frame with alpha 0/255; the canvas as shown; its indices */
    magpie__palette global, local;
    double base_mse; /* the first frame's error under its own palette */
    /* the frame waiting for the next one */
    int pending, pend_local, pend_alpha, prev_background;
    uint32_t pend_delay;
} magpie__gif_enc;

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
    free(st->display);
    free(st->idx);
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
    st->display = calloc(px, 4);
    st->idx = malloc(px);
    if (!st->work || !st->display || !st->idx || !(st->gif = EGifOpen(st, magpie__gif_write, &err))) {
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

/* Mean squared error per channel of the opaque pixels drawn with `idx` from `p`. */
static double magpie__gif_mse(const magpie__gif_enc *st, const magpie__palette *p) {
    double sum = 0;
    size_t n = 0;
    for (size_t i = 0; i < (size_t)st->w * st->h; i++) {
        const uint8_t *s = st->work + i * 4;
        if (!s[3]) continue;
        const uint8_t *c = p->rgb[st->idx[i]];
        for (int k = 0; k < 3; k++) sum += (double)(s[k] - c[k]) * (s[k] - c[k]);
        n++;
    }
    return n ? sum / (3.0 * (double)n) : 0;
}

/* The work frame drawn with the global palette (the nearest entry per pixel); its error. */
static double magpie__gif_map_global(magpie__gif_enc *st) {
    const magpie__palette *p = &st->global;
    uint32_t last = 0xFFFFFFFFu;
    uint8_t last_i = 0;
    for (size_t i = 0; i < (size_t)st->w * st->h; i++) {
        const uint8_t *s = st->work + i * 4;
        if (!s[3]) {
            st->idx[i] = (uint8_t)p->transparent;
            continue;
        }
        uint32_t key = (uint32_t)s[0] << 16 | (uint32_t)s[1] << 8 | s[2];
        if (key != last) {
            int best = 0, best_d = 1 << 30;
            for (int c = 0; c < p->count; c++) {
                if (c == p->transparent) continue;
                int dr = s[0] - p->rgb[c][0], dg = s[1] - p->rgb[c][1], db = s[2] - p->rgb[c][2];
                int d = dr * dr + dg * dg + db * db;
                if (d < best_d) best_d = d, best = c;
            }
            last = key;
            last_i = (uint8_t)best;
        }
        st->idx[i] = last_i;
    }
    return magpie__gif_mse(st, p);
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
 * is cleared after it is shown (and, to clear all of it, covers the whole canvas). */
static int magpie__gif_flush(magpie__gif_enc *st, int next_alpha) {
    const magpie__palette *p = st->pend_local ? &st->local : &st->global;
    const uint32_t W = st->w, H = st->h;
    int full = st->frames == 0 || st->pend_alpha || next_alpha || st->prev_background;
    uint32_t x0 = 0, y0 = 0, x1 = W, y1 = H; /* the rectangle written */
    if (!full) {
        x0 = W, y0 = H, x1 = 0, y1 = 0;
        for (uint32_t y = 0; y < H; y++)
            for (uint32_t x = 0; x < W; x++) {
                size_t i = (size_t)y * W + x;
                const uint8_t *d = st->display + i * 4, *c = p->rgb[st->idx[i]];
                if (d[3] && d[0] == c[0] && d[1] == c[1] && d[2] == c[2]) continue;
                if (x < x0) x0 = x;
                if (x >= x1) x1 = x + 1;
                if (y < y0) y0 = y;
                if (y >= y1) y1 = y + 1;
            }
        if (x1 == 0) x0 = y0 = 0, x1 = y1 = 1; /* nothing changed: one pixel, as GIF needs one */
        if (p->transparent >= 0)
            for (uint32_t y = y0; y < y1; y++)
                for (uint32_t x = x0; x < x1; x++) {
                    size_t i = (size_t)y * W + x;
                    const uint8_t *d = st->display + i * 4, *c = p->rgb[st->idx[i]];
                    if (d[3] && d[0] == c[0] && d[1] == c[1] && d[2] == c[2]) st->idx[i] = (uint8_t)p->transparent;
                }
    }
    int uses_transparent = p->transparent >= 0 && (!full || st->pend_alpha);
    GraphicsControlBlock gcb = {next_alpha ? DISPOSE_BACKGROUND : DISPOSE_DO_NOT, false,
                                (int)((st->pend_delay + 5) / 10 > 65535 ? 65535 : (st->pend_delay + 5) / 10),
                                uses_transparent ? p->transparent : NO_TRANSPARENT_COLOR};
    GifByteType ext[4];
    size_t n = EGifGCBToExtension(&gcb, ext);
    ColorMapObject *map = st->pend_local ? magpie__gif_map(p) : NULL;
    if (st->pend_local && !map) return MAGPIE_ENOMEM;
    int ok = EGifPutExtension(st->gif, GRAPHICS_EXT_FUNC_CODE, (int)n, ext) != GIF_ERROR &&
             EGifPutImageDesc(st->gif, (int)x0, (int)y0, (int)(x1 - x0), (int)(y1 - y0), false, map) != GIF_ERROR;
    GifFreeMapObject(map);
    for (uint32_t y = y0; ok && y < y1; y++)
        ok = EGifPutLine(st->gif, st->idx + (size_t)y * W + x0, (int)(x1 - x0)) != GIF_ERROR;
    if (!ok) return st->len >= st->max_bytes ? MAGPIE_ELIMIT_MEMORY : MAGPIE_EENCODE;
    /* The canvas as a viewer shows it next. */
    if (next_alpha) {
        memset(st->display, 0, (size_t)W * H * 4);
    } else {
        for (uint32_t y = y0; y < y1; y++)
            for (uint32_t x = x0; x < x1; x++) {
                size_t i = (size_t)y * W + x;
                if (uses_transparent && st->idx[i] == p->transparent) continue;
                uint8_t *d = st->display + i * 4;
                memcpy(d, p->rgb[st->idx[i]], 3);
                d[3] = 255;
            }
    }
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
    if (!st->header) {
        rc = magpie__quantize(st->work, W, H, (size_t)W * 4, st->max_colors, st->dither, st->speed, &st->global,
                              st->idx);
        if (rc) return rc;
        st->base_mse = magpie__gif_mse(st, &st->global);
        magpie__gif_reserve(&st->global);
        if ((rc = magpie__gif_header(st))) return rc;
        st->pend_local = 0;
    } else {
        /* The global palette unless it shows this frame clearly worse than the first. */
        double mse = (alpha && st->global.transparent < 0) ? 1e30 : magpie__gif_map_global(st);
        st->pend_local = mse > 2.0 * st->base_mse + 4.0;
        if (st->pend_local) {
            rc = magpie__quantize(st->work, W, H, (size_t)W * 4, st->max_colors, st->dither, st->speed, &st->local,
                                  st->idx);
            if (rc) return rc;
            magpie__gif_reserve(&st->local);
        }
    }
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
