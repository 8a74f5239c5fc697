/* Colour profiles: an sRGB photo converted into Adobe RGB (1998), Display P3 and ProPhoto with
 * lcms2, embedded in JPEG, PNG and WebP by magpie_encode, must come back as the photo by default
 * (converted to sRGB, no profile) and as the stored numbers with the profile when kept; hostile
 * profiles are ignored with a flag, never a failure; an sRGB profile changes nothing. */
#include <lcms2.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "magpie.h"
#include "testutil.h"

typedef struct {
    uint8_t *data;
    cmsUInt32Number size;
} profile;

static profile make_rgb(double rx, double ry, double gx, double gy, double bx, double by, double wx, double wy,
                        double gamma) {
    cmsCIExyY white = {wx, wy, 1};
    cmsCIExyYTRIPLE xyy = {{rx, ry, 1}, {gx, gy, 1}, {bx, by, 1}};
    cmsToneCurve *curve = cmsBuildGamma(NULL, gamma);
    cmsToneCurve *curves[3] = {curve, curve, curve};
    cmsHPROFILE p = cmsCreateRGBProfile(&white, &xyy, curves);
    profile out = {NULL, 0};
    cmsSaveProfileToMem(p, NULL, &out.size);
    out.data = malloc(out.size);
    cmsSaveProfileToMem(p, out.data, &out.size);
    cmsCloseProfile(p);
    cmsFreeToneCurve(curve);
    return out;
}

static profile save(cmsHPROFILE p) {
    profile out = {NULL, 0};
    cmsSaveProfileToMem(p, NULL, &out.size);
    out.data = malloc(out.size);
    cmsSaveProfileToMem(p, out.data, &out.size);
    cmsCloseProfile(p);
    return out;
}

static double psnr(const uint8_t *a, const uint8_t *b, size_t pixels) {
    double se = 0;
    for (size_t i = 0; i < pixels; i++)
        for (int c = 0; c < 3; c++) {
            double d = (double)a[4 * i + c] - b[4 * i + c];
            se += d * d;
        }
    double mse = se / (pixels * 3.0);
    return mse == 0 ? 99 : 10 * log10(255.0 * 255.0 / mse);
}

/* The source photo: a corpus JPEG's 256-pixel thumbnail, or a gradient without the corpus. */
static uint8_t *photo(const char *dir, uint32_t *w, uint32_t *h) {
    char path[1024];
    snprintf(path, sizeof path, "%s/jpeg/pillow/hopper.jpg", dir ? dir : "");
    size_t n = 0;
    uint8_t *data = dir ? tu_read_file(path, &n) : NULL;
    if (data) {
        magpie_decode_options o;
        magpie_decode_options_init(&o);
        o.fit = MAGPIE_FIT_INSIDE;
        o.width = o.height = 256;
        magpie_image *img = NULL;
        int rc = magpie_decode(data, n, &o, &img);
        free(data);
        if (!rc) {
            *w = img->width, *h = img->height;
            uint8_t *px = malloc((size_t)*w * *h * 4);
            memcpy(px, img->pixels, (size_t)*w * *h * 4);
            magpie_image_free(img);
            return px;
        }
    }
    fprintf(stderr, "test_icc: %s absent, a gradient stands in for the photo\n", path);
    *w = *h = 128;
    return tu_gradient(128, 128);
}

static uint8_t *encode(const uint8_t *px, uint32_t w, uint32_t h, magpie_format f, const profile *p, size_t *n) {
    magpie_encode_options e;
    magpie_encode_options_init(&e);
    e.format = f;
    e.quality = 100;
    e.subsampling = MAGPIE_SUBSAMPLING_444;
    e.lossless = f == MAGPIE_FORMAT_WEBP;
    e.icc_profile = p ? p->data : NULL;
    e.icc_profile_size = p ? p->size : 0;
    uint8_t *out = NULL;
    int rc = magpie_encode(px, w, h, (size_t)w * 4, &e, &out, n);
    CHECK(rc == MAGPIE_OK, "encode %s: %s", magpie_format_name(f), magpie_strerror(rc));
    return out;
}

static magpie_image *decode(const uint8_t *data, size_t n, uint32_t flags) {
    magpie_decode_options o;
    magpie_decode_options_init(&o);
    o.flags = flags;
    magpie_image *img = NULL;
    int rc = magpie_decode(data, n, &o, &img);
    CHECK(rc == MAGPIE_OK, "decode: %s", magpie_strerror(rc));
    return img;
}

/* The photo stored in `space` with its profile, in every format that embeds one: back as the
 * photo by default, as the stored numbers with the profile when kept. */
static void round_trip(const char *name, const uint8_t *srgb, uint32_t w, uint32_t h, const profile *space) {
    cmsHPROFILE s = cmsCreate_sRGBProfile(), p = cmsOpenProfileFromMem(space->data, space->size);
    cmsHTRANSFORM t = cmsCreateTransform(s, TYPE_RGBA_8, p, TYPE_RGBA_8, INTENT_RELATIVE_COLORIMETRIC, cmsFLAGS_COPY_ALPHA);
    size_t pixels = (size_t)w * h;
    uint8_t *stored = malloc(pixels * 4);
    cmsDoTransform(t, srgb, stored, (cmsUInt32Number)pixels);
    cmsDeleteTransform(t);
    /* lcms2's own conversion back, what magpie's (a matrix fast path for such profiles) must match. */
    uint8_t *reference = malloc(pixels * 4);
    t = cmsCreateTransform(p, TYPE_RGBA_8, s, TYPE_RGBA_8, INTENT_RELATIVE_COLORIMETRIC, cmsFLAGS_COPY_ALPHA);
    cmsDoTransform(t, stored, reference, (cmsUInt32Number)pixels);
    cmsDeleteTransform(t);
    cmsCloseProfile(s);
    cmsCloseProfile(p);
    const magpie_format formats[] = {MAGPIE_FORMAT_JPEG, MAGPIE_FORMAT_PNG, MAGPIE_FORMAT_WEBP, MAGPIE_FORMAT_JXL};
    for (size_t i = 0; i < sizeof formats / sizeof *formats; i++) {
        if (!magpie_format_encodable(formats[i])) continue;
        size_t n = 0;
        uint8_t *file = encode(stored, w, h, formats[i], space, &n);
        if (!file) continue;
        magpie_image *seen = decode(file, n, 0), *kept = decode(file, n, MAGPIE_DECODE_KEEP_PROFILE);
        if (seen && kept) {
            double converted = psnr(seen->pixels, srgb, pixels), raw = psnr(kept->pixels, srgb, pixels);
            printf("  %s in %s: %.1f dB converted, %.1f dB as stored\n", name, magpie_format_name(formats[i]),
                   converted, raw);
            CHECK(converted > 38, "%s/%s: %.1f dB against the photo", name, magpie_format_name(formats[i]), converted);
            if (formats[i] == MAGPIE_FORMAT_PNG) { /* lossless: the conversion alone */
                int worst = 0;
                for (size_t k = 0; k < pixels * 4; k++) {
                    int d = abs((int)seen->pixels[k] - reference[k]);
                    worst = d > worst ? d : worst;
                }
                CHECK(worst <= 1, "%s: %d levels from lcms2's conversion", name, worst);
            }
            CHECK(raw < converted - 3, "%s/%s: the stored numbers are not the photo", name, magpie_format_name(formats[i]));
            CHECK(seen->flags == MAGPIE_IMAGE_PROFILE_CONVERTED && !seen->icc_profile && !seen->icc_profile_size,
                  "%s: converted, no profile (flags %x)", name, seen->flags);
            CHECK(kept->flags == MAGPIE_IMAGE_PROFILE_KEPT && kept->icc_profile_size == space->size &&
                      memcmp(kept->icc_profile, space->data, space->size) == 0,
                  "%s/%s: the profile is kept as it was (flags %x)", name, magpie_format_name(formats[i]), kept->flags);
            /* The kept image written again with its profile reads as the photo once more. */
            size_t again_n = 0;
            profile again_p = {kept->icc_profile, (cmsUInt32Number)kept->icc_profile_size};
            uint8_t *again = encode(kept->pixels, w, h, MAGPIE_FORMAT_PNG, &again_p, &again_n);
            magpie_image *back = again ? decode(again, again_n, 0) : NULL;
            CHECK(back && psnr(back->pixels, srgb, pixels) > 38, "%s: the kept profile travels", name);
            magpie_image_free(back);
            free(again);
        }
        magpie_image_free(seen);
        magpie_image_free(kept);
        free(file);
    }
    free(stored);
    free(reference);
}

/* A profile that cannot be used leaves the pixels as an untagged file's, flagged. */
static void hostile(const uint8_t *srgb, uint32_t w, uint32_t h, const profile *good) {
    size_t n = 0;
    uint8_t *plain = encode(srgb, w, h, MAGPIE_FORMAT_PNG, NULL, &n);
    magpie_image *untagged = decode(plain, n, 0);
    CHECK(untagged && untagged->flags == 0, "an untagged file has no profile flags");
    free(plain);
    uint8_t junk[600];
    for (size_t i = 0; i < sizeof junk; i++) junk[i] = (uint8_t)(i * 131 + 7);
    uint8_t cut[200];
    memcpy(cut, good->data, sizeof cut); /* a real header, then nothing */
    uint8_t *lying = malloc(good->size);
    memcpy(lying, good->data, good->size);
    lying[16] = 'C', lying[17] = 'M', lying[18] = 'Y', lying[19] = 'K'; /* says CMYK for RGB pixels */
    const profile bad[] = {{junk, sizeof junk}, {cut, sizeof cut}, {lying, good->size}};
    const magpie_format formats[] = {MAGPIE_FORMAT_JPEG, MAGPIE_FORMAT_PNG};
    for (size_t f = 0; f < 2; f++)
        for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
            uint8_t *file = encode(srgb, w, h, formats[f], &bad[i], &n);
            magpie_image *img = file ? decode(file, n, 0) : NULL;
            /* libpng drops a profile it finds malformed before we see it: then there is no flag. */
            CHECK(img && (img->flags == MAGPIE_IMAGE_PROFILE_IGNORED || (formats[f] == MAGPIE_FORMAT_PNG && !img->flags)),
                  "bad profile %zu in %s: flags %x", i, magpie_format_name(formats[f]), img ? img->flags : 0);
            if (img && formats[f] == MAGPIE_FORMAT_PNG && untagged)
                CHECK(memcmp(img->pixels, untagged->pixels, (size_t)w * h * 4) == 0, "bad profile %zu: pixels as stored", i);
            magpie_image_free(img);
            free(file);
        }
    free(lying);
    magpie_image_free(untagged);
    /* An sRGB profile converts nothing. */
    profile srgb_p = save(cmsCreate_sRGBProfile());
    uint8_t *file = encode(srgb, w, h, MAGPIE_FORMAT_PNG, &srgb_p, &n);
    magpie_image *img = decode(file, n, 0);
    CHECK(img && img->flags == MAGPIE_IMAGE_PROFILE_CONVERTED && memcmp(img->pixels, srgb, (size_t)w * h * 4) == 0,
          "an sRGB profile leaves the pixels alone");
    magpie_image_free(img);
    free(file);
    free(srgb_p.data);
    /* The encoder's bounds. */
    magpie_encode_options e;
    magpie_encode_options_init(&e);
    e.icc_profile = good->data;
    e.icc_profile_size = (4u << 20) + 1;
    uint8_t *out = NULL;
    CHECK(magpie_encode(srgb, w, h, (size_t)w * 4, &e, &out, &n) == MAGPIE_EINVAL, "a profile over 4 MiB");
    e.icc_profile = NULL;
    e.icc_profile_size = 10;
    CHECK(magpie_encode(srgb, w, h, (size_t)w * 4, &e, &out, &n) == MAGPIE_EINVAL, "a size without a profile");
}

/* A JPEG with one APP2 ICC_PROFILE marker put after its SOI. */
static uint8_t *with_app2(const uint8_t *jpeg, size_t n, const profile *p, size_t *out_n) {
    *out_n = n + 18 + p->size;
    uint8_t *out = malloc(*out_n);
    memcpy(out, jpeg, 2);
    size_t len = p->size + 16;
    uint8_t head[18] = {0xFF, 0xE2, (uint8_t)(len >> 8), (uint8_t)len, 'I', 'C', 'C', '_', 'P', 'R', 'O', 'F',
                        'I', 'L', 'E', 0, 1, 1};
    memcpy(out + 2, head, 18);
    memcpy(out + 20, p->data, p->size);
    memcpy(out + 20 + p->size, jpeg + 2, n - 2);
    return out;
}

/* A gray profile converts a gray source (its levels through its curve, still gray) and is refused
 * on a colour one, which it would turn gray. */
static void gray(const char *dir, const uint8_t *srgb, uint32_t w, uint32_t h) {
    cmsCIExyY d65 = {0.3127, 0.3290, 1};
    cmsToneCurve *linear = cmsBuildGamma(NULL, 1.0);
    profile g = save(cmsCreateGrayProfile(&d65, linear));
    cmsFreeToneCurve(linear);
    size_t n = 0, tn = 0;
    uint8_t *colour = encode(srgb, w, h, MAGPIE_FORMAT_JPEG, NULL, &n);
    uint8_t *tagged = with_app2(colour, n, &g, &tn);
    magpie_image *a = decode(colour, n, 0), *b = decode(tagged, tn, 0);
    CHECK(a && b && b->flags == MAGPIE_IMAGE_PROFILE_IGNORED && memcmp(a->pixels, b->pixels, (size_t)w * h * 4) == 0,
          "a gray profile on a colour JPEG is ignored");
    magpie_image_free(a), magpie_image_free(b), free(colour), free(tagged);
    char path[1024];
    snprintf(path, sizeof path, "%s/jpeg/pillow/hopper_gray.jpg", dir ? dir : "");
    uint8_t *file = dir ? tu_read_file(path, &n) : NULL;
    if (file) {
        tagged = with_app2(file, n, &g, &tn);
        a = decode(file, n, 0), b = decode(tagged, tn, 0);
        int gray_out = b != NULL, brighter = 0;
        for (size_t i = 0; b && a && i < (size_t)b->width * b->height; i++) {
            const uint8_t *p = b->pixels + 4 * i;
            gray_out &= p[0] == p[1] && p[1] == p[2];
            brighter += p[0] > a->pixels[4 * i];
        }
        CHECK(b && b->flags == MAGPIE_IMAGE_PROFILE_CONVERTED && gray_out, "a gray JPEG through its gray profile");
        CHECK(a && b && brighter > (int)(b->width * b->height / 2), "linear gray reads brighter as sRGB");
        magpie_image_free(a), magpie_image_free(b), free(file), free(tagged);
    }
    free(g.data);
}

/* A PNG with a gAMA chunk of `gamma` × 100000 put after its IHDR. */
static uint8_t *with_gama(const uint8_t *png, size_t n, uint32_t gamma, size_t *out_n) {
    *out_n = n + 16;
    uint8_t *out = malloc(*out_n), chunk[16] = {0, 0, 0, 4, 'g', 'A', 'M', 'A'};
    chunk[8] = (uint8_t)(gamma >> 24), chunk[9] = (uint8_t)(gamma >> 16), chunk[10] = (uint8_t)(gamma >> 8);
    chunk[11] = (uint8_t)gamma;
    uint32_t crc = magpie_crc32(0, chunk + 4, 8);
    chunk[12] = (uint8_t)(crc >> 24), chunk[13] = (uint8_t)(crc >> 16), chunk[14] = (uint8_t)(crc >> 8);
    chunk[15] = (uint8_t)crc;
    memcpy(out, png, 33); /* signature and IHDR */
    memcpy(out + 33, chunk, 16);
    memcpy(out + 49, png + 33, n - 33);
    return out;
}

/* A PNG without iCCP or sRGB: gAMA (and cHRM) describe its colours, unless they describe sRGB. */
static void png_gamma(const uint8_t *srgb, uint32_t w, uint32_t h) {
    size_t n = 0, ln = 0, tn = 0;
    uint8_t *png = encode(srgb, w, h, MAGPIE_FORMAT_PNG, NULL, &n);
    uint8_t *linear = with_gama(png, n, 100000, &ln), *usual = with_gama(png, n, 45455, &tn);
    magpie_image *a = decode(png, n, 0), *b = decode(linear, ln, 0), *c = decode(usual, tn, 0);
    int brighter = 0;
    for (size_t i = 0; a && b && i < (size_t)w * h; i++) brighter += b->pixels[4 * i + 1] > a->pixels[4 * i + 1];
    CHECK(b && b->flags == MAGPIE_IMAGE_PROFILE_CONVERTED && brighter > (int)(w * h / 2), "gAMA 1.0 reads as linear");
    CHECK(c && c->flags == 0 && a && memcmp(a->pixels, c->pixels, (size_t)w * h * 4) == 0, "gAMA 1/2.2 is sRGB");
    magpie_image_free(a), magpie_image_free(b), magpie_image_free(c);
    free(png), free(linear), free(usual);
}

#include "test_icc_lut.inc"
#include "test_icc_mismatch.inc"

int main(int argc, char **argv) {
    if (argc > 2 && strcmp(argv[1], "--write-fixtures") == 0) return write_fixtures(argv[2]);
    uint32_t w, h;
    uint8_t *srgb = photo(argc > 1 && tu_corpus_present(argv[1]) ? argv[1] : NULL, &w, &h);
    profile adobe = make_rgb(0.64, 0.33, 0.21, 0.71, 0.15, 0.06, 0.3127, 0.3290, 563.0 / 256);
    profile p3 = make_rgb(0.680, 0.320, 0.265, 0.690, 0.150, 0.060, 0.3127, 0.3290, 2.2);
    profile prophoto = make_rgb(0.7347, 0.2653, 0.1596, 0.8404, 0.0366, 0.0001, 0.3457, 0.3585, 1.8);
    round_trip("Adobe RGB", srgb, w, h, &adobe);
    round_trip("Display P3", srgb, w, h, &p3);
    round_trip("ProPhoto", srgb, w, h, &prophoto);
    hostile(srgb, w, h, &adobe);
    matrix_and_lut(srgb, w, h, &adobe, &prophoto);
    png_gamma(srgb, w, h);
    mismatches(srgb, w, h, &adobe);
    gray(argc > 1 && tu_corpus_present(argv[1]) ? argv[1] : NULL, srgb, w, h);
    free(adobe.data);
    free(p3.data);
    free(prophoto.data);
    free(srgb);
    return tu_finish("icc");
}
