/*
 * ordo_order.h - node orders (renumbering for locality) and picking sources and pairs.
 * Part of the graph module; ordo_graph.h includes it.
 */
#ifndef ORDO_ORDER_H
#define ORDO_ORDER_H

#include "ordo_csr.h"

/* ---- Node orders (reorder.c) ---- */
enum ordo_order {
	ORDO_ORDER_NONE = 0, /* the input's */
	ORDO_ORDER_RCM,      /* reverse Cuthill-McKee from pseudo-peripheral nodes */
	ORDO_ORDER_BFS,      /* breadth-first from node 0 (then the lowest id unreached) */
	ORDO_ORDER_DEGREE,   /* descending out-degree */
	ORDO_ORDER_HILBERT,  /* along a Hilbert curve over the coordinates */
};
/* "none", "rcm", "bfs", "degree", "hilbert" -> enum ordo_order; -1 for anything else. */
int ordo_order_from_name(const char *name);
const char *ordo_order_name(int order);
/* rank[u] = node u's position in the order (n entries). EINVAL: hilbert without
 * coordinates. Works on both representations. */
int ordo_graph_order(const struct ordo_graph *g, int order, uint32_t *rank, struct ordo_err *err);
/* A plain copy of plain g with node u renumbered rank[u] (a permutation, checked),
 * each list sorted by new target, coordinates moved along, and input ids kept. */
int ordo_graph_permute(const struct ordo_graph *g, const uint32_t *rank, int threads,
                       struct ordo_graph **out, struct ordo_err *err);
/* A renumbered copy of g in the given order (not ORDO_ORDER_NONE), in g's
 * representation; g is unchanged. */
int ordo_graph_reordered(const struct ordo_graph *g, int order, int threads,
                         struct ordo_graph **out, struct ordo_err *err);
/* Replaces *g by its renumbering in the given order (same representation); on error *g
 * is unchanged. ORDO_ORDER_NONE leaves it. */
int ordo_graph_reorder(struct ordo_graph **g, int order, int threads, struct ordo_err *err);

/* Source picking for apps and benchmarks (gapbs' SourcePicker): the k-th fixed-seed
 * draw of a node with out-degree > 0; UINT32_MAX when the graph has no arc. Depends only
 * on (g, seed, k). The draws are of input ids, so a reordered graph gets the same
 * queries as its input. */
uint32_t ordo_graph_pick_source(const struct ordo_graph *g, uint64_t seed, uint64_t k);
/* The k-th fixed-seed (source, target) pair: target != source and reachable from it
 * (the target is the node the source reaches whose input id hashes lowest). Depends
 * only on (g, seed, k), and not on the node order. Errors: EINVAL when the graph has no
 * arc, ENOMEM. */
int ordo_graph_pick_pair(const struct ordo_graph *g, uint64_t seed, uint64_t k, uint32_t *source,
                         uint32_t *target, struct ordo_err *err);

#endif
