/* Animations a frame at a time: the decoder handle's frame iterator against the whole decode,
 * and the animated encoders (WebP, GIF) round-tripped through it, with their limits and errors. */
#include <stdlib.h>
#include <string.h>

#include "magpie.h"
#include "testutil.h"

enum { W = 64, H = 48, FRAMES = 6 };

/* Frame k: a flat background, a square moving right, and (odd frames with `holes`) a transparent
 * band: few colours, so a palette holds them exactly. */
static void frame_pixels(int k, int holes, uint8_t *px) {
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            uint8_t *p = px + ((size_t)y * W + x) * 4;
            int in_square = x >= 4 + k * 8 && x < 14 + k * 8 && y >= 10 && y < 20;
            p[0] = in_square ? 220 : 30;
            p[1] = in_square ? 40 : (uint8_t)(60 + (y / 12) * 40);
            p[2] = in_square ? 40 : 90;
            p[3] = holes && (k & 1) && y >= 30 && y < 36 ? 0 : 255;
        }
}

static uint8_t *encode_animation(magpie_format format, int lossless, int holes, size_t *n) {
    magpie_encode_options eo;
    magpie_encode_options_init(&eo);
    eo.format = format;
    eo.lossless = lossless;
    magpie_animation_options ao;
    magpie_animation_options_init(&ao);
    ao.loop_count = 3;
    magpie_animation_encoder *enc = NULL;
    int rc = magpie_animation_encoder_new(W, H, &eo, &ao, &enc);
    CHECK(rc == MAGPIE_OK, "new %d", rc);
    if (rc) return NULL;
    uint8_t px[W * H * 4];
    for (int k = 0; k < FRAMES; k++) {
        frame_pixels(k, holes, px);
        rc = magpie_animation_encoder_add(enc, px, W * 4, 40u + 10u * (uint32_t)k);
        CHECK(rc == MAGPIE_OK, "add %d: %d", k, rc);
    }
    uint8_t *out = NULL;
    rc = magpie_animation_encoder_finish(enc, &out, n);
    CHECK(rc == MAGPIE_OK && out && *n > 0, "finish %d", rc);
    CHECK(magpie_animation_encoder_add(enc, px, W * 4, 10) == MAGPIE_EINVAL, "no frame after finish");
    magpie_animation_encoder_free(enc);
    return out;
}

/* Decodes every frame through the iterator and compares them with what went in. */
static void check_round_trip(const char *what, const uint8_t *data, size_t n, int holes, int lossy, int tolerance) {
    magpie_decoder *d = NULL;
    int rc = magpie_decoder_open(data, n, NULL, &d);
    CHECK(rc == MAGPIE_OK, "%s: open %d", what, rc);
    if (rc) return;
    uint32_t frames = 0;
    int32_t loop = 0;
    CHECK(magpie_decoder_frame_count(d, &frames, &loop) == MAGPIE_OK && frames == FRAMES && loop == 3,
          "%s: %u frames, loop %d", what, frames, loop);
    uint8_t got[W * H * 4], want[W * H * 4];
    for (int k = 0; k < FRAMES; k++) {
        uint32_t delay = 0;
        rc = magpie_decoder_next_frame(d, got, W * 4, sizeof got, &delay);
        CHECK(rc == MAGPIE_OK, "%s: frame %d: %d", what, k, rc);
        CHECK(delay == 40u + 10u * (uint32_t)k, "%s: frame %d delay %u", what, k, delay);
        frame_pixels(k, holes, want);
        /* Exact formats: the largest difference; lossy: the mean. */
        long worst = 0, sum = 0;
        for (size_t i = 0; i < sizeof got; i++) {
            if (want[i | 3] == 0 && got[i | 3] == 0) continue; /* transparent: colour is moot */
            int e = abs((int)got[i] - (int)want[i]);
            if (e > worst) worst = e;
            sum += e;
        }
        long measure = lossy ? sum / (long)sizeof got : worst;
        CHECK(measure <= tolerance, "%s: frame %d differs by %ld", what, k, measure);
    }
    CHECK(magpie_decoder_next_frame(d, got, W * 4, sizeof got, NULL) == MAGPIE_ERANGE, "%s: past the end", what);
    CHECK(magpie_decoder_decode_into(d, got, W * 4, sizeof got) == MAGPIE_EINVAL, "%s: no decode after", what);
    magpie_decoder_free(d);
}

/* The iterator's frames, resized, are the whole decode's frames. */
static void check_iterator_matches_decode(const char *what, const uint8_t *data, size_t n) {
    magpie_decode_options o;
    magpie_decode_options_init(&o);
    o.fit = MAGPIE_FIT_INSIDE;
    o.width = o.height = 20;
    magpie_image *img = NULL;
    int rc = magpie_decode(data, n, &o, &img);
    CHECK(rc == MAGPIE_OK && img && img->frame_count == FRAMES, "%s: whole decode %d", what, rc);
    if (rc) return;
    magpie_decoder *d = NULL;
    CHECK(magpie_decoder_open(data, n, &o, &d) == MAGPIE_OK, "%s: open", what);
    size_t frame = (size_t)img->stride * img->height;
    uint8_t *buf = malloc(frame);
    CHECK(magpie_decoder_next_frame(d, buf, img->stride, frame - 1, NULL) == MAGPIE_EBUFFER, "%s: short buffer",
          what);
    for (uint32_t k = 0; k < img->frame_count; k++) {
        uint32_t delay = 0;
        rc = magpie_decoder_next_frame(d, buf, img->stride, frame, &delay);
        CHECK(rc == MAGPIE_OK && memcmp(buf, img->pixels + k * frame, frame) == 0 && delay == img->delays_ms[k],
              "%s: frame %u as the whole decode's (%d)", what, k, rc);
    }
    free(buf);
    magpie_decoder_free(d);
    magpie_image_free(img);
}

/* Whether every frame comes through the iterator under `max_bytes`. */
static int iterates_within(const uint8_t *data, size_t n, uint64_t max_bytes) {
    magpie_decode_options o;
    magpie_decode_options_init(&o);
    o.limits.max_bytes = max_bytes;
    magpie_decoder *d = NULL;
    if (magpie_decoder_open(data, n, &o, &d)) return 0;
    uint8_t px[W * H * 4];
    int ok = 0;
    while (magpie_decoder_next_frame(d, px, W * 4, sizeof px, NULL) == MAGPIE_OK) ok++;
    magpie_decoder_free(d);
    return ok == FRAMES;
}

/* The iterator holds one frame: at the least memory it needs, the whole decode (six frames) fails. */
static void check_memory(const uint8_t *data, size_t n) {
    uint64_t lo = 1, hi = 64u << 20; /* iterates within hi, not within lo */
    CHECK(iterates_within(data, n, hi) && !iterates_within(data, n, lo), "the search's bounds");
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (iterates_within(data, n, mid)) hi = mid;
        else lo = mid;
    }
    magpie_decode_options o;
    magpie_decode_options_init(&o);
    o.limits.max_bytes = hi;
    magpie_image *img = NULL;
    CHECK(magpie_decode(data, n, &o, &img) == MAGPIE_ELIMIT_MEMORY, "the whole decode needs more than %llu bytes",
          (unsigned long long)hi);
    magpie_image_free(img);
    magpie_decoder *d = NULL;
    uint8_t px[W * H * 4];
    int ok;
    /* The work limit counts each frame as it is delivered. */
    magpie_decode_options_init(&o);
    o.limits.max_frame_work = 1; /* a megapixel: fewer than 6 frames of 64x48 do not reach it */
    CHECK(magpie_decoder_open(data, n, &o, &d) == MAGPIE_OK, "open");
    ok = 0;
    while (magpie_decoder_next_frame(d, px, W * 4, sizeof px, NULL) == MAGPIE_OK) ok++;
    CHECK(ok == FRAMES, "six small frames are under a megapixel");
    magpie_decoder_free(d);
}

static void check_encoder_errors(void) {
    magpie_encode_options eo;
    magpie_encode_options_init(&eo);
    magpie_animation_options ao;
    magpie_animation_options_init(&ao);
    magpie_animation_encoder *enc = NULL;
    eo.format = MAGPIE_FORMAT_PNG;
    CHECK(magpie_animation_encoder_new(8, 8, &eo, &ao, &enc) == MAGPIE_EUNSUPPORTED && !enc, "no animated PNG");
    eo.format = MAGPIE_FORMAT_WEBP;
    CHECK(magpie_animation_encoder_new(0, 8, &eo, &ao, &enc) == MAGPIE_EINVAL, "zero width");
    CHECK(magpie_animation_encoder_new(8, 8, &eo, &ao, NULL) == MAGPIE_EINVAL, "no out");
    ao.dither = 101;
    CHECK(magpie_animation_encoder_new(8, 8, &eo, &ao, &enc) == MAGPIE_EINVAL, "dither 101");
    magpie_animation_options_init(&ao);
    ao.kmin = 5;
    ao.kmax = 5;
    CHECK(magpie_animation_encoder_new(8, 8, &eo, &ao, &enc) == MAGPIE_EINVAL, "kmin must be under kmax");
    magpie_animation_options_init(&ao);
    CHECK(magpie_animation_encoder_new(8, 8, &eo, &ao, &enc) == MAGPIE_OK, "webp");
    uint8_t *out = NULL;
    size_t n = 0;
    CHECK(magpie_animation_encoder_finish(enc, &out, &n) == MAGPIE_EINVAL && !out, "no frames");
    uint8_t px[8 * 8 * 4] = {0};
    CHECK(magpie_animation_encoder_add(enc, px, 4, 10) == MAGPIE_EINVAL, "stride under the width");
    magpie_animation_encoder_free(enc);
    if (!magpie_format_encodable(MAGPIE_FORMAT_GIF)) return;
    /* A file over max_bytes stops with the limit, not a partial file. */
    eo.format = MAGPIE_FORMAT_GIF;
    ao.max_bytes = 64;
    CHECK(magpie_animation_encoder_new(W, H, &eo, &ao, &enc) == MAGPIE_OK, "gif");
    uint8_t big[W * H * 4];
    int rc = MAGPIE_OK;
    for (int k = 0; k < FRAMES && !rc; k++) {
        frame_pixels(k, 0, big);
        rc = magpie_animation_encoder_add(enc, big, W * 4, 10);
    }
    if (!rc) rc = magpie_animation_encoder_finish(enc, &out, &n);
    CHECK(rc == MAGPIE_ELIMIT_MEMORY && !out, "64 bytes is too few: %d", rc);
    magpie_animation_encoder_free(enc);
}

/* One format's checks: deterministic bytes, the round trip (with and without transparency), the
 * iterator against the whole decode, and memory. */
static void check_format(magpie_format format, int lossless, const char *name, int tolerance) {
    size_t n = 0, n2 = 0;
    uint8_t *one = encode_animation(format, lossless, 1, &n), *two = encode_animation(format, lossless, 1, &n2);
    CHECK(one && two && n == n2 && memcmp(one, two, n) == 0, "%s: the same frames, the same bytes", name);
    if (one) {
        check_round_trip(name, one, n, 1, 0, tolerance);
        check_iterator_matches_decode(name, one, n);
        check_memory(one, n);
    }
    free(one);
    free(two);
    uint8_t *opaque = encode_animation(format, lossless, 0, &n);
    if (opaque) check_round_trip(name, opaque, n, 0, 0, tolerance);
    free(opaque);
}

int main(void) {
    check_format(MAGPIE_FORMAT_WEBP, 1, "lossless webp", 0);
    size_t n = 0;
    uint8_t *lossy = encode_animation(MAGPIE_FORMAT_WEBP, 0, 0, &n);
    if (lossy) check_round_trip("lossy webp", lossy, n, 0, 1, 4);
    free(lossy);
    if (magpie_format_encodable(MAGPIE_FORMAT_GIF)) check_format(MAGPIE_FORMAT_GIF, 0, "gif", 2);
    else fprintf(stderr, "animation: GIF output not there (libimagequant missing): its checks skipped\n");
    check_encoder_errors();
    fprintf(stderr, "animation: %d passed, %d failed\n", tu_checks - tu_failures, tu_failures);
    return tu_failures ? 1 : 0;
}
