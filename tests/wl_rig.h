/*
 * wl_rig.h - a scheduler driven by hand: created for T threads (optionally split into
 * fake NUMA nodes), with one hand-made context per thread, for tests that call push
 * and pop directly instead of going through the executor.
 */
#ifndef ORDO_TEST_WL_RIG_H
#define ORDO_TEST_WL_RIG_H

#include <criterion/criterion.h>
#include <stdlib.h>

#include "ordo_wl.h"

struct rig {
	struct ordo_topology topo;
	struct ordo_worklist wl;
	struct ordo_tctx *ctx[16];
	int T;
};

/* Contexts' RNGs are seeded (ctx_seed, thread id); thread_init runs for each. */
static inline void rig_init_seeded(struct rig *r, const char *spec, int T, int fake,
                                   uint64_t ctx_seed)
{
	struct ordo_err e = {0};
	r->T = T;
	cr_assert_eq(ordo_topology_init(&r->topo, T, fake, ORDO_BIND_NONE, &e), 0, "%s", e.msg);
	cr_assert_eq(ordo_worklist_create(spec, NULL, &r->topo, 1, &r->wl, &e), 0, "%s", e.msg);
	for (int t = 0; t < T; t++) {
		struct ordo_tctx *c = ordo_calloc_aligned(1, sizeof *c);
		cr_assert_not_null(c);
		c->tid = (unsigned)t;
		c->nthreads = (unsigned)T;
		c->node = r->topo.node[t];
		ordo_rng_seed(&c->rng, ctx_seed, (uint64_t)t);
		r->ctx[t] = c;
		if (r->wl.ops->thread_init)
			r->wl.ops->thread_init(r->wl.wl, c);
		cr_assert(!c->push_oom);
	}
}

static inline void rig_init(struct rig *r, const char *spec, int T, int fake)
{
	rig_init_seeded(r, spec, T, fake, 5);
}

static inline void rig_free(struct rig *r)
{
	ordo_worklist_destroy(&r->wl);
	for (int t = 0; t < r->T; t++)
		free(r->ctx[t]);
	ordo_topology_free(&r->topo);
}

#endif
