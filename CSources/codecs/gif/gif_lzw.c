/* A GIF frame's LZW code stream decoded into palette indices, row by row, in place of giflib's
 * line decoder: that one takes a code that is not in the table yet (a damaged stream) and goes on
 * with garbage, so a frame could "decode" with invented pixels. Here the frame is refused when a
 * code is not defined, or when the stream ends before the frame's pixels are all there. What
 * follows the last pixel (a missing end code, extra codes) changes no pixel and is accepted, as
 * browsers and Pillow accept it. giflib still walks the blocks (gif.c skips the data through it). */
#include "codecs/gif/gif_lzw.h"

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
    /* Two bytes at once while both are inside the sub-block and the window (nbits < 12 here). */
    if (r->nbits < size && r->left >= 2 && r->avail >= 2) {
        r->bits |= ((uint32_t)r->span[0] | (uint32_t)r->span[1] << 8) << r->nbits;
        r->nbits += 16;
        r->span += 2;
        r->avail -= 2;
        r->at += 2;
        r->left -= 2;
    }
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

int magpie__gif_lzw_begin(magpie__job *job, magpie__gif_lzw *z, uint64_t at, uint32_t frame, uint64_t pixels) {
    const uint8_t *p = at > 0 ? magpie__peek(job->in, at - 1, 1) : NULL;
    if (!p) return job->in->io_error ? MAGPIE_EIO : MAGPIE_ETRUNCATED;
    uint32_t min = p[0];
    if (min < 1 || min > 11) {
        magpie__detail(job, "frame %u: LZW minimum code size %u is invalid", frame, min);
        return MAGPIE_ECORRUPT;
    }
    z->r = (magpie__lzw_reader){job->in, at, NULL, 0, 0, 0, 0, 0, 0};
    z->min = min;
    z->clear = 1 << min;
    z->next = z->clear + 2;
    z->size = min + 1;
    z->prev = -1;
    z->sp = 0;
    z->first = 0;
    z->done = 0;
    z->pixels = pixels;
    z->frame = frame;
    for (int c = 0; c < z->clear; c++) {
        z->prefix[c] = -1;
        z->suffix[c] = (uint8_t)c;
        z->len[c] = 1;
    }
    return MAGPIE_OK;
}

/* Pushes code `code`'s string onto the stack, last pixel first. */
static void magpie__lzw_push(magpie__gif_lzw *z, int code) {
    for (int c = code; c >= 0 && z->sp < (int)sizeof z->stack; c = z->prefix[c]) z->stack[z->sp++] = z->suffix[c];
}

int magpie__gif_lzw_read(magpie__job *job, magpie__gif_lzw *z, uint8_t *out, uint32_t n) {
    /* The table and the state in locals: a store to `out` (bytes) may alias anything, so fields
     * read through `z` would be read again after every pixel. */
    int16_t *const prefix = z->prefix;
    uint8_t *const suffix = z->suffix;
    uint16_t *const lens = z->len;
    int next = z->next, prev = z->prev;
    const int clear = z->clear;
    uint32_t size = z->size, i = 0;
    uint8_t first = z->first;
    uint64_t done = z->done;
    const uint64_t pixels = z->pixels;
    int rc = MAGPIE_OK, code = 0;
    while (i < n) {
        if (z->sp > 0) {
            /* The rest of a string that did not fit the last row, first pixel first. */
            uint32_t take = (uint32_t)z->sp < n - i ? (uint32_t)z->sp : n - i;
            for (uint32_t k = 0; k < take; k++) out[i + k] = z->stack[--z->sp];
            i += take;
            continue;
        }
        if (done >= pixels) break; /* past the frame's pixels: what follows is ignored */
        code = magpie__lzw_code(&z->r, size);
        if (code < 0) {
            if (job->in->io_error) rc = MAGPIE_EIO;
            else {
                magpie__detail(job, "frame %u: image data ends after %llu of %llu pixels", z->frame,
                               (unsigned long long)done, (unsigned long long)pixels);
                rc = MAGPIE_ETRUNCATED;
            }
            break;
        }
        if (code == clear) {
            next = clear + 2;
            size = (uint32_t)z->min + 1;
            prev = -1;
            continue;
        }
        if (code == clear + 1) {
            magpie__detail(job, "frame %u: LZW end code after %llu of %llu pixels", z->frame,
                           (unsigned long long)done, (unsigned long long)pixels);
            rc = MAGPIE_ETRUNCATED;
            break;
        }
        if (prev < 0) {
            if (code > clear) goto invalid; /* nothing is defined yet but the single pixels */
            out[i++] = (uint8_t)code;
            first = (uint8_t)code;
            done += 1;
        } else {
            int kwk = code == next; /* KwKwK: the previous string and its own first pixel */
            if (code > next || (kwk && next >= 4096)) goto invalid;
            int from = kwk ? prev : code;
            uint32_t len = (uint32_t)lens[from] + (kwk ? 1u : 0u);
            done += len;
            if (len <= n - i) {
                /* The whole string into the row, from its last pixel back. */
                uint8_t *o = out + i + len - 1;
                if (kwk) *o-- = first;
                for (int c = from; c >= 0; c = prefix[c]) *o-- = suffix[c];
                first = out[i];
                i += len;
            } else {
                if (kwk) z->stack[z->sp++] = first;
                magpie__lzw_push(z, from);
                first = z->stack[z->sp - 1];
            }
            if (next < 4096) {
                prefix[next] = (int16_t)prev;
                suffix[next] = first;
                lens[next] = (uint16_t)(lens[prev] + 1u > 4096 ? 4096 : lens[prev] + 1u);
                next++;
            }
        }
        prev = code;
        if (next == (1 << size) && size < 12) size++;
    }
    /* The frame's pixels ended inside this row: the rest is index 0, as giflib has it. */
    if (!rc)
        for (; i < n; i++) out[i] = 0;
    z->next = next, z->prev = prev, z->size = size, z->first = first, z->done = done;
    return rc;
invalid:
    magpie__detail(job, "frame %u: LZW code %d is not defined (next is %d) after %llu of %llu pixels", z->frame,
                   code, next, (unsigned long long)done, (unsigned long long)pixels);
    return MAGPIE_ECORRUPT;
}
