/* In memory, apart from process start-up and files: full-size WebP decode, magpie_decode (RGBA)
 * against libwebp's WebPDecodeRGBA and WebPDecodeRGB (what dwebp -ppm asks for); and WebP encoding
 * of an RGBA image, magpie_encode against libwebp's WebPEncode with cwebp's settings (quality 85,
 * method 4). Median of 9 runs each, interleaved. Usage: codecbench FILE.webp THUMB.webp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <webp/decode.h>
#include <webp/encode.h>

#include "benchutil.h"
#include "magpie.h"

static size_t libwebp_encode(const uint8_t *px, int w, int h) {
    WebPConfig cfg;
    WebPPicture pic;
    WebPMemoryWriter wr;
    WebPConfigInit(&cfg);
    cfg.quality = 85;
    cfg.method = 4;
    WebPPictureInit(&pic);
    pic.width = w;
    pic.height = h;
    WebPMemoryWriterInit(&wr);
    pic.writer = WebPMemoryWrite;
    pic.custom_ptr = &wr;
    WebPPictureImportRGBA(&pic, px, w * 4);
    WebPEncode(&cfg, &pic);
    size_t size = wr.size;
    WebPPictureFree(&pic);
    WebPMemoryWriterClear(&wr);
    return size;
}

static void encode_bench(const char *path) {
    long n;
    uint8_t *data = slurp(path, &n);
    magpie_image *img;
    if (!data || magpie_decode(data, (size_t)n, NULL, &img) != MAGPIE_OK) return;
    enum { R = 9 };
    double m[R], l[R];
    size_t mine = 0, theirs = 0;
    magpie_encode_options o;
    magpie_encode_options_init(&o);
    o.format = MAGPIE_FORMAT_WEBP;
    o.quality = 85;
    for (int r = 0; r < R; r++) {
        double s = now();
        uint8_t *out;
        if (magpie_encode(img->pixels, img->width, img->height, img->stride, &o, &out, &mine) != MAGPIE_OK) return;
        magpie_free(out);
        m[r] = now() - s;
        s = now();
        theirs = libwebp_encode(img->pixels, (int)img->width, (int)img->height);
        l[r] = now() - s;
    }
    qsort(m, R, sizeof *m, cmp);
    qsort(l, R, sizeof *l, cmp);
    printf("WebP encode in memory, %ux%u, quality 85, method 4: magpie %.2f ms (%zu bytes), libwebp %.2f ms (%zu bytes): "
           "ratio %.2f\n", img->width, img->height, m[R / 2] * 1e3, mine, l[R / 2] * 1e3, theirs, m[R / 2] / l[R / 2]);
    magpie_image_free(img);
    free(data);
}

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    long n;
    uint8_t *data = slurp(argv[1], &n);
    if (!data) return 2;
    enum { R = 9 };
    double m[R], a[R], b[R];
    int w = 0, h = 0;
    for (int r = 0; r < R; r++) {
        if ((m[r] = time_magpie_decode(data, (size_t)n)) < 0) return 1;
        double s = now();
        uint8_t *p = WebPDecodeRGBA(data, (size_t)n, &w, &h);
        if (!p) return 1;
        WebPFree(p);
        a[r] = now() - s;
        s = now();
        p = WebPDecodeRGB(data, (size_t)n, &w, &h);
        if (!p) return 1;
        WebPFree(p);
        b[r] = now() - s;
    }
    qsort(m, R, sizeof *m, cmp);
    qsort(a, R, sizeof *a, cmp);
    qsort(b, R, sizeof *b, cmp);
    printf("full WebP decode in memory, %dx%d: magpie %.1f ms, WebPDecodeRGBA %.1f ms (ratio %.2f), WebPDecodeRGB %.1f ms "
           "(ratio %.2f)\n", w, h, m[R / 2] * 1e3, a[R / 2] * 1e3, m[R / 2] / a[R / 2], b[R / 2] * 1e3, m[R / 2] / b[R / 2]);
    free(data);
    encode_bench(argv[2]);
    return 0;
}
