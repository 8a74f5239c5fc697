/* What codecs call back while they decode a job: charges to its memory limit and the process's
 * budget, the error detail, the whole input for codecs that want it in one piece, and the
 * geometry of the rows they deliver. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/job.h"

int magpie__charge(magpie__job *job, uint64_t bytes) {
    if (bytes > job->opt.limits.max_bytes || job->used > job->opt.limits.max_bytes - bytes) {
        magpie__detail(job, "needs more than the %llu-byte memory limit",
                       (unsigned long long)job->opt.limits.max_bytes);
        return MAGPIE_ELIMIT_MEMORY;
    }
    uint64_t limit = 0, used = 0;
    if (magpie__budget_take(bytes, &limit, &used) != MAGPIE_OK) {
        magpie__detail(job, "%llu more bytes do not fit the process's %llu-byte decode budget (%llu in use)",
                       (unsigned long long)bytes, (unsigned long long)limit, (unsigned long long)used);
        /* Alone it would not fit either: a limit, not a wait. */
        return bytes + job->global > limit ? MAGPIE_ELIMIT_MEMORY : MAGPIE_EBUDGET;
    }
    job->global += bytes;
    job->used += bytes;
    return MAGPIE_OK;
}

void magpie__uncharge(magpie__job *job, uint64_t bytes) {
    if (bytes > job->global) bytes = job->global;
    job->global -= bytes;
    magpie__budget_give(bytes);
    job->used = bytes > job->used ? 0 : job->used - bytes;
}

void magpie__job_drop_profile(magpie__job *job) {
    free(job->icc);
    job->icc = NULL;
    job->icc_size = 0;
}

void magpie__release(magpie__job *job) {
    magpie__job_drop_profile(job);
    magpie__budget_give(job->global);
    job->global = 0;
}

void magpie__detail(magpie__job *job, const char *fmt, ...) {
    if (!job->opt.error_detail || job->opt.error_detail_size == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(job->opt.error_detail, job->opt.error_detail_size, fmt, ap);
    va_end(ap);
}

int magpie__whole_input(magpie__job *job, const uint8_t **data, uint8_t **owned) {
    *owned = NULL;
    if (job->in->mem) {
        *data = job->in->mem;
        return MAGPIE_OK;
    }
    int rc = magpie__charge(job, job->in->size);
    if (rc) return rc;
    if (!(*owned = malloc(job->in->size ? (size_t)job->in->size : 1))) rc = MAGPIE_ENOMEM;
    else if (magpie__read(job->in, 0, *owned, (size_t)job->in->size) != job->in->size)
        rc = job->in->io_error ? MAGPIE_EIO : MAGPIE_ETRUNCATED;
    if (rc) {
        magpie__whole_input_free(job, *owned);
        *owned = NULL;
        return rc;
    }
    *data = *owned;
    return MAGPIE_OK;
}

void magpie__whole_input_free(magpie__job *job, uint8_t *owned) {
    if (!owned) return;
    free(owned);
    magpie__uncharge(job, job->in->size);
}

void magpie__job_geometry(const magpie__job *job, uint32_t in_w, uint32_t in_h, magpie__geometry *g) {
    double sx = (double)in_w / job->info.width, sy = (double)in_h / job->info.height;
    g->in_w = in_w;
    g->in_h = in_h;
    g->win_x = job->win_x * sx;
    g->win_y = job->win_y * sy;
    g->win_w = job->win_w * sx;
    g->win_h = job->win_h * sy;
    if (g->win_w > in_w) g->win_w = in_w;
    if (g->win_h > in_h) g->win_h = in_h;
    g->out_w = job->st_w;
    g->out_h = job->st_h;
    g->orientation = job->orientation;
    g->filter = job->opt.filter;
    g->linear = (job->opt.flags & MAGPIE_DECODE_LINEAR) != 0;
}
