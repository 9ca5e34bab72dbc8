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
	 * Apps take and print input ids through ordo_graph_node_of / ordo_graph_orig_of. */
	uint32_t *orig_id, *new_id;
};

static inline bool ordo_graph_compressed(const struct ordo_graph *g)
{
	return g->cz != NULL;
}
static inline bool ordo_graph_weighted(const struct ordo_graph *g)
{
	return g->w || (g->cz && (g->cz_flags & ORDO_CZ_WEIGHTED));
}

/* The graph's part of an operator's prefetch pipeline (ordo_exec_opts.prefetch) for
 * node u, `ahead` (>= 2) tasks before it runs: a plain graph's arc range from 3 up, its
 * arcs at 2; a compressed graph's index entries from 4 up, its bytes at 3 and 2 (they
 * are decoded at stage 1, to prefetch the neighbours, so they get two stages to come). */
static inline void ordo_graph_prefetch_node(const struct ordo_graph *g, uint32_t u);
static inline void ordo_graph_prefetch_arcs(const struct ordo_graph *g, uint32_t u);
ORDO_INLINE void ordo_graph_prefetch_stage_as(const struct ordo_graph *g, uint32_t u,
                                              unsigned ahead, const bool cz);
static inline void ordo_graph_prefetch_stage(const struct ordo_graph *g, uint32_t u, unsigned ahead)
{
	ordo_graph_prefetch_stage_as(g, u, ahead, g->cz != NULL);
}
/* The stages of a hook of the usual shape - the node's own state with the graph's
 * first stage at the top, the graph's stages, the neighbours' state at 1 - for
 * ordo_exec_opts.prefetch_stages: 3 on a plain graph, 4 on a compressed one (the top
 * one is where ordo_graph_prefetch_stage_as asks for the node's index). */
static inline unsigned ordo_graph_prefetch_stages_as(const bool cz)
{
	return cz ? 4 : 3;
}
static inline unsigned ordo_graph_prefetch_stages(const struct ordo_graph *g)
{
	return ordo_graph_prefetch_stages_as(g->cz != NULL);
}

/* An operator NAME_plain and NAME_cz from one body BODY(args..., const bool cz), always
 * inlined, that reads the graph with the _as(..., cz) forms (ordo_graph_arcs_as,
 * ordo_graph_prefetch_stage_as, ordo_graph_prefetch_targets_as): pick one by
 * ordo_graph_compressed. Each runs as if written for its representation alone; one body
 * testing the representation at run time cost the plain CSR 5-10% (road2k SSSP). */
#define ORDO_GRAPH_OPERATOR(name, body, ret, a1, a2, a3) \
	static ret name##_plain(a1, a2, a3)              \
	{                                                \
		return body(ctx, t, user, false);        \
	}                                                \
	static ret name##_cz(a1, a2, a3)                 \
	{                                                \
		return body(ctx, t, user, true);         \
	}
/* The same for a prefetch hook (const struct ordo_task *t, unsigned ahead, void *user). */
#define ORDO_GRAPH_HOOK(name, body)                                                     \
	static void name##_plain(const struct ordo_task *t, unsigned ahead, void *user) \
	{                                                                               \
		body(t, ahead, user, false);                                            \
	}                                                                               \
	static void name##_cz(const struct ordo_task *t, unsigned ahead, void *user)    \
	{                                                                               \
		body(t, ahead, user, true);                                             \
	}

/* The input's id of node u, and the node whose input id is `id` (identity on a graph
 * in its input's order; ids >= n, such as UINT32_MAX, pass through). */
static inline uint32_t ordo_graph_orig_of(const struct ordo_graph *g, uint32_t u)
{
	return g->orig_id && u < g->n ? g->orig_id[u] : u;
}
static inline uint32_t ordo_graph_node_of(const struct ordo_graph *g, uint32_t id)
{
	return g->new_id && id < g->n ? g->new_id[id] : id;
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
 *   then, for d < ORDO_CZ_GROUP_MIN, each further arc i: varint(v_i - v_{i-1}) (gap),
 *           or, in blocks marked ORDO_CZ_SRCREL, varint(zigzag(v_i - u)); then its
 *           weight as above;
 *   or, for d >= ORDO_CZ_GROUP_MIN, arcs 1..d-1 in groups of four (the last may be
 *           shorter), each: a control byte (2 bits per gap: its length 1-4 bytes), a
 *           second one for the weight codes unless ORDO_CZ_W8, the gaps (little-endian,
 *           that many bytes each), then the weight codes (one byte each with
 *           ORDO_CZ_W8, else as long as their control byte says). Lengths come from the
 *           control byte, so the four loads do not wait on one another: a hub decodes
 *           several times faster than with varints.
 * Targets are sorted (v_0 <= v_1 <= ...). Varints are LEB128 (7 bits a byte, low first,
 * at most 5 bytes); they are decoded without branches from one 8-byte load, which the
 * padding keeps inside the buffer. A loaded graph is checked whole (ordo_graph_validate)
 * before anyone decodes it this way. */

ORDO_INLINE uint64_t ordo_cz_varint(const uint8_t **pp)
{
	uint64_t x;
	__builtin_memcpy(&x, *pp, 8); /* little-endian: checked in compress.c */
	const uint64_t stop = ~x & 0x8080808080808080ull;
	*pp += (__builtin_ctzll(stop) >> 3) + 1;
	x &= stop ^ (stop - 1); /* the varint's bytes only */
	return (x & 0x7f) | (x >> 1 & 0x3f80) | (x >> 2 & 0x1fc000) | (x >> 3 & 0xfe00000) |
	       (x >> 4 & 0x7f0000000ull);
}
ORDO_INLINE int64_t ordo_cz_unzigzag(uint64_t z)
{
	return (int64_t)(z >> 1) ^ -(int64_t)(z & 1);
}
/* Byte range of node u's data, and its block's entry (for the SRCREL bit). */
ORDO_INLINE uint64_t ordo_cz_start(const struct ordo_graph *g, uint32_t u, uint64_t be)
{
	return (be & ORDO_CZ_BASE) + ((uint64_t)g->cz_rel[u] << ((be >> ORDO_CZ_SHIFT_AT) & 63));
}
ORDO_INLINE uint64_t ordo_cz_range(const struct ordo_graph *g, uint32_t u, uint64_t *begin,
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
	uint32_t v, wc;             /* compressed: the next arc, decoded ahead */
	uint32_t u, wbase;
	const uint8_t *wq; /* grouped nodes: the current group's next weight code */
	uint8_t ct, cw;    /* grouped nodes: its control bytes, shifted to the next arc */
	uint8_t gk;        /* grouped nodes: arcs of it not yet decoded */
	bool cz, srcrel, weighted, w8, grp;
};

extern const uint32_t ordo_graph_one; /* the weight of unweighted arcs */

ORDO_INLINE uint32_t ordo_cz_wcode(const uint8_t **pp)
{
	uint32_t c = *(*pp)++;
	if (__builtin_expect(c == 255, 0))
		c += (uint32_t)ordo_cz_varint(pp);
	return c;
}

/* One group of k <= 4 arcs at p: gaps into gv, weights (wbase + code) into gw (when
 * weighted); returns the byte after it. */
/* One group of k <= 4 arcs at p: gaps into gv, weights (wbase + code) into gw when
 * weighted and gw is not NULL (else they are skipped); returns the byte after it. */
ORDO_INLINE const uint8_t *ordo_cz_group(const uint8_t *p, unsigned k, bool weighted, bool w8,
                                         uint32_t wbase, uint32_t *gv, uint32_t *gw)
{
	static const uint32_t mask[4] = {0xFFu, 0xFFFFu, 0xFFFFFFu, 0xFFFFFFFFu};
	const unsigned ct = p[0], cw = weighted && !w8 ? p[1] : 0;
	const uint8_t *q = p + 1 + (weighted && !w8);
#ifdef ORDO_CZ_SIMD
	if (k == 4) { /* one load, one shuffle (16 bytes are there: ORDO_CZ_PAD) */
		const __m128i x = _mm_loadu_si128((const __m128i *)(const void *)q);
		const __m128i m = _mm_loadu_si128((const __m128i *)(const void *)ordo_cz_shuf[ct]);
		_mm_storeu_si128((__m128i *)(void *)gv, _mm_shuffle_epi8(x, m));
		q += ordo_cz_glen[ct];
	} else
#endif
		for (unsigned i = 0; i < k; i++) {
			const unsigned l = (ct >> (2 * i)) & 3;
			uint32_t x;
			__builtin_memcpy(&x, q, 4);
			gv[i] = x & mask[l];
			q += l + 1;
		}
	if (!weighted)
		return q;
	if (!gw) { /* skip the weights */
		if (w8)
			return q + k;
		unsigned wb = k;
		for (unsigned i = 0; i < k; i++)
			wb += (cw >> (2 * i)) & 3;
		return q + wb;
	}
	if (w8) {
		for (unsigned i = 0; i < k; i++)
			gw[i] = wbase + q[i];
		return q + k;
	}
	for (unsigned i = 0; i < k; i++) {
		const unsigned l = (cw >> (2 * i)) & 3;
		uint32_t x;
		__builtin_memcpy(&x, q, 4);
		gw[i] = wbase + (x & mask[l]);
		q += l + 1;
	}
	return q;
}

/* Iterator over the compressed arcs of node u that start at p (empty: no bytes). */
ORDO_INLINE struct ordo_arcs ordo_cz_arcs_at(const uint8_t *p, bool empty, uint32_t u, bool srcrel,
                                             uint32_t czflags, uint32_t wbase)
{
	struct ordo_arcs a;
	a.d = a.de = a.w = NULL;
	a.ws = 0;
	a.cz = true;
	a.u = u;
	a.wbase = wbase;
	a.srcrel = srcrel;
	a.weighted = czflags & ORDO_CZ_WEIGHTED;
	a.w8 = czflags & ORDO_CZ_W8;
	a.left = 0;
	a.p = p;
	a.v = 0;
	a.wc = 1;
	a.wq = NULL;
	a.ct = a.cw = a.gk = 0;
	a.grp = false;
	if (!empty) {
		const uint64_t h = ordo_cz_varint(&a.p);
		a.left = (h & 3) + 1;
		if (a.left == 4)
			a.left += ordo_cz_varint(&a.p);
		a.v = (uint32_t)((int64_t)u + ordo_cz_unzigzag(h >> 2));
		if (a.weighted)
			a.wc = wbase + ordo_cz_wcode(&a.p);
		a.grp = a.left >= ORDO_CZ_GROUP_MIN;
	}
	return a;
}

/* ordo_graph_arcs for a graph known to be compressed (cz true) or plain (false); with
 * a constant cz the other representation's code folds away (ORDO_GRAPH_OPERATOR). */
ORDO_INLINE struct ordo_arcs ordo_graph_arcs_as(const struct ordo_graph *g, uint32_t u,
                                                const bool cz)
{
	if (!cz) {
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
	return ordo_cz_arcs_at(g->cz + b, b == e, u, be & ORDO_CZ_SRCREL, g->cz_flags, g->cz_wbase);
}

ORDO_INLINE struct ordo_arcs ordo_graph_arcs(const struct ordo_graph *g, uint32_t u)
{
	return ordo_graph_arcs_as(g, u, __builtin_expect(g->cz != NULL, 0));
}

ORDO_INLINE bool ordo_arcs_next(struct ordo_arcs *a, uint32_t *v, uint32_t *w)
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
	*w = a->wc;
	if (--a->left) { /* decode the next arc */
		if (a->grp) {
			static const uint32_t mask[4] = {0xFFu, 0xFFFFu, 0xFFFFFFu, 0xFFFFFFFFu};
			if (!a->gk) { /* a new group: control bytes, and where its weights are */
				const unsigned k = a->left < 4 ? (unsigned)a->left : 4;
				const uint8_t *p = a->p;
				a->ct = *p++;
				if (a->weighted && !a->w8)
					a->cw = *p++;
				unsigned tb = k; /* bytes of its gaps */
				for (unsigned i = 0; i < k; i++)
					tb += (a->ct >> (2 * i)) & 3;
				a->p = p;
				a->wq = p + tb;
				a->gk = (uint8_t)k;
			}
			uint32_t x;
			__builtin_memcpy(&x, a->p, 4);
			a->v += x & mask[a->ct & 3];
			a->p += (a->ct & 3) + 1;
			a->ct >>= 2;
			if (a->weighted) {
				if (a->w8) {
					a->wc = a->wbase + *a->wq++;
				} else {
					__builtin_memcpy(&x, a->wq, 4);
					a->wc = a->wbase + (x & mask[a->cw & 3]);
					a->wq += (a->cw & 3) + 1;
					a->cw >>= 2;
				}
			}
			if (!--a->gk && a->weighted)
				a->p = a->wq; /* the next group follows the weights */
		} else {
			const uint64_t x = ordo_cz_varint(&a->p);
			a->v = a->srcrel ? (uint32_t)((int64_t)a->u + ordo_cz_unzigzag(x))
			                 : a->v + (uint32_t)x;
			if (a->weighted)
				a->wc = a->wbase + ordo_cz_wcode(&a->p);
		}
	}
	return true;
}

/* The next batch of at most ORDO_ARCS_BATCH arcs, as arrays: *vp targets, *wp weights;
 * returns how many (0 at the end). A plain graph's batch points into the CSR itself; a
 * compressed one's is decoded into vbuf and wbuf (ORDO_ARCS_BATCH entries each). For
 * operators that read their arcs twice (prefetch, then relax): one decoding, no copy. */
#define ORDO_ARCS_BATCH 64
extern const uint32_t ordo_graph_ones[ORDO_ARCS_BATCH];
ORDO_INLINE unsigned ordo_arcs_batch_impl(struct ordo_arcs *a, uint32_t *vbuf, uint32_t *wbuf,
                                          const uint32_t **vp, const uint32_t **wp,
                                          const bool want_w)
{
	unsigned k = 0;
	if (__builtin_expect(!a->cz, 1)) {
		const size_t left = (size_t)(a->de - a->d);
		k = left < ORDO_ARCS_BATCH ? (unsigned)left : ORDO_ARCS_BATCH;
		*vp = a->d;
		if (want_w)
			*wp = a->ws ? a->w : ordo_graph_ones;
		a->d += k;
		a->w += a->ws * k;
		return k;
	}
	*vp = vbuf;
	if (want_w)
		*wp = wbuf;
	if (a->grp && !a->gk) {
		/* grouped: whole groups straight into the buffers, gaps summed in place */
		uint32_t v = a->v, wc = a->wc;
		while (k + 5 <= ORDO_ARCS_BATCH && a->left > 1) {
			const unsigned g = a->left - 1 < 4 ? (unsigned)(a->left - 1) : 4;
			vbuf[k] = v;
			if (want_w)
				wbuf[k] = wc;
			a->p = ordo_cz_group(a->p, g, a->weighted, a->w8, a->wbase, vbuf + k + 1,
			                     want_w ? wbuf + k + 1 : NULL);
			for (unsigned i = 1; i <= g; i++)
				vbuf[k + i] = v += vbuf[k + i];
			if (want_w && !a->weighted)
				for (unsigned i = 1; i <= g; i++)
					wbuf[k + i] = 1;
			if (want_w)
				wc = wbuf[k + g];
			k += g;
			a->left -= g;
		}
		a->v = v;
		a->wc = wc;
		if (a->left == 1 && k < ORDO_ARCS_BATCH) { /* the last arc */
			vbuf[k] = v;
			if (want_w)
				wbuf[k] = wc;
			k++;
			a->left = 0;
		}
		return k;
	}
	uint32_t w;
	while (k < ORDO_ARCS_BATCH && ordo_arcs_next(a, &vbuf[k], want_w ? &wbuf[k] : &w))
		k++;
	return k;
}

ORDO_INLINE unsigned ordo_arcs_batch(struct ordo_arcs *a, uint32_t *vbuf, uint32_t *wbuf,
                                     const uint32_t **vp, const uint32_t **wp)
{
	return ordo_arcs_batch_impl(a, vbuf, wbuf, vp, wp, true);
}
/* ordo_arcs_batch without the weights (BFS, k-core): a compressed list skips their
 * bytes. Once used on an iterator, go on with it alone. */
ORDO_INLINE unsigned ordo_arcs_targets_batch(struct ordo_arcs *a, uint32_t *vbuf,
                                             const uint32_t **vp)
{
	return ordo_arcs_batch_impl(a, vbuf, NULL, vp, NULL, false);
}

/* Stage 1 of an operator's prefetch pipeline: the targets of node u whose state is
 * worth prefetching before its task runs, into *vp as ordo_arcs_batch gives them: a
 * plain list's first batch; a compressed list's first batch when it is long (grouped);
 * none for a short compressed list, where decoding it twice costs more than the few
 * misses, which the task's own batch prefetch takes anyway. */
ORDO_INLINE unsigned ordo_graph_prefetch_targets_as(const struct ordo_graph *g, uint32_t u,
                                                    uint32_t *vbuf, const uint32_t **vp,
                                                    const bool cz)
{
	struct ordo_arcs a = ordo_graph_arcs_as(g, u, cz);
	return ordo_arcs_targets_batch(&a, vbuf, vp);
}
static inline unsigned ordo_graph_prefetch_targets(const struct ordo_graph *g, uint32_t u,
                                                   uint32_t *vbuf, const uint32_t **vp)
{
	return ordo_graph_prefetch_targets_as(g, u, vbuf, vp, g->cz != NULL);
}

/* Decode once, for operators with a prefetch pipeline on compressed graphs: stage 1
 * decodes a task's list to prefetch its neighbours' state, and the task itself reads it
 * again a few steps later. A short list (at most ORDO_ARCS_MEMO arcs) decoded at stage
 * 1 is kept in a per-thread memo of the last ORDO_ARCS_MEMO_SLOTS, tagged with the run
 * (a number from ordo_arcs_memo_run, fresh for every run, so that no list outlives its
 * graph), and the task finds it there. With stages d positions apart
 * (ordo_exec_opts.prefetch_stages) d - 1 other tasks reach stage 1 before the task runs,
 * so the memo must hold more than d lists: 4 covers a compressed graph's 4 stages over
 * any lookahead up to ORDO_MAX_LOOKAHEAD (d <= 3); with 2 slots and d = 2 every list was
 * decoded twice. Long lists are decoded again: their groups decode fast, and they would
 * not fit. */
#define ORDO_ARCS_MEMO       8
#define ORDO_ARCS_MEMO_SLOTS 4
struct ordo_arcs_memo {
	uint64_t run;
	uint32_t next;
	struct {
		uint32_t u, k;
		uint32_t v[ORDO_ARCS_MEMO], w[ORDO_ARCS_MEMO];
	} slot[ORDO_ARCS_MEMO_SLOTS];
};
/* A fresh run number (never 0). */
uint64_t ordo_arcs_memo_run(void);

/* Stage 1: as ordo_graph_prefetch_targets_as, keeping a short compressed list in m. */
ORDO_INLINE unsigned ordo_graph_prefetch_targets_memo(const struct ordo_graph *g, uint32_t u,
                                                      uint32_t *vbuf, const uint32_t **vp,
                                                      const bool cz, struct ordo_arcs_memo *m,
                                                      uint64_t run)
{
	if (!cz)
		return ordo_graph_prefetch_targets_as(g, u, vbuf, vp, false);
	struct ordo_arcs a = ordo_graph_arcs_as(g, u, true);
	if (a.grp || a.left > ORDO_ARCS_MEMO)
		return ordo_arcs_targets_batch(&a, vbuf, vp);
	if (m->run != run) {
		m->run = run;
		for (unsigned i = 0; i < ORDO_ARCS_MEMO_SLOTS; i++)
			m->slot[i].u = UINT32_MAX;
	}
	_Static_assert((ORDO_ARCS_MEMO_SLOTS & (ORDO_ARCS_MEMO_SLOTS - 1)) == 0,
	               "the memo is indexed with a mask");
	const unsigned i = m->next++ & (ORDO_ARCS_MEMO_SLOTS - 1);
	unsigned k = 0;
	while (ordo_arcs_next(&a, &m->slot[i].v[k], &m->slot[i].w[k]))
		k++;
	m->slot[i].u = u;
	m->slot[i].k = k;
	*vp = m->slot[i].v;
	return k;
}

/* The task's iterator: over the memo's copy when stage 1 kept u's list in this run,
 * else as ordo_graph_arcs_as. */
ORDO_INLINE struct ordo_arcs ordo_graph_arcs_memo(const struct ordo_graph *g, uint32_t u,
                                                  const bool cz, const struct ordo_arcs_memo *m,
                                                  uint64_t run)
{
	if (cz && m->run == run)
		for (unsigned i = 0; i < ORDO_ARCS_MEMO_SLOTS; i++)
			if (m->slot[i].u == u) {
				struct ordo_arcs a;
				a.d = m->slot[i].v;
				a.de = m->slot[i].v + m->slot[i].k;
				a.w = m->slot[i].w;
				a.ws = 1;
				a.cz = false;
				return a;
			}
	return ordo_graph_arcs_as(g, u, cz);
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
ORDO_INLINE void ordo_graph_prefetch_node_as(const struct ordo_graph *g, uint32_t u, const bool cz)
{
	if (cz) {
		ordo_prefetch(&g->cz_blk[u >> 4]);
		ordo_prefetch(&g->cz_rel[u]);
		return;
	}
	ordo_prefetch(&g->off[u]);
}
ORDO_INLINE void ordo_graph_prefetch_arcs_as(const struct ordo_graph *g, uint32_t u, const bool cz)
{
	if (cz) {
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
static inline void ordo_graph_prefetch_node(const struct ordo_graph *g, uint32_t u)
{
	ordo_graph_prefetch_node_as(g, u, g->cz != NULL);
}
static inline void ordo_graph_prefetch_arcs(const struct ordo_graph *g, uint32_t u)
{
	ordo_graph_prefetch_arcs_as(g, u, g->cz != NULL);
}
ORDO_INLINE void ordo_graph_prefetch_stage_as(const struct ordo_graph *g, uint32_t u,
                                              unsigned ahead, const bool cz)
{
	if (ahead >= ordo_graph_prefetch_stages_as(cz))
		ordo_graph_prefetch_node_as(g, u, cz);
	else
		ordo_graph_prefetch_arcs_as(g, u, cz);
}

/* A zeroed graph struct on cache lines of its own (NULL when out of memory); what
 * ordo_graph_alloc and the builders use. Freed by ordo_graph_free. */
struct ordo_graph *ordo_graph_new(void);
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
/* True when both graphs have the same n, m, representation, adjacency, coordinates and
 * input ids (bitwise). */
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
 * g->new_id is built; g owns orig even on error. EFORMAT, naming the first id out of
 * range or repeated, unless orig is a permutation of 0..n-1. */
int ordo_graph_set_ids(struct ordo_graph *g, uint32_t *orig, struct ordo_err *err);
/* Copies what g holds per node (coordinates, input ids) into h, of the same n. */
int ordo_graph_copy_node_data(const struct ordo_graph *g, struct ordo_graph *h,
                              struct ordo_err *err);

/* ---- Node orders (reorder.c) ---- */
enum ordo_order {
	ORDO_ORDER_NONE = 0, /* the input's */
	ORDO_ORDER_RCM,      /* reverse Cuthill-McKee from pseudo-peripheral nodes */
	ORDO_ORDER_BFS,      /* breadth-first from node 0 (then the lowest id unreached) */
	ORDO_ORDER_DEGREE,   /* descending out-degree */
	ORDO_ORDER_HILBERT,  /* along a Hilbert curve over the coordinates */
};
/* "none", "rcm", "bfs", "degree", "hilbert" -> enum ordo_order; -1 for anything else. */
int ordo_order_from_name(const char *name);
const char *ordo_order_name(int order);
/* rank[u] = node u's position in the order (n entries). EINVAL: hilbert without
 * coordinates. Works on both representations. */
int ordo_graph_order(const struct ordo_graph *g, int order, uint32_t *rank, struct ordo_err *err);
/* A plain copy of plain g with node u renumbered rank[u] (a permutation, checked),
 * each list sorted by new target, coordinates moved along, and input ids kept. */
int ordo_graph_permute(const struct ordo_graph *g, const uint32_t *rank, int threads,
                       struct ordo_graph **out, struct ordo_err *err);
/* Replaces *g by its renumbering in the given order (same representation); on error *g
 * is unchanged. ORDO_ORDER_NONE leaves it. */
int ordo_graph_reorder(struct ordo_graph **g, int order, int threads, struct ordo_err *err);

/* Source picking for apps and benchmarks (gapbs' SourcePicker): the k-th fixed-seed
 * draw of a node with out-degree > 0; UINT32_MAX when the graph has no arc. Depends only
 * on (g, seed, k). The draws are of input ids, so a reordered graph gets the same
 * queries as its input. */
uint32_t ordo_graph_pick_source(const struct ordo_graph *g, uint64_t seed, uint64_t k);
/* The k-th fixed-seed (source, target) pair: target != source and reachable from it
 * (the target is the node the source reaches whose input id hashes lowest). Depends
 * only on (g, seed, k), and not on the node order. Errors: EINVAL when the graph has no
 * arc, ENOMEM. */
int ordo_graph_pick_pair(const struct ordo_graph *g, uint64_t seed, uint64_t k, uint32_t *source,
                         uint32_t *target, struct ordo_err *err);

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

/* A symmetric copy of g: every arc u->v also as v->u, then one arc per (u, v), the
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

/* ---- Generators (ordo-gen) -----------------------------------------------------
 * spec: "road:W=..,H=..,seed=..", "rmat:scale=..,ef=..,seed=..,wlo=..,whi=..",
 * "grid:W=..,H=..,lo=..,hi=..,seed=..". Output depends only on the spec. */
int ordo_generate(const char *spec, int threads, struct ordo_graph **out, char *resolved,
                  size_t resolved_cap, struct ordo_err *err);
/* The same, compressed when `compress`: R-MAT arcs wait packed and go straight into the
 * compressed builder (the plain graph never exists, so the peak is about the compressed
 * graph plus the packed arcs); the lattices are converted after. */
int ordo_generate_as(const char *spec, int threads, bool compress, struct ordo_graph **out,
                     char *resolved, size_t resolved_cap, struct ordo_err *err);
/* Lists the generators and their parameters, one per line, into buf. */
void ordo_generate_help(char *buf, size_t cap);

#endif
