/* An SVG's internal DTD subset, taken care of before librsvg sees the document. librsvg 2.54 with
 * libxml2 2.9 leaks every entity value it parses (about 100 bytes a declaration, found under
 * LeakSanitizer), so a server fed SVGs full of <!ENTITY> lines would grow without bound; and
 * entities that refer to entities are the billion-laughs bomb. Illustrator still writes entities
 * for its namespaces, so they are not refused outright: plain internal entities (a quoted value with
 * no '&', '%' or '<') are expanded here and the DOCTYPE dropped; parameter entities, external
 * entities and values that refer to entities are refused, and so is a subset with more than
 * MAGPIE__SVG_MAX_ENTITIES of them. */
#include <stdlib.h>
#include <string.h>

#include "core/codec.h"
#include "codecs/svg/svg_entities.h"

#define MAGPIE__SVG_MAX_ENTITIES 64u
#define MAGPIE__SVG_MAX_EXPANDED (16u << 20)

typedef struct {
    const char *name, *value;
    size_t name_len, value_len;
} magpie__svg_entity;

static int magpie__svg_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
static int magpie__svg_name_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
           c == '.' || c == ':' || (unsigned char)c >= 0x80;
}

/* The end of a declaration starting at `p` (just past its '>'), quotes respected; NULL if none. */
static const char *magpie__svg_decl_end(const char *p, const char *end) {
    char quote = 0;
    for (; p < end; p++) {
        if (quote) quote = *p == quote ? 0 : quote;
        else if (*p == '"' || *p == '\'') quote = *p;
        else if (*p == '>') return p + 1;
    }
    return NULL;
}

/* Reads `<!ENTITY name "value">` at `p` (past "<!ENTITY"); returns past its '>', or NULL with
 * `why` set. */
static const char *magpie__svg_entity_decl(const char *p, const char *end, magpie__svg_entity *e, const char **why) {
    while (p < end && magpie__svg_space(*p)) p++;
    if (p < end && *p == '%') return *why = "parameter entities are refused", NULL;
    e->name = p;
    while (p < end && magpie__svg_name_char(*p)) p++;
    e->name_len = (size_t)(p - e->name);
    while (p < end && magpie__svg_space(*p)) p++;
    if (!e->name_len || p >= end || (*p != '"' && *p != '\''))
        return *why = "external or malformed entities are refused", NULL;
    char quote = *p++;
    e->value = p;
    while (p < end && *p != quote) {
        if (*p == '&' || *p == '%' || *p == '<') return *why = "entities that refer to entities are refused", NULL;
        p++;
    }
    if (p >= end) return *why = "an entity value runs to the end", NULL;
    e->value_len = (size_t)(p - e->value);
    p++;
    while (p < end && magpie__svg_space(*p)) p++;
    if (p >= end || *p != '>') return *why = "malformed entity declaration", NULL;
    return p + 1;
}

int magpie__svg_entities(const uint8_t *data, size_t n, uint8_t **out, size_t *out_n, const char **why) {
    const char *d = (const char *)data, *end = d + n;
    *out = NULL, *why = "";
    /* The prolog: a BOM, white space, the XML declaration and processing instructions, comments;
     * then a DOCTYPE or not (one anywhere later is not XML, and libxml2 stops at it). */
    const char *p = d, *doctype = NULL, *subset = NULL;
    if (end - p >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) p += 3;
    while (p < end && !doctype) {
        if (magpie__svg_space(*p)) {
            p++;
        } else if (end - p >= 4 && memcmp(p, "<!--", 4) == 0) {
            const char *c = p + 4;
            while (c + 3 <= end && memcmp(c, "-->", 3) != 0) c++;
            if (c + 3 > end) return MAGPIE_OK; /* librsvg says what is wrong */
            p = c + 3;
        } else if (end - p >= 2 && memcmp(p, "<?", 2) == 0) {
            const char *c = p + 2;
            while (c + 2 <= end && memcmp(c, "?>", 2) != 0) c++;
            if (c + 2 > end) return MAGPIE_OK;
            p = c + 2;
        } else if (end - p >= 9 && memcmp(p, "<!DOCTYPE", 9) == 0) {
            doctype = p;
        } else {
            return MAGPIE_OK; /* the root element: no DOCTYPE, nothing to do */
        }
    }
    if (!doctype) return MAGPIE_OK;
    p = doctype + 9;
    char quote = 0;
    for (; p < end; p++) { /* to the internal subset's '[', or the DOCTYPE's end */
        if (quote) quote = *p == quote ? 0 : quote;
        else if (*p == '"' || *p == '\'') quote = *p;
        else if (*p == '[' || *p == '>') break;
    }
    if (p >= end) return *why = "the DOCTYPE runs to the end", MAGPIE_ECORRUPT;
    if (*p == '>') return MAGPIE_OK; /* no internal subset: librsvg never loads an external DTD */
    subset = p + 1;
    magpie__svg_entity ents[MAGPIE__SVG_MAX_ENTITIES];
    size_t count = 0;
    for (p = subset; p < end && *p != ']';) {
        if (magpie__svg_space(*p)) {
            p++;
        } else if (end - p >= 4 && memcmp(p, "<!--", 4) == 0) {
            const char *c = p + 4;
            while (c + 3 <= end && memcmp(c, "-->", 3) != 0) c++;
            if (c + 3 > end) return *why = "a comment runs to the end", MAGPIE_ECORRUPT;
            p = c + 3;
        } else if (end - p >= 8 && memcmp(p, "<!ENTITY", 8) == 0) {
            if (count == MAGPIE__SVG_MAX_ENTITIES) return *why = "more than 64 entities are refused", MAGPIE_ECORRUPT;
            if (!(p = magpie__svg_entity_decl(p + 8, end, &ents[count++], why))) return MAGPIE_ECORRUPT;
        } else if (*p == '<') { /* ELEMENT, ATTLIST, NOTATION, a processing instruction: dropped */
            if (!(p = magpie__svg_decl_end(p, end))) return *why = "a declaration runs to the end", MAGPIE_ECORRUPT;
        } else {
            return *why = "parameter entity references are refused", MAGPIE_ECORRUPT;
        }
    }
    const char *close = p < end ? magpie__svg_decl_end(p, end) : NULL;
    if (!close) return *why = "the DOCTYPE runs to the end", MAGPIE_ECORRUPT;
    /* The document without its DOCTYPE, each declared entity's references replaced. */
    size_t cap = n, len = 0;
    char *o = malloc(cap + 1);
    if (!o) return MAGPIE_ENOMEM;
    memcpy(o, d, (size_t)(doctype - d));
    len = (size_t)(doctype - d);
    for (p = close; p < end;) {
        const char *piece = NULL;
        size_t piece_len = 1, skip = 1;
        if (*p == '&')
            for (size_t i = 0; i < count && !piece; i++)
                if ((size_t)(end - p) > ents[i].name_len + 1 && memcmp(p + 1, ents[i].name, ents[i].name_len) == 0 &&
                    p[1 + ents[i].name_len] == ';')
                    piece = ents[i].value, piece_len = ents[i].value_len, skip = ents[i].name_len + 2;
        if (!piece) piece = p;
        if (len + piece_len > cap) {
            size_t grown = cap * 2 > len + piece_len ? cap * 2 : len + piece_len;
            char *g = grown <= MAGPIE__SVG_MAX_EXPANDED ? realloc(o, grown + 1) : NULL;
            if (!g) {
                free(o);
                return *why = "the expanded document is over 16 MiB", MAGPIE_ELIMIT_MEMORY;
            }
            o = g, cap = grown;
        }
        memcpy(o + len, piece, piece_len);
        len += piece_len, p += skip;
    }
    *out = (uint8_t *)o, *out_n = len;
    return MAGPIE_OK;
}
