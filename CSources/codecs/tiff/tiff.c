/* TIFF decoding through libtiff, loaded on the first TIFF decode (lazy.c): a page (the first unless
 * MAGPIE_DECODE_ONE_FRAME's frame_index names another; the probe counted them), strips
 * or tiles, 1 to 16 bits, every photometric libtiff's RGBA interface knows (grey, RGB, palette,
 * YCbCr, CMYK, CIE Lab), associated alpha made straight, the ICC profile tag. Rows come out a
 * band at a time (a strip's or a tile row's height) in stored order; the orientation tag reaches
 * the resampler as an EXIF orientation (the probe reads it). libtiff is held to the memory limit
 * by its own per-allocation cap, and every strip or tile buffer is sized from the IFD and charged
 * before it is read. CMYK is converted by libtiff's plain formula, so a CMYK TIFF's profile is
 * not used (the flag says so). */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/codec.h"
#include "colour/icc.h"

#ifdef MAGPIE_HAVE_TIFF
#include <tiffio.h>

#include "util/lazy.h"

static struct {
    const char *(*version)(void);
    TIFFOpenOptions *(*options_alloc)(void);
    void (*options_free)(TIFFOpenOptions *);
    void (*options_max_alloc)(TIFFOpenOptions *, tmsize_t);
    void (*options_error)(TIFFOpenOptions *, TIFFErrorHandlerExtR, void *);
    void (*options_warning)(TIFFOpenOptions *, TIFFErrorHandlerExtR, void *);
    TIFF *(*client_open)(const char *, const char *, thandle_t, TIFFReadWriteProc, TIFFReadWriteProc, TIFFSeekProc,
                         TIFFCloseProc, TIFFSizeProc, TIFFMapFileProc, TIFFUnmapFileProc, TIFFOpenOptions *);
    void (*close)(TIFF *);
    int (*get_field)(TIFF *, uint32_t, ...);
    int (*set_directory)(TIFF *, tdir_t);
    int (*is_tiled)(TIFF *);
    uint64_t (*strip_size)(TIFF *);
    uint64_t (*tile_size)(TIFF *);
    int (*rgba_ok)(TIFF *, char[1024]);
    int (*rgba_begin)(TIFFRGBAImage *, TIFF *, int, char[1024]);
    int (*rgba_get)(TIFFRGBAImage *, uint32_t *, uint32_t, uint32_t);
    void (*rgba_end)(TIFFRGBAImage *);
} magpie__tiff;

static int magpie__tiff_bind(void *h, char *why, size_t why_size) {
    int missing = 0;
#define MAGPIE__LOAD(field, symbol) MAGPIE__LAZY_SYM(magpie__tiff, h, missing, field, symbol)
    MAGPIE__LOAD(version, "TIFFGetVersion");
    MAGPIE__LOAD(options_alloc, "TIFFOpenOptionsAlloc");
    MAGPIE__LOAD(options_free, "TIFFOpenOptionsFree");
    MAGPIE__LOAD(options_max_alloc, "TIFFOpenOptionsSetMaxSingleMemAlloc");
    MAGPIE__LOAD(options_error, "TIFFOpenOptionsSetErrorHandlerExtR");
    MAGPIE__LOAD(options_warning, "TIFFOpenOptionsSetWarningHandlerExtR");
    MAGPIE__LOAD(client_open, "TIFFClientOpenExt");
    MAGPIE__LOAD(close, "TIFFClose");
    MAGPIE__LOAD(get_field, "TIFFGetField");
    MAGPIE__LOAD(set_directory, "TIFFSetDirectory");
    MAGPIE__LOAD(is_tiled, "TIFFIsTiled");
    MAGPIE__LOAD(strip_size, "TIFFStripSize64");
    MAGPIE__LOAD(tile_size, "TIFFTileSize64");
    MAGPIE__LOAD(rgba_ok, "TIFFRGBAImageOK");
    MAGPIE__LOAD(rgba_begin, "TIFFRGBAImageBegin");
    MAGPIE__LOAD(rgba_get, "TIFFRGBAImageGet");
    MAGPIE__LOAD(rgba_end, "TIFFRGBAImageEnd");
#undef MAGPIE__LOAD
    /* The per-open options (error handlers, the allocation cap) came with 4.5. */
    if (missing) {
        snprintf(why, why_size, "libtiff is older than the 4.5 this build needs (TIFFOpenOptions missing)");
        return -1;
    }
    const char *v = magpie__tiff.version(), *at = strstr(v, "Version 4.");
    if (!at) {
        snprintf(why, why_size, "libtiff %.40s is not the 4.x this build expects", v);
        return -1;
    }
    return 0;
}

static magpie__lazy magpie__tiff_lib = MAGPIE__LAZY_INIT("libtiff.so.6", magpie__tiff_bind);

int magpie__tiff_available(void) { return magpie__lazy_available(&magpie__tiff_lib); }

/* ---- libtiff reads through the job's input ---- */

typedef struct {
    magpie__job *job;
    uint64_t pos;
    int short_read;
    char message[200];
} magpie__tiff_io;

static tmsize_t magpie__tiff_read(thandle_t h, void *buf, tmsize_t n) {
    magpie__tiff_io *io = h;
    if (n < 0) return -1;
    size_t got = magpie__read(io->job->in, io->pos, buf, (size_t)n);
    io->pos += got;
    if (got < (size_t)n) io->short_read = 1;
    return (tmsize_t)got;
}

static tmsize_t magpie__tiff_write(thandle_t h, void *buf, tmsize_t n) { return (void)h, (void)buf, (void)n, -1; }

static toff_t magpie__tiff_seek(thandle_t h, toff_t off, int whence) {
    magpie__tiff_io *io = h;
    uint64_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? io->pos : io->job->in->size;
    io->pos = base + off;
    return io->pos;
}

static int magpie__tiff_close(thandle_t h) { return (void)h, 0; }
static toff_t magpie__tiff_size(thandle_t h) { return ((magpie__tiff_io *)h)->job->in->size; }
static int magpie__tiff_map(thandle_t h, void **base, toff_t *size) { return (void)h, (void)base, (void)size, 0; }
static void magpie__tiff_unmap(thandle_t h, void *base, toff_t size) { (void)h, (void)base, (void)size; }

static int magpie__tiff_error(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap) {
    (void)tif, (void)module;
    magpie__tiff_io *io = user;
    if (!io->message[0]) vsnprintf(io->message, sizeof io->message, fmt, ap);
    return 1;
}

static int magpie__tiff_warning(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap) {
    (void)tif, (void)user, (void)module, (void)fmt, (void)ap;
    return 1; /* unknown tags and the like: not printed */
}

static int magpie__tiff_fail(magpie__job *job, magpie__tiff_io *io, const char *stage) {
    magpie__detail(job, "%s: %s", stage, io->message[0] ? io->message : "libtiff failed");
    if (job->in->io_error) return MAGPIE_EIO;
    return io->short_read ? MAGPIE_ETRUNCATED : MAGPIE_ECORRUPT;
}

/* A row of the band to RGBA8 with straight alpha (libtiff packs R, G, B, A from the low byte, and
 * hands alpha premultiplied, unassociated alpha included). */
static void magpie__tiff_row(const uint32_t *px, uint8_t *out, uint32_t w, int premultiplied) {
    for (uint32_t x = 0; x < w; x++, out += 4) {
        uint32_t v = px[x], a = TIFFGetA(v);
        out[0] = (uint8_t)TIFFGetR(v), out[1] = (uint8_t)TIFFGetG(v), out[2] = (uint8_t)TIFFGetB(v), out[3] = (uint8_t)a;
        if (premultiplied && a < 255)
            for (int c = 0; c < 3; c++) {
                uint32_t u = a ? (out[c] * 255u + a / 2) / a : 0;
                out[c] = (uint8_t)(u > 255 ? 255 : u);
            }
    }
}

static int magpie__tiff_pixels(magpie__job *job, magpie__tiff_io *io, TIFF *tif) {
    uint32_t w = 0, h = 0, band = 0, icc_n = 0;
    uint16_t photometric = 0, planar = PLANARCONFIG_CONTIG, samples = 1;
    void *icc = NULL;
    magpie__tiff.get_field(tif, TIFFTAG_IMAGEWIDTH, &w);
    magpie__tiff.get_field(tif, TIFFTAG_IMAGELENGTH, &h);
    if (w != job->info.width || h != job->info.height) {
        magpie__detail(job, "image is %ux%u, the header says %ux%u", w, h, job->info.width, job->info.height);
        return MAGPIE_ECORRUPT;
    }
    char emsg[1024] = "";
    if (!magpie__tiff.rgba_ok(tif, emsg)) {
        magpie__detail(job, "%s", emsg);
        return MAGPIE_EUNSUPPORTED;
    }
    magpie__tiff.get_field(tif, TIFFTAG_PHOTOMETRIC, &photometric);
    magpie__tiff.get_field(tif, TIFFTAG_PLANARCONFIG, &planar);
    magpie__tiff.get_field(tif, TIFFTAG_SAMPLESPERPIXEL, &samples);
    if (magpie__tiff.get_field(tif, TIFFTAG_ICCPROFILE, &icc_n, &icc) && icc && icc_n) {
        if (photometric == PHOTOMETRIC_SEPARATED) job->color_flags |= MAGPIE_IMAGE_PROFILE_IGNORED;
        else magpie__job_set_profile(job, icc, icc_n);
    }
    /* A band is a strip's rows or a row of tiles: libtiff decodes each strip or tile once. */
    uint64_t chunk;
    if (magpie__tiff.is_tiled(tif)) {
        magpie__tiff.get_field(tif, TIFFTAG_TILELENGTH, &band);
        chunk = magpie__tiff.tile_size(tif);
    } else {
        band = h;
        magpie__tiff.get_field(tif, TIFFTAG_ROWSPERSTRIP, &band);
        chunk = magpie__tiff.strip_size(tif);
    }
    if (band == 0 || band > h) band = h;
    if (planar == PLANARCONFIG_SEPARATE) chunk *= samples;
    magpie__geometry g;
    magpie__job_geometry(job, w, h, &g);
    uint64_t raster = (uint64_t)w * band * 4, need = chunk + raster + (uint64_t)w * 4 + magpie__sink_bytes(&g);
    if (chunk == 0) return magpie__tiff_fail(job, io, "strip size");
    int rc = magpie__charge(job, need);
    if (rc) return rc;
    uint32_t *px = malloc((size_t)raster);
    uint8_t *row = malloc((size_t)w * 4);
    magpie__sink *sink = NULL;
    TIFFRGBAImage img;
    int begun = 0;
    if (!px || !row) {
        rc = MAGPIE_ENOMEM;
        goto out;
    }
    if (!(begun = magpie__tiff.rgba_begin(&img, tif, 0, emsg))) {
        magpie__detail(job, "%s", emsg);
        rc = MAGPIE_EUNSUPPORTED;
        goto out;
    }
    img.req_orientation = img.orientation; /* rows as stored: the orientation is applied later */
    if ((rc = magpie__sink_create(&g, job->dst, job->dst_stride, &sink))) goto out;
    if (!img.alpha) magpie__sink_set_opaque(sink);
    for (uint32_t y = 0; y < h; y += band) {
        uint32_t rows = h - y < band ? h - y : band;
        img.row_offset = (int)y;
        img.col_offset = 0;
        if (!magpie__tiff.rgba_get(&img, px, w, rows)) {
            rc = magpie__tiff_fail(job, io, "pixels");
            goto out;
        }
        for (uint32_t r = 0; r < rows; r++) {
            magpie__tiff_row(px + (size_t)r * w, row, w, img.alpha != 0);
            magpie__sink_push(sink, row);
        }
    }
    /* libtiff fills a strip cut short with zeros after a warning: a cut file is refused here. */
    if (io->short_read) {
        magpie__detail(job, "pixel data runs past the end of the data");
        rc = job->in->io_error ? MAGPIE_EIO : MAGPIE_ETRUNCATED;
        goto out;
    }
    rc = magpie__sink_finish(sink);
out:
    if (begun) magpie__tiff.rgba_end(&img);
    magpie__sink_destroy(sink);
    free(px);
    free(row);
    magpie__uncharge(job, need);
    return rc;
}

int magpie__decode_tiff(magpie__job *job) {
    const char *unavailable = magpie__lazy_ready(&magpie__tiff_lib);
    if (unavailable) {
        magpie__detail(job, "%s", unavailable);
        return MAGPIE_EUNSUPPORTED;
    }
    magpie__tiff_io io = {.job = job};
    TIFFOpenOptions *opts = magpie__tiff.options_alloc();
    if (!opts) return MAGPIE_ENOMEM;
    /* libtiff's own allocations (strip offsets, a tag's values, its codec state) held to what
     * the job has left. */
    uint64_t room = job->opt.limits.max_bytes > job->used ? job->opt.limits.max_bytes - job->used : 0;
    magpie__tiff.options_max_alloc(opts, (tmsize_t)(room < ((uint64_t)1 << 40) ? room : (uint64_t)1 << 40));
    magpie__tiff.options_error(opts, magpie__tiff_error, &io);
    magpie__tiff.options_warning(opts, magpie__tiff_warning, &io);
    TIFF *tif = magpie__tiff.client_open("magpie", "rm", &io, magpie__tiff_read, magpie__tiff_write, magpie__tiff_seek,
                                         magpie__tiff_close, magpie__tiff_size, magpie__tiff_map, magpie__tiff_unmap,
                                         opts);
    magpie__tiff.options_free(opts);
    if (!tif) return magpie__tiff_fail(job, &io, "open");
    int rc = MAGPIE_OK;
    if (job->first_frame && !magpie__tiff.set_directory(tif, (tdir_t)job->first_frame))
        rc = magpie__tiff_fail(job, &io, "page");
    if (!rc) rc = magpie__tiff_pixels(job, &io, tif);
    magpie__tiff.close(tif);
    return rc;
}

#else

int magpie__tiff_available(void) { return 0; }

int magpie__decode_tiff(magpie__job *job) {
    magpie__detail(job, "this build of magpie has no TIFF decoder");
    return MAGPIE_EUNSUPPORTED;
}

#endif
