/* graph.c - the graph object: allocation, coordinates, input ids, sizes. */
#include "ordo_graph.h"

#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ordo_rng.h"
#include "ordo_util.h"

struct ordo_graph *ordo_graph_new(void)
{
	/* whole cache lines of its own: threads read it on every task, and a neighbour on
	 * the heap written by a thread would make every such read a miss (the compressed
	 * fields are on its second line: road2k SSSP stopped scaling past 1 thread) */
	const size_t size = (sizeof(struct ordo_graph) + 63) & ~(size_t)63;
	struct ordo_graph *g = aligned_alloc(64, size);
	if (g)
		memset(g, 0, size);
	return g;
}

int ordo_graph_alloc(uint32_t n, uint64_t m, bool weighted, struct ordo_graph **out,
                     struct ordo_err *err)
{
	*out = NULL;
	/* 2^40 arcs = 8 TiB of arrays: far beyond anything loadable; refuse before malloc
	 * so a corrupt header cannot make us try. */
	if (m > (1ull << 40))
		return ordo_err_set(err, ORDO_ENOMEM, "refusing to allocate %llu arcs",
		                    (unsigned long long)m);
	uint64_t need = 8 * ((uint64_t)n + 1) + (weighted ? 8 : 4) * m, ram = ordo_phys_mem();
	if (ram && need > ram)
		return ordo_err_set(
		    err, ORDO_ENOMEM,
		    "a graph of %u nodes and %llu arcs needs %.1f GiB; this machine "
		    "has %.1f GiB",
		    n, (unsigned long long)m, (double)need / (1 << 30), (double)ram / (1 << 30));
	struct ordo_graph *g = ordo_graph_new();
	if (!g)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory allocating a graph");
	g->n = n;
	g->m = m;
	g->off = ordo_alloc_huge(((size_t)n + 1) * sizeof *g->off);
	if (g->off)
		memset(g->off, 0, ((size_t)n + 1) * sizeof *g->off);
	g->dst = ordo_alloc_huge((m ? m : 1) * sizeof *g->dst);
	if (weighted)
		g->w = ordo_alloc_huge((m ? m : 1) * sizeof *g->w);
	if (!g->off || !g->dst || (weighted && !g->w)) {
		ordo_graph_free(g);
		return ordo_err_set(err, ORDO_ENOMEM,
		                    "out of memory allocating a graph of %u nodes and %llu arcs", n,
		                    (unsigned long long)m);
	}
	*out = g;
	return 0;
}

void ordo_graph_free(struct ordo_graph *g)
{
	if (!g)
		return;
	void *arrays[] = {g->off,    g->dst,    g->w,       g->coord, g->cz,
	                  g->cz_blk, g->cz_rel, g->orig_id, g->new_id};
	for (size_t i = 0; i < sizeof arrays / sizeof *arrays; i++)
		ordo_graph_free_array(g, arrays[i]);
	if (g->map)
		munmap(g->map, g->map_bytes);
	free(g);
}

void ordo_graph_free_array(const struct ordo_graph *g, void *p)
{
	if (!ordo_graph_maps(g, p))
		free(p);
}

const uint32_t ordo_graph_one = 1;

uint64_t ordo_arcs_memo_run(void)
{
	static _Atomic uint64_t runs;
	return atomic_fetch_add_explicit(&runs, 1, memory_order_relaxed) + 1;
}
const uint32_t ordo_graph_ones[ORDO_ARCS_BATCH] = {
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};

int ordo_graph_alloc_coords(struct ordo_graph *g, int kind, struct ordo_err *err)
{
	size_t sz = kind == ORDO_COORD_INT32 ? sizeof(int32_t) : sizeof(double);
	ordo_graph_free_array(g, g->coord);
	g->coord = ordo_alloc_huge((2 * (size_t)g->n + 1) * sz);
	if (g->coord)
		memset(g->coord, 0, (2 * (size_t)g->n + 1) * sz);
	if (!g->coord) {
		g->coord_kind = ORDO_COORD_NONE;
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory allocating coordinates");
	}
	g->coord_kind = kind;
	return 0;
}

/* sparse_cmp's ids: qsort has no context argument, so a thread-local one */
static _Thread_local const uint32_t *tl_sort_ids;

static int sparse_cmp(const void *a, const void *b)
{
	const uint32_t x = tl_sort_ids[*(const uint32_t *)a], y = tl_sort_ids[*(const uint32_t *)b];
	return (x > y) - (x < y);
}

/* Sparse input ids: new_id[] lists the nodes by increasing id; repeated ids refused. */
static int set_sparse_ids(struct ordo_graph *g, uint32_t *orig, uint32_t *inv, struct ordo_err *err)
{
	for (uint32_t u = 0; u < g->n; u++)
		inv[u] = u;
	tl_sort_ids = orig;
	qsort(inv, g->n, sizeof *inv, sparse_cmp);
	tl_sort_ids = NULL;
	for (uint32_t i = 0; i < g->n; i++)
		if (orig[inv[i]] == UINT32_MAX || (i && orig[inv[i]] == orig[inv[i - 1]]))
			return ordo_err_set(err, ORDO_EFORMAT,
			                    "node %u has input id %u, which is %s", inv[i],
			                    orig[inv[i]],
			                    orig[inv[i]] == UINT32_MAX ? "no id (the largest value)"
			                                               : "another node's too");
	return 0;
}

int ordo_graph_set_ids(struct ordo_graph *g, uint32_t *orig, struct ordo_err *err)
{
	uint32_t *inv = malloc(((size_t)g->n + 1) * sizeof *inv);
	if (!inv) {
		ordo_graph_free_array(g, orig);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory for %u node ids", g->n);
	}
	bool sparse = false;
	for (uint32_t u = 0; u < g->n && !sparse; u++)
		sparse = orig[u] >= g->n;
	if (sparse) {
		int rc = set_sparse_ids(g, orig, inv, err);
		if (rc) {
			ordo_graph_free_array(g, orig), free(inv);
			return rc;
		}
	} else {
		memset(inv, 0xff, (size_t)g->n * sizeof *inv);
		for (uint32_t u = 0; u < g->n; u++) {
			if (inv[orig[u]] != UINT32_MAX) {
				int rc = ordo_err_set(
				    err, ORDO_EFORMAT,
				    "node %u has input id %u, which is another node's too", u,
				    orig[u]);
				ordo_graph_free_array(g, orig), free(inv);
				return rc;
			}
			inv[orig[u]] = u;
		}
	}
	ordo_graph_free_array(g, g->orig_id);
	free(g->new_id);
	g->orig_id = orig;
	g->new_id = inv;
	g->ids_sparse = sparse;
	return 0;
}

int ordo_graph_copy_node_data(const struct ordo_graph *g, struct ordo_graph *h,
                              struct ordo_err *err)
{
	if (g->coord_kind != ORDO_COORD_NONE) {
		int rc = ordo_graph_alloc_coords(h, g->coord_kind, err);
		if (rc)
			return rc;
		memcpy(h->coord, g->coord,
		       2 * (size_t)g->n * (g->coord_kind == ORDO_COORD_INT32 ? 4 : 8));
		memcpy(h->coord_unit, g->coord_unit, sizeof g->coord_unit);
	}
	if (g->orig_id) {
		uint32_t *orig = malloc(((size_t)g->n + 1) * sizeof *orig);
		if (!orig)
			return ordo_err_set(err, ORDO_ENOMEM, "out of memory for %u node ids",
			                    g->n);
		memcpy(orig, g->orig_id, (size_t)g->n * sizeof *orig);
		return ordo_graph_set_ids(h, orig, err);
	}
	return 0;
}

uint64_t ordo_graph_csr_bytes(const struct ordo_graph *g)
{
	if (g->cz)
		return g->cz_bytes + ORDO_CZ_PAD + ((uint64_t)g->n / 16 + 1) * 8 + (uint64_t)g->n +
		       1;
	return ((uint64_t)g->n + 1) * 8 + g->m * 4 + (g->w ? g->m * 4 : 0);
}

void ordo_graph_coord(const struct ordo_graph *g, uint32_t u, double *x, double *y)
{
	if (g->coord_kind == ORDO_COORD_INT32) {
		const int32_t *c = g->coord;
		*x = c[2 * (size_t)u];
		*y = c[2 * (size_t)u + 1];
	} else if (g->coord_kind == ORDO_COORD_DOUBLE) {
		const double *c = g->coord;
		*x = c[2 * (size_t)u];
		*y = c[2 * (size_t)u + 1];
	} else {
		*x = *y = 0;
	}
}

int ordo_graph_weights_from_coords(struct ordo_graph *g, struct ordo_err *err)
{
	if (g->cz)
		return ordo_err_set(err, ORDO_EINVAL,
		                    "weights from coordinates: the graph is compressed; set the "
		                    "weights before compressing");
	if (g->coord_kind == ORDO_COORD_NONE)
		return ordo_err_set(err, ORDO_EINVAL,
		                    "weights from coordinates: the graph has no coordinates");
	if (!g->w || ordo_graph_maps(g, g->w)) { /* a mapped file's are read-only */
		g->w = ordo_alloc_huge((g->m ? g->m : 1) * sizeof *g->w);
		if (!g->w)
			return ordo_err_set(err, ORDO_ENOMEM, "out of memory allocating weights");
	}
#pragma omp parallel for schedule(dynamic, 4096)
	for (uint32_t u = 0; u < g->n; u++) {
		double ux, uy, vx, vy;
		ordo_graph_coord(g, u, &ux, &uy);
		for (uint64_t e = g->off[u]; e < g->off[u + 1]; e++) {
			ordo_graph_coord(g, g->dst[e], &vx, &vy);
			double d = round(hypot(ux - vx, uy - vy));
			g->w[e] = d < 1 ? 1 : d > 4e9 ? 4000000000u : (uint32_t)d;
		}
	}
	return 0;
}
