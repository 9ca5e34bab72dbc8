/*
 * relax.h - the label-correcting operator BFS and SSSP share (private to lib/).
 *
 * A task (d, u) carries the label d that node u had when it was pushed. It is stale
 * when label[u] < d now, and then reads nothing more; otherwise every arc u -> v with
 * d + w < label[v] lowers label[v] by a compare-and-swap loop, and each success pushes
 * (d + w, v). SSSP's labels are 64-bit distances and w the arc's weight; BFS's are
 * 32-bit levels and w = 1 (its arcs' weights are not even decoded). The width, the
 * weights, the representation (cz) and the per-thread work count are compile-time
 * constants of each copy (ORDO_GRAPH_OPERATOR), so each copy is the loop written out
 * for its case.
 *
 * The live form (SSSP; ordo_live.h's rule with the queued mark inside the label): bit 63
 * of a 64-bit label says the node is queued, with a task in the grain of its distance
 * (the bits of live_mask). A relaxation that lowers the label sets the mark in the same
 * compare-and-swap and pushes only when the node was not queued or its distance left
 * that grain; a task claims its node by clearing the mark (when its priority is in the
 * grain of the node's distance) and relaxes from the distance it found, not from the
 * one it carries. Empty tasks fall to one per grain crossed. Only the label is shared,
 * so relaxed orders do: every decision rests on one word. A finished run leaves no
 * mark (a mark means a queued task); an unreached node keeps ORDO_DIST_INF, which no
 * relaxation takes for a mark. Distances must stay below 2^63 - 1: (n - 1) weights
 * of 2^32 - 1 do for n < 2^31 (ordo_sssp checks).
 *
 * The prefetch hook is the executor's three-stage pipeline: a held task's label and arc
 * range, then its arcs, then its neighbours' labels (for writing), each stage one task
 * run ahead of the next.
 */
#ifndef ORDO_RELAX_H
#define ORDO_RELAX_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "ordo_graph.h"
#include "ordo_operator.h"
#include "ordo_runtime.h"

/* Work of a counting copy, per thread, each on its own cache line. */
struct relax_count {
	alignas(64) uint64_t arcs, set; /* arcs the tasks examined, labels they set */
};

struct relax_ctx {
	uint64_t run; /* ordo_arcs_memo_run */
	const struct ordo_graph *g;
	void *label;               /* _Atomic uint64_t[n] (wide) or _Atomic uint32_t[n] */
	struct relax_count *count; /* per thread, for counting copies; else unused */
	uint64_t live_mask;        /* the live form's grain (bits that count), see above */
	bool alone;                /* the run has one worker: the live form's claim is a store */
};

#define RELAX_QUEUED (UINT64_C(1) << 63)

/* The live form's claim: true (and *d = u's distance) when the task's priority p is in
 * the grain of u's distance and u is queued; u is then no longer queued. */
static inline __attribute__((always_inline)) bool
relax_claim(_Atomic uint64_t *p, uint64_t prio, uint64_t mask, bool alone, uint64_t *d)
{
	uint64_t w = atomic_load_explicit(p, memory_order_relaxed);
	for (;;) {
		const uint64_t dw = w & ~RELAX_QUEUED;
		if (!(w & RELAX_QUEUED) || ((dw ^ prio) & mask) || w == UINT64_MAX)
			return false; /* claimed, or queued at another grain */
		if (alone) {          /* the run's one worker: nobody writes the word meanwhile */
			atomic_store_explicit(p, dw, memory_order_relaxed);
			*d = dw;
			return true;
		}
		if (atomic_compare_exchange_weak_explicit(p, &w, dw, memory_order_relaxed,
		                                          memory_order_relaxed)) {
			*d = dw;
			return true;
		}
	}
}

/* The live form's relaxation: lowers label[v] to nd (marked queued) unless it is at
 * most nd; true when it did, and *push says whether a task must carry it. */
static inline __attribute__((always_inline)) bool relax_lower_live(_Atomic uint64_t *p, uint64_t nd,
                                                                   uint64_t mask, bool *push)
{
	uint64_t old = atomic_load_explicit(p, memory_order_relaxed);
	for (;;) {
		const uint64_t od = old & ~RELAX_QUEUED;
		if (nd >= od)
			return false;
		if (atomic_compare_exchange_weak_explicit(
		        p, &old, nd | RELAX_QUEUED, memory_order_relaxed, memory_order_relaxed)) {
			*push = old == UINT64_MAX || !(old & RELAX_QUEUED) || ((od ^ nd) & mask);
			return true;
		}
	}
}

/* This thread's memo of the last node's arcs (see ordo_arcs_memo), one per file that
 * includes this header. */
static _Thread_local struct ordo_arcs_memo relax_memo;

/* Where node v's label is (for prefetching). */
static inline __attribute__((always_inline)) const void *relax_at(const void *label, uint32_t v,
                                                                  const bool wide)
{
	return wide ? (const void *)((const uint64_t *)label + v)
	            : (const void *)((const uint32_t *)label + v);
}

static inline __attribute__((always_inline)) uint64_t relax_load(const void *label, uint32_t v,
                                                                 const bool wide)
{
	return wide ? atomic_load_explicit(&((_Atomic uint64_t *)label)[v], memory_order_relaxed)
	            : atomic_load_explicit(&((_Atomic uint32_t *)label)[v], memory_order_relaxed);
}

/* Lowers label[v] to nd unless it is already at most nd; true when this call did. */
static inline __attribute__((always_inline)) bool relax_lower(void *label, uint32_t v, uint64_t nd,
                                                              const bool wide)
{
	/* relaxed: the label travels in the task; the scheduler's push/pop orders the rest */
	if (wide) {
		_Atomic uint64_t *p = &((_Atomic uint64_t *)label)[v];
		uint64_t old = atomic_load_explicit(p, memory_order_relaxed);
		while (nd < old)
			if (atomic_compare_exchange_weak_explicit(p, &old, nd, memory_order_relaxed,
			                                          memory_order_relaxed))
				return true;
		return false;
	}
	_Atomic uint32_t *p = &((_Atomic uint32_t *)label)[v];
	uint32_t old = atomic_load_explicit(p, memory_order_relaxed);
	while ((uint32_t)nd < old)
		if (atomic_compare_exchange_weak_explicit(
		        p, &old, (uint32_t)nd, memory_order_relaxed, memory_order_relaxed))
			return true;
	return false;
}

static inline __attribute__((always_inline)) bool
relax_task(struct ordo_tctx *ctx, const struct ordo_task *t, const struct relax_ctx *s,
           const bool cz, const bool wide, const bool weighted, const bool count, const bool live)
{
	const uint32_t u = (uint32_t)t->data;
	uint64_t d = wide ? t->prio : (uint32_t)t->prio;
	if (live) {
		if (!relax_claim(&((_Atomic uint64_t *)s->label)[u], t->prio, s->live_mask,
		                 s->alone, &d))
			return false;
	} else if (d > relax_load(s->label, u, wide))
		return false; /* stale: its arcs are not read (nor decoded) */
	struct ordo_arcs a = ordo_graph_arcs_memo(s->g, u, cz, &relax_memo, s->run);
	/* A locked compare-and-swap waits for earlier loads, so the misses on the
	 * neighbours' labels would be taken one at a time: start them all first (a batch
	 * at a time). */
	uint32_t vbuf[ORDO_ARCS_BATCH], wbuf[ORDO_ARCS_BATCH];
	const uint32_t *vb, *wb = NULL;
	for (unsigned k; (k = weighted ? ordo_arcs_batch(&a, vbuf, wbuf, &vb, &wb)
	                               : ordo_arcs_targets_batch(&a, vbuf, &vb));) {
		if (count)
			s->count[ctx->tid].arcs += k;
		for (unsigned i = 0; i < k; i++)
			__builtin_prefetch(relax_at(s->label, vb[i], wide), 1);
		for (unsigned i = 0; i < k; i++) {
			const uint64_t nd = d + (weighted ? wb[i] : 1);
			if (live) {
				bool push;
				if (relax_lower_live(&((_Atomic uint64_t *)s->label)[vb[i]], nd,
				                     s->live_mask, &push)) {
					if (count)
						s->count[ctx->tid].set++;
					if (push)
						ordo_push(ctx, nd, vb[i]);
				}
			} else if (relax_lower(s->label, vb[i], nd, wide)) {
				if (count)
					s->count[ctx->tid].set++;
				ordo_push(ctx, nd, vb[i]);
			}
		}
	}
	return true;
}

static inline __attribute__((always_inline)) void
relax_prefetch(const struct ordo_task *t, unsigned ahead, const struct relax_ctx *s, const bool cz,
               const bool wide, const bool live)
{
	const uint32_t u = (uint32_t)t->data;
	/* live: the mark is ignored, and a task carries at least its node's distance */
	const uint64_t d = wide ? t->prio | (live ? RELAX_QUEUED : 0) : (uint32_t)t->prio;
	if (ahead >= 2) { /* the node's own label, then its arc range, then its arcs */
		if (ahead >= 3)
			ordo_prefetch(relax_at(s->label, u, wide));
		else if (d > relax_load(s->label, u, wide))
			return; /* stale: its arcs will not be read */
		ordo_graph_prefetch_stage_as(s->g, u, ahead, cz);
		return;
	}
	if (d > relax_load(s->label, u, wide))
		return;
	/* the neighbours' labels, for writing: see ordo_graph_prefetch_targets */
	uint32_t vbuf[ORDO_ARCS_BATCH];
	const uint32_t *vb;
	for (unsigned i = 0, k = ordo_graph_prefetch_targets_memo(s->g, u, vbuf, &vb, cz,
	                                                          &relax_memo, s->run);
	     i < k; i++)
		__builtin_prefetch(relax_at(s->label, vb[i], wide), 1);
}

#endif
