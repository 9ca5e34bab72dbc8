/*
 * ordo_pagerank.h - PageRank by residual push (PageRank-delta: Galois' pagerank-push,
 * Ligra's PageRankDelta), on any scheduler, with its sequential form, a power-iteration
 * reference and the check.
 *
 * The ranks solve x = d P^T x + (1 - d) / n, P the out-arc transition matrix (a node's
 * arcs, parallel ones and self-loops counted, share its rank; a node without arcs keeps
 * its own), normalised to sum 1 at the end: with a uniform teleport that is NetworkX's
 * pagerank, whose dangling nodes spread their rank uniformly (the two normalise to the
 * same vector). A push keeps x* = p + (I - d P^T)^-1 r with p, r >= 0: a node's
 * residual r[v] moves into its rank and d r[v] / deg(v) onto each arc's head. A node is
 * pushed when its residual rises to the threshold tau, so every residual below tau is
 * left, and the normalised ranks are within 2 n tau / (1 - d)^2 of the exact ones in L1:
 * tau = ordo_pagerank_tau(n, d, tol) makes that tol.
 */
#ifndef ORDO_PAGERANK_H
#define ORDO_PAGERANK_H

#include <math.h>
#include <stdatomic.h>

#include "ordo_check.h"
#include "ordo_graph.h"
#include "ordo_runtime.h"
#include "ordo_schedulers.h"

/* The threshold that bounds the normalised ranks' L1 error by tol. */
double ordo_pagerank_tau(uint32_t n, double d, double tol);

/* Power iteration to an L1 error below tol / 100 (by the contraction bound d / (1 - d)
 * times the last step, ordo_pagerank_done for tol / 100): rank[n] normalised;
 * *iterations its steps, *at_tol (may be NULL) the step at which the rule for tol itself
 * held (ordo_pagerank_done_sums, ordo_pagerank_pull's), and *at_tol_s (may be NULL) the
 * seconds it took to get there. ENOMEM only. */
int ordo_pagerank_reference(const struct ordo_graph *g, double d, double tol, double *rank,
                            uint64_t *iterations, uint64_t *at_tol, double *at_tol_s,
                            struct ordo_err *err);

/* Whether a power iteration's step (the L1 change of its last sweep) bounds the
 * normalised ranks' L1 error by tol: the residual b + d P^T x - x is at most d times the
 * step, so the unnormalised ranks x are within E = step d / (1 - d) of the fixed point x*
 * (|(I - d P^T)^-1| <= 1 / (1 - d) in L1), and the normalised ones within 2 E / |x*|,
 * where |x*| >= 1 - d (every node dangling): 2 E <= tol (1 - d). */
static inline bool ordo_pagerank_done(double step, double d, double tol)
{
	return 2 * (step * d / (1 - d)) <= tol * (1 - d);
}

/* The same rule knowing the ranks' sum after the step, mass, the part of it on nodes
 * without out-arcs, dangling, and whether there are any (dangles). For the normalised
 * ranks, |x / |x| - x* / |x*|| <= (E + ||x*| - |x||) / |x|. ||x*| - |x|| is at most E,
 * and at most |1 - d D* / (1 - d) - |x||, since |x*| = 1 - d D* / (1 - d) for the fixed
 * point's dangling part D*, which is 0 on a graph without dangling nodes and otherwise
 * within E of dangling. With few dangling nodes the error is then about E where the rule
 * above allows 2 E / (1 - d) (road2k: 13 over-relaxed sweeps to GAPBS's error of 1.93e-4
 * instead of 15). The sums are taken a millionth off, for their own rounding. */
static inline bool ordo_pagerank_done_sums(double step, double d, double tol, double mass,
                                           double dangling, bool dangles)
{
	const double e = step * d / (1 - d);
	double gap = fabs(1 - d * dangling / (1 - d) - mass) + 1e-6 * mass;
	gap += dangles ? d * e / (1 - d) : 0;
	return e + (gap < e ? gap : e) <= tol * mass * (1 - 1e-6);
}

/* What a pull run did. */
struct ordo_pagerank_stats {
	double seconds;
	uint64_t sweeps; /* Gauss-Seidel sweeps, each over every node and in-arc */
	int threads;
	bool float_shares; /* the shares were floats (the tolerance allowed it) */
	double omega;      /* the relaxation factor of the last sweep */
	bool fell_back;    /* a sweep's change grew under omega: Gauss-Seidel (1) after it */
};

/* Pull sweeps (Gauss-Seidel: a node's new rank is used at once, by every thread; no
 * scheduler) on topo's threads until ordo_pagerank_done_sums: gt is g's transpose (its
 * in-arcs), deg[u] g's out-degrees; rank[n] normalised. omega, 0 < omega < 2,
 * over-relaxes each update (x += omega (sum - x); 1: plain Gauss-Seidel;
 * ORDO_PAGERANK_OMEGA is the app's default), and the rule counts it; should a sweep's
 * change grow, the sweeps go on at 1 (st->fell_back). The shares a sweep reads
 * (d x[u] / deg(u)) are floats when their rounding is under a sixteenth of the step the
 * rule stops at (tolerance 1e-4 and coarser at d = 0.85), else doubles; the rule counts
 * their rounding (pagerank.c). Gauss-Seidel takes about 0.6 of the Jacobi power
 * iteration's sweeps on rmat20, and omega 1.3 about 0.6 of Gauss-Seidel's. ENOMEM,
 * EINVAL (omega out of range, or OpenMP gave fewer threads than asked). */
#define ORDO_PAGERANK_OMEGA 1.3
/* Whether ordo_pagerank_pull's shares are floats for damping d and tolerance tol. */
bool ordo_pagerank_float_shares(double d, double tol);
int ordo_pagerank_pull(const struct ordo_graph *gt, const uint32_t *deg,
                       const struct ordo_topology *topo, double d, double tol, double omega,
                       _Atomic double *rank, struct ordo_pagerank_stats *st, struct ordo_err *err);

/* Sequential residual push, a FIFO of pending nodes (each queued once at a time):
 * rank[n] normalised; *tasks the nodes popped, the work ratio's denominator. ENOMEM. */
int ordo_pagerank_seq(const struct ordo_graph *g, double d, double tau, double *rank,
                      uint64_t *tasks, struct ordo_err *err);

/* The finest grain of residual priorities: a node is pushed again when
 * its residual grows fourfold (52 = the double's mantissa bits, ordo_real.h, plus 2;
 * on rmat16 at 2 threads smq did 3.2 times the sequential tasks with 54, 6.7 with 52
 * and 16 with 56, bench/LOG.md). */
#define ORDO_PAGERANK_GRAIN 54
/* The grain the push uses on wl: wl's own (ordo_scheduler_grain) when it is coarser than
 * ORDO_PAGERANK_GRAIN, else that (a finer one re-pushes a node on almost every add: OBIM
 * at its default delta of 10 took 35 times the sequential tasks on rmat8 at one thread,
 * and far longer at two, its buckets one per task). */
unsigned ordo_pagerank_grain(const struct ordo_scheduler *wl);
/* The bucket width the pagerank binary gives a scheduler that has one and is not told
 * (obim, pmod, smq:pq=bucket): 16 powers of two of a residual a bucket. A width far
 * below 48 gives every residual a bucket of its own, and OBIM, whose buckets live on
 * and are rescanned from the lowest one pushed to, slows down with their number: on
 * ca-AstroPh at one thread obim:delta=10 ran over a minute, delta=56 0.1 s. */
#define ORDO_PAGERANK_WL_PARAMS "delta=56"

/* The same on wl: priority = the residual, larger first (ordo_prio_of_double_desc), at
 * most one task queued per node and grain (ordo_live.h), each run with the node's live
 * residual; rank[n] normalised (and initialised here). ordo_for_each's errors. */
int ordo_pagerank(const struct ordo_graph *g, struct ordo_scheduler *wl,
                  const struct ordo_exec_opts *o, double d, double tau, _Atomic double *rank,
                  struct ordo_run_stats *st, struct ordo_err *err);

/* rank against ref within tol in L1: figure "l1_error", and a mismatch beyond tol. */
void ordo_pagerank_check(uint32_t n, const _Atomic double *rank, const double *ref, double tol,
                         struct ordo_check *c);

#endif
