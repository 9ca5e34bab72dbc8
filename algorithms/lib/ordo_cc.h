/*
 * ordo_cc.h - connected components of a symmetric graph (weakly connected components
 * of a directed one, once symmetrised): every node labelled with the smallest node id of
 * its component. Three ways to the same labels:
 *  - ordo_cc_seq: union-find (the exact sequential baseline: each arc examined once);
 *  - ordo_cc_afforest: Afforest (Sutton, Ben-Nun and Barak, IPDPS'18), no scheduler:
 *    each node linked along its first `rounds` arcs, the trees compressed, the largest
 *    component found from samples, and then only the nodes outside it link along their
 *    other arcs (on a symmetric graph an arc into the largest component is seen from its
 *    other end);
 *  - ordo_cc_lp: label propagation on any scheduler, priority = the label offered.
 *    A node's task carries no label: it reads its node's live label when it runs, and
 *    one superseded by a newer task of its node (a lower label came since) returns at
 *    once as empty work, without reading an arc. Only the local minima (no smaller
 *    neighbour) start with a task.
 * The graph must be symmetric (each edge stored both ways).
 */
#ifndef ORDO_CC_H
#define ORDO_CC_H

#include <stdatomic.h>

#include "ordo_check.h"
#include "ordo_graph.h"
#include "ordo_runtime.h"
#include "ordo_schedulers.h"

/* Union-find with path halving: label[n] receives the smallest id of each node's
 * component, *components their count. ENOMEM only. */
int ordo_cc_seq(const struct ordo_graph *g, uint32_t *label, uint64_t *components,
                struct ordo_err *err);

/* What an Afforest run did. */
struct ordo_cc_stats {
	double seconds;
	uint64_t arcs;    /* arcs linked along (sampling rounds and the final pass) */
	uint64_t skipped; /* nodes of the largest component whose other arcs were skipped */
	int threads;
	/* each thread's nodes + arcs, over the threads: smallest, median, largest */
	uint64_t work_min, work_median, work_max;
};

/* label[n]'s pages touched by topo's threads, each the share the runs' first pass gives
 * it (OpenMP's static schedule), so a kernel that calls this when it allocates the
 * labels keeps the page faults out of the first run's time (and its pages near its
 * threads). */
void ordo_cc_touch(_Atomic uint32_t *label, uint32_t n, const struct ordo_topology *topo);

/* Afforest on o->topo's threads: label[n] receives the labels. rounds: the sampling
 * rounds (arcs per node linked before the largest component is sought; 0: none, then
 * every arc is linked). ENOMEM, EINVAL (OpenMP gave fewer threads than asked). */
int ordo_cc_afforest(const struct ordo_graph *g, const struct ordo_topology *topo, unsigned rounds,
                     _Atomic uint32_t *label, struct ordo_cc_stats *st, struct ordo_err *err);

/* Label propagation on wl: label[n] receives the labels (initialised here); st's tasks
 * are the tasks run, one per node at least. ordo_for_each's errors. */
int ordo_cc_lp(const struct ordo_graph *g, struct ordo_scheduler *wl,
               const struct ordo_exec_opts *o, _Atomic uint32_t *label, struct ordo_run_stats *st,
               struct ordo_err *err);

/* label against the baseline's ref: a mismatch per node that differs; figures
 * "components" (ref's) and "largest" (its largest component's nodes). */
void ordo_cc_check(const struct ordo_graph *g, const _Atomic uint32_t *label, const uint32_t *ref,
                   struct ordo_check *c);

#endif
