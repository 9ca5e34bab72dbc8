/*
 * ordo_bfs.h - breadth-first search levels: the parallel operator run by any scheduler,
 * the exact sequential baseline (queue BFS), and verification.
 *
 * Levels are 32-bit (ORDO_LEVEL_INF = unreached); arc weights are ignored.
 */
#ifndef ORDO_BFS_H
#define ORDO_BFS_H

#include <stdatomic.h>

#include "ordo_check.h"
#include "ordo_frontier.h"
#include "ordo_graph.h"
#include "ordo_runtime.h"
#include "ordo_schedulers.h"

#define ORDO_LEVEL_INF UINT32_MAX
/* tasks each worker holds for staged prefetching (ordo_exec_opts.lookahead); the hook's
 * stages (ordo_graph_prefetch_stages) are spread over them */
#define ORDO_BFS_LOOKAHEAD 9

/* Queue BFS from src: level[n] receives the levels, *visited the number of nodes
 * reached (the denominator of the work ratio). Errors: EINVAL (bad source), ENOMEM. */
int ordo_bfs_seq(const struct ordo_graph *g, uint32_t src, uint32_t *level, uint64_t *visited,
                 struct ordo_err *err);

/* The same, also giving the arcs it examined (every out-arc of every visited node): the
 * frontier mode's work ratio counts levels set plus arcs examined against these. */
int ordo_bfs_seq_work(const struct ordo_graph *g, uint32_t src, uint32_t *level, uint64_t *visited,
                      uint64_t *arcs, struct ordo_err *err);

/* What a frontier-mode BFS did: its rounds, and the asynchronous tail after a hand-off
 * (ordo_frontier_opts.handoff_round). */
struct ordo_bfs_stats {
	struct ordo_frontier_stats rounds;
	struct ordo_run_stats tail; /* zero unless rounds.handed_off on 2+ threads */
	uint64_t tail_arcs;         /* arcs the tail's tasks examined (stale ones read none) */
	uint64_t tail_set;          /* levels the tail's tasks set (a node may be set twice) */
	double seconds;             /* levels' initialisation + rounds + tail */
	uint64_t work_min, work_median, work_max; /* per thread: nodes added or levels set,
	                                             plus arcs examined, rounds and tail */
};

/* Direction-optimising BFS in the frontier mode (ordo_frontier.h): push rounds claim
 * out-neighbours by compare-and-swap, pull rounds scan an unvisited node's in-arcs in gt
 * (the transpose, ordo_graph_transposed; g itself when g is symmetric; may be NULL with
 * ORDO_FRONTIER_PUSH) and stop at the first frontier node. level[n] is initialised here
 * (and timed: st->seconds includes it). With a scheduler (wl, run with eo) and a
 * frontier space in o, a hand-off (o->handoff_round) passes the frontier to the
 * scheduled operator, which finishes asynchronously (st->tail) - or, when eo has one
 * thread, to a FIFO queue (st->tail stays zero; tail_arcs and tail_set are the
 * queue's); wl may be NULL.
 * st->rounds: rounds each way, levels set (added, the source not counted), arcs. Errors: EINVAL
 * (bad source, missing transpose), ENOMEM. */
int ordo_bfs_frontier(const struct ordo_graph *g, const struct ordo_graph *gt, uint32_t src,
                      const struct ordo_frontier_opts *o, struct ordo_scheduler *wl,
                      const struct ordo_exec_opts *eo, _Atomic uint32_t *level,
                      struct ordo_bfs_stats *st, struct ordo_err *err);

/* Parallel BFS: priority = level; one task per successful level decrease (atomic min);
 * a popped task whose level is no longer current is empty work. level[n] is
 * initialised here. */
int ordo_bfs(const struct ordo_graph *g, uint32_t src, struct ordo_scheduler *wl,
             const struct ordo_exec_opts *o, _Atomic uint32_t *level, struct ordo_run_stats *st,
             struct ordo_err *err);

/* Compares level with ref into c: every differing node is a mismatch; figures "reached"
 * and "max_level". */
void ordo_bfs_check(const struct ordo_graph *g, const _Atomic uint32_t *level, const uint32_t *ref,
                    struct ordo_check *c);

#endif
