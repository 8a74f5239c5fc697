/* libFuzzer harness: an animation a frame at a time and back. Any input the decoder opens is read
 * through the frame iterator as a small thumbnail (at most 40 frames), every frame going into an
 * animated WebP and an animated GIF encoder; each file made is decoded again (round trip): the GIF
 * must hold as many frames of the same size; the WebP the same size and total duration, in as many
 * frames or fewer (WebPAnimEncoder merges a frame that changes nothing into the one before).
 * Limits are lowered so a run stays in memory. */
#include <stdio.h>
#include <stdlib.h>

#include "magpie.h"

static void check_round_trip(const uint8_t *file, size_t n, int webp, uint32_t frames, uint64_t duration, uint32_t w,
                             uint32_t h) {
    magpie_decoder *d = NULL;
    if (magpie_decoder_open(file, n, NULL, &d) != MAGPIE_OK) abort();
    uint32_t count = 0, ow = 0, oh = 0;
    int32_t loop = 0;
    magpie_decoder_frame_count(d, &count, &loop);
    magpie_decoder_output_size(d, &ow, &oh);
    if ((webp ? count > frames || count == 0 : count != frames) || ow != w || oh != h) {
        fprintf(stderr, "round trip: %u frames of %ux%u, %u of %ux%u went in\n", count, ow, oh, frames, w, h);
        abort();
    }
    uint8_t *px = malloc((size_t)w * h * 4);
    uint64_t total = 0;
    for (uint32_t i = 0; px && i < count; i++) {
        uint32_t delay = 0;
        if (magpie_decoder_next_frame(d, px, (size_t)w * 4, (size_t)w * h * 4, &delay) != MAGPIE_OK) abort();
        total += delay;
    }
    if (px && webp && count > 1 && total != duration) {
        fprintf(stderr, "round trip: %llu ms, %llu ms went in\n", (unsigned long long)total,
                (unsigned long long)duration);
        abort();
    }
    free(px);
    magpie_decoder_free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    magpie_decode_options o;
    magpie_decode_options_init(&o);
    o.limits.max_pixels = 4u << 20;
    o.limits.max_bytes = 128u << 20;
    o.limits.max_frames = 200;
    o.limits.max_frame_work = 50;
    o.fit = MAGPIE_FIT_INSIDE;
    o.width = 1 + (uint32_t)(size % 47);
    o.height = 1 + (uint32_t)(size / 47 % 41);
    magpie_decoder *d = NULL;
    if (magpie_decoder_open(data, size, &o, &d) != MAGPIE_OK) return 0;
    uint32_t w = 0, h = 0, frames = 0;
    int32_t loop = 0;
    magpie_decoder_output_size(d, &w, &h);
    magpie_decoder_frame_count(d, &frames, &loop);
    magpie_encode_options eo[2];
    magpie_animation_encoder *enc[2] = {NULL, NULL};
    magpie_animation_options ao;
    magpie_animation_options_init(&ao);
    ao.loop_count = loop;
    ao.dither = (int)(size % 3) * 50;
    for (int k = 0; k < 2; k++) {
        magpie_encode_options_init(&eo[k]);
        eo[k].format = k == 0 ? MAGPIE_FORMAT_WEBP : MAGPIE_FORMAT_GIF;
        eo[k].lossless = (int)(size & 1);
        eo[k].method = 0;
        if (magpie_format_encodable(eo[k].format)) magpie_animation_encoder_new(w, h, &eo[k], &ao, &enc[k]);
    }
    uint8_t *px = malloc((size_t)w * h * 4);
    uint32_t given = 0;
    uint64_t duration = 0;
    for (; px && given < frames && given < 40; given++) {
        uint32_t delay = 0;
        if (magpie_decoder_next_frame(d, px, (size_t)w * 4, (size_t)w * h * 4, &delay) != MAGPIE_OK) break;
        duration += delay;
        for (int k = 0; k < 2; k++)
            if (enc[k] && magpie_animation_encoder_add(enc[k], px, (size_t)w * 4, delay) != MAGPIE_OK) abort();
    }
    free(px);
    magpie_decoder_free(d);
    for (int k = 0; k < 2; k++) {
        uint8_t *out = NULL;
        size_t n = 0;
        if (enc[k] && given > 0) {
            if (magpie_animation_encoder_finish(enc[k], &out, &n) != MAGPIE_OK) abort();
            check_round_trip(out, n, k == 0, given, duration, w, h);
            magpie_free(out);
        }
        magpie_animation_encoder_free(enc[k]);
    }
    return 0;
}
