/*
 * kcore.c - k-core decomposition (see ordo_kcore.h).
 *
 * Why not plain peeling. Julienne peels the lowest bucket of current degrees, and a
 * peeled node's core number is the bucket it left from; that is exact only when buckets
 * are taken strictly in order. A relaxed scheduler may pop a node before a lower one
 * whose removal would lower it (path a - b - c: peel b at degree 2 first and it keeps
 * core 2, though every node's core is 1). So the operator keeps Julienne's priorities -
 * a node is scheduled at its current degree bound - but makes every step safe in any
 * order: it works on upper bounds that only fall.
 *
 * The operator. est[v] starts at deg(v). Recomputing v sets est[v] to the h-index of
 * its neighbours' estimates, capped by est[v]: the largest j <= est[v] such that at
 * least j neighbours have est >= j. The core number is a fixpoint of that map and every
 * estimate stays >= it (the map is monotone and the cores are below the degrees), and
 * iterating it from the degrees in any order converges to the core numbers (Lu et al.,
 * Nature Communications 2016; Montresor et al., IEEE TPDS 2013).
 *
 * Which nodes to recompute: support[w] counts w's neighbours whose estimate is >= est[w]
 * (set by w's own recomputation). When est[v] falls from `old` to h, exactly the
 * neighbours w with h < est[w] <= old lose v's support: an atomic decrement each, and
 * only a w whose support falls below est[w] - whose h-index must fall - is scheduled,
 * at priority est[w]. These are Julienne's decrements, on bounds instead of degrees.
 *
 * One recomputation per node at a time: state[v] has a "pending" bit and a "running"
 * bit. A notification sets pending and pushes a task only when the node was idle and
 * clean (one task per node at most); a task whose node is not pending, or is running
 * elsewhere, is empty work; a runner that finds pending set again when it finishes
 * pushes its node again. A runner clears pending before it reads, so a neighbour's change is
 * either seen or makes it run again. Decrements that arrive while it runs count against
 * the support it started from, and are subtracted from the count it ends with; a run
 * that ends with less support than its estimate (a neighbour fell after being read)
 * is pushed again at its new priority. So a few decrements are counted twice (an extra run, never a
 * missed one), and nothing is lost. One race is left: two neighbours lowered at the same time, each
 * reading the other's old estimate and judging itself unaffected by an estimate the
 * other has not stored yet; so a run
 * that lowers its estimate recomputes once more after the store (a Dekker pair of
 * seq_cst store-then-load: one of the two sees the other). At termination no node is
 * pending or running, so every estimate is its neighbours' h-index: the cores.
 *
 * Under an exact scheduler lower estimates settle first, as in peeling; the work ratio
 * counts tasks against n (Batagelj-Zaversnik peels every node once).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "ordo_kcore.h"
#include "perturb.h"

enum { PENDING = 1, RUNNING = 2 };

struct kc_ctx {
	const struct ordo_graph *g;
	_Atomic uint32_t *est;
	_Atomic int64_t *support;
	_Atomic uint8_t *state; /* PENDING | RUNNING */
	uint32_t **cnt;         /* per thread: cnt[0 .. maxdeg], zero between tasks */
	bool concurrent;        /* more than one thread: re-check after lowering */
};

/* The largest j <= cap such that at least j neighbours of v have est >= j; *support
 * receives how many have est >= that j. */
static uint32_t hindex(const struct kc_ctx *s, uint32_t *cnt, uint32_t v, uint32_t cap,
                       int64_t *support)
{
	const struct ordo_graph *g = s->g;
	uint32_t u, wt;
	for (struct ordo_arcs a = ordo_graph_arcs(g, v); ordo_arcs_next(&a, &u, &wt);) {
		uint32_t x = atomic_load_explicit(&s->est[u], memory_order_seq_cst);
		cnt[x < cap ? x : cap]++;
	}
	uint32_t h = 0, above = 0;
	bool found = false;
	for (uint32_t j = cap + 1; j-- > 0;) {
		above += cnt[j];
		if (!found && above >= j) {
			h = j;
			*support = above;
			found = true;
		}
		cnt[j] = 0; /* leave the scratch clean for the next task */
	}
	return h;
}

/* Schedules w unless it is pending or running already. */
static void notify(struct ordo_tctx *ctx, const struct kc_ctx *s, uint32_t w, uint32_t prio)
{
	if (atomic_fetch_or_explicit(&s->state[w], PENDING, memory_order_acq_rel) == 0)
		ordo_push(ctx, prio, w);
}

/* One recomputation of v (v is RUNNING, PENDING cleared). True when it must run again:
 * the support left at the end is below the estimate (a neighbour fell while it read). */
static bool recompute(struct ordo_tctx *ctx, const struct kc_ctx *s, uint32_t v)
{
	const struct ordo_graph *g = s->g;
	/* decrements from now on are subtracted from the count it ends with; those before
	 * are in the estimates it reads */
	const int64_t s0 = atomic_load_explicit(&s->support[v], memory_order_seq_cst);
	uint32_t cur = atomic_load_explicit(&s->est[v], memory_order_relaxed);
	int64_t sup = 0;
	for (;;) {
		const uint32_t h = hindex(s, s->cnt[ctx->tid], v, cur, &sup);
		if (h >= cur)
			break;
		/* seq_cst: the store, then the loads of the neighbours' estimates (below
		 * and in the re-check), are one side of the Dekker pair */
		ORDO_PERTURB_POINT(KCORE_LOWER); /* between the reads and the store */
		atomic_store_explicit(&s->est[v], h, memory_order_seq_cst);
		ORDO_PERTURB_POINT(KCORE_LOWER);
		uint32_t w, wt;
		for (struct ordo_arcs a = ordo_graph_arcs(g, v); ordo_arcs_next(&a, &w, &wt);) {
			const uint32_t x = atomic_load_explicit(&s->est[w], memory_order_seq_cst);
			if (h < x && x <= cur &&
			    atomic_fetch_sub_explicit(&s->support[w], 1, memory_order_acq_rel) - 1 <
			        (int64_t)x)
				notify(ctx, s, w, x);
		}
		cur = h;
		ORDO_PERTURB_POINT(KCORE_LOWER);
		/* re-check against estimates that fell meanwhile; alone, nothing did, and
		 * the same estimates give the same h-index */
		if (!s->concurrent)
			break;
	}
	ORDO_PERTURB_POINT(KCORE_SUPPORT);
	const int64_t left =
	    atomic_fetch_add_explicit(&s->support[v], sup - s0, memory_order_acq_rel) + sup - s0;
	return left < (int64_t)cur;
}

static bool kcore_op(struct ordo_tctx *ctx, const struct ordo_task *t, void *user)
{
	const struct kc_ctx *s = user;
	const uint32_t v = (uint32_t)t->data;
	/* take it: pending and not running -> running (pending cleared) */
	uint8_t st = PENDING;
	if (!atomic_compare_exchange_strong_explicit(&s->state[v], &st, RUNNING,
	                                             memory_order_acq_rel, memory_order_relaxed))
		return false; /* nothing pending, or its runner will see the pending bit */
	const bool again = recompute(ctx, s, v);
	st = RUNNING;
	if (again || !atomic_compare_exchange_strong_explicit(
	                 &s->state[v], &st, 0, memory_order_acq_rel, memory_order_relaxed)) {
		/* it must run again: not at once, but at its (new) priority, so that the
		 * neighbours below it settle first - a hub re-run in a loop while they fall
		 * would read its whole adjacency each time */
		atomic_store_explicit(&s->state[v], PENDING, memory_order_release);
		ordo_push(ctx, atomic_load_explicit(&s->est[v], memory_order_relaxed), v);
	}
	return true;
}

/* Pipeline stages: the node's state, estimate and arc range; its arcs; its neighbours'
 * estimates. */
static void kcore_prefetch(const struct ordo_task *t, unsigned ahead, void *user)
{
	const struct kc_ctx *s = user;
	const struct ordo_graph *g = s->g;
	const uint32_t u = (uint32_t)t->data;
	if (ahead >= 2) { /* the node's own state, then its arc range, then its arcs */
		if (ahead >= 3)
			ordo_prefetch(&s->state[u]);
		else if (!atomic_load_explicit(&s->state[u], memory_order_relaxed))
			return; /* stale: its arcs will not be read */
		ordo_graph_prefetch_stage(g, u, ahead);
		return;
	}
	if (!atomic_load_explicit(&s->state[u], memory_order_relaxed))
		return;
	/* the neighbours' estimates: see ordo_graph_prefetch_targets */
	uint32_t vbuf[ORDO_ARCS_BATCH];
	const uint32_t *vb;
	for (unsigned i = 0, k = ordo_graph_prefetch_targets(g, u, vbuf, &vb); i < k; i++)
		__builtin_prefetch(&s->est[vb[i]]);
}

int ordo_kcore_max_degree(const struct ordo_graph *g, uint64_t *out, struct ordo_err *err)
{
	uint64_t maxdeg = 0;
	for (uint32_t v = 0; v < g->n; v++) {
		uint64_t d = ordo_graph_degree(g, v);
		maxdeg = d > maxdeg ? d : maxdeg;
	}
	*out = maxdeg;
	if (maxdeg >= UINT32_MAX)
		return ordo_err_set(err, ORDO_ERANGE,
		                    "a node of degree %llu: core numbers are 32-bit",
		                    (unsigned long long)maxdeg);
	return 0;
}

int ordo_kcore(const struct ordo_graph *g, struct ordo_scheduler *wl,
               const struct ordo_exec_opts *o, _Atomic uint32_t *core, struct ordo_run_stats *st,
               struct ordo_err *err)
{
	const int T = o->topo->nthreads;
	uint64_t maxdeg;
	if (ordo_kcore_max_degree(g, &maxdeg, err))
		return err->code;
	struct kc_ctx s = {g,
	                   core,
	                   calloc(g->n ? g->n : 1, sizeof *s.support),
	                   calloc(g->n ? g->n : 1, sizeof *s.state),
	                   calloc((size_t)T, sizeof *s.cnt),
	                   T > 1};
	struct ordo_task *init = malloc((g->n ? g->n : 1) * sizeof *init);
	int rc = 0;
	if (!s.support || !s.state || !s.cnt || !init)
		rc = ordo_err_set(err, ORDO_ENOMEM, "out of memory for k-core state");
	for (int t = 0; !rc && t < T; t++)
		if (!(s.cnt[t] = calloc(maxdeg + 2, sizeof **s.cnt)))
			rc = ordo_err_set(err, ORDO_ENOMEM, "out of memory for k-core counts");
	if (!rc) {
#pragma omp parallel for num_threads(T) schedule(static)
		for (uint64_t v = 0; v < g->n; v++) {
			uint32_t d = (uint32_t)ordo_graph_degree(g, (uint32_t)v);
			atomic_store_explicit(&core[v], d, memory_order_relaxed);
			atomic_store_explicit(&s.state[v], PENDING, memory_order_relaxed);
			/* no count yet: its first run sets it (and decides by itself) */
			atomic_store_explicit(&s.support[v], INT64_MAX / 4, memory_order_relaxed);
			init[v] = (struct ordo_task){d, v};
		}
		struct ordo_exec_opts eo = *o;
		eo.prefetch = kcore_prefetch;
		if (!eo.lookahead)
			eo.lookahead = 4;
		rc = ordo_for_each(&eo, wl->ops, wl->wl, init, g->n, kcore_op, &s, st, err);
	}
	for (int t = 0; s.cnt && t < T; t++)
		free(s.cnt[t]);
	free(s.cnt);
	free(s.support);
	free(s.state);
	free(init);
	return rc;
}

int ordo_kcore_seq(const struct ordo_graph *g, uint32_t *core, struct ordo_err *err)
{
	const uint32_t n = g->n;
	uint64_t maxdeg;
	if (ordo_kcore_max_degree(g, &maxdeg, err))
		return err->code;
	/* nodes sorted by current degree (vert), each node's position (pos), and where
	 * each degree's run starts (bin); peeling takes them in order and moves a
	 * neighbour whose degree drops to the front of its run, one run lower */
	uint32_t *bin = calloc(maxdeg + 2, sizeof *bin);
	uint32_t *vert = malloc((n ? n : 1) * sizeof *vert);
	uint32_t *pos = malloc((n ? n : 1) * sizeof *pos);
	if (!bin || !vert || !pos) {
		free(bin);
		free(vert);
		free(pos);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory for the bucket peeling");
	}
	for (uint32_t v = 0; v < n; v++) {
		core[v] = (uint32_t)ordo_graph_degree(g, v);
		bin[core[v]]++;
	}
	uint32_t start = 0;
	for (uint64_t d = 0; d <= maxdeg; d++) {
		uint32_t c = bin[d];
		bin[d] = start;
		start += c;
	}
	for (uint32_t v = 0; v < n; v++) {
		pos[v] = bin[core[v]]++;
		vert[pos[v]] = v;
	}
	for (uint64_t d = maxdeg; d > 0; d--)
		bin[d] = bin[d - 1];
	bin[0] = 0;
	for (uint32_t i = 0; i < n; i++) {
		const uint32_t v = vert[i];
		uint32_t u, wt;
		for (struct ordo_arcs a = ordo_graph_arcs(g, v); ordo_arcs_next(&a, &u, &wt);) {
			if (core[u] > core[v]) {
				const uint32_t du = core[u], pu = pos[u], pw = bin[du],
				               w = vert[pw];
				if (u != w) {
					pos[u] = pw;
					vert[pu] = w;
					pos[w] = pu;
					vert[pw] = u;
				}
				bin[du]++;
				core[u]--;
			}
		}
	}
	free(bin);
	free(vert);
	free(pos);
	return 0;
}

void ordo_kcore_check(const struct ordo_graph *g, const _Atomic uint32_t *core, const uint32_t *ref,
                      struct ordo_check *c)
{
	ordo_check_init(c);
	uint64_t top = 0, at_top = 0;
	for (uint32_t v = 0; v < g->n; v++) {
		uint32_t k = atomic_load_explicit(&core[v], memory_order_relaxed);
		if (k != ref[v])
			ordo_check_mismatch(c, "node %u has core number %u, expected %u",
			                    ordo_graph_orig_of(g, v), k, ref[v]);
		if (ref[v] > top) {
			top = ref[v];
			at_top = 0;
		}
		at_top += ref[v] == top;
	}
	ordo_check_figure(c, "degeneracy", top);
	ordo_check_figure(c, "max_core_size", at_top);
}
