/* graph.c - CSR allocation, comparison, validation, and edge-stream chains. */
#include "ordo_graph.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

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
	free(g->off);
	free(g->dst);
	free(g->w);
	free(g->coord);
	free(g->cz);
	free(g->cz_blk);
	free(g->cz_rel);
	free(g);
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
	free(g->coord);
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
	for (uint32_t u = 0; u < g->n; u++)
		if (g->off[u + 1] < g->off[u])
			return ordo_err_set(
			    err, ORDO_EFORMAT, "offsets decrease at node %u (%llu then %llu)", u,
			    (unsigned long long)g->off[u], (unsigned long long)g->off[u + 1]);
	for (uint64_t e = 0; e < g->m; e++)
		if (g->dst[e] >= g->n)
			return ordo_err_set(err, ORDO_EFORMAT, "arc %llu points to node %u >= n=%u",
			                    (unsigned long long)e, g->dst[e], g->n);
	return 0;
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
	if (!g->w) {
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

/* ---- chains ---- */

void ordo_chain_init(struct ordo_edge_chain *c, bool weighted)
{
	memset(c, 0, sizeof *c);
	c->weighted = weighted;
	c->block_cap = 65536;
}

bool ordo_chain_grow(struct ordo_edge_chain *c)
{
	uint32_t cap = c->block_cap ? c->block_cap : 65536;
	size_t arrays = c->weighted ? 3 : 2;
	/* Blocks come straight from mmap so that freeing one returns its memory to the
	 * system at once (malloc would keep it in its arenas), which is what bounds the
	 * builder's peak memory while it moves arcs from blocks into the CSR. */
	size_t bytes = sizeof(struct ordo_edge_block) + arrays * cap * sizeof(uint32_t);
	struct ordo_edge_block *b =
	    mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (b == MAP_FAILED) {
		c->oom = true;
		return false;
	}
	b->bytes = bytes;
	b->next = NULL;
	b->count = 0;
	b->cap = cap;
	b->src = (uint32_t *)(b + 1);
	b->dst = b->src + cap;
	b->w = c->weighted ? b->dst + cap : NULL;
	if (c->tail)
		c->tail->next = b;
	else
		c->head = b;
	c->tail = b;
	return true;
}

void ordo_block_free(struct ordo_edge_block *b)
{
	munmap(b, b->bytes);
}

void ordo_chain_concat(struct ordo_edge_chain *to, struct ordo_edge_chain *from)
{
	if (from->head) {
		if (to->tail)
			to->tail->next = from->head;
		else
			to->head = from->head;
		to->tail = from->tail;
		if (to->count == 0 || from->max_id > to->max_id)
			to->max_id = from->max_id;
		to->count += from->count;
	}
	to->oom |= from->oom;
	from->head = from->tail = NULL;
	from->count = 0;
	from->max_id = 0;
}

void ordo_chain_free(struct ordo_edge_chain *c)
{
	struct ordo_edge_block *b = c->head;
	while (b) {
		struct ordo_edge_block *nx = b->next;
		ordo_block_free(b);
		b = nx;
	}
	c->head = c->tail = NULL;
	c->count = 0;
	c->max_id = 0;
}

/* ---- source picking ---- */

uint32_t ordo_graph_pick_source(const struct ordo_graph *g, uint64_t seed, uint64_t k)
{
	if (g->n == 0 || g->m == 0)
		return UINT32_MAX;
	/* draw until a node with arcs comes up, as gapbs' SourcePicker does */
	for (uint64_t i = 0; i < 1000; i++) {
		uint32_t v = (uint32_t)ordo_reduce(ordo_hash2(seed, k * 1000 + i), g->n);
		if (ordo_graph_degree(g, v) > 0)
			return v;
	}
	uint32_t start = (uint32_t)ordo_reduce(ordo_hash2(seed, k), g->n);
	for (uint32_t i = 0; i < g->n; i++) {
		uint32_t v = (uint32_t)(((uint64_t)start + i) % g->n);
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
			/* queue[1..tail-1] are the nodes s reaches, in BFS order */
			*source = s;
			*target = queue[1 + ordo_reduce(ordo_hash2(seed ^ 0x7a7a, k), tail - 1)];
			free(queue), free(seen);
			return 0;
		}
		seen[s] = 0;
		do
			s = (uint32_t)(((uint64_t)s + 1) % g->n);
		while (ordo_graph_degree(g, s) == 0);
	}
	free(queue), free(seen);
	return ordo_err_set(err, ORDO_EINVAL, "no node of the graph reaches another: no pair");
}
