/* edges.c - edge streams: chains of arc blocks, packed (varints) or plain, in slabs or
 * spilled to an unlinked file, and their views for the builder. */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ordo_graph.h"
#include "ordo_util.h"
#include "varint.h"

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

/* Writes b's packed arcs after the mode byte to out; with out NULL, only counts them.
 * Returns their bytes. */
static size_t pack_arcs(const struct ordo_edge_block *b, bool run_mode, unsigned wb, uint8_t *out)
{
	size_t n = 0;
#define PUT(x)   (out ? (void)(out = ordo_varint_put(out, (x))) : (void)(n += ordo_varint_len(x)))
#define PUT_W(x) (out ? (void)(out = put_weight(out, (x), wb)) : (void)(n += wb))
	uint32_t prev = 0;
	for (uint32_t i = 0; !run_mode && i < b->count; i++) {
		PUT(ordo_zigzag32(b->src[i] - prev));
		PUT(ordo_zigzag32(b->dst[i] - b->src[i]));
		if (wb)
			PUT_W(b->w[i]);
		prev = b->src[i];
	}
	for (uint32_t i = 0, j; run_mode && i < b->count; i = j) {
		const uint32_t s = b->src[i];
		for (j = i + 1; j < b->count && b->src[j] == s;)
			j++;
		PUT(ordo_zigzag32(s - prev));
		PUT(j - i);
		prev = s;
		uint32_t last = s;
		for (uint32_t k = i; k < j; k++) {
			const uint32_t d = b->dst[k], rel = ordo_zigzag32(d - s),
			               gap = ordo_zigzag32(d - last);
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
 * source, each as ordo_zigzag32(source - previous run's source) and its length, then per arc the
 * smaller of ordo_zigzag32(target - source) and ordo_zigzag32(target - previous target) with a bit
 * saying which (a sorted list costs its gaps, a local one its offsets); in arc mode (sources in any
 * order), ordo_zigzag32(source - previous source) and ordo_zigzag32(target - source) per arc.
 * Weights follow each target in the fewest whole bytes that hold the block's largest. */
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
		s[i] = src += ordo_unzigzag32((uint32_t)ordo_varint_get(&p));
		d[i] = src + ordo_unzigzag32((uint32_t)ordo_varint_get(&p));
		if (wb) {
			__builtin_memcpy(&x, p, 4); /* 3 bytes of slack follow the last */
			w[i] = x & wmask;
			p += wb;
		}
	}
	for (uint32_t i = 0; run_mode && i < b->count;) {
		src += ordo_unzigzag32((uint32_t)ordo_varint_get(&p));
		uint64_t run = ordo_varint_get(&p);
		if (run == 0 || run > b->count - i)
			run = b->count - i; /* only pack_tail writes blocks; kept in bounds */
		uint32_t last = src;
		for (const uint32_t e = i + (uint32_t)run; i < e; i++) {
			const uint64_t c = ordo_varint_get(&p);
			last = (c & 1 ? last : src) + ordo_unzigzag32((uint32_t)(c >> 1));
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
