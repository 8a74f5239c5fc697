/* The process-wide decode memory budget: what every decode in flight has charged, against a
 * limit (0: none). Charges are the decodes' real allocations, so concurrent decodes of hostile
 * headers cannot add up to cores × the per-decode limit. Lock-free: two atomics. */
#include <stdatomic.h>

#include "internal.h"

static _Atomic uint64_t magpie__budget_limit;
static _Atomic uint64_t magpie__budget_used;

void magpie_set_memory_budget(uint64_t bytes) { atomic_store(&magpie__budget_limit, bytes); }
uint64_t magpie_memory_budget(void) { return atomic_load(&magpie__budget_limit); }
uint64_t magpie_memory_in_use(void) { return atomic_load(&magpie__budget_used); }

int magpie__budget_take(uint64_t bytes, uint64_t *limit_seen, uint64_t *used_seen) {
    uint64_t limit = atomic_load(&magpie__budget_limit);
    uint64_t used = atomic_load(&magpie__budget_used);
    if (!limit) {
        atomic_fetch_add(&magpie__budget_used, bytes);
        return MAGPIE_OK;
    }
    do {
        if (bytes > limit || used > limit - bytes) {
            if (limit_seen) *limit_seen = limit;
            if (used_seen) *used_seen = used;
            return bytes > limit ? MAGPIE_ELIMIT_MEMORY : MAGPIE_EBUDGET;
        }
    } while (!atomic_compare_exchange_weak(&magpie__budget_used, &used, used + bytes));
    return MAGPIE_OK;
}

void magpie__budget_give(uint64_t bytes) {
    uint64_t used = atomic_load(&magpie__budget_used);
    while (!atomic_compare_exchange_weak(&magpie__budget_used, &used, bytes > used ? 0 : used - bytes)) {
    }
}

int magpie_memory_charge(uint64_t bytes) { return magpie__budget_take(bytes, NULL, NULL); }

void magpie_memory_discharge(uint64_t bytes) { magpie__budget_give(bytes); }
