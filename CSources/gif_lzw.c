/* A check of one GIF frame's LZW code stream, run before giflib decodes it: giflib's line
 * decoder takes a code that is not in the table yet (a damaged stream) and goes on with garbage,
 * so a frame can "decode" with invented pixels. Here the table is tracked (lengths only, no
 * pixels) and the frame is refused when a code is not defined, or when the stream ends before
 * the frame's pixels are all there. What follows the last pixel (a missing end code, extra
 * codes) changes no pixel and is accepted, as browsers and Pillow accept it. */
#include "job.h"

typedef struct {
    magpie__in *in;
    uint64_t at;        /* file offset of span[0] */
    const uint8_t *span; /* bytes read ahead (valid until the next peek, and only this reader peeks) */
    size_t avail;       /* bytes left in span */
    uint32_t left;      /* bytes left in the current sub-block */
    int ended;          /* the sub-block terminator (or the end of the data) was reached */
    int truncated;      /* the data ended inside the stream */
    uint32_t bits;      /* bit buffer, LSB first */
    uint32_t nbits;
} magpie__lzw_reader;

/* The next raw byte of the file; -1 at its end. Reads a window at a time, not a byte. */
static inline int magpie__lzw_raw(magpie__lzw_reader *r) {
    if (r->avail == 0) {
        r->span = magpie__peek_upto(r->in, r->at, MAGPIE__WINDOW, &r->avail);
        if (!r->span || r->avail == 0) {
            r->avail = 0;
            return -1;
        }
    }
    r->at++;
    r->avail--;
    return *r->span++;
}

/* The next byte of the sub-block chain; -1 at its end. */
static inline int magpie__lzw_byte(magpie__lzw_reader *r) {
    while (r->left == 0) {
        if (r->ended) return -1;
        int len = magpie__lzw_raw(r);
        if (len < 0) {
            r->ended = r->truncated = 1;
            return -1;
        }
        r->left = (uint32_t)len;
        if (r->left == 0) {
            r->ended = 1;
            return -1;
        }
    }
    int b = magpie__lzw_raw(r);
    if (b < 0) {
        r->ended = r->truncated = 1;
        return -1;
    }
    r->left--;
    return b;
}

/* The next code of `size` bits; -1 when the data runs out first. */
static inline int magpie__lzw_code(magpie__lzw_reader *r, uint32_t size) {
    while (r->nbits < size) {
        int b = magpie__lzw_byte(r);
        if (b < 0) return -1;
        r->bits |= (uint32_t)b << r->nbits;
        r->nbits += 8;
    }
    int code = (int)(r->bits & ((1u << size) - 1));
    r->bits >>= size;
    r->nbits -= size;
    return code;
}

int magpie__gif_check_lzw(magpie__job *job, uint64_t at, uint32_t frame, uint64_t pixels) {
    const uint8_t *p = at > 0 ? magpie__peek(job->in, at - 1, 1) : NULL;
    if (!p) return job->in->io_error ? MAGPIE_EIO : MAGPIE_ETRUNCATED;
    uint32_t min = p[0];
    if (min < 1 || min > 11) {
        magpie__detail(job, "frame %u: LZW minimum code size %u is invalid", frame, min);
        return MAGPIE_ECORRUPT;
    }
    uint16_t len[4096]; /* string length of each code */
    const int clear = 1 << min, end = clear + 1;
    int next = clear + 2, prev = -1;
    uint32_t size = min + 1;
    uint64_t done = 0;
    int code = 0;
    magpie__lzw_reader r = {job->in, at, NULL, 0, 0, 0, 0, 0, 0};
    for (int c = 0; c < clear; c++) len[c] = 1;
    while (done < pixels) {
        code = magpie__lzw_code(&r, size);
        if (code < 0) {
            if (job->in->io_error) return MAGPIE_EIO;
            magpie__detail(job, "frame %u: image data ends after %llu of %llu pixels", frame,
                           (unsigned long long)done, (unsigned long long)pixels);
            return MAGPIE_ETRUNCATED;
        }
        if (code == clear) {
            next = clear + 2;
            size = min + 1;
            prev = -1;
            continue;
        }
        if (code == end) {
            magpie__detail(job, "frame %u: LZW end code after %llu of %llu pixels", frame,
                           (unsigned long long)done, (unsigned long long)pixels);
            return MAGPIE_ETRUNCATED;
        }
        uint32_t n;
        if (prev < 0) {
            if (code > clear) goto invalid; /* nothing is defined yet but the single pixels */
            n = 1;
        } else {
            if (code < next) n = len[code];
            else if (code == next && next < 4096) n = (uint32_t)len[prev] + 1u;
            else goto invalid;
            if (next < 4096) len[next++] = (uint16_t)(len[prev] + 1u > 4096 ? 4096 : len[prev] + 1u);
        }
        done += n;
        prev = code;
        if (next == (1 << size) && size < 12) size++;
    }
    return MAGPIE_OK;
invalid:
    magpie__detail(job, "frame %u: LZW code %d is not defined (next is %d) after %llu of %llu pixels", frame,
                   code, next, (unsigned long long)done, (unsigned long long)pixels);
    return MAGPIE_ECORRUPT;
}
