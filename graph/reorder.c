/*
 * reorder.c - locality-preserving node orders, and picking sources and pairs (the
 * functions of ordo_order.h).
 *
 * A graph's ids are whatever its file gave: R-MAT's are random, so a node's neighbours
 * sit on random cache lines and pages. Renumbering the nodes so that neighbours get
 * nearby ids makes the per-node arrays an operator touches (distances, levels, the
 * offsets) share lines. The orders:
 *   bfs      breadth-first order over the stored arcs, from node 0, then from the
 *            lowest unvisited id for every part it did not reach;
 *   rcm      reverse Cuthill-McKee: per part, a breadth-first order from a
 *            pseudo-peripheral node (George and Liu's search), each node's new
 *            neighbours taken in order of degree, then the whole order reversed;
 *   degree   descending out-degree (hubs first, ties by id);
 *   hilbert  the nodes' coordinates along a Hilbert curve (on a 2^16 x 2^16 grid over
 *            their bounding box); needs coordinates.
 * The renumbered graph keeps each node's input id (orig_id), so apps take and print the
 * ids of the input and the native format stores them.
 */
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "graph_sort.h"
#include "ordo_graph.h"
#include "ordo_rng.h"

static const char *const names[] = {"none", "rcm", "bfs", "degree", "hilbert"};

int ordo_order_from_name(const char *name)
{
	for (int i = 0; i < (int)(sizeof names / sizeof *names); i++)
		if (!strcmp(name, names[i]))
			return i;
	return -1;
}

const char *ordo_order_name(int order)
{
	return order >= 0 && order < (int)(sizeof names / sizeof *names) ? names[order] : "?";
}

#define UNSET UINT32_MAX

static uint32_t degree32(const struct ordo_graph *g, uint32_t u)
{
	uint64_t d = ordo_graph_degree(g, u);
	return d < UINT32_MAX ? (uint32_t)d : UINT32_MAX - 1;
}

/* Breadth-first from s over nodes not yet placed, appending to order[*len..] and marking
 * them placed; with by_degree, each node's new neighbours enter in order of degree
 * (Cuthill-McKee). `buf` holds up to a node's degree of keys. */
static void bfs_place(const struct ordo_graph *g, uint32_t s, uint32_t *order, uint64_t *len,
                      uint8_t *placed, bool by_degree, uint64_t *buf)
{
	uint64_t head = *len, tail = *len;
	placed[s] = 1;
	order[tail++] = s;
	while (head < tail) {
		uint32_t u = order[head++], v, w;
		uint64_t k = 0;
		for (struct ordo_arcs a = ordo_graph_arcs(g, u); ordo_arcs_next(&a, &v, &w);) {
			if (placed[v])
				continue;
			placed[v] = 1;
			if (by_degree)
				buf[k++] = (uint64_t)degree32(g, v) << 32 | v;
			else
				order[tail++] = v;
		}
		if (by_degree) {
			sort_u64(buf, k);
			for (uint64_t i = 0; i < k; i++)
				order[tail++] = (uint32_t)buf[i];
		}
	}
	*len = tail;
}

/* George and Liu's pseudo-peripheral node of s's part (nodes not placed yet): a
 * breadth-first search from the candidate, then the lowest-degree node of its last
 * level, while the eccentricity grows. On a directed graph a candidate may not reach s
 * (and starting there would place a part of s's nodes per search, quadratic on a long
 * chain): the search stops at the last candidate that does. stamp/queue/depth are
 * scratch of n entries. */
static uint32_t peripheral(const struct ordo_graph *g, uint32_t s, const uint8_t *placed,
                           uint32_t *stamp, uint32_t *mark, uint32_t *queue, uint32_t *depth)
{
	uint32_t good = s, best = s, ecc = 0;
	for (int round = 0; round < 8; round++) {
		uint32_t id = ++*mark;
		uint64_t head = 0, tail = 0;
		queue[tail++] = best;
		stamp[best] = id;
		depth[best] = 0;
		while (head < tail) {
			uint32_t u = queue[head++], v, w;
			for (struct ordo_arcs a = ordo_graph_arcs(g, u);
			     ordo_arcs_next(&a, &v, &w);)
				if (!placed[v] && stamp[v] != id) {
					stamp[v] = id;
					depth[v] = depth[u] + 1;
					queue[tail++] = v;
				}
		}
		if (stamp[s] != id)
			break;
		good = best;
		uint32_t last = depth[queue[tail - 1]], next = queue[tail - 1];
		for (uint64_t i = tail; i-- > 0 && depth[queue[i]] == last;)
			if (degree32(g, queue[i]) < degree32(g, next) ||
			    (degree32(g, queue[i]) == degree32(g, next) && queue[i] < next))
				next = queue[i];
		if (round > 0 && last <= ecc)
			break;
		ecc = last;
		best = next;
	}
	return good;
}

static int order_traversal(const struct ordo_graph *g, bool rcm, uint32_t *rank,
                           struct ordo_err *err)
{
	const uint32_t n = g->n;
	uint64_t maxdeg = 0;
	for (uint32_t u = 0; rcm && u < n; u++)
		maxdeg = ordo_graph_degree(g, u) > maxdeg ? ordo_graph_degree(g, u) : maxdeg;
	uint32_t *order = malloc(((size_t)n + 1) * sizeof *order);
	uint8_t *placed = calloc((size_t)n + 1, 1);
	uint32_t *stamp = rcm ? calloc((size_t)n + 1, sizeof *stamp) : NULL;
	uint32_t *queue = rcm ? malloc(((size_t)n + 1) * sizeof *queue) : NULL;
	uint32_t *depth = rcm ? malloc(((size_t)n + 1) * sizeof *depth) : NULL;
	uint64_t *buf = rcm ? malloc((maxdeg + 1) * sizeof *buf) : NULL;
	if (!order || !placed || (rcm && (!stamp || !queue || !depth || !buf))) {
		free(order), free(placed), free(stamp), free(queue), free(depth), free(buf);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory ordering %u nodes", n);
	}
	uint64_t len = 0;
	uint32_t mark = 0;
	for (uint32_t s = 0; s < n; s++) {
		if (placed[s])
			continue;
		/* the start found reaches s, so this places s and its part */
		uint32_t start = rcm ? peripheral(g, s, placed, stamp, &mark, queue, depth) : s;
		if (mark > UINT32_MAX - 16) { /* stamps wrap: start them again */
			memset(stamp, 0, (size_t)n * sizeof *stamp);
			mark = 0;
		}
		bfs_place(g, start, order, &len, placed, rcm, buf);
	}
	for (uint64_t i = 0; i < n; i++)
		rank[order[i]] = rcm ? (uint32_t)(n - 1 - i) : (uint32_t)i;
	free(order), free(placed), free(stamp), free(queue), free(depth), free(buf);
	return 0;
}

/* Hilbert index of (x, y) on a 2^16 x 2^16 grid. */
static uint64_t hilbert(uint32_t x, uint32_t y)
{
	const uint32_t side = 1u << 16;
	uint64_t d = 0;
	for (uint32_t s = side / 2; s > 0; s /= 2) {
		uint32_t rx = (x & s) != 0, ry = (y & s) != 0;
		d += (uint64_t)s * s * ((3 * rx) ^ ry);
		if (!ry) {
			if (rx) {
				x = side - 1 - x;
				y = side - 1 - y;
			}
			uint32_t t = x;
			x = y;
			y = t;
		}
	}
	return d;
}

/* Keys (key << 32 | node) sorted; rank = position. */
static int order_by_keys(const struct ordo_graph *g, int order, uint32_t *rank,
                         struct ordo_err *err)
{
	const uint32_t n = g->n;
	uint64_t *key = malloc(((size_t)n + 1) * sizeof *key);
	if (!key)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory ordering %u nodes", n);
	if (order == ORDO_ORDER_DEGREE) {
		for (uint32_t u = 0; u < n; u++)
			key[u] = (uint64_t)(UINT32_MAX - degree32(g, u)) << 32 | u;
	} else {
		double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
		for (uint32_t u = 0; u < n; u++) {
			double x, y;
			ordo_graph_coord(g, u, &x, &y);
			x0 = u == 0 || x < x0 ? x : x0;
			x1 = u == 0 || x > x1 ? x : x1;
			y0 = u == 0 || y < y0 ? y : y0;
			y1 = u == 0 || y > y1 ? y : y1;
		}
		/* one scale for both axes keeps the curve's cells square */
		double span = x1 - x0 > y1 - y0 ? x1 - x0 : y1 - y0;
		double f = span > 0 ? 65535.0 / span : 0;
		for (uint32_t u = 0; u < n; u++) {
			double x, y;
			ordo_graph_coord(g, u, &x, &y);
			uint32_t cx = (uint32_t)((x - x0) * f), cy = (uint32_t)((y - y0) * f);
			cx = cx > 65535 ? 65535 : cx;
			cy = cy > 65535 ? 65535 : cy;
			key[u] = hilbert(cx, cy) << 32 | u;
		}
	}
	sort_u64(key, n);
	for (uint32_t i = 0; i < n; i++)
		rank[(uint32_t)key[i]] = i;
	free(key);
	return 0;
}

int ordo_graph_order(const struct ordo_graph *g, int order, uint32_t *rank, struct ordo_err *err)
{
	switch (order) {
	case ORDO_ORDER_NONE:
		for (uint32_t u = 0; u < g->n; u++)
			rank[u] = u;
		return 0;
	case ORDO_ORDER_RCM:
	case ORDO_ORDER_BFS:
		return order_traversal(g, order == ORDO_ORDER_RCM, rank, err);
	case ORDO_ORDER_HILBERT:
		if (g->coord_kind == ORDO_COORD_NONE)
			return ordo_err_set(err, ORDO_EINVAL,
			                    "the hilbert order needs node coordinates, and the "
			                    "graph has none (give them with --coords)");
		/* fall through */
	case ORDO_ORDER_DEGREE:
		return order_by_keys(g, order, rank, err);
	default:
		return ordo_err_set(err, ORDO_EINVAL, "unknown node order %d", order);
	}
}

int ordo_graph_permute(const struct ordo_graph *g, const uint32_t *rank, int threads,
                       struct ordo_graph **out, struct ordo_err *err)
{
	*out = NULL;
	if (g->cz)
		return ordo_err_set(err, ORDO_EINVAL, "permuting needs a plain graph");
	const int T = threads > 0 ? threads : omp_get_max_threads();
	const uint32_t n = g->n;
	struct ordo_graph *h;
	int rc = ordo_graph_alloc(n, g->m, g->w != NULL, &h, err);
	if (rc)
		return rc;
	h->flags = g->flags;
	uint32_t *old_of = malloc(((size_t)n + 1) * sizeof *old_of);
	uint32_t *orig = malloc(((size_t)n + 1) * sizeof *orig);
	if (!old_of || !orig) {
		rc = ordo_err_set(err, ORDO_ENOMEM, "out of memory permuting %u nodes", n);
		goto fail;
	}
	for (uint32_t u = 0; u < n; u++)
		old_of[u] = UNSET;
	for (uint32_t u = 0; u < n; u++) {
		if (rank[u] >= n || old_of[rank[u]] != UNSET) {
			rc = ordo_err_set(err, ORDO_EINVAL,
			                  "not a permutation: node %u goes to %u, which is %s", u,
			                  rank[u], rank[u] >= n ? "out of range" : "taken");
			goto fail;
		}
		old_of[rank[u]] = u;
	}
	for (uint32_t u = 0; u < n; u++) {
		h->off[u + 1] = h->off[u] + ordo_graph_degree(g, old_of[u]);
		orig[u] = ordo_graph_orig_of(g, old_of[u]);
	}
	bool oom = false;
#pragma omp parallel num_threads(T) reduction(|| : oom)
	{
		uint64_t *pairs = NULL, cap = 0;
#pragma omp for schedule(dynamic, 1024)
		for (uint64_t u = 0; u < n; u++) {
			const uint64_t b = g->off[old_of[u]], d = h->off[u + 1] - h->off[u];
			if (d > cap) {
				free(pairs);
				cap = d + d / 2;
				if (!(pairs = malloc(cap * sizeof *pairs))) {
					cap = 0;
					oom = true;
				}
			}
			if (oom)
				continue;
			/* each list sorted by new target (then weight): neighbours in id order */
			for (uint64_t e = 0; e < d; e++)
				pairs[e] =
				    (uint64_t)rank[g->dst[b + e]] << 32 | (g->w ? g->w[b + e] : 0);
			sort_u64(pairs, d);
			uint64_t k = h->off[u];
			for (uint64_t e = 0; e < d; e++) {
				h->dst[k + e] = (uint32_t)(pairs[e] >> 32);
				if (h->w)
					h->w[k + e] = (uint32_t)pairs[e];
			}
		}
		free(pairs);
	}
	if (oom) {
		rc = ordo_err_set(err, ORDO_ENOMEM, "out of memory permuting %u nodes", n);
		goto fail;
	}
	if (g->coord_kind != ORDO_COORD_NONE) {
		if ((rc = ordo_graph_alloc_coords(h, g->coord_kind, err)))
			goto fail;
		const size_t sz = 2 * (g->coord_kind == ORDO_COORD_INT32 ? 4 : 8);
		for (uint32_t u = 0; u < n; u++)
			memcpy((char *)h->coord + (size_t)u * sz,
			       (const char *)g->coord + (size_t)old_of[u] * sz, sz);
		memcpy(h->coord_unit, g->coord_unit, sizeof h->coord_unit);
	}
	free(old_of);
	if ((rc = ordo_graph_set_ids(h, orig, err))) {
		ordo_graph_free(h);
		return rc;
	}
	*out = h;
	return 0;
fail:
	free(old_of);
	free(orig);
	ordo_graph_free(h);
	return rc;
}

int ordo_graph_reordered(const struct ordo_graph *g, int order, int threads,
                         struct ordo_graph **out, struct ordo_err *err)
{
	const bool cz = ordo_graph_compressed(g);
	uint32_t *rank = malloc(((size_t)g->n + 1) * sizeof *rank);
	if (!rank)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory ordering %u nodes", g->n);
	int rc = ordo_graph_order(g, order, rank, err);
	struct ordo_graph *plain = (struct ordo_graph *)g, *h = NULL; /* g is never changed */
	if (!rc && cz)
		rc = ordo_graph_decompress(g, threads, &plain, err);
	if (!rc)
		rc = ordo_graph_permute(plain, rank, threads, &h, err);
	free(rank);
	if (plain != g)
		ordo_graph_free(plain);
	if (!rc && cz)
		rc = ordo_graph_convert(&h, true, threads, err);
	if (rc) {
		ordo_graph_free(h);
		return rc;
	}
	*out = h;
	return 0;
}

int ordo_graph_reorder(struct ordo_graph **g, int order, int threads, struct ordo_err *err)
{
	if (order == ORDO_ORDER_NONE)
		return 0;
	struct ordo_graph *h;
	int rc = ordo_graph_reordered(*g, order, threads, &h, err);
	if (rc)
		return rc;
	ordo_graph_free(*g);
	*g = h;
	return 0;
}

/* ---- source picking ---- */

uint32_t ordo_graph_pick_source(const struct ordo_graph *g, uint64_t seed, uint64_t k)
{
	if (g->n == 0 || g->m == 0)
		return UINT32_MAX;
	/* draw until a node with arcs comes up, as gapbs' SourcePicker does */
	for (uint64_t i = 0; i < 1000; i++) {
		uint32_t v = ordo_graph_node_at(
		    g, (uint32_t)ordo_reduce(ordo_hash2(seed, k * 1000 + i), g->n));
		if (ordo_graph_degree(g, v) > 0)
			return v;
	}
	uint32_t start = (uint32_t)ordo_reduce(ordo_hash2(seed, k), g->n);
	for (uint32_t i = 0; i < g->n; i++) {
		uint32_t v = ordo_graph_node_at(g, (uint32_t)(((uint64_t)start + i) % g->n));
		if (ordo_graph_degree(g, v) > 0)
			return v;
	}
	return UINT32_MAX;
}

int ordo_graph_pick_pair(const struct ordo_graph *g, uint64_t seed, uint64_t k, uint32_t *source,
                         uint32_t *target, struct ordo_err *err)
{
	uint32_t s = ordo_graph_pick_source(g, seed, k);
	if (s == UINT32_MAX)
		return ordo_err_set(err, ORDO_EINVAL, "the graph has no arc: no pair to pick");
	uint32_t *queue = malloc((size_t)g->n * sizeof *queue);
	uint8_t *seen = calloc(g->n, 1);
	if (!queue || !seen) {
		free(queue), free(seen);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory picking a pair");
	}
	/* a node with an arc reaches at least one other node unless all its arcs are
	 * self-loops; then walk on to the next candidate source */
	for (uint32_t tries = 0; tries < g->n; tries++) {
		size_t head = 0, tail = 0;
		queue[tail++] = s;
		seen[s] = 1;
		while (head < tail) {
			uint32_t u = queue[head++];
			uint32_t v, w;
			for (struct ordo_arcs a = ordo_graph_arcs(g, u);
			     ordo_arcs_next(&a, &v, &w);) {
				if (!seen[v]) {
					seen[v] = 1;
					queue[tail++] = v;
				}
			}
		}
		if (tail > 1) {
			/* queue[1..tail-1] are the nodes s reaches: the one whose input id
			 * hashes lowest, whatever the order of the ids and arcs */
			const uint64_t salt = ordo_hash2(seed ^ 0x7a7a, k);
			uint32_t pick = queue[1];
			uint64_t best = ordo_hash2(salt, ordo_graph_input_rank(g, pick));
			for (size_t i = 2; i < tail; i++) {
				const uint32_t id = ordo_graph_input_rank(g, queue[i]);
				const uint64_t h = ordo_hash2(salt, id);
				if (h < best ||
				    (h == best && id < ordo_graph_input_rank(g, pick))) {
					best = h;
					pick = queue[i];
				}
			}
			*target = pick;
			*source = s;
			free(queue), free(seen);
			return 0;
		}
		seen[s] = 0;
		uint32_t id = ordo_graph_input_rank(g, s);
		do
			s = ordo_graph_node_at(g, id = (uint32_t)(((uint64_t)id + 1) % g->n));
		while (ordo_graph_degree(g, s) == 0);
	}
	free(queue), free(seen);
	return ordo_err_set(err, ORDO_EINVAL, "no node of the graph reaches another: no pair");
}
