/*
 * astar.c - point-to-point shortest paths with a coordinate heuristic (see
 * ordo_astar.h).
 *
 * Operator (after the SMQ paper's artifact, apps/astar): a task (f, u) carries
 * f = g + h(u); it is stale when g > dist[u] and useless when f >= dist[target] (no
 * path through u can improve the target); otherwise every arc u->v with
 * nd = g + w < dist[v] and nd + h(v) < dist[target] lowers dist[v] with a
 * compare-and-swap loop and pushes (nd + h(v), v). The target itself is never pushed
 * (its task could not improve it). The heuristic of the task's node travels in the
 * task's upper 32 bits when it fits, so a pop does not recompute it.
 */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "iheap.h"
#include "ordo_astar.h"
#include "ordo_sssp.h"

int ordo_geo_init(const struct ordo_graph *g, struct ordo_geo *geo, struct ordo_err *err)
{
	memset(geo, 0, sizeof *geo);
	geo->tight_u = geo->tight_v = UINT32_MAX;
	if (g->coord_kind == ORDO_COORD_NONE)
		return ordo_err_set(err, ORDO_EINVAL, "A* needs node coordinates");
	geo->p = ordo_alloc_huge(3 * (size_t)g->n * sizeof *geo->p + 8);
	if (!geo->p)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory for node positions");
	geo->sphere = !strcmp(g->coord_unit, "microdeg");
	const double rad = 3.14159265358979323846 / 180.0 * 1e-6;
#pragma omp parallel for schedule(static)
	for (uint64_t v = 0; v < g->n; v++) {
		double x, y, *p = geo->p + 3 * v;
		ordo_graph_coord(g, (uint32_t)v, &x, &y);
		if (geo->sphere) { /* x = longitude, y = latitude */
			const double lon = x * rad, lat = y * rad;
			p[0] = ORDO_EARTH_RADIUS_M * cos(lat) * cos(lon);
			p[1] = ORDO_EARTH_RADIUS_M * cos(lat) * sin(lon);
			p[2] = ORDO_EARTH_RADIUS_M * sin(lat);
		} else {
			p[0] = x, p[1] = y, p[2] = 0;
		}
	}
	/* the largest consistent scale: min over arcs of weight / length */
	double best = DBL_MAX;
	uint64_t zero = 0;
	uint32_t bu = UINT32_MAX, bv = UINT32_MAX;
#pragma omp parallel
	{
		double mine = DBL_MAX;
		uint64_t z = 0;
		uint32_t mu = UINT32_MAX, mv = UINT32_MAX;
#pragma omp for schedule(dynamic, 4096) nowait
		for (uint64_t u = 0; u < g->n; u++) {
			uint32_t v, w;
			for (struct ordo_arcs a = ordo_graph_arcs(g, (uint32_t)u);
			     ordo_arcs_next(&a, &v, &w);) {
				const double len = ordo_geo_len(geo, (uint32_t)u, v);
				if (len <= 0) {
					z++;
					continue;
				}
				const double r = w / len;
				if (r < mine)
					mine = r, mu = (uint32_t)u, mv = v;
			}
		}
#pragma omp critical
		{
			zero += z;
			if (mine < best || (mine == best && mu < bu))
				best = mine, bu = mu, bv = mv;
		}
	}
	geo->zero_arcs = zero;
	geo->tight_u = bu, geo->tight_v = bv;
	/* a margin of 1e-9 covers the rounding of lengths (relative error ~1e-15), so
	 * floor(scale * len) keeps the triangle inequality exactly in integers */
	geo->scale = best == DBL_MAX ? 0 : best * (1 - 1e-9);
	return 0;
}

void ordo_geo_free(struct ordo_geo *geo)
{
	free(geo->p);
	geo->p = NULL;
}

int ordo_astar_seq(const struct ordo_graph *g, const struct ordo_geo *geo, double scale,
                   uint32_t src, uint32_t dst, uint64_t *dist_out, uint64_t *expanded,
                   struct ordo_err *err)
{
	const uint32_t n = g->n;
	if (src >= n || dst >= n)
		return ordo_err_set(err, ORDO_EINVAL, "node %u is not a node (n = %u)",
		                    src >= n ? src : dst, n);
	uint64_t *dist = malloc((size_t)n * sizeof *dist);
	struct iheap h = {malloc(((size_t)n + 1) * sizeof *h.a), malloc((size_t)n * sizeof *h.pos),
	                  0};
	if (!dist || !h.a || !h.pos) {
		free(dist), free(h.a), free(h.pos);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory for A*");
	}
	for (uint32_t v = 0; v < n; v++) {
		dist[v] = ORDO_DIST_INF;
		h.pos[v] = IHEAP_NONE;
	}
	const double *tp = geo->p + 3 * (size_t)dst;
	uint64_t count = 0;
	dist[src] = 0;
	iheap_push_or_decrease(&h, src, ordo_geo_h(geo, scale, src, tp));
	while (h.n) {
		const struct iheap_entry top = iheap_pop(&h);
		const uint32_t u = top.node;
		count++;
		if (u == dst)
			break;
		const uint64_t du = dist[u];
		uint32_t v, w;
		for (struct ordo_arcs a = ordo_graph_arcs(g, u); ordo_arcs_next(&a, &v, &w);) {
			const uint64_t nd = du + w;
			if (nd >= dist[v])
				continue;
			dist[v] = nd;
			iheap_push_or_decrease(&h, v, nd + ordo_geo_h(geo, scale, v, tp));
		}
	}
	*dist_out = dist[dst];
	*expanded = count;
	free(dist), free(h.a), free(h.pos);
	return 0;
}

struct astar_ctx {
	const struct ordo_graph *g;
	const struct ordo_geo *geo;
	double scale;
	const double *tp;
	uint32_t target;
	_Atomic uint64_t *dist;
};

#define H_NONE 0xFFFFFFFFu /* the heuristic did not fit the task: recompute */

static inline uint64_t task_data(uint32_t v, uint64_t h)
{
	return v | (uint64_t)(h < H_NONE ? h : H_NONE) << 32;
}

static inline uint64_t task_h(const struct astar_ctx *s, const struct ordo_task *t)
{
	const uint64_t h = t->data >> 32;
	return h != H_NONE ? h : ordo_geo_h(s->geo, s->scale, (uint32_t)t->data, s->tp);
}

static bool astar_op(struct ordo_tctx *ctx, const struct ordo_task *t, void *user)
{
	const struct astar_ctx *s = user;
	const struct ordo_graph *g = s->g;
	const uint32_t u = (uint32_t)t->data;
	const uint64_t gu = t->prio - task_h(s, t);
	const uint64_t dt = atomic_load_explicit(&s->dist[s->target], memory_order_relaxed);
	if (gu > atomic_load_explicit(&s->dist[u], memory_order_relaxed) || t->prio >= dt)
		return false;
	uint32_t v, w;
	for (struct ordo_arcs a = ordo_graph_arcs(g, u); ordo_arcs_next(&a, &v, &w);) {
		const uint64_t nd = gu + w;
		uint64_t old = atomic_load_explicit(&s->dist[v], memory_order_relaxed);
		if (nd >= old)
			continue;
		const uint64_t hv = ordo_geo_h(s->geo, s->scale, v, s->tp);
		if (nd + hv >= dt)
			continue; /* cannot beat the target's distance: prune */
		while (nd < old) {
			/* relaxed: g travels in the task; the scheduler orders the rest */
			if (atomic_compare_exchange_weak_explicit(&s->dist[v], &old, nd,
			                                          memory_order_relaxed,
			                                          memory_order_relaxed)) {
				if (v != s->target)
					ordo_push(ctx, nd + hv, task_data(v, hv));
				break;
			}
		}
	}
	return true;
}

/* Pipeline stages: the node's distance and arc range; its arcs; its neighbours'
 * distances and positions (the heuristic of each is computed when relaxed). */
static void astar_prefetch(const struct ordo_task *t, unsigned ahead, void *user)
{
	const struct astar_ctx *s = user;
	const struct ordo_graph *g = s->g;
	const uint32_t u = (uint32_t)t->data;
	if (ahead >= 2) { /* the node's own state, then its arc range, then its arcs */
		if (ahead >= 3)
			ordo_prefetch(&s->dist[u]);
		else if (t->prio - task_h(s, t) >
		         atomic_load_explicit(&s->dist[u], memory_order_relaxed))
			return; /* stale: its arcs will not be read */
		ordo_graph_prefetch_stage(g, u, ahead);
		return;
	}
	if (t->prio - task_h(s, t) > atomic_load_explicit(&s->dist[u], memory_order_relaxed))
		return;
	/* the neighbours' distances (for writing) and positions: see
	 * ordo_graph_prefetch_targets */
	uint32_t vbuf[ORDO_ARCS_BATCH];
	const uint32_t *vb;
	for (unsigned i = 0, k = ordo_graph_prefetch_targets(g, u, vbuf, &vb); i < k; i++) {
		__builtin_prefetch(&s->dist[vb[i]], 1);
		ordo_prefetch(s->geo->p + 3 * (size_t)vb[i]);
	}
}

int ordo_astar(const struct ordo_graph *g, const struct ordo_geo *geo, double scale, uint32_t src,
               uint32_t dst, struct ordo_scheduler *wl, const struct ordo_exec_opts *o,
               _Atomic uint64_t *dist, uint64_t *out, struct ordo_run_stats *st,
               struct ordo_err *err)
{
	if (src >= g->n || dst >= g->n)
		return ordo_err_set(err, ORDO_EINVAL, "node %u is not a node (n = %u)",
		                    src >= g->n ? src : dst, g->n);
#pragma omp parallel for num_threads(o->topo->nthreads) schedule(static)
	for (uint64_t v = 0; v < g->n; v++)
		atomic_store_explicit(&dist[v], ORDO_DIST_INF, memory_order_relaxed);
	atomic_store_explicit(&dist[src], 0, memory_order_relaxed);
	struct astar_ctx s = {g, geo, scale, geo->p + 3 * (size_t)dst, dst, dist};
	const uint64_t hs = ordo_geo_h(geo, scale, src, s.tp);
	struct ordo_task init = {hs, task_data(src, hs)};
	struct ordo_exec_opts eo = *o;
	eo.prefetch = astar_prefetch;
	eo.prefetch_stages = ordo_graph_prefetch_stages(g);
	if (!eo.lookahead)
		eo.lookahead = ORDO_ASTAR_LOOKAHEAD;
	int rc =
	    ordo_for_each(&eo, wl->ops, wl->wl, &init, src == dst ? 0 : 1, astar_op, &s, st, err);
	*out = atomic_load_explicit(&dist[dst], memory_order_relaxed);
	return rc;
}

int ordo_astar_admissible(const struct ordo_graph *g, const struct ordo_geo *geo, double scale,
                          uint32_t dst, uint64_t *violations, uint32_t *bad, struct ordo_err *err)
{
	/* the reverse graph (arcs v->u for every u->v), then Dijkstra from dst on it */
	struct ordo_graph *r;
	int rc = ordo_graph_alloc(g->n, g->m, true, &r, err);
	if (rc)
		return rc;
	uint32_t v, w;
	for (uint32_t u = 0; u < g->n; u++)
		for (struct ordo_arcs a = ordo_graph_arcs(g, u); ordo_arcs_next(&a, &v, &w);)
			r->off[v + 1]++;
	for (uint32_t x = 0; x < g->n; x++)
		r->off[x + 1] += r->off[x];
	uint64_t *fill = malloc((size_t)g->n * sizeof *fill);
	uint64_t *d = malloc((size_t)g->n * sizeof *d), settled;
	if (!fill || !d) {
		free(fill), free(d), ordo_graph_free(r);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory for the admissibility check");
	}
	memcpy(fill, r->off, (size_t)g->n * sizeof *fill);
	for (uint32_t u = 0; u < g->n; u++)
		for (struct ordo_arcs a = ordo_graph_arcs(g, u); ordo_arcs_next(&a, &v, &w);) {
			uint64_t k = fill[v]++;
			r->dst[k] = u;
			r->w[k] = w;
		}
	free(fill);
	rc = ordo_dijkstra(r, dst, d, &settled, err);
	ordo_graph_free(r);
	*violations = 0;
	*bad = UINT32_MAX;
	const double *tp = geo->p + 3 * (size_t)dst;
	for (uint32_t v = 0; !rc && v < g->n; v++)
		if (d[v] != ORDO_DIST_INF && ordo_geo_h(geo, scale, v, tp) > d[v]) {
			if (!(*violations)++)
				*bad = v;
		}
	free(d);
	return rc;
}
