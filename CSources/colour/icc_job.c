/* What a decode does with the colour profile its codec found: by default the decoded (already
 * resized) frames are converted to sRGB, so the cost grows with output pixels, not source pixels
 * (libvips converts after its shrink too); with MAGPIE_DECODE_KEEP_PROFILE the pixels stay as they
 * are and the image carries the profile. CMYK JPEGs convert row by row before the resize, through
 * their profile when it can be used. A profile that cannot be used leaves the pixels untagged and
 * says so in the image's flags; it never fails the decode. */
#include <stdlib.h>
#include <string.h>

#include "colour/icc.h"

void magpie__job_set_profile(magpie__job *job, const uint8_t *icc, size_t n) {
    if (job->icc || (job->color_flags & MAGPIE_IMAGE_PROFILE_IGNORED) || !icc || n == 0) return;
    if (n > MAGPIE__ICC_MAX_BYTES || magpie__charge(job, n) != MAGPIE_OK) {
        job->color_flags |= MAGPIE_IMAGE_PROFILE_IGNORED;
        return;
    }
    job->icc = malloc(n);
    if (!job->icc) {
        magpie__uncharge(job, n);
        job->color_flags |= MAGPIE_IMAGE_PROFILE_IGNORED;
        return;
    }
    memcpy(job->icc, icc, n);
    job->icc_size = n;
}

magpie__color *magpie__job_cmyk_color(magpie__job *job, int inverted) {
    if (!job->icc) return NULL;
    magpie__color *c = NULL;
    if (magpie__color_acquire(job->icc, job->icc_size, inverted ? MAGPIE__ICC_CMYK_INVERTED : MAGPIE__ICC_CMYK, &c)) {
        /* Not a CMYK profile (or not one lcms2 takes): the plain conversion, and the profile
         * is done with (the RGB rows it would otherwise reach after the resize are not its). */
        job->color_flags |= MAGPIE_IMAGE_PROFILE_IGNORED;
        job->icc_applied = 1;
        return NULL;
    }
    /* CMYK pixels cannot keep their profile as RGB: they are converted whatever the options say. */
    job->color_flags |= MAGPIE_IMAGE_PROFILE_CONVERTED;
    job->icc_applied = 1;
    return c;
}

/* Whether the profile's colour space (its header's bytes 16-19) is the pixels': 'GRAY' for a gray
 * source, 'RGB ' for a colour one. */
static int magpie__profile_fits(const magpie__job *job, int gray) {
    if (job->icc_size < 20) return 0;
    return memcmp(job->icc + 16, gray ? "GRAY" : "RGB ", 4) == 0;
}

void magpie__job_finish_profile(magpie__job *job, uint32_t frames) {
    if (!job->icc || job->icc_applied) return;
    int gray = job->info.components == 1 || job->info.components == 2;
    if ((job->opt.flags & MAGPIE_DECODE_KEEP_PROFILE) && !magpie__profile_fits(job, gray)) {
        /* Not the pixels' colour space: kept, it would tag them wrongly (a gray profile on RGB
         * output is not even valid), so it goes, as when converting. */
        job->color_flags |= MAGPIE_IMAGE_PROFILE_IGNORED;
        magpie__job_drop_profile(job);
        return;
    }
    if (job->opt.flags & MAGPIE_DECODE_KEEP_PROFILE) {
        job->color_flags |= MAGPIE_IMAGE_PROFILE_KEPT;
        return;
    }
    magpie__color *c = NULL;
    if (magpie__color_acquire(job->icc, job->icc_size, gray ? MAGPIE__ICC_GRAYA : MAGPIE__ICC_RGBA, &c)) {
        job->color_flags |= MAGPIE_IMAGE_PROFILE_IGNORED;
        return;
    }
    if (!magpie__color_is_identity(c)) {
        size_t frame = job->frame_bytes ? job->frame_bytes : job->dst_stride * job->out_h;
        for (uint32_t f = 0; f < frames; f++)
            magpie__color_rows(c, job->dst + f * frame, job->dst_stride, job->out_w, job->out_h);
    }
    job->color_flags |= MAGPIE_IMAGE_PROFILE_CONVERTED;
    job->icc_applied = 1;
    magpie__color_release(c);
}
