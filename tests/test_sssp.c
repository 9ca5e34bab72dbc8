/*
 * SSSP: Dijkstra against hand-computed distances, then the parallel operator with every
 * registered scheduler, at 1, 2, 4 and 16 threads (with the executor's prefetch pipeline
 * off, at its default depth, at 1 and at 7 tasks), verified against Dijkstra on the
 * fixtures, a generated road graph, and the real graphs of ../shared/inputs (rome99,
 * luxembourg with weights from its coordinates, soc-Slashdot0902 with random weights
 * 1..255; skipped with a message when the directory is absent).
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ordo_edges.h"
#include "ordo_gen.h"
#include "ordo_io.h"
#include "ordo_sssp.h"

Test(dijkstra, tiny_fixture)
{
	struct ordo_graph *g;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_load(ORDO_TEST_DIR "/fixtures/tiny.gr", NULL, &g, NULL, &e), 0);
	uint64_t d[5], settled;
	cr_assert_eq(ordo_dijkstra(g, 0, d, &settled, &e), 0);
	/* 0->1 3, 0->2 5, 1->2 1, 1->4 9, 2->3 7, 3->4 2, 4->0 4 */
	const uint64_t want[5] = {0, 3, 4, 11, 12};
	cr_assert_arr_eq(d, want, sizeof want);
	cr_assert_eq(settled, 5);
	cr_assert_eq(ordo_dijkstra(g, 3, d, &settled, &e), 0);
	const uint64_t want3[5] = {6, 9, 10, 0, 2};
	cr_assert_arr_eq(d, want3, sizeof want3);
	ordo_graph_free(g);
}

static void run_all_one(const struct ordo_graph *g, const char *what, int maxT)
{
	uint64_t *ref = malloc(g->n * sizeof *ref), settled;
	_Atomic uint64_t *dist = malloc(g->n * sizeof *dist);
	_Atomic uint32_t *narrow = malloc(g->n * sizeof *narrow);
	struct ordo_err e = {0};
	uint32_t src = ordo_graph_pick_source(g, 1, 0);
	cr_assert_neq(src, UINT32_MAX);
	cr_assert_eq(ordo_dijkstra(g, src, ref, &settled, &e), 0);
	uint64_t *leaves, nleaves, reached_leaves = 0;
	cr_assert_eq(ordo_sssp_leaves(g, 2, &leaves, &nleaves, &e), 0);
	for (uint32_t v = 0; v < g->n; v++)
		reached_leaves +=
		    v != src && ref[v] != ORDO_DIST_INF && ordo_sssp_is_leaf(leaves, v);
	for (int i = 0; i < ordo_scheduler_count(); i++) {
		const struct ordo_scheduler_ops *ops = ordo_scheduler_at(i);
		for (int T = 1; T <= maxT; T *= (T == 4 ? 4 : 2)) {
			struct ordo_topology topo;
			cr_assert_eq(ordo_topology_init(&topo, T, 0, ORDO_BIND_NONE, &e), 0);
			struct ordo_scheduler wl;
			cr_assert_eq(ordo_scheduler_create(ops->name, NULL, &topo, 1, &wl, &e), 0);
			/* each thread count also exercises one depth of the executor's
			 * prefetch pipeline: none, the default, the shortest, the deepest */
			const unsigned la = T == 1   ? ORDO_LOOKAHEAD_OFF
			                    : T == 2 ? 0
			                    : T == 4 ? 1
			                             : ORDO_MAX_LOOKAHEAD;
			/* strict keeps exact order: it never gets a pipeline */
			const unsigned want_la = la == ORDO_LOOKAHEAD_OFF || ops->exact ? 0
			                         : la                                   ? la
			                              : ORDO_SSSP_LOOKAHEAD;
			struct ordo_exec_opts o = {.topo = &topo, .seed = 1, .lookahead = la};
			/* a task per relaxation, then the live form at a grain that varies
			 * with the thread count: the scheduler's, every priority its own, one
			 * task per node, a grain no scheduler has */
			const int grain = T == 1   ? (int)ordo_scheduler_grain(&wl)
			                  : T == 2 ? 0
			                  : T == 4 ? 64
			                           : 3;
			/* each form with 64-bit labels, then with 32-bit ones; the middle
			 * two without tasks for the leaves */
			for (int form = 0; form < 4; form++) {
				const bool live = form & 1, wide = form < 2;
				const bool leaf = form == 1 || form == 2;
				if (form) {
					ordo_scheduler_destroy(&wl);
					cr_assert_eq(ordo_scheduler_create(ops->name, NULL, &topo,
					                                   1, &wl, &e),
					             0);
				}
				struct ordo_run_stats st;
				struct ordo_sssp_run r = {live ? grain : -1, leaf ? leaves : NULL,
				                          wide ? dist : NULL, wide ? NULL : narrow,
				                          form != 0}; /* a run clears overflow */
				if (form == 0)                        /* the plain entry point */
					cr_assert_eq(
					    ordo_sssp_live(g, src, &wl, &o, r.grain, dist, &st, &e),
					    0, "%s", e.msg);
				else
					cr_assert_eq(ordo_sssp_run(g, src, &wl, &o, &r, &st, &e), 0,
					             "%s", e.msg);
				cr_assert(!r.overflow, "%s: a 32-bit overflow", ops->name);
				if (!wide) {
					for (uint32_t v = 0; v < g->n; v++) /* stale values */
						atomic_store(&dist[v], 12345);
					ordo_sssp_widen(narrow, dist, g->n, T);
				}
				cr_assert_eq(st.lookahead, want_la);
				struct ordo_check c;
				ordo_sssp_check(g, dist, ref, &c);
				cr_assert(c.pass,
				          "%s, %s, %d threads, live grain %d, %d-bit labels: %llu "
				          "wrong distances (first: %s)",
				          what, ops->name, T, live ? grain : -1, wide ? 64 : 32,
				          (unsigned long long)c.mismatches, c.first);
				uint64_t reached;
				cr_assert(ordo_check_get(&c, "reached", &reached));
				cr_assert_eq(reached, settled);
				/* a task for each reached node but the leaves (the source's
				 * is the initial one) */
				const uint64_t need = settled - (leaf ? reached_leaves : 0);
				cr_assert_geq(st.tasks - st.empty, need,
				              "%s: fewer useful tasks than settled nodes",
				              ops->name);
			}
			ordo_scheduler_destroy(&wl);
			ordo_topology_free(&topo);
		}
	}
	free(ref);
	free(dist);
	free(narrow);
	free(leaves);
}

/* Every scheduler on g, then on its compressed copy (up to 4 threads). */
static void run_all(const struct ordo_graph *g, const char *what, int maxT)
{
	run_all_one(g, what, maxT);
	struct ordo_graph *c;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_graph_compress(g, 2, &c, &e), 0, "%s", e.msg);
	char name[300];
	snprintf(name, sizeof name, "%s (compressed)", what);
	run_all_one(c, name, maxT < 4 ? maxT : 4);
	ordo_graph_free(c);
}

static struct ordo_delta_hint hint_of(const char *spec, bool compress)
{
	struct ordo_graph *g;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_generate_as(spec, 1, compress, NULL, &g, NULL, 0, &e), 0, "%s", e.msg);
	struct ordo_delta_hint h;
	ordo_delta_hint(g, &h);
	ordo_graph_free(g);
	return h;
}

Test(delta_hint, the_two_rules_on_graphs_of_known_weights_and_shape)
{
	for (int cz = 0; cz < 2; cz++) { /* both representations read the same */
		/* a grid (high diameter: a 1024-node ball is ~23 levels deep), every weight
		 * 100: 8 mean weights wide, 2^9.64 -> shift 10 */
		struct ordo_delta_hint h = hint_of("grid:W=200,H=200,lo=100,hi=100", cz);
		cr_assert(h.wide, "a grid is wide (ball depth %u)", h.ball_depth);
		cr_assert_gt(h.ball_depth, ORDO_HINT_DEEP);
		cr_assert_float_eq(h.mean_weight, 100.0, 1e-9);
		cr_assert_float_eq(h.mean_degree, 4 * 200.0 * 199 / (200 * 200), 1e-9);
		cr_assert_eq(h.shift, 10);
		/* astar's: a tenth of the ball's reach, 100 x ~23 / 10 -> 2^7.8 -> shift 8 */
		cr_assert_eq(h.shift_reach,
		             (int)lround(log2(100.0 * h.ball_depth / ORDO_HINT_REACH_DIV)));
		cr_assert_lt(h.shift_reach, h.shift);
		/* R-MAT, every weight 64, mean degree (over nodes with arcs) near 40: a ball
		 * of 1024 nodes within 2-3 levels; width 64 / degree -> shift 1 or 0 */
		h = hint_of("rmat:scale=14,ef=16,wlo=64,whi=64", cz);
		cr_assert(!h.wide, "R-MAT is not wide (ball depth %u)", h.ball_depth);
		cr_assert_leq(h.ball_depth, 3);
		cr_assert_float_eq(h.mean_weight, 64.0, 1e-9);
		cr_assert_gt(h.mean_degree, 16.0);
		cr_assert_eq(h.shift, (int)lround(log2(64.0 / h.mean_degree)));
		cr_assert_eq(h.shift_reach, h.shift, "low diameter: one rule for every app");
		/* weights 1000 on the same shape: the shift follows the weights */
		const struct ordo_delta_hint h2 =
		    hint_of("rmat:scale=14,ef=16,wlo=1000,whi=1000", cz);
		cr_assert_eq(h2.shift, (int)lround(log2(1000.0 / h2.mean_degree)));
		cr_assert_gt(h2.shift, h.shift + 3);
	}
}

Test(delta_hint, degenerate_graphs)
{
	/* no arcs, one node, unweighted: shift 0 (width at most 1) */
	struct ordo_graph *g;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_graph_alloc(5, 0, false, &g, &e), 0, "%s", e.msg);
	struct ordo_delta_hint h;
	ordo_delta_hint(g, &h);
	cr_assert_eq(h.shift, 0);
	ordo_graph_free(g);
	cr_assert_eq(ordo_load(ORDO_TEST_DIR "/fixtures/tiny.gr", NULL, &g, NULL, &e), 0);
	ordo_delta_hint(g, &h); /* 5 nodes, a cycle: the ball is the whole graph */
	cr_assert_eq(h.ball_depth, 4, "depth %u", h.ball_depth);
	cr_assert(!h.wide);
	cr_assert_float_eq(h.mean_weight, (3 + 5 + 1 + 9 + 7 + 2 + 4) / 7.0, 1e-9);
	ordo_graph_free(g);
}

Test(sssp, every_scheduler_on_fixtures, .timeout = 300)
{
	const char *files[] = {"tiny.gr", "undirected.graph", "tiny.mtx"};
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		char p[512];
		snprintf(p, sizeof p, ORDO_TEST_DIR "/fixtures/%s", files[i]);
		struct ordo_graph *g;
		struct ordo_err e = {0};
		cr_assert_eq(ordo_load(p, NULL, &g, NULL, &e), 0, "%s", e.msg);
		run_all(g, files[i], 16);
		ordo_graph_free(g);
	}
}

Test(sssp, every_scheduler_on_a_generated_road_graph, .timeout = 600)
{
	struct ordo_graph *g;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_generate("road:W=200,H=150,seed=4", 0, &g, NULL, 0, &e), 0);
	run_all(g, "road 200x150", 16);
	ordo_graph_free(g);
	cr_assert_eq(ordo_generate("rmat:scale=13,ef=8", 0, &g, NULL, 0, &e), 0);
	run_all(g, "rmat 13", 16);
	ordo_graph_free(g);
}

/* The live form's point, on one thread (deterministic): OBIM at its grain pops far
 * fewer empty tasks than with a task per relaxation, and no more useful ones than the
 * nodes it reaches, beyond what a task per relaxation does. */
Test(sssp, live_form_drops_the_stale_duplicates)
{
	struct ordo_graph *g;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_generate("road:W=200,H=150,seed=4", 0, &g, NULL, 0, &e), 0);
	struct ordo_topology topo;
	cr_assert_eq(ordo_topology_init(&topo, 1, 0, ORDO_BIND_NONE, &e), 0);
	_Atomic uint64_t *dist = malloc(g->n * sizeof *dist);
	struct ordo_run_stats st[2];
	for (int live = 0; live < 2; live++) {
		struct ordo_scheduler wl;
		cr_assert_eq(ordo_scheduler_create("obim:delta=10", NULL, &topo, 1, &wl, &e), 0);
		cr_assert_eq(ordo_scheduler_grain(&wl), 10);
		struct ordo_exec_opts o = {.topo = &topo, .seed = 1};
		cr_assert_eq(ordo_sssp_live(g, 0, &wl, &o, live ? 10 : -1, dist, &st[live], &e), 0,
		             "%s", e.msg);
		ordo_scheduler_destroy(&wl);
	}
	cr_assert_gt(st[0].empty, 1000, "a task per relaxation: %llu empty",
	             (unsigned long long)st[0].empty);
	cr_assert_lt(st[1].empty * 4, st[0].empty, "live: %llu empty, off: %llu",
	             (unsigned long long)st[1].empty, (unsigned long long)st[0].empty);
	cr_assert_leq(st[1].tasks - st[1].empty, st[0].tasks - st[0].empty + st[0].tasks / 100);
	/* bad grains and graphs are refused, and leave nothing half-done */
	struct ordo_scheduler wl;
	cr_assert_eq(ordo_scheduler_create("obim", NULL, &topo, 1, &wl, &e), 0);
	struct ordo_exec_opts o = {.topo = &topo, .seed = 1};
	cr_assert_eq(ordo_sssp_live(g, 0, &wl, &o, 65, dist, &st[0], &e), ORDO_EINVAL);
	cr_assert(strstr(e.msg, "0..64"), "%s", e.msg);
	ordo_scheduler_destroy(&wl);
	ordo_topology_free(&topo);
	free(dist);
	ordo_graph_free(g);
}

/* Leaves: exactly the nodes whose task could lower nothing, directed (one pass over the
 * arcs) and marked symmetric (degree <= 1). */
Test(sssp, leaves_are_the_nodes_whose_task_lowers_nothing)
{
	struct ordo_graph *g, *sym;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_load(ORDO_TEST_DIR "/fixtures/leaves.txt", NULL, &g, NULL, &e), 0, "%s",
	             e.msg);
	cr_assert_eq(g->n, 8);
	for (int T = 1; T <= 2; T++) {
		uint64_t *leaves, count;
		cr_assert_eq(ordo_sssp_leaves(g, T, &leaves, &count, &e), 0);
		const bool want[8] = {false, true, false, true, true, false, true, true};
		for (uint32_t v = 0; v < 8; v++)
			cr_assert_eq(ordo_sssp_is_leaf(leaves, v), want[v], "node %u", v);
		cr_assert_eq(count, 5);
		free(leaves);
	}
	cr_assert_eq(ordo_graph_symmetrized(g, 2, &sym, NULL, &e), 0, "%s", e.msg);
	cr_assert(sym->flags & ORDO_GRAPH_SYMMETRIC);
	uint64_t *leaves, count;
	cr_assert_eq(ordo_sssp_leaves(sym, 2, &leaves, &count, &e), 0);
	for (uint32_t v = 0; v < 8; v++)
		cr_assert_eq(ordo_sssp_is_leaf(leaves, v), ordo_graph_degree(sym, v) <= 1,
		             "node %u", v);
	free(leaves);
	ordo_graph_free(sym);
	ordo_graph_free(g);
}

/* 32-bit labels: a distance past ORDO_SSSP_NARROW_MAX is reported, never wrapped, and
 * one that reaches it exactly is kept; every scheduler, 1 and 2 threads, both forms. */
Test(sssp, narrow_labels_report_their_overflow)
{
	struct ordo_graph *g;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_load(ORDO_TEST_DIR "/fixtures/far.gr", NULL, &g, NULL, &e), 0, "%s",
	             e.msg);
	uint64_t ref[5], settled;
	_Atomic uint32_t narrow[5];
	_Atomic uint64_t dist[5];
	for (int i = 0; i < ordo_scheduler_count(); i++)
		for (int T = 1; T <= 2; T++)
			for (int form = 0; form < 4; form++) {
				const bool live = form & 1;
				const uint32_t src = form & 2 ? 2 : 0; /* from node 2: all fit */
				cr_assert_eq(ordo_dijkstra(g, src, ref, &settled, &e), 0);
				struct ordo_topology topo;
				cr_assert_eq(ordo_topology_init(&topo, T, 0, ORDO_BIND_NONE, &e),
				             0);
				struct ordo_scheduler wl;
				const char *name = ordo_scheduler_at(i)->name;
				cr_assert_eq(ordo_scheduler_create(name, NULL, &topo, 1, &wl, &e),
				             0);
				struct ordo_exec_opts o = {.topo = &topo, .seed = 1};
				struct ordo_run_stats st;
				struct ordo_sssp_run r = {live ? (int)ordo_scheduler_grain(&wl)
				                               : -1,
				                          NULL, NULL, narrow, src != 0};
				cr_assert_eq(ordo_sssp_run(g, src, &wl, &o, &r, &st, &e), 0, "%s",
				             e.msg);
				const bool over = r.overflow;
				cr_assert_eq(over, src == 0,
				             "%s, %d threads, live %d, from %u: overflow %d", name,
				             T, live, src, over);
				ordo_sssp_widen(narrow, dist, 5, T);
				/* what fits is exact, what does not is not there at all */
				for (uint32_t v = 0; v < 5; v++)
					if (ref[v] <= ORDO_SSSP_NARROW_MAX)
						cr_assert_eq(atomic_load(&dist[v]), ref[v],
						             "%s: node %u", name, v);
					else
						cr_assert_eq(atomic_load(&dist[v]), ORDO_DIST_INF);
				if (src == 0)
					cr_assert_eq(ref[4], ORDO_SSSP_NARROW_MAX);
				ordo_scheduler_destroy(&wl);
				ordo_topology_free(&topo);
			}
	ordo_graph_free(g);
}

static struct ordo_graph *shared(const char *rel, struct ordo_load_opts *o)
{
	const char *env = getenv("ORDO_INPUTS");
	char p[1024];
	snprintf(p, sizeof p, "%s/%s", env && *env ? env : ORDO_INPUTS_DIR, rel);
	if (access(p, R_OK)) {
		cr_skip_test("%s not found: the shared real graphs are not beside this clone (set "
		             "ORDO_INPUTS to their directory; public graphs of your own: "
		             "inputs/fetch.sh --list)",
		             p);
		return NULL;
	}
	struct ordo_graph *g;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_load(p, o, &g, NULL, &e), 0, "%s", e.msg);
	return g;
}

Test(sssp_inputs, rome99, .timeout = 600)
{
	struct ordo_graph *g = shared("road/rome99.gr", NULL);
	if (g) {
		run_all(g, "rome99", 16);
		ordo_graph_free(g);
	}
}

Test(sssp_inputs, luxembourg_weights_from_coordinates, .timeout = 600)
{
	const char *env = getenv("ORDO_INPUTS");
	char xyz[1024];
	snprintf(xyz, sizeof xyz, "%s/road/luxembourg.osm.xyz.zst",
	         env && *env ? env : ORDO_INPUTS_DIR);
	struct ordo_load_opts o;
	ordo_load_opts_init(&o);
	o.coords = xyz;
	o.weights_from_coords = true;
	struct ordo_graph *g = shared("road/luxembourg.osm.graph.zst", &o);
	if (g) {
		run_all(g, "luxembourg", 4);
		ordo_graph_free(g);
	}
}

Test(sssp_inputs, slashdot_random_weights, .timeout = 600)
{
	struct ordo_load_opts o;
	ordo_load_opts_init(&o);
	o.build.random_weights = true;
	o.build.wlo = 1;
	o.build.whi = 255;
	struct ordo_graph *g = shared("social/soc-Slashdot0902.txt.zst", &o);
	if (g) {
		run_all(g, "soc-Slashdot0902", 4);
		ordo_graph_free(g);
	}
}
