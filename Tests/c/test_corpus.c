/* Every row of the corpus manifest: probe facts, full decode, thumbnail and truncations. */
#include <stdlib.h>
#include <string.h>

#include "magpie.h"
#include "testutil.h"

static int decodable(magpie_format f) { return magpie_format_decodable(f); }

/* Decodes and, on success, checks the upright size against the probe. Returns the status. */
static int decode_checked(const tu_row *row, const uint8_t *data, size_t size, const magpie_info *info,
                          const magpie_decode_options *o) {
    magpie_image *img = NULL;
    int rc = magpie_decode(data, size, o, &img);
    if (rc == MAGPIE_OK) {
        int swap = info->orientation >= 5;
        uint32_t w = swap ? info->height : info->width, h = swap ? info->width : info->height;
        if (o->fit == MAGPIE_FIT_NONE) {
            CHECK(img->width == w && img->height == h, "%s: decoded %ux%u, want %ux%u", row->path, img->width,
                  img->height, w, h);
        } else {
            CHECK(img->width <= o->width && img->height <= o->height && img->width > 0 && img->height > 0,
                  "%s: thumbnail %ux%u not inside %ux%u", row->path, img->width, img->height, o->width, o->height);
            if (w > o->width || h > o->height)
                CHECK(img->width == o->width || img->height == o->height, "%s: thumbnail %ux%u does not touch the box",
                      row->path, img->width, img->height);
        }
        CHECK(img->frame_count >= 1 && img->pixels != NULL, "%s: no frames", row->path);
        magpie_image_free(img);
    } else {
        CHECK(img == NULL, "%s: image returned with an error", row->path);
    }
    return rc;
}

/* Whether the first `cut` bytes decode to exactly the pixels of all `size`. */
static int same_pixels(const uint8_t *data, size_t size, size_t cut, const magpie_decode_options *o) {
    magpie_image *a = NULL, *b = NULL;
    int same = magpie_decode(data, size, o, &a) == MAGPIE_OK && magpie_decode(data, cut, o, &b) == MAGPIE_OK &&
               a->width == b->width && a->height == b->height && a->stride == b->stride &&
               memcmp(a->pixels, b->pixels, (size_t)a->stride * a->height) == 0;
    magpie_image_free(a);
    magpie_image_free(b);
    return same;
}

/* The file variants read through a window; they must agree with the in-memory functions exactly. */
static void compare_file_path(const tu_row *row, const char *path, const uint8_t *data, size_t size,
                              const magpie_decode_options *o) {
    magpie_info mi, fi;
    if (size == 0) { /* no bytes is an argument error in memory, an unrecognised file on disk */
        CHECK(magpie_probe_file(path, &fi) == MAGPIE_EUNKNOWN, "%s: empty file", row->path);
        return;
    }
    int mrc = magpie_probe(data, size, &mi), frc = magpie_probe_file(path, &fi);
    CHECK(mrc == frc, "%s: probe %d in memory, %d from the file", row->path, mrc, frc);
    if (mrc == MAGPIE_OK && frc == MAGPIE_OK)
        CHECK(mi.format == fi.format && mi.width == fi.width && mi.height == fi.height && mi.frames == fi.frames &&
                  mi.orientation == fi.orientation && mi.flags == fi.flags && mi.loop_count == fi.loop_count,
              "%s: probe facts differ between memory and file", row->path);
    magpie_image *a = NULL, *b = NULL;
    mrc = magpie_decode(data, size, o, &a);
    frc = magpie_decode_file(path, o, &b);
    CHECK(mrc == frc, "%s: decode %d in memory, %d from the file", row->path, mrc, frc);
    if (a && b) {
        size_t bytes = (size_t)a->stride * a->height * a->frame_count;
        CHECK(a->width == b->width && a->height == b->height && a->frame_count == b->frame_count &&
                  memcmp(a->pixels, b->pixels, bytes) == 0,
              "%s: pixels differ between memory and file", row->path);
    }
    magpie_image_free(a);
    magpie_image_free(b);
}

/* Every row of one corpus (its MANIFEST.tsv); at least `min_rows` rows. */
static void run_corpus(const char *dir, int min_rows) {
    tu_row *rows;
    int n = tu_manifest(dir, &rows);
    CHECK(n > min_rows, "%s: manifest rows: %d", dir, n);
    int ok_rows = 0, error_rows = 0, either_rows = 0, limited = 0, truncations = 0;
    for (int i = 0; i < n; i++) {
        const tu_row *row = &rows[i];
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, row->path);
        size_t size;
        uint8_t *data = tu_read_file(path, &size);
        CHECK(data != NULL, "cannot read %s", path);
        if (!data) continue;
        magpie_info info;
        int prc = magpie_probe(data, size, &info);
        char detail[256];
        magpie_decode_options full;
        magpie_decode_options_init(&full);
        full.error_detail = detail;
        full.error_detail_size = sizeof detail;
        magpie_decode_options thumb = full;
        thumb.fit = MAGPIE_FIT_INSIDE;
        thumb.width = thumb.height = 128;

        if (strcmp(row->expected, "ok") == 0) {
            ok_rows++;
            CHECK(prc == MAGPIE_OK, "%s: probe failed: %s", row->path, magpie_strerror(prc));
            CHECK((int)info.width == row->width && (int)info.height == row->height, "%s: probed %ux%u, want %dx%d",
                  row->path, info.width, info.height, row->width, row->height);
            if (decodable(info.format)) {
                if (row->frames >= 0)
                    CHECK((int)info.frames == row->frames, "%s: %u frames, want %d", row->path, info.frames, row->frames);
                int rc = decode_checked(row, data, size, &info, &full);
                uint64_t bytes = (uint64_t)info.width * info.height * 4 * (info.format == MAGPIE_FORMAT_PNG ? 1 : info.frames);
                if (rc == MAGPIE_ELIMIT_MEMORY && bytes > MAGPIE_DEFAULT_MAX_BYTES) limited++;
                else CHECK(rc == MAGPIE_OK, "%s: full decode: %s (%s)", row->path, magpie_strerror(rc), detail);
                rc = decode_checked(row, data, size, &info, &thumb);
                CHECK(rc == MAGPIE_OK, "%s: thumbnail: %s (%s)", row->path, magpie_strerror(rc), detail);
            } else {
                int rc = decode_checked(row, data, size, &info, &full);
                CHECK(rc == MAGPIE_EUNSUPPORTED, "%s: %s decode gave %s, want unsupported", row->path,
                      magpie_format_name(info.format), magpie_strerror(rc));
            }
        } else if (strcmp(row->expected, "error") == 0) {
            error_rows++;
            int rc = decode_checked(row, data, size, &info, &full);
            CHECK(rc != MAGPIE_OK, "%s: decoded although the manifest expects an error", row->path);
            rc = decode_checked(row, data, size, &info, &thumb);
            /* A thumbnail never needs more than the full decode, so it may only fail too. */
            CHECK(rc != MAGPIE_OK || strstr(row->notes, "exceeds limit") || strstr(row->notes, "bomb"),
                  "%s: thumbnail decoded although the manifest expects an error", row->path);
        } else {
            either_rows++;
            int rc = decode_checked(row, data, size, &info, &full);
            if (rc == MAGPIE_OK && row->width >= 0)
                CHECK((int)info.width == row->width && (int)info.height == row->height, "%s: size %ux%u, want %dx%d",
                      row->path, info.width, info.height, row->width, row->height);
            decode_checked(row, data, size, &info, &thumb);
        }

        compare_file_path(row, path, data, size, &thumb);
        if (size < (1u << 20)) compare_file_path(row, path, data, size, &full);

        /* Truncations of every decodable ok file return cleanly; a success keeps the size. */
        if (strcmp(row->expected, "ok") == 0 && decodable(info.format) && size < (4u << 20)) {
            size_t cuts[] = {1, 8, 20, 64, size / 4, size / 2, size * 9 / 10, size - 1};
            for (size_t c = 0; c < sizeof cuts / sizeof *cuts; c++) {
                if (cuts[c] == 0 || cuts[c] >= size) continue;
                truncations++;
                magpie_info ti;
                magpie_probe(data, cuts[c], &ti);
                decode_checked(row, data, cuts[c], &ti, &thumb);
                /* Not for GIF (frames end anywhere), MPO (a second image follows the first), or
                 * an AVIF with several coded items (the primary may lie wholly in the first half). */
                if (cuts[c] == size / 2 && info.format != MAGPIE_FORMAT_GIF && size > 1024 && !strstr(row->notes, "MPO") &&
                    !strstr(row->notes, "items=av01 x")) {
                    int rc = decode_checked(row, data, cuts[c], &ti, &full);
                    /* Only when the half held the whole picture (an RLE bitmap whose runs leave
                     * the image before its data ends): then to the same pixels. */
                    CHECK(rc != MAGPIE_OK || same_pixels(data, size, cuts[c], &full), "%s: half the file decoded",
                          row->path);
                }
            }
        }
        free(data);
    }
    printf("%s: %d ok rows, %d error rows, %d either rows, %d truncations, %d full decodes refused by the "
           "memory limit\n", dir, ok_rows, error_rows, either_rows, truncations, limited);
    free(rows);
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : NULL;
    tu_require_corpus(dir);
    run_corpus(dir, 700);
    /* The WebP and AVIF corpus: its rows hold when the codecs are built in. */
    const char *more = argc > 2 ? argv[2] : NULL;
    if (!tu_corpus_present(more))
        printf("SKIPPED: WebP/AVIF corpus not found at %s\n", more ? more : "(no path given)");
    else if (!magpie_format_decodable(MAGPIE_FORMAT_WEBP) || !magpie_format_decodable(MAGPIE_FORMAT_AVIF))
        printf("SKIPPED: this build has no WebP or AVIF decoder; the WebP/AVIF corpus is not checked\n");
    else
        run_corpus(more, 200);
    return tu_finish("corpus");
}
