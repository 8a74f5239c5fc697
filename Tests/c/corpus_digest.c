/* Prints one line per file of what the C core makes of it: the sniffed format, every probe
 * field, and the MD5 of each decode (full size with every frame; a 200-pixel thumbnail, default
 * and fast; from the file and from memory) and of each encoding of the first frame, with every
 * status and error detail. Two builds that print the same lines behave the same, bit for bit,
 * on those files (scripts/corpus-digest.sh compares a build against another commit's).
 * Usage: corpus_digest FILE... */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "magpie.h"

static unsigned char *slurp(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, len = 0;
    unsigned char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            unsigned char *grown = realloc(buf, cap *= 2);
            if (!grown) free(buf);
            buf = grown;
        }
    }
    fclose(f);
    *n = len;
    return buf;
}

static void decoded(const char *label, int rc, const magpie_image *img, const char *detail) {
    printf(" %s=%d", label, rc);
    if (rc) {
        printf("[%s]", detail);
        return;
    }
    char hex[33];
    magpie_md5_hex(img->pixels, (size_t)img->stride * img->height * img->frame_count, hex);
    printf("(%ux%u*%u loop %d o%u fmt %d src %ux%u) %s", img->width, img->height, img->frame_count,
           img->loop_count, img->orientation, (int)img->format, img->source_width, img->source_height, hex);
    for (uint32_t i = 0; i < img->frame_count && img->delays_ms; i++) printf(i ? ",%u" : " d%u", img->delays_ms[i]);
}

static void decode_variants(const char *path, const unsigned char *data, size_t n, magpie_image **first) {
    static const struct { const char *label; magpie_fit fit; uint32_t size; uint32_t flags; } runs[] = {
        {"full", MAGPIE_FIT_NONE, 0, 0},
        {"thumb", MAGPIE_FIT_INSIDE, 200, 0},
        {"fast", MAGPIE_FIT_INSIDE, 200, MAGPIE_DECODE_FAST},
        {"fill", MAGPIE_FIT_FILL, 96, MAGPIE_DECODE_ONE_FRAME},
    };
    for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
        for (int from_file = 0; from_file < 2; from_file++) {
            char detail[256] = "";
            magpie_decode_options o;
            magpie_decode_options_init(&o);
            o.fit = runs[i].fit;
            o.width = o.height = runs[i].size;
            o.flags = runs[i].flags;
            o.error_detail = detail;
            o.error_detail_size = sizeof detail;
            magpie_image *img = NULL;
            int rc = from_file ? magpie_decode_file(path, &o, &img) : magpie_decode(data, n, &o, &img);
            char label[32];
            snprintf(label, sizeof label, "%s%s", runs[i].label, from_file ? "@file" : "");
            decoded(label, rc, img, detail);
            if (i == 0 && !from_file && !rc) *first = img;
            else magpie_image_free(img);
        }
    }
}

static void encodings(const magpie_image *img) {
    static const magpie_format formats[] = {MAGPIE_FORMAT_PNG, MAGPIE_FORMAT_JPEG, MAGPIE_FORMAT_WEBP,
                                            MAGPIE_FORMAT_GIF, MAGPIE_FORMAT_AVIF};
    for (size_t i = 0; i < sizeof formats / sizeof *formats; i++) {
        for (int lossless = 0; lossless < (formats[i] == MAGPIE_FORMAT_WEBP ? 2 : 1); lossless++) {
            magpie_encode_options o;
            magpie_encode_options_init(&o);
            o.format = formats[i];
            o.quality = 80;
            o.lossless = lossless;
            uint8_t *out = NULL;
            size_t size = 0;
            int rc = magpie_encode(img->pixels, img->width, img->height, img->stride, &o, &out, &size);
            char hex[33] = "-";
            if (!rc) magpie_md5_hex(out, size, hex);
            printf(" enc-%s%s=%d:%zu:%s", magpie_format_name(formats[i]), lossless ? "-lossless" : "", rc, size, hex);
            magpie_free(out);
        }
    }
}

int main(int argc, char **argv) {
    for (int a = 1; a < argc; a++) {
        size_t n = 0;
        unsigned char *data = slurp(argv[a], &n);
        if (!data) {
            printf("%s unreadable\n", argv[a]);
            continue;
        }
        printf("%s sniff=%s", argv[a], magpie_format_name(magpie_sniff(data, n)));
        magpie_info info;
        int rc = magpie_probe(data, n, &info);
        printf(" probe=%d(%s %ux%u f%u o%u b%u c%u fl%x l%d)", rc, magpie_format_name(info.format), info.width,
               info.height, info.frames, info.orientation, info.bit_depth, info.components, info.flags,
               info.loop_count);
        printf(" decodable=%d encodable=%d", magpie_format_decodable(info.format),
               magpie_format_encodable(info.format));
        magpie_image *first = NULL;
        if (n) decode_variants(argv[a], data, n, &first);
        if (first) encodings(first);
        magpie_image_free(first);
        free(data);
        printf("\n");
    }
    return 0;
}
