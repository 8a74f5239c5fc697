/* Header probing without decoding or allocating: the dispatch to the sniffed format's probe (the
 * codec table, codecs.c) and the public entry points. Each format probes in its own
 * probe_<format>.c. */
#include <string.h>

#include "core/codec.h"

void magpie_info_init(magpie_info *info) {
    if (!info) return;
    memset(info, 0, sizeof *info);
    info->struct_size = sizeof *info;
    info->loop_count = -1;
}

int magpie__probe(magpie__in *in, magpie_info *info) { return magpie__probe_upto(in, info, UINT32_MAX); }

int magpie__probe_upto(magpie__in *in, magpie_info *info, uint32_t frame_cap) {
    magpie_info_init(info);
    if (in->size == 0) return MAGPIE_EINVAL;
    size_t n;
    const uint8_t *d = magpie__peek_upto(in, 0, 65536, &n);
    if (!d) return in->io_error ? MAGPIE_EIO : MAGPIE_EUNKNOWN;
    const magpie__codec *c = magpie__codec_sniff(d, n);
    info->format = c ? c->format : MAGPIE_FORMAT_UNKNOWN;
    info->frames = 1;
    info->orientation = 1;
    if (!c) {
        info->frames = 0;
        return MAGPIE_EUNKNOWN;
    }
    return c->probe ? c->probe(in, info, frame_cap) : MAGPIE_OK;
}

int magpie_probe(const void *data, size_t size, magpie_info *info) {
    if (!info) return MAGPIE_EINVAL;
    magpie_info_init(info);
    if (!data || size == 0) return MAGPIE_EINVAL;
    magpie__in in;
    magpie__in_memory(&in, data, size);
    return magpie__probe(&in, info);
}

int magpie_probe_file(const char *path, magpie_info *info) {
    if (!info) return MAGPIE_EINVAL;
    magpie_info_init(info);
    magpie__in in;
    int rc = magpie__in_open(&in, path, NULL, 0);
    if (rc) return rc;
    rc = in.size ? magpie__probe(&in, info) : MAGPIE_EUNKNOWN;
    magpie__in_close(&in);
    return rc;
}

int magpie_sniff_file(const char *path, magpie_format *format) {
    if (!format) return MAGPIE_EINVAL;
    *format = MAGPIE_FORMAT_UNKNOWN;
    magpie__in in;
    int rc = magpie__in_open(&in, path, NULL, 0);
    if (rc) return rc;
    uint8_t head[4096];
    size_t n = magpie__read(&in, 0, head, sizeof head);
    if (in.io_error) rc = MAGPIE_EIO;
    else *format = magpie_sniff(head, n);
    magpie__in_close(&in);
    return rc;
}
