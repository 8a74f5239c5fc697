/* Sniffing: a table of signatures and near misses, the format fixtures and the encoder's outputs,
 * then every corpus file against MANIFEST.tsv where the corpus is present. */
#include <stdlib.h>
#include <string.h>

#include "magpie.h"
#include "testutil.h"

typedef struct {
    const char *name;
    const char *bytes;
    size_t len;
    magpie_format want;
} sniff_case;

#define B(s) s, sizeof(s) - 1

int main(int argc, char **argv) {
    static const sniff_case cases[] = {
        {"jpeg", B("\xFF\xD8\xFF\xE0\0\x10JFIF"), MAGPIE_FORMAT_JPEG},
        {"jpeg soi only", B("\xFF\xD8"), MAGPIE_FORMAT_JPEG},
        {"jpeg soi then junk", B("\xFF\xD9\xFF"), MAGPIE_FORMAT_UNKNOWN},
        {"png", B("\x89PNG\r\n\x1a\n\0\0\0\rIHDR"), MAGPIE_FORMAT_PNG},
        {"png with broken crlf", B("\x89PNG\n\n\x1a\n\0\0\0\rIHDR"), MAGPIE_FORMAT_UNKNOWN},
        {"gif87a", B("GIF87a\x01\0\x01\0"), MAGPIE_FORMAT_GIF},
        {"gif89a", B("GIF89a\x01\0\x01\0"), MAGPIE_FORMAT_GIF},
        {"gif88a", B("GIF88a\x01\0\x01\0"), MAGPIE_FORMAT_UNKNOWN},
        {"webp", B("RIFF\x24\0\0\0WEBPVP8 "), MAGPIE_FORMAT_WEBP},
        {"riff wave", B("RIFF\x24\0\0\0WAVEfmt "), MAGPIE_FORMAT_UNKNOWN},
        {"tiff le", B("II*\0\x08\0\0\0"), MAGPIE_FORMAT_TIFF},
        {"tiff be", B("MM\0*\0\0\0\x08"), MAGPIE_FORMAT_TIFF},
        {"pdf", B("%PDF-1.7\n"), MAGPIE_FORMAT_PDF},
        {"bmp", B("BM\x3a\0\0\0\0\0\0\0\x36\0\0\0\x28\0\0\0\x01\0\0\0\x01\0\0\0"), MAGPIE_FORMAT_BMP},
        {"BM text", B("BMW is a car maker, not a bitmap"), MAGPIE_FORMAT_UNKNOWN},
        {"ico", B("\0\0\x01\0\x01\0\x10\x10\0\0\x01\0\x20\0\x68\x04\0\0\x16\0\0\0"), MAGPIE_FORMAT_ICO},
        {"heic", B("\0\0\0\x18" "ftypheic\0\0\0\0mif1heic"), MAGPIE_FORMAT_HEIC},
        {"avif", B("\0\0\0\x1c" "ftypavif\0\0\0\0avifmif1miaf"), MAGPIE_FORMAT_AVIF},
        {"avif via mif1", B("\0\0\0\x18" "ftypmif1\0\0\0\0mif1avif"), MAGPIE_FORMAT_AVIF},
        {"mp4", B("\0\0\0\x18" "ftypisom\0\0\0\0isomiso2"), MAGPIE_FORMAT_UNKNOWN},
        {"svg", B("<svg xmlns=\"http://www.w3.org/2000/svg\"/>"), MAGPIE_FORMAT_SVG},
        {"svg with xml decl", B("\xEF\xBB\xBF<?xml version=\"1.0\"?>\n<!-- c -->\n<svg width=\"1\">"), MAGPIE_FORMAT_SVG},
        {"html", B("<!doctype html><html><body>svgs</body></html>"), MAGPIE_FORMAT_UNKNOWN},
        {"empty", "", 0, MAGPIE_FORMAT_UNKNOWN},
        {"one byte", B("\xFF"), MAGPIE_FORMAT_UNKNOWN},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        magpie_format got = magpie_sniff(cases[i].bytes, cases[i].len);
        CHECK(got == cases[i].want, "%s: got %s, want %s", cases[i].name, magpie_format_name(got),
              magpie_format_name(cases[i].want));
    }
    CHECK(magpie_sniff(NULL, 10) == MAGPIE_FORMAT_UNKNOWN, "NULL data");
    CHECK(strcmp(magpie_format_name(MAGPIE_FORMAT_AVIF), "avif") == 0, "format names");
    CHECK(strcmp(magpie_format_name((magpie_format)99), "unknown") == 0, "bad format name");
    /* The codec table: every format has one row, a name of its own and a media type; decoding and
     * encoding only where a row says so. */
    CHECK(magpie_format_media_type(MAGPIE_FORMAT_UNKNOWN) == NULL, "unknown has no media type");
    CHECK(magpie_format_media_type((magpie_format)99) == NULL, "no media type past the table");
    CHECK(!magpie_format_decodable((magpie_format)99) && !magpie_format_encodable((magpie_format)99), "no codec");
    for (int f = MAGPIE_FORMAT_JPEG; f <= MAGPIE_FORMAT_PDF; f++) {
        const char *name = magpie_format_name((magpie_format)f), *type = magpie_format_media_type((magpie_format)f);
        CHECK(strcmp(name, "unknown") != 0 && type != NULL, "format %d has a row", f);
        if (!type) continue;
        CHECK(strncmp(type, "image/", 6) == 0 || strcmp(type, "application/pdf") == 0, "%s: media type %s", name, type);
        for (int g = MAGPIE_FORMAT_JPEG; g < f; g++)
            CHECK(strcmp(name, magpie_format_name((magpie_format)g)) != 0, "%s named twice", name);
    }
    CHECK(strcmp(magpie_format_media_type(MAGPIE_FORMAT_JPEG), "image/jpeg") == 0, "jpeg media type");
    CHECK(strcmp(magpie_format_media_type(MAGPIE_FORMAT_ICO), "image/vnd.microsoft.icon") == 0, "ico media type");
    CHECK(magpie_format_decodable(MAGPIE_FORMAT_JPEG) && magpie_format_encodable(MAGPIE_FORMAT_JPEG), "jpeg");
    CHECK(magpie_format_decodable(MAGPIE_FORMAT_GIF), "gif");
    CHECK(!magpie_format_encodable(MAGPIE_FORMAT_BMP) && !magpie_format_encodable(MAGPIE_FORMAT_HEIC), "bmp, heic");
    CHECK(!magpie_format_decodable(MAGPIE_FORMAT_PDF) && !magpie_format_encodable(MAGPIE_FORMAT_PDF), "pdf");

    /* Files made here: every format fixture (its name says its format) and what the encoder
     * writes in each format it can, each whole and by a 32-byte prefix. */
    static const struct {
        const char *name;
        magpie_format want;
    } made[] = {
        {"bmp-rgb24.bmp", MAGPIE_FORMAT_BMP},       {"bmp-os2-core.bmp", MAGPIE_FORMAT_BMP},
        {"ico-png.ico", MAGPIE_FORMAT_ICO},         {"ico-bmp.ico", MAGPIE_FORMAT_ICO},
        {"heic-rgb.heic", MAGPIE_FORMAT_HEIC},      {"jxl-lossless.jxl", MAGPIE_FORMAT_JXL},
        {"jxl-container.jxl", MAGPIE_FORMAT_JXL},   {"tiff-rgb8-lzw.tif", MAGPIE_FORMAT_TIFF},
        {"tiff-planar-msb.tif", MAGPIE_FORMAT_TIFF}, {"svg-shapes.svg", MAGPIE_FORMAT_SVG},
        {"svg-viewbox.svg", MAGPIE_FORMAT_SVG},     {"svg-shapes.ref.png", MAGPIE_FORMAT_PNG},
    };
    for (size_t i = 0; i < sizeof made / sizeof *made; i++) {
        size_t size = 0;
        uint8_t *data = tu_fixture(made[i].name, &size);
        if (!data) continue;
        magpie_format f = magpie_sniff(data, size);
        CHECK(f == made[i].want, "%s: sniffed %s", made[i].name, magpie_format_name(f));
        if (f != MAGPIE_FORMAT_SVG && size > 32) CHECK(magpie_sniff(data, 32) == f, "%s: prefix", made[i].name);
        free(data);
    }
    uint8_t *px = tu_gradient(48, 32);
    for (int f = MAGPIE_FORMAT_JPEG; f <= MAGPIE_FORMAT_PDF; f++) {
        if (!magpie_format_encodable((magpie_format)f)) continue;
        magpie_encode_options e;
        magpie_encode_options_init(&e);
        e.format = (magpie_format)f;
        uint8_t *out = NULL;
        size_t n = 0;
        int rc = magpie_encode(px, 48, 32, 48 * 4, &e, &out, &n);
        if (rc == MAGPIE_EUNSUPPORTED) continue; /* a codec this machine cannot load */
        CHECK(rc == MAGPIE_OK, "encode %s: %s", magpie_format_name((magpie_format)f), magpie_strerror(rc));
        if (rc) continue;
        CHECK(magpie_sniff(out, n) == (magpie_format)f && magpie_sniff(out, 32) == (magpie_format)f,
              "%s written, then sniffed as %s",
              magpie_format_name((magpie_format)f), magpie_format_name(magpie_sniff(out, n)));
        magpie_free(out);
    }
    free(px);

    /* Then every corpus file against MANIFEST.tsv, where the corpus is beside the project. */
    const char *dir = argc > 1 ? argv[1] : NULL;
    if (!tu_corpus_present(dir)) {
        printf("test_sniff: no corpus at %s; its files are not sniffed\n", dir ? dir : "(none)");
        return tu_finish("sniff");
    }
    tu_row *rows;
    int n = tu_manifest(dir, &rows);
    CHECK(n > 700, "manifest rows: %d", n);
    for (int i = 0; i < n; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, rows[i].path);
        size_t size;
        uint8_t *data = tu_read_file(path, &size);
        CHECK(data != NULL, "cannot read %s", path);
        if (!data) continue;
        magpie_format f = magpie_sniff(data, size);
        CHECK(strcmp(magpie_format_name(f), rows[i].format) == 0, "%s: sniffed %s, manifest says %s", rows[i].path,
              magpie_format_name(f), rows[i].format);
        /* A 32-byte prefix identifies every binary format the same way. */
        if (f != MAGPIE_FORMAT_SVG && size > 32)
            CHECK(magpie_sniff(data, 32) == f, "%s: prefix sniff differs", rows[i].path);
        free(data);
    }
    free(rows);
    return tu_finish("sniff");
}
