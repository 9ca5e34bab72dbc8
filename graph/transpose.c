/*
 * transpose.c - the in-arcs of a graph as a graph of their own (see ordo_graph.h).
 *
 * A pull step (the frontier mode's bottom-up BFS) asks, for an unvisited node v, whether
 * any u with an arc u -> v is in the frontier: it scans v's in-arcs. A directed graph
 * stores only out-arcs, so the transpose is built once: in-degrees counted, summed into
 * offsets, and each arc placed by one pass over the sources in ascending order, so every
 * in-list is sorted by source and the result depends on g alone. Weights are not kept
 * (a pull step needs none) unless asked for (writers of formats that store both
 * directions); a compressed graph gets a compressed transpose.
 */
#include <stdlib.h>
#include <string.h>

#include "ordo_graph.h"
#include "ordo_util.h"

static int transpose(const struct ordo_graph *g, int threads, bool weights, struct ordo_graph **out,
                     struct ordo_err *err)
{
	*out = NULL;
	const uint32_t n = g->n;
	struct ordo_graph *t;
	weights = weights && ordo_graph_weighted(g);
	int rc = ordo_graph_alloc(n, g->m, weights, &t, err);
	if (rc)
		return rc;
	uint64_t *pos = calloc((size_t)n + 1, sizeof *pos);
	if (!pos) {
		ordo_graph_free(t);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory transposing %u nodes", n);
	}
	uint32_t v, w;
	for (uint32_t u = 0; u < n; u++)
		for (struct ordo_arcs a = ordo_graph_arcs(g, u); ordo_arcs_next(&a, &v, &w);)
			pos[v + 1]++;
	for (uint32_t x = 0; x < n; x++)
		pos[x + 1] += pos[x];
	memcpy(t->off, pos, ((size_t)n + 1) * sizeof *pos);
	for (uint32_t u = 0; u < n; u++)
		for (struct ordo_arcs a = ordo_graph_arcs(g, u); ordo_arcs_next(&a, &v, &w);) {
			if (weights)
				t->w[pos[v]] = w;
			t->dst[pos[v]++] = u;
		}
	free(pos);
	if (g->cz) {
		struct ordo_graph *c;
		rc = ordo_graph_compress(t, threads, &c, err);
		ordo_graph_free(t);
		if (rc)
			return rc;
		t = c;
	}
	if (g->flags & ORDO_GRAPH_SYMMETRIC)
		t->flags |= ORDO_GRAPH_SYMMETRIC;
	*out = t;
	return 0;
}

int ordo_graph_transposed(const struct ordo_graph *g, int threads, struct ordo_graph **out,
                          struct ordo_err *err)
{
	return transpose(g, threads, false, out, err);
}

int ordo_graph_transposed_weighted(const struct ordo_graph *g, int threads, struct ordo_graph **out,
                                   struct ordo_err *err)
{
	return transpose(g, threads, true, out, err);
}
