/*
 * ordo_arcs.h - arc iteration over both representations (struct ordo_arcs, batches, the
 * memo of the last lists decoded), the compressed adjacency decoder, and the graph's
 * stages of an operator's prefetch pipeline.
 * Part of the graph module; ordo_graph.h includes it.
 */
#ifndef ORDO_ARCS_H
#define ORDO_ARCS_H

#include "ordo_csr.h"

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
 * representation: the node's arc range, then (once that is cached) its arcs' lines
 * (targets and weights): the first and the last, and on a plain graph every line between
 * them up to ORDO_ARCS_PREFETCH_MAX arcs. The lines between matter where lists span
 * several lines and are read a few tasks later: rmat20's SSSP at its default took 0.84x
 * its time at 1 thread, 0.93x at 2 (bench/LOG.md, "Every line of an arc list
 * prefetched"); a list of at most 16 arcs costs one test more than before. */
ORDO_INLINE void ordo_graph_prefetch_node_as(const struct ordo_graph *g, uint32_t u, const bool cz)
{
	if (cz) {
		ordo_prefetch(&g->cz_blk[u >> 4]);
		ordo_prefetch(&g->cz_rel[u]);
		return;
	}
	ordo_prefetch(&g->off[u]);
}
/* The arcs of a list whose lines ordo_graph_prefetch_arcs_as asks for, at most. */
#define ORDO_ARCS_PREFETCH_MAX 128
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
	if (__builtin_expect(e - b <= 16, 1))
		return;
	/* a longer list: the lines between as well, up to 8 of each array */
	const uint64_t stop = e - b > ORDO_ARCS_PREFETCH_MAX ? b + ORDO_ARCS_PREFETCH_MAX : e - 1;
	for (uint64_t k = (b | 15) + 1; k < stop; k += 16) {
		ordo_prefetch(&g->dst[k]);
		if (g->w)
			ordo_prefetch(&g->w[k]);
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

#endif
