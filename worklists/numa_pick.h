/*
 * numa_pick.h - NUMA-weighted random choice of a queue (the SMQ paper's NUMA variants,
 * REFERENCES.md, "SMQ NUMA"): queues homed on the caller's node have weight K, all
 * others weight 1. With K = 1 or a single node the draw is the plain uniform one (the
 * same RNG calls), so a weighted scheduler then behaves exactly like the plain one.
 * Nodes come from the runtime's topology (real, or ORDO_FAKE_NUMA). Private to worklists/.
 */
#ifndef ORDO_WL_NUMA_PICK_H
#define ORDO_WL_NUMA_PICK_H

#include <stdlib.h>

#include "ordo_runtime.h"
#include "ordo_util.h"

struct numa_pick {
	uint32_t *local, *remote; /* candidate queues on my node / on other nodes */
	uint32_t nlocal, nremote;
	uint64_t k, local_weight, total_weight;
	uint32_t n;    /* queues */
	uint32_t skip; /* a queue never to return (the caller's own), or UINT32_MAX */
};

/* Queues 0..n-1, queue q homed on topo->node[q / per_thread]; `skip` is excluded. */
static inline bool numa_pick_init(struct numa_pick *p, const struct ordo_topology *topo,
                                  unsigned tid, uint32_t n, uint32_t per_thread, uint32_t skip,
                                  uint64_t k)
{
	p->local = malloc((n + 1) * sizeof *p->local);
	p->remote = malloc((n + 1) * sizeof *p->remote);
	if (!p->local || !p->remote)
		return false;
	p->nlocal = p->nremote = 0;
	for (uint32_t q = 0; q < n; q++) {
		if (q == skip)
			continue;
		if (topo->node[q / per_thread] == topo->node[tid])
			p->local[p->nlocal++] = q;
		else
			p->remote[p->nremote++] = q;
	}
	p->k = k;
	p->n = n;
	p->skip = skip;
	p->local_weight = k * p->nlocal;
	p->total_weight = p->local_weight + p->nremote;
	return true;
}

static inline void numa_pick_free(struct numa_pick *p)
{
	free(p->local);
	free(p->remote);
}

/* A queue; needs at least one candidate. */
static inline uint32_t numa_pick(const struct numa_pick *p, struct ordo_rng *rng)
{
	if (p->k == 1 || p->nremote == 0 || p->nlocal == 0) {
		if (p->skip == UINT32_MAX)
			return (uint32_t)ordo_rng_below(rng, p->n);
		uint32_t v = (uint32_t)ordo_rng_below(rng, p->n - 1);
		return v >= p->skip ? v + 1 : v;
	}
	uint64_t r = ordo_rng_below(rng, p->total_weight);
	if (r < p->local_weight)
		return p->local[r / p->k];
	return p->remote[r - p->local_weight];
}

/* True when queue q is on the caller's node. */
static inline bool numa_pick_is_local(const struct ordo_topology *topo, unsigned tid, uint32_t q,
                                      uint32_t per_thread)
{
	return topo->node[q / per_thread] == topo->node[tid];
}

#endif
