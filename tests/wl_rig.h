/*
 * wl_rig.h - a scheduler driven by hand: created for T threads (optionally split into
 * fake NUMA nodes), with one hand-made context per thread, for tests that call push
 * and pop directly instead of going through the executor.
 */
#ifndef ORDO_TEST_WL_RIG_H
#define ORDO_TEST_WL_RIG_H

#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ordo_schedulers.h"

struct rig {
	struct ordo_topology topo;
	struct ordo_scheduler wl;
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
	cr_assert_eq(ordo_scheduler_create(spec, NULL, &r->topo, 1, &r->wl, &e), 0, "%s", e.msg);
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

/* ---- the rank-error workload ----
 * One thread, a fixed seed: RANK_N keys uniform in [0, RANK_R) are prefilled, then each
 * step pops one task (its rank error = keys present that are smaller, from a Fenwick
 * tree over the keys) and pushes a fresh uniform key. Returns the mean rank error over
 * the pops that returned a task. A failed pop pushes nothing; with fails == NULL it is
 * a test failure, otherwise *fails counts them. */
#define RANK_R (1u << 20) /* key range */
#define RANK_N 4096       /* keys present */

static uint32_t rank_fw[RANK_R + 1];

static inline void rank_fw_add(uint64_t k, int v)
{
	for (uint64_t i = k + 1; i <= RANK_R; i += i & (0 - i))
		rank_fw[i] += (uint32_t)v;
}

static inline uint64_t rank_fw_below(uint64_t k) /* keys < k */
{
	uint64_t s = 0;
	for (uint64_t i = k; i; i -= i & (0 - i))
		s += rank_fw[i];
	return s;
}

static inline double rig_mean_rank_error(const struct ordo_scheduler_ops *ops,
                                         struct ordo_sched_state *wl, struct ordo_tctx *ctx,
                                         int steps, uint64_t seed, uint64_t *fails, double *sem)
{
	memset(rank_fw, 0, sizeof rank_fw);
	struct ordo_rng rng;
	ordo_rng_seed(&rng, seed, 0);
	for (int i = 0; i < RANK_N; i++) {
		struct ordo_task t = {ordo_rng_below(&rng, RANK_R), (uint64_t)i};
		rank_fw_add(t.prio, 1);
		ops->push(wl, ctx, &t, 1);
	}
	double sum = 0, sq = 0;
	int got = 0;
	if (fails)
		*fails = 0;
	for (int i = 0; i < steps; i++) {
		struct ordo_task t;
		if (!ops->pop(wl, ctx, &t)) {
			cr_assert(fails, "pop %d failed with keys left", i);
			++*fails;
			continue;
		}
		got++;
		double rank = (double)rank_fw_below(t.prio);
		sum += rank;
		sq += rank * rank;
		rank_fw_add(t.prio, -1);
		struct ordo_task n = {ordo_rng_below(&rng, RANK_R), (uint64_t)i};
		rank_fw_add(n.prio, 1);
		ops->push(wl, ctx, &n, 1);
	}
	double mean = got ? sum / got : 0;
	if (sem) /* the sample's standard error of the mean */
		*sem = got > 1 ? sqrt((sq - got * mean * mean) / (got - 1) / got) : 0;
	return mean;
}

static inline void rig_free(struct rig *r)
{
	ordo_scheduler_destroy(&r->wl);
	for (int t = 0; t < r->T; t++)
		free(r->ctx[t]);
	ordo_topology_free(&r->topo);
}

#endif
