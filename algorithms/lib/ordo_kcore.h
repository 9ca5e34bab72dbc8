/*
 * ordo_kcore.h - k-core decomposition: every node's core number (the largest k such
 * that the node lies in a subgraph where every node has at least k neighbours), the
 * parallel operator run by any scheduler, the exact sequential baseline
 * (Batagelj-Zaversnik bucket peeling) and verification. The graph must be symmetric
 * (each edge stored both ways); a multigraph's parallel arcs count separately.
 */
#ifndef ORDO_KCORE_H
#define ORDO_KCORE_H

#include <stdatomic.h>

#include "ordo_check.h"
#include "ordo_graph.h"
#include "ordo_runtime.h"
#include "ordo_schedulers.h"

/* The largest degree into *out; ERANGE when it does not fit the 32-bit core numbers. */
int ordo_kcore_max_degree(const struct ordo_graph *g, uint64_t *out, struct ordo_err *err);

/* Batagelj-Zaversnik, O(n + m): core[n] receives the core numbers. Every node is
 * peeled once, so n is the work ratio's denominator. ENOMEM only. */
int ordo_kcore_seq(const struct ordo_graph *g, uint32_t *core, struct ordo_err *err);

/* Parallel: core[n] receives the core numbers (initialised here). */
int ordo_kcore(const struct ordo_graph *g, struct ordo_scheduler *wl,
               const struct ordo_exec_opts *o, _Atomic uint32_t *core, struct ordo_run_stats *st,
               struct ordo_err *err);

/* What a peeling run did (ordo_kcore_peel). */
struct ordo_kcore_stats {
	double seconds;
	uint32_t levels;                          /* non-empty levels peeled */
	uint64_t peeled, arcs, undone;            /* nodes peeled (n), arcs examined (m), decrements
	                                             taken back (two threads lowered a node at once) */
	uint64_t work_min, work_median, work_max; /* per thread: peeled + arcs + undone */
	int threads;
};

/* Level-synchronous peeling (kcore_peel.c): all remaining nodes of degree k peeled
 * together per level, each arc examined once, an atomic decrement per arc; no
 * scheduler. core[n] receives the core numbers. Errors: ENOMEM, ERANGE (a degree of
 * 2^32 or more). */
int ordo_kcore_peel(const struct ordo_graph *g, const struct ordo_topology *topo,
                    _Atomic uint32_t *core, struct ordo_kcore_stats *st, struct ordo_err *err);

/* Compares core with ref into c: every differing node is a mismatch; figures
 * "degeneracy" (the largest core number) and "max_core_size" (nodes that have it). */
void ordo_kcore_check(const struct ordo_graph *g, const _Atomic uint32_t *core, const uint32_t *ref,
                      struct ordo_check *c);

#endif
