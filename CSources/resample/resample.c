/* The public resampling entry points: argument checks and limits, then the streaming sink of
 * resize.c over the rows the window needs. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

void magpie_resize_options_init(magpie_resize_options *o) {
    if (!o) return;
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
    o->filter = MAGPIE_FILTER_LANCZOS3;
}

/* Writes why a resample was refused into the caller's buffer, and returns `status`. */
static int magpie__refuse(const magpie_resize_options *o, int status, const char *why) {
    if (o && o->error_detail && o->error_detail_size) snprintf(o->error_detail, o->error_detail_size, "%s", why);
    return status;
}

int magpie_resample(const magpie_pixels *source, const magpie_pixels *target, const magpie_resize_options *options) {
    magpie_resize_options defaults;
    magpie_resize_options_init(&defaults);
    const magpie_resize_options *o = options ? options : &defaults;
    /* A caller built before linear_light was added passes the shorter struct: it resamples in sRGB. */
    if (o->struct_size < offsetof(magpie_resize_options, linear_light)) return MAGPIE_EINVAL;
    const int linear = o->struct_size >= sizeof *o && o->linear_light;
    if (!source || !target || !source->pixels || !target->pixels) return magpie__refuse(o, MAGPIE_EINVAL, "no pixels");
    const uint8_t *src = source->pixels;
    uint8_t *dst = target->pixels;
    const uint32_t src_w = source->width, src_h = source->height, out_w = target->width, out_h = target->height;
    const size_t src_stride = source->stride, dst_stride = target->stride;
    const magpie_filter filter = o->filter;
    if (!src_w || !src_h || !out_w || !out_h) return magpie__refuse(o, MAGPIE_EINVAL, "empty size");
    if (src_stride / 4 < src_w || dst_stride / 4 < out_w) return magpie__refuse(o, MAGPIE_EINVAL, "stride below width * 4");
    if (!magpie__pixels_ok(source) || !magpie__pixels_ok(target))
        return magpie__refuse(o, MAGPIE_EINVAL, "buffer size overflows");
    /* Output rows are written while source rows are still being read. */
    if (magpie__pixels_overlap(source, target))
        return magpie__refuse(o, MAGPIE_EINVAL, "source and destination overlap");
    if (filter != MAGPIE_FILTER_LANCZOS3 && filter != MAGPIE_FILTER_MITCHELL && filter != MAGPIE_FILTER_BILINEAR)
        return magpie__refuse(o, MAGPIE_EINVAL, "unknown filter");
    magpie_rect r = {0, 0, src_w, src_h};
    if (o->window) r = *o->window;
    if (!r.width || !r.height || r.x > src_w || r.y > src_h || r.width > src_w - r.x || r.height > src_h - r.y)
        return magpie__refuse(o, MAGPIE_EINVAL, "window outside the image");
    uint64_t limit = o->max_output_pixels ? o->max_output_pixels : MAGPIE_DEFAULT_MAX_PIXELS;
    if ((uint64_t)out_w * out_h > limit) return magpie__refuse(o, MAGPIE_ELIMIT_PIXELS, "output over the pixel limit");
    if (r.width == out_w && r.height == out_h) {
        /* Same size: an exact copy of the window. */
        for (uint32_t y = 0; y < out_h; y++)
            memcpy(dst + (size_t)y * dst_stride, src + (size_t)(r.y + y) * src_stride + (size_t)r.x * 4,
                   (size_t)out_w * 4);
        return MAGPIE_OK;
    }
    /* Only the rows the window needs, plus the filter's reach, go through the sink. */
    magpie__geometry g = {0};
    g.in_w = src_w;
    g.filter = filter;
    g.linear = linear;
    g.orientation = 1;
    g.out_w = out_w;
    g.out_h = out_h;
    double scale_y = (double)r.height / out_h;
    double reach = magpie__support(filter) * (scale_y > 1.0 ? scale_y : 1.0) + 1.0;
    uint32_t y0 = r.y > reach ? (uint32_t)(r.y - reach) : 0;
    double end = r.y + r.height + reach;
    uint32_t y1 = end < src_h ? (uint32_t)end : src_h;
    g.in_h = y1 - y0;
    g.win_x = r.x;
    g.win_y = r.y - y0;
    g.win_w = r.width;
    g.win_h = r.height;
    magpie__sink *s = NULL;
    int rc = magpie__sink_create(&g, dst, dst_stride, &s);
    if (rc != MAGPIE_OK) return rc;
    for (uint32_t y = y0; y < y1; y++) magpie__sink_push(s, src + (size_t)y * src_stride);
    rc = magpie__sink_finish(s);
    magpie__sink_destroy(s);
    return rc;
}
