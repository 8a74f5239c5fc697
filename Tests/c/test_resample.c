/* magpie_resample: the options-struct form of resizing (window, filter, pixel limit, detail). */
#include <stdlib.h>
#include <string.h>

#include "magpie.h"
#include "testutil.h"

int main(void) {
    enum { W = 40, H = 30 };
    static uint8_t src[W * H * 4], out[20 * 15 * 4], old[20 * 15 * 4];
    for (size_t i = 0; i < sizeof src; i++) src[i] = (uint8_t)(i * 13 + i / 160);
    magpie_pixels from = {src, W, H, W * 4}, to = {out, 20, 15, 20 * 4};

    /* Defaults (NULL options) give what the positional form gives. */
    CHECK(magpie_resample(&from, &to, NULL) == MAGPIE_OK, "defaults");
    CHECK(magpie_resize(src, W, H, W * 4, NULL, 20, 15, MAGPIE_FILTER_LANCZOS3, old, 20 * 4) == MAGPIE_OK, "old");
    CHECK(memcmp(out, old, sizeof out) == 0, "the positional form is the same resample");

    /* A window the size of the output is an exact crop. */
    magpie_resize_options o;
    magpie_resize_options_init(&o);
    magpie_rect window = {5, 7, 20, 15};
    o.window = &window;
    o.filter = MAGPIE_FILTER_BILINEAR;
    CHECK(magpie_resample(&from, &to, &o) == MAGPIE_OK, "crop");
    int exact = 1;
    for (uint32_t y = 0; y < 15; y++)
        exact &= memcmp(out + y * 20 * 4, src + ((y + 7) * W + 5) * 4, 20 * 4) == 0;
    CHECK(exact, "the window copied exactly");

    /* The pixel limit is the caller's to set, and refusals say why. */
    char why[64] = "";
    magpie_resize_options_init(&o);
    o.max_output_pixels = 299;
    o.error_detail = why;
    o.error_detail_size = sizeof why;
    CHECK(magpie_resample(&from, &to, &o) == MAGPIE_ELIMIT_PIXELS, "300 pixels over a limit of 299");
    CHECK(strstr(why, "pixel limit") != NULL, "detail: %s", why);
    o.max_output_pixels = 300;
    CHECK(magpie_resample(&from, &to, &o) == MAGPIE_OK, "300 pixels within a limit of 300");
    magpie_rect outside = {30, 0, 20, 15};
    o.window = &outside;
    CHECK(magpie_resample(&from, &to, &o) == MAGPIE_EINVAL && strstr(why, "window"), "window outside: %s", why);
    o.window = NULL;
    o.filter = (magpie_filter)9;
    CHECK(magpie_resample(&from, &to, &o) == MAGPIE_EINVAL && strstr(why, "filter"), "filter: %s", why);
    o.filter = MAGPIE_FILTER_LANCZOS3;
    o.struct_size = 8;
    CHECK(magpie_resample(&from, &to, &o) == MAGPIE_EINVAL, "an options struct from the future's past");
    magpie_pixels empty = {NULL, 20, 15, 80};
    CHECK(magpie_resample(&from, &empty, NULL) == MAGPIE_EINVAL, "no destination");
    return tu_finish("resample");
}
