/* What this build decodes and encodes: the optional codecs are compiled in when CMake (or
 * SwiftPM) defines MAGPIE_HAVE_WEBP / MAGPIE_HAVE_AVIF; a libavif loaded on first use must be
 * there to load (answered without loading it). */
#include "avif_loader.h"

int magpie_format_decodable(magpie_format format) {
    switch (format) {
    case MAGPIE_FORMAT_JPEG:
    case MAGPIE_FORMAT_PNG:
    case MAGPIE_FORMAT_GIF: return 1;
#ifdef MAGPIE_HAVE_WEBP
    case MAGPIE_FORMAT_WEBP: return 1;
#endif
#ifdef MAGPIE_HAVE_AVIF
    /* Compiled in and there to load; loading waits for the first AVIF decode, whose failure to
     * load is that decode's MAGPIE_EUNSUPPORTED with the loader's reason. */
    case MAGPIE_FORMAT_AVIF: return magpie__avif_available();
#endif
    default: return 0;
    }
}

int magpie_format_encodable(magpie_format format) {
    switch (format) {
    case MAGPIE_FORMAT_PNG:
    case MAGPIE_FORMAT_JPEG: return 1;
#ifdef MAGPIE_HAVE_WEBP
    case MAGPIE_FORMAT_WEBP: return 1;
#endif
    default: return 0;
    }
}
