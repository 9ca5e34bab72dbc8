/*
 * kcore_peel.c - k-core decomposition by level-synchronous peeling (see ordo_kcore.h),
 * after Kabir and Madduri's PKC (2017) and Julienne's bucketed peeling.
 *
 * Level k: every remaining node of degree k is peeled together (its core number is k),
 * and each peeled node decrements the degree of its neighbours still above k; a
 * neighbour that reaches k joins this level's peeling, on the thread that lowered it.
 * Two threads may lower the same node from k + 1 at once: the one that takes it below k
 * adds its decrement back, so no degree falls under the level being peeled and no node
 * is peeled twice (a node of degree k at the scan is never lowered afterwards; one
 * lowered to k was above k at the scan). Each arc is examined once, when its tail is
 * peeled: O(m) work, as Batagelj-Zaversnik, with one atomic decrement per arc (plain
 * loads and stores on one thread).
 *
 * Levels: a scan collects the remaining nodes of degree k (each thread over its own
 * segment of the remaining nodes, compacting it as it goes), then the threads peel
 * their collections; an empty level jumps to the smallest degree the scan saw. The
 * degrees live in the output array: a peeled node's degree stays its core number.
 */
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "ordo_kcore.h"
#include "ordo_util.h"
#include "perturb.h"

struct peel_thread {
	alignas(64) uint32_t *buf; /* this level's nodes to peel, grown as it goes */
	uint64_t cap, n;
	uint32_t lo, len;             /* its segment of the remaining nodes */
	uint32_t min_above;           /* the scan's smallest degree above k */
	uint64_t scan_n, scan_failed; /* n and grow_failed after the scan */
	uint64_t peeled, arcs, undone, grow_failed;
};

static bool buf_push(struct peel_thread *p, uint32_t v)
{
	if (p->n == p->cap) {
		uint64_t cap = p->cap ? 2 * p->cap : 4096;
		uint32_t *b = realloc(p->buf, cap * sizeof *b);
		if (!b) {
			p->grow_failed = 1;
			return false;
		}
		p->buf = b, p->cap = cap;
	}
	p->buf[p->n++] = v;
	return true;
}

/* How far ahead along a node's arcs the peel fetches degrees, with threads. */
enum { PEEL_AHEAD = 24 };

/* Peels p's collection at level k (and what it adds to it). */
static inline __attribute__((always_inline)) void peel_level(const struct ordo_graph *g,
                                                             _Atomic uint32_t *deg,
                                                             struct peel_thread *p, uint32_t k,
                                                             const bool shared)
{
	for (uint64_t i = 0; i < p->n && !p->grow_failed; i++) {
		const uint32_t v = p->buf[i];
		uint32_t u, w;
		struct ordo_arcs a = ordo_graph_arcs(g, v);
		/* a long plain adjacency: the degree PEEL_AHEAD arcs on is fetched while this
		 * one is lowered (a locked decrement holds back the loads after it; a short
		 * list's loads are few, and a prefetch of them costs more than it hides) */
		const bool ahead = shared && !a.cz && a.de - a.d >= 2 * PEEL_AHEAD;
		if (ahead)
			for (unsigned j = 0; j < PEEL_AHEAD; j++)
				__builtin_prefetch(&deg[a.d[j]], 1);
		while (ordo_arcs_next(&a, &u, &w)) {
			if (ahead && a.d + PEEL_AHEAD - 1 < a.de)
				__builtin_prefetch(&deg[a.d[PEEL_AHEAD - 1]], 1);
			p->arcs++;
			uint32_t d = atomic_load_explicit(&deg[u], memory_order_relaxed);
			if (d <= k)
				continue; /* peeled, or being peeled at this level */
			if (!shared) {
				atomic_store_explicit(&deg[u], d - 1, memory_order_relaxed);
			} else {
				ORDO_PERTURB_POINT(
				    KCORE_LOWER); /* between the test and the decrement */
				d = atomic_fetch_sub_explicit(&deg[u], 1, memory_order_relaxed);
				if (d <= k) { /* another thread took it to k first: undo */
					atomic_fetch_add_explicit(&deg[u], 1, memory_order_relaxed);
					p->undone++;
					continue;
				}
			}
			if (d - 1 == k && !buf_push(p, u))
				return;
		}
	}
	p->peeled += p->n;
}

/* A level's scan of one thread's segment: the nodes of core k into its buffer, the
 * segment compacted to those above k, and the smallest degree above k. */
static void scan_level(struct peel_thread *me, uint32_t *rem, _Atomic uint32_t *core, uint32_t k)
{
	me->n = 0;
	me->min_above = UINT32_MAX;
	uint32_t keep = 0;
	for (uint32_t i = 0; i < me->len; i++) {
		const uint32_t v = rem[me->lo + i];
		const uint32_t d = atomic_load_explicit(&core[v], memory_order_relaxed);
		if (d == k) {
			if (!buf_push(me, v))
				break;
		} else if (d > k) {
			rem[me->lo + keep++] = v;
			me->min_above = d < me->min_above ? d : me->min_above;
		}
	}
	me->len = keep;
	/* what the others read before peeling, which changes n and grow_failed */
	me->scan_n = me->n;
	me->scan_failed = me->grow_failed;
}

static void peel_stats(struct ordo_kcore_stats *st, const struct peel_thread *pt, int T,
                       double seconds, uint32_t levels)
{
	memset(st, 0, sizeof *st);
	st->seconds = seconds;
	st->levels = levels;
	st->threads = T;
	uint64_t *per = malloc((size_t)T * sizeof *per);
	for (int i = 0; i < T; i++) {
		st->peeled += pt[i].peeled;
		st->arcs += pt[i].arcs;
		st->undone += pt[i].undone;
		if (per)
			per[i] = pt[i].peeled + pt[i].arcs + pt[i].undone;
	}
	if (per)
		ordo_spread(per, (size_t)T, &st->work_min, &st->work_median, &st->work_max);
	free(per);
}

int ordo_kcore_peel(const struct ordo_graph *g, const struct ordo_topology *topo,
                    _Atomic uint32_t *core, struct ordo_kcore_stats *st, struct ordo_err *err)
{
	const uint32_t n = g->n;
	const int T = topo->nthreads;
	uint64_t maxdeg;
	if (ordo_kcore_max_degree(g, &maxdeg, err))
		return err->code;
	uint32_t *rem = ordo_alloc_huge(((size_t)n + 1) * sizeof *rem);
	struct peel_thread *pt = ordo_calloc_aligned((size_t)T, sizeof *pt);
	if (!rem || !pt) {
		free(rem), free(pt);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory for k-core peeling");
	}
	const double t0 = ordo_now();
	uint64_t done = 0;
	uint32_t k = 0, levels = 0;
	bool oom = false;
	int got = 0;
	omp_set_dynamic(0);
#pragma omp parallel num_threads(T)
	{
		const int t = omp_get_thread_num();
		struct peel_thread *me = &pt[t];
#pragma omp single
		got = omp_get_num_threads();
		/* degrees, and each thread's segment of the remaining nodes */
		me->lo = (uint32_t)((uint64_t)n * t / T);
		me->len = (uint32_t)((uint64_t)n * (t + 1) / T) - me->lo;
		for (uint32_t i = me->lo; i < me->lo + me->len; i++) {
			atomic_store_explicit(&core[i], (uint32_t)ordo_graph_degree(g, i),
			                      memory_order_relaxed);
			rem[i] = i;
		}
#pragma omp barrier
		while (got == T && done < n && !oom) {
			scan_level(me, rem, core, k);
#pragma omp barrier
			bool empty = true, short_of_memory = false;
			uint32_t next = UINT32_MAX;
			for (int i = 0; i < T; i++) {
				empty = empty && pt[i].scan_n == 0;
				next = pt[i].min_above < next ? pt[i].min_above : next;
				short_of_memory = short_of_memory || pt[i].scan_failed;
			}
			if (!empty && !short_of_memory) {
				if (T == 1)
					peel_level(g, core, me, k, false);
				else
					peel_level(g, core, me, k, true);
			}
#pragma omp barrier
#pragma omp single
			{
				for (int i = 0; i < T; i++) {
					done += pt[i].n;
					oom = oom || pt[i].grow_failed;
				}
				levels += !empty;
				/* an empty level: the smallest degree left (none left: done) */
				k = empty ? next : k + 1;
			}
		}
	}
	int rc = 0;
	if (got != T)
		rc = ordo_err_set(err, ORDO_EINVAL, "asked for %d threads, OpenMP gave %d", T, got);
	else if (oom)
		rc = ordo_err_set(err, ORDO_ENOMEM, "out of memory for k-core peeling");
	else if (st)
		peel_stats(st, pt, T, ordo_now() - t0, levels);
	for (int i = 0; i < T; i++)
		free(pt[i].buf);
	free(pt);
	free(rem);
	return rc;
}
