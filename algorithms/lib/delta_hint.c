/*
 * delta_hint.c - a bucket width for distance priorities from the graph alone (see
 * ordo_sssp.h, ordo_delta_hint): a sample of the weights, the mean degree, and how far
 * a breadth-first ball of ORDO_HINT_BALL nodes reaches from a few probe nodes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ordo_sssp.h"
#include "ordo_util.h"

enum {
	HINT_NODES = 16384,   /* nodes whose arcs give the weight sample */
	HINT_ARCS = 1 << 18,  /* at most this many arcs sampled */
	HINT_PROBES = 5,      /* balls grown; the median depth counts */
	HINT_SLOTS = 1 << 13, /* the ball's visited set (open addressing, > 2 x the ball) */
};

/* Depth of a breadth-first ball grown from s until it holds ORDO_HINT_BALL nodes (or
 * its component, when smaller): the level at which it filled. */
static uint32_t ball_depth(const struct ordo_graph *g, uint32_t s, uint32_t *slot, uint32_t *queue)
{
	memset(slot, 0xff, HINT_SLOTS * sizeof *slot);
	uint32_t head = 0, tail = 0, level = 0;
	queue[tail++] = s;
	slot[(s * 2654435761u) & (HINT_SLOTS - 1)] = s;
	while (head < tail) {
		const uint32_t end = tail; /* this level: queue[head, end) */
		level++;
		for (; head < end; head++) {
			struct ordo_arcs a = ordo_graph_arcs(g, queue[head]);
			uint32_t v, w;
			while (ordo_arcs_next(&a, &v, &w)) {
				uint32_t h = (v * 2654435761u) & (HINT_SLOTS - 1);
				while (slot[h] != UINT32_MAX && slot[h] != v)
					h = (h + 1) & (HINT_SLOTS - 1);
				if (slot[h] == v)
					continue;
				slot[h] = v;
				queue[tail++] = v;
				if (tail == ORDO_HINT_BALL)
					return level;
			}
		}
	}
	return level;
}

double ordo_graph_mean_degree(const struct ordo_graph *g)
{
	/* isolated ids (an edge list's unused numbers) say nothing about how many arcs
	 * reach a node */
	uint64_t with_arcs = 0;
	for (uint32_t u = 0; u < g->n; u++)
		with_arcs += ordo_graph_degree(g, u) != 0;
	return with_arcs ? (double)g->m / (double)with_arcs : 0;
}

/* A width's log2, rounded: 0 for widths up to 1, at most 40. */
static int shift_of(double width)
{
	const double s = width > 1 ? log2(width) : 0;
	return s > 40 ? 40 : (int)lround(s);
}

void ordo_delta_hint(const struct ordo_graph *g, struct ordo_delta_hint *h)
{
	*h = (struct ordo_delta_hint){.mean_weight = 1};
	if (!g->n || !g->m)
		return;
	h->mean_degree = ordo_graph_mean_degree(g);
	/* the weights of the arcs of nodes spread evenly over the ids */
	const uint32_t k = g->n < HINT_NODES ? g->n : HINT_NODES;
	double sum = 0;
	uint64_t arcs = 0;
	for (uint32_t i = 0; i < k && arcs < HINT_ARCS; i++) {
		struct ordo_arcs a = ordo_graph_arcs(g, (uint32_t)((uint64_t)i * g->n / k));
		uint32_t v, w;
		while (arcs < HINT_ARCS && ordo_arcs_next(&a, &v, &w))
			sum += w, arcs++;
	}
	h->mean_weight = arcs ? sum / (double)arcs : 1;
	/* balls from probe nodes spread over the ids (the first with arcs at or after
	 * each spot) */
	uint64_t depth[HINT_PROBES];
	uint32_t np = 0;
	uint32_t *slot = malloc(HINT_SLOTS * sizeof *slot);
	uint32_t *queue = malloc((ORDO_HINT_BALL + 1) * sizeof *queue);
	for (uint32_t p = 0; slot && queue && p < HINT_PROBES; p++) {
		uint32_t u = (uint32_t)((uint64_t)g->n * (2 * p + 1) / (2 * HINT_PROBES));
		const uint32_t u0 = u;
		while (!ordo_graph_degree(g, u))
			if ((u = u + 1 == g->n ? 0 : u + 1) == u0)
				break;
		depth[np++] = ball_depth(g, u, slot, queue);
	}
	free(slot);
	free(queue);
	if (np) {
		uint64_t lo, median, hi;
		ordo_spread(depth, np, &lo, &median, &hi);
		h->ball_depth = (uint32_t)median;
	}
	/* Low diameter (a ball of ORDO_HINT_BALL nodes within a few hops): width = mean
	 * weight / mean degree, Meyer and Sanders' delta for random graphs, which keeps a
	 * node's improvements per bucket few. High diameter (road networks, grids): many
	 * buckets at any width, few other paths to waste work on, so buckets as wide as
	 * ORDO_HINT_WIDE arcs pay for their overhead. */
	h->wide = h->ball_depth > ORDO_HINT_DEEP;
	const double width =
	    h->wide ? h->mean_weight * ORDO_HINT_WIDE : h->mean_weight / h->mean_degree;
	h->shift = shift_of(width);
	h->shift_reach =
	    h->wide ? shift_of(h->mean_weight * h->ball_depth / ORDO_HINT_REACH_DIV) : h->shift;
}
