/*
 * ordo_prepare.h - making a graph what a run needs, in one step with one fixed order
 * (prepare.c): rebuilt from its arcs (symmetrised, deduplicated, weighed at random),
 * weighed by its coordinates, renumbered, compressed - compression last, and once. File
 * loads (ordo_load), generated graphs (ordo_load_gen) and the app harness (an app's
 * needs) all prepare through it.
 */
#ifndef ORDO_PREPARE_H
#define ORDO_PREPARE_H

#include "ordo_edges.h"

struct ordo_prep {
	/* A rebuild through the builder when symmetrize (of a graph not marked symmetric),
	 * dedup or random_weights is set, with keep_self_loops and the weights' range and
	 * seed as for any build (a graph marked symmetric stays so unless its weights are
	 * redrawn). compress: the result is compressed, last; the rebuild builds it
	 * compressed directly (spill allowed) when nothing follows it. threads: 0 = OpenMP
	 * default. n is ignored. */
	struct ordo_build_opts build;
	bool weights_from_coords; /* weights = max(1, rounded length) (needs coordinates) */
	int reorder;              /* enum ordo_order; ORDO_ORDER_NONE (0) keeps the order */
};

/* True when nothing after a build needs the plain form, so the build (a file's, a
 * generator's, prepare's rebuild) makes the compressed graph directly. */
static inline bool ordo_prep_builds_compressed(const struct ordo_prep *p)
{
	return p->build.compress && !p->weights_from_coords && !p->reorder;
}

/* How a build with random weights says so in reports. */
static inline const char *ordo_random_weights_note(const struct ordo_build_stats *s)
{
	return s->weights_replaced ? "input weights replaced by random weights" : "random weights";
}

struct ordo_prep_info {
	bool rebuilt; /* the builder ran (its figures below) */
	struct ordo_build_stats build;
	double rebuild_seconds;
	char notes[256]; /* what was done, for reports ("nodes renumbered in rcm order ...") */
};

/* Applies p to *g in the order above. *g is replaced by each new graph; the one given
 * is freed when `owned`, and otherwise left to the caller (then *g is either it,
 * unchanged, or a new graph the caller owns). Per-node data (coordinates, input ids)
 * follow. On error: owned, the graph is freed and *g is NULL; not owned, *g is the
 * caller's graph, unchanged. info may be NULL. Errors: ENOMEM, EINVAL (weights from
 * coordinates without coordinates, hilbert order without them), ERANGE. */
int ordo_graph_prepare(struct ordo_graph **g, const struct ordo_prep *p, bool owned,
                       struct ordo_prep_info *info, struct ordo_err *err);

#endif
