/*
 * ordo_csr.h - the CSR graph itself (struct ordo_graph): the struct, its accessors, its
 * life cycle and conversions. ordo_graph.h includes it with the rest of the graph
 * module; the module's other headers (arcs, edges, orders, generators) include this
 * one, so no header includes itself again through another.
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
#ifndef ORDO_CSR_H
#define ORDO_CSR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ordo_error.h"
#include "ordo_util.h"

#define ORDO_MAX_NODES 0xFFFFFFFFu /* ids are 0 .. 2^32-2 */

/* The arc iterator's functions are always inlined: a call would spill the iterator to
 * memory, and in an operator compiled for one representation (ORDO_GRAPH_OPERATOR) the
 * other's code folds away only once inlined. */
#define ORDO_INLINE static inline __attribute__((always_inline))

enum ordo_coord_kind { ORDO_COORD_NONE = 0, ORDO_COORD_INT32 = 1, ORDO_COORD_DOUBLE = 2 };

enum ordo_graph_flags {
	ORDO_GRAPH_SYMMETRIC = 1u << 0, /* every arc u->v has v->u with the same weight */
};

enum ordo_cz_flags {
	ORDO_CZ_WEIGHTED = 1u << 0, /* each arc carries a weight code */
	ORDO_CZ_W8 = 1u << 1,       /* every weight code is below 256 (grouped: one byte each) */
};
/* Zero bytes after the node data: decoders load 8 (a varint) or 16 (a group) bytes at
 * once from any position inside it. */
#define ORDO_CZ_PAD 16
extern uint8_t ordo_cz_shuf[256][16]; /* a full group's pshufb mask, by control byte */
extern uint8_t ordo_cz_glen[256];     /* and its bytes of gaps */
#if defined(__SSSE3__)
#include <immintrin.h>
#define ORDO_CZ_SIMD 1
#endif
/* Nodes of at least this degree code arcs 1.. in groups of four (see below). */
#define ORDO_CZ_GROUP_MIN 8

/* Block table entries of a compressed graph, one per 16 nodes: the byte offset of the
 * block's first node (56 bits), the shift s of its nodes' relative starts (node u
 * starts at offset + (cz_rel[u] << s): a block of hubs pads its nodes to multiples of
 * 2^s, so one byte per node still reaches them), and the code of its short lists. */
#define ORDO_CZ_BASE      ((1ull << 56) - 1)
#define ORDO_CZ_SHIFT_AT  56
#define ORDO_CZ_MAX_SHIFT 31
#define ORDO_CZ_SRCREL    (1ull << 62) /* targets after the first: zig-zag from the source */

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
	uint8_t *cz;       /* cz_bytes of node data, then ORDO_CZ_PAD zero bytes */
	uint64_t cz_bytes; /* bytes of node data */
	uint64_t *cz_blk;  /* n/16 + 1 block entries (see ORDO_CZ_BASE) */
	uint8_t *cz_rel;   /* n + 1: node u's start past its block's, >> the block's shift */
	uint64_t cz_nwide; /* blocks with a shift (hubs) */
	uint32_t cz_wbase; /* every weight is cz_wbase + its code */
	uint32_t cz_flags; /* enum ordo_cz_flags */
	/* Node order (reorder.c): a renumbered graph keeps each node's id in its input,
	 * orig_id[u], and the inverse, new_id[id]; both NULL when the ids are the input's.
	 * An edge list's sparse ids (--compact-ids) are input ids too: then some orig_id
	 * is n or more, ids_sparse is set, and new_id lists the nodes by increasing input
	 * id (n entries; ordo_graph_node_of searches it). Apps take and print input ids
	 * through ordo_graph_node_of / ordo_graph_orig_of (ordo_graph_has_id first). */
	uint32_t *orig_id, *new_id;
	bool ids_sparse;
	/* A graph loaded from a mappable native file (ordo-convert --mappable): its arrays
	 * point into the file, mapped read-only and shared through the page cache with every
	 * process that maps it; NULL when the graph owns all its arrays. Arrays it allocated
	 * later (new_id, weights set from coordinates) are its own and freed as usual. */
	void *map;
	uint64_t map_bytes;
};

static inline bool ordo_graph_compressed(const struct ordo_graph *g)
{
	return g->cz != NULL;
}
static inline bool ordo_graph_weighted(const struct ordo_graph *g)
{
	return g->w || (g->cz && (g->cz_flags & ORDO_CZ_WEIGHTED));
}

/* The input's id of node u, and the node whose input id is `id` (identity on a graph
 * in its input's order; with dense ids, ids >= n, such as UINT32_MAX, pass through;
 * with sparse ones an id no node has gives UINT32_MAX). */
static inline uint32_t ordo_graph_orig_of(const struct ordo_graph *g, uint32_t u)
{
	return g->orig_id && u < g->n ? g->orig_id[u] : u;
}
/* The position of input id `id` among the input's ids in increasing order (n: none). */
static inline uint32_t ordo_graph_sparse_rank(const struct ordo_graph *g, uint32_t id)
{
	uint32_t lo = 0, hi = g->n; /* new_id[lo..hi) may hold it */
	while (lo < hi) {
		const uint32_t mid = lo + (hi - lo) / 2;
		if (g->orig_id[g->new_id[mid]] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < g->n && g->orig_id[g->new_id[lo]] == id ? lo : g->n;
}
static inline uint32_t ordo_graph_node_of(const struct ordo_graph *g, uint32_t id)
{
	if (!g->ids_sparse)
		return g->new_id && id < g->n ? g->new_id[id] : id;
	const uint32_t r = ordo_graph_sparse_rank(g, id);
	return r < g->n ? g->new_id[r] : UINT32_MAX;
}
/* Whether some node has input id `id`. */
static inline bool ordo_graph_has_id(const struct ordo_graph *g, uint32_t id)
{
	return g->ids_sparse ? ordo_graph_sparse_rank(g, id) < g->n : id < g->n;
}
/* The node of the i-th smallest input id (i < n): ordo_graph_node_of(g, i) when the
 * ids are dense; what picks nodes "by input order" uses. */
static inline uint32_t ordo_graph_node_at(const struct ordo_graph *g, uint32_t i)
{
	return g->new_id && i < g->n ? g->new_id[i] : i;
}
/* u's position in input order (the inverse of ordo_graph_node_at). */
static inline uint32_t ordo_graph_input_rank(const struct ordo_graph *g, uint32_t u)
{
	return g->ids_sparse ? ordo_graph_sparse_rank(g, g->orig_id[u]) : ordo_graph_orig_of(g, u);
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

/* A zeroed graph struct on cache lines of its own (NULL when out of memory); what
 * ordo_graph_alloc and the builders use. Freed by ordo_graph_free. */
struct ordo_graph *ordo_graph_new(void);
/* Allocates an empty graph with arrays for n nodes and m arcs (off zeroed, dst/w
 * uninitialised). ENOMEM on failure or when the size is absurd. */
int ordo_graph_alloc(uint32_t n, uint64_t m, bool weighted, struct ordo_graph **out,
                     struct ordo_err *err);
/* Frees everything (unmaps a mapped file); NULL is allowed. */
void ordo_graph_free(struct ordo_graph *g);
/* True when p lies in g's mapped file (so is not g's to free or write). */
static inline bool ordo_graph_maps(const struct ordo_graph *g, const void *p)
{
	return g->map && (const char *)p >= (const char *)g->map &&
	       (const char *)p < (const char *)g->map + g->map_bytes;
}
/* Frees one of g's arrays unless it lies in g's mapped file. */
void ordo_graph_free_array(const struct ordo_graph *g, void *p);
/* Adds (zeroed) coordinate storage of the given kind. */
int ordo_graph_alloc_coords(struct ordo_graph *g, int kind, struct ordo_err *err);
/* Bytes held by the adjacency: offsets, destinations and weights of a plain graph; the
 * byte stream, block table and node starts of a compressed one. */
uint64_t ordo_graph_csr_bytes(const struct ordo_graph *g);
/* True when both graphs have the same n, m, representation, adjacency, coordinates and
 * input ids (bitwise). */
bool ordo_graph_equal(const struct ordo_graph *a, const struct ordo_graph *b);
/* Structural check. Plain: off monotone from 0 to m, every dst < n. Compressed: every
 * node's bytes decode exactly (varints of at most 5 bytes, inside the node, targets
 * sorted and < n), the degrees sum to m. EFORMAT, naming the node, on violation. */
int ordo_graph_validate(const struct ordo_graph *g, struct ordo_err *err);
/* True when every arc u -> v (weight w) of the plain graph g has its reverse v -> u
 * with the weight w, as multisets: compared by two 64-bit sums of hashed arcs, one over
 * the arcs and one over their reverses, in parallel (O(m)); a graph that is not
 * symmetric passes with probability about 2^-64. False for a compressed graph (not
 * asked of one). The one symmetry check: files that claim symmetry (GAPBS's undirected
 * flag, ordo's own marks), the METIS writer, Python's Graph.from_csr(symmetric=None). */
bool ordo_graph_arcs_symmetric(const struct ordo_graph *g);
/* Removes the self-loops of the plain graph g in place (offsets, targets, weights
 * compacted; the arrays keep their size); returns how many. Not for a mapped or
 * compressed graph (returns 0 for a compressed one). */
uint64_t ordo_graph_drop_self_loops(struct ordo_graph *g);

/* ---- Compressed CSR (compress.c) ---- */
/* A compressed copy of the plain graph g (adjacency lists sorted by target, then
 * weight; coordinates and flags copied). Each block of 16 nodes is coded with gaps or
 * source-relative targets, whichever is shorter. Errors: ENOMEM, EINVAL if g is
 * already compressed. */
int ordo_graph_compress(const struct ordo_graph *g, int threads, struct ordo_graph **out,
                        struct ordo_err *err);
/* Replaces *g by its compressed (compress true) or plain form and frees the old one; a
 * graph in that form already is left as it is. On error *g is unchanged. */
int ordo_graph_convert(struct ordo_graph **g, bool compress, int threads, struct ordo_err *err);
/* A plain copy of g (of a compressed graph: sorted lists; of a plain one: a copy). */
int ordo_graph_decompress(const struct ordo_graph *g, int threads, struct ordo_graph **out,
                          struct ordo_err *err);
/* For readers of stored compressed graphs: a compressed graph with room for `bytes` of
 * node data (cz, padded) and for its index (cz_blk, cz_rel), to be filled, then checked
 * with ordo_graph_validate before any use. */
int ordo_graph_alloc_cz(uint32_t n, uint64_t m, uint64_t bytes, uint32_t czflags, uint32_t wbase,
                        struct ordo_graph **out, struct ordo_err *err);
/* ordo_graph_validate's check of a compressed graph. */
int ordo_graph_cz_validate(const struct ordo_graph *g, struct ordo_err *err);
/* Coordinates of node u as doubles. */
void ordo_graph_coord(const struct ordo_graph *g, uint32_t u, double *x, double *y);
/* Gives g the input ids of its nodes: orig (n entries, malloc'd) becomes g->orig_id and
 * g->new_id is built; g owns orig even on error. A permutation of 0..n-1 is a
 * renumbering; other distinct ids below UINT32_MAX are sparse input ids (ids_sparse).
 * EFORMAT naming the first id repeated (or UINT32_MAX). */
int ordo_graph_set_ids(struct ordo_graph *g, uint32_t *orig, struct ordo_err *err);
/* Copies what g holds per node (coordinates, input ids) into h, of the same n. */
int ordo_graph_copy_node_data(const struct ordo_graph *g, struct ordo_graph *h,
                              struct ordo_err *err);

#endif
