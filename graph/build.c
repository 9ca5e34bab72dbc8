/*
 * build.c - edge stream -> CSR.
 *
 * Three phases, each freeing its input as it goes so that peak memory stays near the
 * edge blocks plus the CSR arrays (never both copies of the arcs in full):
 *  1. Partition: the input blocks are split into T contiguous ranges (by arc count);
 *     thread t routes each arc of its range to the chain of the node-range partition of
 *     its source (2^shift nodes per partition), dropping self-loops, drawing random
 *     weights from (seed, global arc index), and adding reverse arcs for symmetrize.
 *     Partition p's arcs are then thread 0's chain p, thread 1's chain p, ...: input
 *     order, whatever T is.
 *  2. Scatter: partitions are independent; each counts its nodes' degrees, writes its
 *     slice of the offsets and places its arcs (stable), then frees its chains. With
 *     dedup each adjacency is sorted by (dst, weight) and the first of each dst kept.
 *  3. Dedup only: partitions are compacted left in order and the arrays shrunk.
 * Because arrays are written partition by partition and malloc'd pages are only touched
 * when written, resident memory grows as the blocks are released.
 */
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "cz_internal.h"
#include "graph_sort.h"
#include "ordo_graph.h"
#include "ordo_rng.h"
#include "ordo_util.h"

#define PART_BLOCK        65536 /* big: blocks are mmap'd, only touched pages count */
#define PART_BLOCK_PACKED 2048

struct part_chains {
	struct ordo_edge_chain *c; /* [T][P] */
	int T, P;
};

/* Sorts each adjacency of nodes [lo, hi) by (dst, w), keeps the first arc per dst, and
 * compacts the partition so it starts at `base`. Returns the arcs kept; off[lo..hi) are
 * rewritten to the compacted positions. */
static uint64_t dedup_partition(struct ordo_graph *g, uint32_t lo, uint32_t hi, uint64_t base,
                                uint64_t part_end, uint64_t **scratch, uint64_t *scratch_cap)
{
	uint64_t wp = base;
	for (uint32_t u = lo; u < hi; u++) {
		uint64_t b = g->off[u], e = u + 1 < hi ? g->off[u + 1] : part_end;
		uint64_t d = e - b;
		if (d > *scratch_cap) {
			free(*scratch);
			*scratch_cap = d * 2;
			*scratch = malloc(*scratch_cap * sizeof **scratch);
			if (!*scratch)
				return UINT64_MAX;
		}
		uint64_t *s = *scratch;
		for (uint64_t i = 0; i < d; i++)
			s[i] = (uint64_t)g->dst[b + i] << 32 | (g->w ? g->w[b + i] : 0);
		sort_u64(s, d);
		g->off[u] = wp;
		for (uint64_t i = 0; i < d; i++) {
			if (i && (s[i] >> 32) == (s[i - 1] >> 32))
				continue;
			g->dst[wp] = (uint32_t)(s[i] >> 32);
			if (g->w)
				g->w[wp] = (uint32_t)s[i];
			wp++;
		}
	}
	return wp - base;
}

/* Counts into cur[0..span) the arcs of partition p (nodes lo..) by source, over the
 * T threads' chains. False when a packed block could not be decoded (no memory). */
static bool count_partition(struct ordo_edge_chain *parts, int T, int P, int p, uint32_t lo,
                            uint32_t span, uint64_t *cur, struct ordo_unpack_buf *ub)
{
	struct ordo_block_view v;
	memset(cur, 0, (size_t)span * sizeof *cur);
	for (int t = 0; t < T; t++)
		for (struct ordo_edge_block *b = parts[(size_t)t * P + p].head; b; b = b->next) {
			if (!ordo_block_view(b, ub, &v))
				return false;
			for (uint32_t i = 0; i < v.count; i++)
				cur[v.src[i] - lo]++;
		}
	return true;
}

/* Room for cnt pairs in *pairs (never NULL after: pairs + 0 is used); false: no memory. */
static bool pairs_room(uint64_t **pairs, uint64_t *cap, uint64_t cnt)
{
	if (cnt <= *cap && *pairs)
		return true;
	free(*pairs);
	*cap = cnt ? cnt : 1;
	if (!(*pairs = malloc(*cap * sizeof **pairs))) {
		*cap = 0;
		return false;
	}
	return true;
}

/* Partition p's arcs from every thread's chain (freed on the way) into pairs, each at
 * its source's cursor cur[src - lo] (target << 32 | weight); false: no memory. */
static bool scatter_partition(struct ordo_edge_chain *parts, int T, int P, int p, uint32_t lo,
                              uint64_t *cur, uint64_t *pairs, bool wout, struct ordo_unpack_buf *ub)
{
	bool ok = true;
	struct ordo_block_view v;
	for (int t = 0; t < T && ok; t++) {
		struct ordo_edge_chain *c = &parts[(size_t)t * P + p];
		for (struct ordo_edge_block *b = c->head; b && ok; b = b->next) {
			ok = ordo_block_view(b, ub, &v);
			for (uint32_t i = 0; ok && i < v.count; i++)
				pairs[cur[v.src[i] - lo]++] =
				    (uint64_t)v.dst[i] << 32 | (wout ? v.w[i] : 0);
		}
		ordo_chain_free(c);
	}
	return ok;
}

/* The builder's last stage for a compressed result: each partition's arcs become a
 * small CSR of that node range only (sorted, deduplicated if asked), which is encoded
 * and freed, so the plain CSR of the whole graph never exists. Peak memory: the
 * partition chains not yet encoded, the bytes encoded so far, and one partition per
 * thread as 8-byte pairs (its blocks are decoded twice, to count and to place, rather
 * than held decoded: on a skewed graph one partition can hold a tenth of the arcs).
 * The weights span [wbase, wmax]. The bytes are those ordo_graph_compress gives for
 * the same arcs. */
static int build_compressed(struct ordo_edge_chain *parts, int T, int P, int shift, uint32_t n,
                            bool wout, uint32_t wbase, uint32_t wmax, bool dedup,
                            struct ordo_build_stats *st, struct ordo_graph **out,
                            struct ordo_err *err)
{
	uint64_t total = 0;
	for (int i = 0; i < T * P; i++)
		total += parts[i].count;
	if (!wout || !total)
		wbase = wmax = 0;
	const uint32_t flags = ordo_cz_weight_flags(wout, wbase, wmax);
	const uint64_t nb = (uint64_t)n / 16 + 1;
	struct ordo_cz_chunk *ch = calloc((size_t)P, sizeof *ch);
	uint64_t *len = malloc(((uint64_t)n + 1) * sizeof *len);
	uint8_t *modes = calloc((nb + 7) / 8, 1);
	uint64_t *kept = calloc((size_t)P, sizeof *kept);
	struct ordo_graph *g = ordo_graph_new();
	int rc = 0;
	bool fail = !ch || !len || !modes || !kept || !g;
	if (!fail) {
#pragma omp parallel num_threads(T) reduction(|| : fail)
		{
			const size_t span_max = (size_t)1 << shift;
			uint64_t *loff = malloc((span_max + 1) * sizeof *loff);
			uint64_t *cur = malloc(span_max * sizeof *cur);
			uint64_t *pairs = NULL, cap = 0; /* target << 32 | weight, by source */
			struct ordo_unpack_buf ub = {0};
			fail = !loff || !cur;
#pragma omp for schedule(dynamic, 1)
			for (int p = 0; p < P; p++) {
				if (fail)
					continue;
				const uint32_t lo = (uint32_t)((uint64_t)p << shift);
				const uint32_t hi =
				    (uint32_t)((uint64_t)lo + span_max < n ? (uint64_t)lo + span_max
				                                           : n);
				const uint32_t span = hi - lo;
				uint64_t cnt = 0;
				for (int t = 0; t < T; t++)
					cnt += parts[(size_t)t * P + p].count;
				if ((fail = !pairs_room(&pairs, &cap, cnt)))
					continue;
				if ((fail = !count_partition(parts, T, P, p, lo, span, cur, &ub)))
					continue;
				loff[0] = 0;
				for (uint32_t u = 0; u < span; u++) {
					loff[u + 1] = loff[u] + cur[u];
					cur[u] = loff[u];
				}
				if ((fail = !scatter_partition(parts, T, P, p, lo, cur, pairs, wout,
				                               &ub)))
					continue;
				kept[p] = sort_lists(pairs, loff, span, dedup);
				if (!ordo_cz_encode_range(lo, hi, loff, pairs, flags, wbase,
				                          len + lo, modes + (lo >> 7), &ch[p]))
					fail = true;
			}
			free(loff);
			free(cur);
			free(pairs);
			free(ub.a);
		}
	}
	if (fail) {
		rc = ordo_err_set(err, ORDO_ENOMEM, "out of memory building a compressed graph");
		goto out;
	}
	g->n = n;
	for (int p = 0; p < P; p++)
		g->m += kept[p];
	st->duplicates_removed = total - g->m;
	g->cz_wbase = wbase;
	g->cz_flags = flags;
	if ((rc = ordo_cz_assemble(g, ch, (uint64_t)P, len, modes, T, err)))
		goto out;
	*out = g;
	g = NULL;
out:
	for (int i = 0; i < T * P; i++)
		ordo_chain_free(&parts[i]);
	ordo_cz_free_chunks(ch, (uint64_t)P);
	free(len);
	free(modes);
	free(kept);
	ordo_graph_free(g);
	return rc;
}

/* How the builder cuts the node range: P partitions of 2^shift nodes, T threads. */
struct geo {
	int T, P, shift;
	uint64_t n;
};

/* Step 1: the options and the arcs' ids against n (from opts or the largest id). */
static int check_input(const struct ordo_edge_chain *edges, const struct ordo_build_opts *opts,
                       uint64_t *n_out, struct ordo_err *err)
{
	if (edges->oom)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory while reading arcs");
	if (opts->random_weights && (opts->wlo > opts->whi || opts->wlo == 0))
		return ordo_err_set(err, ORDO_EINVAL, "random weights %u:%u: need 1 <= lo <= hi",
		                    opts->wlo, opts->whi);
	const uint64_t n = opts->n ? opts->n : (edges->count ? (uint64_t)edges->max_id + 1 : 0);
	if (n > ORDO_MAX_NODES)
		return ordo_err_set(err, ORDO_ERANGE,
		                    "%llu nodes: ordo uses 32-bit node ids (at most %u nodes)",
		                    (unsigned long long)n, ORDO_MAX_NODES);
	if (edges->count && edges->max_id >= n)
		return ordo_err_set(err, ORDO_ERANGE, "arc endpoint %u is not below n=%llu",
		                    edges->max_id, (unsigned long long)n);
	*n_out = n;
	return 0;
}

/* Step 2: every arc (its reverse too when symmetrising; self-loops dropped unless
 * kept; random weights drawn from its index) into the chain of its source's partition,
 * one set of P chains per thread, each thread taking an even share of the blocks. The
 * input chain is consumed. parts: T * P chains, or NULL (out of memory). */
static struct ordo_edge_chain *partition_arcs(struct ordo_edge_chain *edges,
                                              const struct ordo_build_opts *opts,
                                              const struct geo *G, bool wout, uint32_t *wbase_out,
                                              uint32_t *wmax_out, uint64_t *self_loops)
{
	const int T = G->T, P = G->P, shift = G->shift;
	uint64_t nb = 0;
	for (struct ordo_edge_block *b = edges->head; b; b = b->next)
		nb++;
	struct ordo_edge_block **blk = malloc((nb + 1) * sizeof *blk);
	uint64_t *bbase = malloc((nb + 1) * sizeof *bbase); /* each block's first arc */
	uint64_t *tstart = calloc((size_t)T + 1, sizeof *tstart);
	struct ordo_edge_chain *parts = malloc((size_t)T * P * sizeof *parts);
	uint64_t *loops = calloc((size_t)T, sizeof *loops);
	if (!blk || !bbase || !tstart || !parts || !loops) {
		free(blk), free(bbase), free(tstart), free(parts), free(loops);
		return NULL;
	}
	uint64_t i = 0, acc = 0;
	for (struct ordo_edge_block *b = edges->head; b; b = b->next, i++) {
		blk[i] = b;
		bbase[i] = acc;
		acc += b->count;
	}
	bbase[nb] = acc;
	/* thread t takes blocks [tstart[t], tstart[t+1]) */
	uint64_t t = 1;
	for (uint64_t k = 0; k < nb && t < (uint64_t)T; k++)
		while (t < (uint64_t)T && bbase[k + 1] >= acc * t / T)
			tstart[t++] = k + 1;
	while (t <= (uint64_t)T)
		tstart[t++] = nb;
	edges->head = edges->tail = edges->pred = NULL;
	edges->count = 0;
	for (int k = 0; k < T * P; k++) {
		ordo_chain_init(&parts[k], wout);
		/* packed: small blocks, so that the unsealed tails (one per chain) stay few
		 * bytes beside the packed arcs */
		parts[k].block_cap = opts->compress ? PART_BLOCK_PACKED : PART_BLOCK;
		parts[k].pack = opts->compress;
		parts[k].spill = opts->compress ? opts->spill : NULL;
	}
	uint32_t wbase = UINT32_MAX, wmax = 0; /* of the arcs kept */
	const uint64_t wrange = opts->random_weights ? (uint64_t)opts->whi - opts->wlo + 1 : 0;
#pragma omp parallel num_threads(T) reduction(min : wbase) reduction(max : wmax)
	{
		int tid = omp_get_thread_num();
		struct ordo_edge_chain *mine = parts + (size_t)tid * P;
		uint64_t nloops = 0;
		struct ordo_unpack_buf ub = {0};
		struct ordo_block_view v;
		for (uint64_t k = tstart[tid]; k < tstart[tid + 1]; k++) {
			struct ordo_edge_block *b = blk[k];
			if (!ordo_block_view(b, &ub, &v)) {
				mine[0].oom = true; /* reported as out of memory below */
				v.count = 0;
			}
			for (uint32_t j = 0; j < v.count; j++) {
				uint32_t s = v.src[j], d = v.dst[j];
				uint32_t w = v.w ? v.w[j] : 1;
				if (s == d && !opts->keep_self_loops) {
					nloops++;
					continue;
				}
				if (wrange)
					w = opts->wlo +
					    (uint32_t)ordo_reduce(
					        ordo_hash2(opts->seed, bbase[k] + j), wrange);
				wbase = w < wbase ? w : wbase;
				wmax = w > wmax ? w : wmax;
				ordo_chain_push(&mine[s >> shift], s, d, w);
				if (opts->symmetrize && s != d)
					ordo_chain_push(&mine[d >> shift], d, s, w);
			}
			ordo_block_free(b);
		}
		free(ub.a);
		for (int p = 0; p < P; p++)
			ordo_chain_seal(&mine[p]);
		loops[tid] = nloops;
	}
	free(blk);
	free(bbase);
	free(tstart);
	ordo_chain_free(edges); /* its blocks are gone; small packed ones left slabs */
	*self_loops = 0;
	for (int k = 0; k < T; k++)
		*self_loops += loops[k];
	free(loops);
	*wbase_out = wbase;
	*wmax_out = wmax;
	return parts;
}

/* Step 3 (plain CSR): each partition's arcs counted, placed (consuming its chains) and,
 * with dedup, deduplicated in place; kept[p]: the arcs partition p keeps. False when
 * out of memory. */
static bool fill_csr(struct ordo_edge_chain *parts, const struct geo *G, bool wout, bool dedup,
                     const uint64_t *pbase, struct ordo_graph *g, uint64_t *kept)
{
	const int T = G->T, P = G->P, shift = G->shift;
	const uint64_t n = G->n;
	/* the reduction's private copies start false (the identity of ||), so a failure
	 * known before the region must not be passed in through it */
	bool fail = false;
#pragma omp parallel num_threads(T) reduction(|| : fail)
	{
		uint64_t *cur = malloc(((size_t)1 << shift) * sizeof *cur);
		uint64_t *scratch = NULL, scap = 0;
		struct ordo_unpack_buf ub = {0};
		struct ordo_block_view v;
		fail = fail || !cur;
#pragma omp for schedule(dynamic, 1)
		for (int p = 0; p < P; p++) {
			if (fail)
				continue;
			uint32_t lo = (uint32_t)((uint64_t)p << shift);
			uint32_t hi = (uint32_t)((uint64_t)lo + (1ull << shift) < n
			                             ? (uint64_t)lo + (1ull << shift)
			                             : n);
			uint32_t span = hi - lo;
			if ((fail = !count_partition(parts, T, P, p, lo, span, cur, &ub)))
				continue;
			uint64_t acc = pbase[p];
			for (uint32_t k = 0; k < span; k++) {
				uint64_t d = cur[k];
				g->off[lo + k] = acc;
				cur[k] = acc;
				acc += d;
			}
			for (int t = 0; t < T; t++) {
				struct ordo_edge_chain *c = &parts[(size_t)t * P + p];
				for (struct ordo_edge_block *b = c->head; b && !fail; b = b->next) {
					fail = !ordo_block_view(b, &ub, &v);
					for (uint32_t i = 0; !fail && i < v.count; i++) {
						uint64_t pos = cur[v.src[i] - lo]++;
						g->dst[pos] = v.dst[i];
						if (wout)
							g->w[pos] = v.w[i];
					}
				}
				ordo_chain_free(c);
			}
			kept[p] = pbase[p + 1] - pbase[p];
			if (dedup && span) {
				uint64_t k = dedup_partition(g, lo, hi, pbase[p], pbase[p + 1],
				                             &scratch, &scap);
				if (k == UINT64_MAX)
					fail = true;
				else
					kept[p] = k;
			}
		}
		free(cur);
		free(scratch);
		free(ub.a);
	}
	return !fail;
}

/* Step 4 (plain CSR, dedup): the partitions' kept arcs moved together; returns m. */
static uint64_t close_gaps(struct ordo_graph *g, const struct geo *G, bool wout,
                           const uint64_t *pbase, const uint64_t *kept)
{
	const uint64_t n = G->n;
	uint64_t wp = 0;
	for (int p = 0; p < G->P; p++) {
		uint32_t lo = (uint32_t)((uint64_t)p << G->shift);
		uint64_t hi = (uint64_t)lo + (1ull << G->shift) < n ? lo + (1ull << G->shift) : n;
		if (wp != pbase[p]) {
			memmove(g->dst + wp, g->dst + pbase[p], kept[p] * sizeof *g->dst);
			if (wout)
				memmove(g->w + wp, g->w + pbase[p], kept[p] * sizeof *g->w);
			for (uint64_t u = lo; u < hi; u++)
				g->off[u] = g->off[u] - pbase[p] + wp;
		}
		wp += kept[p];
	}
	g->m = wp;
	uint32_t *nd = realloc(g->dst, (wp ? wp : 1) * sizeof *g->dst);
	if (nd)
		g->dst = nd;
	if (wout) {
		uint32_t *nw = realloc(g->w, (wp ? wp : 1) * sizeof *g->w);
		if (nw)
			g->w = nw;
	}
	return wp;
}

int ordo_graph_build(struct ordo_edge_chain *edges, const struct ordo_build_opts *opts,
                     struct ordo_graph **out, struct ordo_build_stats *stats, struct ordo_err *err)
{
	struct ordo_build_stats st = {0};
	*out = NULL;
	const bool win = edges->weighted, wout = win || opts->random_weights;
	st.input_arcs = edges->count;
	st.weights_replaced = win && opts->random_weights;
	struct geo G = {.T = opts->threads > 0 ? opts->threads : omp_get_max_threads()};
	int rc = check_input(edges, opts, &G.n, err);
	if (rc) {
		ordo_chain_free(edges);
		return rc;
	}
	/* at most 256 node ranges of 2^shift nodes (>= 1024) */
	G.shift = 10;
	while ((G.n >> G.shift) > 255)
		G.shift++;
	G.P = (int)((G.n + (1ull << G.shift) - 1) >> G.shift);
	if (G.P == 0)
		G.P = 1;
	const int T = G.T, P = G.P;
	uint32_t wbase, wmax;
	struct ordo_edge_chain *parts =
	    partition_arcs(edges, opts, &G, wout, &wbase, &wmax, &st.self_loops_removed);
	if (!parts) {
		ordo_chain_free(edges);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory partitioning arcs");
	}
	uint64_t *pbase = calloc((size_t)P + 1, sizeof *pbase); /* each partition's first arc */
	uint64_t *kept = calloc((size_t)P, sizeof *kept);
	bool oom = !pbase || !kept;
	for (int i = 0; i < T * P; i++)
		oom |= parts[i].oom;
	struct ordo_graph *g = NULL;
	if (oom) {
		rc = ordo_err_set(err, ORDO_ENOMEM, "out of memory partitioning arcs");
		goto fail;
	}
	for (int p = 0; p < P; p++) {
		pbase[p + 1] = pbase[p];
		for (int t = 0; t < T; t++)
			pbase[p + 1] += parts[(size_t)t * P + p].count;
	}
	st.reverse_arcs_added = pbase[P] - (st.input_arcs - st.self_loops_removed);
	if (opts->compress) {
		free(pbase);
		free(kept);
		rc = build_compressed(parts, T, P, G.shift, (uint32_t)G.n, wout, wbase, wmax,
		                      opts->dedup, &st, &g, err);
		free(parts);
		if (rc)
			return rc;
	} else {
		if ((rc = ordo_graph_alloc((uint32_t)G.n, pbase[P], wout, &g, err)))
			goto fail;
		if (!fill_csr(parts, &G, wout, opts->dedup, pbase, g, kept)) {
			rc = ordo_err_set(err, ORDO_ENOMEM, "out of memory building the CSR");
			goto fail;
		}
		uint64_t m = pbase[P];
		if (opts->dedup) {
			const uint64_t before = m;
			m = close_gaps(g, &G, wout, pbase, kept);
			st.duplicates_removed = before - m;
		}
		g->off[G.n] = m;
		free(kept);
		free(pbase);
		free(parts);
	}
	if (opts->symmetrize)
		g->flags |= ORDO_GRAPH_SYMMETRIC;
	if (stats)
		*stats = st;
	*out = g;
	return 0;
fail:
	ordo_graph_free(g);
	for (int i = 0; i < T * P; i++)
		ordo_chain_free(&parts[i]);
	free(parts);
	free(pbase);
	free(kept);
	return rc;
}
