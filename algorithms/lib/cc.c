/*
 * cc.c - connected components (see ordo_cc.h).
 *
 * Every way keeps one invariant: a node's label (its parent, for the union-find trees)
 * is never above its own id and only falls, so a tree's root is its smallest node and
 * labels meet at the component's smallest id.
 *
 * Afforest's link(u, v) hangs the higher of the two roots under the lower with one
 * compare-and-swap on a root's own entry (a root's entry is itself), retrying from the
 * new roots when another link got there first (climbing to them halves the paths: each
 * node passed is pointed at its grandparent, by a compare-and-swap, so labels still
 * only fall); compress() then points every node at its root. The largest component
 * is the most frequent label of 1024 samples after the sampling rounds, as the paper
 * does; a wrong guess costs time, never the answer.
 *
 * Label propagation's tasks: (priority = the label that made the node pending, data =
 * the node). pending[v] holds the priority of v's newest task: every fall of w's label,
 * to l, pushes a task at l and lowers pending[w] to l (a label only falls, so l is below
 * every priority a task of w was pushed with); a task first swaps its own priority in
 * pending[] for NONE, and a task that finds a lower one there was superseded: it
 * returns at once, empty, leaving the work to the newer task. The newest task of a
 * node is never superseded, so after a node's last fall a task at its final label runs
 * and offers it to every arc; it reads the live label, which is at least the one its
 * push published (the scheduler's push and pop order them). A task that reads a label
 * its node already offered (a fall between the previous task's swap and its read) is
 * empty too (sent[]). Only the local minima (nodes with no smaller neighbour) start
 * with a task: any other node is offered a smaller label along a falling chain of ids
 * that ends at one. All of it is relaxed: no decision rests on the order of two words.
 */
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "ordo_cc.h"
#include "perturb.h"

/* ---- the baseline: union-find ---- */

static uint32_t uf_root(uint32_t *p, uint32_t v)
{
	while (p[v] != v) {
		p[v] = p[p[v]]; /* path halving */
		v = p[v];
	}
	return v;
}

int ordo_cc_seq(const struct ordo_graph *g, uint32_t *label, uint64_t *components,
                struct ordo_err *err)
{
	(void)err;
	const uint32_t n = g->n;
	for (uint32_t v = 0; v < n; v++)
		label[v] = v;
	for (uint32_t u = 0; u < n; u++) {
		uint32_t w, wt;
		for (struct ordo_arcs a = ordo_graph_arcs(g, u); ordo_arcs_next(&a, &w, &wt);) {
			const uint32_t ru = uf_root(label, u), rw = uf_root(label, w);
			if (ru < rw)
				label[rw] = ru;
			else if (rw < ru)
				label[ru] = rw;
		}
	}
	uint64_t k = 0;
	for (uint32_t v = 0; v < n; v++) { /* parents have smaller ids: one pass */
		label[v] = label[label[v]];
		k += label[v] == v;
	}
	*components = k;
	return 0;
}

/* ---- Afforest ---- */

static inline uint32_t ld(_Atomic uint32_t *a, uint32_t v)
{
	return atomic_load_explicit(&a[v], memory_order_relaxed);
}

/* The root of v's tree, halving the path on the way: each node passed is pointed at its
 * grandparent, by a compare-and-swap from the parent it was seen with, so a label still
 * only falls (a lost race leaves a node its newer, lower parent). */
static uint32_t find_halving(_Atomic uint32_t *p, uint32_t v)
{
	for (;;) {
		uint32_t pv = ld(p, v);
		if (pv == v)
			return v;
		const uint32_t gp = ld(p, pv);
		if (gp != pv)
			atomic_compare_exchange_strong_explicit(
			    &p[v], &pv, gp, memory_order_relaxed, memory_order_relaxed);
		v = gp;
	}
}

static void link_nodes(_Atomic uint32_t *p, uint32_t u, uint32_t v)
{
	uint32_t a = ld(p, u), b = ld(p, v);
	while (a != b) {
		uint32_t hi = a > b ? a : b, lo = a ^ b ^ hi;
		uint32_t cur = ld(p, hi);
		if (cur == lo)
			return;              /* linked already */
		ORDO_PERTURB_POINT(CC_WAKE); /* between the look at hi and the link */
		if (cur == hi && atomic_compare_exchange_strong_explicit(
		                     &p[hi], &cur, lo, memory_order_relaxed, memory_order_relaxed))
			return;
		/* hi was no root, or another link hung it first: climb to both roots and
		 * retry, halving the paths (without, a deep tree costs every later link
		 * through it its whole climb: road2k's sampling took 2-3x as long) */
		a = find_halving(p, hi);
		b = find_halving(p, lo);
	}
}

/* Nodes a thread takes at a time: about 16 pieces a thread, 64 to 16384 nodes each, so
 * a small graph is shared too. */
static int chunk_of(uint32_t n)
{
	const uint32_t c = n / (16u * (unsigned)omp_get_num_threads());
	return c < 64 ? 64 : c > 16384 ? 16384 : (int)c;
}

/* Every node pointed at its root (inside a parallel region; ends with its barrier). */
static void compress(_Atomic uint32_t *p, uint32_t n)
{
#pragma omp for schedule(dynamic, chunk_of(n))
	for (uint32_t v = 0; v < n; v++) {
		uint32_t x = ld(p, v);
		while (x != ld(p, x))
			x = ld(p, x);
		atomic_store_explicit(&p[v], x, memory_order_relaxed);
	}
}

static int cmp_u32(const void *a, const void *b)
{
	const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* The most frequent label among 1024 samples (a fixed seed: runs repeat). */
static uint32_t frequent_label(_Atomic uint32_t *p, uint32_t n)
{
	enum { S = 1024 };
	uint32_t s[S];
	struct ordo_rng r;
	ordo_rng_seed(&r, 0x5eed, 0);
	for (int i = 0; i < S; i++)
		s[i] = ld(p, (uint32_t)ordo_rng_below(&r, n));
	qsort(s, S, sizeof *s, cmp_u32);
	uint32_t best = s[0], run = 0, best_run = 0;
	for (int i = 0; i < S; i++) {
		run = i && s[i] == s[i - 1] ? run + 1 : 1;
		if (run > best_run)
			best_run = run, best = s[i];
	}
	return best;
}

/* One sampling round: every node links along its r-th arc. Returns this thread's
 * links. */
static uint64_t sample_round(const struct ordo_graph *g, _Atomic uint32_t *label, unsigned r)
{
	uint64_t links = 0;
	const uint32_t n = g->n;
	if (g->off) { /* plain CSR: the r-th arc at once */
#pragma omp for schedule(dynamic, chunk_of(n))
		for (uint32_t u = 0; u < n; u++)
			if (g->off[u] + r < g->off[u + 1]) {
				link_nodes(label, u, g->dst[g->off[u] + r]);
				links++;
			}
	} else {
#pragma omp for schedule(dynamic, chunk_of(n))
		for (uint32_t u = 0; u < n; u++) {
			uint32_t w, wt, i = 0;
			for (struct ordo_arcs a = ordo_graph_arcs(g, u);
			     ordo_arcs_next(&a, &w, &wt);)
				if (i++ == r) {
					link_nodes(label, u, w);
					links++;
					break;
				}
		}
	}
	compress(label, n);
	return links;
}

/* Thread t's share of the final pass: the nodes outside the largest component `big`
 * link along their arcs after the first `rounds`. Returns its links; *visited counts
 * its nodes, *skipped those of `big`. */
static uint64_t final_pass(const struct ordo_graph *g, _Atomic uint32_t *label, unsigned rounds,
                           uint32_t big, uint64_t *visited, uint64_t *skipped)
{
	uint64_t links = 0, in_big = 0, nodes = 0;
#pragma omp for schedule(dynamic, chunk_of(g->n)) nowait
	for (uint32_t u = 0; u < g->n; u++) {
		nodes++;
		if (ld(label, u) == big) {
			in_big++;
			continue;
		}
		if (g->off) {
			for (uint64_t e = g->off[u] + rounds; e < g->off[u + 1]; e++)
				link_nodes(label, u, g->dst[e]);
			links += g->off[u + 1] - g->off[u] > rounds
			             ? g->off[u + 1] - g->off[u] - rounds
			             : 0;
			continue;
		}
		uint32_t w, wt, i = 0;
		for (struct ordo_arcs a = ordo_graph_arcs(g, u); ordo_arcs_next(&a, &w, &wt);)
			if (i++ >= rounds) {
				link_nodes(label, u, w);
				links++;
			}
	}
	*skipped += in_big;
	*visited += nodes;
	return links;
}

void ordo_cc_touch(_Atomic uint32_t *label, uint32_t n, const struct ordo_topology *topo)
{
	omp_set_dynamic(0);
#pragma omp parallel for num_threads(topo->nthreads) schedule(static)
	for (uint32_t v = 0; v < n; v++)
		atomic_store_explicit(&label[v], v, memory_order_relaxed);
}

int ordo_cc_afforest(const struct ordo_graph *g, const struct ordo_topology *topo, unsigned rounds,
                     _Atomic uint32_t *label, struct ordo_cc_stats *st, struct ordo_err *err)
{
	const uint32_t n = g->n;
	const int T = topo->nthreads;
	const double t0 = ordo_now();
	uint64_t arcs = 0, skipped = 0;
	uint64_t *work = calloc((size_t)T, sizeof *work);
	if (!work)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory for Afforest");
	int got = T;
	uint32_t big = UINT32_MAX;
	omp_set_dynamic(0);
#pragma omp parallel num_threads(T) reduction(+ : arcs, skipped)
	{
#pragma omp single
		got = omp_get_num_threads();
		if (got == T) {
			uint64_t mine = 0, nodes = 0; /* this thread's links and nodes */
#pragma omp for schedule(static)
			for (uint32_t v = 0; v < n; v++)
				atomic_store_explicit(&label[v], v, memory_order_relaxed);
			for (unsigned r = 0; r < rounds; r++)
				mine += sample_round(g, label, r);
#pragma omp single
			big = rounds && n ? frequent_label(label, n) : UINT32_MAX;
			mine += final_pass(g, label, rounds, big, &nodes, &skipped);
			arcs += mine;
			work[omp_get_thread_num()] = nodes + mine;
#pragma omp barrier
			compress(label, n);
		}
	}
	if (got != T) {
		free(work);
		return ordo_err_set(err, ORDO_EINVAL, "asked for %d threads, OpenMP gave %d", T,
		                    got);
	}
	if (st) {
		*st = (struct ordo_cc_stats){ordo_now() - t0, arcs, skipped, T};
		ordo_spread(work, (size_t)T, &st->work_min, &st->work_median, &st->work_max);
	}
	free(work);
	return 0;
}

/* ---- label propagation, one live task per node ---- */

#define NONE UINT32_MAX /* pending[v]: no task of v is pending */

struct lp {
	const struct ordo_graph *g;
	_Atomic uint32_t *label;
	_Atomic uint32_t *pending; /* the priority of v's newest pending task, or NONE */
	_Atomic uint32_t *sent;    /* the label v's arcs were last offered */
};

/* w's label was lowered to l: a task for w at priority l, unless one at l or below is
 * pending already (it will read the lowered label when it runs). */
static void lp_wake(struct ordo_tctx *ctx, const struct lp *s, uint32_t w, uint32_t l)
{
	uint32_t p = atomic_load_explicit(&s->pending[w], memory_order_relaxed);
	while (l < p)
		if (atomic_compare_exchange_weak_explicit(
		        &s->pending[w], &p, l, memory_order_relaxed, memory_order_relaxed)) {
			ordo_push(ctx, l, w);
			return;
		}
}

static bool lp_op(struct ordo_tctx *ctx, const struct ordo_task *t, void *user)
{
	const struct lp *s = user;
	const uint32_t v = (uint32_t)t->data;
	uint32_t mine = (uint32_t)t->prio;
	/* a task superseded by a newer one of a better priority leaves the work to it */
	if (!atomic_compare_exchange_strong_explicit(&s->pending[v], &mine, NONE,
	                                             memory_order_relaxed, memory_order_relaxed))
		return false;
	ORDO_PERTURB_POINT(CC_WAKE);
	const uint32_t l = atomic_load_explicit(&s->label[v], memory_order_relaxed);
	/* a task pushed by a lowering that the previous task of v already read: empty */
	if (atomic_exchange_explicit(&s->sent[v], l, memory_order_relaxed) == l)
		return false;
	uint32_t w, wt;
	for (struct ordo_arcs a = ordo_graph_arcs(s->g, v); ordo_arcs_next(&a, &w, &wt);) {
		uint32_t old = atomic_load_explicit(&s->label[w], memory_order_relaxed);
		while (l < old)
			if (atomic_compare_exchange_weak_explicit(&s->label[w], &old, l,
			                                          memory_order_relaxed,
			                                          memory_order_relaxed)) {
				ORDO_PERTURB_POINT(CC_WAKE);
				lp_wake(ctx, s, w, l);
				break;
			}
	}
	return true;
}

/* Whether v must start with a task of its own: no neighbour has a smaller id (any other
 * node is offered a smaller label along a falling chain of ids that ends at one that
 * does), and it has arcs at all. */
static bool local_minimum(const struct ordo_graph *g, uint32_t v)
{
	uint32_t w, wt;
	bool arcs = false;
	for (struct ordo_arcs a = ordo_graph_arcs(g, v); ordo_arcs_next(&a, &w, &wt); arcs = true)
		if (w < v)
			return false;
	return arcs;
}

int ordo_cc_lp(const struct ordo_graph *g, struct ordo_scheduler *wl,
               const struct ordo_exec_opts *o, _Atomic uint32_t *label, struct ordo_run_stats *st,
               struct ordo_err *err)
{
	const uint32_t n = g->n;
	const size_t words = (n ? n : 1) * sizeof(uint32_t);
	struct lp s = {g, label, malloc(words), malloc(words)};
	struct ordo_task *init = malloc((n ? n : 1) * sizeof *init);
	int rc = 0;
	uint64_t k = 0;
	if (!s.pending || !s.sent || !init)
		rc = ordo_err_set(err, ORDO_ENOMEM, "out of memory for label propagation");
	for (uint32_t v = 0; !rc && v < n; v++) {
		const bool seed = local_minimum(g, v);
		atomic_store_explicit(&label[v], v, memory_order_relaxed);
		atomic_store_explicit(&s.pending[v], seed ? v : NONE, memory_order_relaxed);
		atomic_store_explicit(&s.sent[v], NONE, memory_order_relaxed);
		if (seed)
			init[k++] = (struct ordo_task){v, v};
	}
	if (!rc)
		rc = ordo_for_each(o, wl->ops, wl->wl, init, k, lp_op, &s, st, err);
	free(init);
	free((void *)s.pending);
	free((void *)s.sent);
	return rc;
}

void ordo_cc_check(const struct ordo_graph *g, const _Atomic uint32_t *label, const uint32_t *ref,
                   struct ordo_check *c)
{
	const uint32_t n = g->n;
	uint32_t *size = calloc(n ? n : 1, sizeof *size);
	uint64_t components = 0, largest = 0;
	for (uint32_t v = 0; v < n; v++) {
		const uint32_t l = atomic_load_explicit(&label[v], memory_order_relaxed);
		if (l != ref[v])
			ordo_check_mismatch(
			    c, "node %u has label %u, expected %u", ordo_graph_orig_of(g, v),
			    l < n ? ordo_graph_orig_of(g, l) : l, ordo_graph_orig_of(g, ref[v]));
		components += ref[v] == v;
		if (size && ++size[ref[v]] > largest)
			largest = size[ref[v]];
	}
	free(size);
	ordo_check_figure(c, "components", components);
	ordo_check_figure(c, "largest", largest);
}
