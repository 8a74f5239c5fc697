/* PDF: recognised by its "%PDF-" header, nothing more (no size: a page has no pixels). */
#include "core/codec.h"

int magpie__sniff_pdf(const uint8_t *d, size_t n) { return magpie__starts(d, n, 0, "%PDF-", 5); }
