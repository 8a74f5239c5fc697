/* GIF decoding through giflib with full compositing (the header walk is in probe.c). */
#include <stdlib.h>
#include <string.h>

#include <gif_lib.h>

#include "codec.h"

typedef struct {
    magpie__in *in;
    uint64_t pos;
    int eof;
} magpie__gif_src;

static int magpie__gif_read(GifFileType *gif, GifByteType *buf, int len) {
    magpie__gif_src *s = gif->UserData;
    if (len <= 0) return 0;
    size_t n = magpie__read(s->in, s->pos, buf, (size_t)len);
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

int magpie__decode_gif(magpie__job *job) {
    magpie__gif_src src = {job->in, 0, 0};
    int err = 0, rc = MAGPIE_OK;
    GifFileType *gif = DGifOpen(&src, magpie__gif_read, &err);
    if (!gif) {
        magpie__detail(job, "%s", GifErrorString(err) ? GifErrorString(err) : "giflib open failed");
        return err == D_GIF_ERR_NOT_ENOUGH_MEM ? MAGPIE_ENOMEM : MAGPIE_ECORRUPT;
    }
    const uint32_t W = job->info.width, H = job->info.height;
    size_t canvas_bytes = (size_t)W * H * 4; /* bounded by the pixel limit */
    magpie__geometry g;
    magpie__job_geometry(job, W, H, &g);
    uint64_t need = 2 * (uint64_t)canvas_bytes + magpie__sink_bytes(&g) + 65536;
    uint8_t *canvas = NULL, *saved = NULL, *line = NULL;
    uint64_t charged = 0;
    if ((rc = magpie__charge(job, need))) goto out;
    charged = need;
    canvas = calloc(canvas_bytes, 1);
    line = malloc(65536);
    if (!canvas || !line) {
        rc = MAGPIE_ENOMEM;
        goto out;
    }
    uint32_t frame = 0, last = job->first_frame + job->frames_wanted;
    /* Work, in canvas pixels: every frame delivered is composited into and resampled from the
     * whole canvas; every frame decoded on the way costs its rectangle (twice when its disposal
     * restores what it covered). Known up front for the frames delivered; counted for the rest. */
    const uint64_t work_limit = (uint64_t)job->opt.limits.max_frame_work * 1000000u;
    const uint64_t canvas_px = (uint64_t)W * H;
    uint32_t delivered = job->frames_wanted < job->info.frames ? job->frames_wanted : job->info.frames;
    uint64_t work = (uint64_t)delivered * canvas_px;
    if (work > work_limit) {
        magpie__detail(job, "%u frames of %ux%u is over the work limit of %u megapixels", delivered, W, H,
                       job->opt.limits.max_frame_work);
        rc = MAGPIE_ELIMIT_FRAMES;
        goto out;
    }
    size_t saved_stride = 0; /* bytes per row of the rectangle kept for DISPOSE_PREVIOUS */
    GraphicsControlBlock gcb = {DISPOSAL_UNSPECIFIED, false, 0, NO_TRANSPARENT_COLOR};
    int prev_disposal = DISPOSAL_UNSPECIFIED;
    uint32_t px = 0, py = 0, pw = 0, ph = 0; /* previous frame's rectangle, clipped */
    while (frame < last && frame < job->info.frames) {
        GifRecordType type;
        if (DGifGetRecordType(gif, &type) == GIF_ERROR) {
            rc = magpie__gif_status(gif, &src, job);
            goto out;
        }
        if (type == TERMINATE_RECORD_TYPE) break;
        if (type == EXTENSION_RECORD_TYPE) {
            int code;
            GifByteType *ext;
            if (DGifGetExtension(gif, &code, &ext) == GIF_ERROR) {
                rc = magpie__gif_status(gif, &src, job);
                goto out;
            }
            if (code == GRAPHICS_EXT_FUNC_CODE && ext && ext[0] >= 4) DGifExtensionToGCB(ext[0], ext + 1, &gcb);
            while (ext) {
                if (DGifGetExtensionNext(gif, &ext) == GIF_ERROR) {
                    rc = magpie__gif_status(gif, &src, job);
                    goto out;
                }
            }
            continue;
        }
        if (type != IMAGE_DESC_RECORD_TYPE) continue;
        if (DGifGetImageDesc(gif) == GIF_ERROR) {
            rc = magpie__gif_status(gif, &src, job);
            goto out;
        }
        GifImageDesc *d = &gif->Image;
        ColorMapObject *cmap = d->ColorMap ? d->ColorMap : gif->SColorMap;
        /* Extents beyond the screen are clipped, but a frame whose extents are a bomb is refused. */
        if ((uint64_t)(d->Left + d->Width) * (uint64_t)(d->Top + d->Height) > job->opt.limits.max_pixels) {
            magpie__detail(job, "frame %u is %dx%d, over the pixel limit", frame, d->Width, d->Height);
            rc = MAGPIE_ELIMIT_PIXELS;
            goto out;
        }
        if (d->Width <= 0 || d->Height <= 0 || d->Width > 65535 || d->Height > 65535) {
            magpie__detail(job, "frame %u has an empty or invalid size", frame);
            rc = MAGPIE_ECORRUPT;
            goto out;
        }
        /* giflib decodes a damaged code stream into garbage without a word: check it first. */
        if ((rc = magpie__gif_check_lzw(job, src.pos, frame, (uint64_t)d->Width * (uint64_t)d->Height))) goto out;
        /* Dispose of the previous frame: only its rectangle changes. */
        if (prev_disposal == DISPOSE_BACKGROUND) {
            for (uint32_t y = py; y < py + ph; y++) memset(canvas + ((size_t)y * W + px) * 4, 0, (size_t)pw * 4);
        } else if (prev_disposal == DISPOSE_PREVIOUS && saved) {
            for (uint32_t y = 0; y < ph; y++)
                memcpy(canvas + ((size_t)(py + y) * W + px) * 4, saved + y * saved_stride, saved_stride);
        }
        uint32_t fx = (uint32_t)d->Left, fy = (uint32_t)d->Top, fw = (uint32_t)d->Width, fh = (uint32_t)d->Height;
        /* This frame's rectangle, clipped to the canvas. */
        uint32_t cx = fx < W ? fx : W, cy = fy < H ? fy : H;
        uint32_t cw = fx + fw <= W ? fw : W - cx, ch = fy + fh <= H ? fh : H - cy;
        uint64_t rect_px = (uint64_t)cw * ch;
        work += gcb.DisposalMode == DISPOSE_PREVIOUS ? 2 * rect_px : rect_px;
        if (work > work_limit) {
            magpie__detail(job, "frame %u goes over the work limit of %u megapixels", frame,
                           job->opt.limits.max_frame_work);
            rc = MAGPIE_ELIMIT_FRAMES;
            goto out;
        }
        if (gcb.DisposalMode == DISPOSE_PREVIOUS) {
            /* Keep what the frame will cover (at most the canvas, already charged). */
            if (!saved && !(saved = malloc(canvas_bytes ? canvas_bytes : 1))) {
                rc = MAGPIE_ENOMEM;
                goto out;
            }
            saved_stride = (size_t)cw * 4;
            for (uint32_t y = 0; y < ch; y++)
                memcpy(saved + y * saved_stride, canvas + ((size_t)(cy + y) * W + cx) * 4, saved_stride);
        }
        /* Rows in file order; interlaced frames come in four passes. */
        static const uint32_t start[4] = {0, 4, 2, 1}, step[4] = {8, 8, 4, 2};
        uint32_t passes = d->Interlace ? 4 : 1;
        for (uint32_t p = 0; p < passes; p++) {
            for (uint32_t r = d->Interlace ? start[p] : 0; r < fh; r += d->Interlace ? step[p] : 1) {
                if (DGifGetLine(gif, line, (int)fw) == GIF_ERROR) {
                    rc = magpie__gif_status(gif, &src, job);
                    goto out;
                }
                uint32_t y = fy + r;
                if (y >= H) continue;
                uint8_t *dst = canvas + (size_t)y * W * 4;
                for (uint32_t c = 0; c < fw && fx + c < W; c++) {
                    int idx = line[c];
                    if (idx == gcb.TransparentColor) continue;
                    uint8_t *o = dst + (size_t)(fx + c) * 4;
                    if (cmap && idx < cmap->ColorCount) {
                        o[0] = cmap->Colors[idx].Red;
                        o[1] = cmap->Colors[idx].Green;
                        o[2] = cmap->Colors[idx].Blue;
                        o[3] = 255;
                    } else if (!cmap) { /* no palette at all: grey ramp, as other decoders do */
                        o[0] = o[1] = o[2] = (uint8_t)idx;
                        o[3] = 255;
                    }
                }
            }
        }
        if (frame >= job->first_frame) {
            uint32_t i = frame - job->first_frame;
            magpie__sink *sink = NULL;
            if ((rc = magpie__sink_create(&g, job->dst + (size_t)i * job->frame_bytes, job->dst_stride, &sink)))
                goto out;
            for (uint32_t y = 0; y < H; y++) magpie__sink_push(sink, canvas + (size_t)y * W * 4);
            rc = magpie__sink_finish(sink);
            magpie__sink_destroy(sink);
            if (rc) goto out;
            if (job->delays_ms) job->delays_ms[i] = (uint32_t)gcb.DelayTime * 10u;
        }
        prev_disposal = gcb.DisposalMode;
        px = cx;
        py = cy;
        pw = cw;
        ph = ch;
        gcb = (GraphicsControlBlock){DISPOSAL_UNSPECIFIED, false, 0, NO_TRANSPARENT_COLOR};
        frame++;
    }
    if (frame < last) {
        magpie__detail(job, "only %u of %u frames present", frame, last);
        rc = frame <= job->first_frame ? MAGPIE_ERANGE : MAGPIE_ETRUNCATED;
    }
out:
    DGifCloseFile(gif, &err);
    free(canvas);
    free(saved);
    free(line);
    magpie__uncharge(job, charged);
    return rc;
}
