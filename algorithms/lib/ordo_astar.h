/*
 * ordo_astar.h - point-to-point shortest paths guided by node coordinates (A*): the
 * parallel operator run by any scheduler, the exact sequential baseline (A* with an
 * indexed heap), and verification against Dijkstra.
 *
 * Geometry: coordinates in microdegrees (DIMACS .co: longitude, latitude) become
 * points on a sphere of radius ORDO_EARTH_RADIUS_M, any other unit points in the plane
 * (z = 0). The heuristic of v for target t is floor(scale * |p_v - p_t|), the straight
 * (chord) length times a scale. A chord is never longer than the great-circle arc and
 * needs no trigonometry per node; a Euclidean length obeys the triangle inequality, so
 * with scale <= min over arcs of weight / |p_u - p_v| the heuristic is consistent
 * (h(u) <= w(u,v) + h(v)), hence admissible, and A* is exact. The geometry is computed
 * once per graph; it is read-only afterwards (any number of threads).
 */
#ifndef ORDO_ASTAR_H
#define ORDO_ASTAR_H

#include <math.h>
#include <stdatomic.h>

#include "ordo_check.h"
#include "ordo_graph.h"
#include "ordo_runtime.h"
#include "ordo_schedulers.h"

#define ORDO_EARTH_RADIUS_M 6371008.8 /* mean Earth radius (IUGG) */
/* tasks each worker holds for staged prefetching, its stages spread over them */
#define ORDO_ASTAR_LOOKAHEAD 9

struct ordo_geo {
	double *p;          /* 3 per node: x, y, z in the coordinates' length unit */
	bool sphere;        /* microdegrees on a sphere (else planar) */
	double scale;       /* the largest consistent scale (see above), 0 without arcs */
	uint32_t tight_u;   /* the arc that bounds it: tight_u -> tight_v */
	uint32_t tight_v;   /* (UINT32_MAX when no arc has a length) */
	uint64_t zero_arcs; /* arcs between nodes at the same point (no bound) */
};

/* Builds the geometry of g (which must have coordinates). Errors: EINVAL without
 * coordinates, ENOMEM. */
int ordo_geo_init(const struct ordo_graph *g, struct ordo_geo *geo, struct ordo_err *err);
void ordo_geo_free(struct ordo_geo *geo);

/* Straight-line length between nodes u and v. */
static inline double ordo_geo_len(const struct ordo_geo *geo, uint32_t u, uint32_t v)
{
	const double *a = geo->p + 3 * (size_t)u, *b = geo->p + 3 * (size_t)v;
	const double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
	return sqrt(dx * dx + dy * dy + dz * dz);
}

/* The heuristic of v towards the point tp (3 doubles) with a scale. */
static inline uint64_t ordo_geo_h(const struct ordo_geo *geo, double scale, uint32_t v,
                                  const double *tp)
{
	const double *a = geo->p + 3 * (size_t)v;
	const double dx = a[0] - tp[0], dy = a[1] - tp[1], dz = a[2] - tp[2];
	return (uint64_t)(scale * sqrt(dx * dx + dy * dy + dz * dz));
}

/* Sequential A* from src to dst with heuristic scale `scale`: *dist the distance
 * (UINT64_MAX when dst is unreachable), *expanded the nodes taken from the heap, the
 * denominator of the work ratio. Nodes may be reopened, so an admissible but
 * inconsistent scale still gives the exact distance. Errors: EINVAL, ENOMEM. */
int ordo_astar_seq(const struct ordo_graph *g, const struct ordo_geo *geo, double scale,
                   uint32_t src, uint32_t dst, uint64_t *dist, uint64_t *expanded,
                   struct ordo_err *err);

/* Parallel A*: priority = g + h; a push whose g + h cannot beat the target's current
 * distance is dropped; a popped task that is stale (its g is no longer the node's) or
 * cannot improve the target is empty work. The run ends when no task is left (no early
 * exit). dist[n] is work space (initialised here); *out the target's distance. */
int ordo_astar(const struct ordo_graph *g, const struct ordo_geo *geo, double scale, uint32_t src,
               uint32_t dst, struct ordo_scheduler *wl, const struct ordo_exec_opts *o,
               _Atomic uint64_t *dist, uint64_t *out, struct ordo_run_stats *st,
               struct ordo_err *err);

/* Admissibility of `scale` for target dst: h(v) <= true distance from v to dst for every
 * v that reaches dst (a Dijkstra from dst over reversed arcs). *violations counts the
 * nodes where it fails, *bad is the first (UINT32_MAX when none). Errors: ENOMEM. */
int ordo_astar_admissible(const struct ordo_graph *g, const struct ordo_geo *geo, double scale,
                          uint32_t dst, uint64_t *violations, uint32_t *bad, struct ordo_err *err);

#endif
