/*
 * ordo_graph.h - the CSR graph every ordo algorithm runs on, the edge stream it is
 * built from, and the builder.
 *
 * Representation: n nodes with 32-bit ids 0..n-1 (n < 2^32), m arcs, 64-bit offsets
 * off[0..n] (arcs of u are off[u]..off[u+1]-1), destinations dst[m], optional weights
 * w[m] (NULL when unweighted), optional coordinates (x,y per node, int32 or double as
 * the source gave them, with a free-text unit). A graph is immutable once built and may
 * be read by any number of threads at once; create/free are not concurrent.
 *
 * Edge iteration (the one API algorithms use):
 *     for (uint64_t e = ordo_graph_begin(g, u); e < ordo_graph_end(g, u); e++)
 *             use ordo_graph_dst(g, e), ordo_graph_weight(g, e);
 */
#ifndef ORDO_GRAPH_H
#define ORDO_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ordo_error.h"
#include "ordo_util.h"

#define ORDO_MAX_NODES 0xFFFFFFFFu /* ids are 0 .. 2^32-2 */

enum ordo_coord_kind { ORDO_COORD_NONE = 0, ORDO_COORD_INT32 = 1, ORDO_COORD_DOUBLE = 2 };

enum ordo_graph_flags {
	ORDO_GRAPH_SYMMETRIC = 1u << 0, /* every arc u->v has v->u with the same weight */
};

struct ordo_graph {
	uint32_t n;
	uint64_t m;
	uint64_t *off; /* n + 1 */
	uint32_t *dst; /* m */
	uint32_t *w;   /* m, or NULL when unweighted */
	uint32_t flags;
	int coord_kind;      /* enum ordo_coord_kind */
	void *coord;         /* 2n int32_t or 2n double: x0 y0 x1 y1 ... */
	char coord_unit[32]; /* "microdeg", "m", "" when unknown */
};

static inline uint64_t ordo_graph_begin(const struct ordo_graph *g, uint32_t u)
{
	return g->off[u];
}
static inline uint64_t ordo_graph_end(const struct ordo_graph *g, uint32_t u)
{
	return g->off[u + 1];
}
static inline uint32_t ordo_graph_dst(const struct ordo_graph *g, uint64_t e)
{
	return g->dst[e];
}
/* Weight of arc e; 1 for unweighted graphs. */
static inline uint32_t ordo_graph_weight(const struct ordo_graph *g, uint64_t e)
{
	return g->w ? g->w[e] : 1u;
}
static inline uint64_t ordo_graph_degree(const struct ordo_graph *g, uint32_t u)
{
	return g->off[u + 1] - g->off[u];
}
/* Prefetch hints for operators' pipelines, so that they name no array of the
 * representation: the node's arc range, then (once that is cached) its arcs' first and
 * last lines (targets and weights). */
static inline void ordo_graph_prefetch_node(const struct ordo_graph *g, uint32_t u)
{
	ordo_prefetch(&g->off[u]);
}
static inline void ordo_graph_prefetch_arcs(const struct ordo_graph *g, uint32_t u)
{
	const uint64_t b = g->off[u], e = g->off[u + 1];
	if (b == e)
		return;
	ordo_prefetch(&g->dst[b]);
	ordo_prefetch(&g->dst[e - 1]);
	if (g->w) {
		ordo_prefetch(&g->w[b]);
		ordo_prefetch(&g->w[e - 1]);
	}
}

/* Allocates an empty graph with arrays for n nodes and m arcs (off zeroed, dst/w
 * uninitialised). ENOMEM on failure or when the size is absurd. */
int ordo_graph_alloc(uint32_t n, uint64_t m, bool weighted, struct ordo_graph **out,
                     struct ordo_err *err);
/* Frees everything; NULL is allowed. */
void ordo_graph_free(struct ordo_graph *g);
/* Adds (zeroed) coordinate storage of the given kind. */
int ordo_graph_alloc_coords(struct ordo_graph *g, int kind, struct ordo_err *err);
/* Bytes held by the CSR arrays (offsets, destinations, weights). */
uint64_t ordo_graph_csr_bytes(const struct ordo_graph *g);
/* True when both graphs have the same n, m, offsets, destinations, weights and
 * coordinates (bitwise). */
bool ordo_graph_equal(const struct ordo_graph *a, const struct ordo_graph *b);
/* Structural check: off monotone from 0 to m, every dst < n. EFORMAT on violation. */
int ordo_graph_validate(const struct ordo_graph *g, struct ordo_err *err);
/* Coordinates of node u as doubles. */
void ordo_graph_coord(const struct ordo_graph *g, uint32_t u, double *x, double *y);

/* Source picking for apps and benchmarks (gapbs' SourcePicker): the k-th fixed-seed
 * draw of a node with out-degree > 0; UINT32_MAX when the graph has no arc. Depends only
 * on (g, seed, k). */
uint32_t ordo_graph_pick_source(const struct ordo_graph *g, uint64_t seed, uint64_t k);
/* The k-th fixed-seed (source, target) pair: target != source and reachable from it (a
 * BFS from the drawn source picks the target among the nodes it reaches). Depends only
 * on (g, seed, k). Errors: EINVAL when the graph has no arc, ENOMEM. */
int ordo_graph_pick_pair(const struct ordo_graph *g, uint64_t seed, uint64_t k, uint32_t *source,
                         uint32_t *target, struct ordo_err *err);

/* ---- Edge streams -------------------------------------------------------------
 * Readers and generators append arcs to chains of blocks; chains are concatenated in
 * order into a stream, which the builder consumes. A chain is owned by one thread. */

struct ordo_edge_block {
	struct ordo_edge_block *next;
	size_t bytes; /* of the mapping */
	uint32_t count, cap;
	uint32_t *src, *dst, *w; /* w NULL in unweighted streams */
};

struct ordo_edge_chain {
	struct ordo_edge_block *head, *tail;
	uint64_t count;
	uint32_t max_id;    /* largest id seen (valid when count > 0) */
	uint32_t block_cap; /* arcs per new block */
	bool weighted;
	bool oom; /* an append failed; the chain is incomplete */
};

/* Initialises an empty chain (blocks of 65536 arcs). */
void ordo_chain_init(struct ordo_edge_chain *c, bool weighted);
/* Appends every block of `from` to `to` (both must agree on weightedness); `from` is
 * left empty. */
void ordo_chain_concat(struct ordo_edge_chain *to, struct ordo_edge_chain *from);
void ordo_chain_free(struct ordo_edge_chain *c);
/* Frees one block (already unlinked from its chain). */
void ordo_block_free(struct ordo_edge_block *b);
/* Slow path of ordo_chain_push: a new block. Returns false (and sets oom) on ENOMEM. */
bool ordo_chain_grow(struct ordo_edge_chain *c);

static inline bool ordo_chain_push(struct ordo_edge_chain *c, uint32_t s, uint32_t d, uint32_t w)
{
	struct ordo_edge_block *b = c->tail;
	if (__builtin_expect(!b || b->count == b->cap, 0)) {
		if (!ordo_chain_grow(c))
			return false;
		b = c->tail;
	}
	uint32_t i = b->count++;
	b->src[i] = s;
	b->dst[i] = d;
	if (b->w)
		b->w[i] = w;
	c->count++;
	uint32_t mx = s > d ? s : d;
	if (mx > c->max_id)
		c->max_id = mx;
	return true;
}

/* ---- Builder ------------------------------------------------------------------ */

struct ordo_build_opts {
	uint64_t n;           /* node count; 0 = largest id + 1 */
	bool symmetrize;      /* add v->u for every u->v */
	bool dedup;           /* keep one arc per (u,v): the minimum weight */
	bool keep_self_loops; /* default: remove u->u arcs and count them */
	bool random_weights;  /* replace/assign weights U[wlo, whi] from (seed, arc index) */
	uint32_t wlo, whi;
	uint64_t seed;
	int threads; /* 0 = OpenMP default */
};

struct ordo_build_stats {
	uint64_t input_arcs;
	uint64_t self_loops_removed;
	uint64_t duplicates_removed;
	uint64_t reverse_arcs_added;
	bool weights_replaced; /* random weights overwrote weights that the input had */
};

/* Builds a CSR from `edges` (consumed and emptied, also on error). Arcs keep their
 * input order within each node unless dedup sorts them. The result is identical for
 * every thread count. Peak memory: the edge blocks plus the CSR arrays, freeing blocks as
 * they are consumed (about 1.5x the final CSR for weighted graphs).
 * Errors: ERANGE when an id is >= opts->n or n exceeds 32-bit ids; ENOMEM. */
int ordo_graph_build(struct ordo_edge_chain *edges, const struct ordo_build_opts *opts,
                     struct ordo_graph **out, struct ordo_build_stats *stats, struct ordo_err *err);

/* A symmetric copy of g: every arc u->v also as v->u, then one arc per (u, v), the
 * lightest, so both directions of an edge weigh the same; self-loops and coordinates
 * are kept. `g` is unchanged. Errors: ENOMEM. */
int ordo_graph_symmetrized(const struct ordo_graph *g, int threads, struct ordo_graph **out,
                           struct ordo_build_stats *stats, struct ordo_err *err);

/* Replaces the weights with max(1, round(Euclidean distance)) of the endpoints'
 * coordinates (needs coordinates). */
int ordo_graph_weights_from_coords(struct ordo_graph *g, struct ordo_err *err);

/* ---- Generators (ordo-gen) -----------------------------------------------------
 * spec: "road:W=..,H=..,seed=..", "rmat:scale=..,ef=..,seed=..,wlo=..,whi=..",
 * "grid:W=..,H=..,lo=..,hi=..,seed=..". Output depends only on the spec. */
int ordo_generate(const char *spec, int threads, struct ordo_graph **out, char *resolved,
                  size_t resolved_cap, struct ordo_err *err);
/* Lists the generators and their parameters, one per line, into buf. */
void ordo_generate_help(char *buf, size_t cap);

#endif
