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
 * Narrow SSSP labels: 32-bit distances (half the bytes a task's neighbours make it
 * touch), with the live form's mark in bit 31. A relaxation whose distance would pass
 * s->limit (RELAX_NARROW_MAX) lowers nothing and raises *s->overflow instead; the
 * caller then runs again with 64-bit labels (ordo_sssp_run).
 *
 * Leaves (s->leaves, ordo_sssp_leaves): nodes whose task could lower no label. A
 * relaxation lowers a leaf's label (never marked) and pushes nothing.
 *
 * The prefetch hook is the executor's three-stage pipeline: a held task's label and arc
 * range, then its arcs, then its neighbours' labels, each stage one task run ahead of
 * the next. The labels are asked for writing (the line taken exclusive, so that a
 * lowering finds it so) unless s->read_labels: where most relaxations lower nothing (a
 * graph of many arcs per node) and other workers read the same labels, taking a line
 * from their caches makes their next read of it miss, and a prefetch for reading is the
 * faster one (rmat20 at two threads: 0.75x the time; bench/LOG.md, "Labels prefetched
 * for reading"). relax_batch is the operator's batch form (ordo_exec_opts.run_batch),
 * with the same stages inside its loop, less stage 1 (see there).
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
	bool alone;                /* the run has one worker: label writes are plain stores */
	uint64_t limit;            /* narrow weighted labels: the largest distance they hold */
	_Atomic bool *overflow;    /* ... and where a relaxation past it says so */
	const uint64_t *leaves;    /* nodes lowered without a task (a bitmap), or NULL */
	bool read_labels;          /* neighbours' labels prefetched for reading (see above) */
};

#define RELAX_QUEUED   (UINT64_C(1) << 63)
#define RELAX_QUEUED32 (UINT32_C(1) << 31)
/* the largest narrow distance: below the mark, and marked it is not UINT32_MAX */
#define RELAX_NARROW_MAX (RELAX_QUEUED32 - 2)

/* One label word, either width, as a 64-bit value: its load, store and weak
 * compare-and-swap (relaxed: the label travels in the task; the scheduler's push/pop
 * orders the rest). */
static inline __attribute__((always_inline)) uint64_t relax_load(const void *label, uint32_t v,
                                                                 const bool wide)
{
	return wide ? atomic_load_explicit(&((_Atomic uint64_t *)label)[v], memory_order_relaxed)
	            : atomic_load_explicit(&((_Atomic uint32_t *)label)[v], memory_order_relaxed);
}

static inline __attribute__((always_inline)) void relax_store(void *label, uint32_t v, uint64_t x,
                                                              const bool wide)
{
	if (wide)
		atomic_store_explicit(&((_Atomic uint64_t *)label)[v], x, memory_order_relaxed);
	else
		atomic_store_explicit(&((_Atomic uint32_t *)label)[v], (uint32_t)x,
		                      memory_order_relaxed);
}

static inline __attribute__((always_inline)) bool relax_cas(void *label, uint32_t v, uint64_t *old,
                                                            uint64_t x, const bool wide, bool alone)
{
	if (alone) { /* the run's one worker: nobody writes the word meanwhile */
		relax_store(label, v, x, wide);
		return true;
	}
	if (wide)
		return atomic_compare_exchange_weak_explicit(&((_Atomic uint64_t *)label)[v], old,
		                                             x, memory_order_relaxed,
		                                             memory_order_relaxed);
	uint32_t o = (uint32_t)*old;
	const bool ok =
	    atomic_compare_exchange_weak_explicit(&((_Atomic uint32_t *)label)[v], &o, (uint32_t)x,
	                                          memory_order_relaxed, memory_order_relaxed);
	*old = o;
	return ok;
}

/* The live form's mark, and the unreached label, of each width. */
#define RELAX_MARK(wide) ((wide) ? RELAX_QUEUED : (uint64_t)RELAX_QUEUED32)
#define RELAX_NONE(wide) ((wide) ? UINT64_MAX : (uint64_t)UINT32_MAX)

/* The live form's claim: true (and *d = u's distance) when the task's priority p is in
 * the grain of u's distance and u is queued; u is then no longer queued. */
static inline __attribute__((always_inline)) bool relax_claim(void *label, uint32_t u,
                                                              uint64_t prio, uint64_t mask,
                                                              bool alone, uint64_t *d,
                                                              const bool wide)
{
	uint64_t w = relax_load(label, u, wide);
	for (;;) {
		const uint64_t dw = w & ~RELAX_MARK(wide);
		if (!(w & RELAX_MARK(wide)) || ((dw ^ prio) & mask) || w == RELAX_NONE(wide))
			return false; /* claimed, or queued at another grain */
		if (relax_cas(label, u, &w, dw, wide, alone)) {
			*d = dw;
			return true;
		}
	}
}

/* The live form's relaxation: lowers label[v] to nd (marked queued) unless it is at
 * most nd; true when it did, and *push says whether a task must carry it. */
static inline __attribute__((always_inline)) bool relax_lower_live(void *label, uint32_t v,
                                                                   uint64_t nd, uint64_t mask,
                                                                   bool *push, const bool wide,
                                                                   bool alone)
{
	uint64_t old = relax_load(label, v, wide);
	for (;;) {
		const uint64_t od = old & ~RELAX_MARK(wide);
		if (nd >= od)
			return false;
		if (relax_cas(label, v, &old, nd | RELAX_MARK(wide), wide, alone)) {
			*push = old == RELAX_NONE(wide) || !(old & RELAX_MARK(wide)) ||
			        ((od ^ nd) & mask);
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

/* Prefetches label[v] for what s asks (see above): the branch is the same for every
 * arc of a run, so the compiler takes it out of the loops that call this. */
static inline __attribute__((always_inline)) void relax_prefetch_label(const struct relax_ctx *s,
                                                                       uint32_t v, const bool wide)
{
	if (s->read_labels)
		__builtin_prefetch(relax_at(s->label, v, wide), 0);
	else
		__builtin_prefetch(relax_at(s->label, v, wide), 1);
}

/* Lowers label[v] to nd unless it is already at most nd; true when this call did. */
static inline __attribute__((always_inline)) bool relax_lower(void *label, uint32_t v, uint64_t nd,
                                                              const bool wide, bool alone)
{
	uint64_t old = relax_load(label, v, wide);
	while (nd < old)
		if (relax_cas(label, v, &old, nd, wide, alone))
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
		if (!relax_claim(s->label, u, t->prio, s->live_mask, s->alone, &d, wide))
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
			relax_prefetch_label(s, vb[i], wide);
		for (unsigned i = 0; i < k; i++) {
			const uint64_t nd = d + (weighted ? wb[i] : 1);
			if (weighted && !wide && __builtin_expect(nd > s->limit, 0)) {
				atomic_store_explicit(s->overflow, true, memory_order_relaxed);
				continue; /* the caller runs again with 64-bit labels */
			}
			if (s->leaves && ((s->leaves[vb[i] >> 6] >> (vb[i] & 63)) & 1)) {
				if (relax_lower(s->label, vb[i], nd, wide, s->alone) && count)
					s->count[ctx->tid].set++;
				continue;
			}
			if (live) {
				bool push;
				if (relax_lower_live(s->label, vb[i], nd, s->live_mask, &push, wide,
				                     s->alone)) {
					if (count)
						s->count[ctx->tid].set++;
					if (push)
						ordo_push(ctx, nd, vb[i]);
				}
			} else if (relax_lower(s->label, vb[i], nd, wide, s->alone)) {
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
	const uint64_t d = (wide ? t->prio : (uint32_t)t->prio) | (live ? RELAX_MARK(wide) : 0);
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
		relax_prefetch_label(s, vb[i], wide);
}

/* A batch of popped tasks, run in order (ordo_exec_opts.run_batch), with the hook's
 * pipeline inside the loop: stage st (the graph's stages down to 2) runs st * d tasks
 * before its task, d the executor's spacing (ordo_batch_operator; 0: no prefetch).
 * Stage 1, the neighbours' labels, is left out: it must read the arcs, a wait of its
 * own, and relax_task asks for those labels anyway, all of a batch of arcs before the
 * first compare; without it a batch ran road2k in 0.91x the time and no graph slower
 * (bench/LOG.md, "Tasks run in batches"). The tasks within top * d of the batch's
 * start take the top stage (a prefetch, no load) before the first runs, and the later
 * stages that still fall ahead of them. */
static inline __attribute__((always_inline)) uint64_t
relax_batch(struct ordo_tctx *ctx, const struct ordo_task *t, unsigned k, unsigned d,
            const struct relax_ctx *s, const bool cz, const bool wide, const bool weighted,
            const bool count, const bool live)
{
	const unsigned top = ordo_graph_prefetch_stages_as(cz);
	if (d)
		for (unsigned i = 0; i < k && i < top * d; i++)
			relax_prefetch(&t[i], top, s, cz, wide, live);
	uint64_t useful = 0;
	for (unsigned i = 0; i < k; i++) {
		if (d)
			for (unsigned st = top, j = i + top * d; st >= 2; st--, j -= d)
				if (j < k)
					relax_prefetch(&t[j], st, s, cz, wide, live);
		useful += relax_task(ctx, &t[i], s, cz, wide, weighted, count, live);
	}
	return useful;
}

#endif
