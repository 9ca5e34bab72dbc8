/*
 * ordo_sssp.h - single-source shortest paths: the parallel operator run by any
 * scheduler, the exact sequential baseline (Dijkstra), and verification.
 *
 * Distances are 64-bit (UINT64_MAX = unreached), so long road paths never overflow; a
 * run may keep them in 32 bits while they fit (ordo_sssp_run).
 */
#ifndef ORDO_SSSP_H
#define ORDO_SSSP_H

#include <stdatomic.h>

#include "ordo_check.h"
#include "ordo_graph.h"
#include "ordo_runtime.h"
#include "ordo_schedulers.h"

#define ORDO_DIST_INF UINT64_MAX
/* tasks each worker holds for staged prefetching (ordo_exec_opts.lookahead); the hook's
 * stages (ordo_graph_prefetch_stages) are spread over them */
#define ORDO_SSSP_LOOKAHEAD 9

/* Dijkstra with an indexed 4-ary heap. dist[n] receives the distances; *settled the
 * number of nodes settled (= reached), the denominator of the work ratio. */
int ordo_dijkstra(const struct ordo_graph *g, uint32_t src, uint64_t *dist, uint64_t *settled,
                  struct ordo_err *err);

/* Parallel SSSP: one task per successful relaxation (atomic min on the distance),
 * priority = tentative distance; a popped task whose distance is no longer current is
 * empty work. dist[n] is initialised here. */
int ordo_sssp(const struct ordo_graph *g, uint32_t src, struct ordo_scheduler *wl,
              const struct ordo_exec_opts *o, _Atomic uint64_t *dist, struct ordo_run_stats *st,
              struct ordo_err *err);

/* The same with one queued task per node and grain (relax.h's live form; ordo_live.h's
 * rule): a relaxation pushes only when its node was not queued or its distance left the
 * grain (the bits above bit `grain`, 0..64) it was queued in, and a task runs with its
 * node's distance at the time it starts. grain < 0: ordo_sssp's one task per
 * relaxation. EINVAL for a grain above 64, or when the graph has 2^31 nodes or more
 * (ordo_sssp_live_fits: distances must leave bit 63 free). */
/* The smallest scheduler grain at which `sssp --live auto` runs the live form: on road2k
 * (grain 11) it dropped 96% of the empty tasks at the same time (1.01x at 1 and 2
 * threads, within the spread of two identical sides); on rmat20 (grain 1, weights
 * 1..255) a node's improvements cross buckets, the empty tasks stayed (98%) and the
 * claims cost 1-7% (bench/LOG.md, "One queued task per node"). */
#define ORDO_SSSP_LIVE_GRAIN 4
int ordo_sssp_live(const struct ordo_graph *g, uint32_t src, struct ordo_scheduler *wl,
                   const struct ordo_exec_opts *o, int grain, _Atomic uint64_t *dist,
                   struct ordo_run_stats *st, struct ordo_err *err);
bool ordo_sssp_live_fits(const struct ordo_graph *g);

/* Leaves: nodes whose task could never lower a distance, so a run gives them their
 * distance and no task. Node v is one when it has no arc, or one arc v -> u and every
 * arc into v comes from u (then d(v) >= d(u) + w(u, v) >= d(u), whatever the weights'
 * order: v's arc cannot lower u). On a graph marked symmetric that is degree <= 1; on
 * another one pass over every arc checks where the arcs into the candidates come from,
 * with `threads` threads. *leaves: a bitmap of n bits (free() it), *count its ones.
 * On road2k 407,165 of 4.2 million nodes are leaves, on rmat20 139,000 of the 645,000
 * it reaches (bench/LOG.md, "Leaves"). ENOMEM. */
int ordo_sssp_leaves(const struct ordo_graph *g, int threads, uint64_t **leaves, uint64_t *count,
                     struct ordo_err *err);
static inline bool ordo_sssp_is_leaf(const uint64_t *leaves, uint32_t v)
{
	return (leaves[v >> 6] >> (v & 63)) & 1;
}

/* One run, every form: a task per relaxation or the live form (grain), 64-bit or 32-bit
 * distances, tasks for every node or none for the leaves. Exactly one of dist and
 * narrow is set. 32-bit distances (UINT32_MAX = unreached) hold up to
 * ORDO_SSSP_NARROW_MAX: a relaxation past it lowers nothing and sets `overflow`, and
 * the distances are then not exact (the caller runs again with 64 bits: the app's
 * --labels auto does). With leaves a run's tasks can be fewer than Dijkstra's settled
 * nodes. Errors: those of ordo_sssp_live. */
#define ORDO_SSSP_NARROW_MAX ((UINT32_C(1) << 31) - 2)
struct ordo_sssp_run {
	int grain;                /* the live form's grain (0..64), or -1: a task per relaxation */
	const uint64_t *leaves;   /* ordo_sssp_leaves' bitmap, or NULL */
	_Atomic uint64_t *dist;   /* 64-bit distances, n of them, or NULL and ... */
	_Atomic uint32_t *narrow; /* ... 32-bit ones */
	bool overflow;            /* out: a 32-bit distance would have passed the limit */
	double mean_degree;       /* ordo_graph_mean_degree(g), or 0: computed here (one pass
	                           * over the node index, at two workers and more) */
};
/* The mean degree above which a run of two workers or more prefetches its neighbours'
 * labels for reading, not writing (relax.h): measured on this project's graphs at two
 * threads, reading won from 12.1 arcs per node (soc-Slashdot0902) up and writing at 8.1
 * (ca-CondMat) and below (bench/LOG.md, "Labels prefetched for reading"). */
#define ORDO_SSSP_READ_DEGREE 10.0
/* Whether a run of `threads` workers on a graph of mean degree `degree` prefetches its
 * neighbours' labels for reading: the rule above, in one place for the run and its
 * report. */
static inline bool ordo_sssp_reads_labels(double degree, int threads)
{
	return threads > 1 && degree > ORDO_SSSP_READ_DEGREE;
}
int ordo_sssp_run(const struct ordo_graph *g, uint32_t src, struct ordo_scheduler *wl,
                  const struct ordo_exec_opts *o, struct ordo_sssp_run *r,
                  struct ordo_run_stats *st, struct ordo_err *err);
/* dist[v] = narrow[v], UINT32_MAX becoming ORDO_DIST_INF; with `threads` threads. */
void ordo_sssp_widen(const _Atomic uint32_t *narrow, _Atomic uint64_t *dist, uint32_t n,
                     int threads);

/* A shortest-path tree from exact distances: parent[v] = the smallest u with an arc
 * u -> v and dist[u] + w(u, v) == dist[v], for every v other than the source with a
 * finite distance; the source's parent is itself, an unreached node's ORDO_NO_PARENT.
 * Tentative distances (A*'s) also serve: for a node whose distance is exact, every such
 * u has an exact distance too (tentative values never go below the truth), so walking
 * parents back from it follows a shortest path. One pass over the arcs, sequential. */
#define ORDO_NO_PARENT UINT32_MAX
void ordo_sp_parents(const struct ordo_graph *g, const _Atomic uint64_t *dist, uint32_t source,
                     uint32_t *parent);
/* The path from the source to t by parent[] (ordo_sp_parents), written backwards into
 * path[] (at most cap nodes) then reversed: its node count, or 0 when t is unreached or
 * the walk does not reach the source within cap steps (zero-weight cycles). */
uint32_t ordo_sp_path(const uint32_t *parent, uint32_t source, uint32_t t, uint32_t *path,
                      uint32_t cap);
/* Writes d in decimal, or "infinity" for ORDO_DIST_INF. */
void ordo_dist_str(char buf[24], uint64_t d);

/* A bucket shift for distance priorities (OBIM's and PMOD's `delta`: bucket = priority
 * >> shift) from the graph alone, for apps that leave it unset (sssp, astar). It
 * samples the weights (the arcs of up to 16,384 nodes spread over the ids), counts the
 * mean degree of the nodes that have arcs, and grows breadth-first balls of
 * ORDO_HINT_BALL nodes from 5 probe nodes: when the median ball needs more than
 * ORDO_HINT_DEEP levels the graph has a high diameter (roads, grids) and the width is
 * ORDO_HINT_WIDE mean weights; otherwise mean weight / mean degree. The shift is that
 * width's log2, rounded (0 for widths up to 1). shift_reach is the high-diameter width
 * of a goal-directed search (astar's): the ball's reach, mean weight x ball depth, over
 * ORDO_HINT_REACH_DIV; A*'s frontier is a thin band around its guided front, whose
 * right width follows how densely the graph's nodes lie (a 1024-node ball's reach), not
 * its weights alone (bench/LOG.md, "A*'s delta from a ball's reach"). On a graph of low
 * diameter it is `shift`. Costs one pass over the node index and
 * a few thousand arcs: about 5 ms on a graph of 4 million nodes. */
#define ORDO_HINT_BALL      1024
#define ORDO_HINT_DEEP      12
#define ORDO_HINT_WIDE      8
#define ORDO_HINT_REACH_DIV 10
struct ordo_delta_hint {
	int shift;
	int shift_reach;     /* a goal-directed search's (astar's) */
	bool wide;           /* the high-diameter rule */
	double mean_weight;  /* of the sampled arcs (1 for an unweighted graph) */
	double mean_degree;  /* arcs per node with arcs */
	uint32_t ball_depth; /* levels of the median ball */
};
void ordo_delta_hint(const struct ordo_graph *g, struct ordo_delta_hint *h);
/* Arcs per node that has arcs (an edge list's unused ids are not counted); 0 for a
 * graph without arcs. One pass over the node index. */
double ordo_graph_mean_degree(const struct ordo_graph *g);

/* Compares dist with ref (both length n) into c: every differing node is a mismatch;
 * figures "reached" (nodes with a finite distance) and "max_dist" (the largest). */
void ordo_sssp_check(const struct ordo_graph *g, const _Atomic uint64_t *dist, const uint64_t *ref,
                     struct ordo_check *c);

#endif
