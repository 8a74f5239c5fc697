/* The codec table: every format the core knows, in sniffing order, and the public questions
 * about formats answered from it. The optional codecs are compiled in when CMake (or SwiftPM)
 * defines MAGPIE_HAVE_WEBP / MAGPIE_HAVE_AVIF; a libavif loaded on first use must be there to
 * load (answered without loading it: a failure to load is the first AVIF decode's
 * MAGPIE_EUNSUPPORTED, with the loader's reason). */
#include "codecs/avif/avif_loader.h"
#include "core/codec.h"
#include "codecs/quant/quant.h"

#ifdef MAGPIE_HAVE_WEBP
static int magpie__webp_built(void) { return 1; }
#else
static int magpie__webp_built(void) { return 0; }
#endif
#ifdef MAGPIE_HAVE_AVIF
#define MAGPIE__AVIF_AVAILABLE magpie__avif_available
#else
static int magpie__avif_built(void) { return 0; }
#define MAGPIE__AVIF_AVAILABLE magpie__avif_built
#endif

#ifdef MAGPIE_HAVE_WEBP
#define WEBP_ANIMATE &magpie__webp_animate
#else
#define WEBP_ANIMATE NULL
#endif
#define OPTIONAL MAGPIE__CODEC_OPTIONAL
/* One row per format. The order is the sniffing order: a signature at offset 0 first, the
 * ISOBMFF brands after, SVG (text that contains a tag) last. */
static const magpie__codec magpie__codecs[] = {
    /* format, name, media type, sniff, probe, page, thumbnail, decode, encode, frames, animate,
     * available, encoder_available, flags */
    {MAGPIE_FORMAT_JPEG, "jpeg", "image/jpeg", magpie__sniff_jpeg, magpie__probe_jpeg, NULL,
     magpie__thumbnail_jpeg, magpie__decode_jpeg, magpie__encode_jpeg, NULL, NULL, NULL, NULL, 0},
    {MAGPIE_FORMAT_PNG, "png", "image/png", magpie__sniff_png, magpie__probe_png, NULL,
     NULL, magpie__decode_png, magpie__encode_png, NULL, NULL, NULL, NULL, 0},
    {MAGPIE_FORMAT_GIF, "gif", "image/gif", magpie__sniff_gif, magpie__probe_gif, NULL,
     NULL, magpie__decode_gif, magpie__encode_gif, &magpie__gif_frames, &magpie__gif_animate, NULL,
     magpie__gif_encode_available, 0},
    {MAGPIE_FORMAT_WEBP, "webp", "image/webp", magpie__sniff_webp, magpie__probe_webp, NULL,
     NULL, magpie__decode_webp, magpie__encode_webp, &magpie__webp_frames, WEBP_ANIMATE, magpie__webp_built, NULL,
     OPTIONAL},
    {MAGPIE_FORMAT_TIFF, "tiff", "image/tiff", magpie__sniff_tiff, magpie__probe_tiff, magpie__page_tiff,
     NULL, magpie__decode_tiff, NULL, NULL, NULL, magpie__tiff_available, NULL, OPTIONAL},
    {MAGPIE_FORMAT_PDF, "pdf", "application/pdf", magpie__sniff_pdf, NULL, NULL,
     NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0},
    {MAGPIE_FORMAT_BMP, "bmp", "image/bmp", magpie__sniff_bmp, magpie__probe_bmp, NULL,
     NULL, magpie__decode_bmp, NULL, NULL, NULL, NULL, NULL, 0},
    {MAGPIE_FORMAT_ICO, "ico", "image/vnd.microsoft.icon", magpie__sniff_ico, magpie__probe_ico, NULL,
     NULL, magpie__decode_ico, NULL, NULL, NULL, NULL, NULL, 0},
    {MAGPIE_FORMAT_JXL, "jxl", "image/jxl", magpie__sniff_jxl, magpie__probe_jxl, NULL,
     NULL, magpie__decode_jxl, magpie__encode_jxl, NULL, NULL, magpie__jxl_available, NULL, OPTIONAL},
    {MAGPIE_FORMAT_AVIF, "avif", "image/avif", magpie__sniff_avif, magpie__probe_isobmff, NULL,
     NULL, magpie__decode_avif, magpie__encode_avif, &magpie__avif_frames, NULL, MAGPIE__AVIF_AVAILABLE,
     NULL, OPTIONAL},
    {MAGPIE_FORMAT_HEIC, "heic", "image/heic", magpie__sniff_heic, magpie__probe_isobmff, NULL,
     NULL, magpie__decode_heic, NULL, NULL, NULL, magpie__heic_available, NULL, OPTIONAL},
    {MAGPIE_FORMAT_SVG, "svg", "image/svg+xml", magpie__sniff_svg, magpie__probe_svg, NULL,
     NULL, magpie__decode_svg, NULL, NULL, NULL, magpie__svg_available, NULL, OPTIONAL},
};
#undef WEBP_ANIMATE
#undef OPTIONAL
#define MAGPIE__CODEC_COUNT (sizeof magpie__codecs / sizeof *magpie__codecs)

const magpie__codec *magpie__codec_of(magpie_format format) {
    for (size_t i = 0; i < MAGPIE__CODEC_COUNT; i++)
        if (magpie__codecs[i].format == format) return &magpie__codecs[i];
    return NULL;
}

const magpie__codec *magpie__codec_sniff(const uint8_t *d, size_t n) {
    if (!d || n < 2) return NULL;
    for (size_t i = 0; i < MAGPIE__CODEC_COUNT; i++)
        if (magpie__codecs[i].sniff(d, n)) return &magpie__codecs[i];
    return NULL;
}

static int magpie__codec_there(const magpie__codec *c) { return !c->available || c->available(); }

int magpie__codec_decodes(const magpie__codec *c) { return c && c->decode && magpie__codec_there(c); }

int magpie__codec_encodes(const magpie__codec *c) {
    return c && c->encode && magpie__codec_there(c) && (!c->encoder_available || c->encoder_available());
}

int magpie__codec_animates(const magpie__codec *c) { return c && c->animate && magpie__codec_encodes(c); }

/* ---- the public questions ---- */

magpie_format magpie_sniff(const void *data, size_t size) {
    const magpie__codec *c = magpie__codec_sniff(data, size);
    return c ? c->format : MAGPIE_FORMAT_UNKNOWN;
}

int magpie_format_decodable(magpie_format format) { return magpie__codec_decodes(magpie__codec_of(format)); }

int magpie_format_encodable(magpie_format format) { return magpie__codec_encodes(magpie__codec_of(format)); }

int magpie_palette_available(void) { return magpie__quant_available(); }

const char *magpie_format_name(magpie_format format) {
    const magpie__codec *c = magpie__codec_of(format);
    return c ? c->name : "unknown";
}

const char *magpie_format_media_type(magpie_format format) {
    const magpie__codec *c = magpie__codec_of(format);
    return c ? c->media_type : NULL;
}
