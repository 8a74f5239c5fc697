/* libFuzzer harness: sniff and probe any bytes; read their rights (EXIF in JPEG, PNG, WebP,
 * TIFF) and write rights into them as an encoded file, then read those back. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "magpie.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    magpie_info info;
    magpie_sniff(data, size);
    magpie_probe(data, size, &info);
    uint32_t w, h;
    magpie_output_size(data, size, NULL, &w, &h);
    magpie_rights rights, back;
    if (magpie_read_rights(data, size, &rights) != MAGPIE_OK) abort();
    if (!rights.copyright[0]) strcpy(rights.copyright, "(c) fuzz");
    uint8_t *out = NULL;
    size_t n = 0;
    if (magpie_write_rights(data, size, &rights, 7, 5, &out, &n) == MAGPIE_OK) {
        if (magpie_read_rights(out, n, &back) != MAGPIE_OK) abort();
        magpie_free(out);
    }
    return 0;
}
