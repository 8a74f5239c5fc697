/* libFuzzer harness: sniff and probe any bytes. */
#include <stddef.h>
#include <stdint.h>

#include "magpie.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    magpie_info info;
    magpie_sniff(data, size);
    magpie_probe(data, size, &info);
    uint32_t w, h;
    magpie_output_size(data, size, NULL, &w, &h);
    return 0;
}
