/* An SVG's internal DTD subset, expanded before librsvg sees the document (svg_entities.c).
 * Private to the SVG decoder. */
#ifndef MAGPIE_SVG_ENTITIES_H
#define MAGPIE_SVG_ENTITIES_H

#include "internal.h"

/* An SVG with an internal DTD subset rewritten without it, its plain entities expanded ):
 * MAGPIE_OK with *out NULL when there is nothing to rewrite, or a malloc'd document in *out; an
 * error with `why` for parameter, external, nested or too many entities. */
MAGPIE_HIDDEN int magpie__svg_entities(const uint8_t *data, size_t n, uint8_t **out, size_t *out_n, const char **why);

#endif
