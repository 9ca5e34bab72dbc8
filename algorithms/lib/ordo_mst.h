/*
 * ordo_mst.h - minimum spanning forest of an undirected graph: Boruvka as a
 * priority-scheduled operator run by any scheduler, the exact sequential baseline
 * (Kruskal), and verification.
 *
 * The graph must be symmetric with equal weights both ways (ordo_graph_symmetrized
 * makes it so). Edges are ordered by (weight, smaller end, larger end), so the forest
 * is unique up to parallel arcs of equal weight; its weight and edge count are unique.
 */
#ifndef ORDO_MST_H
#define ORDO_MST_H

#include "ordo_check.h"
#include "ordo_graph.h"
#include "ordo_runtime.h"
#include "ordo_schedulers.h"

/* tasks each worker holds for staged prefetching (ordo_exec_opts.lookahead) */
#define ORDO_MST_LOOKAHEAD 4

struct ordo_forest {
	uint64_t weight; /* total weight of the forest's edges */
	uint64_t edges;  /* forest edges (n - components) */
	uint64_t components;
	/* ordo_mst_run: its work in a unit any two runs share, whatever tasks the schedule
	 * made of it: arcs examined (a segment's front looked up in the union-find,
	 * including every internal arc dropped from a front) plus merges; and per thread */
	uint64_t work, work_min, work_median, work_max;
};

/* Kruskal (edges sorted by weight, union-find). Errors: ENOMEM. */
int ordo_kruskal(const struct ordo_graph *g, struct ordo_forest *f, struct ordo_err *err);

/* Per-graph work space of the parallel operator (80 bytes per node plus 8 per arc, and
 * during a run at most about 8 more per node for the segment arrays of components past
 * ORDO_MST_GROW_MAX nodes); one run at a time. Errors: EINVAL for a graph not marked
 * symmetric, ENOMEM. */
struct ordo_mst;
int ordo_mst_create(const struct ordo_graph *g, struct ordo_mst **out, struct ordo_err *err);
void ordo_mst_free(struct ordo_mst *m);

/* A component past this many nodes keeps all its segments' fronts in a heap, so that
 * finding its lightest arc after a merge never needs a scan of all its segments again;
 * a smaller one past 1024 nodes keeps its 256 lightest (a rescan when they run out).
 * ordo_mst_set_heap_at changes it for the runs that follow (the tests make every
 * listed component keep a heap with 0, and none with UINT32_MAX). */
#define ORDO_MST_HEAP_AT (UINT32_C(1) << 17)
void ordo_mst_set_heap_at(struct ordo_mst *m, uint32_t nodes);

/* A task goes on with the component it merged into while that has at most this many
 * nodes, so one task makes at most this many merges. */
#define ORDO_MST_GROW_MAX 32

/* The first tasks sweep ranges of n / ORDO_MST_SWEEP_SHARE consecutive nodes (at least
 * ORDO_MST_SWEEP_MIN, at most ORDO_MST_SWEEP_MAX), as many tasks as ranges; each claims
 * ranges left, from its thread's share of the nodes first and then from the others',
 * until none is, and starts the work of a task above for every node of them that is
 * still a component of one node. */
#define ORDO_MST_SWEEP_SHARE 256
#define ORDO_MST_SWEEP_MIN   16
#define ORDO_MST_SWEEP_MAX   16384
uint32_t ordo_mst_sweep_nodes(uint64_t n); /* the range size for a graph of n nodes */

/* Parallel Boruvka: tasks are components (their representative node) and, first, ranges
 * of nodes that start a task's work from each of their nodes still alone; priority = the
 * component's size in nodes (smaller first; above 1024 nodes the size rounded up to a
 * power of two). A task finds the lightest edge leaving its component and merges the
 * two (per-component locks, only ever waited for in increasing order); while the
 * merged component has at most ORDO_MST_GROW_MAX nodes the task goes on with it, else
 * the merged component gets a new task. A task whose component was merged away is
 * empty work. *f receives the forest. */
int ordo_mst_run(struct ordo_mst *m, struct ordo_scheduler *wl, const struct ordo_exec_opts *o,
                 struct ordo_forest *f, struct ordo_run_stats *st, struct ordo_err *err);

/* Checks the last run's forest edges: acyclic, and as many components and as much
 * weight as `ref` (Kruskal's). Figures "forest_weight", "forest_edges", "components". */
/* The last run's forest arcs (forest.edges of them), each as its two ends and weight;
 * ends in the graph's ids. */
void ordo_mst_forest_arcs(const struct ordo_mst *m, uint32_t *u, uint32_t *v, uint32_t *w);
void ordo_mst_check(const struct ordo_mst *m, const struct ordo_forest *ref, struct ordo_check *c);

#endif
