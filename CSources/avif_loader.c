/* libavif, linked or loaded on first use. Debian's libavif brings 22 shared libraries with it
 * (dav1d, libaom, rav1e, SVT-AV1, libgav1, libyuv, abseil): linked, the dynamic loader maps and
 * relocates them at every start of every program, about 3 ms, whether it ever meets an AVIF or
 * not. With MAGPIE_AVIF_DLOPEN (the SwiftPM build) the first AVIF decode loads it instead. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* secure_getenv, RTLD_NOLOAD */
#endif
#include <stdio.h>
#include <string.h>

#include "avif_loader.h"

#ifdef MAGPIE_HAVE_AVIF
#ifdef MAGPIE_AVIF_DLOPEN
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

magpie__avif_api magpie__avif;
static pthread_once_t magpie__avif_once = PTHREAD_ONCE_INIT;
static int magpie__avif_loaded;
static int magpie__avif_attempted; /* set (release) once magpie__avif_load has run */
static char magpie__avif_error[200];
static pthread_once_t magpie__avif_find_once = PTHREAD_ONCE_INIT;
static int magpie__avif_found;

/* The soname that matches the headers compiled against (the structs' layout is the ABI). */
#if AVIF_VERSION_MAJOR == 0 && AVIF_VERSION_MINOR == 11
#define MAGPIE__AVIF_SONAME "libavif.so.15"
#elif AVIF_VERSION_MAJOR == 1 && AVIF_VERSION_MINOR == 0
#define MAGPIE__AVIF_SONAME "libavif.so.16"
#else
#define MAGPIE__AVIF_SONAME "libavif.so"
#endif

static void magpie__avif_load(void) {
    void *h = dlopen(MAGPIE__AVIF_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(magpie__avif_error, sizeof magpie__avif_error, "libavif could not be loaded: %s", dlerror());
        return;
    }
    int missing = 0;
#define MAGPIE__LOAD(field, symbol)                                         \
    do {                                                                    \
        *(void **)&magpie__avif.field = dlsym(h, symbol);                   \
        if (!magpie__avif.field) missing = 1;                               \
    } while (0)
    MAGPIE__LOAD(version, "avifVersion");
    MAGPIE__LOAD(result_string, "avifResultToString");
    MAGPIE__LOAD(decoder_create, "avifDecoderCreate");
    MAGPIE__LOAD(decoder_destroy, "avifDecoderDestroy");
    MAGPIE__LOAD(decoder_set_io_memory, "avifDecoderSetIOMemory");
    MAGPIE__LOAD(decoder_parse, "avifDecoderParse");
    MAGPIE__LOAD(decoder_next_image, "avifDecoderNextImage");
    MAGPIE__LOAD(decoder_nth_image, "avifDecoderNthImage");
    MAGPIE__LOAD(image_create_empty, "avifImageCreateEmpty");
    MAGPIE__LOAD(image_destroy, "avifImageDestroy");
    MAGPIE__LOAD(image_set_view_rect, "avifImageSetViewRect");
    MAGPIE__LOAD(rgb_image_set_defaults, "avifRGBImageSetDefaults");
    MAGPIE__LOAD(image_yuv_to_rgb, "avifImageYUVToRGB");
#undef MAGPIE__LOAD
    char want[16];
    snprintf(want, sizeof want, "%d.%d.", AVIF_VERSION_MAJOR, AVIF_VERSION_MINOR);
    if (missing || strncmp(magpie__avif.version(), want, strlen(want)) != 0) {
        snprintf(magpie__avif_error, sizeof magpie__avif_error, "libavif %s is not the %d.%d this build expects",
                 missing ? "(incomplete)" : magpie__avif.version(), AVIF_VERSION_MAJOR, AVIF_VERSION_MINOR);
        dlclose(h);
        return;
    }
    magpie__avif_loaded = 1; /* kept loaded for the life of the process */
}

static void magpie__avif_load_once(void) {
    magpie__avif_load();
    __atomic_store_n(&magpie__avif_attempted, 1, __ATOMIC_RELEASE);
}

const char *magpie__avif_ready(void) {
    pthread_once(&magpie__avif_once, magpie__avif_load_once);
    return magpie__avif_loaded ? NULL : magpie__avif_error;
}

/* ---- finding the library without loading it ---- */

static int magpie__is_file(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Whether `dir`/SONAME is a regular file (dir of length n, not NUL-terminated; empty: the
 * current folder, as the dynamic loader reads an empty LD_LIBRARY_PATH element). */
static int magpie__in_dir(const char *dir, size_t n) {
    char path[4096];
    if (n == 0) dir = ".", n = 1;
    if (n + 1 + sizeof MAGPIE__AVIF_SONAME > sizeof path) return 0;
    memcpy(path, dir, n);
    path[n] = '/';
    memcpy(path + n + 1, MAGPIE__AVIF_SONAME, sizeof MAGPIE__AVIF_SONAME);
    return magpie__is_file(path);
}

/* Whether the loader's cache lists a path ending in "/" SONAME that is a regular file. The
 * cache's string table holds each library's path NUL-terminated, in both of glibc's formats, so
 * a byte search finds it without depending on the entry layout. Reads at most 64 MiB. */
static int magpie__in_ld_cache(const char *cache_path) {
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
        static const char tail[] = "/" MAGPIE__AVIF_SONAME; /* followed by its NUL in the table */
        const size_t tail_len = sizeof tail; /* with the NUL */
        for (size_t i = 0; !found && i + tail_len <= size + 1; i++) {
            if (buf[i] != '/' || memcmp(buf + i, tail, tail_len) != 0) continue;
            size_t start = i;
            while (start > 0 && buf[start - 1] != '\0') start--;
            if (buf[start] == '/' && i + tail_len - start < 4096) found = magpie__is_file(buf + start);
        }
    }
    free(buf);
    close(fd);
    return found;
}

/* Where dlopen looks for a bare soname (ld.so(8)): LD_LIBRARY_PATH (not for a set-user-ID
 * program), the loader's cache, then the default folders. The executable's own RPATH/RUNPATH
 * are not read: the SwiftPM and CMake builds set none that holds libavif. */
static void magpie__avif_find(void) {
    void *already = dlopen(MAGPIE__AVIF_SONAME, RTLD_LAZY | RTLD_NOLOAD);
    if (already) {
        dlclose(already);
        magpie__avif_found = 1;
        return;
    }
    const char *env = secure_getenv("LD_LIBRARY_PATH");
    while (env && *env) {
        size_t n = strcspn(env, ":;");
        if (magpie__in_dir(env, n)) {
            magpie__avif_found = 1;
            return;
        }
        env += n + (env[n] != '\0');
    }
    if (magpie__in_ld_cache("/etc/ld.so.cache")) {
        magpie__avif_found = 1;
        return;
    }
    static const char *const defaults[] = {
#if defined(__x86_64__)
        "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
#elif defined(__aarch64__)
        "/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
#endif
        "/lib64", "/usr/lib64", "/lib", "/usr/lib",
    };
    for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++) {
        if (magpie__in_dir(defaults[i], strlen(defaults[i]))) {
            magpie__avif_found = 1;
            return;
        }
    }
}

int magpie__avif_available(void) {
    if (__atomic_load_n(&magpie__avif_attempted, __ATOMIC_ACQUIRE)) return magpie__avif_loaded;
    pthread_once(&magpie__avif_find_once, magpie__avif_find);
    return magpie__avif_found;
}

#else

magpie__avif_api magpie__avif = {avifVersion,          avifResultToString,     avifDecoderCreate,
                                 avifDecoderDestroy,   avifDecoderSetIOMemory, avifDecoderParse,
                                 avifDecoderNextImage, avifDecoderNthImage,    avifImageCreateEmpty,
                                 avifImageDestroy,     avifImageSetViewRect,   avifRGBImageSetDefaults,
                                 avifImageYUVToRGB};

const char *magpie__avif_ready(void) { return NULL; }

int magpie__avif_available(void) { return 1; }

#endif
#endif
