/* Colour profiles through lcms2: a transform from an embedded ICC profile to sRGB, built once per
 * profile and kept in a small cache shared by every thread. A profile is hostile input: each is
 * opened in an lcms2 context of its own whose allocations are counted and capped, lcms2's error
 * messages go nowhere, and whatever lcms2 refuses is the caller's to ignore (the image is then
 * decoded as untagged). Rendering intent: relative colorimetric, libvips's default. */
#include <lcms2_plugin.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "colour/icc.h"

#define MAGPIE__ICC_CONTEXT_CAP (16u << 20) /* what lcms2 may allocate for one profile's transform */
#define MAGPIE__ICC_CACHE_BYTES (32u << 20) /* what the cached transforms may hold together */
#define MAGPIE__ICC_CACHE_SLOTS 8

/* ---- an lcms2 context whose allocations are counted: a size header before each block ---- */
typedef struct {
    size_t used; /* atomic */
} magpie__cms_budget;

#define MAGPIE__CMS_HEADER 16u

static void *magpie__cms_malloc(cmsContext ctx, cmsUInt32Number size) {
    magpie__cms_budget *b = cmsGetContextUserData(ctx);
    if (b && __atomic_add_fetch(&b->used, size, __ATOMIC_RELAXED) > MAGPIE__ICC_CONTEXT_CAP) {
        __atomic_sub_fetch(&b->used, size, __ATOMIC_RELAXED);
        return NULL;
    }
    uint8_t *p = malloc((size_t)size + MAGPIE__CMS_HEADER);
    if (!p) {
        if (b) __atomic_sub_fetch(&b->used, size, __ATOMIC_RELAXED);
        return NULL;
    }
    memcpy(p, &(size_t){size}, sizeof(size_t));
    return p + MAGPIE__CMS_HEADER;
}

static void magpie__cms_free(cmsContext ctx, void *ptr) {
    if (!ptr) return;
    uint8_t *p = (uint8_t *)ptr - MAGPIE__CMS_HEADER;
    size_t size;
    memcpy(&size, p, sizeof size);
    magpie__cms_budget *b = cmsGetContextUserData(ctx);
    if (b) __atomic_sub_fetch(&b->used, size, __ATOMIC_RELAXED);
    free(p);
}

static void *magpie__cms_realloc(cmsContext ctx, void *ptr, cmsUInt32Number size) {
    void *fresh = magpie__cms_malloc(ctx, size);
    if (!fresh || !ptr) return fresh;
    size_t old;
    memcpy(&old, (uint8_t *)ptr - MAGPIE__CMS_HEADER, sizeof old);
    memcpy(fresh, ptr, old < size ? old : size);
    magpie__cms_free(ctx, ptr);
    return fresh;
}

static cmsPluginMemHandler magpie__cms_memory = {
    {cmsPluginMagicNumber, 2000, cmsPluginMemHandlerSig, NULL}, magpie__cms_malloc, magpie__cms_free,
    magpie__cms_realloc, NULL, NULL, NULL};

static void magpie__cms_quiet(cmsContext ctx, cmsUInt32Number code, const char *text) {
    (void)ctx, (void)code, (void)text;
}

/* ---- the transform of one profile ---- */
struct magpie__color {
    uint8_t md5[16];
    int kind;
    cmsContext ctx;
    cmsHTRANSFORM transform; /* NULL: the profile is sRGB, nothing to do */
    int gray;                /* the profile is a gray one: rows go through a gray buffer */
    int matrix;              /* RGB matrix-shaper: converted by `mx`, not lcms2 */
    magpie__icc_matrix mx;
    magpie__cms_budget budget;
    uint64_t last_use;
    int refs;   /* users now; an entry in use is never evicted */
    int cached; /* in the cache (else freed by its last release) */
};

static void magpie__color_free(magpie__color *c) {
    if (!c) return;
    if (c->transform) cmsDeleteTransform(c->transform);
    if (c->ctx) cmsDeleteContext(c->ctx);
    free(c);
}

/* Whether an RGB matrix-shaper profile is sRGB in all but name: its colorants and its tone curves
 * within rounding of sRGB's (most phone and camera JPEGs embed such a profile). */
/* Whether a profile's colours come from a matrix and curves alone. A profile may carry a LUT beside
 * them (A2B0/A2B1/A2B2, or v4's D2B0): the ICC specification, and LittleCMS, use the LUT then, so
 * neither the sRGB shortcut nor the matrix fast path may stand in for it. */
static int magpie__matrix_only(cmsHPROFILE p) {
    static const cmsTagSignature luts[] = {cmsSigAToB0Tag, cmsSigAToB1Tag, cmsSigAToB2Tag, cmsSigDToB0Tag,
                                           cmsSigDToB1Tag, cmsSigDToB2Tag};
    for (size_t i = 0; i < sizeof luts / sizeof luts[0]; i++)
        if (cmsIsTag(p, luts[i])) return 0;
    return cmsIsMatrixShaper(p);
}

static int magpie__is_srgb(cmsHPROFILE p, cmsHPROFILE srgb) {
    if (cmsGetColorSpace(p) != cmsSigRgbData || !magpie__matrix_only(p)) return 0;
    static const cmsTagSignature colorants[] = {cmsSigRedColorantTag, cmsSigGreenColorantTag,
                                               cmsSigBlueColorantTag};
    static const cmsTagSignature curves[] = {cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag};
    for (int i = 0; i < 3; i++) {
        const cmsCIEXYZ *a = cmsReadTag(p, colorants[i]), *b = cmsReadTag(srgb, colorants[i]);
        if (!a || !b || fabs(a->X - b->X) > 0.002 || fabs(a->Y - b->Y) > 0.002 || fabs(a->Z - b->Z) > 0.002)
            return 0;
        const cmsToneCurve *ca = cmsReadTag(p, curves[i]), *cb = cmsReadTag(srgb, curves[i]);
        if (!ca || !cb) return 0;
        for (int v = 0; v <= 255; v += 5) {
            float x = v / 255.0f;
            if (fabsf(cmsEvalToneCurveFloat(ca, x) - cmsEvalToneCurveFloat(cb, x)) > 0.5f / 255) return 0;
        }
    }
    return 1;
}

static int magpie__color_build(magpie__color *c, const uint8_t *icc, size_t n) {
    c->ctx = cmsCreateContext(&magpie__cms_memory, &c->budget);
    if (!c->ctx) return MAGPIE_ENOMEM;
    cmsSetLogErrorHandlerTHR(c->ctx, magpie__cms_quiet);
    cmsHPROFILE in = cmsOpenProfileFromMemTHR(c->ctx, icc, (cmsUInt32Number)n);
    cmsHPROFILE srgb = cmsCreate_sRGBProfileTHR(c->ctx);
    int rc = MAGPIE_OK;
    if (!in || !srgb) {
        rc = in ? MAGPIE_ENOMEM : MAGPIE_ECORRUPT;
        goto done;
    }
    cmsColorSpaceSignature space = cmsGetColorSpace(in);
    cmsProfileClassSignature cls = cmsGetDeviceClass(in);
    if (cls == cmsSigLinkClass || cls == cmsSigAbstractClass || cls == cmsSigNamedColorClass) {
        rc = MAGPIE_EUNSUPPORTED;
        goto done;
    }
    cmsUInt32Number in_type, out_type = TYPE_RGBA_8, flags = cmsFLAGS_NOCACHE;
    /* A profile describes the pixels only when its colour space is theirs: grey with grey, RGB
     * with RGB, CMYK with CMYK. Any other pair is ignored, as libvips ("profile incompatible
     * with image") and Pillow's LittleCMS wrapper ignore it: a grey photo carrying an RGB
     * profile keeps its levels. */
    if (c->kind == MAGPIE__ICC_RGBA && space == cmsSigRgbData) {
        if (magpie__is_srgb(in, srgb)) goto done; /* no transform: the pixels are sRGB already */
        if (magpie__matrix_only(in) && (c->matrix = magpie__icc_matrix_build(in, srgb, &c->mx))) goto done;
        in_type = TYPE_RGBA_8;
        flags |= cmsFLAGS_COPY_ALPHA;
    } else if (c->kind == MAGPIE__ICC_GRAYA && space == cmsSigGrayData) {
        c->gray = 1;
        in_type = TYPE_GRAY_8;
        out_type = TYPE_RGB_8;
    } else if ((c->kind == MAGPIE__ICC_CMYK || c->kind == MAGPIE__ICC_CMYK_INVERTED) && space == cmsSigCmykData) {
        in_type = c->kind == MAGPIE__ICC_CMYK_INVERTED ? TYPE_CMYK_8_REV : TYPE_CMYK_8;
    } else {
        rc = MAGPIE_EUNSUPPORTED; /* a profile of another colour space than the pixels' */
        goto done;
    }
    c->transform = cmsCreateTransformTHR(c->ctx, in, in_type, srgb, out_type, INTENT_RELATIVE_COLORIMETRIC, flags);
    if (!c->transform) rc = MAGPIE_ECORRUPT;
done:
    if (in) cmsCloseProfile(in);
    if (srgb) cmsCloseProfile(srgb);
    return rc;
}

/* ---- the cache ---- */
static pthread_mutex_t magpie__icc_lock = PTHREAD_MUTEX_INITIALIZER;
static magpie__color *magpie__icc_slots[MAGPIE__ICC_CACHE_SLOTS];
static uint64_t magpie__icc_clock;

static size_t magpie__icc_held(void) {
    size_t total = 0;
    for (int i = 0; i < MAGPIE__ICC_CACHE_SLOTS; i++)
        if (magpie__icc_slots[i]) total += __atomic_load_n(&magpie__icc_slots[i]->budget.used, __ATOMIC_RELAXED);
    return total;
}

/* Puts a new entry in the cache, evicting the least recently used idle ones until it fits;
 * not cached when it cannot be (every slot busy, or too large). Called with the lock held. */
static void magpie__icc_insert(magpie__color *c) {
    size_t bytes = __atomic_load_n(&c->budget.used, __ATOMIC_RELAXED);
    for (;;) {
        int free_slot = -1, oldest = -1;
        for (int i = 0; i < MAGPIE__ICC_CACHE_SLOTS; i++) {
            magpie__color *s = magpie__icc_slots[i];
            if (!s) free_slot = i;
            else if (s->refs == 0 && (oldest < 0 || s->last_use < magpie__icc_slots[oldest]->last_use)) oldest = i;
        }
        if (free_slot >= 0 && magpie__icc_held() + bytes <= MAGPIE__ICC_CACHE_BYTES) {
            magpie__icc_slots[free_slot] = c;
            c->cached = 1;
            return;
        }
        if (oldest < 0) return;
        magpie__color_free(magpie__icc_slots[oldest]);
        magpie__icc_slots[oldest] = NULL;
    }
}

int magpie__color_acquire(const uint8_t *icc, size_t n, int kind, magpie__color **out) {
    *out = NULL;
    if (!icc || n < 128 || n > MAGPIE__ICC_MAX_BYTES) return MAGPIE_ECORRUPT; /* 128: the header */
    uint8_t md5[16];
    magpie_md5(icc, n, md5);
    pthread_mutex_lock(&magpie__icc_lock);
    for (int i = 0; i < MAGPIE__ICC_CACHE_SLOTS; i++) {
        magpie__color *s = magpie__icc_slots[i];
        if (s && s->kind == kind && memcmp(s->md5, md5, 16) == 0) {
            s->refs++;
            s->last_use = ++magpie__icc_clock;
            pthread_mutex_unlock(&magpie__icc_lock);
            *out = s;
            return MAGPIE_OK;
        }
    }
    pthread_mutex_unlock(&magpie__icc_lock);
    magpie__color *c = calloc(1, sizeof *c);
    if (!c) return MAGPIE_ENOMEM;
    memcpy(c->md5, md5, 16);
    c->kind = kind;
    int rc = magpie__color_build(c, icc, n);
    if (rc) {
        magpie__color_free(c); /* a refused profile is not remembered: it costs its caller alone */
        return rc;
    }
    c->refs = 1;
    pthread_mutex_lock(&magpie__icc_lock);
    c->last_use = ++magpie__icc_clock;
    magpie__icc_insert(c);
    pthread_mutex_unlock(&magpie__icc_lock);
    *out = c;
    return MAGPIE_OK;
}

void magpie__color_release(magpie__color *c) {
    if (!c) return;
    pthread_mutex_lock(&magpie__icc_lock);
    int last = --c->refs == 0 && !c->cached;
    pthread_mutex_unlock(&magpie__icc_lock);
    if (last) magpie__color_free(c);
}

int magpie__color_is_identity(const magpie__color *c) { return !c || (!c->transform && !c->matrix); }

void magpie__color_rows(const magpie__color *c, uint8_t *px, size_t stride, uint32_t w, uint32_t h) {
    if (c && c->matrix) {
        magpie__icc_matrix_rows(&c->mx, px, stride, w, h);
        return;
    }
    if (!c || !c->transform) return;
    for (uint32_t y = 0; y < h; y++) {
        uint8_t *row = px + (size_t)y * stride;
        if (!c->gray) {
            cmsDoTransform(c->transform, row, row, w);
            if (c->kind == MAGPIE__ICC_CMYK || c->kind == MAGPIE__ICC_CMYK_INVERTED)
                for (uint32_t x = 0; x < w; x++) row[4 * x + 3] = 255; /* CMYK in, opaque RGBA out */
            continue;
        }
        /* Gray: the first channel of each pixel through the gray profile, 256 pixels at a time. */
        uint8_t gray[256], rgb[768];
        for (uint32_t x0 = 0; x0 < w; x0 += 256) {
            uint32_t n = w - x0 < 256 ? w - x0 : 256;
            for (uint32_t i = 0; i < n; i++) gray[i] = row[4 * (x0 + i)];
            cmsDoTransform(c->transform, gray, rgb, n);
            for (uint32_t i = 0; i < n; i++) memcpy(row + 4 * (x0 + i), rgb + 3 * i, 3);
        }
    }
}
