/* Shared libraries loaded on first use (lazy.c): found without loading them, so a codec can say
 * it is there; dlopen'ed, bound and version-checked once, on the first decode that needs them.
 * libavif (with MAGPIE_AVIF_DLOPEN), libtiff and libheif come this way: linked, each brings its
 * dependencies into every program at start-up whether it meets such a file or not. */
#ifndef MAGPIE_LAZY_H
#define MAGPIE_LAZY_H

#include <pthread.h>

#include "internal.h"

typedef struct magpie__lazy {
    const char *soname; /* what dlopen is given: "libtiff.so.6" */
    /* Looks up the library's symbols in `handle` and checks its version; 0 when usable, else
     * writes why not into `why`. */
    int (*bind)(void *handle, char *why, size_t why_size);
    pthread_mutex_t lock;
    int attempted, loaded; /* attempted is read without the lock (acquire/release) */
    int searched, found;
    char error[200];
} magpie__lazy;

/* In a bind function: looks `symbol` up in `handle` into `table.field`, setting `missing` when it
 * is not there (each loader's bind checks `missing` once at the end). */
#define MAGPIE__LAZY_SYM(table, handle, missing, field, symbol)  \
    do {                                                          \
        *(void **)&(table).field = dlsym((handle), (symbol));     \
        if (!(table).field) (missing) = 1;                        \
    } while (0)

#define MAGPIE__LAZY_INIT(soname, bind) {soname, bind, PTHREAD_MUTEX_INITIALIZER, 0, 0, 0, 0, {0}}

/* NULL when the library is loaded and bound; else why not. Loads it on the first call;
 * thread-safe; a library that loaded stays loaded for the life of the process. */
MAGPIE_HIDDEN const char *magpie__lazy_ready(magpie__lazy *l);
/* Whether the library is there, without loading it: once a load was tried, whether it worked;
 * before, whether it is already loaded or dlopen would find a file by its soname (looked for
 * once per process). */
MAGPIE_HIDDEN int magpie__lazy_available(magpie__lazy *l);

#endif
