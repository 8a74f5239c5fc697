/* Round corners with anti-aliased edges: every pixel near an outline gets the exact area of it
 * that lies inside the rounded rectangle (the integral of the circle's height over the pixel, in
 * closed form), and an optional border fills the band between the outline and one inset by its
 * width. Pixels wholly inside are never touched. */
#include <math.h>
#include <string.h>

#include "internal.h"

void magpie_corner_options_init(magpie_corner_options *o) {
    if (!o) return;
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
    o->corners = MAGPIE_CORNER_ALL;
    o->border_color = 0x000000FFu;
}

/* The antiderivative of sqrt(r^2 - u^2). */
static double magpie__arc(double r, double u) {
    double t = u / r;
    t = t > 1 ? 1 : t;
    return 0.5 * (u * sqrt(fmax(0.0, r * r - u * u)) + r * r * asin(t));
}

/* Area of [u0, u1] × [v0, v1] (all >= 0) inside the disc of radius r about the origin. */
static double magpie__disc_area(double r, double u0, double u1, double v0, double v1) {
    if (u1 * u1 + v1 * v1 <= r * r) return (u1 - u0) * (v1 - v0);
    if (u0 * u0 + v0 * v0 >= r * r) return 0.0;
    double a = sqrt(fmax(0.0, r * r - v1 * v1)), b = sqrt(fmax(0.0, r * r - v0 * v0));
    double area = (v1 - v0) * fmax(0.0, fmin(u1, a) - u0);
    double p = fmax(u0, a), q = fmin(u1, b);
    if (p < q) area += magpie__arc(r, q) - magpie__arc(r, p) - v0 * (q - p);
    return area;
}

/* A rounded rectangle: [x0, x1] × [y0, y1], corner radius r, the corners to round. */
typedef struct {
    double x0, y0, x1, y1, r;
    uint32_t corners;
} magpie__rrect;

/* The area of pixel (px, py) inside the rounded rectangle. */
static double magpie__cover(const magpie__rrect *s, double px, double py) {
    double cx0 = fmax(px, s->x0), cx1 = fmin(px + 1, s->x1), cy0 = fmax(py, s->y0), cy1 = fmin(py + 1, s->y1);
    if (cx0 >= cx1 || cy0 >= cy1) return 0.0;
    double area = (cx1 - cx0) * (cy1 - cy0);
    if (s->r <= 0) return area;
    static const uint32_t bits[4] = {MAGPIE_CORNER_TOP_LEFT, MAGPIE_CORNER_TOP_RIGHT, MAGPIE_CORNER_BOTTOM_LEFT,
                                     MAGPIE_CORNER_BOTTOM_RIGHT};
    for (int i = 0; i < 4; i++) {
        if (!(s->corners & bits[i])) continue;
        int right = i & 1, bottom = i >> 1;
        double ox = right ? s->x1 - s->r : s->x0 + s->r, oy = bottom ? s->y1 - s->r : s->y0 + s->r;
        /* Distances from the corner's centre towards its corner. */
        double u0 = right ? cx0 - ox : ox - cx1, u1 = right ? cx1 - ox : ox - cx0;
        double v0 = bottom ? cy0 - oy : oy - cy1, v1 = bottom ? cy1 - oy : oy - cy0;
        if (u1 <= 0 || v1 <= 0) continue;
        u0 = fmax(u0, 0.0);
        v0 = fmax(v0, 0.0);
        area -= (u1 - u0) * (v1 - v0) - magpie__disc_area(s->r, u0, u1, v0, v1);
    }
    return area < 0 ? 0 : area;
}

static uint8_t magpie__unit8(double v) { return v <= 0 ? 0 : v >= 1 ? 255 : (uint8_t)(v * 255.0 + 0.5); }

/* Blends pixel p by the coverages of the outline and the inset one (the border's band between). */
static void magpie__shade(uint8_t *p, double outer, double inner, const double border[4]) {
    double a = p[3] / 255.0 * inner, ba = border[3] * (outer - inner), oa = a + ba;
    if (oa <= 0) {
        memset(p, 0, 4);
        return;
    }
    for (int c = 0; c < 3; c++) p[c] = magpie__unit8((p[c] / 255.0 * a + border[c] * ba) / oa);
    p[3] = magpie__unit8(oa);
}

int magpie_round_corners(const magpie_pixels *pixels, const magpie_corner_options *options) {
    magpie_corner_options o;
    magpie_corner_options_init(&o);
    if (options) {
        if (options->struct_size < sizeof o) return MAGPIE_EINVAL;
        o = *options;
    }
    if (!magpie__pixels_ok(pixels) || !(o.radius >= 0 && o.radius < INFINITY) ||
        !(o.border_width >= 0 && o.border_width < INFINITY) || o.corners > MAGPIE_CORNER_ALL)
        return MAGPIE_EINVAL;
    const double w = pixels->width, h = pixels->height;
    const double r = fmin(o.radius, fmin(w, h) / 2), bw = fmin(o.border_width, fmin(w, h) / 2);
    if ((r == 0 || o.corners == 0) && bw == 0) return MAGPIE_OK;
    magpie__rrect outer = {0, 0, w, h, r, o.corners};
    magpie__rrect inner = {bw, bw, w - bw, h - bw, fmax(0.0, r - bw), o.corners};
    const double border[4] = {(o.border_color >> 24) / 255.0, (o.border_color >> 16 & 0xFF) / 255.0,
                              (o.border_color >> 8 & 0xFF) / 255.0, (o.border_color & 0xFF) / 255.0};
    /* Beyond `m` of every edge nothing changes; within it, only near the two sides in the middle rows. */
    const double m = fmax(r, bw);
    const uint32_t band = (uint32_t)ceil(m), W = pixels->width, H = pixels->height;
    for (uint32_t y = 0; y < H; y++) {
        uint8_t *row = pixels->pixels + (size_t)y * pixels->stride;
        int edge_row = y < band || y + band >= H;
        for (uint32_t x = 0; x < W; x++) {
            if (!edge_row && x == band && x + band < W) x = W - band; /* skip the untouched middle */
            double out = magpie__cover(&outer, x, y), in = bw > 0 ? magpie__cover(&inner, x, y) : out;
            if (out >= 1.0 && in >= 1.0) continue;
            magpie__shade(row + (size_t)x * 4, out, in, border);
        }
    }
    return MAGPIE_OK;
}
