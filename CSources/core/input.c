/* Input: bytes in memory, or a file read through a window with positional reads, so a file's
 * bytes never have to be resident all at once. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

void magpie__in_memory(magpie__in *in, const void *data, size_t size) {
    memset(in, 0, sizeof *in);
    in->mem = data;
    in->size = size;
    in->fd = -1;
}

int magpie__in_open(magpie__in *in, const char *path, char *detail, size_t detail_size) {
    memset(in, 0, sizeof *in);
    in->fd = -1;
    if (!path) return MAGPIE_EINVAL;
    /* O_NONBLOCK: opening a FIFO with no writer (or a device) must not hang; a non-regular
     * file is refused below, before any read. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    struct stat st;
    const char *why = NULL;
    if (fd < 0) why = strerror(errno);
    else if (fstat(fd, &st) != 0) why = strerror(errno);
    else if (!S_ISREG(st.st_mode)) why = S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file";
    if (why) {
        if (detail && detail_size) {
            size_t n = strlen(why) < detail_size - 1 ? strlen(why) : detail_size - 1;
            memcpy(detail, why, n);
            detail[n] = 0;
        }
        if (fd >= 0) close(fd);
        return MAGPIE_EIO;
    }
    in->fd = fd;
    in->size = (uint64_t)st.st_size;
    return MAGPIE_OK;
}

void magpie__in_close(magpie__in *in) {
    if (in->fd >= 0) close(in->fd);
    free(in->win);
    in->win = NULL;
    in->fd = -1;
}

size_t magpie__read(magpie__in *in, uint64_t off, void *dst, size_t n) {
    if (off >= in->size) return 0;
    if (n > in->size - off) n = (size_t)(in->size - off);
    if (in->mem) {
        memcpy(dst, in->mem + off, n);
        return n;
    }
    size_t done = 0;
    while (done < n) {
        ssize_t r = pread(in->fd, (uint8_t *)dst + done, n - done, (off_t)(off + done));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) {
            if (r < 0) in->io_error = errno;
            break;
        }
        done += (size_t)r;
    }
    return done;
}

const uint8_t *magpie__peek_upto(magpie__in *in, uint64_t off, size_t n, size_t *got) {
    *got = 0;
    if (off >= in->size) return NULL;
    if (n > in->size - off) n = (size_t)(in->size - off);
    if (in->mem) {
        *got = n;
        return in->mem + off;
    }
    if (n > MAGPIE__WINDOW) n = MAGPIE__WINDOW;
    if (in->win && off >= in->win_off && off + n <= in->win_off + in->win_len) {
        *got = n;
        return in->win + (off - in->win_off);
    }
    if (!in->win && !(in->win = malloc(MAGPIE__WINDOW))) return NULL;
    in->win_off = off;
    in->win_len = magpie__read(in, off, in->win, MAGPIE__WINDOW);
    *got = n < in->win_len ? n : in->win_len;
    return *got ? in->win : NULL;
}

const uint8_t *magpie__peek(magpie__in *in, uint64_t off, size_t n) {
    size_t got;
    const uint8_t *p = magpie__peek_upto(in, off, n, &got);
    return p && got == n ? p : NULL;
}
