/* JPEG XL decoding through libjxl 0.7, loaded on first use (jxl_loader.c): stills, and
 * the first frame of an animation (composited), to RGBA8 with straight alpha, the orientation
 * left to the resampler (the probe reads it from the header), and the colour space the pixels come
 * out in given as an ICC profile (converted to sRGB after the resize, or kept). Every allocation
 * libjxl makes goes through a memory manager that charges the job, so its limit holds inside
 * libjxl too; no thread runner: a server decodes many images at once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/codec.h"
#include "colour/icc.h"
#include "codecs/jxl/jxl_loader.h"

#ifdef MAGPIE_HAVE_JXL
/* ---- libjxl's allocations, charged to the job (libjxl runs on this thread only) ---- */

typedef struct {
    magpie__job *job;
    int refused; /* an allocation went over the limit */
} magpie__jxl_memory;

#define MAGPIE__JXL_HEAD 16u /* the size, kept before each block, aligned as malloc aligns */

static void *magpie__jxl_alloc(void *opaque, size_t size) {
    magpie__jxl_memory *m = opaque;
    if (size > SIZE_MAX - MAGPIE__JXL_HEAD || magpie__charge(m->job, size + MAGPIE__JXL_HEAD) != MAGPIE_OK) {
        m->refused = 1;
        return NULL;
    }
    uint8_t *p = malloc(size + MAGPIE__JXL_HEAD);
    if (!p) {
        magpie__uncharge(m->job, size + MAGPIE__JXL_HEAD);
        return NULL;
    }
    memcpy(p, &size, sizeof size);
    return p + MAGPIE__JXL_HEAD;
}

static void magpie__jxl_free(void *opaque, void *address) {
    if (!address) return;
    magpie__jxl_memory *m = opaque;
    uint8_t *p = (uint8_t *)address - MAGPIE__JXL_HEAD;
    size_t size;
    memcpy(&size, p, sizeof size);
    free(p);
    magpie__uncharge(m->job, size + MAGPIE__JXL_HEAD);
}

static int magpie__jxl_failed(magpie__job *job, const magpie__jxl_memory *m, const char *what) {
    if (m->refused) return MAGPIE_ELIMIT_MEMORY; /* the charge said so in the detail */
    magpie__detail(job, "%s", what);
    return MAGPIE_ECORRUPT;
}

/* The colour space libjxl hands the pixels in, as an ICC profile. */
static void magpie__jxl_colour(magpie__job *job, JxlDecoder *dec, const JxlPixelFormat *format) {
    size_t n = 0;
    if (magpie__jxl.icc_size(dec, format, JXL_COLOR_PROFILE_TARGET_DATA, &n) != JXL_DEC_SUCCESS || !n) return;
    uint8_t *p = n <= MAGPIE__ICC_MAX_BYTES ? malloc(n) : NULL;
    if (p && magpie__jxl.icc(dec, format, JXL_COLOR_PROFILE_TARGET_DATA, p, n) == JXL_DEC_SUCCESS)
        magpie__job_set_profile(job, p, n);
    else job->color_flags |= MAGPIE_IMAGE_PROFILE_IGNORED;
    free(p);
}

static int magpie__jxl_deliver(magpie__job *job, const uint8_t *px, uint32_t w, uint32_t h, int alpha) {
    magpie__geometry g;
    magpie__job_geometry(job, w, h, &g);
    uint64_t need = magpie__sink_bytes(&g);
    int rc = magpie__charge(job, need);
    magpie__sink *sink = NULL;
    if (!rc) rc = magpie__sink_create(&g, job->dst, job->dst_stride, &sink);
    if (!rc && !alpha) magpie__sink_set_opaque(sink);
    for (uint32_t y = 0; !rc && y < h; y++) magpie__sink_push(sink, px + (size_t)y * w * 4);
    if (!rc) rc = magpie__sink_finish(sink);
    magpie__sink_destroy(sink);
    magpie__uncharge(job, need);
    return rc;
}

int magpie__decode_jxl(magpie__job *job) {
    const char *unavailable = magpie__jxl_ready();
    if (unavailable) {
        magpie__detail(job, "%s", unavailable);
        return MAGPIE_EUNSUPPORTED;
    }
    if (job->first_frame != 0) return MAGPIE_ERANGE;
    const uint8_t *data;
    uint8_t *owned = NULL, *px = NULL;
    int rc = magpie__whole_input(job, &data, &owned);
    if (rc) return rc;
    magpie__jxl_memory m = {job, 0};
    JxlMemoryManager manager = {&m, magpie__jxl_alloc, magpie__jxl_free};
    JxlDecoder *dec = magpie__jxl.create(&manager);
    const JxlPixelFormat format = {4, JXL_TYPE_UINT8, JXL_NATIVE_ENDIAN, 0};
    JxlBasicInfo bi;
    size_t px_size = 0;
    int alpha = 0;
    if (!dec) {
        rc = m.refused ? MAGPIE_ELIMIT_MEMORY : MAGPIE_ENOMEM;
        goto out;
    }
    magpie__jxl.keep_orientation(dec, JXL_TRUE); /* the probe's orientation, applied by the resampler */
    magpie__jxl.unpremultiply(dec, JXL_TRUE);
    if (magpie__jxl.subscribe(dec, JXL_DEC_BASIC_INFO | JXL_DEC_COLOR_ENCODING | JXL_DEC_FULL_IMAGE) != JXL_DEC_SUCCESS ||
        magpie__jxl.set_input(dec, data, (size_t)job->in->size) != JXL_DEC_SUCCESS) {
        rc = MAGPIE_EINTERNAL;
        goto out;
    }
    /* The input is not closed: a codestream cut short then asks for more (ETRUNCATED, quietly)
     * where a closed one makes libjxl 0.7 print "missing input" to stderr. */
    for (;;) {
        JxlDecoderStatus st = magpie__jxl.process(dec);
        if (st == JXL_DEC_ERROR) {
            rc = magpie__jxl_failed(job, &m, "libjxl could not decode the codestream");
        } else if (st == JXL_DEC_NEED_MORE_INPUT) {
            magpie__detail(job, "the codestream ends before the first frame does");
            rc = MAGPIE_ETRUNCATED;
        } else if (st == JXL_DEC_BASIC_INFO) {
            if (magpie__jxl.basic_info(dec, &bi) != JXL_DEC_SUCCESS) rc = magpie__jxl_failed(job, &m, "basic info");
            else if (bi.xsize != job->info.width || bi.ysize != job->info.height) {
                magpie__detail(job, "image is %ux%u, the header says %ux%u", bi.xsize, bi.ysize, job->info.width,
                               job->info.height);
                rc = MAGPIE_ECORRUPT;
            }
            alpha = bi.alpha_bits > 0;
        } else if (st == JXL_DEC_COLOR_ENCODING) {
            magpie__jxl_colour(job, dec, &format);
        } else if (st == JXL_DEC_NEED_IMAGE_OUT_BUFFER) {
            size_t want = 0;
            if (magpie__jxl.out_size(dec, &format, &want) != JXL_DEC_SUCCESS ||
                want != (size_t)job->info.width * job->info.height * 4) {
                rc = MAGPIE_EINTERNAL;
            } else if (!(rc = magpie__charge(job, want))) {
                px_size = want;
                if (!(px = malloc(want))) rc = MAGPIE_ENOMEM;
                else if (magpie__jxl.set_out(dec, &format, px, want) != JXL_DEC_SUCCESS) rc = MAGPIE_EINTERNAL;
            }
        } else if (st == JXL_DEC_FULL_IMAGE || st == JXL_DEC_SUCCESS) {
            if (!px) rc = magpie__jxl_failed(job, &m, "no image in the codestream");
            break; /* the first frame: an animation's later frames are not decoded */
        }
        if (rc) break;
    }
    if (!rc && !px) rc = MAGPIE_ECORRUPT;
    if (!rc) rc = magpie__jxl_deliver(job, px, job->info.width, job->info.height, alpha);
out:
    free(px);
    if (px_size) magpie__uncharge(job, px_size);
    if (dec) magpie__jxl.destroy(dec);
    magpie__whole_input_free(job, owned);
    return rc;
}

#else

int magpie__decode_jxl(magpie__job *job) {
    magpie__detail(job, "this build of magpie has no JPEG XL decoder");
    return MAGPIE_EUNSUPPORTED;
}

#endif
