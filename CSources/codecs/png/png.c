/* PNG decoding through libpng: every colour type and depth to RGBA8, rows streamed into the
 * resampler (interlaced images need the whole image), errors contained with setjmp. */
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

#include "core/codec.h"
#include "colour/icc.h"

typedef struct {
    magpie__job *job;
    uint64_t pos;
    int truncated;
    int missing_data; /* libpng warned that image data ran short */
    char message[160];
    magpie__sink *sink;
    uint8_t *rows;    /* one row, or the whole image when interlaced */
    png_bytep *ptrs;
    uint64_t charged;
} magpie__png_state;

static void magpie__png_read(png_structp png, png_bytep out, size_t len) {
    magpie__png_state *st = png_get_io_ptr(png);
    size_t got = magpie__read(st->job->in, st->pos, out, len);
    st->pos += got;
    if (got < len) {
        st->truncated = 1;
        png_error(png, st->job->in->io_error ? "read error" : "unexpected end of PNG data");
    }
}

static void magpie__png_error(png_structp png, png_const_charp msg) {
    magpie__png_state *st = png_get_error_ptr(png);
    strncpy(st->message, msg ? msg : "libpng error", sizeof st->message - 1);
    png_longjmp(png, 1);
}

static void magpie__png_warning(png_structp png, png_const_charp msg) {
    magpie__png_state *st = png_get_error_ptr(png);
    /* Benign oddities are tolerated; image data that runs short would be invented pixels. */
    if (msg && (strstr(msg, "Not enough image data") || strstr(msg, "Truncated compressed data") ||
                strstr(msg, "Damaged compressed datastream"))) {
        st->missing_data = 1;
        strncpy(st->message, msg, sizeof st->message - 1);
    }
}

/* libpng allocates a chunk's declared length before reading it (tEXt, iCCP, …) and, in the
 * version Debian ships, does not hold that to png_set_chunk_malloc_max: a 500-byte file declaring
 * a 2 GB tEXt chunk makes it allocate 2 GB. So the chunk list is walked first: any chunk other
 * than image data (IDAT, fdAT, which libpng streams) must fit in the file and stay under 16 MiB. */
#define MAGPIE_PNG_MAX_CHUNK (16u << 20)
static int magpie__png_check_chunks(magpie__job *job) {
    uint64_t at = 8;
    const uint8_t *h;
    while ((h = magpie__peek(job->in, at, 8)) != NULL) {
        uint32_t len = magpie__be32(h);
        int image_data = memcmp(h + 4, "IDAT", 4) == 0 || memcmp(h + 4, "fdAT", 4) == 0;
        if (len > 0x7fffffffu) {
            magpie__detail(job, "chunk length %u is invalid", len);
            return MAGPIE_ECORRUPT;
        }
        if (!image_data && len > MAGPIE_PNG_MAX_CHUNK) {
            magpie__detail(job, "%.4s chunk of %u bytes is over the %u-byte limit", (const char *)h + 4, len,
                           MAGPIE_PNG_MAX_CHUNK);
            return MAGPIE_ECORRUPT;
        }
        if (!image_data && (uint64_t)len + 12 > job->in->size - at) {
            magpie__detail(job, "%.4s chunk runs past the end of the data", (const char *)h + 4);
            return MAGPIE_ETRUNCATED;
        }
        if (memcmp(h + 4, "IEND", 4) == 0) break;
        at += (uint64_t)len + 12;
    }
    return job->in->io_error ? MAGPIE_EIO : MAGPIE_OK;
}

int magpie__decode_png(magpie__job *job) {
    if (job->first_frame != 0) return MAGPIE_ERANGE;
    int checked = magpie__png_check_chunks(job);
    if (checked != MAGPIE_OK) return checked;
    magpie__png_state *st = calloc(1, sizeof *st);
    if (!st) return MAGPIE_ENOMEM;
    st->job = job;
    int rc = MAGPIE_OK;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, st, magpie__png_error, magpie__png_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_read_struct(png ? &png : NULL, NULL, NULL);
        free(st);
        return MAGPIE_ENOMEM;
    }
    if (setjmp(png_jmpbuf(png))) {
        /* Data cut off even after the image rows (a damaged IEND) is refused, as libpng's own
         * full read refuses it. */
        rc = job->in->io_error ? MAGPIE_EIO : st->truncated ? MAGPIE_ETRUNCATED : MAGPIE_ECORRUPT;
        magpie__detail(job, "%s", st->message);
        goto done;
    }
    png_set_read_fn(png, st, magpie__png_read);
    png_set_user_limits(png, 0x7fffffff, 0x7fffffff); /* the pixel limit is ours, checked earlier */
    png_set_chunk_malloc_max(png, 16u << 20);
    /* A CRC error fails the decode in every chunk: libpng's default only warns and drops an
     * ancillary chunk (iCCP, tEXt, an unknown cLLI), which hides a damaged file. */
    png_set_crc_action(png, PNG_CRC_DEFAULT, PNG_CRC_ERROR_QUIT);
    st->pos = 0;
    png_read_info(png, info);
    png_charp profile_name = NULL;
    png_bytep profile = NULL;
    png_uint_32 profile_size = 0;
    int profile_compression = 0;
    if (png_get_iCCP(png, info, &profile_name, &profile_compression, &profile, &profile_size) && profile) {
        magpie__job_set_profile(job, profile, profile_size);
    } else if (!png_get_valid(png, info, PNG_INFO_sRGB)) {
        double gamma = 0, c[8];
        int has_gamma = png_get_gAMA(png, info, &gamma) != 0;
        int has_chrm = png_get_cHRM(png, info, &c[0], &c[1], &c[2], &c[3], &c[4], &c[5], &c[6], &c[7]) != 0;
        if (has_gamma || has_chrm) magpie__job_set_png_colour(job, has_gamma ? gamma : 0, has_chrm ? c : NULL);
    }
    png_uint_32 w = png_get_image_width(png, info), h = png_get_image_height(png, info);
    if (w != job->info.width || h != job->info.height) {
        rc = MAGPIE_ECORRUPT;
        goto done;
    }
    int ct = png_get_color_type(png, info);
    png_set_expand(png);
    png_set_scale_16(png);
    if (ct == PNG_COLOR_TYPE_GRAY || ct == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    if (!(ct & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS))
        png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)w * 4) {
        rc = MAGPIE_EINTERNAL;
        goto done;
    }
    magpie__geometry g;
    magpie__job_geometry(job, w, h, &g);
    size_t buf;
    if (magpie__mul3(w, passes > 1 ? h : 1, 4, &buf)) {
        rc = MAGPIE_ELIMIT_MEMORY;
        goto done;
    }
    uint64_t need = buf + magpie__sink_bytes(&g) + (passes > 1 ? (uint64_t)h * sizeof(png_bytep) : 0);
    if ((rc = magpie__charge(job, need))) goto done;
    st->charged = need;
    st->rows = malloc(buf);
    if (!st->rows) {
        rc = MAGPIE_ENOMEM;
        goto done;
    }
    if ((rc = magpie__sink_create(&g, job->dst, job->dst_stride, &st->sink))) goto done;
    if (passes > 1) {
        st->ptrs = malloc((size_t)h * sizeof *st->ptrs);
        if (!st->ptrs) {
            rc = MAGPIE_ENOMEM;
            goto done;
        }
        for (png_uint_32 y = 0; y < h; y++) st->ptrs[y] = st->rows + (size_t)y * w * 4;
        png_read_image(png, st->ptrs);
        if (st->missing_data) goto missing;
        for (png_uint_32 y = 0; y < h; y++) magpie__sink_push(st->sink, st->ptrs[y]);
    } else {
        for (png_uint_32 y = 0; y < h; y++) {
            uint8_t *direct = magpie__sink_direct_row(st->sink);
            png_read_row(png, direct ? direct : st->rows, NULL);
            if (st->missing_data) goto missing;
            magpie__sink_push(st->sink, direct ? NULL : st->rows);
        }
    }
    png_read_end(png, NULL);
    if (st->missing_data) goto missing;
    rc = magpie__sink_finish(st->sink);
    if (job->delays_ms) job->delays_ms[0] = 0;
    goto done;
missing:
    rc = MAGPIE_ETRUNCATED;
    magpie__detail(job, "%s", st->message);
done:
    png_destroy_read_struct(&png, &info, NULL);
    magpie__sink_destroy(st->sink);
    free(st->rows);
    free(st->ptrs);
    magpie__uncharge(job, st->charged);
    free(st);
    return rc;
}
