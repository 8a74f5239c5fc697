/* Status strings and the version (format names are the codec table's, codecs.c). */
#include "internal.h"

const char *magpie_strerror(int status) {
    switch (status) {
    case MAGPIE_OK: return "success";
    case MAGPIE_EINVAL: return "invalid argument";
    case MAGPIE_EUNKNOWN: return "unknown format: not a recognised image";
    case MAGPIE_EUNSUPPORTED: return "unsupported format or feature";
    case MAGPIE_ETRUNCATED: return "truncated image data";
    case MAGPIE_ECORRUPT: return "corrupt image data";
    case MAGPIE_ELIMIT_PIXELS: return "image exceeds the pixel limit";
    case MAGPIE_ELIMIT_MEMORY: return "decoding would exceed the memory limit";
    case MAGPIE_ELIMIT_FRAMES: return "image exceeds the frame limit";
    case MAGPIE_ENOMEM: return "out of memory";
    case MAGPIE_EBUFFER: return "buffer too small";
    case MAGPIE_EENCODE: return "encoding failed";
    case MAGPIE_ERANGE: return "frame index out of range";
    case MAGPIE_EINTERNAL: return "internal error";
    case MAGPIE_EIO: return "cannot read the file";
    case MAGPIE_EBUDGET: return "the process decode memory budget is in use";
    default: return "unknown status code";
    }
}

unsigned magpie_version(void) { return MAGPIE_VERSION_NUMBER; }

#define MAGPIE_STR2(x) #x
#define MAGPIE_STR(x) MAGPIE_STR2(x)
const char *magpie_version_string(void) {
    return MAGPIE_STR(MAGPIE_VERSION_MAJOR) "." MAGPIE_STR(MAGPIE_VERSION_MINOR) "." MAGPIE_STR(
        MAGPIE_VERSION_PATCH);
}
