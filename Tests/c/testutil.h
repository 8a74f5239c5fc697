/* Small helpers for the C tests: file reading, the corpus manifest and checks that count. */
#ifndef MAGPIE_TESTUTIL_H
#define MAGPIE_TESTUTIL_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

extern int tu_failures;
extern int tu_checks;

#define CHECK(cond, ...)                                                      \
    do {                                                                      \
        tu_checks++;                                                          \
        if (!(cond)) {                                                        \
            tu_failures++;                                                    \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);  \
            fprintf(stderr, __VA_ARGS__);                                     \
            fprintf(stderr, "\n");                                            \
        }                                                                     \
    } while (0)

uint8_t *tu_read_file(const char *path, size_t *size);
/* Exits 77 (ctest's skip) with a visible message when the corpus directory is missing. */
void tu_require_corpus(const char *dir);
/* Whether dir holds a MANIFEST.tsv. */
int tu_corpus_present(const char *dir);

typedef struct {
    char path[512];
    char format[16];
    int width, height, frames; /* -1 when empty */
    char expected[16];
    char notes[512];
} tu_row;

/* Reads MANIFEST.tsv; returns the number of rows (malloc'd array in *rows). */
int tu_manifest(const char *dir, tu_row **rows);
/* An opaque RGBA gradient, w x h (w, h >= 2), malloc'd. */
uint8_t *tu_gradient(uint32_t w, uint32_t h);
/* The PSNR in dB of the RGB samples of two RGBA images of `pixels` pixels (99 when identical). */
double tu_psnr_rgb(const uint8_t *a, const uint8_t *b, size_t pixels);
/* `magpie_resample` with positional arguments, a window and a filter (what the tests call most). */
int tu_resize(const uint8_t *src, uint32_t src_w, uint32_t src_h, size_t src_stride, const void *window,
              uint32_t out_w, uint32_t out_h, int filter, uint8_t *dst, size_t dst_stride);
/* Whether a library whose path holds `name` is mapped into this process; -1 when unknown. */
int tu_mapped(const char *name);
#ifdef MAGPIE_FIXTURES
/* A file of Tests/fixtures/formats, read whole (a failed CHECK and NULL when it is not there). */
uint8_t *tu_fixture(const char *name, size_t *size);
#endif
/* Prints "N passed, N failed" and returns the exit code. */
int tu_finish(const char *name);
#endif
