/* magpie_find_trim and magpie_pixelate against hand-computed answers; and
 * magpie_attention_crop on made images whose interesting part is known: a saturated disc, a skin
 * patch and an edge pattern on flat backgrounds, with the window expected to hold them; a flat or
 * transparent-only feature is centre-cropped; wide slack sampled; bad arguments refused. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "magpie.h"
#include "testutil.h"

static uint8_t *flat(uint32_t w, uint32_t h, uint8_t r, uint8_t g, uint8_t b) {
    uint8_t *p = malloc((size_t)w * h * 4);
    for (size_t i = 0; i < (size_t)w * h; i++) {
        p[i * 4] = r;
        p[i * 4 + 1] = g;
        p[i * 4 + 2] = b;
        p[i * 4 + 3] = 255;
    }
    return p;
}

/* Paints a disc of radius `r` about (cx, cy). */
static void disc(uint8_t *p, uint32_t w, uint32_t h, double cx, double cy, double r, const uint8_t rgba[4]) {
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++)
            if ((x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r) memcpy(p + ((size_t)y * w + x) * 4, rgba, 4);
}

static magpie_rect crop_of(uint8_t *p, uint32_t w, uint32_t h, uint32_t cw, uint32_t ch) {
    magpie_pixels px = {p, w, h, (size_t)w * 4};
    magpie_rect r = {0};
    int rc = magpie_attention_crop(&px, cw, ch, &r);
    CHECK(rc == MAGPIE_OK, "rc %d", rc);
    CHECK(r.width == cw && r.height == ch && r.x + cw <= w && r.y + ch <= h, "window %ux%u at %u,%u", r.width,
          r.height, r.x, r.y);
    return r;
}

static int holds(magpie_rect r, double cx, double cy, double radius) {
    return r.x <= cx - radius && r.x + r.width >= cx + radius && r.y <= cy - radius && r.y + r.height >= cy + radius;
}

static void test_features(void) {
    static const uint8_t red[4] = {230, 20, 30, 255}, skin[4] = {224, 172, 140, 255};
    /* Nothing to see: the centre. */
    uint8_t *p = flat(400, 300, 128, 128, 128);
    magpie_rect r = crop_of(p, 400, 300, 300, 300);
    CHECK(r.x == 50 && r.y == 0, "flat: %u,%u", r.x, r.y);
    /* A saturated disc at the right edge. */
    disc(p, 400, 300, 350, 150, 40, red);
    r = crop_of(p, 400, 300, 300, 300);
    CHECK(holds(r, 350, 150, 40), "red disc right: %u,%u", r.x, r.y);
    free(p);
    /* A skin patch at the top of a portrait image, in a grey with nothing else. */
    p = flat(300, 500, 90, 90, 90);
    disc(p, 300, 500, 150, 60, 45, skin);
    r = crop_of(p, 300, 500, 300, 250);
    CHECK(holds(r, 150, 60, 45), "skin top: %u,%u", r.x, r.y);
    free(p);
    /* Edges: a checkerboard in the bottom-left corner of a flat field, both axes slack. */
    p = flat(600, 600, 200, 200, 200);
    for (uint32_t y = 440; y < 580; y++)
        for (uint32_t x = 20; x < 160; x++) {
            uint8_t v = ((x / 10 + y / 10) & 1) ? 0 : 255;
            memset(p + ((size_t)y * 600 + x) * 4, v, 3);
        }
    r = crop_of(p, 600, 600, 200, 200);
    CHECK(r.x <= 20 && r.x + 200 >= 160 && r.y <= 440 && r.y + 200 >= 580, "checkerboard: %u,%u", r.x, r.y);
    free(p);
    /* Colour nobody can see (alpha 0) counts for nothing. */
    p = flat(400, 300, 128, 128, 128);
    for (size_t i = 0; i < 400 * 300; i++) p[i * 4 + 3] = 0;
    static const uint8_t hidden[4] = {230, 20, 30, 0};
    disc(p, 400, 300, 350, 150, 40, hidden);
    r = crop_of(p, 400, 300, 300, 300);
    CHECK(r.x == 50, "transparent disc: %u", r.x);
    free(p);
    /* Slack beyond the sampled steps: a strip 4000 wide, the disc near its far end. */
    p = flat(4000, 100, 60, 60, 60);
    disc(p, 4000, 100, 3700, 50, 30, red);
    r = crop_of(p, 4000, 100, 150, 100);
    CHECK(holds(r, 3700, 50, 30), "strip: %u", r.x);
    /* The whole image is the window. */
    r = crop_of(p, 4000, 100, 4000, 100);
    CHECK(r.x == 0 && r.y == 0, "whole: %u,%u", r.x, r.y);
    free(p);
}

static void test_bad(void) {
    uint8_t *p = flat(10, 10, 1, 2, 3);
    magpie_pixels px = {p, 10, 10, 40};
    magpie_rect r;
    CHECK(magpie_attention_crop(NULL, 5, 5, &r) == MAGPIE_EINVAL, "NULL src");
    CHECK(magpie_attention_crop(&px, 5, 5, NULL) == MAGPIE_EINVAL, "NULL crop");
    CHECK(magpie_attention_crop(&px, 0, 5, &r) == MAGPIE_EINVAL, "zero width");
    CHECK(magpie_attention_crop(&px, 11, 5, &r) == MAGPIE_EINVAL, "too wide");
    CHECK(magpie_attention_crop(&px, 5, 11, &r) == MAGPIE_EINVAL, "too high");
    magpie_pixels bad = {p, 10, 10, 39};
    CHECK(magpie_attention_crop(&bad, 5, 5, &r) == MAGPIE_EINVAL, "short stride");
    /* One pixel wide and high sources and windows. */
    magpie_pixels one = {p, 1, 10, 40};
    CHECK(magpie_attention_crop(&one, 1, 3, &r) == MAGPIE_OK && (r.y == 3 || r.y == 4) && r.x == 0,
          "1 px column: %u", r.y);
    free(p);
}

static void test_trim(void) {
    /* White with a dark box at [30, 70) x [10, 25) and one faint pixel within the threshold. */
    uint8_t *p = flat(100, 40, 255, 255, 255);
    for (uint32_t y = 10; y < 25; y++)
        for (uint32_t x = 30; x < 70; x++) memset(p + ((size_t)y * 100 + x) * 4, 20, 3);
    memset(p + (35 * 100 + 90) * 4, 250, 3);
    magpie_pixels px = {p, 100, 40, 400};
    magpie_trim_options o;
    magpie_trim_options_init(&o);
    magpie_rect r;
    CHECK(magpie_find_trim(&px, &o, &r) == MAGPIE_OK && r.x == 30 && r.y == 10 && r.width == 40 && r.height == 15,
          "trim: %u,%u %ux%u", r.x, r.y, r.width, r.height);
    o.threshold = 2; /* the faint pixel now counts */
    CHECK(magpie_find_trim(&px, &o, &r) == MAGPIE_OK && r.x == 30 && r.width == 61 && r.height == 26, "faint: %ux%u",
          r.width, r.height);
    o.threshold = 10;
    o.equal_horizontal = 1; /* margins 30 and 30: unchanged */
    o.equal_vertical = 1;   /* margins 10 and 15: 10 from both */
    CHECK(magpie_find_trim(&px, &o, &r) == MAGPIE_OK && r.y == 10 && r.height == 20 && r.width == 40, "equal: %u %u",
          r.y, r.height);
    /* A colour given: the dark box is the background, so the white is the content (all of it). */
    magpie_trim_options_init(&o);
    o.use_color = 1;
    o.color = 0x141414FF;
    CHECK(magpie_find_trim(&px, &o, &r) == MAGPIE_OK && r.x == 0 && r.width == 100, "colour: %u %u", r.x, r.width);
    /* All background: whole. Transparent pixels match a transparent background whatever their colour. */
    uint8_t *q = flat(10, 10, 9, 9, 9);
    magpie_pixels qx = {q, 10, 10, 40};
    magpie_trim_options_init(&o);
    CHECK(magpie_find_trim(&qx, &o, &r) == MAGPIE_OK && r.width == 10 && r.height == 10, "uniform");
    for (int i = 0; i < 100; i++) q[i * 4 + 3] = 0, q[i * 4] = (uint8_t)(i * 7);
    q[(5 * 10 + 6) * 4 + 3] = 255;
    CHECK(magpie_find_trim(&qx, &o, &r) == MAGPIE_OK && r.x == 6 && r.y == 5 && r.width == 1 && r.height == 1,
          "transparent: %u,%u %ux%u", r.x, r.y, r.width, r.height);
    o.threshold = 256;
    CHECK(magpie_find_trim(&qx, &o, &r) == MAGPIE_EINVAL, "threshold 256");
    o.threshold = 10;
    o.struct_size = 4;
    CHECK(magpie_find_trim(&qx, &o, &r) == MAGPIE_EINVAL, "small struct");
    CHECK(magpie_find_trim(&qx, NULL, &r) == MAGPIE_EINVAL && magpie_find_trim(NULL, &o, &r) == MAGPIE_EINVAL, "NULL");
    free(p);
    free(q);
}

static void test_pixelate(void) {
    /* 5x3, blocks of 2: means of 2x2, 2x2, 1x2 and 2x1, 2x1, 1x1; half-transparent pixels weigh half. */
    uint8_t p[5 * 3 * 4];
    for (int i = 0; i < 15; i++) p[i * 4] = (uint8_t)(i * 10), p[i * 4 + 1] = 0, p[i * 4 + 2] = 0, p[i * 4 + 3] = 255;
    p[1 * 4 + 3] = 0; /* pixel (1, 0) is invisible */
    uint8_t out[sizeof p];
    magpie_pixels a = {p, 5, 3, 20}, b = {out, 5, 3, 20};
    CHECK(magpie_pixelate(&a, &b, 2) == MAGPIE_OK, "pixelate");
    /* Block (0,0): pixels 0, 1 (alpha 0), 5, 6: red (0 + 50 + 60) / 3 = 36.7 -> 37; alpha (255 * 3) / 4 -> 191. */
    CHECK(out[0] == 37 && out[3] == 191 && out[1 * 4] == 37 && out[6 * 4] == 37, "block 0: %u %u", out[0], out[3]);
    CHECK(out[4 * 4] == 65 && out[9 * 4] == 65, "edge column: %u", out[4 * 4]); /* (40 + 90) / 2 */
    CHECK(out[10 * 4] == 105 && out[11 * 4] == 105, "bottom row: %u", out[10 * 4]); /* (100 + 110) / 2 */
    CHECK(out[14 * 4] == 140, "corner: %u", out[14 * 4]);
    CHECK(magpie_pixelate(&a, &a, 1) == MAGPIE_OK && p[2 * 4] == 20, "size 1 in place is identity");
    CHECK(magpie_pixelate(&a, &b, 0) == MAGPIE_EINVAL, "size 0");
    magpie_pixels c = {out, 4, 3, 16};
    CHECK(magpie_pixelate(&a, &c, 2) == MAGPIE_EINVAL, "size mismatch");
    CHECK(magpie_pixelate(&a, &b, 1000) == MAGPIE_OK, "one block");
}

int main(void) {
    test_features();
    test_bad();
    test_trim();
    test_pixelate();
    return tu_finish("regions");
}
