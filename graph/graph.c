/* graph.c - CSR allocation, comparison, validation, and edge-stream chains. */
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
	free(g->off);
	free(g->dst);
	free(g->w);
	free(g->coord);
	free(g->cz);
	free(g->cz_blk);
	free(g->cz_rel);
	free(g->orig_id);
	free(g->new_id);
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

int ordo_graph_set_ids(struct ordo_graph *g, uint32_t *orig, struct ordo_err *err)
{
	uint32_t *inv = malloc(((size_t)g->n + 1) * sizeof *inv);
	if (!inv) {
		free(orig);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory for %u node ids", g->n);
	}
	memset(inv, 0xff, (size_t)g->n * sizeof *inv);
	for (uint32_t u = 0; u < g->n; u++) {
		if (orig[u] >= g->n || inv[orig[u]] != UINT32_MAX) {
			int rc = ordo_err_set(
			    err, ORDO_EFORMAT, "node %u has input id %u, which is %s", u, orig[u],
			    orig[u] >= g->n ? "not below n" : "another node's too");
			free(orig), free(inv);
			return rc;
		}
		inv[orig[u]] = u;
	}
	free(g->orig_id);
	free(g->new_id);
	g->orig_id = orig;
	g->new_id = inv;
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
	if (!a->orig_id != !b->orig_id ||
	    (a->orig_id && memcmp(a->orig_id, b->orig_id, (size_t)a->n * sizeof *a->orig_id)))
		return false;
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

/* Blocks come straight from mmap so that freeing one returns its memory to the system
 * at once (malloc would keep it in its arenas), which is what bounds the builder's peak
 * memory while it moves arcs from blocks into the CSR. */
static struct ordo_edge_block *block_map(size_t bytes)
{
	struct ordo_edge_block *b =
	    mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (b == MAP_FAILED)
		return NULL;
	memset(b, 0, sizeof *b);
	b->bytes = bytes;
	return b;
}

static inline uint8_t *put_varint(uint8_t *p, uint64_t x)
{
	while (x >= 0x80) {
		*p++ = (uint8_t)(x | 0x80);
		x >>= 7;
	}
	*p++ = (uint8_t)x;
	return p;
}

static inline uint64_t get_varint(const uint8_t **pp)
{
	const uint8_t *p = *pp;
	uint64_t x = *p & 0x7f;
	for (int sh = 7; *p++ & 0x80; sh += 7)
		x |= (uint64_t)(*p & 0x7f) << sh;
	*pp = p;
	return x;
}

/* zig-zag of a difference taken modulo 2^32 (decoding adds it back modulo 2^32) */
static inline uint32_t zz(uint32_t d)
{
	return d << 1 ^ (uint32_t) - (int32_t)(d >> 31);
}
static inline uint32_t unzz(uint32_t z)
{
	return z >> 1 ^ (uint32_t) - (int32_t)(z & 1);
}

static inline uint8_t *put_weight(uint8_t *p, uint32_t w, unsigned wb)
{
	__builtin_memcpy(p, &w, 4); /* little-endian; wb low bytes are kept */
	return p + wb;
}

/* Where packed blocks live. A big block (a reader's) gets a mapping of its own, so that
 * the builder, freeing each as it reads it, returns the memory at once. Small blocks
 * (the builder's partitions: many, and freed only as whole chains) are cut one after
 * the other from the chain's slabs: large mappings of which only the pages written are
 * resident, so nothing is lost to rounding, and no page fault, unmap or allocator
 * lock is paid per block. A slab block has bytes 0; its memory goes with the chain. */
#define SLAB_BYTES    ((size_t)4 << 20)
#define SLAB_MAX_ARCS 8192 /* blocks of more arcs are big */
struct ordo_slab {
	struct ordo_slab *next;
	size_t bytes;
};

static struct ordo_edge_block *packed_alloc(struct ordo_edge_chain *c, size_t need)
{
	const size_t page = 4096;
	need = (need + 15) & ~(size_t)15;
	if (c->block_cap > SLAB_MAX_ARCS || need > SLAB_BYTES / 8) {
		struct ordo_edge_block *b = block_map((need + page - 1) / page * page);
		return b;
	}
	if (need > c->slab_left) {
		struct ordo_slab *sl = mmap(NULL, SLAB_BYTES, PROT_READ | PROT_WRITE,
		                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (sl == MAP_FAILED)
			return NULL;
		sl->bytes = SLAB_BYTES;
		sl->next = c->slabs;
		c->slabs = sl;
		c->slab_at = (uint8_t *)sl + 16;
		c->slab_left = SLAB_BYTES - 16;
	}
	struct ordo_edge_block *b = (struct ordo_edge_block *)c->slab_at;
	c->slab_at += need;
	c->slab_left -= need;
	memset(b, 0, sizeof *b); /* bytes 0: in a slab */
	return b;
}

static void free_slabs(struct ordo_slab *sl)
{
	while (sl) {
		struct ordo_slab *nx = sl->next;
		munmap(sl, sl->bytes);
		sl = nx;
	}
}

/* ---- spill files ---- */

struct ordo_spill {
	int fd;
	_Atomic uint64_t end;
	_Atomic int error; /* errno of the first failed write or read */
	char dir[256];
};

int ordo_spill_open(const char *dir, struct ordo_spill **out, struct ordo_err *err)
{
	*out = NULL;
	struct ordo_spill *sp = calloc(1, sizeof *sp);
	char path[4096];
	if (!sp)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	if (snprintf(path, sizeof path, "%s/ordo-spill-XXXXXX", dir) >= (int)sizeof path) {
		free(sp);
		return ordo_err_set(err, ORDO_EINVAL, "%s: directory name too long", dir);
	}
	snprintf(sp->dir, sizeof sp->dir, "%s", dir);
	sp->fd = mkstemp(path);
	if (sp->fd < 0) {
		int e = errno;
		free(sp);
		return ordo_err_set(err, ORDO_EIO, "%s: cannot create a spill file: %s", dir,
		                    strerror(e));
	}
	unlink(path); /* gone with the descriptor, whatever happens */
	*out = sp;
	return 0;
}

void ordo_spill_close(struct ordo_spill *sp)
{
	if (sp) {
		close(sp->fd);
		free(sp);
	}
}

int ordo_spill_describe(const struct ordo_spill *sp, struct ordo_err *err)
{
	int e = sp ? atomic_load(&sp->error) : 0;
	if (!e)
		return 0;
	return ordo_err_set(err, ORDO_EIO, "spilling arcs to %s: %s", sp->dir, strerror(e));
}

uint64_t ordo_spill_bytes(const struct ordo_spill *sp)
{
	return sp ? atomic_load(&sp->end) : 0;
}

/* pwrite (write) or pread of all len bytes at `at`. The first failure is remembered in
 * sp->error: errno, or for a transfer of 0 bytes ENOSPC (write) or EIO (read). */
static bool spill_io(struct ordo_spill *sp, uint8_t *p, size_t len, uint64_t at, bool write)
{
	while (len) {
		ssize_t r =
		    write ? pwrite(sp->fd, p, len, (off_t)at) : pread(sp->fd, p, len, (off_t)at);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			int zero = 0;
			atomic_compare_exchange_strong(&sp->error, &zero,
			                               r < 0   ? errno
			                               : write ? ENOSPC
			                                       : EIO);
			return false;
		}
		p += r, at += (uint64_t)r, len -= (size_t)r;
	}
	return true;
}

/* Appends len bytes to the file (at *off). */
static bool spill_write(struct ordo_spill *sp, uint8_t *p, size_t len, uint64_t *off)
{
	*off = atomic_fetch_add(&sp->end, len);
	return spill_io(sp, p, len, *off, true);
}

static inline unsigned varint_len(uint64_t x)
{
	return 1 + (unsigned)(63 - __builtin_clzll(x | 1)) / 7;
}

/* Writes b's packed arcs after the mode byte to out; with out NULL, only counts them.
 * Returns their bytes. */
static size_t pack_arcs(const struct ordo_edge_block *b, bool run_mode, unsigned wb, uint8_t *out)
{
	size_t n = 0;
#define PUT(x)   (out ? (void)(out = put_varint(out, (x))) : (void)(n += varint_len(x)))
#define PUT_W(x) (out ? (void)(out = put_weight(out, (x), wb)) : (void)(n += wb))
	uint32_t prev = 0;
	for (uint32_t i = 0; !run_mode && i < b->count; i++) {
		PUT(zz(b->src[i] - prev));
		PUT(zz(b->dst[i] - b->src[i]));
		if (wb)
			PUT_W(b->w[i]);
		prev = b->src[i];
	}
	for (uint32_t i = 0, j; run_mode && i < b->count; i = j) {
		const uint32_t s = b->src[i];
		for (j = i + 1; j < b->count && b->src[j] == s;)
			j++;
		PUT(zz(s - prev));
		PUT(j - i);
		prev = s;
		uint32_t last = s;
		for (uint32_t k = i; k < j; k++) {
			const uint32_t d = b->dst[k], rel = zz(d - s), gap = zz(d - last);
			PUT(rel <= gap ? (uint64_t)rel << 1 : (uint64_t)gap << 1 | 1);
			if (wb)
				PUT_W(b->w[k]);
			last = d;
		}
	}
#undef PUT
#undef PUT_W
	return n;
}

/* Replaces the tail of c (plain, sealed or full) by its packed form. A mode byte, then
 * in run mode (sources repeat: a stream sorted by source), runs of arcs with one
 * source, each as zz(source - previous run's source) and its length, then per arc the
 * smaller of zz(target - source) and zz(target - previous target) with a bit saying
 * which (a sorted list costs its gaps, a local one its offsets); in arc mode (sources
 * in any order), zz(source - previous source) and zz(target - source) per arc. Weights
 * follow each target in the fewest whole bytes that hold the block's largest. */
static bool pack_tail(struct ordo_edge_chain *c)
{
	struct ordo_edge_block *b = c->tail;
	uint32_t runs = 0, wmax = 0;
	for (uint32_t i = 0; i < b->count; i++) {
		runs += i == 0 || b->src[i] != b->src[i - 1];
		if (b->w && b->w[i] > wmax)
			wmax = b->w[i];
	}
	const unsigned wb = !b->w ? 0 : wmax < 1u << 8 ? 1 : wmax < 1u << 16 ? 2 : 4;
	const bool run_mode = 2 * (uint64_t)runs <= b->count;
	const size_t len = 1 + pack_arcs(b, run_mode, wb, NULL);
	/* 3 bytes of slack: a weight is stored, and loaded, as 4 bytes */
	struct ordo_edge_block *pb = packed_alloc(c, sizeof *pb + (c->spill ? 0 : len + 3));
	uint8_t *start = c->spill ? malloc(len + 3) : (uint8_t *)(pb + 1);
	if (!pb || !start) {
		if (c->spill)
			free(start);
		c->oom = true;
		return false;
	}
	*start = (uint8_t)(run_mode | wb << 1);
	pack_arcs(b, run_mode, wb, start + 1);
	if (c->spill) {
		bool ok = len <= UINT32_MAX && spill_write(c->spill, start, len, &pb->spill_off);
		free(start);
		if (!ok) {
			c->oom = true; /* the spill remembers why */
			return false;
		}
		pb->spill = c->spill;
		pb->spill_len = (uint32_t)len;
	} else {
		pb->packed = start;
	}
	pb->count = pb->cap = b->count;
	pb->weighted = b->w != NULL;
	if (c->pred)
		c->pred->next = pb;
	else
		c->head = pb;
	c->tail = pb;
	/* the plain block is kept for the chain's next one */
	if (!c->spare) {
		b->next = NULL;
		b->count = 0;
		c->spare = b;
	} else {
		ordo_block_free(b);
	}
	return true;
}

static void drop_spare(struct ordo_edge_chain *c)
{
	if (c->spare)
		ordo_block_free(c->spare);
	c->spare = NULL;
}

bool ordo_chain_seal(struct ordo_edge_chain *c)
{
	bool ok = !c->pack || !c->tail || !ordo_block_plain(c->tail) || pack_tail(c);
	drop_spare(c);
	return ok;
}

bool ordo_chain_grow(struct ordo_edge_chain *c)
{
	if (c->oom)
		return false;
	if (c->pack && c->tail && ordo_block_plain(c->tail) && !pack_tail(c))
		return false;
	uint32_t cap = c->block_cap ? c->block_cap : 65536;
	size_t arrays = c->weighted ? 3 : 2;
	struct ordo_edge_block *b = c->spare;
	if (b && b->cap == cap) {
		c->spare = NULL;
	} else {
		drop_spare(c);
		b = block_map(sizeof(struct ordo_edge_block) + arrays * cap * sizeof(uint32_t));
	}
	if (!b) {
		c->oom = true;
		return false;
	}
	b->cap = cap;
	b->src = (uint32_t *)(b + 1);
	b->dst = b->src + cap;
	b->w = c->weighted ? b->dst + cap : NULL;
	b->weighted = c->weighted;
	if (c->tail)
		c->tail->next = b;
	else
		c->head = b;
	c->pred = c->tail;
	c->tail = b;
	return true;
}

/* Grows buf to hold `arcs` decoded arcs and `bytes` packed bytes. */
static bool buf_reserve(struct ordo_unpack_buf *buf, uint32_t arcs, size_t bytes)
{
	if (buf->cap >= arcs && buf->bcap >= bytes)
		return true;
	arcs = arcs > buf->cap ? arcs : buf->cap;
	bytes = bytes > buf->bcap ? bytes : buf->bcap;
	uint32_t *a = malloc(3 * (size_t)arcs * sizeof *a + bytes);
	if (!a)
		return false;
	free(buf->a);
	buf->a = a;
	buf->cap = arcs;
	buf->bcap = bytes;
	return true;
}

bool ordo_block_view(const struct ordo_edge_block *b, struct ordo_unpack_buf *buf,
                     struct ordo_block_view *v)
{
	v->count = b->count;
	if (ordo_block_plain(b)) {
		v->src = b->src;
		v->dst = b->dst;
		v->w = b->w;
		return true;
	}
	if (!buf_reserve(buf, b->count, b->spill_len + 3))
		return false;
	uint32_t *s = buf->a, *d = s + buf->cap, *w = d + buf->cap;
	const uint8_t *p = b->packed;
	if (b->spill_len) {
		uint8_t *bytes = (uint8_t *)(w + buf->cap);
		if (!spill_io(b->spill, bytes, b->spill_len, b->spill_off, false))
			return false;
		p = bytes;
	}
	const bool run_mode = *p & 1;
	const unsigned wb = *p++ >> 1;
	const uint32_t wmask = wb == 4 ? UINT32_MAX : (1u << 8 * wb) - 1;
	uint32_t src = 0, x;
	for (uint32_t i = 0; !run_mode && i < b->count; i++) {
		s[i] = src += unzz((uint32_t)get_varint(&p));
		d[i] = src + unzz((uint32_t)get_varint(&p));
		if (wb) {
			__builtin_memcpy(&x, p, 4); /* 3 bytes of slack follow the last */
			w[i] = x & wmask;
			p += wb;
		}
	}
	for (uint32_t i = 0; run_mode && i < b->count;) {
		src += unzz((uint32_t)get_varint(&p));
		uint64_t run = get_varint(&p);
		if (run == 0 || run > b->count - i)
			run = b->count - i; /* only pack_tail writes blocks; kept in bounds */
		uint32_t last = src;
		for (const uint32_t e = i + (uint32_t)run; i < e; i++) {
			const uint64_t c = get_varint(&p);
			last = (c & 1 ? last : src) + unzz((uint32_t)(c >> 1));
			s[i] = src;
			d[i] = last;
			if (wb) {
				__builtin_memcpy(&x, p, 4);
				w[i] = x & wmask;
				p += wb;
			}
		}
	}
	v->src = s;
	v->dst = d;
	v->w = b->weighted ? w : NULL;
	return true;
}

void ordo_block_free(struct ordo_edge_block *b)
{
	if (b->bytes) /* else in a slab, freed with its chain */
		munmap(b, b->bytes);
}

void ordo_chain_concat(struct ordo_edge_chain *to, struct ordo_edge_chain *from)
{
	if (from->head) {
		if (to->tail)
			to->tail->next = from->head;
		else
			to->head = from->head;
		to->pred = from->pred ? from->pred : to->tail;
		to->tail = from->tail;
		if (to->count == 0 || from->max_id > to->max_id)
			to->max_id = from->max_id;
		to->count += from->count;
	}
	to->oom |= from->oom;
	drop_spare(from);
	if (from->slabs) { /* to's own slab stays the one it cuts from */
		struct ordo_slab *last = from->slabs;
		while (last->next)
			last = last->next;
		last->next = to->slabs ? to->slabs->next : NULL;
		if (to->slabs)
			to->slabs->next = from->slabs;
		else
			to->slabs = from->slabs;
		from->slabs = NULL;
		from->slab_left = 0;
	}
	from->head = from->tail = from->pred = NULL;
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
	drop_spare(c);
	free_slabs(c->slabs);
	c->slabs = NULL;
	c->slab_left = 0;
	c->head = c->tail = c->pred = NULL;
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
		uint32_t v = ordo_graph_node_of(
		    g, (uint32_t)ordo_reduce(ordo_hash2(seed, k * 1000 + i), g->n));
		if (ordo_graph_degree(g, v) > 0)
			return v;
	}
	uint32_t start = (uint32_t)ordo_reduce(ordo_hash2(seed, k), g->n);
	for (uint32_t i = 0; i < g->n; i++) {
		uint32_t v = ordo_graph_node_of(g, (uint32_t)(((uint64_t)start + i) % g->n));
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
			/* queue[1..tail-1] are the nodes s reaches: the one whose input id
			 * hashes lowest, whatever the order of the ids and arcs */
			const uint64_t salt = ordo_hash2(seed ^ 0x7a7a, k);
			uint32_t pick = queue[1];
			uint64_t best = ordo_hash2(salt, ordo_graph_orig_of(g, pick));
			for (size_t i = 2; i < tail; i++) {
				const uint32_t id = ordo_graph_orig_of(g, queue[i]);
				const uint64_t h = ordo_hash2(salt, id);
				if (h < best || (h == best && id < ordo_graph_orig_of(g, pick))) {
					best = h;
					pick = queue[i];
				}
			}
			*target = pick;
			*source = s;
			free(queue), free(seen);
			return 0;
		}
		seen[s] = 0;
		uint32_t id = ordo_graph_orig_of(g, s);
		do
			s = ordo_graph_node_of(g, id = (uint32_t)(((uint64_t)id + 1) % g->n));
		while (ordo_graph_degree(g, s) == 0);
	}
	free(queue), free(seen);
	return ordo_err_set(err, ORDO_EINVAL, "no node of the graph reaches another: no pair");
}
