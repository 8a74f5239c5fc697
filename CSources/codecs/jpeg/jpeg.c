/* JPEG decoding through libjpeg-turbo's libjpeg API: shrink-on-load (DCT scaling), streamed rows,
 * CMYK/YCCK conversion, truncation detection and contained errors. */
#include <limits.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jerror.h>
#include <jpeglib.h>

#include "core/codec.h"
#include "colour/icc.h"

#define MAGPIE_JPEG_MAX_SCANS 1000    /* progressive scans; hostile files use millions */
#define MAGPIE_JPEG_MAX_WARNINGS 100000

typedef struct {
    struct jpeg_error_mgr pub;
    struct jpeg_progress_mgr progress;
    jmp_buf jump;
    int truncated;  /* the decoder ran out of data (libjpeg only warns) */
    int finishing;  /* rows are complete: running out of data now loses no pixels */
    int status;     /* status chosen when jumping */
    long warnings;
    char message[JMSG_LENGTH_MAX];
} magpie__jpeg_err;

static void magpie__jpeg_error_exit(j_common_ptr c) {
    magpie__jpeg_err *e = (magpie__jpeg_err *)c->err;
    (*c->err->format_message)(c, e->message);
    switch (c->err->msg_code) {
    case JERR_BAD_PRECISION:
    case JERR_SOF_UNSUPPORTED:
    case JERR_NOT_COMPILED:
    case JERR_ARITH_NOTIMPL:
    case JERR_CONVERSION_NOTIMPL: e->status = MAGPIE_EUNSUPPORTED; break;
    case JERR_NO_BACKING_STORE:
    case JERR_OUT_OF_MEMORY: e->status = MAGPIE_ELIMIT_MEMORY; break;
    case JERR_IMAGE_TOO_BIG: e->status = MAGPIE_ELIMIT_PIXELS; break;
    default: e->status = e->truncated && !e->finishing ? MAGPIE_ETRUNCATED : MAGPIE_ECORRUPT;
    }
    longjmp(e->jump, 1);
}

static void magpie__jpeg_emit(j_common_ptr c, int level) {
    magpie__jpeg_err *e = (magpie__jpeg_err *)c->err;
    if (level >= 0) return; /* trace messages */
    /* Warnings that mean the image data ran out before its last row: the file ended, or the
     * entropy decoder met an end-of-image marker ("premature end of data segment" at a pasted
     * FF D9); the rest would be zero-filled. Other markers met early (a damaged restart
     * interval, which libjpeg resyncs from) and bad Huffman codes stay warnings, as the corpus's
     * voting decoders treat them. */
    int lost = 0;
    if (!e->finishing && c->is_decompressor) {
        j_decompress_ptr d = (j_decompress_ptr)c;
        lost = c->err->msg_code == JWRN_JPEG_EOF ||
               (c->err->msg_code == JWRN_HIT_MARKER && d->unread_marker == JPEG_EOI);
    }
    /* The message kept is the first that lost data, else the first warning. */
    if (e->message[0] == 0 || (lost && !e->truncated)) (*c->err->format_message)(c, e->message);
    if (lost) e->truncated = 1;
    if (++e->warnings > MAGPIE_JPEG_MAX_WARNINGS) {
        snprintf(e->message, sizeof e->message, "more than %d corrupt-data warnings", MAGPIE_JPEG_MAX_WARNINGS);
        e->status = MAGPIE_ECORRUPT;
        longjmp(e->jump, 1);
    }
}

static void magpie__jpeg_output(j_common_ptr c) { (void)c; /* never print to stderr */ }

static void magpie__jpeg_progress(j_common_ptr c) {
    j_decompress_ptr d = (j_decompress_ptr)c;
    if (d->input_scan_number > MAGPIE_JPEG_MAX_SCANS) {
        magpie__jpeg_err *e = (magpie__jpeg_err *)c->err;
        snprintf(e->message, sizeof e->message, "more than %d scans", MAGPIE_JPEG_MAX_SCANS);
        e->status = MAGPIE_ECORRUPT;
        longjmp(e->jump, 1);
    }
}

/* Adobe CMYK JPEGs store inverted values (Photoshop's convention); others store plain CMYK. */
static void magpie__cmyk_to_rgba(uint8_t *row, uint32_t w, int inverted) {
    for (uint32_t x = 0; x < w; x++) {
        uint8_t *p = row + (size_t)x * 4;
        uint32_t c = p[0], m = p[1], y = p[2], k = p[3];
        if (!inverted) {
            c = 255 - c;
            m = 255 - m;
            y = 255 - y;
            k = 255 - k;
        }
        p[0] = (uint8_t)((c * k + 127) / 255);
        p[1] = (uint8_t)((m * k + 127) / 255);
        p[2] = (uint8_t)((y * k + 127) / 255);
        p[3] = 255;
    }
}

/* A libjpeg source reading the input through 64 KiB buffers (files); memory uses jpeg_mem_src. */
typedef struct {
    struct jpeg_source_mgr pub;
    magpie__in *in;
    uint64_t pos;
    JOCTET buffer[65536];
} magpie__jpeg_src;

static void magpie__jpeg_src_init(j_decompress_ptr c) { (void)c; }
static void magpie__jpeg_src_term(j_decompress_ptr c) { (void)c; }

static boolean magpie__jpeg_src_fill(j_decompress_ptr c) {
    magpie__jpeg_src *s = (magpie__jpeg_src *)c->src;
    size_t n = magpie__read(s->in, s->pos, s->buffer, sizeof s->buffer);
    s->pos += n;
    if (n == 0) { /* as jpeg_mem_src does: warn, then feed a fake end marker */
        WARNMS(c, JWRN_JPEG_EOF);
        s->buffer[0] = 0xFF;
        s->buffer[1] = JPEG_EOI;
        n = 2;
    }
    s->pub.next_input_byte = s->buffer;
    s->pub.bytes_in_buffer = n;
    return TRUE;
}

static void magpie__jpeg_src_skip(j_decompress_ptr c, long count) {
    magpie__jpeg_src *s = (magpie__jpeg_src *)c->src;
    if (count <= 0) return;
    if ((size_t)count <= s->pub.bytes_in_buffer) {
        s->pub.next_input_byte += count;
        s->pub.bytes_in_buffer -= (size_t)count;
        return;
    }
    s->pos += (uint64_t)count - s->pub.bytes_in_buffer;
    s->pub.bytes_in_buffer = 0;
    s->pub.next_input_byte = s->buffer;
}

typedef struct {
    struct jpeg_decompress_struct cinfo;
    magpie__jpeg_src src;
    magpie__jpeg_err err;
    magpie__sink *sink;
    uint8_t *row;
    uint64_t charged;
    magpie__color *cmyk_color; /* a CMYK image's profile transform, or NULL */
} magpie__jpeg_state;

/* The ICC profile of the APP2 markers saved with the header, onto the job. A malformed sequence
 * is no profile, and its warnings are not the decode's. */
static void magpie__jpeg_profile(magpie__job *job, magpie__jpeg_state *st) {
    char message[sizeof st->err.message];
    memcpy(message, st->err.message, sizeof message);
    int warnings = st->err.warnings;
    JOCTET *icc = NULL;
    unsigned int size = 0;
    if (jpeg_read_icc_profile(&st->cinfo, &icc, &size) && icc) magpie__job_set_profile(job, icc, size);
    free(icc);
    memcpy(st->err.message, message, sizeof message);
    st->err.warnings = warnings;
}

int magpie__decode_jpeg(magpie__job *job) {
    if (job->first_frame != 0) return MAGPIE_ERANGE;
    magpie__jpeg_state *st = calloc(1, sizeof *st);
    if (!st) return MAGPIE_ENOMEM;
    struct jpeg_decompress_struct *ci = &st->cinfo;
    int rc = MAGPIE_OK;
    ci->err = jpeg_std_error(&st->err.pub);
    st->err.pub.error_exit = magpie__jpeg_error_exit;
    st->err.pub.emit_message = magpie__jpeg_emit;
    st->err.pub.output_message = magpie__jpeg_output;
    if (setjmp(st->err.jump)) {
        rc = st->err.status ? st->err.status : MAGPIE_ECORRUPT;
        magpie__detail(job, "%s", st->err.message);
        goto done;
    }
    jpeg_create_decompress(ci);
    st->err.progress.progress_monitor = magpie__jpeg_progress;
    ci->progress = &st->err.progress;
    if (job->in->mem) {
        jpeg_mem_src(ci, job->in->mem, (unsigned long)job->in->size);
    } else {
        st->src.in = job->in;
        st->src.pub.init_source = magpie__jpeg_src_init;
        st->src.pub.fill_input_buffer = magpie__jpeg_src_fill;
        st->src.pub.skip_input_data = magpie__jpeg_src_skip;
        st->src.pub.resync_to_restart = jpeg_resync_to_restart;
        st->src.pub.term_source = magpie__jpeg_src_term;
        ci->src = &st->src.pub;
    }
    jpeg_save_markers(ci, JPEG_APP0 + 2, 0xFFFF); /* ICC_PROFILE */
    if (jpeg_read_header(ci, TRUE) != JPEG_HEADER_OK) {
        rc = st->err.truncated ? MAGPIE_ETRUNCATED : MAGPIE_ECORRUPT;
        magpie__detail(job, "no image in the JPEG stream");
        goto done;
    }
    if (ci->image_width != job->info.width || ci->image_height != job->info.height) {
        rc = MAGPIE_ECORRUPT;
        magpie__detail(job, "frame header disagrees with the probe");
        goto done;
    }
    magpie__jpeg_profile(job, st);
    int cmyk = ci->jpeg_color_space == JCS_CMYK || ci->jpeg_color_space == JCS_YCCK;
    ci->out_color_space = cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    ci->dct_method = JDCT_ISLOW;
    /* Shrink-on-load: the largest DCT reduction that keeps at least twice the output size, so the
     * final filter still has real detail to work with (Pillow's draft + thumbnail keeps the same
     * 2x "reducing gap"; DCT scaling straight down to the target loses about 1 dB of PSNR). With
     * MAGPIE_DECODE_FAST, more than the output size itself (Pillow's draft alone). */
    static const unsigned denoms[] = {8, 4, 2, 1};
    double gap = magpie__reducing_gap(job);
    for (size_t i = 0; i < sizeof denoms / sizeof *denoms; i++) {
        ci->scale_num = 1;
        ci->scale_denom = denoms[i];
        jpeg_calc_output_dimensions(ci);
        double ww = job->win_w * ci->output_width / ci->image_width;
        double wh = job->win_h * ci->output_height / ci->image_height;
        /* Fast mode keeps strictly more than the output, so a filter pass always follows: a DCT
         * scale straight to the output size is as soft as a box filter (6 dB below Pillow's draft,
         * which also keeps more, on a 1024x768 photo to 256). */
        int enough = gap > 1.0 ? ww >= gap * job->st_w && wh >= gap * job->st_h : ww > job->st_w && wh > job->st_h;
        if (denoms[i] == 1 || enough) break;
    }
    magpie__geometry g;
    magpie__job_geometry(job, ci->output_width, ci->output_height, &g);
    uint64_t need = magpie__sink_bytes(&g) + (uint64_t)ci->output_width * 4, coefficients = 0;
    /* A progressive JPEG keeps every DCT coefficient of the whole image until its last scan
     * (libjpeg's whole-image coefficient arrays, 128 bytes a block, rounded to the sampling
     * factors): a 280-byte file declaring 17000x17000 asks for ~860 MB. Charged up front. */
    if (ci->progressive_mode) {
        for (int c = 0; c < ci->num_components; c++) {
            jpeg_component_info *comp = &ci->comp_info[c];
            uint64_t bw = ((uint64_t)comp->width_in_blocks + comp->h_samp_factor - 1) / comp->h_samp_factor *
                          comp->h_samp_factor;
            uint64_t bh = ((uint64_t)comp->height_in_blocks + comp->v_samp_factor - 1) / comp->v_samp_factor *
                          comp->v_samp_factor;
            coefficients += bw * bh * DCTSIZE2 * sizeof(JCOEF);
        }
        need += coefficients;
    }
    if ((rc = magpie__charge(job, need))) goto done;
    st->charged = need;
    /* libjpeg's own arrays (the coefficients, charged above) come out of what it may use. */
    uint64_t left = job->opt.limits.max_bytes - job->used + coefficients;
    ci->mem->max_memory_to_use = left > (uint64_t)LONG_MAX ? LONG_MAX : (long)left;
    if (ci->mem->max_memory_to_use < 1) ci->mem->max_memory_to_use = 1;
    st->row = malloc((size_t)ci->output_width * 4);
    if (!st->row) {
        rc = MAGPIE_ENOMEM;
        goto done;
    }
    if ((rc = magpie__sink_create(&g, job->dst, job->dst_stride, &st->sink))) goto done;
    magpie__sink_set_opaque(st->sink); /* RGBA and CMYK rows alike come out with alpha 255 */
    jpeg_start_decompress(ci);
    if (ci->output_width != g.in_w || ci->output_height != g.in_h || ci->output_components != 4) {
        rc = MAGPIE_EINTERNAL;
        goto done;
    }
    int inverted = ci->saw_Adobe_marker;
    if (cmyk) st->cmyk_color = magpie__job_cmyk_color(job, inverted);
    while (ci->output_scanline < ci->output_height) {
        uint8_t *direct = cmyk ? NULL : magpie__sink_direct_row(st->sink);
        JSAMPROW rows[1] = {direct ? direct : st->row};
        if (jpeg_read_scanlines(ci, rows, 1) != 1) {
            rc = MAGPIE_ETRUNCATED;
            goto done;
        }
        if (cmyk && st->cmyk_color) magpie__color_rows(st->cmyk_color, st->row, 0, ci->output_width, 1);
        else if (cmyk) magpie__cmyk_to_rgba(st->row, ci->output_width, inverted);
        magpie__sink_push(st->sink, direct ? NULL : st->row);
    }
    /* Rows complete: running out of data from here on (a missing EOI) loses no pixels, but
     * malformed markers after the image are still errors. */
    if (!st->err.truncated) {
        st->err.finishing = 1;
        jpeg_finish_decompress(ci);
    }
    if (st->err.truncated) {
        rc = MAGPIE_ETRUNCATED;
        magpie__detail(job, "%s", st->err.message[0] ? st->err.message : "premature end of JPEG data");
        goto done;
    }
    rc = magpie__sink_finish(st->sink);
    if (job->delays_ms) job->delays_ms[0] = 0;
done:
    if (rc != MAGPIE_OK && job->in->io_error) rc = MAGPIE_EIO;
    jpeg_destroy_decompress(ci);
    magpie__color_release(st->cmyk_color);
    magpie__sink_destroy(st->sink);
    free(st->row);
    magpie__uncharge(job, st->charged);
    free(st);
    return rc;
}
