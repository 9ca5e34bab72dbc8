/* apps_check.c - see apps_check.h. */
#include "apps_check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ordo_astar.h"
#include "ordo_bfs.h"
#include "ordo_cc.h"
#include "ordo_edges.h"
#include "ordo_kcore.h"
#include "ordo_mst.h"
#include "ordo_pagerank.h"
#include "ordo_sssp.h"

__attribute__((format(printf, 3, 4))) static int fail(char *msg, size_t cap, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, cap, fmt, ap);
	va_end(ap);
	return -1;
}
#define FAIL(...) fail(msg, cap, __VA_ARGS__)

/* Calls run(ops, topo, lookahead, user) for every scheduler and thread count; each
 * thread count also takes one depth of the prefetch pipeline (none, default, 1, the deepest). */
typedef int (*one_run)(const struct ordo_scheduler_ops *ops, struct ordo_scheduler *wl,
                       const struct ordo_exec_opts *o, void *user, char *msg, size_t cap);

static int every_scheduler(const char *what, int maxT, const char *overrides, one_run fn,
                           void *user, char *msg, size_t cap)
{
	for (int i = 0; i < ordo_scheduler_count(); i++) {
		const struct ordo_scheduler_ops *ops = ordo_scheduler_at(i);
		for (int T = 1; T <= maxT; T = T == 4 ? 16 : T * 2) {
			struct ordo_err e = {0};
			struct ordo_topology topo;
			if (ordo_topology_init(&topo, T, 0, ORDO_BIND_NONE, &e))
				return FAIL("topology: %s", e.msg);
			struct ordo_scheduler wl;
			if (ordo_scheduler_create(ops->name, overrides, &topo, 7, &wl, &e)) {
				ordo_topology_free(&topo);
				return FAIL("%s: %s", ops->name, e.msg);
			}
			const unsigned la = T == 1   ? ORDO_LOOKAHEAD_OFF
			                    : T == 2 ? 0
			                    : T == 4 ? 1
			                             : ORDO_MAX_LOOKAHEAD;
			struct ordo_exec_opts o = {.topo = &topo, .seed = 3, .lookahead = la};
			char inner[400] = "";
			int rc = fn(ops, &wl, &o, user, inner, sizeof inner);
			ordo_scheduler_destroy(&wl);
			ordo_topology_free(&topo);
			if (rc)
				return FAIL("%s with %s at %d threads: %s", what, ops->name, T,
				            inner);
		}
	}
	return 0;
}

/* ---- BFS ---- */

struct bfs_job {
	const struct ordo_graph *g;
	uint32_t src;
	uint32_t *ref;
	uint64_t visited;
	_Atomic uint32_t *level;
};

static int bfs_one(const struct ordo_scheduler_ops *ops, struct ordo_scheduler *wl,
                   const struct ordo_exec_opts *o, void *user, char *msg, size_t cap)
{
	(void)ops;
	struct bfs_job *j = user;
	struct ordo_err e = {0};
	struct ordo_run_stats st;
	if (ordo_bfs(j->g, j->src, wl, o, j->level, &st, &e))
		return FAIL("%s", e.msg);
	struct ordo_check c;
	ordo_bfs_check(j->g, j->level, j->ref, &c);
	if (!c.pass)
		return FAIL("%llu wrong levels (first: %s)", (unsigned long long)c.mismatches,
		            c.first);
	if (st.tasks - st.empty < j->visited)
		return FAIL("%llu useful tasks for %llu visited nodes",
		            (unsigned long long)(st.tasks - st.empty),
		            (unsigned long long)j->visited);
	return 0;
}

uint64_t apps_bfs_handoffs;

/* The frontier mode (ordo_bfs_frontier) from three sources, each direction rule, at 1,
 * 2, 4 and maxT threads: the levels, the levels set (every reached node but the source,
 * once), the rounds each way (none against a forced direction), and with push rounds
 * only, exactly the arcs the queue BFS examines (each visited node's out-arcs once). */
static int bfs_frontier_all(const struct ordo_graph *g, const char *what, int maxT, uint32_t *ref,
                            _Atomic uint32_t *level, char *msg, size_t cap)
{
	struct ordo_err e = {0};
	struct ordo_graph *gt = NULL;
	if (!(g->flags & ORDO_GRAPH_SYMMETRIC) && ordo_graph_transposed(g, 2, &gt, &e))
		return FAIL("%s: transpose: %s", what, e.msg);
	const struct ordo_graph *in = gt ? gt : g;
	static const char *const dirs[] = {"auto", "rounds-push", "pull", "auto, hand-off"};
	int rc = 0;
	for (uint64_t k = 0; k < 3 && !rc; k++) {
		const uint32_t src = ordo_graph_pick_source(g, 5, k);
		uint64_t visited, arcs;
		if (ordo_bfs_seq_work(g, src, ref, &visited, &arcs, &e)) {
			rc = FAIL("%s", e.msg);
			break;
		}
		for (int d = 0; d < 4 && !rc; d++)
			for (int T = 1; T <= maxT && !rc;
			     T = T == 4 ? (maxT > 4 ? maxT : 5) : T * 2) {
				struct ordo_topology topo;
				struct ordo_scheduler wl;
				struct ordo_frontier_space *sp = NULL;
				if (ordo_topology_init(&topo, T, 0, ORDO_BIND_NONE, &e)) {
					rc = FAIL("topology: %s", e.msg);
					break;
				}
				/* d == 3: hand the frontier over after the first round to a
				 * scheduler (two kinds, by thread count), from a space reused
				 * across the sources */
				const char *spec = T & 1 ? "obim:delta=0" : "smq";
				if (ordo_scheduler_create(spec, NULL, &topo, 7, &wl, &e) ||
				    ordo_frontier_space_create(g->n, T, &sp, &e)) {
					ordo_topology_free(&topo);
					rc = FAIL("%s", e.msg);
					break;
				}
				const struct ordo_frontier_opts fo = {
				    .topo = &topo,
				    .direction = d == 1   ? ORDO_FRONTIER_PUSH
				                 : d == 2 ? ORDO_FRONTIER_PULL
				                          : ORDO_FRONTIER_AUTO,
				    .space = d >= 2 ? sp : NULL,
				    .handoff_round = d == 3 ? 1 : 0,
				    .handoff_share = 1.0};
				const struct ordo_exec_opts eo = {.topo = &topo, .seed = 3};
				struct ordo_bfs_stats bs;
				const struct ordo_frontier_stats *st = &bs.rounds;
				struct ordo_check c;
				if (ordo_bfs_frontier(g, in, src, &fo, &wl, &eo, level, &bs, &e))
					rc = FAIL("%s", e.msg);
				else if (ordo_bfs_check(g, level, ref, &c), !c.pass)
					rc = FAIL("%llu wrong levels (first: %s)",
					          (unsigned long long)c.mismatches, c.first);
				else if ((d < 3 || !st->handed_off) &&
				         (st->added + 1 != visited || st->handed_off ||
				          bs.tail.pushes))
					rc = FAIL("%llu levels set for %llu visited nodes, %llu "
					          "handed off",
					          (unsigned long long)st->added + 1,
					          (unsigned long long)visited,
					          (unsigned long long)st->handed_off);
				else if (d == 3 && st->handed_off && T > 1 &&
				         (st->handed_off != st->added ||
				          bs.tail_set != bs.tail.pushes - st->handed_off ||
				          st->added + 1 + bs.tail_set < visited))
					rc = FAIL("%llu levels set in the rounds, %llu handed off, "
					          "%llu pushed by the tail, %llu visited",
					          (unsigned long long)st->added + 1,
					          (unsigned long long)st->handed_off,
					          (unsigned long long)bs.tail.pushes,
					          (unsigned long long)visited);
				else if (d == 3 && st->handed_off && T == 1 &&
				         (bs.tail.pushes || st->added + 1 + bs.tail_set != visited))
					/* one worker's tail is a queue: every node set once */
					rc = FAIL(
					    "%llu levels set in the rounds, %llu by the queue, "
					    "%llu tasks pushed, %llu visited",
					    (unsigned long long)st->added + 1,
					    (unsigned long long)bs.tail_set,
					    (unsigned long long)bs.tail.pushes,
					    (unsigned long long)visited);
				else if ((d == 1 && st->rounds_pull) || (d == 2 && st->rounds_push))
					rc = FAIL("rounds %u push, %u pull", st->rounds_push,
					          st->rounds_pull);
				else if (d == 1 && st->arcs != arcs)
					rc = FAIL(
					    "push rounds examined %llu arcs, the queue BFS %llu",
					    (unsigned long long)st->arcs, (unsigned long long)arcs);
				if (rc)
					snprintf(msg + strlen(msg), cap - strlen(msg),
					         " (%s, frontier %s, %d threads, source %u)", what,
					         dirs[d], T, src);
				apps_bfs_handoffs += st->handed_off != 0;
				ordo_frontier_space_free(sp);
				ordo_scheduler_destroy(&wl);
				ordo_topology_free(&topo);
			}
	}
	ordo_graph_free(gt);
	return rc;
}

int apps_bfs_all(const struct ordo_graph *g, const char *what, int maxT, char *msg, size_t cap)
{
	struct bfs_job j = {g, ordo_graph_pick_source(g, 1, 0), malloc((g->n + 1) * 4ul), 0,
	                    malloc((g->n + 1) * 4ul)};
	struct ordo_err e = {0};
	int rc = -1;
	if (!j.ref || !j.level)
		FAIL("out of memory");
	else if (j.src == UINT32_MAX)
		FAIL("%s has no arc", what);
	else if (ordo_bfs_seq(g, j.src, j.ref, &j.visited, &e))
		FAIL("%s", e.msg);
	else if (!(rc = every_scheduler(what, maxT, NULL, bfs_one, &j, msg, cap)))
		rc = bfs_frontier_all(g, what, maxT, j.ref, j.level, msg, cap);
	free(j.ref);
	free((void *)j.level);
	return rc;
}

/* ---- A* ---- */

struct astar_job {
	const struct ordo_graph *g;
	struct ordo_geo geo;
	uint32_t src, dst;
	uint64_t want;
	_Atomic uint64_t *dist;
};

static int astar_one(const struct ordo_scheduler_ops *ops, struct ordo_scheduler *wl,
                     const struct ordo_exec_opts *o, void *user, char *msg, size_t cap)
{
	(void)ops;
	struct astar_job *j = user;
	struct ordo_err e = {0};
	struct ordo_run_stats st;
	uint64_t got;
	if (ordo_astar(j->g, &j->geo, j->geo.scale, j->src, j->dst, wl, o, j->dist, &got, &st, &e))
		return FAIL("%s", e.msg);
	if (got != j->want)
		return FAIL("%u->%u: distance %llu, Dijkstra %llu", j->src, j->dst,
		            (unsigned long long)got, (unsigned long long)j->want);
	return 0;
}

int apps_astar_all(const struct ordo_graph *g, const char *what, int maxT, int pairs, char *msg,
                   size_t cap)
{
	struct astar_job j = {.g = g};
	struct ordo_err e = {0};
	uint64_t *ref = malloc((g->n + 1) * 8ul), settled, seq, expanded;
	j.dist = malloc((g->n + 1) * 8ul);
	int rc = -1;
	if (!ref || !j.dist) {
		FAIL("out of memory");
		goto out;
	}
	if (ordo_geo_init(g, &j.geo, &e)) {
		FAIL("%s: %s", what, e.msg);
		goto out;
	}
	/* the default scale is consistent on every arc, for every target: h(u) <= w + h(v)
	 * (checked towards a few targets) */
	for (int k = 0; k < 3; k++) {
		uint32_t t = (uint32_t)((uint64_t)g->n * (2 * k + 1) / 6);
		const double *tp = j.geo.p + 3 * (size_t)t;
		for (uint32_t u = 0; u < g->n; u++) {
			uint32_t v, w;
			for (struct ordo_arcs a = ordo_graph_arcs(g, u);
			     ordo_arcs_next(&a, &v, &w);) {
				uint64_t hu = ordo_geo_h(&j.geo, j.geo.scale, u, tp);
				uint64_t hv = ordo_geo_h(&j.geo, j.geo.scale, v, tp);
				if (hu > w + hv) {
					FAIL("%s: heuristic inconsistent at arc %u->%u towards %u",
					     what, u, v, t);
					goto out_geo;
				}
			}
		}
	}
	for (int p = 0; p < pairs; p++) {
		if (ordo_graph_pick_pair(g, 1, (uint64_t)p, &j.src, &j.dst, &e) ||
		    ordo_dijkstra(g, j.src, ref, &settled, &e) ||
		    ordo_astar_seq(g, &j.geo, j.geo.scale, j.src, j.dst, &seq, &expanded, &e)) {
			FAIL("%s: %s", what, e.msg);
			goto out_geo;
		}
		j.want = ref[j.dst];
		if (seq != j.want) {
			FAIL("%s: sequential A* %u->%u gives %llu, Dijkstra %llu", what, j.src,
			     j.dst, (unsigned long long)seq, (unsigned long long)j.want);
			goto out_geo;
		}
		if (expanded > settled) {
			FAIL("%s: A* expanded %llu nodes, more than Dijkstra's %llu", what,
			     (unsigned long long)expanded, (unsigned long long)settled);
			goto out_geo;
		}
		if ((rc = every_scheduler(what, maxT, NULL, astar_one, &j, msg, cap)))
			goto out_geo;
	}
	rc = 0;
out_geo:
	ordo_geo_free(&j.geo);
out:
	free(ref);
	free((void *)j.dist);
	return rc;
}

/* ---- MST ---- */

struct mst_job {
	struct ordo_mst *m;
	struct ordo_forest ref;
	uint64_t loops; /* scans shared with the workers (ordo_task_loop), all runs */
};

static int mst_one(const struct ordo_scheduler_ops *ops, struct ordo_scheduler *wl,
                   const struct ordo_exec_opts *o, void *user, char *msg, size_t cap)
{
	(void)ops;
	struct mst_job *j = user;
	struct ordo_err e = {0};
	struct ordo_run_stats st;
	struct ordo_forest f;
	if (ordo_mst_run(j->m, wl, o, &f, &st, &e))
		return FAIL("%s", e.msg);
	struct ordo_check c;
	ordo_mst_check(j->m, &j->ref, &c);
	if (!c.pass)
		return FAIL("%llu mismatches (first: %s)", (unsigned long long)c.mismatches,
		            c.first);
	if (f.weight != j->ref.weight || f.components != j->ref.components)
		return FAIL("run reports weight %llu, %llu components; Kruskal %llu, %llu",
		            (unsigned long long)f.weight, (unsigned long long)f.components,
		            (unsigned long long)j->ref.weight,
		            (unsigned long long)j->ref.components);
	/* every first task runs once (one that finds every range claimed is empty), and a
	 * forest with an edge took a useful task */
	const uint64_t n = j->ref.edges + j->ref.components, sweep = ordo_mst_sweep_nodes(n);
	if (st.tasks < (n + sweep - 1) / sweep)
		return FAIL("%llu tasks, fewer than the %llu first tasks",
		            (unsigned long long)st.tasks,
		            (unsigned long long)((n + sweep - 1) / sweep));
	if (f.edges && st.tasks == st.empty)
		return FAIL("%llu merges and no useful task", (unsigned long long)f.edges);
	j->loops += st.task_loops;
	if (st.loop_items_helped && o->topo->nthreads == 1)
		return FAIL("%llu items helped at one thread",
		            (unsigned long long)st.loop_items_helped);
	return 0;
}

int apps_mst_all(const struct ordo_graph *g, const char *what, int maxT, char *msg, size_t cap)
{
	struct mst_job j = {0};
	struct ordo_err e = {0};
	if (ordo_kruskal(g, &j.ref, &e) || ordo_mst_create(g, &j.m, &e))
		return FAIL("%s: %s", what, e.msg);
	int rc = every_scheduler(what, maxT, NULL, mst_one, &j, msg, cap);
	if (!rc && j.ref.edges >= 10000) {
		/* again with every component past 1024 nodes keeping a heap of its fronts
		 * instead of a list (ORDO_MST_HEAP_AT: only a giant's, on big graphs) */
		char heaps[160];
		snprintf(heaps, sizeof heaps, "%s, heaps", what);
		ordo_mst_set_heap_at(j.m, 0);
		rc = every_scheduler(heaps, maxT, NULL, mst_one, &j, msg, cap);
	}
	/* a scan is shared once a component's segments make two items (MST_SCAN_CHUNK,
	 * lib/mst_cand.c): a forest of 10,000 edges has such a component, whose scans
	 * are shared under most schedules, so some of its runs must have been */
	if (!rc && j.ref.edges >= 10000 && !j.loops)
		rc = FAIL("%s: a forest of %llu edges, and no component's scan was shared", what,
		          (unsigned long long)j.ref.edges);
	ordo_mst_free(j.m);
	return rc;
}

/* ---- k-core ---- */

struct kcore_job {
	const struct ordo_graph *g;
	uint32_t *ref;
	_Atomic uint32_t *core;
};

static int kcore_one(const struct ordo_scheduler_ops *ops, struct ordo_scheduler *wl,
                     const struct ordo_exec_opts *o, void *user, char *msg, size_t cap)
{
	(void)ops;
	struct kcore_job *j = user;
	struct ordo_err e = {0};
	struct ordo_run_stats st;
	if (ordo_kcore(j->g, wl, o, j->core, &st, &e))
		return FAIL("%s", e.msg);
	struct ordo_check c;
	ordo_kcore_check(j->g, j->core, j->ref, &c);
	if (!c.pass)
		return FAIL("%llu mismatches (first: %s)", (unsigned long long)c.mismatches,
		            c.first);
	/* every node is recomputed at least once (it starts pending) */
	if (st.tasks - st.empty < j->g->n)
		return FAIL("%llu useful tasks for %u nodes",
		            (unsigned long long)(st.tasks - st.empty), j->g->n);
	return 0;
}

/* Level-synchronous peeling at 1, 2, 4 and maxT threads (each run three times: the
 * threads' races differ): the core numbers, every node peeled once and every arc
 * examined once (a decrement taken back is counted apart, and only with threads). */
static int kcore_peel_all(const struct ordo_graph *g, const char *what, int maxT,
                          struct kcore_job *j, char *msg, size_t cap)
{
	for (int T = 1; T <= maxT; T = T == 4 ? (maxT > 4 ? maxT : 5) : T * 2)
		for (int rep = 0; rep < 3; rep++) {
			struct ordo_err e = {0};
			struct ordo_topology topo;
			if (ordo_topology_init(&topo, T, 0, ORDO_BIND_NONE, &e))
				return FAIL("topology: %s", e.msg);
			struct ordo_kcore_stats st;
			int rc = ordo_kcore_peel(g, &topo, j->core, &st, &e);
			ordo_topology_free(&topo);
			struct ordo_check c;
			if (rc)
				return FAIL("%s, peeling at %d threads: %s", what, T, e.msg);
			ordo_kcore_check(g, j->core, j->ref, &c);
			if (!c.pass)
				return FAIL(
				    "%s, peeling at %d threads: %llu mismatches (first: %s)", what,
				    T, (unsigned long long)c.mismatches, c.first);
			if (st.peeled != g->n || st.arcs != g->m || (T == 1 && st.undone))
				return FAIL(
				    "%s, peeling at %d threads: %llu nodes peeled, %llu arcs "
				    "examined, %llu taken back; n = %u, m = %llu",
				    what, T, (unsigned long long)st.peeled,
				    (unsigned long long)st.arcs, (unsigned long long)st.undone,
				    g->n, (unsigned long long)g->m);
		}
	return 0;
}

int apps_kcore_all(const struct ordo_graph *g, const char *what, int maxT, char *msg, size_t cap)
{
	struct kcore_job j = {g, malloc((g->n + 1) * sizeof *j.ref),
	                      malloc((g->n + 1) * sizeof *j.core)};
	struct ordo_err e = {0};
	int rc;
	if (!j.ref || !j.core)
		rc = FAIL("%s: out of memory", what);
	else if (ordo_kcore_seq(g, j.ref, &e))
		rc = FAIL("%s: %s", what, e.msg);
	else if (!(rc = every_scheduler(what, maxT, NULL, kcore_one, &j, msg, cap)))
		rc = kcore_peel_all(g, what, maxT, &j, msg, cap);
	free(j.ref);
	free((void *)j.core);
	return rc;
}

/* ---- connected components ---- */

struct cc_job {
	const struct ordo_graph *g;
	uint32_t *ref;
	_Atomic uint32_t *label;
	uint64_t active; /* nodes with arcs: label propagation runs each once at least */
};

static int cc_verdict(const struct cc_job *j, char *msg, size_t cap)
{
	struct ordo_check c;
	ordo_check_init(&c);
	ordo_cc_check(j->g, j->label, j->ref, &c);
	if (!c.pass)
		return FAIL("%llu mismatches (first: %s)", (unsigned long long)c.mismatches,
		            c.first);
	return 0;
}

static int cc_one(const struct ordo_scheduler_ops *ops, struct ordo_scheduler *wl,
                  const struct ordo_exec_opts *o, void *user, char *msg, size_t cap)
{
	(void)ops;
	struct cc_job *j = user;
	struct ordo_err e = {0};
	struct ordo_run_stats st;
	if (ordo_cc_lp(j->g, wl, o, j->label, &st, &e))
		return FAIL("%s", e.msg);
	if (cc_verdict(j, msg, cap))
		return -1;
	if (st.tasks - st.empty < j->active)
		return FAIL("%llu useful tasks for %llu nodes with arcs",
		            (unsigned long long)(st.tasks - st.empty),
		            (unsigned long long)j->active);
	return 0;
}

/* Afforest at 1, 2, 4 and maxT threads, with 0 (every arc linked), 1 and 2 sampling
 * rounds, each twice (the links race differently): the labels, and every node counted
 * once with each arc it linked along. */
static int cc_afforest_all(const char *what, int maxT, struct cc_job *j, char *msg, size_t cap)
{
	for (int T = 1; T <= maxT; T = T == 4 ? (maxT > 4 ? maxT : 5) : T * 2)
		for (unsigned rounds = 0; rounds <= 2; rounds++)
			for (int rep = 0; rep < 2; rep++) {
				struct ordo_err e = {0};
				struct ordo_topology topo;
				if (ordo_topology_init(&topo, T, 0, ORDO_BIND_NONE, &e))
					return FAIL("topology: %s", e.msg);
				struct ordo_cc_stats st;
				int rc = ordo_cc_afforest(j->g, &topo, rounds, j->label, &st, &e);
				ordo_topology_free(&topo);
				if (rc)
					return FAIL("%s, Afforest at %d threads: %s", what, T,
					            e.msg);
				char inner[300];
				if (cc_verdict(j, inner, sizeof inner))
					return FAIL("%s, Afforest (%u rounds) at %d threads: %s",
					            what, rounds, T, inner);
				if (st.arcs > j->g->m || (rounds == 0 && st.arcs != j->g->m) ||
				    st.work_max > j->g->n + st.arcs)
					return FAIL(
					    "%s, Afforest (%u rounds) at %d threads: %llu arcs "
					    "linked of %llu",
					    what, rounds, T, (unsigned long long)st.arcs,
					    (unsigned long long)j->g->m);
			}
	return 0;
}

int apps_cc_all(const struct ordo_graph *g, const char *what, int maxT, char *msg, size_t cap)
{
	struct cc_job j = {g, malloc((g->n + 1) * sizeof *j.ref),
	                   malloc((g->n + 1) * sizeof *j.label), 0};
	struct ordo_err e = {0};
	uint64_t k;
	int rc;
	for (uint32_t v = 0; v < g->n; v++)
		j.active += ordo_graph_degree(g, v) > 0;
	if (!j.ref || !j.label)
		rc = FAIL("%s: out of memory", what);
	else if (ordo_cc_seq(g, j.ref, &k, &e))
		rc = FAIL("%s: %s", what, e.msg);
	else if (!(rc = every_scheduler(what, maxT, NULL, cc_one, &j, msg, cap)))
		rc = cc_afforest_all(what, maxT, &j, msg, cap);
	free(j.ref);
	free((void *)j.label);
	return rc;
}

/* ---- PageRank ---- */

struct pr_job {
	const struct ordo_graph *g;
	double *ref, tau, tol;
	_Atomic double *rank;
};

static int pr_one(const struct ordo_scheduler_ops *ops, struct ordo_scheduler *wl,
                  const struct ordo_exec_opts *o, void *user, char *msg, size_t cap)
{
	struct pr_job *j = user;
	struct ordo_err e = {0};
	struct ordo_run_stats st;
	if (ordo_pagerank(j->g, wl, o, 0.85, j->tau, j->rank, &st, &e))
		return FAIL("%s", e.msg);
	struct ordo_check c;
	ordo_check_init(&c);
	ordo_pagerank_check(j->g->n, j->rank, j->ref, j->tol, &c);
	if (!c.pass)
		return FAIL("%s", c.first);
	/* every node runs once at least; a task is empty only when its node was queued
	 * again at a better grain (ordo_live.h), which one grain for all (fifo) never is */
	if (st.tasks - st.empty < j->g->n || (ordo_scheduler_grain(wl) == 64 && st.empty))
		return FAIL("%s: %llu tasks (%llu empty) for %u nodes", ops->name,
		            (unsigned long long)st.tasks, (unsigned long long)st.empty, j->g->n);
	return 0;
}

/* Pull sweeps at 1, 2, 4 and maxT threads: within tol of the reference. */
static int pr_pull_all(struct pr_job *j, const char *what, int maxT, char *msg, size_t cap)
{
	struct ordo_graph *gt;
	struct ordo_err e = {0};
	uint32_t *deg = malloc(((size_t)j->g->n + 1) * sizeof *deg);
	if (!deg || ordo_graph_transposed(j->g, 2, &gt, &e)) {
		free(deg);
		return FAIL("%s: transpose: %s", what, e.msg);
	}
	for (uint32_t v = 0; v < j->g->n; v++)
		deg[v] = (uint32_t)ordo_graph_degree(j->g, v);
	int rc = 0;
	for (int T = 1; !rc && T <= maxT; T = T == 4 ? (maxT > 4 ? maxT : 5) : T * 2) {
		struct ordo_topology topo;
		if (ordo_topology_init(&topo, T, 0, ORDO_BIND_NONE, &e)) {
			rc = FAIL("topology: %s", e.msg);
			break;
		}
		struct ordo_pagerank_stats st;
		if (ordo_pagerank_pull(gt, deg, &topo, 0.85, j->tol, ORDO_PAGERANK_OMEGA, j->rank,
		                       &st, &e))
			rc = FAIL("%s, pull at %d threads: %s", what, T, e.msg);
		ordo_topology_free(&topo);
		struct ordo_check c;
		ordo_check_init(&c);
		if (!rc)
			ordo_pagerank_check(j->g->n, j->rank, j->ref, j->tol, &c);
		if (!rc && (!c.pass || st.sweeps < 1))
			rc = FAIL("%s, pull at %d threads (%llu sweeps): %s", what, T,
			          (unsigned long long)st.sweeps, c.first);
	}
	ordo_graph_free(gt);
	free(deg);
	return rc;
}

int apps_pagerank_all(const struct ordo_graph *g, const char *what, int maxT, double tol,
                      const char *wl_params, char *msg, size_t cap)
{
	const size_t n = (size_t)g->n + 1;
	struct pr_job j = {g, malloc(n * sizeof *j.ref), ordo_pagerank_tau(g->n, 0.85, tol), tol,
	                   malloc(n * sizeof *j.rank)};
	double *seq = malloc(n * sizeof *seq);
	struct ordo_err e = {0};
	uint64_t it, tasks;
	int rc = 0;
	if (!j.ref || !j.rank || !seq)
		rc = FAIL("%s: out of memory", what);
	else if (ordo_pagerank_reference(g, 0.85, tol, j.ref, &it, NULL, NULL, &e) ||
	         ordo_pagerank_seq(g, 0.85, j.tau, seq, &tasks, &e))
		rc = FAIL("%s: %s", what, e.msg);
	else if (ordo_check_distance(seq, j.ref, g->n, ORDO_NORM_L1) > tol)
		rc = FAIL("%s: the sequential push is %g from the reference", what,
		          ordo_check_distance(seq, j.ref, g->n, ORDO_NORM_L1));
	else if (!(rc = every_scheduler(what, maxT, wl_params, pr_one, &j, msg, cap)))
		rc = pr_pull_all(&j, what, maxT, msg, cap);
	free(j.ref);
	free((void *)j.rank);
	free(seq);
	return rc;
}

/* ---- SSSP's live form ---- */

struct live_job {
	const struct ordo_graph *g;
	uint32_t src;
	uint64_t *ref, settled;
	_Atomic uint64_t *dist;
};

/* The live form at the scheduler's grain, at every priority's own (0), one task per
 * node (64) and a grain no scheduler has (3), by the thread count. */
static int live_one(const struct ordo_scheduler_ops *ops, struct ordo_scheduler *wl,
                    const struct ordo_exec_opts *o, void *user, char *msg, size_t cap)
{
	struct live_job *j = user;
	const int T = o->topo->nthreads;
	const int grain = T == 1 ? (int)ordo_scheduler_grain(wl) : T == 2 ? 0 : T == 4 ? 64 : 3;
	struct ordo_err e = {0};
	struct ordo_run_stats st;
	if (ordo_sssp_live(j->g, j->src, wl, o, grain, j->dist, &st, &e))
		return FAIL("%s", e.msg);
	struct ordo_check c;
	ordo_sssp_check(j->g, j->dist, j->ref, &c);
	if (!c.pass)
		return FAIL("%s, grain %d: %llu wrong distances (first: %s)", ops->name, grain,
		            (unsigned long long)c.mismatches, c.first);
	if (st.tasks - st.empty < j->settled)
		return FAIL("%s, grain %d: %llu useful tasks for %llu nodes", ops->name, grain,
		            (unsigned long long)(st.tasks - st.empty),
		            (unsigned long long)j->settled);
	return 0;
}

int apps_sssp_live_all(const struct ordo_graph *g, const char *what, int maxT, char *msg,
                       size_t cap)
{
	const size_t n = (size_t)g->n + 1;
	struct live_job j = {g, ordo_graph_pick_source(g, 1, 0), malloc(n * sizeof *j.ref), 0,
	                     malloc(n * sizeof *j.dist)};
	struct ordo_err e = {0};
	int rc = 0;
	if (!j.ref || !j.dist)
		rc = FAIL("%s: out of memory", what);
	else if (ordo_dijkstra(g, j.src, j.ref, &j.settled, &e))
		rc = FAIL("%s: %s", what, e.msg);
	else
		rc = every_scheduler(what, maxT, NULL, live_one, &j, msg, cap);
	free(j.ref);
	free((void *)j.dist);
	return rc;
}

/* ---- plain against compressed ---- */

int apps_same_answers(const struct ordo_graph *p, const struct ordo_graph *c, const char *what,
                      char *msg, size_t cap)
{
	if (p->n != c->n || p->m != c->m)
		return FAIL("%s: %u nodes, %llu arcs compressed, %u and %llu plain", what, c->n,
		            (unsigned long long)c->m, p->n, (unsigned long long)p->m);
	const size_t n = p->n ? p->n : 1;
	uint64_t *d1 = malloc(n * sizeof *d1), *d2 = malloc(n * sizeof *d2), s1, s2;
	uint32_t *l1 = malloc(n * sizeof *l1), *l2 = malloc(n * sizeof *l2);
	struct ordo_err e = {0};
	int rc = 0;
	const uint32_t src = ordo_graph_pick_source(p, 1, 0);
	if (!d1 || !d2 || !l1 || !l2) {
		rc = FAIL("out of memory");
		goto out;
	}
	if (src != ordo_graph_pick_source(c, 1, 0)) {
		rc = FAIL("%s: another source picked", what);
		goto out;
	}
	if (src == UINT32_MAX)
		goto out;
	if (ordo_dijkstra(p, src, d1, &s1, &e) || ordo_dijkstra(c, src, d2, &s2, &e) ||
	    ordo_bfs_seq(p, src, l1, &s1, &e) || ordo_bfs_seq(c, src, l2, &s2, &e)) {
		rc = FAIL("%s: %s", what, e.msg);
		goto out;
	}
	for (uint32_t v = 0; v < p->n; v++)
		if (d1[v] != d2[v] || l1[v] != l2[v]) {
			rc = FAIL(
			    "%s: node %u: distance %llu / level %u compressed, %llu / %u plain",
			    what, v, (unsigned long long)d2[v], l2[v], (unsigned long long)d1[v],
			    l1[v]);
			goto out;
		}
	if (p->flags & ORDO_GRAPH_SYMMETRIC) {
		struct ordo_forest f1, f2;
		if (ordo_kruskal(p, &f1, &e) || ordo_kruskal(c, &f2, &e) ||
		    ordo_kcore_seq(p, l1, &e) || ordo_kcore_seq(c, l2, &e)) {
			rc = FAIL("%s: %s", what, e.msg);
			goto out;
		}
		if (f1.weight != f2.weight || f1.edges != f2.edges) {
			rc = FAIL("%s: forest of weight %llu compressed, %llu plain", what,
			          (unsigned long long)f2.weight, (unsigned long long)f1.weight);
			goto out;
		}
		for (uint32_t v = 0; v < p->n; v++)
			if (l1[v] != l2[v]) {
				rc = FAIL("%s: node %u: core %u compressed, %u plain", what, v,
				          l2[v], l1[v]);
				goto out;
			}
	}
out:
	free(d1), free(d2), free(l1), free(l2);
	return rc;
}

/* ---- graphs built by hand ---- */

int apps_ladder(uint32_t W, uint32_t H, struct ordo_graph **out, char *msg, size_t cap)
{
	struct ordo_edge_chain c;
	ordo_chain_init(&c, true);
	bool ok = true;
	for (uint32_t r = 0; r < H && ok; r++)
		for (uint32_t x = 0; x < W && ok; x++) {
			const uint32_t u = r * W + x;
			if (x + 1 < W) /* along a rail: all ties, broken by the ends' ids */
				ok = ordo_chain_push(&c, u, u + 1, 1);
			if (ok && r + 1 < H) /* a rung: heavier further along the rail */
				ok = ordo_chain_push(&c, u, u + W, 1000 + x);
		}
	struct ordo_graph *g;
	struct ordo_err e = {0};
	struct ordo_build_stats bs;
	if (!ok) {
		ordo_chain_free(&c);
		return FAIL("ladder %ux%u: out of memory", W, H);
	}
	if (ordo_graph_build(&c, &(struct ordo_build_opts){0}, &g, NULL, &e))
		return FAIL("ladder %ux%u: %s", W, H, e.msg);
	const int rc = ordo_graph_symmetrized(g, 1, out, &bs, &e);
	ordo_graph_free(g);
	return rc ? FAIL("ladder %ux%u: %s", W, H, e.msg) : 0;
}
