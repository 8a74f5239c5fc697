/* Fit geometry: the output size and the source window a fit mode gives for an upright source
 * size, apart from option parsing and limits (decode.c) so it reads, and tests, on its own. */
#include <math.h>

#include "internal.h"

static uint32_t magpie__round_dim(double v) {
    if (v < 1.0) return 1;
    if (v > 4294967295.0) return 0xffffffffu;
    return (uint32_t)(v + 0.5);
}

int magpie__fit(magpie_fit fit, double uw, double uh, double tw, double th, uint64_t max_output_pixels, int up,
                magpie__fit_box *box) {
    double wx = 0, wy = 0, ww = uw, wh = uh;
    uint32_t ow = (uint32_t)uw, oh = (uint32_t)uh;
    switch (fit) {
    case MAGPIE_FIT_NONE: break;
    case MAGPIE_FIT_INSIDE: {
        if (!tw || !th) return MAGPIE_EINVAL;
        double s = fmin(tw / uw, th / uh);
        if (s >= 1.0 && !up) break;
        if (tw / uw <= th / uh) {
            ow = (uint32_t)tw;
            oh = magpie__round_dim(uh * s);
            if (oh > th) oh = (uint32_t)th;
        } else {
            oh = (uint32_t)th;
            ow = magpie__round_dim(uw * s);
            if (ow > tw) ow = (uint32_t)tw;
        }
        break;
    }
    case MAGPIE_FIT_FILL: {
        if (!tw || !th) return MAGPIE_EINVAL;
        double s = fmax(tw / uw, th / uh);
        if (s > 1.0 && !up) {
            s = 1.0;
            ow = (uint32_t)fmin(tw, uw);
            oh = (uint32_t)fmin(th, uh);
        } else {
            ow = (uint32_t)tw;
            oh = (uint32_t)th;
        }
        ww = fmin(uw, ow / s);
        wh = fmin(uh, oh / s);
        wx = (uw - ww) / 2;
        wy = (uh - wh) / 2;
        break;
    }
    case MAGPIE_FIT_EXACT:
        if (!tw || !th) return MAGPIE_EINVAL;
        ow = (uint32_t)tw;
        oh = (uint32_t)th;
        break;
    case MAGPIE_FIT_MAX_PIXELS: {
        uint64_t target = max_output_pixels;
        if (!target) return MAGPIE_EINVAL;
        if (uw * uh <= (double)target && !up) break;
        double s = sqrt((double)target / (uw * uh));
        ow = (uint32_t)fmax(1.0, floor(uw * s));
        oh = (uint32_t)fmax(1.0, floor(uh * s));
        break;
    }
    }
    box->out_w = ow;
    box->out_h = oh;
    box->win_x = wx;
    box->win_y = wy;
    box->win_w = ww;
    box->win_h = wh;
    return MAGPIE_OK;
}
