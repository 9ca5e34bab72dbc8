/*
 * compress.c - the compressed CSR: encoding, indexing and decoding (checking a stored one:
 * cz_validate.c).
 *
 * The code (ordo_graph.h, "Compressed adjacency") is byte-aligned so that decoding is
 * a few shifts per arc: LEB128 varints read without branches from one 8-byte load, and
 * weights as one byte above the graph's smallest weight (an escape for the rare
 * larger ones). Two choices were measured on the yardsticks before settling:
 *  - targets after the first as gaps suit skewed graphs (rmat20: 1.69 bytes per target
 *    against 2.97 source-relative), but a lattice's neighbours u-W, u-1, u+1, u+W give
 *    gaps W-1, 2, W-1 where zig-zag distances from u are 1, 2, 2W: road2k 1.71 against
 *    1.50. Each block of 16 nodes takes whichever is shorter (one bit in its entry).
 *  - per-node 64-bit offsets would cost 3 bytes per arc on road2k (2.7 arcs a node), so
 *    node starts are one 64-bit entry per 16 nodes plus a byte per node (its distance
 *    from the block's start); a block whose first 15 nodes take more than 255 bytes is
 *    "wide" and keeps 16 full starts instead (hubs: a small cost per arc).
 * The degree is in the node's first varint (two bits, then an extension from 4 up), so
 * ordo_graph_degree reads one or two varints.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <omp.h>

#include "cz_internal.h"
#include "graph_sort.h"
#include "ordo_graph.h"
#include "ordo_util.h"
#include "varint.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the compressed CSR decoder assumes a little-endian machine"
#endif

/* pshufb masks and byte counts of a full group, by its control byte (defined whatever
 * this library's target, for programs built with SSSE3 against it) */
uint8_t ordo_cz_shuf[256][16];
uint8_t ordo_cz_glen[256];

__attribute__((constructor)) static void cz_tables(void)
{
	for (unsigned c = 0; c < 256; c++) {
		unsigned at = 0;
		for (unsigned i = 0; i < 4; i++) {
			const unsigned l = ((c >> (2 * i)) & 3) + 1;
			for (unsigned b = 0; b < 4; b++)
				ordo_cz_shuf[c][4 * i + b] = b < l ? (uint8_t)(at + b) : 0x80;
			at += l;
		}
		ordo_cz_glen[c] = (uint8_t)at;
	}
}

#define CHUNK 4096 /* nodes per encoding job: a multiple of 128 (8 blocks a mode byte) */

static inline unsigned wlen(uint32_t c)
{
	return c < 255 ? 1 : 1 + ordo_varint_len(c - 255u);
}
static inline uint8_t *wput(uint8_t *p, uint32_t c)
{
	if (c < 255) {
		*p++ = (uint8_t)c;
		return p;
	}
	*p++ = 255;
	return ordo_varint_put(p, c - 255u);
}

static inline unsigned blen(uint32_t x) /* bytes of a group value: 1..4 */
{
	return x < (1u << 8) ? 1 : x < (1u << 16) ? 2 : x < (1u << 24) ? 3 : 4;
}
static inline uint8_t *bput(uint8_t *p, uint32_t x, unsigned len)
{
	for (unsigned i = 0; i < len; i++)
		*p++ = (uint8_t)(x >> (8 * i));
	return p;
}

uint64_t ordo_cz_node_code(uint8_t *out, uint32_t u, const uint64_t *a, uint64_t d, bool srcrel,
                           uint32_t flags, uint32_t wbase)
{
	if (!d)
		return 0;
	const bool weighted = flags & ORDO_CZ_WEIGHTED, w8 = flags & ORDO_CZ_W8;
	uint8_t tmp[48], *p = out ? out : tmp;
	uint64_t len = 0;
	const uint32_t v0 = (uint32_t)(a[0] >> 32);
	const uint64_t h = ordo_zigzag((int64_t)v0 - (int64_t)u) << 2 | (d - 1 < 3 ? d - 1 : 3);
	p = ordo_varint_put(p, h);
	if (d >= 4)
		p = ordo_varint_put(p, d - 4);
	if (weighted)
		p = wput(p, (uint32_t)a[0] - wbase);
	len = (uint64_t)(p - (out ? out : tmp));
	if (!out)
		p = tmp;
	if (d >= ORDO_CZ_GROUP_MIN) { /* groups of four: control byte(s), gaps, weights */
		for (uint64_t i = 1; i < d; i += 4) {
			const unsigned k = d - i < 4 ? (unsigned)(d - i) : 4;
			unsigned ct = 0, cw = 0, bytes = 1 + (weighted && !w8);
			uint32_t gap[4], wc[4];
			for (unsigned j = 0; j < k; j++) {
				gap[j] =
				    (uint32_t)(a[i + j] >> 32) - (uint32_t)(a[i + j - 1] >> 32);
				wc[j] = (uint32_t)a[i + j] - wbase;
				ct |= (blen(gap[j]) - 1) << (2 * j);
				cw |= (blen(wc[j]) - 1) << (2 * j);
				bytes += blen(gap[j]) + (weighted ? (w8 ? 1 : blen(wc[j])) : 0);
			}
			len += bytes;
			if (!out)
				continue;
			*p++ = (uint8_t)ct;
			if (weighted && !w8)
				*p++ = (uint8_t)cw;
			for (unsigned j = 0; j < k; j++)
				p = bput(p, gap[j], blen(gap[j]));
			for (unsigned j = 0; weighted && j < k; j++)
				p = bput(p, wc[j], w8 ? 1 : blen(wc[j]));
		}
		return len;
	}
	uint32_t prev = v0;
	for (uint64_t i = 1; i < d; i++) {
		const uint32_t v = (uint32_t)(a[i] >> 32);
		const uint64_t x =
		    srcrel ? ordo_zigzag((int64_t)v - (int64_t)u) : (uint64_t)(v - prev);
		prev = v;
		if (out) {
			p = ordo_varint_put(p, x);
			if (weighted)
				p = wput(p, (uint32_t)a[i] - wbase);
		} else {
			len += ordo_varint_len(x) + (weighted ? wlen((uint32_t)a[i] - wbase) : 0);
		}
	}
	return out ? (uint64_t)(p - out) : len;
}

#define chunk ordo_cz_chunk

/* Chunks are mapped, not malloc'd, so that each returns its memory to the system as
 * soon as ordo_cz_assemble has placed it: a compressed build's peak then holds the
 * graph's bytes about once, not once in chunks and again in place. */
static uint8_t *chunk_map(uint64_t bytes)
{
	void *p = mmap(NULL, bytes ? bytes : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
	               -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

static void chunk_free(struct chunk *c)
{
	if (c->buf)
		munmap(c->buf, c->bytes ? c->bytes : 1);
	c->buf = NULL;
}

bool ordo_cz_encode_range(uint32_t lo, uint32_t hi, const uint64_t *loff, const uint64_t *pairs,
                          uint32_t flags, uint32_t wbase, uint64_t *len, uint8_t *modes,
                          struct chunk *out)
{
	uint64_t total = 0;
	bool *src = NULL;
	uint32_t nblk = (hi - lo + 15) / 16;
	if (!(src = malloc(nblk ? nblk : 1)))
		return false;
	for (uint32_t b = 0; b < nblk; b++) {
		uint32_t blo = lo + 16 * b, bhi = blo + 16 < hi ? blo + 16 : hi;
		uint64_t gap = 0, rel = 0;
		for (uint32_t u = blo; u < bhi; u++) {
			const uint64_t *a = pairs + loff[u - lo];
			uint64_t d = loff[u - lo + 1] - loff[u - lo];
			gap += ordo_cz_node_code(NULL, u, a, d, false, flags, wbase);
			rel += ordo_cz_node_code(NULL, u, a, d, true, flags, wbase);
		}
		src[b] = rel < gap;
		total += src[b] ? rel : gap;
	}
	out->bytes = total;
	out->buf = chunk_map(total);
	out->lo = lo;
	out->hi = hi;
	if (!out->buf) {
		free(src);
		return false;
	}
	uint8_t *p = out->buf;
	for (uint32_t u = lo; u < hi; u++) {
		const uint32_t b = (u - lo) / 16;
		uint64_t k =
		    ordo_cz_node_code(p, u, pairs + loff[u - lo], loff[u - lo + 1] - loff[u - lo],
		                      src[b], flags, wbase);
		len[u - lo] = k;
		p += k;
	}
	for (uint32_t b = 0; b < nblk; b++)
		if (src[b])
			modes[b >> 3] |= (uint8_t)(1u << (b & 7));
	free(src);
	return true;
}

uint32_t ordo_cz_weight_flags(bool weighted, uint32_t wbase, uint32_t wmax)
{
	return !weighted            ? 0
	       : wmax - wbase < 256 ? ORDO_CZ_WEIGHTED | ORDO_CZ_W8
	                            : ORDO_CZ_WEIGHTED;
}

int ordo_graph_alloc_cz(uint32_t n, uint64_t m, uint64_t bytes, uint32_t czflags, uint32_t wbase,
                        struct ordo_graph **out, struct ordo_err *err)
{
	*out = NULL;
	uint64_t ram = ordo_phys_mem(), need = bytes + ORDO_CZ_PAD + (uint64_t)n * 2;
	if (bytes > (1ull << 42) || (ram && need > ram))
		return ordo_err_set(err, ORDO_ENOMEM,
		                    "a compressed graph of %llu bytes does not fit in memory",
		                    (unsigned long long)bytes);
	struct ordo_graph *g = ordo_graph_new();
	if (!g)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory allocating a graph");
	g->n = n;
	g->m = m;
	g->cz_bytes = bytes;
	g->cz_wbase = wbase;
	g->cz_flags = czflags;
	g->cz = ordo_alloc_huge(bytes + ORDO_CZ_PAD);
	g->cz_blk = ordo_alloc_huge(((uint64_t)n / 16 + 1) * sizeof *g->cz_blk);
	g->cz_rel = ordo_alloc_huge((uint64_t)n + 1);
	if (!g->cz || !g->cz_blk || !g->cz_rel) {
		ordo_graph_free(g);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory for %llu bytes of arcs",
		                    (unsigned long long)bytes);
	}
	memset(g->cz + bytes, 0, ORDO_CZ_PAD);
	*out = g;
	return 0;
}

/* The shift of a block whose nodes start at st[0..k] (relative to st[0]): the smallest
 * s with every start a multiple of 2^s and the last at most 255 << s; -1 if none. */
static int block_shift(const uint64_t *st, unsigned k)
{
	for (int s = 0; s <= ORDO_CZ_MAX_SHIFT; s++) {
		if ((st[k] - st[0]) >> s > 255)
			continue;
		bool ok = true;
		for (unsigned i = 1; i <= k && ok; i++)
			ok = ((st[i] - st[0]) & ((1ull << s) - 1)) == 0;
		if (ok)
			return s;
	}
	return -1;
}

/* Builds the index from the nodes' (padded) byte lengths (len[0..n-1], starts on
 * return; n + 1 entries) and one SRCREL bit per block of 16 nodes. EFORMAT when the
 * lengths do not sum to cz_bytes or a block's starts cannot be indexed. */
static int cz_index(struct ordo_graph *g, uint64_t *len, const uint8_t *srcrel,
                    struct ordo_err *err)
{
	const uint32_t n = g->n;
	/* lengths -> starts, in place (len has n + 1 entries) */
	uint64_t acc = 0;
	for (uint64_t u = 0; u < n; u++) {
		uint64_t l = len[u];
		len[u] = acc;
		acc += l;
		if (acc < l || acc > g->cz_bytes)
			return ordo_err_set(err, ORDO_EFORMAT,
			                    "node %llu's data ends past the %llu bytes of arcs",
			                    (unsigned long long)u, (unsigned long long)g->cz_bytes);
	}
	if (acc != g->cz_bytes)
		return ordo_err_set(err, ORDO_EFORMAT,
		                    "the nodes' data takes %llu bytes, the graph has %llu",
		                    (unsigned long long)acc, (unsigned long long)g->cz_bytes);
	if (acc > ORDO_CZ_BASE)
		return ordo_err_set(err, ORDO_ERANGE, "%llu bytes of arcs: too many to index",
		                    (unsigned long long)acc);
	len[n] = acc;
	const uint64_t nb = (uint64_t)n / 16 + 1;
	free(g->cz_blk), free(g->cz_rel);
	g->cz_blk = ordo_alloc_huge(nb * sizeof *g->cz_blk);
	g->cz_rel = ordo_alloc_huge((uint64_t)n + 1);
	if (!g->cz_blk || !g->cz_rel)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory indexing a compressed graph");
	g->cz_nwide = 0;
	for (uint64_t b = 0; b < nb; b++) {
		const uint64_t lo = 16 * b, last = lo + 15 < n ? lo + 15 : n;
		const uint64_t mode =
		    srcrel && (srcrel[b >> 3] >> (b & 7) & 1) ? ORDO_CZ_SRCREL : 0;
		const int s = block_shift(len + lo, (unsigned)(last - lo));
		if (s < 0)
			return ordo_err_set(err, ORDO_EFORMAT,
			                    "nodes %llu..%llu: their starts cannot be indexed (not "
			                    "aligned, or too far apart)",
			                    (unsigned long long)lo, (unsigned long long)last);
		for (uint64_t u = lo; u <= last; u++)
			g->cz_rel[u] = (uint8_t)((len[u] - len[lo]) >> s);
		g->cz_blk[b] = len[lo] | (uint64_t)s << ORDO_CZ_SHIFT_AT | mode;
		g->cz_nwide += s > 0;
	}
	return 0;
}

/* Places nodes with the given lengths (len[0..n-1]) block by block: in a block whose
 * first 15 nodes take more than 255 bytes, each node starts at a multiple of 2^s past
 * the block's start (zero bytes pad the node before), for the smallest s that brings
 * the 16th start within 255 << s. Writes each block's s to shift[]. */
/* The block starting at node lo: its nodes below the returned one are padded. That is
 * its last start: node hi-1's, or the end (node n's) when node n is in this block;
 * after that the next block starts anywhere. */
static inline uint64_t block_last(uint64_t lo, uint32_t n)
{
	const uint64_t hi = lo + 16 < n ? lo + 16 : n;
	return hi == n && (n & 15) ? hi : hi - 1;
}

static void place(const uint64_t *len, uint8_t *shift, uint32_t n)
{
	for (uint64_t lo = 0; lo < n; lo += 16) {
		const uint64_t last = block_last(lo, n);
		for (int s = 0;; s++) {
			const uint64_t a = (1ull << s) - 1;
			uint64_t pos = 0;
			for (uint64_t u = lo; u < last; u++)
				pos += (len[u] + a) & ~a;
			if (pos >> s <= 255 || s == ORDO_CZ_MAX_SHIFT) {
				shift[lo / 16] = (uint8_t)s;
				break;
			}
		}
	}
}

/* Node u's length once placed: rounded up to its block's alignment, except the last
 * node of a full block (what follows it is the next block's start, indexed anew). */
static inline uint64_t padded(const uint64_t *len, const uint8_t *shift, uint32_t n, uint64_t u)
{
	if (u >= block_last(u & ~15ull, n))
		return len[u];
	const uint64_t a = (1ull << shift[u / 16]) - 1;
	return (len[u] + a) & ~a;
}

int ordo_cz_assemble(struct ordo_graph *g, struct chunk *ch, uint64_t nch, uint64_t *len,
                     const uint8_t *modes, int T, struct ordo_err *err)
{
	const uint32_t n = g->n;
	uint8_t *shift = malloc((uint64_t)n / 16 + 1);
	uint64_t *cstart = malloc((nch + 1) * sizeof *cstart);
	if (!shift || !cstart) {
		free(shift), free(cstart);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory placing compressed nodes");
	}
	place(len, shift, n);
	/* chunk c holds nodes [lo, hi) back to back; each goes to its padded place */
	uint64_t total = 0;
	for (uint64_t c = 0; c < nch; c++) {
		cstart[c] = total;
		for (uint32_t u = ch[c].lo; u < ch[c].hi; u++)
			total += padded(len, shift, n, u);
	}
	g->cz_bytes = total;
	g->cz = ordo_alloc_huge(total + ORDO_CZ_PAD);
	if (!g->cz) {
		free(shift), free(cstart);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory for %llu bytes of arcs",
		                    (unsigned long long)total);
	}
	memset(g->cz + total, 0, ORDO_CZ_PAD);
#pragma omp parallel for num_threads(T) schedule(dynamic, 1)
	for (uint64_t c = 0; c < nch; c++) {
		uint64_t at = cstart[c], from = 0;
		for (uint32_t u = ch[c].lo; u < ch[c].hi; u++) {
			const uint64_t p = padded(len, shift, n, u);
			memcpy(g->cz + at, ch[c].buf + from, len[u]);
			memset(g->cz + at + len[u], 0, p - len[u]);
			from += len[u];
			at += p;
			len[u] = p; /* only this chunk's nodes: no other thread reads it */
		}
		chunk_free(&ch[c]);
	}
	free(cstart);
	free(shift);
	return cz_index(g, len, modes, err);
}

void ordo_cz_free_chunks(struct chunk *ch, uint64_t nch)
{
	for (uint64_t c = 0; ch && c < nch; c++)
		chunk_free(&ch[c]);
	free(ch);
}

static int copy_node_data(const struct ordo_graph *g, struct ordo_graph *h, struct ordo_err *err)
{
	h->flags = g->flags;
	return ordo_graph_copy_node_data(g, h, err);
}

int ordo_graph_compress(const struct ordo_graph *g, int threads, struct ordo_graph **out,
                        struct ordo_err *err)
{
	*out = NULL;
	if (g->cz)
		return ordo_err_set(err, ORDO_EINVAL, "the graph is compressed already");
	const int T = threads > 0 ? threads : omp_get_max_threads();
	const uint32_t n = g->n;
	const bool weighted = g->w != NULL;
	uint32_t wbase = UINT32_MAX, wmax = 0;
	if (weighted) {
#pragma omp parallel for num_threads(T) reduction(min : wbase) reduction(max : wmax)
		for (uint64_t e = 0; e < g->m; e++) {
			wbase = g->w[e] < wbase ? g->w[e] : wbase;
			wmax = g->w[e] > wmax ? g->w[e] : wmax;
		}
	}
	if (!weighted || !g->m)
		wbase = wmax = 0;
	const uint32_t flags = ordo_cz_weight_flags(weighted, wbase, wmax);
	const uint64_t nch = ((uint64_t)n + CHUNK - 1) / CHUNK, nb = (uint64_t)n / 16 + 1;
	struct chunk *ch = calloc(nch + 1, sizeof *ch);
	uint64_t *len = malloc(((uint64_t)n + 1) * sizeof *len);
	uint8_t *modes = calloc((nb + 7) / 8, 1);
	struct ordo_graph *h = ordo_graph_new();
	int rc = 0;
	bool fail = !ch || !len || !modes || !h;
	if (!fail) {
#pragma omp parallel num_threads(T) reduction(|| : fail)
		{
			uint64_t *pairs = NULL, cap = 0;
			uint64_t *loff = malloc((CHUNK + 1) * sizeof *loff);
			fail = !loff;
#pragma omp for schedule(dynamic, 1)
			for (uint64_t c = 0; c < nch; c++) {
				if (fail)
					continue;
				const uint32_t lo = (uint32_t)(c * CHUNK);
				const uint32_t hi =
				    (uint32_t)((c + 1) * CHUNK < n ? (c + 1) * CHUNK : n);
				const uint64_t base = g->off[lo], cnt = g->off[hi] - base;
				if (cnt > cap || !pairs) { /* never NULL: pairs + 0 is used */
					free(pairs);
					cap = cnt ? cnt + cnt / 2 : 1;
					if (!(pairs = malloc(cap * sizeof *pairs))) {
						fail = true;
						cap = 0;
						continue;
					}
				}
				for (uint32_t u = lo; u <= hi; u++)
					loff[u - lo] = g->off[u] - base;
				for (uint64_t e = 0; e < cnt; e++)
					pairs[e] = (uint64_t)g->dst[base + e] << 32 |
					           (weighted ? g->w[base + e] : 0);
				sort_lists(pairs, loff, hi - lo, false);
				if (!ordo_cz_encode_range(lo, hi, loff, pairs, flags, wbase,
				                          len + lo, modes + (lo >> 7), &ch[c]))
					fail = true;
			}
			free(pairs);
			free(loff);
		}
	}
	if (fail) {
		rc = ordo_err_set(err, ORDO_ENOMEM, "out of memory compressing the graph");
		goto out;
	}
	h->n = n;
	h->m = g->m;
	h->cz_wbase = wbase;
	h->cz_flags = flags;
	if ((rc = ordo_cz_assemble(h, ch, nch, len, modes, T, err)) ||
	    (rc = copy_node_data(g, h, err)))
		goto out;
	*out = h;
	h = NULL;
out:
	ordo_cz_free_chunks(ch, nch);
	free(len);
	free(modes);
	ordo_graph_free(h);
	return rc;
}

int ordo_graph_decompress(const struct ordo_graph *g, int threads, struct ordo_graph **out,
                          struct ordo_err *err)
{
	*out = NULL;
	const int T = threads > 0 ? threads : omp_get_max_threads();
	struct ordo_graph *h;
	int rc = ordo_graph_alloc(g->n, g->m, ordo_graph_weighted(g), &h, err);
	if (rc)
		return rc;
	for (uint32_t u = 0; u < g->n; u++)
		h->off[u + 1] = h->off[u] + ordo_graph_degree(g, u);
#pragma omp parallel for num_threads(T) schedule(dynamic, 4096)
	for (uint64_t u = 0; u < g->n; u++) {
		uint64_t k = h->off[u];
		uint32_t v, w;
		for (struct ordo_arcs a = ordo_graph_arcs(g, (uint32_t)u);
		     ordo_arcs_next(&a, &v, &w); k++) {
			h->dst[k] = v;
			if (h->w)
				h->w[k] = w;
		}
	}
	if ((rc = copy_node_data(g, h, err))) {
		ordo_graph_free(h);
		return rc;
	}
	*out = h;
	return 0;
}

int ordo_graph_convert(struct ordo_graph **g, bool compress, int threads, struct ordo_err *err)
{
	if (compress == ordo_graph_compressed(*g))
		return 0;
	struct ordo_graph *h;
	int rc = compress ? ordo_graph_compress(*g, threads, &h, err)
	                  : ordo_graph_decompress(*g, threads, &h, err);
	if (rc)
		return rc;
	ordo_graph_free(*g);
	*g = h;
	return 0;
}
