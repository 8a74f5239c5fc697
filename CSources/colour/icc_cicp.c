/* A profile for CICP code points (ITU-T H.273), which AVIF's 'nclx' colour box gives instead of
 * an ICC profile: the primaries and white point of ColourPrimaries with the curve of
 * TransferCharacteristics, made by lcms2, so the image converts to sRGB like a tagged one (a
 * Display P3 photo from a phone, say). BT.709 primaries and unspecified ones are taken as sRGB;
 * PQ and HLG (HDR) are left as they are. */
#include <lcms2.h>
#include <math.h>
#include <stdlib.h>

#include "colour/icc.h"

typedef struct {
    uint32_t code;
    double rx, ry, gx, gy, bx, by, wx, wy;
} magpie__primaries;

static const magpie__primaries magpie__cicp_primaries[] = {
    {4, 0.67, 0.33, 0.21, 0.71, 0.14, 0.08, 0.310, 0.316},        /* BT.470 System M (illuminant C) */
    {5, 0.64, 0.33, 0.29, 0.60, 0.15, 0.06, 0.3127, 0.3290},      /* BT.470 System B, G; BT.601 625 */
    {6, 0.630, 0.340, 0.310, 0.595, 0.155, 0.070, 0.3127, 0.3290}, /* BT.601 525, SMPTE 170M */
    {7, 0.630, 0.340, 0.310, 0.595, 0.155, 0.070, 0.3127, 0.3290}, /* SMPTE 240M */
    {9, 0.708, 0.292, 0.170, 0.797, 0.131, 0.046, 0.3127, 0.3290}, /* BT.2020, BT.2100 */
    {11, 0.680, 0.320, 0.265, 0.690, 0.150, 0.060, 0.314, 0.351},  /* SMPTE RP 431-2, DCI-P3 */
    {12, 0.680, 0.320, 0.265, 0.690, 0.150, 0.060, 0.3127, 0.3290}, /* SMPTE EG 432-1, Display P3 */
    {22, 0.630, 0.340, 0.295, 0.605, 0.155, 0.077, 0.3127, 0.3290}, /* EBU Tech 3213-E */
};

/* The curve of a transfer characteristic as lcms2 parametric parameters (type 4: Y = (aX + b)^g
 * for X >= d, else cX; type 1: Y = X^g); 0 when it is not an SDR curve this knows. */
static int magpie__cicp_curve(uint32_t transfer, int *type, double p[5]) {
    switch (transfer) {
    case 2:  /* unspecified: as sRGB */
    case 13: /* sRGB, sYCC */
        *type = 4, p[0] = 2.4, p[1] = 1 / 1.055, p[2] = 0.055 / 1.055, p[3] = 1 / 12.92, p[4] = 0.04045;
        return 1;
    case 1: case 6: case 14: case 15: /* BT.709, BT.601, BT.2020: the inverse of their OETF */
        *type = 4, p[0] = 1 / 0.45, p[1] = 1 / 1.099, p[2] = 0.099 / 1.099, p[3] = 1 / 4.5, p[4] = 0.081;
        return 1;
    case 4: *type = 1, p[0] = 2.2; return 1; /* BT.470 System M */
    case 5: *type = 1, p[0] = 2.8; return 1; /* BT.470 System B, G */
    case 8: *type = 1, p[0] = 1.0; return 1; /* linear */
    default: return 0;                          /* PQ, HLG, log curves: left alone */
    }
}

/* A profile of these primaries and white point with this curve, onto the job: a gray one (the
 * white point and the curve) for a gray source, which takes no RGB profile. */
static void magpie__job_make_profile(magpie__job *job, const magpie__primaries *pr, int type, const double params[5]) {
    cmsCIExyY white = {pr->wx, pr->wy, 1.0};
    cmsCIExyYTRIPLE xyy = {{pr->rx, pr->ry, 1.0}, {pr->gx, pr->gy, 1.0}, {pr->bx, pr->by, 1.0}};
    cmsToneCurve *curve = cmsBuildParametricToneCurve(NULL, type, params);
    cmsToneCurve *curves[3] = {curve, curve, curve};
    int gray = job->info.components == 1 || job->info.components == 2;
    cmsHPROFILE profile = !curve ? NULL : gray ? cmsCreateGrayProfile(&white, curve) : cmsCreateRGBProfile(&white, &xyy, curves);
    cmsUInt32Number size = 0;
    uint8_t *bytes = NULL;
    if (profile && cmsSaveProfileToMem(profile, NULL, &size) && size && (bytes = malloc(size)) &&
        cmsSaveProfileToMem(profile, bytes, &size))
        magpie__job_set_profile(job, bytes, size);
    free(bytes);
    if (profile) cmsCloseProfile(profile);
    if (curve) cmsFreeToneCurve(curve);
}

void magpie__job_set_cicp(magpie__job *job, uint32_t primaries, uint32_t transfer) {
    const magpie__primaries *pr = NULL;
    for (size_t i = 0; i < sizeof magpie__cicp_primaries / sizeof *magpie__cicp_primaries; i++)
        if (magpie__cicp_primaries[i].code == primaries) pr = &magpie__cicp_primaries[i];
    int type;
    double params[5];
    if (pr && magpie__cicp_curve(transfer, &type, params)) magpie__job_make_profile(job, pr, type, params);
}

void magpie__job_set_png_colour(magpie__job *job, double file_gamma, const double *chrm) {
    static const magpie__primaries srgb = {1, 0.64, 0.33, 0.30, 0.60, 0.15, 0.06, 0.3127, 0.3290};
    magpie__primaries pr = srgb;
    if (chrm) {
        pr = (magpie__primaries){0, chrm[2], chrm[3], chrm[4], chrm[5], chrm[6], chrm[7], chrm[0], chrm[1]};
        const double *a = &pr.rx, *b = &srgb.rx;
        for (int i = 0; i < 8; i++)
            if (!(a[i] > 0 && a[i] < 1)) return; /* chromaticities are in (0, 1): a bad cHRM is no cHRM */
        int same = 1;
        for (int i = 0; i < 8; i++) same &= fabs(a[i] - b[i]) < 0.01;
        if (same) pr = srgb;
    }
    double gamma = file_gamma > 0 ? 1 / file_gamma : 2.2;
    if (!(gamma >= 0.5 && gamma <= 5)) return;
    /* sRGB's own primaries with a gamma near 2.2 is how most tools label sRGB: left alone. */
    if (pr.code == 1 && fabs(gamma - 2.2) < 0.15) return;
    double params[5] = {gamma, 0, 0, 0, 0};
    magpie__job_make_profile(job, &pr, 1, params);
}
