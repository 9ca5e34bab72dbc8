/*
 * ordo_live.h - priority updates without duplicates: at most one queued task per node
 * and grain, and a task that runs with its node's live value.
 *
 * An operator that lowers a node's priority again and again (a distance that falls, a
 * residual that grows) pushes a task each time, and all but the last are empty when
 * they pop: on rmat20 SSSP at OBIM's best width, 60% of the tasks. With a live set the
 * operator offers the node at its new priority instead; the offer pushes a task only
 * when the node is not already queued at a priority the scheduler treats as at least as
 * good (the same grain, ordo_scheduler_grain, or a better one). The task that pops
 * first claims the node and reads its value then, so it runs with every update made
 * until the claim (the MBQ design, SPAA'24: tasks are node ids, their data is live).
 * Updates after a claim offer the node again. A task that finds its node claimed, or
 * queued at another grain, returns at once (an empty task, one per grain crossed).
 *
 * Per node one word: the priority it is queued at, or ORDO_LIVE_NONE. The rules:
 *   after each update that raises v's priority (user's own atomics, any order):
 *       ordo_live_offer(ctx, live, v, prio)   pushes (prio, v) or finds it queued
 *   first thing in the task (prio, v):
 *       if (!ordo_live_claim(live, t)) return false;   then read v's value
 * Both are read-modify-writes with acquire and release on v's word, so a claim and an
 * offer are ordered: either the claim sees the update that preceded the offer, or the
 * offer sees the claim and pushes. No update is lost whatever orders the user's own
 * atomics have. grain 0 gives every priority its own (every raise pushes, as without a
 * live set); 64 keeps one task per node whatever its priority (a FIFO's rule).
 */
#ifndef ORDO_LIVE_H
#define ORDO_LIVE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "ordo_error.h"
#include "ordo_runtime.h"

#define ORDO_LIVE_NONE UINT64_MAX

struct ordo_live {
	_Atomic uint64_t *at; /* per node: the priority it is queued at, or ORDO_LIVE_NONE */
	uint64_t mask;        /* the bits above the grain: equal under mask = one grain */
	uint32_t n;
};

/* The bits of a priority that a scheduler of this grain (0..64) looks at. */
static inline uint64_t ordo_live_mask(unsigned grain)
{
	return grain >= 64 ? 0 : ~UINT64_C(0) << grain;
}

/* n nodes, none queued. ENOMEM. */
int ordo_live_init(struct ordo_live *l, uint32_t n, unsigned grain, struct ordo_err *err);
/* Every node back to not queued (between runs), with `threads` OpenMP threads. */
void ordo_live_reset(struct ordo_live *l, int threads);
void ordo_live_free(struct ordo_live *l);

/* For the run's initial tasks: marks v queued at prio, for a task (prio, v) the caller
 * puts among ordo_for_each's initial ones (before the run, from one thread). */
static inline void ordo_live_seed(struct ordo_live *l, uint32_t v, uint64_t prio)
{
	atomic_store_explicit(&l->at[v], prio, memory_order_relaxed);
}

/* v now has priority prio (below ORDO_LIVE_NONE): pushes (prio, v) unless v is queued at a priority
 * of the same or a better grain; true when it pushed. */
static inline bool ordo_live_offer(struct ordo_tctx *ctx, struct ordo_live *l, uint32_t v,
                                   uint64_t prio)
{
	_Atomic uint64_t *a = &l->at[v];
	uint64_t q = atomic_load_explicit(a, memory_order_relaxed);
	for (;;) {
		/* queued at a grain at least as good: the write of q itself still orders this
		 * offer after the update (see above) */
		const bool keep = q != ORDO_LIVE_NONE && (q & l->mask) <= (prio & l->mask);
		if (atomic_compare_exchange_weak_explicit(
		        a, &q, keep ? q : prio, memory_order_acq_rel, memory_order_relaxed)) {
			if (!keep)
				ordo_push(ctx, prio, v);
			return !keep;
		}
	}
}

/* True when t is its node's current task (queued at t's grain): the node is then no
 * longer queued, and the caller reads its live value. False: the task is empty. */
static inline bool ordo_live_claim(struct ordo_live *l, const struct ordo_task *t)
{
	_Atomic uint64_t *a = &l->at[(uint32_t)t->data];
	uint64_t q = atomic_load_explicit(a, memory_order_relaxed);
	while (q != ORDO_LIVE_NONE && (q & l->mask) == (t->prio & l->mask))
		if (atomic_compare_exchange_weak_explicit(
		        a, &q, ORDO_LIVE_NONE, memory_order_acq_rel, memory_order_relaxed))
			return true;
	return false;
}

/* True when v is queued now (a relaxed read, for statistics and tests). */
static inline bool ordo_live_queued(const struct ordo_live *l, uint32_t v)
{
	return atomic_load_explicit(&l->at[v], memory_order_relaxed) != ORDO_LIVE_NONE;
}

#endif
