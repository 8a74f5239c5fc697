/* Shared libraries loaded on first use: see lazy.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* secure_getenv, RTLD_NOLOAD */
#endif
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/lazy.h"

const char *magpie__lazy_ready(magpie__lazy *l) {
    if (!__atomic_load_n(&l->attempted, __ATOMIC_ACQUIRE)) {
        pthread_mutex_lock(&l->lock);
        if (!l->attempted) {
            /* Lazy binding, as the dynamic loader starts a program that links the library: the
             * symbols Magpie calls are looked up (dlsym) before use either way. */
            void *h = dlopen(l->soname, RTLD_LAZY | RTLD_LOCAL);
            if (!h) {
                snprintf(l->error, sizeof l->error, "%s could not be loaded: %s", l->soname, dlerror());
            } else if (l->bind(h, l->error, sizeof l->error) != 0) {
                dlclose(h);
            } else {
                l->loaded = 1; /* kept loaded for the life of the process */
            }
            __atomic_store_n(&l->attempted, 1, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&l->lock);
    }
    return l->loaded ? NULL : l->error;
}

/* ---- finding a library without loading it ---- */

static int magpie__is_file(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Whether `dir`/soname is a regular file (dir of length n, not NUL-terminated; empty: the current
 * folder, as the dynamic loader reads an empty LD_LIBRARY_PATH element). */
static int magpie__in_dir(const char *dir, size_t n, const char *soname) {
    char path[4096];
    size_t len = strlen(soname);
    if (n == 0) dir = ".", n = 1;
    if (n + 2 + len > sizeof path) return 0;
    memcpy(path, dir, n);
    path[n] = '/';
    memcpy(path + n + 1, soname, len + 1);
    return magpie__is_file(path);
}

/* Whether the loader's cache lists a path ending in "/" soname that is a regular file. The
 * cache's string table holds each library's path NUL-terminated, in both of glibc's formats, so
 * a byte search finds it without depending on the entry layout. Reads at most 64 MiB. */
static int magpie__in_ld_cache(const char *cache_path, const char *soname) {
    char tail[256];
    int tail_len = snprintf(tail, sizeof tail, "/%s", soname);
    if (tail_len <= 0 || (size_t)tail_len >= sizeof tail) return 0;
    size_t want = (size_t)tail_len + 1; /* with its NUL in the table */
    int fd = open(cache_path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    struct stat st;
    int found = 0;
    char *buf = NULL;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 && st.st_size <= (64 << 20) &&
        (buf = malloc((size_t)st.st_size + 1)) != NULL) {
        size_t size = 0;
        while (size < (size_t)st.st_size) {
            ssize_t got = read(fd, buf + size, (size_t)st.st_size - size);
            if (got <= 0) break;
            size += (size_t)got;
        }
        buf[size] = '\0';
        for (size_t i = 0; !found && i + want <= size + 1; i++) {
            if (buf[i] != '/' || memcmp(buf + i, tail, want) != 0) continue;
            size_t start = i;
            while (start > 0 && buf[start - 1] != '\0') start--;
            if (buf[start] == '/' && i + want - start < 4096) found = magpie__is_file(buf + start);
        }
    }
    free(buf);
    close(fd);
    return found;
}

/* Where dlopen looks for a bare soname (ld.so(8)): LD_LIBRARY_PATH (not for a set-user-ID
 * program), the loader's cache, then the default folders. The executable's own RPATH/RUNPATH
 * are not read: the SwiftPM and CMake builds set none that holds these libraries. */
static int magpie__find(const char *soname) {
    void *already = dlopen(soname, RTLD_LAZY | RTLD_NOLOAD);
    if (already) {
        dlclose(already);
        return 1;
    }
    const char *env = secure_getenv("LD_LIBRARY_PATH");
    while (env && *env) {
        size_t n = strcspn(env, ":;");
        if (magpie__in_dir(env, n, soname)) return 1;
        env += n + (env[n] != '\0');
    }
    if (magpie__in_ld_cache("/etc/ld.so.cache", soname)) return 1;
    static const char *const defaults[] = {
#if defined(__x86_64__)
        "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
#elif defined(__aarch64__)
        "/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
#endif
        "/lib64", "/usr/lib64", "/lib", "/usr/lib",
    };
    for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++)
        if (magpie__in_dir(defaults[i], strlen(defaults[i]), soname)) return 1;
    return 0;
}

int magpie__lazy_available(magpie__lazy *l) {
    if (__atomic_load_n(&l->attempted, __ATOMIC_ACQUIRE)) return l->loaded;
    pthread_mutex_lock(&l->lock);
    if (!l->searched) {
        l->found = magpie__find(l->soname);
        l->searched = 1;
    }
    int found = l->found;
    pthread_mutex_unlock(&l->lock);
    return found;
}
