/*
 * ordo_edges.h - edge streams (chains of arc blocks, packed or spilled) that readers and
 * generators fill, the builder that turns them into a graph, and the transforms
 * (symmetrise, transpose, weights from coordinates).
 * Part of the graph module; ordo_graph.h includes it.
 */
#ifndef ORDO_EDGES_H
#define ORDO_EDGES_H

#include "ordo_csr.h"

/* ---- Edge streams -------------------------------------------------------------
 * Readers and generators append arcs to chains of blocks; chains are concatenated in
 * order into a stream, which the builder consumes. A chain is owned by one thread.
 * A chain with `pack` set seals each full block into a packed form (LEB128 varints of
 * zig-zag source and target steps, runs of one source coded once, weights in the fewest
 * whole bytes: about 4-7 bytes per arc where the plain block takes 12; see pack_tail in
 * graph.c), in memory or, with `spill`, in a file, so that a stream built into a
 * compressed graph holds far fewer bytes than its plain CSR would. Read a block
 * through ordo_block_view, which decodes a packed one. */

struct ordo_slab;

struct ordo_edge_block {
	struct ordo_edge_block *next;
	size_t bytes; /* of the mapping; 0: in its chain's slab (small packed blocks) */
	uint32_t count, cap;
	uint32_t *src, *dst, *w;  /* w NULL in unweighted streams; all NULL when packed */
	const uint8_t *packed;    /* the packed arcs, or NULL */
	struct ordo_spill *spill; /* spilled: the packed arcs are in this file */
	uint64_t spill_off;
	uint32_t spill_len; /* bytes there; 0: not spilled */
	bool weighted;
};

struct ordo_edge_chain {
	struct ordo_edge_block *head, *tail;
	struct ordo_edge_block *pred;  /* the block before tail (NULL: tail is head) */
	struct ordo_edge_block *spare; /* packing: a plain block to fill next */
	struct ordo_slab *slabs;       /* packing: where small packed blocks are cut */
	uint8_t *slab_at;
	size_t slab_left;
	uint64_t count;
	uint32_t max_id;    /* largest id seen (valid when count > 0) */
	uint32_t block_cap; /* arcs per new block */
	bool weighted;
	bool pack;                /* seal full blocks into the packed form */
	struct ordo_spill *spill; /* packing: write the packed blocks to this file */
	bool oom;                 /* an append failed; the chain is incomplete */
};

/* Initialises an empty chain (blocks of 65536 arcs, not packed). */
void ordo_chain_init(struct ordo_edge_chain *c, bool weighted);
/* Appends every block of `from` to `to` (both must agree on weightedness); `from` is
 * left empty. */
void ordo_chain_concat(struct ordo_edge_chain *to, struct ordo_edge_chain *from);
void ordo_chain_free(struct ordo_edge_chain *c);
/* Frees one block (already unlinked from its chain). */
void ordo_block_free(struct ordo_edge_block *b);
/* Slow path of ordo_chain_push: seals the full tail (packing chains) and adds a new
 * block. Returns false (and sets oom) on ENOMEM. */
bool ordo_chain_grow(struct ordo_edge_chain *c);
/* Packs the tail block of a packing chain (call when the chain is complete, before it
 * is concatenated; no-op otherwise). Returns false (and sets oom) on ENOMEM. */
bool ordo_chain_seal(struct ordo_edge_chain *c);

static inline bool ordo_block_plain(const struct ordo_edge_block *b)
{
	return !b->packed && !b->spill_len;
}

/* The arcs of one block as arrays: the block's own, or a packed block's decoded into a
 * caller-owned buffer (one per thread, reused across blocks, freed with free(buf->a)). */
struct ordo_block_view {
	const uint32_t *src, *dst, *w; /* w NULL when unweighted */
	uint32_t count;
};
struct ordo_unpack_buf {
	uint32_t *a;
	uint32_t cap; /* arcs */
	size_t bcap;  /* bytes read from a spill file, after the arcs */
};
/* Returns false on ENOMEM (the buffer could not grow). */
bool ordo_block_view(const struct ordo_edge_block *b, struct ordo_unpack_buf *buf,
                     struct ordo_block_view *v);

/* A spill file: packed blocks written to an unlinked temporary file in `dir` instead
 * of memory, read back once by the builder (ordo_build_opts.spill), so that a stream
 * bound for a compressed graph costs disk, not memory. Safe for concurrent chains. */
struct ordo_spill;
int ordo_spill_open(const char *dir, struct ordo_spill **out, struct ordo_err *err);
void ordo_spill_close(struct ordo_spill *sp);
/* Bytes written so far. */
uint64_t ordo_spill_bytes(const struct ordo_spill *sp);
/* 0 when no write or read failed; else EIO, with the cause in err. */
int ordo_spill_describe(const struct ordo_spill *sp, struct ordo_err *err);

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
	/* with compress: the partitions' packed arcs go to this file (ordo_spill_open) */
	struct ordo_spill *spill;
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

/* A symmetric copy of g (ordo_graph_prepare, prepare.c): every arc u->v also as v->u,
 * then one arc per (u, v), the
 * lightest, so both directions of an edge weigh the same; self-loops and coordinates
 * are kept. `g` is unchanged. Errors: ENOMEM. */
int ordo_graph_symmetrized(const struct ordo_graph *g, int threads, struct ordo_graph **out,
                           struct ordo_build_stats *stats, struct ordo_err *err);

/* The transpose of g: u -> v for every arc v -> u of g, each list sorted by source,
 * without weights, compressed when g is (transpose.c). For pull steps over in-arcs.
 * Errors: ENOMEM. */
int ordo_graph_transposed(const struct ordo_graph *g, int threads, struct ordo_graph **out,
                          struct ordo_err *err);
/* The same with each in-arc carrying its out-arc's weight (when g has weights). */
int ordo_graph_transposed_weighted(const struct ordo_graph *g, int threads, struct ordo_graph **out,
                                   struct ordo_err *err);

/* Replaces the weights with max(1, round(Euclidean distance)) of the endpoints'
 * coordinates (needs coordinates). */
int ordo_graph_weights_from_coords(struct ordo_graph *g, struct ordo_err *err);

#endif
