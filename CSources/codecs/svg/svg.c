/* SVG rasterised through librsvg (2.46 or later, with cairo), loaded on the first SVG decode
 * (lazy.c), at the size asked for: a vector needs no shrink-on-load, so the document is drawn
 * straight into the output (the window of a crop mapped onto it), never at its own size and then
 * resized. Hostile by default: the handle is made from the bytes with no base file, so librsvg
 * loads no external resource (no file, no network; only data: URLs), under its own limits on
 * elements and nesting; the input is held to MAGPIE__SVG_MAX_BYTES, the output to the pixel
 * limit. librsvg, cairo and GLib are declared here rather than included: their headers need
 * GLib's include folders, and only opaque handles and two plain structs cross. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/codec.h"
#include "codecs/svg/svg_entities.h"
#include "util/lazy.h"

#define MAGPIE__SVG_MAX_BYTES (8u << 20)
#define MAGPIE__SVG_DOM_FACTOR 32u /* librsvg's tree and cairo's state, charged per input byte */

typedef struct magpie__gerror {
    uint32_t domain;
    int code;
    char *message;
} magpie__gerror;
typedef struct {
    double x, y, width, height;
} magpie__rsvg_rect;
#define MAGPIE__CAIRO_FORMAT_ARGB32 0

static struct {
    const unsigned *major, *minor;
    void *(*new_from_data)(const uint8_t *, size_t, magpie__gerror **);
    int (*render_document)(void *, void *, const magpie__rsvg_rect *, magpie__gerror **);
    void (*unref)(void *);
    void (*error_free)(magpie__gerror *);
    void *(*surface_for_data)(unsigned char *, int, int, int, int);
    int (*stride_for_width)(int, int);
    void (*surface_flush)(void *);
    void (*surface_destroy)(void *);
    void *(*create)(void *);
    void (*destroy)(void *);
    int (*status)(void *);
    void (*scale)(void *, double, double);
    void (*translate)(void *, double, double);
} magpie__rsvg;

static int magpie__svg_bind(void *h, char *why, size_t why_size) {
    int missing = 0;
#define MAGPIE__LOAD(field, symbol) MAGPIE__LAZY_SYM(magpie__rsvg, h, missing, field, symbol)
    MAGPIE__LOAD(major, "rsvg_major_version");
    MAGPIE__LOAD(minor, "rsvg_minor_version");
    MAGPIE__LOAD(new_from_data, "rsvg_handle_new_from_data");
    MAGPIE__LOAD(render_document, "rsvg_handle_render_document");
    MAGPIE__LOAD(unref, "g_object_unref");
    MAGPIE__LOAD(error_free, "g_error_free");
    MAGPIE__LOAD(surface_for_data, "cairo_image_surface_create_for_data");
    MAGPIE__LOAD(stride_for_width, "cairo_format_stride_for_width");
    MAGPIE__LOAD(surface_flush, "cairo_surface_flush");
    MAGPIE__LOAD(surface_destroy, "cairo_surface_destroy");
    MAGPIE__LOAD(create, "cairo_create");
    MAGPIE__LOAD(destroy, "cairo_destroy");
    MAGPIE__LOAD(status, "cairo_status");
    MAGPIE__LOAD(scale, "cairo_scale");
    MAGPIE__LOAD(translate, "cairo_translate");
#undef MAGPIE__LOAD
    if (missing || *magpie__rsvg.major != 2 || *magpie__rsvg.minor < 46) {
        snprintf(why, why_size, "librsvg %u.%u is not the 2.46 or later this build expects",
                 missing ? 0 : *magpie__rsvg.major, missing ? 0 : *magpie__rsvg.minor);
        return -1;
    }
    return 0;
}

static magpie__lazy magpie__rsvg_lib = MAGPIE__LAZY_INIT("librsvg-2.so.2", magpie__svg_bind);

int magpie__svg_available(void) { return magpie__lazy_available(&magpie__rsvg_lib); }

/* Cairo's premultiplied native-endian ARGB rows to straight RGBA, in place. */
static void magpie__svg_row(uint8_t *p, uint32_t w) {
    for (uint32_t x = 0; x < w; x++, p += 4) {
        uint32_t v;
        memcpy(&v, p, 4);
        uint32_t a = v >> 24, r = (v >> 16) & 255, g = (v >> 8) & 255, b = v & 255;
        if (a && a < 255) {
            r = (r * 255 + a / 2) / a, g = (g * 255 + a / 2) / a, b = (b * 255 + a / 2) / a;
            r = r > 255 ? 255 : r, g = g > 255 ? 255 : g, b = b > 255 ? 255 : b;
        }
        p[0] = (uint8_t)r, p[1] = (uint8_t)g, p[2] = (uint8_t)b, p[3] = (uint8_t)a;
    }
}

static int magpie__svg_error(magpie__job *job, magpie__gerror *e, const char *stage) {
    magpie__detail(job, "%s: %s", stage, e && e->message ? e->message : "librsvg failed");
    if (e) magpie__rsvg.error_free(e);
    return MAGPIE_ECORRUPT;
}

int magpie__decode_svg(magpie__job *job) {
    const char *unavailable = magpie__lazy_ready(&magpie__rsvg_lib);
    if (unavailable) {
        magpie__detail(job, "%s", unavailable);
        return MAGPIE_EUNSUPPORTED;
    }
    if (job->first_frame != 0) return MAGPIE_ERANGE;
    if (job->in->size > MAGPIE__SVG_MAX_BYTES) {
        magpie__detail(job, "an SVG of %llu bytes is over the %u-byte limit", (unsigned long long)job->in->size,
                       MAGPIE__SVG_MAX_BYTES);
        return MAGPIE_ELIMIT_MEMORY;
    }
    const uint32_t ow = job->st_w, oh = job->st_h;
    int stride = magpie__rsvg.stride_for_width(MAGPIE__CAIRO_FORMAT_ARGB32, (int)ow);
    if (stride <= 0 || ow > 0x7fffffff / 4 || oh > 0x7fffffff) return MAGPIE_ELIMIT_PIXELS;
    /* The output is drawn at its own size: the sink only turns it (a transform), never resizes. */
    magpie__geometry g = {ow, oh, 0, 0, ow, oh, ow, oh, job->orientation, job->opt.filter, 0};
    uint64_t need = (uint64_t)stride * oh + job->in->size * MAGPIE__SVG_DOM_FACTOR + magpie__sink_bytes(&g);
    int rc = magpie__charge(job, need);
    if (rc) return rc;
    const uint8_t *data;
    uint8_t *owned = NULL, *px = NULL;
    void *handle = NULL, *surface = NULL, *cr = NULL;
    magpie__sink *sink = NULL;
    magpie__gerror *err = NULL;
    if ((rc = magpie__whole_input(job, &data, &owned))) goto out;
    if (!(px = calloc((size_t)stride, oh))) {
        rc = MAGPIE_ENOMEM;
        goto out;
    }
    /* Entities expanded here, never by libxml2 (svg_entities.c says why). */
    const char *why;
    uint8_t *plain = NULL;
    size_t plain_n = 0;
    if ((rc = magpie__svg_entities(data, (size_t)job->in->size, &plain, &plain_n, &why))) {
        magpie__detail(job, "%s", why);
        goto out;
    }
    /* No base file: librsvg resolves no href but data: ones. */
    handle = magpie__rsvg.new_from_data(plain ? plain : data, plain ? plain_n : (size_t)job->in->size, &err);
    free(plain);
    if (!handle) {
        rc = magpie__svg_error(job, err, "parse");
        goto out;
    }
    surface = magpie__rsvg.surface_for_data(px, MAGPIE__CAIRO_FORMAT_ARGB32, (int)ow, (int)oh, stride);
    cr = magpie__rsvg.create(surface);
    if (magpie__rsvg.status(cr) != 0) {
        rc = MAGPIE_ENOMEM;
        goto out;
    }
    /* The window of the source (all of it, or a crop's part) onto the whole output: the viewport
     * is the document's box at output scale, moved so the window's corner is the origin (no cairo
     * transform: librsvg lays the document out at the size it draws, as rsvg-convert -w does). */
    const double sx = ow / job->win_w, sy = oh / job->win_h;
    const magpie__rsvg_rect viewport = {-job->win_x * sx, -job->win_y * sy, job->info.width * sx,
                                        job->info.height * sy};
    if (!magpie__rsvg.render_document(handle, cr, &viewport, &err)) {
        rc = magpie__svg_error(job, err, "render");
        goto out;
    }
    magpie__rsvg.surface_flush(surface);
    if ((rc = magpie__sink_create(&g, job->dst, job->dst_stride, &sink))) goto out;
    for (uint32_t y = 0; y < oh; y++) {
        uint8_t *row = px + (size_t)y * (size_t)stride;
        magpie__svg_row(row, ow);
        magpie__sink_push(sink, row);
    }
    rc = magpie__sink_finish(sink);
out:
    magpie__sink_destroy(sink);
    if (cr) magpie__rsvg.destroy(cr);
    if (surface) magpie__rsvg.surface_destroy(surface);
    if (handle) magpie__rsvg.unref(handle);
    free(px);
    magpie__whole_input_free(job, owned);
    magpie__uncharge(job, need);
    return rc;
}
