/*
 * Conformance suite over every registered scheduler (worklists/registry.h) and the
 * variants listed in conformance.c; the checks live in conformance.c:
 *   - exactly once: 10^6 unique tasks seeded by T producers and popped by T consumers,
 *     T = 1, 2, 4, 8, 16 (far more threads than this machine's cores);
 *   - children at random priorities: a task tree built by the operators themselves;
 *   - the same under the linearized executor (--sim), 2 to 256 virtual workers;
 *   - spurious failures: half the pops fail and some tasks stay private to their pusher;
 *   - a chain (one task pending at a time) through the same failing pops;
 *   - SSSP verified against Dijkstra;
 *   - strict is exact: one thread pops in priority order.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bq.h"
#include "conformance.h"
#include "ordo_rng.h"

static int idx[64];
static struct criterion_test_params all_schedulers(void)
{
	int n = conf_nspecs();
	for (int i = 0; i < n; i++)
		idx[i] = i;
	return cr_make_param_array(int, idx, (size_t)n);
}

ParameterizedTestParameters(conformance, exactly_once)
{
	return all_schedulers();
}
ParameterizedTest(int *i, conformance, exactly_once, .timeout = 900)
{
	char msg[1024];
	for (int T = 1; T <= conf_max_threads(); T *= 2)
		cr_assert_eq(conf_exactly_once(conf_specs[*i], T, conf_scale(1000000), false, 0,
		                               msg, sizeof msg),
		             0, "%s", msg);
}

ParameterizedTestParameters(conformance, random_children)
{
	return all_schedulers();
}
ParameterizedTest(int *i, conformance, random_children, .timeout = 900)
{
	char msg[1024];
	for (int T = 1; T <= conf_max_threads(); T *= 2)
		cr_assert_eq(conf_exactly_once(conf_specs[*i], T, conf_scale(300000), true,
		                               T >= 4 ? 2 : 0, msg, sizeof msg),
		             0, "%s", msg);
}

/* Every scheduler and variant under the linearized executor: P virtual workers on one
 * thread, each step atomic, drawn uniformly, with one worker at 1% of the others' rate,
 * and 4 "cores" time-sliced among P. Deterministic, so an interleaving that strands a
 * task fails here every time (the simulator reports lost tasks rather than hanging). */
ParameterizedTestParameters(conformance, simulated)
{
	return all_schedulers();
}
ParameterizedTest(int *i, conformance, simulated, .timeout = 900)
{
	char msg[1024];
	const struct ordo_sim dists[] = {{0}, {.slow = 1, .f = 0.01}, {.cores = 4, .slice = 50}};
	/* fewer tasks for more workers: an idle worker's step is a failed pop, and an idle
	 * OBIM worker scans every bucket above its start (about 1000 here), so a run's
	 * cost grows with P */
	const struct {
		int P;
		uint64_t n;
	} runs[] = {{2, 20000}, {3, 20000}, {16, 20000}, {64, 5000}, {256, 2000}};
	for (size_t k = 0; k < sizeof dists / sizeof *dists; k++)
		for (size_t r = 0; r < sizeof runs / sizeof *runs; r++)
			cr_assert_eq(conf_simulated(conf_specs[*i], runs[r].P,
			                            conf_scale(runs[r].n), &dists[k], msg,
			                            sizeof msg),
			             0, "%s", msg);
}

ParameterizedTestParameters(conformance, spurious_failures)
{
	return all_schedulers();
}
ParameterizedTest(int *i, conformance, spurious_failures, .timeout = 900)
{
	char msg[1024];
	for (int T = 1; T <= conf_max_threads(); T *= 4)
		cr_assert_eq(conf_spurious(conf_specs[*i], T, conf_scale(200000), msg, sizeof msg),
		             0, "%s", msg);
}

ParameterizedTestParameters(conformance, chain)
{
	return all_schedulers();
}
ParameterizedTest(int *i, conformance, chain, .timeout = 900)
{
	char msg[1024];
	for (int T = 2; T <= conf_max_threads(); T *= 4)
		cr_assert_eq(conf_chain(conf_specs[*i], T, conf_scale(20000), msg, sizeof msg), 0,
		             "%s", msg);
}

ParameterizedTestParameters(conformance, caterpillar)
{
	return all_schedulers();
}
ParameterizedTest(int *i, conformance, caterpillar, .timeout = 900)
{
	char msg[1024];
	for (int T = 2; T <= conf_max_threads(); T *= 4)
		cr_assert_eq(
		    conf_caterpillar(conf_specs[*i], T, conf_scale(20000), msg, sizeof msg), 0,
		    "%s", msg);
}

/* Workers park and come back at random points (seats.h): a tree and a chain. */
ParameterizedTestParameters(conformance, parking)
{
	return all_schedulers();
}
ParameterizedTest(int *i, conformance, parking, .timeout = 900)
{
	char msg[1024];
	for (int T = 2; T <= conf_max_threads() && T <= 8; T *= 2) {
		cr_assert_eq(conf_parking(conf_specs[*i], T, conf_scale(100000), T / 2, false, msg,
		                          sizeof msg),
		             0, "%s", msg);
		cr_assert_eq(
		    conf_parking(conf_specs[*i], T, conf_scale(5000), 1, true, msg, sizeof msg), 0,
		    "%s", msg);
	}
}

/* Workers stopped for tens to hundreds of microseconds at random, all running. */
ParameterizedTestParameters(conformance, stopped_workers)
{
	return all_schedulers();
}
ParameterizedTest(int *i, conformance, stopped_workers, .timeout = 900)
{
	char msg[1024];
	for (int T = 2; T <= conf_max_threads(); T *= 2)
		cr_assert_eq(
		    conf_stalls(conf_specs[*i], T, conf_scale(20000), NULL, msg, sizeof msg), 0,
		    "%s", msg);
}

/* Tasks open their own loops (ordo_task_loop) and help others' (ordo_task_loop_help). */
ParameterizedTestParameters(conformance, task_loops)
{
	return all_schedulers();
}
ParameterizedTest(int *i, conformance, task_loops, .timeout = 900)
{
	char msg[1024];
	for (int T = 1; T <= conf_max_threads(); T *= 4)
		cr_assert_eq(conf_loops(conf_specs[*i], T, conf_scale(20000), msg, sizeof msg), 0,
		             "%s", msg);
}

ParameterizedTestParameters(conformance, sssp)
{
	return all_schedulers();
}
ParameterizedTest(int *i, conformance, sssp, .timeout = 900)
{
	char msg[1024];
	for (int T = 1; T <= conf_max_threads(); T *= 4)
		cr_assert_eq(conf_sssp(conf_specs[*i], T, msg, sizeof msg), 0, "%s", msg);
}

/* ---- the exact reference ---- */
static uint64_t last_prio;
static bool in_order;
static bool check_order(struct ordo_tctx *ctx, const struct ordo_task *t, void *user)
{
	(void)ctx;
	(void)user;
	if (t->prio < last_prio)
		in_order = false;
	last_prio = t->prio;
	return true;
}

Test(strict, pops_in_priority_order_on_one_thread)
{
	struct ordo_err e = {0};
	struct ordo_topology topo;
	cr_assert_eq(ordo_topology_init(&topo, 1, 0, ORDO_BIND_NONE, &e), 0);
	struct ordo_scheduler wl;
	cr_assert_eq(ordo_scheduler_create("strict", NULL, &topo, 1, &wl, &e), 0);
	uint64_t n = 100000;
	struct ordo_task *init = malloc(n * sizeof *init);
	for (uint64_t i = 0; i < n; i++)
		init[i] = (struct ordo_task){ordo_hash2(1, i) % 1000, i};
	in_order = true;
	last_prio = 0;
	struct ordo_exec_opts o = {.topo = &topo, .seed = 1};
	struct ordo_run_stats st;
	cr_assert_eq(ordo_for_each(&o, wl.ops, wl.wl, init, n, check_order, NULL, &st, &e), 0);
	cr_assert(in_order);
	cr_assert_eq(st.tasks, n);
	free(init);
	ordo_scheduler_destroy(&wl);
	ordo_topology_free(&topo);
}

/* OBIM at shift 0 on one thread is exact: every priority is its own bucket, and the
 * thread always scans from the smallest it pushed to. 200,000 distinct priorities
 * spread over 2^40, and a child per task placed among them, make the per-thread ordered
 * map insert in the middle of a full block, split blocks and append past the end. */
static bool check_order_and_push(struct ordo_tctx *ctx, const struct ordo_task *t, void *user)
{
	check_order(ctx, t, user);
	if (t->data < 100000) /* one child each, at or above its parent */
		ordo_push(ctx, t->prio + ordo_hash2(7, t->data) % (1u << 22), t->data + 1000000);
	return true;
}

Test(obim, shift_0_pops_in_order_over_many_buckets_on_one_thread, .timeout = 300)
{
	struct ordo_err e = {0};
	struct ordo_topology topo;
	cr_assert_eq(ordo_topology_init(&topo, 1, 0, ORDO_BIND_NONE, &e), 0);
	const char *specs[] = {"obim:delta=0", "pmod:unmerge=1", "obim:delta=0,period=3"};
	for (int s = 0; s < 3; s++) {
		struct ordo_scheduler wl;
		cr_assert_eq(ordo_scheduler_create(specs[s], NULL, &topo, 1, &wl, &e), 0, "%s",
		             e.msg);
		uint64_t n = 200000;
		struct ordo_task *init = malloc(n * sizeof *init);
		for (uint64_t i = 0; i < n; i++)
			init[i] = (struct ordo_task){ordo_hash2(3, i) % (1ull << 40), i};
		in_order = true;
		last_prio = 0;
		struct ordo_exec_opts o = {.topo = &topo, .seed = 1};
		struct ordo_run_stats st;
		cr_assert_eq(
		    ordo_for_each(&o, wl.ops, wl.wl, init, n, check_order_and_push, NULL, &st, &e),
		    0, "%s", e.msg);
		/* PMOD merges buckets as it goes, so only OBIM is exact */
		if (s != 1)
			cr_assert(in_order, "%s popped out of order", specs[s]);
		cr_assert_eq(st.tasks, n + 100000, "%s", specs[s]);
		free(init);
		ordo_scheduler_destroy(&wl);
	}
	ordo_topology_free(&topo);
}

/* One long task, then a burst: the root spins for 150 ms (no other task exists, so the
 * other workers find nothing and sleep on the idle bell), then pushes BURST children
 * (which the sleepers must wake up to share); every task marks itself run. */
enum { BURST = 20000 };
static _Atomic uint32_t ran[BURST + 1];
static bool long_then_burst(struct ordo_tctx *ctx, const struct ordo_task *t, void *user)
{
	(void)user;
	atomic_fetch_add(&ran[t->data], 1);
	if (t->data)
		return true;
	const double until = ordo_now() + 0.150; /* long enough on a loaded machine too */
	while (ordo_now() < until)
		;
	for (uint64_t i = 1; i <= BURST; i++)
		ordo_push(ctx, 1 + i % 7, i);
	return true;
}

/* Every registered scheduler runs op from one root task at 3 threads (seats: as
 * ordo_exec_opts.seats): reset() before each run, check(name, stats) after. */
static void each_scheduler_from_one_root(ordo_operator op, int seats, void (*reset)(void),
                                         void (*check)(const char *name,
                                                       const struct ordo_run_stats *st))
{
	struct ordo_err e = {0};
	struct ordo_topology topo;
	cr_assert_eq(ordo_topology_init(&topo, 3, 0, ORDO_BIND_NONE, &e), 0, "%s", e.msg);
	for (int i = 0; i < ordo_scheduler_count(); i++) {
		const char *name = ordo_scheduler_at(i)->name;
		struct ordo_scheduler wl;
		cr_assert_eq(ordo_scheduler_create(name, NULL, &topo, 1, &wl, &e), 0, "%s", e.msg);
		reset();
		const struct ordo_task root = {0, 0};
		struct ordo_exec_opts o = {.topo = &topo, .seed = 1, .seats = seats};
		struct ordo_run_stats st;
		cr_assert_eq(ordo_for_each(&o, wl.ops, wl.wl, &root, 1, op, NULL, &st, &e), 0,
		             "%s: %s", name, e.msg);
		check(name, &st);
		ordo_scheduler_destroy(&wl);
	}
	ordo_topology_free(&topo);
}

static void burst_reset(void)
{
	for (int k = 0; k <= BURST; k++)
		atomic_store(&ran[k], 0);
}

static void burst_check(const char *name, const struct ordo_run_stats *st)
{
	for (int k = 0; k <= BURST; k++)
		cr_assert_eq(atomic_load(&ran[k]), 1, "%s: task %d ran %u times", name, k,
		             atomic_load(&ran[k]));
	cr_assert_eq(st->tasks, BURST + 1, "%s", name);
	cr_assert_gt(st->idle_sleeps, 0, "%s: no idle worker slept beside the long task", name);
}

Test(executor, idle_workers_sleep_and_come_back_for_a_burst, .timeout = 300)
{
	each_scheduler_from_one_root(long_then_burst, ORDO_SEATS_AUTO, burst_reset, burst_check);
}

/* One task opens a loop of slow items while no other task exists: the idle workers
 * (asleep on the idle bell by then, or backing off) join it, and every item runs
 * once. Every thread runs (ORDO_SEATS_ALL), so a 1-CPU machine has helpers too. */
enum { SLOW_ITEMS = 200 };
static _Atomic uint32_t item_ran[SLOW_ITEMS];
static _Atomic uint32_t items_helped;
static void slow_item(void *arg, uint32_t i, unsigned tid)
{
	const unsigned *opener = arg;
	atomic_fetch_add(&item_ran[i], 1);
	if (tid != *opener)
		atomic_fetch_add(&items_helped, 1);
	struct timespec ms = {0, 500000};
	nanosleep(&ms, NULL);
}
static bool open_a_loop(struct ordo_tctx *ctx, const struct ordo_task *t, void *user)
{
	(void)t;
	(void)user;
	struct timespec ms = {0, 20000000}; /* the others go idle first */
	nanosleep(&ms, NULL);
	const unsigned opener = ctx->tid;
	ordo_task_loop(ctx, slow_item, (void *)&opener, SLOW_ITEMS);
	return true;
}

static void items_reset(void)
{
	for (int k = 0; k < SLOW_ITEMS; k++)
		atomic_store(&item_ran[k], 0);
	atomic_store(&items_helped, 0);
}

static void items_check(const char *name, const struct ordo_run_stats *st)
{
	for (int k = 0; k < SLOW_ITEMS; k++)
		cr_assert_eq(atomic_load(&item_ran[k]), 1, "%s: item %d ran %u times", name, k,
		             atomic_load(&item_ran[k]));
	cr_assert_gt(atomic_load(&items_helped), 0, "%s: no idle worker joined a 100 ms loop",
	             name);
	cr_assert_eq(st->task_loops, 1, "%s", name);
	cr_assert_eq(st->loop_items_helped, atomic_load(&items_helped), "%s", name);
}

Test(executor, idle_workers_help_a_tasks_loop, .timeout = 300)
{
	each_scheduler_from_one_root(open_a_loop, ORDO_SEATS_ALL, items_reset, items_check);
	/* outside a run the loop runs on the caller alone */
	const unsigned opener = 0;
	items_reset();
	ordo_task_loop(NULL, slow_item, (void *)&opener, 8);
	for (int k = 0; k < SLOW_ITEMS; k++)
		cr_assert_eq(atomic_load(&item_ran[k]), k < 8);
	cr_assert_eq(atomic_load(&items_helped), 0);
	cr_assert(!ordo_task_loop_help(NULL));
}

/* SMQ's bucket queue (worklists/bq.h) is exact: against a plain array, every pop is a
 * minimum of what is present, through pushes at the current bucket, just above it,
 * below it (a stolen task's children), past the ring's window (the far heap, then
 * drained into the ring) and with only far keys left (a jump), at shifts 0 and 5. */
Test(smq, bucket_queue_pops_a_minimum_every_time)
{
	enum { MAXN = 3000 };
	static struct ordo_task ref[MAXN];
	/* scenarios 0 and 1: shift 0 and 5, mostly near the minimum; 2: priorities spread
	 * over 2^24 from shift 0, so that the window widens (bq_widen) as it goes */
	for (unsigned sc = 0; sc < 3; sc++) {
		const unsigned shift = sc == 1 ? 5 : 0;
		struct bq_pq q;
		cr_assert(bq_init(&q, shift));
		uint32_t n = 0;
		uint64_t last = 0, id = 0, far_pushes = 0, jumps = 0;
		for (uint64_t op = 0; op < 200000; op++) {
			const uint64_t r = ordo_hash2(11 + sc, op);
			if (n < MAXN && (n == 0 || r % 100 < 52)) {
				const uint64_t k = r >> 8;
				uint64_t prio = last + k % (8u << shift); /* near the minimum */
				if (k % 17 == 0 && last > 100)
					prio = last - 1 - k % 100; /* below it */
				if (k % 29 == 0) {                 /* past the window */
					prio = last + ((uint64_t)(BQ_WINDOW + k % 5000) << shift);
					far_pushes++;
				}
				if (sc == 2)
					prio = last + k % (1u << 24);
				const struct ordo_task t = {prio, id++};
				cr_assert(bq_push(&q, &t));
				ref[n++] = t;
			} else {
				struct ordo_task t;
				const bool only_far = !q.heap.n && !q.nring && q.far.n;
				cr_assert(bq_pop(&q, &t));
				jumps += only_far;
				uint32_t m = 0;
				for (uint32_t i = 1; i < n; i++)
					m = ref[i].prio < ref[m].prio ? i : m;
				cr_assert_eq(t.prio, ref[m].prio,
				             "op %llu: popped %llu, minimum %llu",
				             (unsigned long long)op, (unsigned long long)t.prio,
				             (unsigned long long)ref[m].prio);
				uint32_t i = 0;
				while (i < n && ref[i].data != t.data)
					i++;
				cr_assert_lt(i, n, "popped a task that was not pushed");
				ref[i] = ref[--n];
				last = t.prio;
			}
			cr_assert_eq(bq_size(&q), n);
		}
		/* then push far keys only and drain: the ring empties before the far heap */
		for (int k = 0; k < 50 && n < MAXN; k++) {
			const struct ordo_task t = {
			    last + ((uint64_t)(3 * BQ_WINDOW + 7 * k) << q.shift), id++};
			cr_assert(bq_push(&q, &t));
			ref[n++] = t;
		}
		for (uint64_t prev = 0; n; n--) {
			struct ordo_task t;
			jumps += !q.heap.n && !q.nring && q.far.n;
			cr_assert(bq_pop(&q, &t));
			cr_assert_geq(t.prio, prev, "drained in order");
			prev = t.prio;
		}
		cr_assert_eq(bq_size(&q), 0);
		cr_assert_gt(far_pushes, 1000);
		cr_assert_gt(jumps, 0, "the only-far-keys jump was exercised");
		if (sc == 2)
			cr_assert_geq(q.shift, 8, "the window widened to the spread (shift %u)",
			              q.shift);
		else
			cr_assert_eq(q.shift, shift, "no widening when most keys are near");
		bq_free(&q);
	}
}

Test(registry, specs_and_errors)
{
	struct ordo_err e = {0};
	const struct ordo_scheduler_ops *ops;
	int64_t p[ORDO_MAX_PARAMS];
	char buf[256];
	cr_assert_eq(ordo_scheduler_resolve("obim:delta=3", &ops, p, buf, sizeof buf, &e), 0);
	cr_assert_str_eq(buf, "obim:delta=3,chunk=64,period=0");
	cr_assert_eq(ordo_scheduler_resolve("nope", &ops, p, buf, sizeof buf, &e), ORDO_EINVAL);
	for (int i = 0; i < ordo_scheduler_count(); i++)
		cr_assert(strstr(e.msg, ordo_scheduler_at(i)->name), "%s", e.msg);
	cr_assert_eq(ordo_scheduler_resolve("mq-opt:push=wobbly", &ops, p, buf, sizeof buf, &e),
	             ORDO_EINVAL);
	cr_assert(strstr(e.msg, "expected sticky|batch"), "%s", e.msg);
	cr_assert_eq(ordo_scheduler_resolve("mq-opt:pop=sticky", &ops, p, buf, sizeof buf, &e), 0);
	cr_assert(strstr(buf, "push=sticky,pop=sticky"), "%s", buf);
	cr_assert_eq(ordo_scheduler_resolve("obim:chunk=0", &ops, p, buf, sizeof buf, &e),
	             ORDO_EINVAL);
	cr_assert(strstr(e.msg, "out of range"), "%s", e.msg);
	cr_assert_eq(ordo_scheduler_resolve("fifo:delta=2", &ops, p, buf, sizeof buf, &e),
	             ORDO_EINVAL);
	cr_assert(strstr(e.msg, "accepted: chunk"), "%s", e.msg);
	/* resolved once: the spec's own setting wins over a default, a key the scheduler
	 * lacks is ignored (and said), a default out of range is refused */
	struct ordo_sched_spec sc;
	bool has;
	cr_assert_eq(ordo_sched_parse("obim:delta=3", &sc, &e), 0, "%s", e.msg);
	cr_assert_eq(ordo_sched_default(&sc, "delta", 9, &has, &e), 0);
	cr_assert(has);
	cr_assert_str_eq(sc.spec, "obim:delta=3,chunk=64,period=0");
	cr_assert_eq(ordo_sched_defaults(&sc, "chunk=16,steal_prob=4", &e), 0, "%s", e.msg);
	cr_assert_str_eq(sc.spec, "obim:delta=3,chunk=16,period=0");
	cr_assert_eq(ordo_sched_default(&sc, "period", -5, NULL, &e), ORDO_EINVAL);
	cr_assert(strstr(e.msg, "out of range"), "%s", e.msg);
	cr_assert_eq(ordo_sched_parse("fifo", &sc, &e), 0);
	cr_assert_eq(ordo_sched_default(&sc, "delta", 2, &has, &e), 0);
	cr_assert(!has);
	cr_assert_eq(ordo_sched_parse("smq", &sc, &e), 0);
	cr_assert_eq(ordo_sched_defaults(&sc, "pq=bucket", &e), 0, "%s", e.msg);
	cr_assert(strstr(sc.spec, "pq=bucket"), "%s", sc.spec);
	struct ordo_topology tp;
	cr_assert_eq(ordo_topology_init(&tp, 1, 0, ORDO_BIND_NONE, &e), 0);
	struct ordo_scheduler made;
	cr_assert_eq(ordo_sched_create(&sc, &tp, 1, &made, &e), 0, "%s", e.msg);
	cr_assert_str_eq(made.spec, sc.spec);
	cr_assert_eq(made.ops, sc.ops);
	ordo_scheduler_destroy(&made);
	ordo_topology_free(&tp);
	for (int i = 0; i < ordo_scheduler_count(); i++) {
		const struct ordo_scheduler_ops *o = ordo_scheduler_at(i);
		cr_assert_not_null(o->push);
		cr_assert_not_null(o->pop);
		cr_assert_eq(ordo_scheduler_find(o->name), o);
	}
}

Test(topology, fake_numa_and_binding_rules)
{
	struct ordo_err e = {0};
	struct ordo_topology t;
	cr_assert_eq(ordo_topology_init(&t, 8, 4, ORDO_BIND_NONE, &e), 0);
	cr_assert_eq(t.nnodes, 4);
	for (int i = 0; i < 8; i++)
		cr_assert_eq(t.node[i], i / 2);
	cr_assert_eq(t.first_of_node[3], 6);
	cr_assert_eq(t.threads_on[1], 2);
	ordo_topology_free(&t);
	setenv("OMP_PROC_BIND", "close", 1);
	cr_assert_eq(ordo_topology_init(&t, 2, 0, ORDO_BIND_COMPACT, &e), ORDO_EINVAL);
	cr_assert(strstr(e.msg, "OMP_PROC_BIND"), "%s", e.msg);
	unsetenv("OMP_PROC_BIND");
	setenv("ORDO_FAKE_NUMA", "2", 1);
	cr_assert_eq(ordo_topology_init(&t, 4, 0, ORDO_BIND_NONE, &e), 0);
	cr_assert_eq(t.nnodes, 2);
	cr_assert(t.fake);
	ordo_topology_free(&t);
	setenv("ORDO_FAKE_NUMA", "zero", 1);
	cr_assert_eq(ordo_topology_init(&t, 4, 0, ORDO_BIND_NONE, &e), ORDO_EINVAL);
	unsetenv("ORDO_FAKE_NUMA");
}

/* SMQ's guard: with workers stopped at random, guests take the stopped owners' tasks
 * (and every task still runs once); without it, none do. */
Test(smq_guard, guests_run_while_owners_are_stopped, .timeout = 300)
{
	char msg[1024];
	struct ordo_run_stats st;
	cr_assert_eq(conf_stalls("smq:pq=bucket,guard=on", 2, 20000, &st, msg, sizeof msg), 0, "%s",
	             msg);
	cr_assert_eq(st.wl_stat[5], 2, "both queues guarded, not %llu",
	             (unsigned long long)st.wl_stat[5]);
	cr_assert_gt(st.wl_stat[4], 0, "no guest batch while owners were stopped");
	cr_assert_eq(conf_stalls("smq:pq=bucket,guard=off", 2, 20000, &st, msg, sizeof msg), 0,
	             "%s", msg);
	cr_assert_eq(st.wl_stat[4] + st.wl_stat[5], 0, "guard=off: no guest, nothing guarded");
}

/* Every parameter at both ends of its declared range, with more workers than seats
 * (parking at random): a task stranded by an edge value ends the run with an error. */
static int sched_idx[64];
/* Every registered scheduler by its registry index (not the variants of conf_specs). */
static struct criterion_test_params registered(void)
{
	const int n = ordo_scheduler_count();
	for (int i = 0; i < n; i++)
		sched_idx[i] = i;
	return cr_make_param_array(int, sched_idx, (size_t)n);
}
ParameterizedTestParameters(conformance, parameter_edges)
{
	return registered();
}
ParameterizedTest(int *i, conformance, parameter_edges, .timeout = 900)
{
	char msg[1024];
	cr_assert_eq(conf_edges(ordo_scheduler_at(*i), 8, 3, conf_scale(20000), msg, sizeof msg), 0,
	             "%s", msg);
}

/* A scheduler that loses a task: the run ends with ORDO_ESCHEDULER counting it, by the
 * executor's watchdog, with and without parked workers. */
ParameterizedTestParameters(conformance, lost_task_is_an_error)
{
	return registered();
}
ParameterizedTest(int *i, conformance, lost_task_is_an_error, .timeout = 120)
{
	char msg[1024];
	const char *name = ordo_scheduler_at(*i)->name;
	const int seats[2] = {0, 2};
	for (int k = 0; k < 2; k++) {
		const int rc = conf_lost(name, 4, seats[k], msg, sizeof msg);
		cr_assert_eq(rc, ORDO_ESCHEDULER, "%s", msg);
		cr_assert(strstr(msg, "1 pushed tasks were never run"), "%s", msg);
	}
}
