/* Smart crop: where a window of an image holds the most of what draws the eye, after libvips's
 * `attention` strategy. The image is averaged onto a small grid (at most MAGPIE__GRID cells along
 * its longer side, square cells); each cell scores edges (Sobel on CIE L*), skin (a* in [3, 22],
 * b* in [4, 31], L* >= 15) and saturation (chroma over 60), weighted by its alpha. libvips then
 * blurs that map and centres the crop on its maximum; here every window position is scored by the
 * attention it holds (a summed-area table, exact for partial cells), the best wins and a tie goes
 * to the position nearest the centre, so a featureless image is centre-cropped. */
#include <math.h>
#include <stdlib.h>

#include "internal.h"

#define MAGPIE__GRID 64
/* Window positions scored along one axis at most (the slack is sampled evenly beyond it). */
#define MAGPIE__STEPS 512

/* sRGB 8-bit to linear light. */
static double magpie__linear(double v) {
    v /= 255.0;
    return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
}

static double magpie__lab_f(double t) { return t > 216.0 / 24389.0 ? cbrt(t) : (24389.0 / 27.0 * t + 16.0) / 116.0; }

/* The cells' colour (sums of premultiplied R, G, B and of alpha, and pixel counts), then their
 * L*, a*, b* and alpha fraction. */
typedef struct {
    uint32_t gw, gh;
    double *sum; /* 5 per cell: r*a, g*a, b*a, a, n */
    double *lab; /* 4 per cell: L, a, b, coverage */
} magpie__grid;

static void magpie__grid_fill(magpie__grid *g, const magpie_pixels *src) {
    for (uint32_t y = 0; y < src->height; y++) {
        const uint8_t *row = src->pixels + (size_t)y * src->stride;
        double *line = g->sum + (size_t)((uint64_t)y * g->gh / src->height) * g->gw * 5;
        for (uint32_t x = 0; x < src->width; x++) {
            const uint8_t *p = row + (size_t)x * 4;
            double *c = line + (size_t)((uint64_t)x * g->gw / src->width) * 5;
            double a = p[3];
            c[0] += p[0] * a;
            c[1] += p[1] * a;
            c[2] += p[2] * a;
            c[3] += a;
            c[4] += 1;
        }
    }
    double lin[256];
    for (int i = 0; i < 256; i++) lin[i] = magpie__linear(i);
    for (size_t i = 0; i < (size_t)g->gw * g->gh; i++) {
        const double *c = g->sum + i * 5;
        double *o = g->lab + i * 4;
        if (c[3] <= 0 || c[4] <= 0) {
            o[0] = o[1] = o[2] = o[3] = 0;
            continue;
        }
        double r = lin[(int)lround(c[0] / c[3])], gr = lin[(int)lround(c[1] / c[3])], b = lin[(int)lround(c[2] / c[3])];
        /* Linear sRGB to XYZ (D65), relative to the white point. */
        double x = (0.4124564 * r + 0.3575761 * gr + 0.1804375 * b) / 0.95047;
        double yy = 0.2126729 * r + 0.7151522 * gr + 0.0721750 * b;
        double z = (0.0193339 * r + 0.1191920 * gr + 0.9503041 * b) / 1.08883;
        double fx = magpie__lab_f(x), fy = magpie__lab_f(yy), fz = magpie__lab_f(z);
        o[0] = 116.0 * fy - 16.0;
        o[1] = 500.0 * (fx - fy);
        o[2] = 200.0 * (fy - fz);
        o[3] = c[3] / (255.0 * c[4]);
    }
}

/* The attention density of cell (i, j): per pixel, so partial cells scale by area. */
static double magpie__score(const magpie__grid *g, uint32_t i, uint32_t j) {
    const double *o = g->lab + ((size_t)j * g->gw + i) * 4;
    if (o[3] <= 0) return 0;
#define L_AT(di, dj)                                                                                                   \
    g->lab[((size_t)(j + (dj) < 1 ? 0 : j + (dj) - 1 >= g->gh ? g->gh - 1 : j + (dj) - 1) * g->gw +                   \
            (i + (di) < 1 ? 0 : i + (di) - 1 >= g->gw ? g->gw - 1 : i + (di) - 1)) * 4]
    double gx = (L_AT(2, 0) + 2 * L_AT(2, 1) + L_AT(2, 2)) - (L_AT(0, 0) + 2 * L_AT(0, 1) + L_AT(0, 2));
    double gy = (L_AT(0, 2) + 2 * L_AT(1, 2) + L_AT(2, 2)) - (L_AT(0, 0) + 2 * L_AT(1, 0) + L_AT(2, 0));
#undef L_AT
    double s = fabs(gx) + fabs(gy);
    if (o[1] >= 3 && o[1] <= 22 && o[2] >= 4 && o[2] <= 31 && o[0] >= 15) s += 255;
    if (o[1] * o[1] + o[2] * o[2] > 60.0 * 60.0) s += 255;
    return s * o[3];
}

/* Where pixel coordinate v (0...size) falls among `cells` cells of an axis of `size` pixels:
 * the cell index and the fraction into it. Cell k covers [ceil(k size / cells), ceil((k+1) size / cells)). */
static void magpie__locate(uint32_t v, uint32_t size, uint32_t cells, uint32_t *k, double *frac) {
    if (v >= size) {
        *k = cells - 1;
        *frac = 1;
        return;
    }
    uint32_t c = (uint32_t)((uint64_t)v * cells / size);
    uint64_t lo = ((uint64_t)c * size + cells - 1) / cells, hi = ((uint64_t)(c + 1) * size + cells - 1) / cells;
    *k = c;
    *frac = hi > lo ? (double)(v - lo) / (double)(hi - lo) : 0;
}

typedef struct {
    uint32_t k;
    double f;
} magpie__at;

/* The attention in [0, X) × [0, Y): the summed-area table `sat` ((gw + 1) × (gh + 1)) bilinearly
 * between cell corners, exact for a density constant over each cell. */
static double magpie__integral(const double *sat, uint32_t gw, magpie__at x, magpie__at y) {
    size_t w = (size_t)gw + 1;
    const double *r0 = sat + (size_t)y.k * w, *r1 = r0 + w;
    double top = r0[x.k] + (r0[x.k + 1] - r0[x.k]) * x.f, bottom = r1[x.k] + (r1[x.k + 1] - r1[x.k]) * x.f;
    return top + (bottom - top) * y.f;
}

/* The positions scored along an axis with `slack` pixels: every one up to MAGPIE__STEPS, else
 * evenly spread (the last is always the far end). */
static uint32_t magpie__positions(uint32_t slack, uint32_t *out) {
    uint32_t n = slack < MAGPIE__STEPS ? slack + 1 : MAGPIE__STEPS + 1;
    for (uint32_t i = 0; i < n; i++) out[i] = n == slack + 1 ? i : (uint32_t)((uint64_t)slack * i / MAGPIE__STEPS);
    return n;
}

int magpie_attention_crop(const magpie_pixels *src, uint32_t width, uint32_t height, magpie_rect *crop) {
    if (!magpie__pixels_ok(src) || !crop || width == 0 || height == 0 || width > src->width || height > src->height)
        return MAGPIE_EINVAL;
    *crop = (magpie_rect){0, 0, width, height};
    if (width == src->width && height == src->height) return MAGPIE_OK;
    magpie__grid g = {0};
    uint32_t longer = src->width > src->height ? src->width : src->height;
    double cell = longer > MAGPIE__GRID ? (double)longer / MAGPIE__GRID : 1.0;
    g.gw = (uint32_t)ceil(src->width / cell);
    g.gh = (uint32_t)ceil(src->height / cell);
    g.gw = g.gw < 1 ? 1 : g.gw > src->width ? src->width : g.gw;
    g.gh = g.gh < 1 ? 1 : g.gh > src->height ? src->height : g.gh;
    size_t cells = (size_t)g.gw * g.gh;
    g.sum = calloc(cells * 5, sizeof(double));
    g.lab = calloc(cells * 4, sizeof(double));
    double *sat = calloc(((size_t)g.gw + 1) * (g.gh + 1), sizeof(double));
    uint32_t *xs = malloc((MAGPIE__STEPS + 1) * sizeof *xs), *ys = malloc((MAGPIE__STEPS + 1) * sizeof *ys);
    int status = MAGPIE_ENOMEM;
    if (!g.sum || !g.lab || !sat || !xs || !ys) goto done;
    magpie__grid_fill(&g, src);
    /* The table of totals: a cell's density times its area in pixels. */
    for (uint32_t j = 0; j < g.gh; j++) {
        double row = 0;
        for (uint32_t i = 0; i < g.gw; i++) {
            row += magpie__score(&g, i, j) * g.sum[((size_t)j * g.gw + i) * 5 + 4];
            sat[(size_t)(j + 1) * (g.gw + 1) + i + 1] = sat[(size_t)j * (g.gw + 1) + i + 1] + row;
        }
    }
    double total = sat[cells + g.gw + g.gh];
    uint32_t nx = magpie__positions(src->width - width, xs), ny = magpie__positions(src->height - height, ys);
    double cx = (src->width - width) / 2.0, cy = (src->height - height) / 2.0;
    double best = -1, best_distance = 0, eps = 1e-9 * (total + 1);
    for (uint32_t b = 0; b < ny; b++) {
        magpie__at y0, y1;
        magpie__locate(ys[b], src->height, g.gh, &y0.k, &y0.f);
        magpie__locate(ys[b] + height, src->height, g.gh, &y1.k, &y1.f);
        for (uint32_t a = 0; a < nx; a++) {
            magpie__at x0, x1;
            magpie__locate(xs[a], src->width, g.gw, &x0.k, &x0.f);
            magpie__locate(xs[a] + width, src->width, g.gw, &x1.k, &x1.f);
            double s = magpie__integral(sat, g.gw, x1, y1) - magpie__integral(sat, g.gw, x0, y1) -
                       magpie__integral(sat, g.gw, x1, y0) + magpie__integral(sat, g.gw, x0, y0);
            double d = (xs[a] - cx) * (xs[a] - cx) + (ys[b] - cy) * (ys[b] - cy);
            if (s > best + eps || (s >= best - eps && d < best_distance)) {
                best = s > best ? s : best;
                best_distance = d;
                crop->x = xs[a];
                crop->y = ys[b];
            }
        }
    }
    status = MAGPIE_OK;
done:
    free(g.sum);
    free(g.lab);
    free(sat);
    free(xs);
    free(ys);
    return status;
}
