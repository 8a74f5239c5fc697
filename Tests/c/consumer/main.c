/* Uses an installed libmagpie (through pkg-config or find_package) to thumbnail a generated PNG. */
#include <magpie.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    enum { W = 300, H = 200 };
    static uint8_t px[W * H * 4];
    for (int i = 0; i < W * H; i++) {
        px[4 * i] = (uint8_t)(i % W);
        px[4 * i + 1] = (uint8_t)(i / W);
        px[4 * i + 2] = 90;
        px[4 * i + 3] = 255;
    }
    uint8_t *png;
    size_t n;
    if (magpie_encode(px, W, H, W * 4, NULL, &png, &n) != MAGPIE_OK) return 1;
    magpie_decode_options o;
    magpie_decode_options_init(&o);
    o.fit = MAGPIE_FIT_INSIDE;
    o.width = o.height = 60;
    magpie_image *img;
    int rc = magpie_decode(png, n, &o, &img);
    magpie_free(png);
    if (rc != MAGPIE_OK || img->width != 60 || img->height != 40) return 1;
    printf("consumer: libmagpie %s made a %ux%u thumbnail\n", magpie_version_string(), img->width, img->height);
    magpie_image_free(img);
    /* With WebP built in, a static link must bring libwebp along (pkg-config's Requires.private). */
    if (magpie_format_encodable(MAGPIE_FORMAT_WEBP)) {
        magpie_encode_options e;
        magpie_encode_options_init(&e);
        e.format = MAGPIE_FORMAT_WEBP;
        uint8_t *webp;
        if (magpie_encode(px, W, H, W * 4, &e, &webp, &n) != MAGPIE_OK) return 1;
        rc = magpie_decode(webp, n, &o, &img);
        magpie_free(webp);
        if (rc != MAGPIE_OK || img->width != 60) return 1;
        printf("consumer: and a WebP round trip\n");
        magpie_image_free(img);
    }
    return 0;
}
