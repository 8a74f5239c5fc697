/* Colour profiles (icc.c: lcms2 transforms to sRGB, cached; icc_job.c: what a decode does with
 * the profile its codec found). Private to the core. */
#ifndef MAGPIE_ICC_H
#define MAGPIE_ICC_H

#include "core/job.h"

/* The largest profile read: larger ones are ignored (the image decodes as untagged). Ordinary
 * profiles are 0.5–600 KB, press CMYK ones up to about 2 MB. */
#define MAGPIE__ICC_MAX_BYTES (4u << 20)

/* What pixels a transform takes: RGBA rows of a colour source (an RGB profile), RGBA rows of a
 * gray source (a gray profile), or CMYK rows as libjpeg delivers them (Adobe's inverted CMYK after
 * an APP14 marker; a CMYK profile). Out: RGBA8, sRGB. A profile of another colour space than the
 * source's is refused (the image is then untagged, and flagged so): a gray one would turn colour
 * gray, an RGB one would brighten or darken a gray source's levels. */
enum { MAGPIE__ICC_RGBA, MAGPIE__ICC_GRAYA, MAGPIE__ICC_CMYK, MAGPIE__ICC_CMYK_INVERTED };

typedef struct magpie__color magpie__color;

/* The transform of the `n`-byte profile at `icc` for pixels of `kind`, from the cache or built:
 * MAGPIE_OK (release it after use); MAGPIE_ECORRUPT, MAGPIE_EUNSUPPORTED (a device link, or a
 * colour space other than the pixels') or MAGPIE_ENOMEM when it cannot be used. */
MAGPIE_HIDDEN int magpie__color_acquire(const uint8_t *icc, size_t n, int kind, magpie__color **out);
MAGPIE_HIDDEN void magpie__color_release(magpie__color *c);
/* Whether the transform changes nothing (the profile is sRGB in all but name). */
MAGPIE_HIDDEN int magpie__color_is_identity(const magpie__color *c);
/* Converts `h` rows of `w` pixels in place (alpha kept; CMYK rows become opaque RGBA). */
MAGPIE_HIDDEN void magpie__color_rows(const magpie__color *c, uint8_t *px, size_t stride, uint32_t w, uint32_t h);

/* ---- the fast path for RGB matrix-shaper profiles (icc_matrix.c) ---- */
typedef struct {
    float lin[3][256]; /* each channel's tone curve: stored value to linear light */
    float m[9];        /* the profile's linear RGB to sRGB's, row-major */
} magpie__icc_matrix;
/* The tables for `in_profile` (an lcms2 cmsHPROFILE) to `srgb_profile`: 1, or 0 when the
 * profile is not a plain matrix-shaper one (then lcms2 converts). */
MAGPIE_HIDDEN int magpie__icc_matrix_build(void *in_profile, void *srgb_profile, magpie__icc_matrix *mx);
MAGPIE_HIDDEN void magpie__icc_matrix_rows(const magpie__icc_matrix *mx, uint8_t *px, size_t stride, uint32_t w,
                                           uint32_t h);

/* ---- a decode's profile (icc_job.c) ---- */
/* A codec found a profile: copied onto the job and charged, or ignored (too large, or no memory)
 * with MAGPIE_IMAGE_PROFILE_IGNORED. Only the first one counts. */
MAGPIE_HIDDEN void magpie__job_set_profile(magpie__job *job, const uint8_t *icc, size_t n);
/* A codec found CICP code points (H.273: AVIF's 'nclx' colr) and no profile: a profile made for
 * them onto the job when they name primaries other than BT.709's (Display P3, BT.2020, …) with an
 * SDR transfer; nothing for sRGB/BT.709, unspecified, or what is not supported (PQ, HLG). */
MAGPIE_HIDDEN void magpie__job_set_cicp(magpie__job *job, uint32_t primaries, uint32_t transfer);
/* A PNG with neither iCCP nor sRGB: its gAMA (the file gamma, 0 when absent) and cHRM (white x, y,
 * then red, green, blue x, y; NULL when absent) made into a profile, as the PNG specification has
 * them describe the colours, unless they describe sRGB (its primaries, a gamma near 2.2). */
MAGPIE_HIDDEN void magpie__job_set_png_colour(magpie__job *job, double file_gamma, const double *chrm);
/* For a CMYK decoder, before its rows: the transform through the job's profile, or NULL for
 * the plain conversion (no profile, or one that cannot be used: then flagged ignored). */
MAGPIE_HIDDEN magpie__color *magpie__job_cmyk_color(magpie__job *job, int inverted);
/* After the codec: the decoded frames converted to sRGB through the job's profile, unless the
 * options keep it (MAGPIE_DECODE_KEEP_PROFILE) or a CMYK decoder already converted them. */
MAGPIE_HIDDEN void magpie__job_finish_profile(magpie__job *job, uint32_t frames);

#endif
