/*
 * ordo_graph.h - the CSR graph every ordo algorithm runs on, the edge stream it is
 * built from, and the builder.
 *
 * Two representations behind one iteration API:
 *  - plain CSR: n nodes with 32-bit ids 0..n-1 (n < 2^32), m arcs, 64-bit offsets
 *    off[0..n] (arcs of u are off[u]..off[u+1]-1), destinations dst[m], optional
 *    weights w[m] (NULL when unweighted);
 *  - compressed CSR (ordo_graph_compress, or a compressed .ordo file): off, dst and w
 *    are NULL; each adjacency list is sorted and byte-coded (see "Compressed
 *    adjacency" below and graph/compress.c).
 * Both may carry coordinates (x,y per node, int32 or double as the source gave them,
 * with a free-text unit). A graph is immutable once built and may be read by any
 * number of threads at once; create/free are not concurrent.
 *
 * Edge iteration (what algorithms use; works on both representations):
 *     uint32_t v, w;
 *     for (struct ordo_arcs a = ordo_graph_arcs(g, u); ordo_arcs_next(&a, &v, &w);)
 *             use v (target) and w (weight; 1 on unweighted graphs);
 * The index accessors ordo_graph_begin/end/dst/weight are for plain graphs only (I/O
 * and builders); ordo_graph_degree works on both.
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

enum ordo_cz_flags {
	ORDO_CZ_WEIGHTED = 1u << 0, /* each arc carries a weight code */
};

/* Block table entries of a compressed graph (one per 16 nodes; see compress.c). */
#define ORDO_CZ_WIDE   (1ull << 63) /* the block's starts are in cz_wide[] */
#define ORDO_CZ_SRCREL (1ull << 62) /* targets after the first: zig-zag from the source */
#define ORDO_CZ_MASK   ((1ull << 62) - 1)

struct ordo_graph {
	uint32_t n;
	uint64_t m;
	uint64_t *off; /* n + 1 (plain only) */
	uint32_t *dst; /* m (plain only) */
	uint32_t *w;   /* m, or NULL when unweighted or compressed */
	uint32_t flags;
	int coord_kind;      /* enum ordo_coord_kind */
	void *coord;         /* 2n int32_t or 2n double: x0 y0 x1 y1 ... */
	char coord_unit[32]; /* "microdeg", "m", "" when unknown */
	/* Compressed adjacency; cz is NULL for a plain graph. */
	uint8_t *cz;       /* cz_bytes of node data, then 8 zero bytes of padding */
	uint64_t cz_bytes; /* bytes of node data */
	uint64_t *cz_blk;  /* n/16 + 1: start, or wide index | WIDE; | SRCREL */
	uint8_t *cz_rel;   /* n + 1: start of node u minus its narrow block's start */
	uint64_t *cz_wide; /* 16 starts per wide block */
	uint64_t cz_nwide; /* wide blocks */
	uint32_t cz_wbase; /* every weight is cz_wbase + its code */
	uint32_t cz_flags; /* enum ordo_cz_flags */
};

static inline bool ordo_graph_compressed(const struct ordo_graph *g)
{
	return g->cz != NULL;
}
static inline bool ordo_graph_weighted(const struct ordo_graph *g)
{
	return g->w || (g->cz && (g->cz_flags & ORDO_CZ_WEIGHTED));
}

/* ---- Plain-CSR index accessors (plain graphs only) ---- */
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

/* ---- Compressed adjacency ----------------------------------------------------
 * Node u's bytes are [start(u), start(u+1)) of cz. An empty node has no bytes; else:
 *   header  varint(zigzag(v0 - u) << 2 | min(d - 1, 3)), then varint(d - 4) if d >= 4
 *   weight  of arc 0 (weighted graphs): one byte c < 255 (w = wbase + c), or 255 and
 *           varint(w - wbase - 255)
 *   then for each further arc i: varint(v_i - v_{i-1}) (gap), or, in blocks marked
 *           ORDO_CZ_SRCREL, varint(zigzag(v_i - u)); then its weight as above.
 * Targets are sorted (v_0 <= v_1 <= ...). Varints are LEB128 (7 bits a byte, low first,
 * at most 5 bytes); they are decoded without branches from one 8-byte load, which the
 * padding keeps inside the buffer. A loaded graph is checked whole (ordo_graph_validate)
 * before anyone decodes it this way. */

static inline uint64_t ordo_cz_varint(const uint8_t **pp)
{
	uint64_t x;
	__builtin_memcpy(&x, *pp, 8); /* little-endian: checked in compress.c */
	const uint64_t stop = ~x & 0x8080808080808080ull;
	*pp += (__builtin_ctzll(stop) >> 3) + 1;
	x &= stop ^ (stop - 1); /* the varint's bytes only */
	return (x & 0x7f) | (x >> 1 & 0x3f80) | (x >> 2 & 0x1fc000) | (x >> 3 & 0xfe00000) |
	       (x >> 4 & 0x7f0000000ull);
}
static inline int64_t ordo_cz_unzigzag(uint64_t z)
{
	return (int64_t)(z >> 1) ^ -(int64_t)(z & 1);
}
/* Byte range of node u's data, and its block's entry (for the SRCREL bit). */
static inline uint64_t ordo_cz_start(const struct ordo_graph *g, uint32_t u, uint64_t be)
{
	return (be & ORDO_CZ_WIDE) ? g->cz_wide[(be & ORDO_CZ_MASK) * 16 + (u & 15)]
	                           : (be & ORDO_CZ_MASK) + g->cz_rel[u];
}
static inline uint64_t ordo_cz_range(const struct ordo_graph *g, uint32_t u, uint64_t *begin,
                                     uint64_t *end)
{
	const uint64_t be = g->cz_blk[u >> 4];
	*begin = ordo_cz_start(g, u, be);
	const uint32_t u1 = u + 1;
	*end = ordo_cz_start(g, u1, (u1 & 15) ? be : g->cz_blk[u1 >> 4]);
	return be;
}

/* Iterator over node u's arcs (see the top of this file). */
struct ordo_arcs {
	const uint32_t *d, *de, *w; /* plain: next target, end, next weight */
	size_t ws;                  /* plain: weight stride (0: the constant 1) */
	const uint8_t *p;           /* compressed: next byte */
	uint64_t left;              /* compressed: arcs not yet returned */
	uint32_t v;                 /* compressed: the next target, decoded ahead */
	uint32_t u;                 /* compressed: the source */
	uint32_t wbase;
	bool cz, srcrel, weighted;
};

extern const uint32_t ordo_graph_one; /* the weight of unweighted arcs */

/* Iterator over the compressed arcs of node u that start at p (empty: no bytes). */
static inline struct ordo_arcs ordo_cz_arcs_at(const uint8_t *p, bool empty, uint32_t u,
                                               bool srcrel, bool weighted, uint32_t wbase)
{
	struct ordo_arcs a;
	a.cz = true;
	a.u = u;
	a.wbase = wbase;
	a.srcrel = srcrel;
	a.weighted = weighted;
	a.left = 0;
	a.p = p;
	a.v = 0;
	if (!empty) {
		const uint64_t h = ordo_cz_varint(&a.p);
		a.left = (h & 3) + 1;
		if (a.left == 4)
			a.left += ordo_cz_varint(&a.p);
		a.v = (uint32_t)((int64_t)u + ordo_cz_unzigzag(h >> 2));
	}
	return a;
}

static inline struct ordo_arcs ordo_graph_arcs(const struct ordo_graph *g, uint32_t u)
{
	if (__builtin_expect(!g->cz, 1)) {
		struct ordo_arcs a;
		const uint64_t b = g->off[u], e = g->off[u + 1];
		a.d = g->dst + b;
		a.de = g->dst + e;
		a.w = g->w ? g->w + b : &ordo_graph_one;
		a.ws = g->w ? 1 : 0;
		a.cz = false;
		return a;
	}
	uint64_t b, e;
	const uint64_t be = ordo_cz_range(g, u, &b, &e);
	return ordo_cz_arcs_at(g->cz + b, b == e, u, be & ORDO_CZ_SRCREL,
	                       g->cz_flags & ORDO_CZ_WEIGHTED, g->cz_wbase);
}

static inline bool ordo_arcs_next(struct ordo_arcs *a, uint32_t *v, uint32_t *w)
{
	if (__builtin_expect(!a->cz, 1)) {
		if (a->d == a->de)
			return false;
		*v = *a->d++;
		*w = *a->w;
		a->w += a->ws;
		return true;
	}
	if (!a->left)
		return false;
	*v = a->v;
	const uint8_t *p = a->p;
	if (a->weighted) {
		uint32_t c = *p++;
		if (__builtin_expect(c == 255, 0))
			c += (uint32_t)ordo_cz_varint(&p);
		*w = a->wbase + c;
	} else {
		*w = 1;
	}
	if (--a->left) {
		const uint64_t x = ordo_cz_varint(&p);
		a->v = a->srcrel ? (uint32_t)((int64_t)a->u + ordo_cz_unzigzag(x))
		                 : a->v + (uint32_t)x;
	}
	a->p = p;
	return true;
}

/* The next batch of at most ORDO_ARCS_BATCH arcs, as arrays: *vp targets, *wp weights;
 * returns how many (0 at the end). A plain graph's batch points into the CSR itself; a
 * compressed one's is decoded into vbuf and wbuf (ORDO_ARCS_BATCH entries each). For
 * operators that read their arcs twice (prefetch, then relax): one decoding, no copy. */
#define ORDO_ARCS_BATCH 64
extern const uint32_t ordo_graph_ones[ORDO_ARCS_BATCH];
static inline unsigned ordo_arcs_batch(struct ordo_arcs *a, uint32_t *vbuf, uint32_t *wbuf,
                                       const uint32_t **vp, const uint32_t **wp)
{
	unsigned k = 0;
	if (__builtin_expect(!a->cz, 1)) {
		const size_t left = (size_t)(a->de - a->d);
		k = left < ORDO_ARCS_BATCH ? (unsigned)left : ORDO_ARCS_BATCH;
		*vp = a->d;
		*wp = a->ws ? a->w : ordo_graph_ones;
		a->d += k;
		a->w += a->ws * k;
		return k;
	}
	while (k < ORDO_ARCS_BATCH && ordo_arcs_next(a, &vbuf[k], &wbuf[k]))
		k++;
	*vp = vbuf;
	*wp = wbuf;
	return k;
}

static inline uint64_t ordo_graph_degree(const struct ordo_graph *g, uint32_t u)
{
	if (__builtin_expect(!g->cz, 1))
		return g->off[u + 1] - g->off[u];
	uint64_t b, e;
	ordo_cz_range(g, u, &b, &e);
	if (b == e)
		return 0;
	const uint8_t *p = g->cz + b;
	uint64_t d = (ordo_cz_varint(&p) & 3) + 1;
	return d == 4 ? d + ordo_cz_varint(&p) : d;
}
/* Prefetch hints for operators' pipelines, so that they name no array of the
 * representation: the node's arc range, then (once that is cached) its arcs' first and
 * last lines (targets and weights). */
static inline void ordo_graph_prefetch_node(const struct ordo_graph *g, uint32_t u)
{
	if (g->cz) {
		ordo_prefetch(&g->cz_blk[u >> 4]);
		ordo_prefetch(&g->cz_rel[u]);
		return;
	}
	ordo_prefetch(&g->off[u]);
}
static inline void ordo_graph_prefetch_arcs(const struct ordo_graph *g, uint32_t u)
{
	if (g->cz) {
		uint64_t b, e;
		ordo_cz_range(g, u, &b, &e);
		if (b != e) {
			ordo_prefetch(g->cz + b);
			ordo_prefetch(g->cz + e - 1);
		}
		return;
	}
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
/* Bytes held by the adjacency: offsets, destinations and weights of a plain graph; the
 * byte stream, block table and node starts of a compressed one. */
uint64_t ordo_graph_csr_bytes(const struct ordo_graph *g);
/* True when both graphs have the same n, m, representation, adjacency and coordinates
 * (bitwise). */
bool ordo_graph_equal(const struct ordo_graph *a, const struct ordo_graph *b);
/* Structural check. Plain: off monotone from 0 to m, every dst < n. Compressed: every
 * node's bytes decode exactly (varints of at most 5 bytes, inside the node, targets
 * sorted and < n), the degrees sum to m. EFORMAT, naming the node, on violation. */
int ordo_graph_validate(const struct ordo_graph *g, struct ordo_err *err);

/* ---- Compressed CSR (compress.c) ---- */
/* A compressed copy of the plain graph g (adjacency lists sorted by target, then
 * weight; coordinates and flags copied). Each block of 16 nodes is coded with gaps or
 * source-relative targets, whichever is shorter. Errors: ENOMEM, EINVAL if g is
 * already compressed. */
int ordo_graph_compress(const struct ordo_graph *g, int threads, struct ordo_graph **out,
                        struct ordo_err *err);
/* A plain copy of g (of a compressed graph: sorted lists; of a plain one: a copy). */
int ordo_graph_decompress(const struct ordo_graph *g, int threads, struct ordo_graph **out,
                          struct ordo_err *err);
/* For readers of stored compressed graphs: an empty compressed graph with room for
 * `bytes` of node data (cz, padded), to be filled, then indexed by
 * ordo_graph_cz_index from the nodes' byte lengths (len[0..n-1]; consumed: used as
 * scratch) and checked with ordo_graph_validate. */
int ordo_graph_alloc_cz(uint32_t n, uint64_t m, uint64_t bytes, bool weighted, uint32_t wbase,
                        struct ordo_graph **out, struct ordo_err *err);
/* Builds the block table from the byte lengths; `srcrel` has one bit per block of 16
 * nodes (NULL: all gap-coded). EFORMAT when the lengths do not sum to cz_bytes. */
int ordo_graph_cz_index(struct ordo_graph *g, uint64_t *len, const uint8_t *srcrel,
                        struct ordo_err *err);
/* ordo_graph_validate's check of a compressed graph. */
int ordo_graph_cz_validate(const struct ordo_graph *g, struct ordo_err *err);
/* Per-block SRCREL bits of g (one bit per block, (n/16+1+7)/8 bytes) into bits. */
void ordo_graph_cz_modes(const struct ordo_graph *g, uint8_t *bits);
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
	int threads;   /* 0 = OpenMP default */
	bool compress; /* build the compressed CSR directly (never the plain one) */
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
