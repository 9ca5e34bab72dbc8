/*
 * sssp.c - single-source shortest paths (see ordo_sssp.h).
 *
 * Operator (as in the SMQ paper's artifact, apps/sssp asyncWithCas; the code is
 * relax.h, shared with BFS): a task (d, u) is stale when dist[u] < d; otherwise every
 * arc u->v with d + w < dist[v] is relaxed with a compare-and-swap loop and each
 * successful relaxation pushes (d + w, v). Two tasks for the same node never carry the
 * same distance, so "useful" tasks are at most one per distance improvement.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "iheap.h"
#include "ordo_live.h"
#include "ordo_rng.h"
#include "ordo_sssp.h"
#include "ordo_util.h"
#include "relax.h"

/* The operator, its pipeline hook and its batch form (relax.h), compiled once per
 * representation (ORDO_GRAPH_OPERATOR): cz is a constant in each; one copy per label
 * width (wide: 64 bits) and form (live: one queued task per node and grain). */
#define SSSP_COPY(NAME, WIDE, LIVE)                                                          \
	static inline __attribute__((always_inline)) bool NAME##_body(                       \
	    struct ordo_tctx *ctx, const struct ordo_task *t, void *user, const bool cz)     \
	{                                                                                    \
		return relax_task(ctx, t, user, cz, WIDE, true, false, LIVE);                \
	}                                                                                    \
	static inline __attribute__((always_inline)) void NAME##_prefetch_body(              \
	    const struct ordo_task *t, unsigned ahead, void *user, const bool cz)            \
	{                                                                                    \
		relax_prefetch(t, ahead, user, cz, WIDE, LIVE);                              \
	}                                                                                    \
	ORDO_GRAPH_OPERATOR(NAME, NAME##_body, bool, struct ordo_tctx *ctx,                  \
	                    const struct ordo_task *t, void *user)                           \
	ORDO_GRAPH_HOOK(NAME##_prefetch, NAME##_prefetch_body)                               \
	static uint64_t NAME##_batch_plain(struct ordo_tctx *ctx, const struct ordo_task *t, \
	                                   unsigned k, unsigned d, void *user)               \
	{                                                                                    \
		return relax_batch(ctx, t, k, d, user, false, WIDE, true, false, LIVE);      \
	}                                                                                    \
	static uint64_t NAME##_batch_cz(struct ordo_tctx *ctx, const struct ordo_task *t,    \
	                                unsigned k, unsigned d, void *user)                  \
	{                                                                                    \
		return relax_batch(ctx, t, k, d, user, true, WIDE, true, false, LIVE);       \
	}

SSSP_COPY(sssp_op, true, false)
SSSP_COPY(sssp_live, true, true)
SSSP_COPY(sssp_nop, false, false)
SSSP_COPY(sssp_nlive, false, true)

_Static_assert(ORDO_SSSP_NARROW_MAX == RELAX_NARROW_MAX, "one limit for 32-bit distances");

bool ordo_sssp_live_fits(const struct ordo_graph *g)
{
	return g->n < (UINT32_C(1) << 31);
}

int ordo_sssp(const struct ordo_graph *g, uint32_t src, struct ordo_scheduler *wl,
              const struct ordo_exec_opts *o, _Atomic uint64_t *dist, struct ordo_run_stats *st,
              struct ordo_err *err)
{
	return ordo_sssp_live(g, src, wl, o, -1, dist, st, err);
}

/* Every label to unreached (the source's to 0, marked queued in the live form). */
static void labels_init(void *label, bool wide, bool live, uint32_t n, uint32_t src, int threads)
{
#pragma omp parallel for num_threads(threads) schedule(static)
	for (uint64_t v = 0; v < n; v++)
		relax_store(label, (uint32_t)v, RELAX_NONE(wide), wide);
	relax_store(label, src, live ? RELAX_MARK(wide) : 0, wide);
}

/* A run cut short leaves marks: distances without them. */
static void labels_unmark(void *label, bool wide, uint32_t n)
{
	for (uint32_t v = 0; v < n; v++) {
		const uint64_t w = relax_load(label, v, wide);
		if (w != RELAX_NONE(wide))
			relax_store(label, v, w & ~RELAX_MARK(wide), wide);
	}
}

int ordo_sssp_run(const struct ordo_graph *g, uint32_t src, struct ordo_scheduler *wl,
                  const struct ordo_exec_opts *o, struct ordo_sssp_run *r,
                  struct ordo_run_stats *st, struct ordo_err *err)
{
	const int grain = r->grain;
	if (grain > 64)
		return ordo_err_set(err, ORDO_EINVAL, "grain %d is not 0..64", grain);
	if (grain >= 0 && !ordo_sssp_live_fits(g))
		return ordo_err_set(err, ORDO_EINVAL,
		                    "the live form needs fewer than 2^31 nodes (n = %u)", g->n);
	if (!r->dist == !r->narrow)
		return ordo_err_set(err, ORDO_EINVAL, "one of dist and narrow, not %s",
		                    r->dist ? "both" : "neither");
	const bool live = grain >= 0, wide = r->dist;
	void *label = wide ? (void *)r->dist : (void *)r->narrow;
	if (src >= g->n)
		return ordo_err_set(err, ORDO_EINVAL, "source %u is not a node (n = %u)", src,
		                    g->n);
	labels_init(label, wide, live, g->n, src, o->topo->nthreads);
	struct ordo_task init = {0, src};
	_Atomic bool overflow = false;
	struct relax_ctx s = {ordo_arcs_memo_run(),
	                      g,
	                      label,
	                      NULL,
	                      live ? ordo_live_mask((unsigned)grain) : 0,
	                      o->topo->nthreads == 1,
	                      RELAX_NARROW_MAX,
	                      &overflow,
	                      r->leaves};
	/* the degree matters from two workers on; not given, it costs one pass over the node
	 * index (m / n would count an edge list's unused ids) */
	const double degree = r->mean_degree > 0      ? r->mean_degree
	                      : o->topo->nthreads > 1 ? ordo_graph_mean_degree(g)
	                                              : 0;
	s.read_labels = ordo_sssp_reads_labels(degree, o->topo->nthreads);
	struct ordo_exec_opts eo = *o;
	/* user: this context */
	const bool cz = g->cz;
	eo.prefetch = wide ? (live ? (cz ? sssp_live_prefetch_cz : sssp_live_prefetch_plain)
	                           : (cz ? sssp_op_prefetch_cz : sssp_op_prefetch_plain))
	                   : (live ? (cz ? sssp_nlive_prefetch_cz : sssp_nlive_prefetch_plain)
	                           : (cz ? sssp_nop_prefetch_cz : sssp_nop_prefetch_plain));
	eo.prefetch_stages = ordo_graph_prefetch_stages(g);
	if (!eo.lookahead)
		eo.lookahead = ORDO_SSSP_LOOKAHEAD;
	ordo_operator op = wide ? (live ? (cz ? sssp_live_cz : sssp_live_plain)
	                                : (cz ? sssp_op_cz : sssp_op_plain))
	                        : (live ? (cz ? sssp_nlive_cz : sssp_nlive_plain)
	                                : (cz ? sssp_nop_cz : sssp_nop_plain));
	/* tasks in batches, pipelined inside the operator (relax_batch) at the executor's
	 * spacing of the hook's stages; --lookahead 0 holds no task, so it runs one task at
	 * a time, as the linearized executor does */
	if (eo.lookahead != ORDO_LOOKAHEAD_OFF)
		eo.run_batch = wide ? (live ? (cz ? sssp_live_batch_cz : sssp_live_batch_plain)
		                            : (cz ? sssp_op_batch_cz : sssp_op_batch_plain))
		                    : (live ? (cz ? sssp_nlive_batch_cz : sssp_nlive_batch_plain)
		                            : (cz ? sssp_nop_batch_cz : sssp_nop_batch_plain));
	const int rc = ordo_for_each(&eo, wl->ops, wl->wl, &init, 1, op, &s, st, err);
	if (rc && live)
		labels_unmark(label, wide, g->n);
	r->overflow = atomic_load_explicit(&overflow, memory_order_relaxed);
	return rc;
}

int ordo_sssp_live(const struct ordo_graph *g, uint32_t src, struct ordo_scheduler *wl,
                   const struct ordo_exec_opts *o, int grain, _Atomic uint64_t *dist,
                   struct ordo_run_stats *st, struct ordo_err *err)
{
	struct ordo_sssp_run r = {.grain = grain, .dist = dist};
	return ordo_sssp_run(g, src, wl, o, &r, st, err);
}

/* Is v's one arc (v has exactly one) to u? */
static bool one_arc_to(const struct ordo_graph *g, uint32_t v, uint32_t u)
{
	struct ordo_arcs a = ordo_graph_arcs(g, v);
	uint32_t t, w;
	return ordo_arcs_next(&a, &t, &w) && t == u;
}

int ordo_sssp_leaves(const struct ordo_graph *g, int threads, uint64_t **leaves, uint64_t *count,
                     struct ordo_err *err)
{
	const uint64_t words = (uint64_t)g->n / 64 + 1;
	_Atomic uint64_t *bits = calloc(words, sizeof *bits);
	if (!bits)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory for the leaves");
		/* the candidates: no arc, or one */
#pragma omp parallel for num_threads(threads) schedule(static)
	for (uint64_t k = 0; k < words; k++) {
		uint64_t x = 0;
		for (uint64_t v = k * 64; v < g->n && v < k * 64 + 64; v++)
			if (ordo_graph_degree(g, (uint32_t)v) <= 1)
				x |= UINT64_C(1) << (v & 63);
		atomic_store_explicit(&bits[k], x, memory_order_relaxed);
	}
	/* a candidate with one arc v -> u stays one only if every arc into it is u's
	 * (relaxed: the bits only go down, and the loop's end orders them for the caller) */
	if (!(g->flags & ORDO_GRAPH_SYMMETRIC)) {
#pragma omp parallel for num_threads(threads) schedule(dynamic, 4096)
		for (uint64_t u = 0; u < g->n; u++) {
			uint32_t v, w;
			for (struct ordo_arcs a = ordo_graph_arcs(g, (uint32_t)u);
			     ordo_arcs_next(&a, &v, &w);) {
				const uint64_t bit = UINT64_C(1) << (v & 63);
				if ((atomic_load_explicit(&bits[v >> 6], memory_order_relaxed) &
				     bit) &&
				    ordo_graph_degree(g, v) == 1 && !one_arc_to(g, v, (uint32_t)u))
					atomic_fetch_and_explicit(&bits[v >> 6], ~bit,
					                          memory_order_relaxed);
			}
		}
	}
	uint64_t c = 0;
	for (uint64_t k = 0; k < words; k++)
		c += (uint64_t)__builtin_popcountll(
		    atomic_load_explicit(&bits[k], memory_order_relaxed));
	*leaves = (uint64_t *)bits;
	*count = c;
	return 0;
}

void ordo_sssp_widen(const _Atomic uint32_t *narrow, _Atomic uint64_t *dist, uint32_t n,
                     int threads)
{
#pragma omp parallel for num_threads(threads) schedule(static)
	for (uint64_t v = 0; v < n; v++) {
		const uint32_t d = atomic_load_explicit(&narrow[v], memory_order_relaxed);
		atomic_store_explicit(&dist[v], d == UINT32_MAX ? ORDO_DIST_INF : d,
		                      memory_order_relaxed);
	}
}

/* ---- Dijkstra with an indexed 4-ary heap (decrease-key) ---- */

int ordo_dijkstra(const struct ordo_graph *g, uint32_t src, uint64_t *dist, uint64_t *settled,
                  struct ordo_err *err)
{
	const uint32_t n = g->n;
	if (src >= n)
		return ordo_err_set(err, ORDO_EINVAL, "source %u is not a node (n = %u)", src, n);
	struct iheap h = {malloc(((size_t)n + 1) * sizeof *h.a), malloc((size_t)n * sizeof *h.pos),
	                  0};
	if (!h.a || !h.pos) {
		free(h.a), free(h.pos);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory for Dijkstra");
	}
	for (uint32_t v = 0; v < n; v++) {
		dist[v] = ORDO_DIST_INF;
		h.pos[v] = IHEAP_NONE;
	}
	uint64_t count = 0;
	dist[src] = 0;
	iheap_push_or_decrease(&h, src, 0);
	while (h.n) {
		const struct iheap_entry top = iheap_pop(&h);
		const uint32_t u = top.node;
		count++;
		const uint64_t du = top.key;
		uint32_t v, w;
		for (struct ordo_arcs a = ordo_graph_arcs(g, u); ordo_arcs_next(&a, &v, &w);) {
			const uint64_t nd = du + w;
			if (nd >= dist[v])
				continue;
			dist[v] = nd;
			iheap_push_or_decrease(&h, v, nd);
		}
	}
	free(h.a);
	free(h.pos);
	*settled = count;
	return 0;
}

void ordo_dist_str(char buf[24], uint64_t d)
{
	if (d == ORDO_DIST_INF)
		snprintf(buf, 24, "infinity");
	else
		snprintf(buf, 24, "%llu", (unsigned long long)d);
}

void ordo_sssp_check(const struct ordo_graph *g, const _Atomic uint64_t *dist, const uint64_t *ref,
                     struct ordo_check *c)
{
	ordo_check_init(c);
	uint64_t reached = 0, max_dist = 0;
	for (uint32_t v = 0; v < g->n; v++) {
		uint64_t d = atomic_load_explicit(&dist[v], memory_order_relaxed);
		if (d != ORDO_DIST_INF) {
			reached++;
			max_dist = d > max_dist ? d : max_dist;
		}
		if (d != ref[v]) {
			char got[24], want[24];
			ordo_dist_str(got, d);
			ordo_dist_str(want, ref[v]);
			ordo_check_mismatch(c, "node %u has distance %s, expected %s",
			                    ordo_graph_orig_of(g, v), got, want);
		}
	}
	ordo_check_figure(c, "reached", reached);
	ordo_check_figure(c, "max_dist", max_dist);
}

void ordo_sp_parents(const struct ordo_graph *g, const _Atomic uint64_t *dist, uint32_t source,
                     uint32_t *parent)
{
	for (uint32_t v = 0; v < g->n; v++)
		parent[v] = ORDO_NO_PARENT;
	for (uint32_t u = 0; u < g->n; u++) {
		const uint64_t du = atomic_load_explicit(&dist[u], memory_order_relaxed);
		if (du == ORDO_DIST_INF)
			continue;
		uint32_t v, w;
		for (struct ordo_arcs a = ordo_graph_arcs(g, u); ordo_arcs_next(&a, &v, &w);)
			if (parent[v] == ORDO_NO_PARENT && v != source &&
			    du + w == atomic_load_explicit(&dist[v], memory_order_relaxed))
				parent[v] = u;
	}
	if (source < g->n)
		parent[source] = source;
}

uint32_t ordo_sp_path(const uint32_t *parent, uint32_t source, uint32_t t, uint32_t *path,
                      uint32_t cap)
{
	uint32_t k = 0;
	for (uint32_t v = t; k < cap; v = parent[v]) {
		if (v == ORDO_NO_PARENT)
			return 0;
		path[k++] = v;
		if (v == source)
			break;
	}
	if (!k || path[k - 1] != source)
		return 0;
	for (uint32_t i = 0; i < k / 2; i++) {
		const uint32_t x = path[i];
		path[i] = path[k - 1 - i], path[k - 1 - i] = x;
	}
	return k;
}
