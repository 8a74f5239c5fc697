/* magpie_read_rights and magpie_write_rights: rights written into JPEG, PNG and WebP (lossy,
 * lossless, with alpha) read back and the files still decode; EXIF made by hand (big-endian,
 * inline short values, control bytes, over-long text, offsets past the end); empty rights copy
 * the file; bad arguments refused. */
#include <stdlib.h>
#include <string.h>

#include "magpie.h"
#include "testutil.h"

static uint8_t *encode(magpie_format format, int lossless, int alpha, size_t *size) {
    uint8_t px[16 * 8 * 4];
    for (int i = 0; i < 16 * 8; i++) {
        px[i * 4] = (uint8_t)(i * 2), px[i * 4 + 1] = 90, px[i * 4 + 2] = 200;
        px[i * 4 + 3] = alpha ? (uint8_t)(i % 256) : 255;
    }
    magpie_encode_options o;
    magpie_encode_options_init(&o);
    o.format = format;
    o.lossless = lossless;
    uint8_t *out = NULL;
    int rc = magpie_encode(px, 16, 8, 64, &o, &out, size);
    CHECK(rc == MAGPIE_OK, "encode %d: %d", format, rc);
    return out;
}

static void roundtrip(magpie_format format, int lossless, int alpha, const char *what) {
    size_t n = 0, m = 0;
    uint8_t *file = encode(format, lossless, alpha, &n), *with = NULL;
    if (!file) return;
    magpie_rights r = {0}, back;
    strcpy(r.copyright, "(c) 2026 Magpie Photo");
    strcpy(r.artist, "A. N. Other");
    int rc = magpie_write_rights(file, n, &r, 16, 8, &with, &m);
    CHECK(rc == MAGPIE_OK && m > n, "%s: write %d", what, rc);
    CHECK(magpie_read_rights(with, m, &back) == MAGPIE_OK && !strcmp(back.copyright, r.copyright) &&
              !strcmp(back.artist, r.artist),
          "%s: read back '%s' '%s'", what, back.copyright, back.artist);
    magpie_image *img = NULL;
    rc = magpie_decode(with, m, NULL, &img);
    CHECK(rc == MAGPIE_OK && img && img->width == 16 && img->height == 8, "%s: decode %d", what, rc);
    if (img && format == MAGPIE_FORMAT_WEBP) {
        CHECK(!memcmp(with + 12, "VP8X", 4) && (with[20] & 0x08), "%s: VP8X with EXIF", what);
        CHECK(!!(with[20] & 0x10) == !!alpha || !lossless, "%s: alpha flag %02x", what, with[20]);
    }
    magpie_image_free(img);
    /* Once more over the result (a VP8X file gains a chunk, nothing breaks). */
    uint8_t *again = NULL;
    size_t k = 0;
    strcpy(r.copyright, "x");
    CHECK(magpie_write_rights(with, m, &r, 16, 8, &again, &k) == MAGPIE_OK, "%s: twice", what);
    magpie_free(again);
    /* Empty rights: an unchanged copy. */
    magpie_rights none = {0};
    CHECK(magpie_write_rights(file, n, &none, 16, 8, &again, &k) == MAGPIE_OK && k == n && !memcmp(again, file, n),
          "%s: empty", what);
    magpie_free(again);
    magpie_free(with);
    magpie_free(file);
}

/* A JPEG of SOI, an APP1 with `tiff`, and EOI. */
static size_t jpeg_with(const uint8_t *tiff, size_t tn, uint8_t *out) {
    memcpy(out, "\xFF\xD8\xFF\xE1", 4);
    out[4] = (uint8_t)((8 + tn) >> 8), out[5] = (uint8_t)(8 + tn);
    memcpy(out + 6, "Exif\0\0", 6);
    memcpy(out + 12, tiff, tn);
    memcpy(out + 12 + tn, "\xFF\xD9", 2);
    return 14 + tn;
}

static void handmade(void) {
    /* Big-endian; Copyright "ab" inline (count 3 <= 4), Artist at offset 38 with a tab and a
     * byte over 0x7E dropped. */
    static const uint8_t be[] = {'M', 'M', 0, 42, 0, 0, 0, 8, 0, 2,
                                 0x01, 0x3B, 0, 2, 0, 0, 0, 7, 0, 0, 0, 38,
                                 0x82, 0x98, 0, 2, 0, 0, 0, 3, 'a', 'b', 0, 0,
                                 0, 0, 0, 0, 'J', '\t', 'o', 0xE9, 'e', '!', 0};
    uint8_t file[256];
    magpie_rights r;
    size_t n = jpeg_with(be, sizeof be, file);
    CHECK(magpie_read_rights(file, n, &r) == MAGPIE_OK && !strcmp(r.copyright, "ab") && !strcmp(r.artist, "Joe!"),
          "big-endian: '%s' '%s'", r.copyright, r.artist);
    /* An offset past the end and an entry count past the end: nothing read, no fault. */
    uint8_t bad[sizeof be];
    memcpy(bad, be, sizeof be);
    bad[21] = 200;
    n = jpeg_with(bad, sizeof bad, file);
    CHECK(magpie_read_rights(file, n, &r) == MAGPIE_OK && r.artist[0] == 0 && !strcmp(r.copyright, "ab"), "offset");
    bad[9] = 200;
    n = jpeg_with(bad, sizeof bad, file);
    CHECK(magpie_read_rights(file, n, &r) == MAGPIE_OK, "count");
    /* Over-long text is cut at 255 bytes. */
    magpie_rights longer = {0};
    memset(longer.copyright, 'c', 255);
    size_t pn = 0, wn = 0;
    uint8_t *png = encode(MAGPIE_FORMAT_PNG, 0, 0, &pn), *w = NULL;
    CHECK(magpie_write_rights(png, pn, &longer, 16, 8, &w, &wn) == MAGPIE_OK, "long");
    CHECK(magpie_read_rights(w, wn, &r) == MAGPIE_OK && strlen(r.copyright) == 255, "long: %zu", strlen(r.copyright));
    magpie_free(w);
    /* Not an image with EXIF: empty. */
    CHECK(magpie_read_rights("GIF89a", 6, &r) == MAGPIE_OK && !r.copyright[0], "gif");
    CHECK(magpie_read_rights(NULL, 0, &r) == MAGPIE_OK, "empty");
    /* Bad arguments. */
    CHECK(magpie_read_rights(png, pn, NULL) == MAGPIE_EINVAL, "NULL rights");
    CHECK(magpie_write_rights(png, 8, &longer, 16, 8, &w, &wn) == MAGPIE_EINVAL, "short");
    CHECK(magpie_write_rights("GIF89a......", 12, &longer, 16, 8, &w, &wn) == MAGPIE_EUNSUPPORTED, "gif out");
    size_t webn = 0;
    uint8_t *webp = encode(MAGPIE_FORMAT_WEBP, 0, 0, &webn);
    CHECK(magpie_write_rights(webp, webn, &longer, 0, 8, &w, &wn) == MAGPIE_EINVAL, "simple WebP without a size");
    webp[4] ^= 1;
    CHECK(magpie_write_rights(webp, webn, &longer, 16, 8, &w, &wn) == MAGPIE_ECORRUPT, "RIFF size");
    magpie_free(webp);
    magpie_free(png);
}

/* A JPEG whose EXIF has an orientation (6) and, in IFD1, a thumbnail: `thumb` (a JPEG of its own). */
static uint8_t *jpeg_with_thumbnail(const uint8_t *main, size_t mn, const uint8_t *thumb, size_t tn, size_t *n,
                                    int cut) {
    /* TIFF: header 8, IFD0 (1 entry: orientation) 18, IFD1 (2 entries) 30, then the thumbnail. */
    size_t tiff = 8 + 18 + 30 + tn;
    uint8_t *t = calloc(1, tiff);
    memcpy(t, "II*\0\x08\0\0\0", 8);
    uint8_t *p = t + 8;
    p[0] = 1;
    p[2] = 0x12, p[3] = 0x01, p[4] = 3, p[6] = 1, p[10] = 6; /* orientation 6 */
    p[14] = 26;                                              /* next IFD at 26 */
    p = t + 26;
    p[0] = 2;
    uint32_t off = 56, len = (uint32_t)tn + (cut ? 100 : 0);
    p[2] = 0x01, p[3] = 0x02, p[4] = 4, p[6] = 1, memcpy(p + 10, &off, 4);
    p[14] = 0x02, p[15] = 0x02, p[16] = 4, p[18] = 1, memcpy(p + 22, &len, 4);
    memcpy(t + 56, thumb, tn);
    *n = mn + 10 + tiff;
    uint8_t *f = malloc(*n);
    memcpy(f, main, 2);
    f[2] = 0xFF, f[3] = 0xE1, f[4] = (uint8_t)((8 + tiff) >> 8), f[5] = (uint8_t)(8 + tiff);
    memcpy(f + 6, "Exif\0\0", 6);
    memcpy(f + 12, t, tiff);
    memcpy(f + 12 + tiff, main + 2, mn - 2);
    free(t);
    return f;
}

static uint8_t *solid(uint32_t w, uint32_t h, uint8_t r, uint8_t g, uint8_t b, size_t *n) {
    uint8_t *px = malloc((size_t)w * h * 4), *out = NULL;
    for (size_t i = 0; i < (size_t)w * h; i++) px[i * 4] = r, px[i * 4 + 1] = g, px[i * 4 + 2] = b, px[i * 4 + 3] = 255;
    magpie_encode_options o;
    magpie_encode_options_init(&o);
    o.format = MAGPIE_FORMAT_JPEG;
    CHECK(magpie_encode(px, w, h, (size_t)w * 4, &o, &out, n) == MAGPIE_OK, "encode");
    free(px);
    return out;
}

/* MAGPIE_DECODE_THUMBNAIL on a JPEG: the EXIF thumbnail (blue, 16x12, stored as the image is
 * and turned by its orientation) is decoded when the output is no larger than it, with the size the
 * image would give; a larger output, no resize, a thumbnail that runs past its segment or one of
 * another shape leave the image (red, 64x48) decoded. */
static void exif_thumbnail(void) {
    size_t mn, tn, sn, n;
    uint8_t *main = solid(64, 48, 220, 0, 0, &mn), *thumb = solid(16, 12, 0, 0, 220, &tn);
    uint8_t *square = solid(16, 16, 0, 0, 220, &sn);
    uint8_t *f = jpeg_with_thumbnail(main, mn, thumb, tn, &n, 0);
    magpie_decode_options o;
    magpie_decode_options_init(&o);
    o.flags = MAGPIE_DECODE_THUMBNAIL;
    o.fit = MAGPIE_FIT_INSIDE, o.width = 12, o.height = 16;
    magpie_image *img = NULL;
    int rc = magpie_decode(f, n, &o, &img);
    CHECK(rc == MAGPIE_OK && img->width == 12 && img->height == 16 && img->pixels[2] > 180 && img->pixels[0] < 40,
          "thumbnail: %d %ux%u", rc, img ? img->width : 0, img ? img->height : 0);
    magpie_image_free(img);
    img = NULL;
    o.fit = MAGPIE_FIT_FILL, o.width = 9, o.height = 9; /* a window of the thumbnail */
    rc = magpie_decode(f, n, &o, &img);
    CHECK(rc == MAGPIE_OK && img->width == 9 && img->height == 9 && img->pixels[2] > 180, "fill: %d", rc);
    magpie_image_free(img);
    img = NULL;
    o.fit = MAGPIE_FIT_INSIDE, o.width = o.height = 20; /* 15x20: more than the thumbnail has */
    rc = magpie_decode(f, n, &o, &img);
    CHECK(rc == MAGPIE_OK && img->width == 15 && img->height == 20 && img->pixels[0] > 180, "larger: %d", rc);
    magpie_image_free(img);
    img = NULL;
    uint32_t w, h;
    o.fit = MAGPIE_FIT_NONE;
    CHECK(magpie_output_size(f, n, &o, &w, &h) == MAGPIE_OK && w == 48 && h == 64, "no resize: %ux%u", w, h);
    free(f);
    o.fit = MAGPIE_FIT_INSIDE, o.width = 12, o.height = 16;
    for (int k = 0; k < 2; k++) {
        f = k ? jpeg_with_thumbnail(main, mn, square, sn, &n, 0) : jpeg_with_thumbnail(main, mn, thumb, tn, &n, 1);
        rc = magpie_decode(f, n, &o, &img);
        CHECK(rc == MAGPIE_OK && img->pixels[0] > 180, "%s thumbnail: the image", k ? "square" : "cut");
        magpie_image_free(img);
        img = NULL;
        free(f);
    }
    magpie_free(main);
    magpie_free(thumb);
    magpie_free(square);
}

int main(void) {
    exif_thumbnail();
    roundtrip(MAGPIE_FORMAT_JPEG, 0, 0, "jpeg");
    roundtrip(MAGPIE_FORMAT_PNG, 0, 1, "png");
    roundtrip(MAGPIE_FORMAT_WEBP, 0, 0, "webp lossy");
    roundtrip(MAGPIE_FORMAT_WEBP, 0, 1, "webp lossy alpha");
    roundtrip(MAGPIE_FORMAT_WEBP, 1, 1, "webp lossless alpha");
    roundtrip(MAGPIE_FORMAT_WEBP, 1, 0, "webp lossless");
    handmade();
    return tu_finish("rights");
}
