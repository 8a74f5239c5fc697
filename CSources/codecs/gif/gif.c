/* GIF decoding through giflib with full compositing, a frame at a time (the header walk is in
 * probe_gif.c; frames.c drives the frames for a whole decode or the frame iterator). */
#include <stdlib.h>
#include <string.h>

#include <gif_lib.h>

#include "core/codec.h"
#include "codecs/gif/gif_lzw.h"

typedef struct {
    magpie__in *in;
    uint64_t pos;
    int eof;
} magpie__gif_src;

static int magpie__gif_read(GifFileType *gif, GifByteType *buf, int len) {
    magpie__gif_src *s = gif->UserData;
    if (len <= 0) return 0;
    /* Through the input's window: giflib asks for a byte or a sub-block at a time. */
    size_t n = 0;
    const uint8_t *p = magpie__peek_upto(s->in, s->pos, (size_t)len, &n);
    if (p) memcpy(buf, p, n);
    else n = 0;
    if (n < (size_t)len) s->eof = 1;
    s->pos += n;
    return (int)n;
}

static int magpie__gif_status(GifFileType *gif, const magpie__gif_src *src, magpie__job *job) {
    int e = gif ? gif->Error : 0;
    const char *msg = GifErrorString(e);
    magpie__detail(job, "%s", msg ? msg : "giflib error");
    if (e == D_GIF_ERR_NOT_ENOUGH_MEM) return MAGPIE_ENOMEM;
    if (src->in->io_error) return MAGPIE_EIO;
    return src->eof || e == D_GIF_ERR_READ_FAILED ? MAGPIE_ETRUNCATED : MAGPIE_ECORRUPT;
}

/* An animation being read: giflib's handle, the canvas every frame is composited onto, and the
 * previous frame's disposal. */
typedef struct {
    magpie__gif_src src;
    GifFileType *gif;
    uint8_t *canvas, *saved, *line;
    magpie__gif_lzw *lzw; /* the frame's code stream, decoded here (gif_lzw.c) */
    size_t canvas_bytes, saved_stride; /* saved: the rectangle kept for DISPOSE_PREVIOUS */
    uint64_t charged;
    uint32_t frame; /* frames read so far */
    int prev_disposal;
    uint32_t px, py, pw, ph; /* previous frame's rectangle, clipped */
} magpie__gif_state;

static void magpie__gif_close(magpie__job *job, void *state) {
    magpie__gif_state *st = state;
    if (!st) return;
    int err = 0;
    if (st->gif) DGifCloseFile(st->gif, &err);
    free(st->canvas);
    free(st->saved);
    free(st->line);
    free(st->lzw);
    magpie__uncharge(job, st->charged);
    free(st);
}

static int magpie__gif_open(magpie__job *job, void **state) {
    *state = NULL;
    magpie__gif_state *st = calloc(1, sizeof *st);
    if (!st) return MAGPIE_ENOMEM;
    st->src = (magpie__gif_src){job->in, 0, 0};
    st->prev_disposal = DISPOSAL_UNSPECIFIED;
    int err = 0, rc;
    if (!(st->gif = DGifOpen(&st->src, magpie__gif_read, &err))) {
        magpie__detail(job, "%s", GifErrorString(err) ? GifErrorString(err) : "giflib open failed");
        free(st);
        return err == D_GIF_ERR_NOT_ENOUGH_MEM ? MAGPIE_ENOMEM : MAGPIE_ECORRUPT;
    }
    const uint32_t W = job->info.width, H = job->info.height;
    st->canvas_bytes = (size_t)W * H * 4; /* bounded by the pixel limit */
    uint64_t need = 2 * (uint64_t)st->canvas_bytes + 65536 + sizeof(magpie__gif_lzw);
    if ((rc = magpie__charge(job, need))) {
        magpie__gif_close(job, st);
        return rc;
    }
    st->charged = need;
    st->canvas = calloc(st->canvas_bytes ? st->canvas_bytes : 1, 1);
    st->line = malloc(65536);
    st->lzw = malloc(sizeof *st->lzw);
    if (!st->canvas || !st->line || !st->lzw) {
        magpie__gif_close(job, st);
        return MAGPIE_ENOMEM;
    }
    job->loop_count = job->info.loop_count;
    *state = st;
    return MAGPIE_OK;
}

/* Reads records up to the next image descriptor, keeping its Graphics Control Block. */
static int magpie__gif_seek_image(magpie__job *job, magpie__gif_state *st, GraphicsControlBlock *gcb) {
    for (;;) {
        GifRecordType type;
        if (DGifGetRecordType(st->gif, &type) == GIF_ERROR) return magpie__gif_status(st->gif, &st->src, job);
        if (type == TERMINATE_RECORD_TYPE) {
            magpie__detail(job, "only %u of %u frames present", st->frame, job->info.frames);
            return MAGPIE_ERANGE;
        }
        if (type == IMAGE_DESC_RECORD_TYPE) {
            if (DGifGetImageDesc(st->gif) == GIF_ERROR) return magpie__gif_status(st->gif, &st->src, job);
            return MAGPIE_OK;
        }
        if (type != EXTENSION_RECORD_TYPE) continue;
        int code;
        GifByteType *ext;
        if (DGifGetExtension(st->gif, &code, &ext) == GIF_ERROR) return magpie__gif_status(st->gif, &st->src, job);
        if (code == GRAPHICS_EXT_FUNC_CODE && ext && ext[0] >= 4) DGifExtensionToGCB(ext[0], ext + 1, gcb);
        while (ext)
            if (DGifGetExtensionNext(st->gif, &ext) == GIF_ERROR) return magpie__gif_status(st->gif, &st->src, job);
    }
}

/* Work, in canvas pixels: every frame decoded costs its rectangle (twice when its disposal
 * restores what it covered); frames.c adds the whole canvas for every frame delivered. */
static int magpie__gif_work(magpie__job *job, uint64_t px) {
    job->work += px;
    if (job->work <= (uint64_t)job->opt.limits.max_frame_work * 1000000u) return MAGPIE_OK;
    magpie__detail(job, "frames go over the work limit of %u megapixels", job->opt.limits.max_frame_work);
    return MAGPIE_ELIMIT_FRAMES;
}

static int magpie__gif_next(magpie__job *job, void *state, magpie__sink *sink, uint32_t *delay_ms) {
    magpie__gif_state *st = state;
    GifFileType *gif = st->gif;
    uint8_t *canvas = st->canvas;
    const uint32_t W = job->info.width, H = job->info.height;
    GraphicsControlBlock gcb = {DISPOSAL_UNSPECIFIED, false, 0, NO_TRANSPARENT_COLOR};
    int rc = magpie__gif_seek_image(job, st, &gcb);
    if (rc) return rc;
    GifImageDesc *d = &gif->Image;
    ColorMapObject *cmap = d->ColorMap ? d->ColorMap : gif->SColorMap;
    /* Extents beyond the screen are clipped, but a frame whose extents are a bomb is refused. */
    if ((uint64_t)(d->Left + d->Width) * (uint64_t)(d->Top + d->Height) > job->opt.limits.max_pixels) {
        magpie__detail(job, "frame %u is %dx%d, over the pixel limit", st->frame, d->Width, d->Height);
        return MAGPIE_ELIMIT_PIXELS;
    }
    if (d->Width <= 0 || d->Height <= 0 || d->Width > 65535 || d->Height > 65535) {
        magpie__detail(job, "frame %u has an empty or invalid size", st->frame);
        return MAGPIE_ECORRUPT;
    }
    /* The code stream is decoded here (giflib would turn a damaged one into garbage silently). */
    if ((rc = magpie__gif_lzw_begin(job, st->lzw, st->src.pos, st->frame, (uint64_t)d->Width * (uint64_t)d->Height)))
        return rc;
    /* Dispose of the previous frame: only its rectangle changes. */
    if (st->prev_disposal == DISPOSE_BACKGROUND) {
        for (uint32_t y = st->py; y < st->py + st->ph; y++)
            memset(canvas + ((size_t)y * W + st->px) * 4, 0, (size_t)st->pw * 4);
    } else if (st->prev_disposal == DISPOSE_PREVIOUS && st->saved) {
        for (uint32_t y = 0; y < st->ph; y++)
            memcpy(canvas + ((size_t)(st->py + y) * W + st->px) * 4, st->saved + y * st->saved_stride,
                   st->saved_stride);
    }
    uint32_t fx = (uint32_t)d->Left, fy = (uint32_t)d->Top, fw = (uint32_t)d->Width, fh = (uint32_t)d->Height;
    /* This frame's rectangle, clipped to the canvas. */
    uint32_t cx = fx < W ? fx : W, cy = fy < H ? fy : H;
    uint32_t cw = fx + fw <= W ? fw : W - cx, ch = fy + fh <= H ? fh : H - cy;
    uint64_t rect_px = (uint64_t)cw * ch;
    if ((rc = magpie__gif_work(job, gcb.DisposalMode == DISPOSE_PREVIOUS ? 2 * rect_px : rect_px))) return rc;
    if (gcb.DisposalMode == DISPOSE_PREVIOUS) {
        /* Keep what the frame will cover (at most the canvas, already charged). */
        if (!st->saved && !(st->saved = malloc(st->canvas_bytes ? st->canvas_bytes : 1))) return MAGPIE_ENOMEM;
        st->saved_stride = (size_t)cw * 4;
        for (uint32_t y = 0; y < ch; y++)
            memcpy(st->saved + y * st->saved_stride, canvas + ((size_t)(cy + y) * W + cx) * 4, st->saved_stride);
    }
    /* Each index's pixel as the canvas's bytes (0: the pixel is left as it is: the transparent
     * index, or one past the palette). No palette at all: a grey ramp, as other decoders do. */
    uint32_t rgba[256];
    for (int i = 0; i < 256; i++) {
        uint8_t px[4] = {(uint8_t)i, (uint8_t)i, (uint8_t)i, 255};
        if (cmap) {
            if (i >= cmap->ColorCount) {
                rgba[i] = 0;
                continue;
            }
            px[0] = cmap->Colors[i].Red, px[1] = cmap->Colors[i].Green, px[2] = cmap->Colors[i].Blue;
        }
        memcpy(&rgba[i], px, 4);
    }
    if (gcb.TransparentColor >= 0 && gcb.TransparentColor < 256) rgba[gcb.TransparentColor] = 0;
    /* Rows in file order; interlaced frames come in four passes. */
    static const uint32_t start[4] = {0, 4, 2, 1}, step[4] = {8, 8, 4, 2};
    uint32_t passes = d->Interlace ? 4 : 1;
    for (uint32_t p = 0; p < passes; p++) {
        for (uint32_t r = d->Interlace ? start[p] : 0; r < fh; r += d->Interlace ? step[p] : 1) {
            if ((rc = magpie__gif_lzw_read(job, st->lzw, st->line, fw))) return rc;
            uint32_t y = fy + r;
            if (y >= H) continue;
            uint8_t *dst = canvas + ((size_t)y * W + fx) * 4;
            uint32_t cols = fx >= W ? 0 : fx + fw <= W ? fw : W - fx;
            for (uint32_t c = 0; c < cols; c++) {
                uint32_t v = rgba[st->line[c]];
                if (v) memcpy(dst + (size_t)c * 4, &v, 4);
            }
        }
    }
    /* giflib steps over the data to the next record. */
    int code_size;
    GifByteType *block = NULL;
    if (DGifGetCode(gif, &code_size, &block) == GIF_ERROR) return magpie__gif_status(gif, &st->src, job);
    while (block)
        if (DGifGetCodeNext(gif, &block) == GIF_ERROR) return magpie__gif_status(gif, &st->src, job);
    if (sink)
        for (uint32_t y = 0; y < H; y++) magpie__sink_push(sink, canvas + (size_t)y * W * 4);
    *delay_ms = (uint32_t)gcb.DelayTime * 10u;
    st->prev_disposal = gcb.DisposalMode;
    st->px = cx;
    st->py = cy;
    st->pw = cw;
    st->ph = ch;
    st->frame++;
    return MAGPIE_OK;
}

const magpie__frames_ops magpie__gif_frames = {magpie__gif_open, magpie__gif_next, NULL, magpie__gif_close};

int magpie__decode_gif(magpie__job *job) { return magpie__decode_frames(job); }
