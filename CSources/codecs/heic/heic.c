/* HEIC/HEIF decoding through libheif (with libde265), loaded on the first HEIC decode (lazy.c):
 * the primary image, grids, alpha (made straight when stored premultiplied), the ICC or nclx
 * colour description. irot/imir arrive as the EXIF orientation the probe computed (libheif is told
 * to leave its transformations to us, as for AVIF); auxiliary and depth images are never decoded.
 * The embedded thumbnail stands in for the image when it is at least the size asked for, with
 * the image's shape: HEIC's shrink-on-load. libheif decodes the whole picture at once, so its
 * planes and RGBA copy are charged first. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/codec.h"
#include "colour/icc.h"

#ifdef MAGPIE_HAVE_HEIF
#include <libheif/heif.h>

#include "util/lazy.h"

static struct {
    int (*major)(void), (*minor)(void);
    struct heif_error (*init)(struct heif_init_params *);
    struct heif_context *(*context_alloc)(void);
    void (*context_free)(struct heif_context *);
    void (*size_limit)(struct heif_context *, int);
    struct heif_error (*read_memory)(struct heif_context *, const void *, size_t, const struct heif_reading_options *);
    struct heif_error (*primary)(struct heif_context *, struct heif_image_handle **);
    void (*handle_release)(const struct heif_image_handle *);
    int (*width)(const struct heif_image_handle *), (*height)(const struct heif_image_handle *);
    int (*has_alpha)(const struct heif_image_handle *), (*premultiplied)(const struct heif_image_handle *);
    int (*thumbnail_count)(const struct heif_image_handle *);
    int (*thumbnail_ids)(const struct heif_image_handle *, heif_item_id *, int);
    struct heif_error (*thumbnail)(const struct heif_image_handle *, heif_item_id, struct heif_image_handle **);
    enum heif_color_profile_type (*profile_type)(const struct heif_image_handle *);
    size_t (*profile_size)(const struct heif_image_handle *);
    struct heif_error (*profile)(const struct heif_image_handle *, void *);
    struct heif_error (*nclx)(const struct heif_image_handle *, struct heif_color_profile_nclx **);
    void (*nclx_free)(struct heif_color_profile_nclx *);
    struct heif_decoding_options *(*options_alloc)(void);
    void (*options_free)(struct heif_decoding_options *);
    struct heif_error (*decode)(const struct heif_image_handle *, struct heif_image **, enum heif_colorspace,
                                enum heif_chroma, const struct heif_decoding_options *);
    const uint8_t *(*plane)(const struct heif_image *, enum heif_channel, int *);
    int (*image_width)(const struct heif_image *, enum heif_channel);
    int (*image_height)(const struct heif_image *, enum heif_channel);
    void (*image_release)(const struct heif_image *);
} magpie__heif;

static int magpie__heif_bind(void *h, char *why, size_t why_size) {
    int missing = 0;
#define MAGPIE__LOAD(field, symbol) MAGPIE__LAZY_SYM(magpie__heif, h, missing, field, symbol)
    MAGPIE__LOAD(major, "heif_get_version_number_major");
    MAGPIE__LOAD(minor, "heif_get_version_number_minor");
    MAGPIE__LOAD(init, "heif_init");
    MAGPIE__LOAD(context_alloc, "heif_context_alloc");
    MAGPIE__LOAD(context_free, "heif_context_free");
    MAGPIE__LOAD(size_limit, "heif_context_set_maximum_image_size_limit");
    MAGPIE__LOAD(read_memory, "heif_context_read_from_memory_without_copy");
    MAGPIE__LOAD(primary, "heif_context_get_primary_image_handle");
    MAGPIE__LOAD(handle_release, "heif_image_handle_release");
    MAGPIE__LOAD(width, "heif_image_handle_get_ispe_width"); /* before irot, as the probe */
    MAGPIE__LOAD(height, "heif_image_handle_get_ispe_height");
    MAGPIE__LOAD(has_alpha, "heif_image_handle_has_alpha_channel");
    MAGPIE__LOAD(premultiplied, "heif_image_handle_is_premultiplied_alpha");
    MAGPIE__LOAD(thumbnail_count, "heif_image_handle_get_number_of_thumbnails");
    MAGPIE__LOAD(thumbnail_ids, "heif_image_handle_get_list_of_thumbnail_IDs");
    MAGPIE__LOAD(thumbnail, "heif_image_handle_get_thumbnail");
    MAGPIE__LOAD(profile_type, "heif_image_handle_get_color_profile_type");
    MAGPIE__LOAD(profile_size, "heif_image_handle_get_raw_color_profile_size");
    MAGPIE__LOAD(profile, "heif_image_handle_get_raw_color_profile");
    MAGPIE__LOAD(nclx, "heif_image_handle_get_nclx_color_profile");
    MAGPIE__LOAD(nclx_free, "heif_nclx_color_profile_free");
    MAGPIE__LOAD(options_alloc, "heif_decoding_options_alloc");
    MAGPIE__LOAD(options_free, "heif_decoding_options_free");
    MAGPIE__LOAD(decode, "heif_decode_image");
    MAGPIE__LOAD(plane, "heif_image_get_plane_readonly");
    MAGPIE__LOAD(image_width, "heif_image_get_width");
    MAGPIE__LOAD(image_height, "heif_image_get_height");
    MAGPIE__LOAD(image_release, "heif_image_release");
#undef MAGPIE__LOAD
    if (missing || magpie__heif.major() != 1 || magpie__heif.minor() < 13) {
        snprintf(why, why_size, "libheif %d.%d is not the 1.13 or later this build expects",
                 missing ? 0 : magpie__heif.major(), missing ? 0 : magpie__heif.minor());
        return -1;
    }
    magpie__heif.init(NULL); /* its plugins (libde265) registered once, for the life of the process */
    return 0;
}

static magpie__lazy magpie__heif_lib = MAGPIE__LAZY_INIT("libheif.so.1", magpie__heif_bind);

int magpie__heic_available(void) { return magpie__lazy_available(&magpie__heif_lib); }

static int magpie__heif_status(magpie__job *job, struct heif_error e, const char *stage) {
    if (e.code == heif_error_Ok) return MAGPIE_OK;
    magpie__detail(job, "%s: %s", stage, e.message ? e.message : "libheif failed");
    switch (e.code) {
    case heif_error_Memory_allocation_error: return MAGPIE_ENOMEM;
    case heif_error_Unsupported_feature:
    case heif_error_Unsupported_filetype: return MAGPIE_EUNSUPPORTED;
    default: return e.subcode == heif_suberror_End_of_data ? MAGPIE_ETRUNCATED : MAGPIE_ECORRUPT;
    }
}

/* The thumbnail to decode instead, when one is at least the output's stored size and has the
 * image's shape (within a pixel of rounding); else NULL. */
static struct heif_image_handle *magpie__heif_thumbnail(magpie__job *job, const struct heif_image_handle *main) {
    heif_item_id ids[8];
    int n = magpie__heif.thumbnail_ids(main, ids, 8);
    struct heif_image_handle *best = NULL;
    const double W = job->info.width, H = job->info.height;
    for (int i = 0; i < n; i++) {
        struct heif_image_handle *t = NULL;
        if (magpie__heif.thumbnail(main, ids[i], &t).code != heif_error_Ok || !t) continue;
        int tw = magpie__heif.width(t), th = magpie__heif.height(t);
        int shaped = tw > 0 && th > 0 && (tw * H / W - th) < 1.0 && (th - tw * H / W) < 1.0;
        int big = (uint32_t)tw >= job->st_w && (uint32_t)th >= job->st_h && (uint32_t)tw < job->info.width;
        if (shaped && big && (!best || tw < magpie__heif.width(best))) {
            if (best) magpie__heif.handle_release(best);
            best = t;
        } else {
            magpie__heif.handle_release(t);
        }
    }
    return best;
}

/* Pushes the decoded picture's rows (RGB or RGBA, interleaved) into the job's sink. */
static int magpie__heif_deliver(magpie__job *job, const struct heif_image *img, uint32_t w, uint32_t h, int alpha,
                                int premultiplied) {
    int stride = 0;
    /* The picture libheif made must be the size the header promised (a grid's own output size can
     * differ from its ispe): rows are read by that size. */
    int dw = magpie__heif.image_width(img, heif_channel_interleaved), dh = magpie__heif.image_height(img, heif_channel_interleaved);
    if (dw != (int)w || dh != (int)h) {
        magpie__detail(job, "the decoded picture is %dx%d, its header says %ux%u", dw, dh, w, h);
        return MAGPIE_ECORRUPT;
    }
    const uint8_t *px = magpie__heif.plane(img, heif_channel_interleaved, &stride);
    if (!px || stride < (int)(w * (alpha ? 4 : 3))) return MAGPIE_EINTERNAL;
    magpie__geometry g;
    magpie__job_geometry(job, w, h, &g);
    uint64_t need = (uint64_t)w * 4 + magpie__sink_bytes(&g);
    int rc = magpie__charge(job, need);
    if (rc) return rc;
    uint8_t *row = malloc((size_t)w * 4);
    magpie__sink *sink = NULL;
    if (!row) rc = MAGPIE_ENOMEM;
    else rc = magpie__sink_create(&g, job->dst, job->dst_stride, &sink);
    if (!rc && !alpha) magpie__sink_set_opaque(sink);
    for (uint32_t y = 0; !rc && y < h; y++) {
        const uint8_t *s = px + (size_t)y * (size_t)stride;
        uint8_t *o = row;
        for (uint32_t x = 0; x < w; x++, o += 4, s += alpha ? 4 : 3) {
            o[0] = s[0], o[1] = s[1], o[2] = s[2], o[3] = alpha ? s[3] : 255;
            if (premultiplied && o[3] < 255)
                for (int c = 0; c < 3; c++) {
                    uint32_t u = o[3] ? (o[c] * 255u + o[3] / 2) / o[3] : 0;
                    o[c] = (uint8_t)(u > 255 ? 255 : u);
                }
        }
        magpie__sink_push(sink, row);
    }
    if (!rc) rc = magpie__sink_finish(sink);
    magpie__sink_destroy(sink);
    free(row);
    magpie__uncharge(job, need);
    return rc;
}

static void magpie__heif_colour(magpie__job *job, const struct heif_image_handle *h) {
    enum heif_color_profile_type type = magpie__heif.profile_type(h);
    if (type == heif_color_profile_type_prof || type == heif_color_profile_type_rICC) {
        size_t n = magpie__heif.profile_size(h);
        uint8_t *p = n && n <= MAGPIE__ICC_MAX_BYTES ? malloc(n) : NULL;
        if (p && magpie__heif.profile(h, p).code == heif_error_Ok) magpie__job_set_profile(job, p, n);
        else job->color_flags |= MAGPIE_IMAGE_PROFILE_IGNORED;
        free(p);
    } else if (type == heif_color_profile_type_nclx) {
        struct heif_color_profile_nclx *c = NULL;
        if (magpie__heif.nclx(h, &c).code == heif_error_Ok && c)
            magpie__job_set_cicp(job, (uint32_t)c->color_primaries, (uint32_t)c->transfer_characteristics);
        if (c) magpie__heif.nclx_free(c);
    }
}

/* A context over the whole input and its primary image (`*ctx` to free even on failure). */
static int magpie__heif_open(magpie__job *job, const uint8_t *data, struct heif_context **ctx,
                             struct heif_image_handle **main) {
    if (!(*ctx = magpie__heif.context_alloc())) return MAGPIE_ENOMEM;
    /* libheif's own bound on a side of every image it makes, tiles and overlays (an 'iovl' canvas
     * is sized by its own data, past the 'ispe' and grid sizes the probe checked): twice the
     * primary's longer side and 1024 more (tiles overhang a grid's output by less than a tile). */
    uint64_t side = 2 * (uint64_t)(job->info.width > job->info.height ? job->info.width : job->info.height) + 1024;
    magpie__heif.size_limit(*ctx, side < (1u << 16) ? (int)side : 1 << 16);
    int rc = magpie__heif_status(job, magpie__heif.read_memory(*ctx, data, (size_t)job->in->size, NULL), "parse");
    return rc ? rc : magpie__heif_status(job, magpie__heif.primary(*ctx, main), "primary image");
}

int magpie__decode_heic(magpie__job *job) {
    const char *unavailable = magpie__lazy_ready(&magpie__heif_lib);
    if (unavailable) {
        magpie__detail(job, "%s", unavailable);
        return MAGPIE_EUNSUPPORTED;
    }
    if (job->first_frame != 0) return MAGPIE_ERANGE;
    const uint8_t *data;
    uint8_t *owned = NULL;
    int rc = magpie__whole_input(job, &data, &owned);
    if (rc) return rc;
    struct heif_context *ctx = NULL;
    struct heif_image_handle *main = NULL, *thumb = NULL;
    struct heif_decoding_options *opts = NULL;
    struct heif_image *img = NULL;
    uint64_t charged = 0;
    if ((rc = magpie__heif_open(job, data, &ctx, &main))) goto out;
    magpie__heif_colour(job, main);
    thumb = magpie__heif_thumbnail(job, main);
    const struct heif_image_handle *use = thumb ? thumb : main;
    /* The size the probe found (a grid's from its data); the decoded picture must have it. */
    uint32_t w = thumb ? (uint32_t)magpie__heif.width(thumb) : job->info.width;
    uint32_t h = thumb ? (uint32_t)magpie__heif.height(thumb) : job->info.height;
    int alpha = magpie__heif.has_alpha(use) != 0;
    /* The HEVC planes (up to 16 bits, 4:4:4 and alpha) and the interleaved copy libheif makes. */
    charged = (uint64_t)w * h * (8 + (alpha ? 4 : 3));
    if ((rc = magpie__charge(job, charged))) {
        charged = 0;
        goto out;
    }
    if (!(opts = magpie__heif.options_alloc())) {
        rc = MAGPIE_ENOMEM;
        goto out;
    }
    opts->ignore_transformations = 1; /* irot/imir: the probe's orientation; clap: not applied */
    rc = magpie__heif_status(job,
                             magpie__heif.decode(use, &img, heif_colorspace_RGB,
                                                 alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, opts),
                             "decode");
    if (!rc) rc = magpie__heif_deliver(job, img, w, h, alpha, magpie__heif.premultiplied(use) != 0);
out:
    if (img) magpie__heif.image_release(img);
    if (opts) magpie__heif.options_free(opts);
    if (thumb) magpie__heif.handle_release(thumb);
    if (main) magpie__heif.handle_release(main);
    if (ctx) magpie__heif.context_free(ctx);
    magpie__uncharge(job, charged);
    magpie__whole_input_free(job, owned);
    return rc;
}

#else

int magpie__heic_available(void) { return 0; }

int magpie__decode_heic(magpie__job *job) {
    magpie__detail(job, "this build of magpie has no HEIC decoder");
    return MAGPIE_EUNSUPPORTED;
}

#endif
