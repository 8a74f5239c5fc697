/* SVG through librsvg: drawn at the size asked for (not resized from its own), external
 * resources never read (only data: URLs), entity bombs and oversized documents refused. Skipped,
 * with a message, where librsvg is not installed. */
#include <stdlib.h>
#include <string.h>

#include "magpie.h"
#include "testutil.h"

#ifndef MAGPIE_FIXTURES
#error "MAGPIE_FIXTURES: the folder of Tests/fixtures/formats"
#endif

static int decode_text(const char *svg, uint32_t box, magpie_image **img, char *detail, size_t detail_size) {
    magpie_decode_options o;
    magpie_decode_options_init(&o);
    if (box) o.fit = MAGPIE_FIT_INSIDE, o.width = o.height = box;
    o.error_detail = detail, o.error_detail_size = detail_size;
    return magpie_decode(svg, strlen(svg), &o, img);
}

static int max_alpha(const magpie_image *img) {
    int a = 0;
    for (uint32_t y = 0; y < img->height; y++)
        for (uint32_t x = 0; x < img->width; x++)
            if (img->pixels[(size_t)y * img->stride + 4 * x + 3] > a) a = img->pixels[(size_t)y * img->stride + 4 * x + 3];
    return a;
}

/* At 30 pixels wide the document is drawn at 30 pixels, as rsvg-convert -w 30 draws it. */
static void test_drawn_at_the_size_asked(void) {
    size_t n, rn;
    uint8_t *d = tu_fixture("svg-shapes.svg", &n), *r = tu_fixture("svg-shapes.30.ref.png", &rn);
    magpie_image *a = NULL, *b = NULL;
    magpie_decode_options o;
    magpie_decode_options_init(&o);
    o.fit = MAGPIE_FIT_INSIDE, o.width = o.height = 30;
    CHECK(d && r && magpie_decode(d, n, &o, &a) == MAGPIE_OK && magpie_decode(r, rn, NULL, &b) == MAGPIE_OK,
          "both decode");
    if (a && b) {
        CHECK(a->width == 30 && a->height == 20 && b->width == 30, "30x20: %ux%u", a->width, a->height);
        int worst = 0;
        for (uint32_t y = 0; a->width == b->width && y < a->height; y++)
            for (uint32_t x = 0; x < a->width * 4; x++) {
                int v = abs((int)a->pixels[(size_t)y * a->stride + x] - (int)b->pixels[(size_t)y * b->stride + x]);
                if (v > worst) worst = v;
            }
        CHECK(worst <= 2, "as rsvg-convert draws it: %d apart", worst);
    }
    magpie_image_free(a);
    magpie_image_free(b);
    free(d);
    free(r);
}

static char *base64(const uint8_t *d, size_t n) {
    static const char t[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *out = malloc((n + 2) / 3 * 4 + 1), *o = out;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)d[i] << 16 | (i + 1 < n ? (uint32_t)d[i + 1] << 8 : 0) | (i + 2 < n ? d[i + 2] : 0);
        *o++ = t[v >> 18], *o++ = t[(v >> 12) & 63];
        *o++ = i + 1 < n ? t[(v >> 6) & 63] : '=', *o++ = i + 2 < n ? t[v & 63] : '=';
    }
    *o = 0;
    return out;
}

/* A picture by file path, file: URL or http URL draws nothing; the same picture as a data: URL
 * draws. */
static void test_no_external_resources(void) {
    size_t n;
    uint8_t *png = tu_fixture("bmp-rgb24.ref.png", &n);
    if (!png) return;
    char *b64 = base64(png, n), *svg = malloc(strlen(b64) + 4096);
    char detail[256] = "";
    const char *head = "<svg xmlns='http://www.w3.org/2000/svg' xmlns:xlink='http://www.w3.org/1999/xlink' "
                       "width='37' height='23'>";
    sprintf(svg, "%s<image href='file://%s/bmp-rgb24.ref.png' width='37' height='23'/>"
            "<image xlink:href='%s/bmp-rgb24.ref.png' width='37' height='23'/>"
            "<image href='bmp-rgb24.ref.png' width='37' height='23'/>"
            "<image href='http://127.0.0.1:9/x.png' width='37' height='23'/></svg>",
            head, MAGPIE_FIXTURES, MAGPIE_FIXTURES);
    magpie_image *img = NULL;
    int rc = decode_text(svg, 0, &img, detail, sizeof detail);
    CHECK(rc == MAGPIE_OK && max_alpha(img) == 0, "external pictures are not loaded: %s %s", magpie_strerror(rc), detail);
    magpie_image_free(img);
    img = NULL;
    sprintf(svg, "%s<image href='data:image/png;base64,%s' width='37' height='23'/></svg>", head, b64);
    rc = decode_text(svg, 0, &img, detail, sizeof detail);
    CHECK(rc == MAGPIE_OK && max_alpha(img) == 255, "a data: picture is: %s %s", magpie_strerror(rc), detail);
    magpie_image_free(img);
    free(svg);
    free(b64);
    free(png);
}

static void test_hostile_documents(void) {
    char detail[256] = "";
    /* Entities that would expand to 10^8 bytes. */
    char bomb[2048] = "<?xml version='1.0'?><!DOCTYPE svg [<!ENTITY a 'aaaaaaaaaaaaaaaaaaaa'>";
    for (char e = 'b'; e <= 'g'; e++) {
        char line[160];
        snprintf(line, sizeof line, "<!ENTITY %c '&%c;&%c;&%c;&%c;&%c;&%c;&%c;&%c;&%c;&%c;'>", e, e - 1, e - 1, e - 1,
                 e - 1, e - 1, e - 1, e - 1, e - 1, e - 1, e - 1);
        strcat(bomb, line);
    }
    strcat(bomb, "]><svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'><text>&g;</text></svg>");
    magpie_image *img = NULL;
    int rc = decode_text(bomb, 0, &img, detail, sizeof detail);
    CHECK(rc == MAGPIE_ECORRUPT && !img && strstr(detail, "refer to entities"), "an entity bomb is refused: %s (%s)",
          magpie_strerror(rc), detail);
    /* 9 MiB of comment in a valid document: over the SVG byte limit. */
    size_t big = 9u << 20;
    char *huge = malloc(big + 200);
    strcpy(huge, "<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'><!--");
    size_t at = strlen(huge);
    memset(huge + at, 'x', big);
    strcpy(huge + at + big, "--></svg>");
    rc = decode_text(huge, 0, &img, detail, sizeof detail);
    CHECK(rc == MAGPIE_ELIMIT_MEMORY && !img, "9 MiB of SVG: %s", magpie_strerror(rc));
    free(huge);
    /* A size past the pixel limit is refused before anything is drawn. */
    rc = decode_text("<svg xmlns='http://www.w3.org/2000/svg' width='100000' height='100000'/>", 0, &img, detail,
                     sizeof detail);
    CHECK(rc == MAGPIE_ELIMIT_PIXELS, "10 gigapixels: %s", magpie_strerror(rc));
    rc = decode_text("<svg xmlns='http://www.w3.org/2000/svg'><rect width='5' height='5'/></svg>", 0, &img, detail,
                     sizeof detail);
    CHECK(rc == MAGPIE_ECORRUPT, "no size, no viewBox: %s", magpie_strerror(rc));
    rc = decode_text("<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'><rect", 0, &img, detail, sizeof detail);
    CHECK(rc == MAGPIE_ECORRUPT, "malformed XML: %s", magpie_strerror(rc));
}

/* Entities are expanded before librsvg (whose libxml2 leaks each declaration): plain ones as
 * Illustrator writes them draw; parameter, external and too many are refused. */
static void test_entities(void) {
    char detail[256] = "", svg[8192];
    const char *illustrator = "<?xml version='1.0'?><!-- <x> a comment first --><!DOCTYPE svg PUBLIC "
                              "'-//W3C//DTD SVG 1.1//EN' 'http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd' ["
                              "<!ENTITY ns_svg 'http://www.w3.org/2000/svg'><!ENTITY st \"fill:#ff0000\">"
                              "<!ATTLIST svg xmlns:x CDATA #IMPLIED>]><svg xmlns='&ns_svg;' width='4' height='4'>"
                              "<rect width='4' height='4' style='&st;'/><text>&amp;&#65;</text></svg>";
    magpie_image *img = NULL;
    int rc = decode_text(illustrator, 0, &img, detail, sizeof detail);
    CHECK(rc == MAGPIE_OK && img->pixels[0] == 255 && img->pixels[1] == 0 && img->pixels[3] == 255,
          "Illustrator's entities draw: %s (%s)", magpie_strerror(rc), detail);
    magpie_image_free(img);
    static const char external[] = "<!DOCTYPE svg [<!ENTITY e SYSTEM 'file:///etc/passwd'>]>"
                                   "<svg xmlns='http://www.w3.org/2000/svg' width='4' height='4'><text>&e;</text></svg>";
    const char *refused[] = {
        "<!DOCTYPE svg [<!ENTITY % p 'x'>]><svg xmlns='http://www.w3.org/2000/svg' width='4' height='4'/>",
        external,
        "<!DOCTYPE svg [%p;]><svg xmlns='http://www.w3.org/2000/svg' width='4' height='4'/>",
    };
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        img = NULL;
        rc = decode_text(refused[i], 0, &img, detail, sizeof detail);
        CHECK(rc == MAGPIE_ECORRUPT && !img, "refused %zu: %s (%s)", i, magpie_strerror(rc), detail);
    }
    strcpy(svg, "<!DOCTYPE svg [");
    for (int i = 0; i < 65; i++) sprintf(svg + strlen(svg), "<!ENTITY e%d 'v'>", i);
    strcat(svg, "]><svg xmlns='http://www.w3.org/2000/svg' width='4' height='4'/>");
    rc = decode_text(svg, 0, &img, detail, sizeof detail);
    CHECK(rc == MAGPIE_ECORRUPT && strstr(detail, "64"), "65 entities: %s (%s)", magpie_strerror(rc), detail);
}

int main(void) {
    if (!magpie_format_decodable(MAGPIE_FORMAT_SVG)) {
        printf("SKIPPED: librsvg is not installed (Debian: librsvg2-2)\n");
        return 77;
    }
    test_drawn_at_the_size_asked();
    test_no_external_resources();
    test_hostile_documents();
    test_entities();
    return tu_finish("svg");
}
