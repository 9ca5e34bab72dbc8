/*
 * What makes the SprayList tricky, tested white-box (its file is compiled in here): a
 * spray lands within the rank bound its parameters give, the cleaner's turn unlinks
 * exactly the claimed nodes, two threads racing to mark one node never both win, and
 * epoch reclamation keeps memory bounded over a long run.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "ordo_schedulers.h"

#undef ORDO_SCHEDULER_DEFINE
#define ORDO_SCHEDULER_DEFINE(id, ...) \
	static const struct ordo_scheduler_ops test_copy_##id = {__VA_ARGS__}
#include "../worklists/spraylist.c"
#include "wl_rig.h"

/* ---- rank bound ---- */
#define R_STEPS 40000
#define RANK_Z  4.0 /* standard errors of slack: a false alarm about once in 30,000 */

/* The rank-error workload (wl_rig.h) from thread 0 of a T-thread SprayList, so that the
 * spray parameters are those of T threads. *fails counts the pops that landed inside
 * the padding. */
static double spray_rank(const char *spec, int T, uint64_t *sprays, uint64_t *fails, double *sem)
{
	struct rig r;
	rig_init_seeded(&r, spec, T, 0, 7);
	double m = rig_mean_rank_error(r.wl.ops, r.wl.wl, r.ctx[0], R_STEPS, 3, fails, sem);
	*sprays = r.ctx[0]->wl_stat[S_SPRAYS];
	rig_free(&r);
	return m;
}

Test(spraylist, sprays_land_within_the_rank_bound)
{
	/* A spray takes at each level i = H..0 a uniform 0..J steps, each past 2^i
	 * unclaimed nodes in expectation (a level-i node is followed by 2^i - 1 lower ones
	 * on average, p = 1/2), and the padding only removes steps; claiming moves to the
	 * first unclaimed node at or after the landing point, which has the same rank. So
	 * E[rank] <= sum_i (J/2) 2^i = (J/2)(2^(H+1) - 1) over all sprays; the pops that
	 * land inside the padding return nothing, so over the sprays that do return,
	 * E[rank | landed] <= (J/2)(2^(H+1) - 1) / P(landed), with P(landed) the fraction
	 * of sprays that left the padding in this run. Cleaner pops add rank 0. At T = 8
	 * (H = J = 4): about 63. A spray that ignored the order would land on a uniformly
	 * random key of 4096: mean about 2048.
	 * The bound is on the expectation; the sample mean of R_STEPS pops may exceed it by
	 * chance, so the test allows RANK_Z standard errors of the mean (measured in the
	 * same run) above it: a change in how many random numbers are drawn moves the
	 * sample, not the verdict. */
	for (int T = 2; T <= 16; T *= 2) {
		uint64_t sprays, fails;
		double sem;
		uint32_t H = wl_floor_log2((uint64_t)T) + 1, J = H;
		double m = spray_rank("spraylist", T, &sprays, &fails, &sem);
		double bound =
		    J / 2.0 * (double)((2u << H) - 1) * (double)sprays / (double)(sprays - fails);
		cr_log_info("T=%d mean rank error %.2f +- %.2f (bound %.1f), %lu sprays, %lu pops "
		            "inside the padding",
		            T, m, sem, bound, (unsigned long)sprays, (unsigned long)fails);
		cr_expect(m <= bound + RANK_Z * sem,
		          "T=%d: mean rank error %.2f above %.1f + %g x %.2f", T, m, bound, RANK_Z,
		          sem);
		/* the relaxed path did run: most pops sprayed, and not all hit the minimum */
		cr_expect_gt(sprays, (uint64_t)R_STEPS / 4, "T=%d: only %lu sprays", T,
		             (unsigned long)sprays);
		cr_expect_gt(m, 0.5, "T=%d: mean rank error %.2f: sprays never relaxed", T, m);
		cr_expect_lt(fails, (uint64_t)R_STEPS / 4, "T=%d: %lu pops inside the padding", T,
		             (unsigned long)fails);
	}
	/* the bound scales with the parameters: a long jump relaxes more */
	uint64_t sprays, fails;
	double sem_narrow, sem_wide;
	double narrow = spray_rank("spraylist", 8, &sprays, &fails, &sem_narrow);
	double wide = spray_rank("spraylist:jump=40", 8, &sprays, &fails, &sem_wide);
	cr_expect_gt(wide - RANK_Z * sem_wide, 4 * (narrow + RANK_Z * sem_narrow),
	             "jump=40: %.1f +- %.1f vs default %.1f +- %.1f", wide, sem_wide, narrow,
	             sem_narrow);
	cr_expect_leq(wide,
	              40 / 2.0 * 31 * (double)sprays / (double)(sprays - fails) + RANK_Z * sem_wide,
	              "jump=40: %.1f", wide);
}

/* ---- the cleaner path ---- */
static int count_level(struct ordo_sched_state *w, int l, int *marked_nodes)
{
	int n = 0;
	*marked_nodes = 0;
	for (struct node *x = ptr(link_of(w->head, l)); x; x = ptr(link_of(x, l))) {
		n++;
		*marked_nodes += marked(link_of(x, l));
	}
	return n;
}

Test(spraylist, the_cleaner_unlinks_exactly_the_claimed_nodes)
{
	struct rig r;
	rig_init_seeded(&r, "spraylist", 8, 0, 7);
	struct ordo_sched_state *w = r.wl.wl;
	struct ordo_tctx *c = r.ctx[0];
	enum { N = 2000 };
	for (int i = 0; i < N; i++) {
		struct ordo_task t = {(uint64_t)(i * 7919 % N), (uint64_t)i};
		spray_push(w, c, &t, 1);
	}
	/* sprays only, so that claimed nodes pile up on thread 0's list */
	int popped = 0;
	ebr_enter(&w->ebr, 0);
	while (popped < 300) {
		struct node *at = spray_walk(w, c);
		if (at != w->head && claim_from(w, c, at))
			popped++;
	}
	ebr_leave(&w->ebr, 0);
	cr_assert_eq(w->l[0].nclaimed, 300, "claimed list holds %lu", w->l[0].nclaimed);
	int m;
	cr_assert_eq(count_level(w, 0, &m), N, "claimed nodes are still linked before a clean");
	cr_assert_eq(m, 300);
	ebr_enter(&w->ebr, 0);
	clean(w, c);
	ebr_leave(&w->ebr, 0);
	cr_assert_null(w->l[0].claimed);
	for (int l = 0; l < LEVELS; l++) {
		int n = count_level(w, l, &m);
		cr_assert_eq(m, 0, "level %d: %d marked nodes left after the clean", l, m);
		if (l == 0)
			cr_assert_eq(n, N - 300, "level 0 holds %d nodes", n);
	}
	/* what is left is sorted, and the exact delete-min returns it in order */
	uint64_t prev = 0;
	bool seen[N] = {0};
	for (int i = 0; i < N - 300; i++) {
		ebr_enter(&w->ebr, 0);
		struct node *x = claim_from(w, c, ptr(link_of(w->head, 0)));
		ebr_leave(&w->ebr, 0);
		cr_assert_not_null(x);
		cr_assert_geq(x->prio, prev, "delete-min out of order: %lu after %lu",
		              (unsigned long)x->prio, (unsigned long)prev);
		prev = x->prio;
		cr_assert(!seen[x->data], "task %lu taken twice", (unsigned long)x->data);
		seen[x->data] = true;
	}
	ebr_enter(&w->ebr, 0);
	cr_assert_null(claim_from(w, c, ptr(link_of(w->head, 0))), "tasks beyond those pushed");
	ebr_leave(&w->ebr, 0);
	rig_free(&r);
}

/* ---- two threads mark one node ---- */
struct race {
	struct rig *r;
	_Atomic int go, ready;
	struct node *target;
	_Atomic int wins;
};

/* Waits for *flag == want spinning, so that both racers leave within nanoseconds of the
 * store that releases them (a sched_yield loop releases them microseconds apart, and
 * the race is over before the second arrives); after a while it yields, so that the
 * thread that will store the flag gets a core on a busy machine. */
static void spin_until(_Atomic int *flag, int want)
{
	for (unsigned i = 0; atomic_load_explicit(flag, memory_order_acquire) != want; i++) {
		if (i < (1u << 14))
			ordo_cpu_relax();
		else
			sched_yield();
	}
}

static void *racer(void *arg)
{
	struct race *x = arg;
	static _Atomic int id;
	int t = atomic_fetch_add(&id, 1) & 1;
	struct ordo_sched_state *w = x->r->wl.wl;
	for (int round = 1; round <= 2000; round++) {
		atomic_fetch_add(&x->ready, 1);
		spin_until(&x->go, round);
		ebr_enter(&w->ebr, (uint32_t)t);
		if (claim(w, x->r->ctx[t], x->target))
			atomic_fetch_add(&x->wins, 1);
		ebr_leave(&w->ebr, (uint32_t)t);
		atomic_fetch_add(&x->ready, 1);
		spin_until(&x->go, -round);
	}
	return NULL;
}

Test(spraylist, two_threads_marking_one_node_never_both_win)
{
	struct rig r;
	rig_init_seeded(&r, "spraylist", 2, 0, 7);
	struct ordo_sched_state *w = r.wl.wl;
	struct race x = {.r = &r};
	pthread_t th[2];
	for (int t = 0; t < 2; t++)
		pthread_create(&th[t], NULL, racer, &x);
	for (int round = 1; round <= 2000; round++) {
		struct ordo_task t = {(uint64_t)round, (uint64_t)round};
		spray_push(w, r.ctx[0], &t, 1);
		x.target = ptr(link_of(w->head, 0));
		while (!x.target || is_claimed(x.target)) /* skip earlier rounds' nodes */
			x.target = ptr(link_of(x.target ? x.target : w->head, 0));
		cr_assert_eq(x.target->prio, (uint64_t)round);
		while (atomic_load(&x.ready) != 2 * (2 * round - 1))
			sched_yield();
		atomic_store(&x.wins, 0);
		atomic_store(&x.go, round);
		while (atomic_load(&x.ready) != 2 * (2 * round))
			sched_yield();
		cr_assert_eq(atomic_load(&x.wins), 1, "round %d: %d threads claimed the node",
		             round, atomic_load(&x.wins));
		atomic_store(&x.go, -round);
	}
	for (int t = 0; t < 2; t++)
		pthread_join(th[t], NULL);
	/* both threads' claims went to their lists: 2000 nodes between them */
	cr_assert_eq(w->l[0].nclaimed + w->l[1].nclaimed, 2000);
	rig_free(&r);
}

/* ---- bounded memory over a long run ---- */
#define LONG_TASKS 2000000
static _Atomic uint64_t spawned;

static bool chain(struct ordo_tctx *ctx, const struct ordo_task *t, void *user)
{
	(void)user;
	/* each task spawns one child until LONG_TASKS: the list stays about 1024 tasks */
	if (atomic_fetch_add_explicit(&spawned, 1, memory_order_relaxed) < LONG_TASKS) {
		ordo_push(ctx, t->prio + 1 + ordo_rng_below(&ctx->rng, 64), t->data);
	}
	return true;
}

Test(spraylist, reclamation_bounds_memory_over_a_long_run, .timeout = 300)
{
	for (int T = 2; T <= 4; T *= 2) {
		struct ordo_err e = {0};
		struct ordo_topology topo;
		cr_assert_eq(ordo_topology_init(&topo, T, 0, ORDO_BIND_NONE, &e), 0, "%s", e.msg);
		struct ordo_scheduler wl;
		cr_assert_eq(ordo_scheduler_create("spraylist", NULL, &topo, 1, &wl, &e), 0, "%s",
		             e.msg);
		atomic_store(&spawned, 1024);
		struct ordo_task init[1024];
		for (int i = 0; i < 1024; i++)
			init[i] = (struct ordo_task){(uint64_t)i, (uint64_t)i};
		struct ordo_exec_opts o = {.topo = &topo, .seed = 1};
		struct ordo_run_stats st;
		cr_assert_eq(ordo_for_each(&o, wl.ops, wl.wl, init, 1024, chain, NULL, &st, &e), 0,
		             "%s", e.msg);
		uint64_t tasks = LONG_TASKS + 1024, freed = st.wl_stat[S_FREED];
		uint64_t peak = st.wl_stat[S_LIMBO_PEAK];
		cr_log_info("T=%d: %lu tasks, %lu nodes freed during the run, limbo peak %lu", T,
		            (unsigned long)tasks, (unsigned long)freed, (unsigned long)peak);
		/* retired-but-unfreed nodes stay far below the run's length (without
		 * reclamation they would reach all 2 million): a few advance thresholds per
		 * thread, more when a thread preempted inside an operation holds the epoch
		 * back meanwhile, so the bound allows 2^17 per thread */
		cr_expect_leq(peak, (uint64_t)T << 17, "T=%d: limbo peak %lu", T,
		              (unsigned long)peak);
		/* and nearly everything was freed while the run went on: what was not is at
		 * most the limbo lists plus the claimed lists at the end */
		cr_expect_geq(freed + peak + (uint64_t)T * 4096, tasks,
		              "T=%d: only %lu of %lu nodes freed during the run", T,
		              (unsigned long)freed, (unsigned long)tasks);
		ordo_scheduler_destroy(&wl);
		ordo_topology_free(&topo);
	}
}
