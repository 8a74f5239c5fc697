/* Damage the codecs' libraries let through, made here byte by byte: PNG chunks with a bad CRC
 * (libpng only warns about ancillary ones) and GIF frames whose LZW stream holds a code that is
 * not defined (giflib decodes it into garbage). Each damaged file fails; the same file intact
 * decodes. */
#include <stdlib.h>
#include <string.h>

#include "magpie.h"
#include "testutil.h"

typedef struct {
    uint8_t *p;
    size_t n, cap;
} buf;

static void put(buf *b, const void *data, size_t n) {
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2 + 64;
        b->p = realloc(b->p, b->cap);
    }
    memcpy(b->p + b->n, data, n);
    b->n += n;
}

static void put8(buf *b, uint8_t v) { put(b, &v, 1); }

static void put32be(buf *b, uint32_t v) {
    uint8_t q[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    put(b, q, 4);
}

static int decode_status(const buf *b, int one_frame, uint32_t index) {
    magpie_decode_options o;
    magpie_decode_options_init(&o);
    if (one_frame) {
        o.flags |= MAGPIE_DECODE_ONE_FRAME;
        o.frame_index = index;
    }
    magpie_image *img = NULL;
    int rc = magpie_decode(b->p, b->n, &o, &img);
    magpie_image_free(img);
    return rc;
}

/* ---- PNG ---- */

static void put_chunk(buf *b, const char *type, const uint8_t *data, uint32_t n, int bad_crc) {
    put32be(b, n);
    size_t start = b->n;
    put(b, type, 4);
    if (n) put(b, data, n);
    uint32_t crc = magpie_crc32(0, b->p + start, 4 + n);
    put32be(b, bad_crc ? crc ^ 0x10u : crc);
}

/* A 6×4 PNG made by magpie_encode, with `type` inserted before the first IDAT (or before IEND
 * when `after_data`). */
static buf png_with(const char *type, const uint8_t *data, uint32_t n, int bad_crc, int after_data) {
    uint8_t px[6 * 4 * 4];
    for (size_t i = 0; i < sizeof px; i++) px[i] = (uint8_t)(i * 7);
    magpie_encode_options eo;
    magpie_encode_options_init(&eo);
    eo.format = MAGPIE_FORMAT_PNG;
    uint8_t *png = NULL;
    size_t size = 0;
    CHECK(magpie_encode(px, 6, 4, 24, &eo, &png, &size) == MAGPIE_OK, "encode");
    buf b = {0};
    size_t at = 8;
    put(&b, png, 8);
    while (at + 12 <= size) {
        uint32_t len = (uint32_t)png[at] << 24 | (uint32_t)png[at + 1] << 16 | (uint32_t)png[at + 2] << 8 | png[at + 3];
        const char *t = (const char *)png + at + 4;
        if (type && memcmp(t, after_data ? "IEND" : "IDAT", 4) == 0) {
            put_chunk(&b, type, data, n, bad_crc);
            type = NULL;
        }
        put(&b, png + at, len + 12);
        at += len + 12;
    }
    free(png);
    return b;
}

static void test_png_crc(void) {
    static const uint8_t text[] = "Comment\0made here";
    static const uint8_t clli[8] = {0, 0, 0x27, 0x10, 0, 0, 0x03, 0xE8};
    /* iCCP: a keyword, compression method 0, then a zlib stream (an empty one). */
    static const uint8_t iccp[] = {'p', 0, 0, 0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01};
    struct {
        const char *type;
        const uint8_t *data;
        uint32_t n;
        int after;
    } cases[] = {
        {"tEXt", text, sizeof text - 1, 0}, {"cLLI", clli, 8, 0}, {"iCCP", iccp, sizeof iccp, 0},
        {"tEXt", text, sizeof text - 1, 1}, {"zzZz", clli, 8, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        buf good = png_with(cases[i].type, cases[i].data, cases[i].n, 0, cases[i].after);
        buf bad = png_with(cases[i].type, cases[i].data, cases[i].n, 1, cases[i].after);
        int g = decode_status(&good, 0, 0), d = decode_status(&bad, 0, 0);
        CHECK(g == MAGPIE_OK, "%s (after data: %d) intact: %s", cases[i].type, cases[i].after, magpie_strerror(g));
        CHECK(d == MAGPIE_ECORRUPT, "%s (after data: %d) with a bad CRC: %s", cases[i].type, cases[i].after,
              magpie_strerror(d));
        free(good.p);
        free(bad.p);
    }
}

/* ---- GIF ---- */

typedef struct {
    buf *b;
    uint8_t block[255];
    uint32_t fill, bits, nbits;
} lzw_writer;

static void lzw_put(lzw_writer *w, uint32_t code, uint32_t size) {
    w->bits |= code << w->nbits;
    w->nbits += size;
    while (w->nbits >= 8) {
        w->block[w->fill++] = (uint8_t)w->bits;
        w->bits >>= 8;
        w->nbits -= 8;
        if (w->fill == 255) {
            put8(w->b, 255);
            put(w->b, w->block, 255);
            w->fill = 0;
        }
    }
}

static void lzw_finish(lzw_writer *w) {
    if (w->nbits) lzw_put(w, 0, 8 - w->nbits);
    if (w->fill) {
        put8(w->b, (uint8_t)w->fill);
        put(w->b, w->block, w->fill);
    }
    put8(w->b, 0);
}

/* One frame of 4×4 pixels, minimum code size 2, written as single-pixel codes (valid LZW: the
 * decoder's table grows, the encoder never uses it). With `bad_at` >= 0, the code for that
 * pixel is one the table does not hold yet. With `end_at` >= 0, the end code comes there. */
static void gif_frame(buf *b, int bad_at, int end_at) {
    static const uint8_t desc[] = {0x21, 0xF9, 4, 0, 10, 0, 0, 0, 0x2C, 0, 0, 0, 0, 4, 0, 4, 0, 0, 2};
    put(b, desc, sizeof desc);
    lzw_writer w = {b, {0}, 0, 0, 0};
    uint32_t next = 6, size = 3;
    lzw_put(&w, 4, size); /* clear */
    for (int i = 0; i < 16; i++) {
        if (i == end_at) break;
        uint32_t code = i == bad_at ? next + 1 : (uint32_t)(i % 4);
        lzw_put(&w, code, size);
        if (i > 0 && next < 4096) next++;
        if (next == (1u << size) && size < 12) size++;
    }
    lzw_put(&w, 5, size); /* end */
    lzw_finish(&w);
}

static buf gif_with(int damaged_frame, int end_early) {
    static const uint8_t head[] = {'G', 'I', 'F', '8', '9', 'a', 4, 0, 4, 0, 0x81, 0, 0,
                                   0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255};
    buf b = {0};
    put(&b, head, sizeof head);
    for (int f = 0; f < 2; f++) gif_frame(&b, f == damaged_frame && !end_early ? 9 : -1, f == damaged_frame && end_early ? 9 : -1);
    put8(&b, 0x3B);
    return b;
}

static void test_gif_lzw(void) {
    buf good = gif_with(-1, 0);
    CHECK(decode_status(&good, 0, 0) == MAGPIE_OK, "intact GIF");
    magpie_image *img = NULL;
    CHECK(magpie_decode(good.p, good.n, NULL, &img) == MAGPIE_OK && img && img->frame_count == 2, "two frames");
    if (img) { /* pixel i is palette index i % 4: black, red, green, blue */
        const uint8_t *p = img->pixels + 4 * 5;
        CHECK(p[0] == 255 && p[1] == 0 && p[2] == 0 && p[3] == 255, "pixel 5 is red");
    }
    magpie_image_free(img);
    free(good.p);

    /* An undefined code in frame 1: asking for frame 0 alone is fine, frame 1 or all fail. */
    buf late = gif_with(1, 0);
    CHECK(decode_status(&late, 1, 0) == MAGPIE_OK, "frame 0 before the damage");
    int one = decode_status(&late, 1, 1), all = decode_status(&late, 0, 0);
    CHECK(one == MAGPIE_ECORRUPT, "damaged frame 1: %s", magpie_strerror(one));
    CHECK(all == MAGPIE_ECORRUPT, "all frames with frame 1 damaged: %s", magpie_strerror(all));
    free(late.p);

    /* Damage in frame 0 reaches frame 1, composited over it. */
    buf early = gif_with(0, 0);
    int over = decode_status(&early, 1, 1);
    CHECK(over == MAGPIE_ECORRUPT, "frame 1 over a damaged frame 0: %s", magpie_strerror(over));
    free(early.p);

    /* The end code before the last pixel. */
    buf cut = gif_with(1, 1);
    int short_frame = decode_status(&cut, 1, 1);
    CHECK(short_frame == MAGPIE_ETRUNCATED || short_frame == MAGPIE_ECORRUPT, "end code after 9 of 16 pixels: %s",
          magpie_strerror(short_frame));
    CHECK(decode_status(&cut, 1, 0) == MAGPIE_OK, "frame 0 before the short frame");
    free(cut.p);
}

int main(void) {
    test_png_crc();
    test_gif_lzw();
    return tu_finish("damaged");
}
