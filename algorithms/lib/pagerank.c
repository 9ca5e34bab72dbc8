/*
 * pagerank.c - PageRank by residual push (see ordo_pagerank.h).
 *
 * The parallel operator: a task of node v claims v (ordo_live.h), swaps v's residual for
 * 0, adds it to v's rank and d r / deg(v) to each arc's head's residual; a head whose
 * residual is tau or more is offered at priority = its residual (larger first) when the
 * add took it across tau or into another grain of the scheduler's (one per factor of four
 * at least, ORDO_PAGERANK_GRAIN). So a node has one task per grain it
 * climbs, the best queued one drains everything the node holds when it runs, and the
 * others are empty. Ranks are relaxed adds (the run's end orders them before they are
 * read); the residual's adds and swap are acquire-release, which the live set's
 * ordering of claims and offers needs (pr_moved).
 */
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "ordo_live.h"
#include "ordo_pagerank.h"
#include "ordo_real.h"

double ordo_pagerank_tau(uint32_t n, double d, double tol)
{
	return tol * (1 - d) * (1 - d) / (2.0 * (n ? n : 1));
}

static void normalise(double *x, uint32_t n)
{
	double s = 0;
	for (uint32_t v = 0; v < n; v++)
		s += x[v];
	for (uint32_t v = 0; s > 0 && v < n; v++)
		x[v] /= s;
}

int ordo_pagerank_reference(const struct ordo_graph *g, double d, double tol, double *rank,
                            uint64_t *iterations, uint64_t *at_tol, double *at_tol_s,
                            struct ordo_err *err)
{
	const uint32_t n = g->n;
	double *next = malloc((n ? n : 1) * sizeof *next);
	if (!next)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory for the PageRank reference");
	const double base = (1 - d) / (n ? n : 1);
	bool dangles = false;
	for (uint32_t v = 0; v < n; v++) {
		rank[v] = base;
		dangles = dangles || !ordo_graph_degree(g, v);
	}
	uint64_t it = 0;
	const double t0 = ordo_now();
	if (at_tol)
		*at_tol = 0;
	for (;;) {
		for (uint32_t v = 0; v < n; v++)
			next[v] = base;
		for (uint32_t u = 0; u < n; u++) {
			const uint64_t deg = ordo_graph_degree(g, u);
			if (!deg)
				continue;
			const double share = d * rank[u] / (double)deg;
			uint32_t w, wt;
			for (struct ordo_arcs a = ordo_graph_arcs(g, u);
			     ordo_arcs_next(&a, &w, &wt);)
				next[w] += share;
		}
		double step = 0, mass = 0, dangling = 0;
		for (uint32_t v = 0; v < n; v++) {
			step += fabs(next[v] - rank[v]);
			mass += next[v];
			if (dangles && !ordo_graph_degree(g, v))
				dangling += next[v];
			rank[v] = next[v];
		}
		it++;
		if (at_tol && !*at_tol &&
		    ordo_pagerank_done_sums(step, d, tol, mass, dangling, dangles)) {
			*at_tol = it;
			if (at_tol_s)
				*at_tol_s = ordo_now() - t0;
		}
		if (ordo_pagerank_done(step, d, tol / 100) || it >= 100000)
			break;
	}
	free(next);
	normalise(rank, n);
	*iterations = it;
	return 0;
}

/* The pull's sweeps, for shares of type SHARE (float or double): the ranks x[n] out, from
 * the first sweep to the one that meets the stopping rule for tol with `slack` added to
 * its step (the shares' rounding, below). Returns the sweeps; T threads (the caller
 * checked OpenMP gives them); *om the relaxation factor, in and out (1 when it fell back);
 * *sum the ranks' sum after the last sweep. x is relaxed atomics only because it is the
 * caller's rank array (each x[v] is read and written by the one thread that updates v).
 *
 * A sum over v's in-neighbours is a bare loop over its heads on a plain graph (no
 * weights read, no representation test per arc). Where every node's in-degree is its
 * out-degree (`sym`: a symmetric graph, found before the sweeps), d / deg(v) comes from
 * the offsets the sum reads anyway instead of an array of its own, which is not made. The shares
 * are relaxed atomics: other threads' sweeps write them meanwhile (plain loads and stores on x86).
 *
 * Gauss-Seidel with over-relaxation (SOR): node v's sum s over the shares as they are
 * (updated earlier in this sweep, by this thread or another, or not yet) moves its rank to
 * x + om (s - x), at once, and its share with it; om = 1 is plain Gauss-Seidel, and omega
 * 1.3 took 12-13 sweeps where it took 15-22 on road2k, rmat20 and soc-Slashdot0902, to
 * smaller errors (bench/LOG.md, "PageRank by over-relaxed sweeps"). Why the power
 * iteration's stopping rule still holds: every share a sum reads is its node's before or
 * after this sweep, so after the sweep the residual b + d P^T x - x at v is s - x_after[v]
 * plus d times a sum of P[v][u] (x_after[u] - x_read[u]). The first term is (1 - om) / om
 * times v's change in the sweep; the second's L1 norm is at most d times the sweep's L1
 * change (P's columns sum to 1 at most). So the residual is at most (d + |1 - om| / om)
 * times the change, and the rule (ordo_pagerank_done_sums, which takes the residual as d
 * times the change) is taken with the change scaled by (d + |1 - om| / om) / d, and given
 * the ranks' sum and their dangling part. A share rounded to SHARE is off by at most its
 * unit roundoff u times itself (a double's roundings of d / deg(v), dw[v], the product and
 * the relaxed update, 2^-50 more), and the shares of u's arcs sum to d x[u], so rounding
 * adds at most d u times the ranks' sum to the residual: the rule is taken with the step +
 * u times the sum (1 at least; an over-relaxed sweep can pass 1). The rule looks only at
 * the last sweep, so any start is sound: the ranks start at 1 / n (GAPBS's start; on rmat20
 * 22 Gauss-Seidel sweeps to GAPBS's step of 1e-4, 25 from the teleport term (1 - d) / n).
 * Over-relaxation converges on the graphs measured but is not proven to on every graph, nor
 * with threads racing: a sweep (after the second) whose change is larger than the one
 * before sets om to 1 for the rest, and Gauss-Seidel converges. */
/* (clang-format would break the _Pragma strings) */
// clang-format off
#define PULL_SWEEPS(SHARE)                                                                  \
	static uint64_t pull_sweeps_##SHARE(const struct ordo_graph *gt, const uint32_t *deg,   \
	                                    int T, double d, double tol, double slack,          \
	                                    bool sym, bool dangles, _Atomic double *x,          \
	                                    double *dw,                                         \
	                                    _Atomic SHARE *share, double *om_io, double *sum_)   \
	{                                                                                       \
		const uint32_t n = gt->n;                                                           \
		const double base = (1 - d) / (n ? n : 1), x0 = 1.0 / (n ? n : 1);                  \
		uint64_t sweeps = 0;                                                                \
		/* a sweep's L1 change, its ranks' sum and their part on dangling nodes: reduced */ \
		double step = 0, mass = 0, dang = 0;                                                \
		double last = HUGE_VAL, om = *om_io; /* the sweep before's change; the factor */     \
		/* chunks of n / 32T nodes, 4,096 to 65,536: few boundaries where one thread        \
		 * reads the shares another is writing (road2k at 2 threads: 4,096-node chunks      \
		 * 318 ms, 16,384 273, 65,536 254, and sometimes a 13th sweep at 4,096) */          \
		const uint32_t per = n / (32u * (uint32_t)T);                                       \
		const uint32_t grain = per < 4096 ? 4096 : per > 65536 ? 65536 : per;               \
		bool done = false;                                                                  \
		_Pragma("omp parallel num_threads(T)")                                              \
		{                                                                                   \
			_Pragma("omp for schedule(static)")                                             \
			for (uint32_t v = 0; v < n; v++) {                                              \
				const double w = deg[v] ? d / deg[v] : 0;                                   \
				if (!sym)                                                                   \
					dw[v] = w;                                                              \
				atomic_store_explicit(&x[v], x0, memory_order_relaxed);                     \
				atomic_store_explicit(&share[v], (SHARE)(x0 * w), memory_order_relaxed);    \
			}                                                                               \
			while (!done) {                                                                 \
				_Pragma("omp for schedule(dynamic, grain) reduction(+ : step, mass, dang)") \
				for (uint32_t v = 0; v < n; v++) {                                          \
					double s = base, w;                                                     \
					if (__builtin_expect(!gt->cz, 1)) {                                     \
						const uint64_t b = gt->off[v], f = gt->off[v + 1];                  \
						for (uint64_t k = b; k < f; k++)                                    \
							s += atomic_load_explicit(&share[gt->dst[k]],                   \
							                          memory_order_relaxed);                \
						w = sym ? (f > b ? d / (double)(f - b) : 0) : dw[v];                \
					} else {                                                                \
						uint32_t u, wt;                                                     \
						for (struct ordo_arcs a = ordo_graph_arcs(gt, v);                   \
						     ordo_arcs_next(&a, &u, &wt);)                                  \
							s += atomic_load_explicit(&share[u], memory_order_relaxed);     \
						w = dw[v];                                                          \
					}                                                                       \
					const double xo = atomic_load_explicit(&x[v], memory_order_relaxed);    \
					const double nx = om == 1 ? s : xo + om * (s - xo);                     \
					step += fabs(nx - xo);                                                  \
					mass += nx;                                                             \
					dang += w == 0 ? nx : 0; /* w = d / out-degree, or 0 */                 \
					atomic_store_explicit(&x[v], nx, memory_order_relaxed);                 \
					atomic_store_explicit(&share[v], (SHARE)(nx * w),                       \
					                      memory_order_relaxed);                            \
				}                                                                           \
				/* one thread decides, after the loop's barrier; every thread reads         \
				 * `done` at the top, before anyone can write it again */                   \
				_Pragma("omp single")                                                       \
				{                                                                           \
					sweeps++;                                                               \
					const double scale = (d + fabs(1 - om) / om) / d;                       \
					done = ordo_pagerank_done_sums(                                         \
					           step * scale + slack * (mass > 1 ? mass : 1), d, tol, mass,  \
					           dang, dangles) ||                                            \
					       sweeps >= 100000;                                                \
					if (om != 1 && sweeps > 2 && step > last)                               \
						om = 1; /* not converging: Gauss-Seidel does */                     \
					last = step;                                                            \
					*sum_ = mass;                                                           \
					step = mass = dang = 0;                                                 \
				}                                                                           \
			}                                                                               \
		}                                                                                   \
		*om_io = om;                                                                         \
		return sweeps;                                                                      \
	}
// clang-format on
PULL_SWEEPS(float)
PULL_SWEEPS(double)

bool ordo_pagerank_float_shares(double d, double tol)
{
	/* when their rounding is under a sixteenth of the step the rule stops at */
	return ordo_pagerank_done(16 * 0x1p-24, d, tol);
}

int ordo_pagerank_pull(const struct ordo_graph *gt, const uint32_t *deg,
                       const struct ordo_topology *topo, double d, double tol, double omega,
                       _Atomic double *rank, struct ordo_pagerank_stats *st, struct ordo_err *err)
{
	const uint32_t n = gt->n;
	const int T = topo->nthreads;
	if (!(omega > 0 && omega < 2))
		return ordo_err_set(err, ORDO_EINVAL,
		                    "relaxation factor %g: expected 0 < omega < 2", omega);
	/* float shares: half the bytes of the array every sweep reads at random */
	const bool narrow = ordo_pagerank_float_shares(d, tol);
	bool sym = !gt->cz;   /* every in-degree the out-degree: no array of d / deg(v) */
	bool dangles = false; /* a node without out-arcs */
	for (uint32_t v = 0; v < n; v++) {
		sym = sym && deg[v] == gt->off[v + 1] - gt->off[v];
		dangles = dangles || !deg[v];
	}
	double *dw = sym ? NULL : malloc(n * sizeof *dw);
	void *share = malloc((n ? n : 1) * (narrow ? sizeof(float) : sizeof(double)));
	if ((!sym && n && !dw) || !share) {
		free(dw), free(share);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory for PageRank sweeps");
	}
	const double t0 = ordo_now();
	int got = T;
	omp_set_dynamic(0);
#pragma omp parallel num_threads(T)
#pragma omp single
	got = omp_get_num_threads();
	uint64_t sweeps = 0;
	double om = omega, sum = 0;
	if (got == T)
		sweeps = narrow ? pull_sweeps_float(gt, deg, T, d, tol, 0x1p-24 + 0x1p-50, sym,
		                                    dangles, rank, dw, share, &om, &sum)
		                : pull_sweeps_double(gt, deg, T, d, tol, 0x1p-50, sym, dangles,
		                                     rank, dw, share, &om, &sum);
	free(share), free(dw);
	if (got != T)
		return ordo_err_set(err, ORDO_EINVAL, "asked for %d threads, OpenMP gave %d", T,
		                    got);
	if (sum > 0) {
		/* normalised in place on the same threads, by the last sweep's sum (the ranks in
		 * rank itself: no array of their own to fault in every run, road2k 393 ms against
		 * 434 at 1 thread, 183 against 203 at 2) */
#pragma omp parallel for num_threads(T) schedule(static)
		for (uint32_t v = 0; v < n; v++)
			atomic_store_explicit(
			    &rank[v], atomic_load_explicit(&rank[v], memory_order_relaxed) / sum,
			    memory_order_relaxed);
	}
	if (st)
		*st = (struct ordo_pagerank_stats){ordo_now() - t0, sweeps, T,
		                                   narrow,          om,     om != omega};
	return 0;
}

int ordo_pagerank_seq(const struct ordo_graph *g, double d, double tau, double *rank,
                      uint64_t *tasks, struct ordo_err *err)
{
	const uint32_t n = g->n;
	double *res = malloc((n ? n : 1) * sizeof *res);
	uint32_t *queue = malloc(((size_t)n + 1) * sizeof *queue); /* a ring of n + 1 */
	bool *queued = calloc(n ? n : 1, 1);
	if (!res || !queue || !queued) {
		free(res), free(queue), free(queued);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory for sequential PageRank");
	}
	size_t head = 0, tail = 0;
	for (uint32_t v = 0; v < n; v++) {
		rank[v] = 0;
		res[v] = (1 - d) / n;
		queue[tail++] = v;
		queued[v] = true;
	}
	uint64_t k = 0;
	while (head != tail) {
		const uint32_t v = queue[head];
		head = head == n ? 0 : head + 1;
		queued[v] = false;
		const double r = res[v];
		res[v] = 0;
		rank[v] += r;
		k++;
		const uint64_t deg = ordo_graph_degree(g, v);
		if (!deg)
			continue;
		const double share = d * r / (double)deg;
		uint32_t w, wt;
		for (struct ordo_arcs a = ordo_graph_arcs(g, v); ordo_arcs_next(&a, &w, &wt);) {
			res[w] += share;
			if (res[w] >= tau && !queued[w]) {
				queued[w] = true;
				queue[tail] = w;
				tail = tail == n ? 0 : tail + 1;
			}
		}
	}
	normalise(rank, n);
	*tasks = k;
	free(res), free(queue), free(queued);
	return 0;
}

struct pr {
	const struct ordo_graph *g;
	_Atomic double *rank, *res;
	struct ordo_live live;
	double d, tau;
};

/* A head whose residual rose from old to now (now >= tau) is offered unless its
 * priority stayed in the grain it had: the add that took it there (across tau, or into
 * this grain) offered it already, and the task that offer queued (or the claimed one
 * whose drain is still to come, which takes this add too) runs with the live residual. */
static inline bool pr_moved(const struct ordo_live *l, double old, double now, double tau)
{
	return old < tau ||
	       ((ordo_prio_of_double_desc(old) ^ ordo_prio_of_double_desc(now)) & l->mask) != 0;
}

static bool pr_op(struct ordo_tctx *ctx, const struct ordo_task *t, void *user)
{
	struct pr *s = user;
	const uint32_t v = (uint32_t)t->data;
	if (!ordo_live_claim(&s->live, t))
		return false; /* superseded: v is queued at a better grain, or claimed */
	/* acquire: adds that came before the claim; release: a later add that reads 0
	 * here offers v again, after the claim (ordo_live.h) */
	const double r = atomic_exchange_explicit(&s->res[v], 0.0, memory_order_acq_rel);
	if (r <= 0)
		return false;
	ordo_atomic_add_double(&s->rank[v], r, memory_order_relaxed);
	const uint64_t deg = ordo_graph_degree(s->g, v);
	if (!deg)
		return true;
	const double share = s->d * r / (double)deg;
	uint32_t w, wt;
	for (struct ordo_arcs a = ordo_graph_arcs(s->g, v); ordo_arcs_next(&a, &w, &wt);) {
		const double old = ordo_atomic_add_double(&s->res[w], share, memory_order_acq_rel);
		const double now = old + share;
		if (now >= s->tau && pr_moved(&s->live, old, now, s->tau))
			ordo_live_offer(ctx, &s->live, w, ordo_prio_of_double_desc(now));
	}
	return true;
}

unsigned ordo_pagerank_grain(const struct ordo_scheduler *wl)
{
	const unsigned g = ordo_scheduler_grain(wl);
	return g > ORDO_PAGERANK_GRAIN ? g : ORDO_PAGERANK_GRAIN;
}

int ordo_pagerank(const struct ordo_graph *g, struct ordo_scheduler *wl,
                  const struct ordo_exec_opts *o, double d, double tau, _Atomic double *rank,
                  struct ordo_run_stats *st, struct ordo_err *err)
{
	const uint32_t n = g->n;
	struct pr s = {g, rank, malloc((n ? n : 1) * sizeof *s.res), {0}, d, tau};
	struct ordo_task *init = malloc((n ? n : 1) * sizeof *init);
	int rc = 0;
	if (!s.res || !init)
		rc = ordo_err_set(err, ORDO_ENOMEM, "out of memory for PageRank");
	if (!rc)
		rc = ordo_live_init(&s.live, n, ordo_pagerank_grain(wl), err);
	const double r0 = (1 - d) / (n ? n : 1);
	for (uint32_t v = 0; !rc && v < n; v++) {
		atomic_store_explicit(&rank[v], 0.0, memory_order_relaxed);
		atomic_store_explicit(&s.res[v], r0, memory_order_relaxed);
		init[v] = (struct ordo_task){ordo_prio_of_double_desc(r0), v};
		if (r0 >= tau)
			ordo_live_seed(&s.live, v, init[v].prio);
	}
	if (!rc)
		rc = ordo_for_each(o, wl->ops, wl->wl, init, r0 >= tau ? n : 0, pr_op, &s, st, err);
	if (!rc) { /* normalised: the run's end ordered every add */
		double sum = 0;
		for (uint32_t v = 0; v < n; v++)
			sum += atomic_load_explicit(&rank[v], memory_order_relaxed);
		for (uint32_t v = 0; sum > 0 && v < n; v++)
			atomic_store_explicit(
			    &rank[v], atomic_load_explicit(&rank[v], memory_order_relaxed) / sum,
			    memory_order_relaxed);
	}
	ordo_live_free(&s.live);
	free(init);
	free((void *)s.res);
	return rc;
}

void ordo_pagerank_check(uint32_t n, const _Atomic double *rank, const double *ref, double tol,
                         struct ordo_check *c)
{
	double *got = malloc((n ? n : 1) * sizeof *got);
	if (!got) {
		ordo_check_mismatch(c, "out of memory for the check");
		return;
	}
	for (uint32_t v = 0; v < n; v++)
		got[v] = atomic_load_explicit(&rank[v], memory_order_relaxed);
	/* the reference is within tol / 100 of the exact ranks */
	ordo_check_within(c, "l1_error", got, ref, n, ORDO_NORM_L1, tol * 1.01);
	free(got);
}
