/* validate.c - comparing graphs and checking one's invariants (either representation;
 * a compressed graph's checks are ordo_graph_cz_validate's, in compress.c). */
#include <string.h>

#include "ordo_graph.h"
#include "ordo_rng.h"

bool ordo_graph_equal(const struct ordo_graph *a, const struct ordo_graph *b)
{
	if (a->n != b->n || a->m != b->m || !a->w != !b->w || a->coord_kind != b->coord_kind ||
	    !a->cz != !b->cz)
		return false;
	if (a->cz) {
		if (a->cz_bytes != b->cz_bytes || a->cz_wbase != b->cz_wbase ||
		    a->cz_flags != b->cz_flags || memcmp(a->cz, b->cz, a->cz_bytes))
			return false;
		for (uint64_t blk = 0; blk <= a->n / 16; blk++)
			if ((a->cz_blk[blk] & ORDO_CZ_SRCREL) != (b->cz_blk[blk] & ORDO_CZ_SRCREL))
				return false;
		for (uint32_t u = 0; u < a->n; u++) {
			uint64_t ab, ae, bb, bend;
			ordo_cz_range(a, u, &ab, &ae);
			ordo_cz_range(b, u, &bb, &bend);
			if (ab != bb || ae != bend)
				return false;
		}
	} else if (memcmp(a->off, b->off, ((size_t)a->n + 1) * sizeof *a->off) ||
	           (a->m && memcmp(a->dst, b->dst, a->m * sizeof *a->dst)) ||
	           (a->w && a->m && memcmp(a->w, b->w, a->m * sizeof *a->w))) {
		return false;
	}
	if (a->coord_kind != ORDO_COORD_NONE) {
		size_t sz = a->coord_kind == ORDO_COORD_INT32 ? 4 : 8;
		if (memcmp(a->coord, b->coord, 2 * (size_t)a->n * sz))
			return false;
	}
	if (!a->orig_id != !b->orig_id ||
	    (a->orig_id && memcmp(a->orig_id, b->orig_id, (size_t)a->n * sizeof *a->orig_id)))
		return false;
	return true;
}

int ordo_graph_validate(const struct ordo_graph *g, struct ordo_err *err)
{
	if (g->cz)
		return ordo_graph_cz_validate(g, err);
	if (g->off[0] != 0 || g->off[g->n] != g->m)
		return ordo_err_set(err, ORDO_EFORMAT, "offsets span %llu..%llu, expected 0..%llu",
		                    (unsigned long long)g->off[0], (unsigned long long)g->off[g->n],
		                    (unsigned long long)g->m);
	/* in parallel, the first violation of each kind (a mapped file is checked here on
	 * every load: a sequential pass over its arcs would cost more than the mapping) */
	uint64_t bad_u = UINT64_MAX, bad_e = UINT64_MAX;
#pragma omp parallel for schedule(static) reduction(min : bad_u)
	for (uint64_t u = 0; u < g->n; u++)
		if (g->off[u + 1] < g->off[u] && u < bad_u)
			bad_u = u;
	if (bad_u != UINT64_MAX)
		return ordo_err_set(err, ORDO_EFORMAT,
		                    "offsets decrease at node %llu (%llu then %llu)",
		                    (unsigned long long)bad_u, (unsigned long long)g->off[bad_u],
		                    (unsigned long long)g->off[bad_u + 1]);
#pragma omp parallel for schedule(static) reduction(min : bad_e)
	for (uint64_t e = 0; e < g->m; e++)
		if (g->dst[e] >= g->n && e < bad_e)
			bad_e = e;
	if (bad_e != UINT64_MAX)
		return ordo_err_set(err, ORDO_EFORMAT, "arc %llu points to node %u >= n=%u",
		                    (unsigned long long)bad_e, g->dst[bad_e], g->n);
	return 0;
}

/* One arc's term in the symmetry sums: a 64-bit mix of (from, to, weight). */
static inline uint64_t arc_term(uint64_t seed, uint32_t from, uint32_t to, uint32_t w)
{
	return ordo_hash2(seed ^ ordo_mix64((uint64_t)w + 0x9e3779b97f4a7c15ull),
	                  (uint64_t)from << 32 | to);
}

bool ordo_graph_arcs_symmetric(const struct ordo_graph *g)
{
	if (g->cz)
		return false; /* not asked of compressed graphs (see the header) */
	uint64_t fwd1 = 0, rev1 = 0, fwd2 = 0, rev2 = 0;
#pragma omp parallel for schedule(dynamic, 4096) reduction(+ : fwd1, rev1, fwd2, rev2)
	for (uint64_t u = 0; u < g->n; u++)
		for (uint64_t e = g->off[u]; e < g->off[u + 1]; e++) {
			const uint32_t v = g->dst[e], w = g->w ? g->w[e] : 0;
			fwd1 += arc_term(1, (uint32_t)u, v, w);
			rev1 += arc_term(1, v, (uint32_t)u, w);
			fwd2 += arc_term(2, (uint32_t)u, v, w);
			rev2 += arc_term(2, v, (uint32_t)u, w);
		}
	return fwd1 == rev1 && fwd2 == rev2;
}

uint64_t ordo_graph_drop_self_loops(struct ordo_graph *g)
{
	if (g->cz)
		return 0;
	uint64_t k = 0, start = 0;
	for (uint64_t u = 0; u < g->n; u++) {
		const uint64_t end = g->off[u + 1];
		g->off[u] = k;
		for (uint64_t e = start; e < end; e++)
			if (g->dst[e] != u) {
				g->dst[k] = g->dst[e];
				if (g->w)
					g->w[k] = g->w[e];
				k++;
			}
		start = end;
	}
	g->off[g->n] = k;
	const uint64_t dropped = g->m - k;
	g->m = k;
	return dropped;
}
