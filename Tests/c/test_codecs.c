/* WebP and AVIF through the C API: what the build reports, WebP encoding (lossy, lossless,
 * determinism, options), scaled WebP thumbnails under a memory limit, and animations, orientation
 * and limits on inputs made here (the WebP/AVIF corpus's too where it is there). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "magpie.h"
#include "testutil.h"

static double psnr(const uint8_t *a, const uint8_t *b, size_t n) {
    double se = 0;
    for (size_t i = 0; i < n; i++) se += (double)(a[i] - b[i]) * (a[i] - b[i]);
    return se == 0 ? 99.0 : 10 * log10(255.0 * 255.0 * (double)n / se);
}

static uint8_t *webp(const uint8_t *px, uint32_t w, uint32_t h, int lossless, int quality, size_t *n) {
    magpie_encode_options o;
    magpie_encode_options_init(&o);
    o.format = MAGPIE_FORMAT_WEBP;
    o.lossless = lossless;
    o.quality = quality;
    uint8_t *out = NULL;
    int rc = magpie_encode(px, w, h, (size_t)w * 4, &o, &out, n);
    CHECK(rc == MAGPIE_OK, "webp encode: %s", magpie_strerror(rc));
    return out;
}

static void test_capabilities(void) {
    CHECK(magpie_format_decodable(MAGPIE_FORMAT_JPEG) && magpie_format_decodable(MAGPIE_FORMAT_PNG) &&
              magpie_format_decodable(MAGPIE_FORMAT_GIF),
          "the base formats decode");
    CHECK(!magpie_format_decodable(MAGPIE_FORMAT_PDF) &&
              !magpie_format_decodable(MAGPIE_FORMAT_UNKNOWN) && !magpie_format_decodable((magpie_format)999),
          "recognised-only formats do not");
    CHECK(magpie_format_encodable(MAGPIE_FORMAT_PNG) && magpie_format_encodable(MAGPIE_FORMAT_JPEG) &&
              !magpie_format_encodable(MAGPIE_FORMAT_BMP),
          "encoders");
#ifdef MAGPIE_HAVE_IMAGEQUANT
    CHECK(magpie_format_encodable(MAGPIE_FORMAT_GIF), "GIF encodes where libimagequant is built in and installed");
#else
    CHECK(!magpie_format_encodable(MAGPIE_FORMAT_GIF), "GIF does not encode without libimagequant");
#endif
    CHECK(magpie_format_encodable(MAGPIE_FORMAT_AVIF) == magpie_format_decodable(MAGPIE_FORMAT_AVIF),
          "AVIF encodes exactly when it decodes (the same libavif)");
    CHECK(magpie_format_encodable(MAGPIE_FORMAT_WEBP) == magpie_format_decodable(MAGPIE_FORMAT_WEBP),
          "WebP encodes exactly when it decodes");
}

static void test_webp_round_trip(void) {
    const uint32_t w = 320, h = 200;
    uint8_t *px = tu_gradient(w, h);
    for (uint32_t y = 0; y < h; y++) /* a transparent band, so alpha has something to keep */
        for (uint32_t x = 0; x < 40; x++) px[((size_t)y * w + x) * 4 + 3] = (uint8_t)(x * 6);
    size_t n1, n2, n3;
    uint8_t *lossless = webp(px, w, h, 1, 75, &n1), *lossy = webp(px, w, h, 0, 90, &n2), *again = webp(px, w, h, 0, 90, &n3);
    CHECK(n2 == n3 && memcmp(lossy, again, n2) == 0, "lossy encoding is deterministic");
    CHECK(magpie_sniff(lossless, n1) == MAGPIE_FORMAT_WEBP && magpie_sniff(lossy, n2) == MAGPIE_FORMAT_WEBP, "sniffed");
    magpie_info info;
    CHECK(magpie_probe(lossless, n1, &info) == MAGPIE_OK && info.width == w && info.height == h && info.frames == 1 &&
              (info.flags & MAGPIE_INFO_HAS_ALPHA),
          "lossless probe: %ux%u flags %x", info.width, info.height, info.flags);
    magpie_image *img = NULL;
    CHECK(magpie_decode(lossless, n1, NULL, &img) == MAGPIE_OK && img->width == w && img->height == h,
          "lossless decodes");
    size_t differ = 0; /* every visible pixel exactly (under alpha 0 the colour is the encoder's to drop) */
    for (size_t i = 0; img && i < (size_t)w * h; i++)
        if (px[i * 4 + 3] != 0 && memcmp(img->pixels + i * 4, px + i * 4, 4) != 0) differ++;
    CHECK(img && differ == 0, "lossless comes back exactly: %zu pixels differ", differ);
    magpie_image_free(img);
    img = NULL;
    CHECK(magpie_decode(lossy, n2, NULL, &img) == MAGPIE_OK && img->width == w && img->height == h, "lossy decodes");
    if (img) CHECK(psnr(img->pixels, px, (size_t)w * h * 4) > 35, "lossy at 90: %.1f dB", psnr(img->pixels, px, (size_t)w * h * 4));
    magpie_image_free(img);
    /* An opaque image has no alpha chunk. */
    uint8_t *opaque = tu_gradient(w, h);
    size_t n4;
    uint8_t *o4 = webp(opaque, w, h, 0, 80, &n4);
    CHECK(magpie_probe(o4, n4, &info) == MAGPIE_OK && !(info.flags & MAGPIE_INFO_HAS_ALPHA), "opaque: no alpha");
    /* Options: out of range is refused; a caller with the older, shorter struct gets lossy. */
    magpie_encode_options o;
    magpie_encode_options_init(&o);
    o.format = MAGPIE_FORMAT_WEBP;
    uint8_t *out = NULL;
    size_t n;
    o.method = 7;
    CHECK(magpie_encode(px, w, h, (size_t)w * 4, &o, &out, &n) == MAGPIE_EINVAL && !out, "method 7");
    o.method = 4;
    o.quality = 0;
    CHECK(magpie_encode(px, w, h, (size_t)w * 4, &o, &out, &n) == MAGPIE_EINVAL && !out, "lossy quality 0");
    o.quality = 90;
    o.lossless = 2;
    CHECK(magpie_encode(px, w, h, (size_t)w * 4, &o, &out, &n) == MAGPIE_EINVAL && !out, "lossless 2");
    o.lossless = 1; /* ignored below: the short struct ends before it */
    o.struct_size = (uint32_t)((const char *)&o.lossless - (const char *)&o);
    CHECK(magpie_encode(px, w, h, (size_t)w * 4, &o, &out, &n) == MAGPIE_OK && n == n2 && memcmp(out, lossy, n) == 0,
          "the short struct encodes lossy at its quality");
    magpie_free(out);
    out = NULL;
    CHECK(magpie_encode(px, 20000, 1, 20000 * 4, &o, &out, &n) == MAGPIE_EINVAL, "wider than WebP allows");
    free(px);
    free(opaque);
    magpie_free(lossless);
    magpie_free(lossy);
    magpie_free(again);
    magpie_free(o4);
}

/* A lossy WebP thumbnail scales inside libwebp: it fits a memory limit the full decode does not. */
static void test_webp_thumbnail_memory(void) {
    const uint32_t w = 2048, h = 1536;
    uint8_t *px = tu_gradient(w, h);
    size_t n;
    uint8_t *data = webp(px, w, h, 0, 80, &n);
    magpie_decode_options o;
    magpie_decode_options_init(&o);
    o.limits.max_bytes = 6u << 20; /* the full image alone is 12 MB */
    magpie_image *img = NULL;
    CHECK(magpie_decode(data, n, &o, &img) == MAGPIE_ELIMIT_MEMORY && !img, "full decode over 6 MB");
    o.fit = MAGPIE_FIT_INSIDE;
    o.width = o.height = 256;
    CHECK(magpie_decode(data, n, &o, &img) == MAGPIE_OK && img && img->width == 256 && img->height == 192,
          "256-px thumbnail within 6 MB");
    if (img) {
        /* Against the full decode resampled: the scaled decode keeps the quality. */
        magpie_decode_options full;
        magpie_decode_options_init(&full);
        magpie_image *big = NULL;
        CHECK(magpie_decode(data, n, &full, &big) == MAGPIE_OK, "full decode without a limit");
        magpie_resize_options ro;
        magpie_resize_options_init(&ro);
        uint8_t *ref = malloc(256 * 192 * 4);
        magpie_pixels src = {big->pixels, big->width, big->height, big->stride};
        magpie_pixels dst = {ref, 256, 192, 256 * 4};
        CHECK(magpie_resample(&src, &dst, &ro) == MAGPIE_OK, "reference resample");
        double q = psnr(img->pixels, ref, 256 * 192 * 4);
        CHECK(q > 40, "scaled decode against full decode + resample: %.1f dB", q);
        free(ref);
        magpie_image_free(big);
    }
    magpie_image_free(img);
    free(px);
    magpie_free(data);
}

/* ---- a hand-made AVIF container: a 64x64 primary item and `items` coded items, no data ---- */
typedef struct {
    uint8_t *p;
    size_t n;
} buf;

static void put(buf *b, const void *d, size_t n) {
    b->p = realloc(b->p, b->n + n);
    memcpy(b->p + b->n, d, n);
    b->n += n;
}
static void put32(buf *b, uint32_t v) { put(b, (uint8_t[]){v >> 24, v >> 16, v >> 8, v}, 4); }
static void put16(buf *b, uint32_t v) { put(b, (uint8_t[]){v >> 8, v}, 2); }
/* Appends a box whose payload is `body`. */
static void box(buf *b, const char *type, const buf *body) {
    put32(b, (uint32_t)(8 + body->n));
    put(b, type, 4);
    put(b, body->p, body->n);
}

static uint8_t *avif_with_items(uint32_t items, size_t *n) {
    buf file = {0}, ftyp = {0}, meta = {0}, hdlr = {0}, pitm = {0}, iinf = {0}, iprp = {0}, ipco = {0}, ispe = {0},
        ipma = {0};
    put(&ftyp, "avif\0\0\0\0avifmif1", 16);
    box(&file, "ftyp", &ftyp);
    put32(&meta, 0);
    put(&hdlr, "\0\0\0\0\0\0\0\0pict\0\0\0\0\0\0\0\0\0\0\0\0\0", 25);
    box(&meta, "hdlr", &hdlr);
    put32(&pitm, 0);
    put16(&pitm, 1);
    box(&meta, "pitm", &pitm);
    put32(&iinf, 0);
    put16(&iinf, items);
    for (uint32_t i = 1; i <= items; i++) {
        buf infe = {0};
        put32(&infe, 2u << 24); /* version 2 */
        put16(&infe, i);
        put16(&infe, 0);
        put(&infe, "av01\0", 5);
        box(&iinf, "infe", &infe);
        free(infe.p);
    }
    box(&meta, "iinf", &iinf);
    put32(&ispe, 0);
    put32(&ispe, 64);
    put32(&ispe, 64);
    box(&ipco, "ispe", &ispe);
    box(&iprp, "ipco", &ipco);
    put32(&ipma, 0);
    put32(&ipma, 1);
    put16(&ipma, 1);
    put(&ipma, (uint8_t[]){1, 1}, 2);
    box(&iprp, "ipma", &ipma);
    box(&meta, "iprp", &iprp);
    box(&file, "meta", &meta);
    buf *parts[] = {&ftyp, &meta, &hdlr, &pitm, &iinf, &iprp, &ipco, &ispe, &ipma};
    for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) free(parts[i]->p);
    *n = file.n;
    return file.p;
}

/* libavif 0.11 opens a decoder per coded item: a file listing thousands is refused before that. */
static void test_avif_item_bomb(void) {
    size_t n;
    uint8_t *bomb = avif_with_items(2000, &n);
    magpie_info info;
    CHECK(magpie_probe(bomb, n, &info) == MAGPIE_OK && info.width == 64 && info.height == 64,
          "the item bomb probes: %ux%u", info.width, info.height);
    CHECK(n < 64 * 1024, "and is small: %zu bytes", n);
    magpie_image *img = NULL;
    int rc = magpie_decode(bomb, n, NULL, &img);
    CHECK(rc == MAGPIE_ELIMIT_MEMORY && !img, "2000 coded items: %s", magpie_strerror(rc));
    free(bomb);
    uint8_t *two = avif_with_items(2, &n);
    rc = magpie_decode(two, n, NULL, &img);
    CHECK(rc != MAGPIE_ELIMIT_MEMORY && rc != MAGPIE_OK && !img, "2 items, no data: %s", magpie_strerror(rc));
    free(two);
}

/* From the WebP/AVIF corpus: animations, orientation, limits. */
static uint8_t *corpus_file(const char *dir, const char *name, size_t *n) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    uint8_t *d = tu_read_file(path, n);
    CHECK(d != NULL, "read %s", path);
    return d;
}

/* An animation's frames through the API: the probe's count and loop, every frame with delays,
 * frame `k` alone equal to frame `k` of all, no frame past the end, the frame limit, and the work
 * limit (millions of canvas pixels) when the animation is over a megapixel of frames. */
static void check_animation(const char *what, const uint8_t *anim, size_t n, uint32_t frames, int32_t loop,
                            uint32_t k) {
    magpie_info info;
    CHECK(magpie_probe(anim, n, &info) == MAGPIE_OK && info.frames == frames && info.loop_count == loop &&
              (info.flags & MAGPIE_INFO_ANIMATED),
          "%s probe: %u frames, loop %d", what, info.frames, info.loop_count);
    magpie_decode_options o;
    magpie_decode_options_init(&o);
    magpie_image *all = NULL, *one = NULL;
    CHECK(magpie_decode(anim, n, &o, &all) == MAGPIE_OK && all->frame_count == frames && all->loop_count == loop &&
              all->delays_ms[0] > 0,
          "%s: every frame, with delays and the loop count", what);
    o.flags = MAGPIE_DECODE_ONE_FRAME;
    o.frame_index = k;
    CHECK(magpie_decode(anim, n, &o, &one) == MAGPIE_OK && one->frame_count == 1, "%s: frame %u alone", what, k);
    if (all && one)
        CHECK(memcmp(one->pixels, all->pixels + (size_t)k * all->height * all->stride,
                     (size_t)one->height * one->stride) == 0,
              "%s: frame %u alone is frame %u of all", what, k, k);
    magpie_image_free(all);
    magpie_image_free(one);
    one = NULL;
    o.frame_index = frames;
    CHECK(magpie_decode(anim, n, &o, &one) == MAGPIE_ERANGE, "%s: no frame %u", what, frames);
    magpie_decode_options_init(&o);
    o.limits.max_frames = frames / 2;
    CHECK(magpie_decode(anim, n, &o, &one) == MAGPIE_ELIMIT_FRAMES, "%s: %u frames over a limit of %u", what,
          frames, frames / 2);
    o.limits.max_frames = 0;
    o.limits.max_frame_work = 1;
    if ((uint64_t)info.width * info.height * frames > 1000000)
        CHECK(magpie_decode(anim, n, &o, &one) == MAGPIE_ELIMIT_FRAMES, "%s: frame work over 1 megapixel", what);
}

/* An AVIF whose irot says orientation 6, stored w x h: probed as stored, decoded upright, and
 * refused over the pixel and memory limits. */
static void check_rotated_avif(const char *what, const uint8_t *rot, size_t n, uint32_t w, uint32_t h) {
    magpie_info info;
    CHECK(magpie_probe(rot, n, &info) == MAGPIE_OK && info.width == w && info.height == h && info.orientation == 6,
          "%s: irot 3 (270 anti-clockwise) is EXIF 6: %u", what, info.orientation);
    magpie_decode_options o;
    magpie_decode_options_init(&o);
    magpie_image *one = NULL;
    CHECK(magpie_decode(rot, n, &o, &one) == MAGPIE_OK && one->width == h && one->height == w, "%s: upright", what);
    magpie_image_free(one);
    one = NULL;
    o.limits.max_pixels = (uint64_t)w * h - 1;
    CHECK(magpie_decode(rot, n, &o, &one) == MAGPIE_ELIMIT_PIXELS, "%s: over the pixel limit", what);
    magpie_decode_options_init(&o);
    o.limits.max_bytes = (uint64_t)w * h * 2;
    CHECK(magpie_decode(rot, n, &o, &one) == MAGPIE_ELIMIT_MEMORY && !one, "%s: over the memory limit", what);
}

/* An animated WebP made here: 10 frames of 400x300 (1.2 megapixels together), 3 plays (2 repeats). */
static uint8_t *made_animated_webp(size_t *n) {
    const uint32_t w = 400, h = 300;
    magpie_encode_options eo;
    magpie_animation_options ao;
    magpie_encode_options_init(&eo);
    magpie_animation_options_init(&ao);
    eo.format = MAGPIE_FORMAT_WEBP;
    eo.lossless = 1;
    ao.loop_count = 2;
    magpie_animation_encoder *enc = NULL;
    CHECK(magpie_animation_encoder_new(w, h, &eo, &ao, &enc) == MAGPIE_OK, "animated WebP encoder");
    if (!enc) return NULL;
    uint8_t *px = tu_gradient(w, h);
    for (uint32_t k = 0; k < 10; k++) {
        for (uint32_t i = 0; i < w * h; i++) px[i * 4 + 2] = (uint8_t)(k * 25); /* each frame its own blue */
        CHECK(magpie_animation_encoder_add(enc, px, (size_t)w * 4, 40) == MAGPIE_OK, "frame %u", k);
    }
    uint8_t *out = NULL;
    CHECK(magpie_animation_encoder_finish(enc, &out, n) == MAGPIE_OK, "animated WebP made");
    magpie_animation_encoder_free(enc);
    free(px);
    return out;
}

/* Animations, orientation and limits, on inputs made here (an animated WebP) and the fixtures (an
 * AVIF with irot, an AVIF sequence, from Tests/fixtures/formats/avif_orient.c); the WebP/AVIF
 * corpus's files too where it is present. */
static void test_animations_and_orientation(const char *dir) {
    size_t n;
    uint8_t *anim = made_animated_webp(&n);
    if (anim) check_animation("made animated WebP", anim, n, 10, 2, 6);
    magpie_free(anim);
    uint8_t *seq = tu_fixture("avif-sequence.avif", &n);
    magpie_info info;
    CHECK(seq && magpie_probe(seq, n, &info) == MAGPIE_OK && info.frames == 5, "AVIF sequence probe: %u frames",
          seq ? info.frames : 0);
    if (seq) check_animation("AVIF sequence", seq, n, 5, info.loop_count, 3);
    free(seq);
    uint8_t *rot = tu_fixture("avif-orient6.avif", &n);
    if (rot) check_rotated_avif("AVIF fixture", rot, n, 37, 23);
    free(rot);
    if (!tu_corpus_present(dir)) return;
    if ((anim = corpus_file(dir, "webp/sharp/animated-loop-3.webp", &n))) {
        check_animation("corpus animated WebP", anim, n, 10, 2, 6);
        free(anim);
    }
    if ((seq = corpus_file(dir, "avif/link-u/star-8bpc-with-alpha.avifs", &n))) {
        CHECK(magpie_probe(seq, n, &info) == MAGPIE_OK && (info.flags & MAGPIE_INFO_HAS_ALPHA), "corpus sequence alpha");
        check_animation("corpus AVIF sequence", seq, n, 5, info.loop_count, 3);
        free(seq);
    }
    if ((rot = corpus_file(dir, "avif/link-u/kimono.rotate90.avif", &n))) {
        check_rotated_avif("corpus AVIF", rot, n, 1024, 722);
        free(rot);
    }
}

/* A build that loads libavif on first use (MAGPIE_AVIF_DLOPEN) answers whether AVIF decodes
 * without loading it; the first AVIF decode loads it. A build that links libavif has it mapped
 * from the start, and asking changes nothing either. Runs first, before anything decodes. */
static void test_avif_loads_on_first_decode(void) {
    int before = tu_mapped("libavif.so");
    if (before < 0) {
        printf("SKIPPED: /proc/self/maps cannot be read\n");
        return;
    }
    int decodable = magpie_format_decodable(MAGPIE_FORMAT_AVIF);
    CHECK(tu_mapped("libavif.so") == before, "asking whether AVIF decodes loaded libavif");
    CHECK(magpie_format_decodable(MAGPIE_FORMAT_AVIF) == decodable, "the answer is stable");
    if (!decodable || before) return;
    size_t n;
    uint8_t *avif = tu_fixture("avif-orient6.avif", &n);
    if (!avif) return;
    magpie_info info;
    CHECK(magpie_probe(avif, n, &info) == MAGPIE_OK && tu_mapped("libavif.so") == 0, "a probe needs no libavif");
    magpie_decode_options o;
    magpie_decode_options_init(&o);
    o.fit = MAGPIE_FIT_INSIDE;
    o.width = o.height = 64;
    magpie_image *img = NULL;
    CHECK(magpie_decode(avif, n, &o, &img) == MAGPIE_OK && img, "AVIF decode, libavif loaded on demand");
    CHECK(tu_mapped("libavif.so") == 1, "the first AVIF decode loaded libavif");
    CHECK(magpie_format_decodable(MAGPIE_FORMAT_AVIF) == 1, "decodable once loaded");
    magpie_image_free(img);
    free(avif);
}

int main(int argc, char **argv) {
    test_avif_loads_on_first_decode();
    test_capabilities();
    if (!magpie_format_decodable(MAGPIE_FORMAT_WEBP)) {
        printf("SKIPPED: this build has no WebP codec\n");
    } else {
        test_webp_round_trip();
        test_webp_thumbnail_memory();
    }
    if (magpie_format_decodable(MAGPIE_FORMAT_AVIF)) test_avif_item_bomb();
    if (magpie_format_decodable(MAGPIE_FORMAT_WEBP) && magpie_format_decodable(MAGPIE_FORMAT_AVIF))
        test_animations_and_orientation(argc > 2 ? argv[2] : NULL);
    return tu_finish("codecs");
}
