/*
 * Conformance suite over every registered scheduler (worklists/registry.h) and the
 * variants listed in conformance.c; the checks live in conformance.c:
 *   - exactly once: 10^6 unique tasks seeded by T producers and popped by T consumers,
 *     T = 1, 2, 4, 8, 16 (far more threads than this machine's cores);
 *   - children at random priorities: a task tree built by the operators themselves;
 *   - spurious failures: half the pops fail and some tasks stay private to their pusher;
 *   - SSSP verified against Dijkstra;
 *   - strict is exact: one thread pops in priority order.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdlib.h>
#include <string.h>

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
	struct ordo_worklist wl;
	cr_assert_eq(ordo_worklist_create("strict", NULL, &topo, 1, &wl, &e), 0);
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
	ordo_worklist_destroy(&wl);
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
		struct ordo_worklist wl;
		cr_assert_eq(ordo_worklist_create(specs[s], NULL, &topo, 1, &wl, &e), 0, "%s",
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
		ordo_worklist_destroy(&wl);
	}
	ordo_topology_free(&topo);
}

Test(registry, specs_and_errors)
{
	struct ordo_err e = {0};
	const struct ordo_wl_ops *ops;
	int64_t p[ORDO_MAX_PARAMS];
	char buf[256];
	cr_assert_eq(ordo_worklist_resolve("obim:delta=3", &ops, p, buf, sizeof buf, &e), 0);
	cr_assert_str_eq(buf, "obim:delta=3,chunk=64,period=0");
	cr_assert_eq(ordo_worklist_resolve("nope", &ops, p, buf, sizeof buf, &e), ORDO_EINVAL);
	for (int i = 0; i < ordo_wl_count(); i++)
		cr_assert(strstr(e.msg, ordo_wl_at(i)->name), "%s", e.msg);
	cr_assert_eq(ordo_worklist_resolve("mq-opt:push=wobbly", &ops, p, buf, sizeof buf, &e),
	             ORDO_EINVAL);
	cr_assert(strstr(e.msg, "expected sticky|batch"), "%s", e.msg);
	cr_assert_eq(ordo_worklist_resolve("mq-opt:pop=sticky", &ops, p, buf, sizeof buf, &e), 0);
	cr_assert(strstr(buf, "push=sticky,pop=sticky"), "%s", buf);
	cr_assert_eq(ordo_worklist_resolve("obim:chunk=0", &ops, p, buf, sizeof buf, &e),
	             ORDO_EINVAL);
	cr_assert(strstr(e.msg, "out of range"), "%s", e.msg);
	cr_assert_eq(ordo_worklist_resolve("fifo:delta=2", &ops, p, buf, sizeof buf, &e),
	             ORDO_EINVAL);
	cr_assert(strstr(e.msg, "accepted: chunk"), "%s", e.msg);
	for (int i = 0; i < ordo_wl_count(); i++) {
		const struct ordo_wl_ops *o = ordo_wl_at(i);
		cr_assert_not_null(o->push);
		cr_assert_not_null(o->pop);
		cr_assert_eq(ordo_wl_find(o->name), o);
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
