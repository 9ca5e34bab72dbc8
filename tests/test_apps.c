/*
 * The apps beside sssp: BFS, A*, MST, k-core and connected components. Hand-computed answers on the
 * tiny fixture, the properties the heuristic must have, then the parallel operators with every
 * registered scheduler on generated graphs, each run verified against its exact
 * sequential baseline (apps_check.c; the real graphs are in apps_inputs.c).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apps_check.h"
#include "ordo_astar.h"
#include "ordo_bfs.h"
#include "ordo_cc.h"
#include "ordo_io.h"
#include "ordo_kcore.h"
#include "ordo_mst.h"
#include "ordo_pagerank.h"
#include "ordo_sssp.h"

/* tiny.gr: 0->1 3, 0->2 5, 1->2 1, 1->4 9, 2->3 7, 3->4 2, 4->0 4 */
static struct ordo_graph *tiny(void)
{
	struct ordo_graph *g;
	struct ordo_err e = {0};
	struct ordo_load_opts o;
	ordo_load_opts_init(&o);
	o.coords = ORDO_TEST_DIR "/fixtures/tiny.co";
	cr_assert_eq(ordo_load(ORDO_TEST_DIR "/fixtures/tiny.gr", &o, &g, NULL, &e), 0, "%s",
	             e.msg);
	return g;
}

Test(bfs, tiny_fixture)
{
	struct ordo_graph *g = tiny();
	uint32_t l[5];
	uint64_t visited;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_bfs_seq(g, 0, l, &visited, &e), 0);
	const uint32_t want[5] = {0, 1, 1, 2, 2};
	cr_assert_arr_eq(l, want, sizeof want);
	cr_assert_eq(visited, 5);
	cr_assert_eq(ordo_bfs_seq(g, 3, l, &visited, &e), 0);
	const uint32_t want3[5] = {2, 3, 3, 0, 1};
	cr_assert_arr_eq(l, want3, sizeof want3);
	cr_assert_neq(ordo_bfs_seq(g, 5, l, &visited, &e), 0, "a source out of range is an error");
	char msg[512];
	cr_assert_eq(apps_bfs_all(g, "tiny.gr (directed)", 4, msg, sizeof msg), 0, "%s", msg);
	ordo_graph_free(g);
}

Test(bfs, unreached_nodes_and_every_scheduler)
{
	/* isolated.graph has nodes without arcs: they stay unreached */
	struct ordo_graph *g;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_load(ORDO_TEST_DIR "/fixtures/isolated.graph", NULL, &g, NULL, &e), 0);
	char msg[512];
	cr_assert_eq(apps_bfs_all(g, "isolated.graph", 16, msg, sizeof msg), 0, "%s", msg);
	ordo_graph_free(g);
}

Test(bfs, every_scheduler_on_generated_graphs, .timeout = 600)
{
	/* the last one is directed: pull rounds read its transpose */
	const char *specs[] = {"road:W=150,H=120,seed=4", "rmat:scale=12,ef=8", "grid:W=80,H=60",
	                       "rmat:scale=11,ef=8,sym=0"};
	for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
		struct ordo_graph *g;
		struct ordo_err e = {0};
		cr_assert_eq(ordo_generate(specs[i], 0, &g, NULL, 0, &e), 0, "%s", e.msg);
		char msg[512];
		cr_assert_eq(apps_bfs_all(g, specs[i], 16, msg, sizeof msg), 0, "%s", msg);
		ordo_graph_free(g);
	}
	/* the road graph's first rounds are pushed: its runs with a hand-off did hand off */
	cr_assert_gt(apps_bfs_handoffs, 0, "no frontier run handed off to a scheduler");
}

Test(kruskal, tiny_fixture)
{
	struct ordo_graph *g = tiny(), *s;
	struct ordo_err e = {0};
	struct ordo_build_stats bs;
	cr_assert_eq(ordo_graph_symmetrized(g, 1, &s, &bs, &e), 0);
	cr_assert(s->flags & ORDO_GRAPH_SYMMETRIC);
	cr_assert_eq(s->coord_kind, g->coord_kind, "coordinates survive symmetrising");
	/* undirected: 1-2 1, 3-4 2, 0-1 3, 0-4 4, 0-2 5, 2-3 7, 1-4 9 -> the first four */
	struct ordo_forest f;
	cr_assert_eq(ordo_kruskal(s, &f, &e), 0);
	cr_assert_eq(f.weight, 10);
	cr_assert_eq(f.edges, 4);
	cr_assert_eq(f.components, 1);
	struct ordo_mst *m;
	cr_assert_neq(ordo_mst_create(g, &m, &e), 0, "an asymmetric graph is refused");
	char msg[512];
	cr_assert_eq(apps_mst_all(s, "tiny symmetrised", 16, msg, sizeof msg), 0, "%s", msg);
	ordo_graph_free(s);
	ordo_graph_free(g);
}

/* MST keeps a component's size beside its lock bit in one 32-bit word: a graph of 2^31
 * nodes or more is refused before anything is allocated (the header alone is enough). */
Test(mst, refuses_more_nodes_than_its_size_word_holds)
{
	struct ordo_graph big = {.n = 1u << 31, .flags = ORDO_GRAPH_SYMMETRIC};
	struct ordo_mst *m = NULL;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_mst_create(&big, &m, &e), ORDO_ERANGE, "%s", e.msg);
	cr_assert_null(m);
	cr_assert(strstr(e.msg, "at most 2147483647 nodes") && strstr(e.msg, "has 2147483648"),
	          "%s", e.msg);
}

Test(mst, forests_ties_and_every_scheduler, .timeout = 600)
{
	/* a grid of equal weights (every tie), an R-MAT graph with duplicate arcs and
	 * isolated nodes (a forest of many trees), a road graph */
	const char *specs[] = {"grid:W=60,H=50,lo=1,hi=1", "rmat:scale=12,ef=4",
	                       "road:W=120,H=100,seed=2"};
	for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
		struct ordo_graph *g, *s;
		struct ordo_err e = {0};
		struct ordo_build_stats bs;
		cr_assert_eq(ordo_generate(specs[i], 0, &g, NULL, 0, &e), 0, "%s", e.msg);
		cr_assert_eq(ordo_graph_symmetrized(g, 2, &s, &bs, &e), 0);
		struct ordo_forest f;
		cr_assert_eq(ordo_kruskal(s, &f, &e), 0);
		if (i == 0)
			cr_assert_eq(f.weight, (uint64_t)60 * 50 - 1);
		if (i == 1)
			cr_assert_gt(f.components, 1, "rmat scale 12 ef 4 has isolated nodes");
		char msg[512];
		cr_assert_eq(apps_mst_all(s, specs[i], 16, msg, sizeof msg), 0, "%s", msg);
		ordo_graph_free(s);
		ordo_graph_free(g);
	}
}

Test(mst, a_part_whose_list_holds_the_lightest_fronts, .timeout = 600)
{
	/* the forest of a ladder whose rails' scans run in parts (apps_check.h); the
	 * perturbation build runs it too, checking each list a scan makes */
	struct ordo_graph *l;
	char msg[512];
	cr_assert_eq(apps_ladder(3000, 6, &l, msg, sizeof msg), 0, "%s", msg);
	struct ordo_forest f;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_kruskal(l, &f, &e), 0, "%s", e.msg);
	cr_assert_eq(f.weight, (uint64_t)6 * 2999 + 5 * 1000);
	cr_assert_eq(apps_mst_all(l, "ladder 3000x6", 16, msg, sizeof msg), 0, "%s", msg);
	ordo_graph_free(l);
}

Test(astar, tiny_fixture_on_the_sphere)
{
	struct ordo_graph *g = tiny();
	struct ordo_geo geo;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_geo_init(g, &geo, &e), 0, "%s", e.msg);
	cr_assert(geo.sphere, "DIMACS .co coordinates are microdegrees");
	cr_assert_gt(geo.scale, 0);
	uint64_t d, x;
	cr_assert_eq(ordo_astar_seq(g, &geo, geo.scale, 0, 3, &d, &x, &e), 0);
	cr_assert_eq(d, 11);
	cr_assert_eq(ordo_astar_seq(g, &geo, geo.scale, 3, 1, &d, &x, &e), 0);
	cr_assert_eq(d, 9); /* 3->4->0->1 */
	char msg[512];
	cr_assert_eq(apps_astar_all(g, "tiny", 16, 3, msg, sizeof msg), 0, "%s", msg);
	ordo_geo_free(&geo);
	ordo_graph_free(g);
}

Test(astar, admissibility_check)
{
	struct ordo_graph *g;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_generate("road:W=40,H=30,seed=5", 0, &g, NULL, 0, &e), 0);
	struct ordo_geo geo;
	cr_assert_eq(ordo_geo_init(g, &geo, &e), 0);
	cr_assert(!geo.sphere, "generated road coordinates are planar metres");
	uint64_t bad_count;
	uint32_t bad;
	cr_assert_eq(ordo_astar_admissible(g, &geo, geo.scale, 77, &bad_count, &bad, &e), 0);
	cr_assert_eq(bad_count, 0, "the default scale is admissible");
	cr_assert_eq(ordo_astar_admissible(g, &geo, 10 * geo.scale, 77, &bad_count, &bad, &e), 0);
	cr_assert_gt(bad_count, 0, "ten times the scale overestimates");
	cr_assert_neq(bad, UINT32_MAX);
	/* A* with an overestimating heuristic may be wrong, but never crashes, and with
	 * zero it is Dijkstra */
	uint64_t ref[40 * 30], settled, d, x;
	cr_assert_eq(ordo_dijkstra(g, 0, ref, &settled, &e), 0);
	cr_assert_eq(ordo_astar_seq(g, &geo, 0, 0, 1199, &d, &x, &e), 0);
	cr_assert_eq(d, ref[1199]);
	ordo_geo_free(&geo);
	ordo_graph_free(g);
}

Test(astar, every_scheduler_on_a_generated_road_graph, .timeout = 600)
{
	struct ordo_graph *g;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_generate("road:W=150,H=120,seed=4", 0, &g, NULL, 0, &e), 0);
	char msg[512];
	cr_assert_eq(apps_astar_all(g, "road 150x120", 16, 2, msg, sizeof msg), 0, "%s", msg);
	ordo_graph_free(g);
}

Test(astar, no_coordinates_is_an_error)
{
	struct ordo_graph *g;
	struct ordo_err e = {0};
	struct ordo_load_opts o;
	ordo_load_opts_init(&o);
	o.no_sibling_coords = true; /* tiny.co lies beside it */
	cr_assert_eq(ordo_load(ORDO_TEST_DIR "/fixtures/tiny.gr", &o, &g, NULL, &e), 0);
	struct ordo_geo geo;
	cr_assert_eq(ordo_geo_init(g, &geo, &e), ORDO_EINVAL);
	cr_assert(strstr(e.msg, "coordinates"), "%s", e.msg);
	ordo_graph_free(g);
}

Test(graph, pick_pair_is_reachable_and_deterministic)
{
	struct ordo_graph *g;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_load(ORDO_TEST_DIR "/fixtures/isolated.graph", NULL, &g, NULL, &e), 0);
	uint32_t lvl[64];
	for (uint64_t k = 0; k < 20; k++) {
		uint32_t s, t, s2, t2;
		uint64_t visited;
		cr_assert_eq(ordo_graph_pick_pair(g, 9, k, &s, &t, &e), 0, "%s", e.msg);
		cr_assert_eq(ordo_graph_pick_pair(g, 9, k, &s2, &t2, &e), 0);
		cr_assert(s == s2 && t == t2);
		cr_assert_neq(s, t);
		cr_assert_lt(g->n, 64);
		cr_assert_eq(ordo_bfs_seq(g, s, lvl, &visited, &e), 0);
		cr_assert_neq(lvl[t], ORDO_LEVEL_INF, "target %u unreachable from %u", t, s);
	}
	ordo_graph_free(g);
}

/* ---- k-core ---- */
static struct ordo_graph *edges(const char *name, const char *text)
{
	char path[256];
	snprintf(path, sizeof path, "/tmp/ordo_test_kcore_%s_%d.txt", name, (int)getpid());
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
	struct ordo_load_opts o;
	ordo_load_opts_init(&o);
	o.build.symmetrize = true;
	o.build.dedup = true;
	struct ordo_graph *g;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_load(path, &o, &g, NULL, &e), 0, "%s", e.msg);
	unlink(path);
	return g;
}

Test(kcore, hand_computed_cores)
{
	/* K4 on 0..3 (core 3); 4 hangs on 0, 1 and 5 (core 2 once 5 and 6 are peeled);
	 * the path 4 - 5 - 6 (cores 1); 7 isolated (core 0, named by the header) */
	struct ordo_graph *g =
	    edges("hand", "# written by ordo: 8 nodes, 10 arcs\n0 1\n0 2\n0 3\n1 2\n1 "
	                  "3\n2 3\n4 0\n4 1\n4 5\n5 6\n");
	const uint32_t want[8] = {3, 3, 3, 3, 2, 1, 1, 0};
	uint32_t core[8];
	struct ordo_err e = {0};
	cr_assert_eq(g->n, 8);
	cr_assert_eq(ordo_kcore_seq(g, core, &e), 0);
	for (int v = 0; v < 8; v++)
		cr_expect_eq(core[v], want[v], "node %d: core %u, expected %u", v, core[v],
		             want[v]);
	struct ordo_check c;
	_Atomic uint32_t par[8];
	for (int v = 0; v < 8; v++)
		atomic_store(&par[v], want[v]);
	ordo_kcore_check(g, par, core, &c);
	cr_assert(c.pass);
	cr_assert_eq(c.fig[0].value, 3, "degeneracy %llu", (unsigned long long)c.fig[0].value);
	cr_assert_eq(c.fig[1].value, 4, "max core size %llu", (unsigned long long)c.fig[1].value);
	/* a wrong answer is caught and described */
	atomic_store(&par[5], 2);
	ordo_kcore_check(g, par, core, &c);
	cr_assert(!c.pass);
	cr_assert_str_eq(c.first, "node 5 has core number 2, expected 1");
	char msg[512];
	cr_assert_eq(apps_kcore_all(g, "hand", 16, msg, sizeof msg), 0, "%s", msg);
	ordo_graph_free(g);
}

Test(kcore, out_of_order_peeling_is_still_exact)
{
	/* a - b - c: peeling b first at degree 2 would give it core 2; every core is 1.
	 * A star and a cycle too: the centre's degree is no bound on its core. */
	struct ordo_graph *g = edges("path", "0 1\n1 2\n3 4\n3 5\n3 6\n3 7\n8 9\n9 10\n10 8\n");
	uint32_t core[11];
	struct ordo_err e = {0};
	cr_assert_eq(ordo_kcore_seq(g, core, &e), 0);
	const uint32_t want[11] = {1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2};
	for (int v = 0; v < 11; v++)
		cr_expect_eq(core[v], want[v], "node %d: core %u", v, core[v]);
	char msg[512];
	cr_assert_eq(apps_kcore_all(g, "paths", 16, msg, sizeof msg), 0, "%s", msg);
	ordo_graph_free(g);
}

/* fn (an apps_*_all of a symmetric graph) with every scheduler up to 16 threads on the
 * symmetrised graph of each generator spec */
static void on_symmetrised(const char *const *specs, size_t count,
                           int (*fn)(const struct ordo_graph *, const char *, int, char *, size_t))
{
	for (size_t i = 0; i < count; i++) {
		struct ordo_graph *g, *s;
		struct ordo_err e = {0};
		struct ordo_build_stats bs;
		cr_assert_eq(ordo_generate(specs[i], 0, &g, NULL, 0, &e), 0, "%s", e.msg);
		cr_assert_eq(ordo_graph_symmetrized(g, 2, &s, &bs, &e), 0);
		char msg[512];
		cr_assert_eq(fn(s, specs[i], 16, msg, sizeof msg), 0, "%s", msg);
		ordo_graph_free(s);
		ordo_graph_free(g);
	}
}

Test(kcore, every_scheduler_on_generated_graphs, .timeout = 600)
{
	const char *specs[] = {"rmat:scale=12,ef=8", "road:W=100,H=80,seed=3",
	                       "grid:W=40,H=30,lo=1,hi=1"};
	on_symmetrised(specs, sizeof specs / sizeof *specs, apps_kcore_all);
}

Test(cc, hand_computed_components)
{
	/* {0,1,2} a triangle, {3,4,5,6,7} a star around 7, {8} alone, {9,10} a pair, {11} a
	 * self-loop only: labels are each component's smallest id */
	struct ordo_graph *g = edges("parts", "0 1\n1 2\n2 0\n7 3\n7 4\n7 5\n7 6\n10 9\n11 11\n");
	uint32_t label[12];
	uint64_t k;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_cc_seq(g, label, &k, &e), 0);
	const uint32_t want[12] = {0, 0, 0, 3, 3, 3, 3, 3, 8, 9, 9, 11};
	for (int v = 0; v < 12; v++)
		cr_expect_eq(label[v], want[v], "node %d: label %u", v, label[v]);
	cr_expect_eq(k, 5, "%llu components", (unsigned long long)k);
	/* the check catches a wrong label, and counts */
	_Atomic uint32_t par[12];
	for (int v = 0; v < 12; v++)
		par[v] = want[v];
	struct ordo_check c;
	ordo_check_init(&c);
	ordo_cc_check(g, par, label, &c);
	cr_expect(c.pass);
	uint64_t fig;
	cr_expect(ordo_check_get(&c, "largest", &fig) && fig == 5);
	par[5] = 0;
	ordo_check_init(&c);
	ordo_cc_check(g, par, label, &c);
	cr_expect(!c.pass && c.mismatches == 1);
	char msg[512];
	cr_assert_eq(apps_cc_all(g, "hand", 16, msg, sizeof msg), 0, "%s", msg);
	ordo_graph_free(g);
}

Test(cc, every_scheduler_on_generated_graphs, .timeout = 600)
{
	/* rmat: many small components and isolated nodes; road: one component whose ids
	 * make many local minima; a grid numbered row by row: one minimum, a long wave */
	const char *specs[] = {"rmat:scale=12,ef=4", "road:W=100,H=80,seed=3",
	                       "grid:W=40,H=30,lo=1,hi=1"};
	on_symmetrised(specs, sizeof specs / sizeof *specs, apps_cc_all);
}

Test(pagerank, hand_computed_ranks_and_the_check)
{
	/* a 3-cycle: every rank 1/3; a star 0 -> {1, 2, 3} whose leaves have no arcs: the
	 * centre keeps (1 - d) / 4 and each leaf adds d / 3 of it, normalised */
	struct ordo_graph *cyc = NULL, *star = NULL;
	struct ordo_err e = {0};
	struct ordo_load_opts o;
	ordo_load_opts_init(&o);
	const char *texts[2] = {"0 1\n1 2\n2 0\n", "0 1\n0 2\n0 3\n"};
	struct ordo_graph **gs[2] = {&cyc, &star};
	for (int i = 0; i < 2; i++) {
		char path[128];
		snprintf(path, sizeof path, "/tmp/ordo_test_pr_%d_%d.txt", i, (int)getpid());
		FILE *f = fopen(path, "w");
		cr_assert_not_null(f);
		fputs(texts[i], f);
		fclose(f);
		cr_assert_eq(ordo_load(path, &o, gs[i], NULL, &e), 0, "%s", e.msg);
		unlink(path);
	}
	double r[4];
	uint64_t it, tasks;
	cr_assert_eq(ordo_pagerank_reference(cyc, 0.85, 1e-9, r, &it, NULL, NULL, &e), 0);
	for (int v = 0; v < 3; v++)
		cr_expect_float_eq(r[v], 1.0 / 3, 1e-9, "node %d: %g", v, r[v]);
	const double c = 0.15 / 4, leaf = c + 0.85 * c / 3, sum = c + 3 * leaf;
	cr_assert_eq(ordo_pagerank_reference(star, 0.85, 1e-9, r, &it, NULL, NULL, &e), 0);
	cr_expect_float_eq(r[0], c / sum, 1e-9, "centre %g", r[0]);
	for (int v = 1; v < 4; v++)
		cr_expect_float_eq(r[v], leaf / sum, 1e-9, "leaf %d: %g", v, r[v]);
	cr_assert_eq(ordo_pagerank_seq(star, 0.85, ordo_pagerank_tau(4, 0.85, 1e-9), r, &tasks, &e),
	             0);
	cr_expect_float_eq(r[0], c / sum, 1e-9);
	cr_expect_eq(tasks, 4, "the star's push takes each node once: %llu",
	             (unsigned long long)tasks);
	/* the check: within the tolerance passes, a rank moved by more fails */
	_Atomic double got[4];
	const double ref[4] = {c / sum, leaf / sum, leaf / sum, leaf / sum};
	for (int v = 0; v < 4; v++)
		got[v] = ref[v];
	struct ordo_check k;
	ordo_check_init(&k);
	ordo_pagerank_check(4, got, ref, 1e-6, &k);
	double l1;
	cr_expect(k.pass && ordo_check_get_real(&k, "l1_error", &l1) && l1 == 0);
	got[2] = ref[2] + 2e-6;
	ordo_check_init(&k);
	ordo_pagerank_check(4, got, ref, 1e-6, &k);
	cr_expect(!k.pass && strstr(k.first, "above the tolerance"), "%s", k.first);
	char msg[512];
	cr_assert_eq(apps_pagerank_all(star, "star", 16, 1e-6, NULL, msg, sizeof msg), 0, "%s",
	             msg);
	cr_assert_eq(apps_pagerank_all(cyc, "cycle", 16, 1e-6, NULL, msg, sizeof msg), 0, "%s",
	             msg);
	ordo_graph_free(cyc);
	ordo_graph_free(star);
}

Test(pagerank, every_scheduler_on_generated_graphs, .timeout = 600)
{
	/* rmat: skewed degrees, dangling nodes; road: a high diameter */
	const char *specs[] = {"rmat:scale=8,ef=4", "road:W=20,H=15,seed=3"};
	for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
		struct ordo_graph *g;
		struct ordo_err e = {0};
		cr_assert_eq(ordo_generate(specs[i], 0, &g, NULL, 0, &e), 0, "%s", e.msg);
		char msg[512];
		cr_assert_eq(apps_pagerank_all(g, specs[i], 16, 1e-2, NULL, msg, sizeof msg), 0,
		             "%s", msg);
		ordo_graph_free(g);
	}
}

/* The pull's Gauss-Seidel sweeps: float shares exactly where their rounding is a
 * sixteenth of the stopping step or less, and either way within the tolerance at 1, 2
 * and 4 threads; at one thread (deterministic) no more sweeps than the Jacobi power
 * iteration needs for the same rule. */
static void pull_case(const char *spec, bool directed)
{
	struct ordo_graph *g, *gt;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_generate(spec, 0, &g, NULL, 0, &e), 0, "%s", e.msg);
	cr_assert_eq(ordo_graph_transposed(g, 2, &gt, &e), 0, "%s", e.msg);
	const uint32_t n = g->n;
	uint32_t *deg = malloc(n * sizeof *deg);
	double *ref = malloc(n * sizeof *ref);
	_Atomic double *rank = malloc(n * sizeof *rank);
	cr_assert(deg && ref && rank);
	bool differ = false; /* some in-degree is not the out-degree */
	for (uint32_t v = 0; v < n; v++) {
		deg[v] = (uint32_t)ordo_graph_degree(g, v);
		differ = differ || deg[v] != ordo_graph_degree(gt, v);
	}
	cr_assert_eq(differ, directed, "%s", spec);
	const double tols[] = {1e-2, 1e-4, 5e-5, 1e-7};
	/* plain Gauss-Seidel, the default over-relaxation, and one far past where it
	 * converges (the sweeps fall back to Gauss-Seidel) */
	const double omegas[] = {1, ORDO_PAGERANK_OMEGA, 1.95};
	for (size_t i = 0; i < sizeof tols / sizeof *tols; i++) {
		uint64_t it, at_tol;
		cr_assert_eq(ordo_pagerank_reference(g, 0.85, tols[i], ref, &it, &at_tol, NULL, &e),
		             0);
		uint64_t sweeps_at[3] = {0};
		for (int oi = 0; oi < 3; oi++)
			for (int T = 1; T <= 4; T *= 2) {
				struct ordo_topology topo;
				cr_assert_eq(ordo_topology_init(&topo, T, 0, ORDO_BIND_NONE, &e), 0,
				             "%s", e.msg);
				struct ordo_pagerank_stats st;
				cr_assert_eq(ordo_pagerank_pull(gt, deg, &topo, 0.85, tols[i],
				                                omegas[oi], rank, &st, &e),
				             0, "%s", e.msg);
				ordo_topology_free(&topo);
				cr_expect_eq(st.float_shares,
				             ordo_pagerank_float_shares(0.85, tols[i]));
				struct ordo_check c;
				ordo_check_init(&c);
				ordo_pagerank_check(n, rank, ref, tols[i], &c);
				cr_expect(c.pass, "%s, tolerance %g, omega %g, %d threads: %s",
				          spec, tols[i], omegas[oi], T, c.first);
				if (T > 1)
					continue;
				sweeps_at[oi] = st.sweeps;
				cr_expect(
				    st.fell_back == (oi == 2 && st.sweeps > 3),
				    "%s, tolerance %g, omega %g: fell back %d after %llu sweeps",
				    spec, tols[i], omegas[oi], st.fell_back,
				    (unsigned long long)st.sweeps);
				cr_expect_eq(st.omega, st.fell_back ? 1 : omegas[oi]);
				if (oi < 2)
					cr_expect(st.sweeps >= 1 && st.sweeps <= at_tol,
					          "tolerance %g, omega %g: %llu sweeps, the power "
					          "iteration %llu",
					          tols[i], omegas[oi],
					          (unsigned long long)st.sweeps,
					          (unsigned long long)at_tol);
			}
		/* over-relaxed, no more sweeps than Gauss-Seidel, and fewer to a fine tolerance */
		cr_expect(
		    sweeps_at[1] <= sweeps_at[0] && (tols[i] > 1e-6 || sweeps_at[1] < sweeps_at[0]),
		    "%s, tolerance %g: %llu sweeps over-relaxed, %llu Gauss-Seidel", spec, tols[i],
		    (unsigned long long)sweeps_at[1], (unsigned long long)sweeps_at[0]);
	}
	struct ordo_topology topo;
	cr_assert_eq(ordo_topology_init(&topo, 1, 0, ORDO_BIND_NONE, &e), 0, "%s", e.msg);
	for (int k = 0; k < 2; k++)
		cr_expect_eq(
		    ordo_pagerank_pull(gt, deg, &topo, 0.85, 1e-4, k ? 2 : 0, rank, NULL, &e),
		    ORDO_EINVAL, "omega %d", 2 * k);
	ordo_topology_free(&topo);
	free(deg), free(ref), free((void *)rank);
	ordo_graph_free(gt);
	ordo_graph_free(g);
}

Test(pagerank, pull_sweeps_meet_the_tolerance_with_either_share, .timeout = 120)
{
	cr_expect(ordo_pagerank_float_shares(0.85, 1e-2));
	cr_expect(ordo_pagerank_float_shares(0.85, 1e-4));
	cr_expect(!ordo_pagerank_float_shares(0.85, 5e-5));
	cr_expect(!ordo_pagerank_float_shares(0.85, 1e-6));
	cr_expect(!ordo_pagerank_float_shares(0.99, 1e-2), "d = 0.99 leaves a step of 5e-7");
	/* symmetric (d / deg(v) from the offsets) and directed (from an array) */
	const char *specs[] = {"rmat:scale=12,ef=8", "rmat:scale=12,ef=8,sym=0"};
	for (int gi = 0; gi < 2; gi++)
		pull_case(specs[gi], gi == 1);
}

/* Every app on compressed copies of the fixtures and of generated graphs: the same
 * sequential answers as the plain graph, and every scheduler verified. */
Test(compressed, every_app_on_fixtures_and_generated_graphs, .timeout = 600)
{
	const char *files[] = {"tiny.gr", "undirected.graph", "tiny.mtx", "isolated.graph",
	                       "sparse.txt"};
	const char *specs[] = {"road:W=60,H=50,seed=3", "rmat:scale=11,ef=8",
	                       "grid:W=30,H=20,lo=1,hi=1"};
	for (size_t i = 0; i < sizeof files / sizeof *files + sizeof specs / sizeof *specs; i++) {
		struct ordo_graph *g, *s, *gc, *sc;
		struct ordo_err e = {0};
		struct ordo_build_stats bs;
		const bool file = i < sizeof files / sizeof *files;
		const char *name = file ? files[i] : specs[i - sizeof files / sizeof *files];
		if (file) {
			char p[512];
			snprintf(p, sizeof p, ORDO_TEST_DIR "/fixtures/%s", name);
			cr_assert_eq(ordo_load(p, NULL, &g, NULL, &e), 0, "%s", e.msg);
		} else {
			cr_assert_eq(ordo_generate(name, 0, &g, NULL, 0, &e), 0, "%s", e.msg);
		}
		cr_assert_eq(ordo_graph_symmetrized(g, 2, &s, &bs, &e), 0);
		cr_assert_eq(ordo_graph_compress(g, 2, &gc, &e), 0, "%s", e.msg);
		cr_assert_eq(ordo_graph_compress(s, 2, &sc, &e), 0, "%s", e.msg);
		char msg[512];
		cr_assert_eq(apps_same_answers(g, gc, name, msg, sizeof msg), 0, "%s", msg);
		cr_assert_eq(apps_same_answers(s, sc, name, msg, sizeof msg), 0, "%s", msg);
		cr_assert_eq(apps_bfs_all(gc, name, 4, msg, sizeof msg), 0, "%s", msg);
		cr_assert_eq(apps_mst_all(sc, name, 4, msg, sizeof msg), 0, "%s", msg);
		cr_assert_eq(apps_kcore_all(sc, name, 4, msg, sizeof msg), 0, "%s", msg);
		cr_assert_eq(apps_cc_all(sc, name, 4, msg, sizeof msg), 0, "%s", msg);
		cr_assert_eq(apps_pagerank_all(gc, name, 4, 1e-2, NULL, msg, sizeof msg), 0, "%s",
		             msg);
		if (g->coord_kind != ORDO_COORD_NONE && ordo_graph_weighted(g))
			cr_assert_eq(apps_astar_all(gc, name, 4, 2, msg, sizeof msg), 0, "%s", msg);
		ordo_graph_free(gc);
		ordo_graph_free(sc);
		ordo_graph_free(s);
		ordo_graph_free(g);
	}
}
