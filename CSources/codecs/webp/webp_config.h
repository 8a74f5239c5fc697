/* The one mapping of Magpie's encode options onto libwebp's config, for stills (webp_encode.c) and
 * animations (webp_anim_encode.c) alike. */
#ifndef MAGPIE_WEBP_CONFIG_H
#define MAGPIE_WEBP_CONFIG_H

#include "core/codec.h"

#ifdef MAGPIE_HAVE_WEBP
#include <webp/encode.h>

/* `cfg` from the preset, then the quality, method and lossless asked for, one thread; checked.
 * MAGPIE_EINVAL for a value out of range. */
MAGPIE_HIDDEN int magpie__webp_config(const magpie_encode_options *o, WebPConfig *cfg);
#endif

#endif
