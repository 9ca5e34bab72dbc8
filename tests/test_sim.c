/*
 * The linearized executor (runtime/sim.c, ordo_exec_opts.sim): every registered
 * scheduler under it, with the real SSSP operator. At P = 1 a simulated run is the real
 * one-thread run without the prefetch pipeline, task for task; at P = 4 and 64, under
 * each scheduling distribution, the distances are Dijkstra's and the run is a function
 * of its seed, the delays add up to the ranks (each inversion is counted once on each
 * side) and every popped task is one that was pushed; an exact scheduler pops at rank
 * and delay 0; the spec parser refuses what it cannot mean.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "ordo_gen.h"
#include "ordo_sssp.h"

struct simrun {
	struct ordo_run_stats st;
	bool pass;
};

/* sssp from src with scheduler `name` on P workers (sim NULL: P real threads). */
static struct simrun run(const struct ordo_graph *g, uint32_t src, const uint64_t *ref,
                         const char *name, int P, const struct ordo_sim *sim)
{
	struct ordo_err e = {0};
	struct ordo_topology topo;
	cr_assert_eq(ordo_topology_init(&topo, P, 0, ORDO_BIND_NONE, &e), 0, "%s", e.msg);
	struct ordo_scheduler wl;
	cr_assert_eq(ordo_scheduler_create(name, NULL, &topo, 7, &wl, &e), 0, "%s", e.msg);
	struct ordo_exec_opts o = {
	    .topo = &topo, .seed = 7, .lookahead = ORDO_LOOKAHEAD_OFF, .sim = sim};
	_Atomic uint64_t *dist = malloc(g->n * sizeof *dist);
	struct simrun r;
	cr_assert_eq(ordo_sssp(g, src, &wl, &o, dist, &r.st, &e), 0, "%s at %d: %s", name, P,
	             e.msg);
	struct ordo_check c;
	ordo_sssp_check(g, dist, ref, &c);
	r.pass = c.pass;
	free(dist);
	ordo_scheduler_destroy(&wl);
	ordo_topology_free(&topo);
	return r;
}

static struct ordo_graph *road(uint32_t *src, uint64_t **ref)
{
	struct ordo_graph *g;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_generate_as("road:W=40,H=40", 3, false, NULL, &g, NULL, 0, &e), 0, "%s",
	             e.msg);
	*src = ordo_graph_pick_source(g, 1, 0);
	*ref = malloc(g->n * sizeof **ref);
	uint64_t settled;
	cr_assert_eq(ordo_dijkstra(g, *src, *ref, &settled, &e), 0);
	return g;
}

Test(sim, one_worker_is_the_real_one_thread_run_task_for_task, .timeout = 300)
{
	uint32_t src;
	uint64_t *ref;
	struct ordo_graph *g = road(&src, &ref);
	const struct ordo_sim uniform = {0};
	for (int i = 0; i < ordo_scheduler_count(); i++) {
		const char *name = ordo_scheduler_at(i)->name;
		const struct simrun real = run(g, src, ref, name, 1, NULL);
		const struct simrun sim = run(g, src, ref, name, 1, &uniform);
		cr_assert(real.pass && sim.pass, "%s: wrong distances", name);
		cr_assert_eq(sim.st.tasks, real.st.tasks, "%s: %llu simulated tasks, %llu real",
		             name, (unsigned long long)sim.st.tasks,
		             (unsigned long long)real.st.tasks);
		cr_assert_eq(sim.st.empty, real.st.empty, "%s: empty tasks differ", name);
		cr_assert_eq(sim.st.sim.workers, 1);
		cr_assert_eq(real.st.sim.workers, 0, "a real run says it was simulated");
		cr_assert(sim.st.sim.ranked);
		cr_assert_eq(sim.st.sim.pops, sim.st.tasks, "%s: every task popped once", name);
		if (!ordo_scheduler_at(i)->rank_bound) /* exact at one thread */
			cr_assert(sim.st.sim.rank_max == 0 && sim.st.sim.delay_max == 0,
			          "%s: an exact scheduler popped at rank %llu, delay %llu", name,
			          (unsigned long long)sim.st.sim.rank_max,
			          (unsigned long long)sim.st.sim.delay_max);
	}
	free(ref);
	ordo_graph_free(g);
}

/* The rank and delay bookkeeping of one simulated run: every pop matched to a push,
 * the histograms and per-worker counts add up, and the delays sum to the ranks. */
static void check_measures(const struct ordo_run_stats *st, const char *name, int P)
{
	const struct ordo_sim_stats *s = &st->sim;
	cr_assert(s->ranked && s->delayed, "%s at %d: not measured", name, P);
	cr_assert_eq(s->unmatched, 0, "%s at %d: %llu pops of tasks never pushed", name, P,
	             (unsigned long long)s->unmatched);
	uint64_t rh = 0, dh = 0, tasks = 0;
	for (int b = 0; b < 65; b++)
		rh += s->rank_hist[b], dh += s->delay_hist[b];
	for (int t = 0; t < P && t < 64; t++)
		tasks += s->worker_tasks[t];
	cr_assert(rh == s->pops && dh == s->pops, "%s at %d: histograms hold %llu, %llu of %llu",
	          name, P, (unsigned long long)rh, (unsigned long long)dh,
	          (unsigned long long)s->pops);
	if (P <= 64)
		cr_assert_eq(tasks, st->tasks, "%s at %d: tasks per worker add up", name, P);
	cr_assert_eq(s->delay_sum, s->rank_sum, "%s at %d: delays sum to %llu, ranks to %llu", name,
	             P, (unsigned long long)s->delay_sum, (unsigned long long)s->rank_sum);
	cr_assert_geq(s->delay_max * s->pops, s->delay_sum, "%s: max below the mean", name);
	cr_assert_leq(s->delay_max, s->pops, "%s: a delay longer than the run", name);
}

Test(sim, every_scheduler_every_distribution_right_and_repeatable, .timeout = 600)
{
	uint32_t src;
	uint64_t *ref;
	struct ordo_graph *g = road(&src, &ref);
	const struct ordo_sim dists[] = {
	    {0},                        /* uniform */
	    {.gamma = 0.5},             /* unfair by up to 1.5 */
	    {.slow = 1, .f = 0.01},     /* one worker at 1% of the others' rate */
	    {.cores = 2, .slice = 300}, /* 2 of P at a time */
	};
	const int Ps[] = {4, 64};
	for (int i = 0; i < ordo_scheduler_count(); i++) {
		const char *name = ordo_scheduler_at(i)->name;
		for (size_t k = 0; k < sizeof dists / sizeof *dists; k++)
			for (size_t p = 0; p < 2; p++) {
				const struct simrun a = run(g, src, ref, name, Ps[p], &dists[k]);
				cr_assert(a.pass,
				          "%s, %d workers, distribution %zu: wrong distances", name,
				          Ps[p], k);
				cr_assert_eq(a.st.sim.workers, Ps[p]);
				cr_assert_eq(a.st.sim.pops, a.st.tasks);
				uint64_t steps = 0;
				for (int t = 0; t < Ps[p]; t++)
					steps += a.st.sim.worker_steps[t];
				cr_assert_eq(steps, a.st.sim.steps, "%s: steps per worker add up",
				             name);
				check_measures(&a.st, name, Ps[p]);
				if (k == 0 && p == 1) { /* a function of the seed */
					const struct simrun b =
					    run(g, src, ref, name, Ps[p], &dists[k]);
					cr_assert_eq(a.st.tasks, b.st.tasks, "%s: not repeatable",
					             name);
					cr_assert_eq(a.st.sim.steps, b.st.sim.steps);
					cr_assert_eq(a.st.sim.rank_sum, b.st.sim.rank_sum);
				}
			}
	}
	free(ref);
	ordo_graph_free(g);
}

Test(sim, a_slow_worker_takes_few_steps)
{
	uint32_t src;
	uint64_t *ref;
	struct ordo_graph *g = road(&src, &ref);
	const struct ordo_sim slow = {.slow = 1, .f = 0.01};
	const struct simrun a = run(g, src, ref, "obim", 8, &slow);
	cr_assert(a.pass);
	/* worker 0 weighs 0.01 against 7: about 0.14% of the steps */
	cr_assert_lt(a.st.sim.worker_steps[0] * 100, a.st.sim.steps,
	             "the slow worker took %llu of %llu steps",
	             (unsigned long long)a.st.sim.worker_steps[0],
	             (unsigned long long)a.st.sim.steps);
	free(ref);
	ordo_graph_free(g);
}

Test(sim, specs)
{
	struct ordo_sim s;
	struct ordo_err e = {0};
	int P;
	cr_assert_eq(ordo_sim_parse("256", &P, &s, &e), 0);
	cr_assert_eq(P, 256);
	cr_assert_eq(ordo_sim_parse("16:slow=2,f=0.25,cores=4,slice=50", &P, &s, &e), 0, "%s",
	             e.msg);
	cr_assert(P == 16 && s.slow == 2 && s.f == 0.25 && s.cores == 4 && s.slice == 50);
	char buf[128];
	ordo_sim_describe(&s, P, buf, sizeof buf);
	cr_assert_str_eq(buf, "16:slow=2,f=0.25,cores=4,slice=50");
	const char *bad[] = {
	    "0",         "x",          "5000",      "4:",    "4:gamma",    "4:gamma=1",
	    "4:cores=5", "4:slow=1.5", "4:speed=2", "4:f=0", "4,gamma=0.1"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		e.msg[0] = 0;
		cr_assert_eq(ordo_sim_parse(bad[i], &P, &s, &e), ORDO_EINVAL, "'%s' accepted",
		             bad[i]);
		cr_assert_neq(e.msg[0], 0, "'%s': no message", bad[i]);
	}
}

/* A scheduler whose decisions read clocks says so, under the parameters that make it
 * (smq's guard=auto watches its owner's share of the core). */
Test(sim, schedulers_that_read_clocks_say_so)
{
	struct ordo_err e = {0};
	struct ordo_topology topo;
	cr_assert_eq(ordo_topology_init(&topo, 2, 0, ORDO_BIND_NONE, &e), 0);
	const char *specs[] = {"smq", "smq:guard=off", "smq:guard=on"};
	const bool want[] = {true, false, false};
	for (int i = 0; i < 3; i++) {
		struct ordo_scheduler wl;
		cr_assert_eq(ordo_scheduler_create(specs[i], NULL, &topo, 1, &wl, &e), 0, "%s",
		             e.msg);
		cr_assert_not_null(wl.ops->reads_clock);
		cr_assert_eq(wl.ops->reads_clock(wl.params), want[i], "%s", specs[i]);
		ordo_scheduler_destroy(&wl);
	}
	ordo_topology_free(&topo);
}
