/*
 * live.c - the live set's storage (ordo_live.h).
 */
#include <stdlib.h>

#include "ordo_live.h"

int ordo_live_init(struct ordo_live *l, uint32_t n, unsigned grain, struct ordo_err *err)
{
	l->n = n;
	l->mask = ordo_live_mask(grain);
	l->at = malloc(((size_t)n + 1) * sizeof *l->at);
	if (!l->at)
		return ordo_err_set(err, ORDO_ENOMEM,
		                    "out of memory for the queued flags of %u nodes", n);
	ordo_live_reset(l, 1);
	return 0;
}

void ordo_live_reset(struct ordo_live *l, int threads)
{
#pragma omp parallel for num_threads(threads > 0 ? threads : 1) schedule(static)
	for (uint64_t v = 0; v < l->n; v++)
		atomic_store_explicit(&l->at[v], ORDO_LIVE_NONE, memory_order_relaxed);
}

void ordo_live_free(struct ordo_live *l)
{
	free(l->at);
	l->at = NULL;
}
