/*
 * obim_core.h - the machinery OBIM (obim.c) and PMOD (pmod.c) share: buckets of
 * chunked FIFOs named by a 64-bit key, a global append-only log of buckets replayed
 * lazily into per-thread sorted maps, a current bucket per thread and BSP scan starts.
 * See obim.c for how it works. The including file defines OBIM_ADAPTIVE (0 or 1) and,
 * when 1, the hooks pmod_key, pmod_count_push and pmod_slow_pop.
 * Everything here is static: each scheduler gets its own copy.
 */
#ifndef ORDO_OBIM_CORE_H
#define ORDO_OBIM_CORE_H

#include "chunk.h"
#include "ordo_rng.h"
#include "ordo_scheduler.h"
#include "perturb.h"

#define SEG_BITS 12
#define SEG_SIZE (1u << SEG_BITS)
#define MAX_SEGS (1u << 16) /* 2^28 buckets */

struct bag {
	uint64_t index;
	struct wl_chunk_fifo fifo[]; /* one per node */
};

struct entry {
	uint64_t index;
	struct bag *bag;
	struct wl_chunk *push, *pop; /* this thread's chunks of the bag */
};

/* The per-thread ordered map: sorted blocks of at most OMAP_B (index, entry) pairs, in
 * a sorted array of blocks (a two-level B-tree). Inserting anywhere costs a binary
 * search and a move within one block (a split moves the block array), so a million
 * buckets, and new ones among them, stay cheap; an ordered scan walks the blocks. */
#define OMAP_B 256
struct oblock {
	uint32_t n;
	uint64_t key[OMAP_B];
	struct entry *e[OMAP_B];
};

/* A direct-mapped cache of the entries pushed to lately, in front of the hash table:
 * with a small shift an SSSP relaxation spreads its pushes over the few buckets that
 * the heaviest arc spans, and the hash probe (a mix, a slot and the entry, all cold)
 * was half of a push. Entries live until the scheduler is destroyed, so a cached
 * pointer never dangles. */
#define PUSH_CACHE_BITS 6
struct push_slot {
	uint64_t index;
	struct entry *e; /* NULL: empty */
};

struct tl {
	alignas(128) struct entry *current;
	uint64_t cur_index;
	struct push_slot pc[1u << PUSH_CACHE_BITS];
	uint64_t num_pops;
	uint64_t replayed;   /* log entries already in the map */
	struct oblock **blk; /* sorted by index, each block non-empty */
	uint64_t *bmin;      /* bmin[b] = blk[b]->key[0], for the search */
	size_t nblk, capblk, nentries;
	struct entry **hash;                     /* open addressing by index over all entries */
	size_t hcap;                             /* a power of two, at least twice the entries */
	alignas(64) _Atomic uint64_t scan_start; /* read by other threads */
	/* set by the release hook (the thread parked, runtime/seats.h), cleared by its next
	 * push or pop: a parked thread's scan start is stale, and others look past it */
	_Atomic bool parked;
	/* PMOD's statistics: written by the owner only (plain load + store, no atomic
	 * read-modify-write), read by the adapting thread; min/max are reset by it. Their
	 * own line: every push writes them, and every slow pop of another thread reads
	 * scan_start. */
	alignas(64) _Atomic uint64_t pushes, min_prio, max_prio;
	uint64_t pops, slow_pops, same_bucket_pops; /* this thread's, since the last check */
	uint64_t seen_checks;                       /* adapt_checks when they were reset */
	struct wl_chunk_cache spare;
};

struct ordo_sched_state {
	int delta; /* OBIM's fixed shift */
	uint32_t chunk;
	/* PMOD: the current shift (written under `adapt` only), its adaptation state */
	alignas(64) _Atomic int cur_delta;
	_Atomic uint64_t check_every, adapt_checks; /* checks made so far */
	struct wl_lock adapt;                       /* one adapting thread at a time */
	bool unmerge;
	uint64_t *seen_pushes; /* per thread, the pushes counted at the last check */
	uint64_t period_mask;  /* 0: never */
	int nnodes, T;
	const struct ordo_topology *topo;
	struct tl *tl;
	alignas(64) struct wl_lock master;
	_Atomic uint64_t version;
	struct bag **_Atomic *segs; /* MAX_SEGS segment pointers */
};

static int core_create(const struct ordo_scheduler_config *cfg, int delta, uint32_t chunk,
                       int period, struct ordo_sched_state **out, struct ordo_err *err)
{
	struct ordo_sched_state *w = ordo_calloc_aligned(1, sizeof *w);
	if (!w)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	w->delta = delta;
	w->chunk = chunk;
	w->period_mask = period ? (1ull << period) - 1 : 0;
	w->nnodes = cfg->topo->nnodes;
	w->T = cfg->topo->nthreads;
	w->topo = cfg->topo;
	w->tl = ordo_calloc_aligned((size_t)w->T, sizeof *w->tl);
	w->segs = calloc(MAX_SEGS, sizeof *w->segs);
	w->seen_pushes = calloc((size_t)w->T, sizeof *w->seen_pushes);
	if (!w->tl || !w->segs || !w->seen_pushes) {
		free(w->tl), free(w->segs), free(w->seen_pushes), free(w);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	}
	for (int t = 0; t < w->T; t++) {
		w->tl[t].cur_index = UINT64_MAX;
		atomic_store(&w->tl[t].scan_start, UINT64_MAX);
		atomic_store(&w->tl[t].min_prio, UINT64_MAX);
	}
	*out = w;
	return 0;
}

static void core_destroy(struct ordo_sched_state *w)
{
	for (int t = 0; t < w->T; t++) {
		struct tl *l = &w->tl[t];
		for (size_t b = 0; b < l->nblk; b++) {
			for (uint32_t i = 0; i < l->blk[b]->n; i++) {
				free(l->blk[b]->e[i]->push);
				free(l->blk[b]->e[i]->pop);
				free(l->blk[b]->e[i]);
			}
			free(l->blk[b]);
		}
		free(l->blk);
		free(l->bmin);
		free(l->hash);
		wl_chunk_cache_free(&l->spare);
	}
	uint64_t nb = atomic_load(&w->version);
	for (uint64_t i = 0; i < nb; i++) {
		struct bag *b = w->segs[i >> SEG_BITS][i & (SEG_SIZE - 1)];
		for (int k = 0; k < w->nnodes; k++)
			wl_fifo_free(&b->fifo[k]);
		free(b);
	}
	for (uint64_t s = 0; s < MAX_SEGS && w->segs[s]; s++)
		free(w->segs[s]);
	free(w->segs);
	free(w->tl);
	free(w->seen_pushes);
	free(w);
}

/* The per-thread map: a hash table finds a bucket's entry in O(1); the ordered map
 * (struct oblock above) serves the ordered scans of slow pops. */

static inline size_t hash_slot(uint64_t index, size_t cap)
{
	return (size_t)(ordo_mix64(index) & (cap - 1));
}

/* Room for one more entry (nothing changes when it fails). */
static bool hash_reserve(struct tl *l)
{
	if (2 * (l->nentries + 1) > l->hcap) {
		size_t cap = l->hcap ? 2 * l->hcap : 128;
		struct entry **h = calloc(cap, sizeof *h);
		if (!h)
			return false;
		for (size_t i = 0; i < l->hcap; i++)
			if (l->hash[i]) {
				size_t k = hash_slot(l->hash[i]->index, cap);
				while (h[k])
					k = (k + 1) & (cap - 1);
				h[k] = l->hash[i];
			}
		free(l->hash);
		l->hash = h;
		l->hcap = cap;
	}
	return true;
}

static void hash_put(struct tl *l, struct entry *e)
{
	size_t k = hash_slot(e->index, l->hcap);
	while (l->hash[k])
		k = (k + 1) & (l->hcap - 1);
	l->hash[k] = e;
}

static struct entry *find(struct tl *l, uint64_t index)
{
	if (!l->hcap)
		return NULL;
	for (size_t k = hash_slot(index, l->hcap);; k = (k + 1) & (l->hcap - 1)) {
		struct entry *e = l->hash[k];
		if (!e || e->index == index)
			return e;
	}
}

/* First position in block k with key >= index. */
static uint32_t block_lower(const struct oblock *k, uint64_t index)
{
	uint32_t lo = 0, hi = k->n;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (k->key[mid] < index)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The block that holds index or would: the last one whose smallest key is <= index
 * (the first when index is below them all). */
static size_t block_of(const struct tl *l, uint64_t index)
{
	size_t lo = 0, hi = l->nblk; /* first block with bmin > index */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (l->bmin[mid] <= index)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? lo - 1 : 0;
}

/* Adds an empty block at position at. */
static struct oblock *block_add(struct tl *l, size_t at)
{
	if (l->nblk == l->capblk) {
		size_t cap = l->capblk ? 2 * l->capblk : 16;
		struct oblock **nb = realloc(l->blk, cap * sizeof *nb);
		if (!nb)
			return NULL;
		l->blk = nb;
		uint64_t *nm = realloc(l->bmin, cap * sizeof *nm);
		if (!nm)
			return NULL;
		l->bmin = nm;
		l->capblk = cap;
	}
	struct oblock *k = malloc(sizeof *k);
	if (!k)
		return NULL;
	k->n = 0;
	memmove(l->blk + at + 1, l->blk + at, (l->nblk - at) * sizeof *l->blk);
	memmove(l->bmin + at + 1, l->bmin + at, (l->nblk - at) * sizeof *l->bmin);
	l->blk[at] = k;
	l->nblk++;
	return k;
}

#ifdef ORDO_PERTURB
#include <stdio.h>
/* The checking build's invariant around block b after an insert: each block's minimum
 * is recorded in bmin, blocks are non-empty, sorted within and ascending between. */
static void omap_check(const struct tl *l, size_t b)
{
	const size_t lo = b ? b - 1 : 0, hi = b + 3 < l->nblk ? b + 3 : l->nblk;
	for (size_t j = lo; j < hi; j++) {
		const struct oblock *k = l->blk[j];
		bool ok =
		    k->n > 0 && l->bmin[j] == k->key[0] && (j == 0 || l->bmin[j - 1] < l->bmin[j]);
		for (uint32_t i = 1; ok && i < k->n; i++)
			ok = k->key[i - 1] < k->key[i];
		if (!ok) {
			fprintf(stderr,
			        "obim: bucket map block %zu of %zu is out of order or its "
			        "recorded minimum %llu is stale\n",
			        j, l->nblk, (unsigned long long)l->bmin[j]);
			abort();
		}
	}
}
#else
#define omap_check(l, b) ((void)0)
#endif

static bool omap_insert(struct tl *l, struct entry *e)
{
	const uint64_t index = e->index;
	size_t b = block_of(l, index);
	struct oblock *k = l->nblk ? l->blk[b] : block_add(l, 0);
	if (!k)
		return false;
	if (k->n == OMAP_B) {
		if (b + 1 == l->nblk && index > k->key[OMAP_B - 1]) {
			/* appending past the end (rising priorities): a fresh block, not a
			 * split that would leave half-empty blocks behind */
			if (!(k = block_add(l, ++b)))
				return false;
		} else { /* split in halves */
			struct oblock *hi = block_add(l, b + 1);
			if (!hi)
				return false;
			const uint32_t h = OMAP_B / 2;
			memcpy(hi->key, k->key + h, (OMAP_B - h) * sizeof *k->key);
			memcpy(hi->e, k->e + h, (OMAP_B - h) * sizeof *k->e);
			hi->n = OMAP_B - h;
			k->n = h;
			l->bmin[b + 1] = hi->key[0];
			if (index >= hi->key[0])
				k = hi, b++;
		}
	}
	const uint32_t i = block_lower(k, index);
	memmove(k->key + i + 1, k->key + i, (k->n - i) * sizeof *k->key);
	memmove(k->e + i + 1, k->e + i, (k->n - i) * sizeof *k->e);
	k->key[i] = index;
	k->e[i] = e;
	k->n++;
	l->bmin[b] = k->key[0];
	omap_check(l, b);
	return true;
}

static bool map_insert(struct tl *l, struct bag *b)
{
	struct entry *e = calloc(1, sizeof *e);
	if (!e)
		return false;
	e->index = b->index;
	e->bag = b;
	if (!hash_reserve(l) || !omap_insert(l, e)) { /* both leave the maps as they were */
		free(e);
		return false;
	}
	hash_put(l, e);
	l->nentries++;
	return true;
}

/* Brings the thread's map up to date with the global log. */
static bool replay(struct ordo_sched_state *w, struct tl *l)
{
	/* acquire: the bags (and segment pointers) published before version was raised */
	uint64_t v = atomic_load_explicit(&w->version, memory_order_acquire);
	for (; l->replayed < v; l->replayed++) {
		uint64_t i = l->replayed;
		struct bag **seg =
		    atomic_load_explicit(&w->segs[i >> SEG_BITS], memory_order_relaxed);
		if (!map_insert(l, seg[i & (SEG_SIZE - 1)]))
			return false;
	}
	return true;
}

static struct entry *get_entry(struct ordo_sched_state *w, struct tl *l, uint64_t index)
{
	struct entry *e = find(l, index);
	if (e)
		return e;
	if (!replay(w, l))
		return NULL;
	if ((e = find(l, index)))
		return e;
	wl_lock(&w->master);
	bool ok = replay(w, l);
	if (ok && !(e = find(l, index))) {
		uint64_t v = atomic_load_explicit(&w->version, memory_order_relaxed);
		uint64_t s = v >> SEG_BITS;
		struct bag **seg =
		    s < MAX_SEGS ? atomic_load_explicit(&w->segs[s], memory_order_relaxed) : NULL;
		if (!seg && s < MAX_SEGS) {
			seg = calloc(SEG_SIZE, sizeof *seg);
			atomic_store_explicit(&w->segs[s], seg, memory_order_relaxed);
		}
		struct bag *b =
		    seg ? ordo_calloc_aligned(1, sizeof *b + (size_t)w->nnodes *
		                                                 sizeof(struct wl_chunk_fifo))
		        : NULL;
		if (b) {
			b->index = index;
			seg[v & (SEG_SIZE - 1)] = b;
			ORDO_PERTURB_POINT(BUCKET_PUBLISH);
			/* release: publishes the bag and the segment pointer */
			atomic_store_explicit(&w->version, v + 1, memory_order_release);
		}
		ok = b != NULL;
	}
	wl_unlock(&w->master);
	if (ok && !e && replay(w, l))
		e = find(l, index);
	return e;
}

/* A thread's push or pop: it runs (again), its scan start counts (see slow_pop). */
static inline void unpark_mark(struct tl *l)
{
	if (__builtin_expect(atomic_load_explicit(&l->parked, memory_order_relaxed), 0))
		atomic_store_explicit(&l->parked, false, memory_order_relaxed);
}

static bool entry_push(struct ordo_sched_state *w, struct ordo_tctx *ctx, struct entry *e,
                       const struct ordo_task *t)
{
	struct wl_chunk *c = e->push;
	if (!c || c->tail == w->chunk) {
		if (c)
			wl_fifo_put(&e->bag->fifo[ctx->node], c);
		c = e->push = wl_chunk_get(&w->tl[ctx->tid].spare, w->chunk);
		if (!c)
			return false;
	}
	c->items[c->tail++] = *t;
	return true;
}

static bool entry_pop(struct ordo_sched_state *w, struct ordo_tctx *ctx, struct entry *e,
                      struct ordo_task *out)
{
	for (;;) {
		if (wl_chunk_next(&e->pop, &w->tl[ctx->tid].spare, out))
			return true;
		for (int k = 0; k < w->nnodes && !e->pop; k++)
			e->pop = wl_fifo_take(&e->bag->fifo[(ctx->node + k) % w->nnodes]);
		if (!e->pop) {
			e->pop = e->push;
			e->push = NULL;
			if (!e->pop)
				return false;
		}
	}
}

#if OBIM_ADAPTIVE
static uint64_t pmod_key(struct ordo_sched_state *w, uint64_t prio);
static void pmod_count_push(struct tl *l, const struct ordo_task *t, size_t n);
static void pmod_slow_pop(struct ordo_sched_state *w, struct ordo_tctx *ctx, struct tl *l);
#define OBIM_KEY(w, prio) pmod_key(w, prio)
#else
#define OBIM_KEY(w, prio) ((prio) >> (w)->delta)
#endif

/* Fibonacci hashing: consecutive OBIM indices and PMOD's (end << 6 | d) keys, whose
 * low bits are all alike, both spread over the slots. */
static inline struct entry *push_entry(struct ordo_sched_state *w, struct tl *l, uint64_t index)
{
	struct push_slot *s = &l->pc[(index * 0x9e3779b97f4a7c15ull) >> (64 - PUSH_CACHE_BITS)];
	if (s->e && s->index == index)
		return s->e;
	struct entry *e = get_entry(w, l, index);
	if (e)
		s->index = index, s->e = e;
	return e;
}

static void core_push(struct ordo_sched_state *w, struct ordo_tctx *ctx, const struct ordo_task *t,
                      size_t n)
{
	struct tl *l = &w->tl[ctx->tid];
	unpark_mark(l);
#if OBIM_ADAPTIVE
	pmod_count_push(l, t, n);
#endif
	for (size_t i = 0; i < n; i++) {
		uint64_t index = OBIM_KEY(w, t[i].prio);
		struct entry *e =
		    l->current && l->cur_index == index ? l->current : push_entry(w, l, index);
		if (!e || !entry_push(w, ctx, e, &t[i])) {
			ctx->push_oom = true;
			return;
		}
		if (index < atomic_load_explicit(&l->scan_start, memory_order_relaxed))
			atomic_store_explicit(&l->scan_start, index, memory_order_relaxed);
		if (index < l->cur_index) {
			l->cur_index = index;
			l->current = e;
		}
	}
}

/* The lowest scan start of every thread (running ones only: with_parked false), and
 * ss. */
static uint64_t min_scan_start(struct ordo_sched_state *w, uint64_t ss, bool with_parked)
{
	for (int t = 0; t < w->T; t++) {
		if (!with_parked && atomic_load_explicit(&w->tl[t].parked, memory_order_relaxed))
			continue;
		uint64_t s = atomic_load_explicit(&w->tl[t].scan_start, memory_order_relaxed);
		ss = s < ss ? s : ss;
	}
	return ss;
}

/* Pops from the first bucket at or above ss (in this thread's map) that has a task. */
static bool scan_from(struct ordo_sched_state *w, struct ordo_tctx *ctx, struct tl *l, uint64_t ss,
                      struct ordo_task *out)
{
	size_t b = block_of(l, ss);
	for (uint32_t i = block_lower(l->blk[b], ss); b < l->nblk; b++, i = 0) {
		const struct oblock *k = l->blk[b];
		for (; i < k->n; i++) {
			struct entry *e = k->e[i];
			if (entry_pop(w, ctx, e, out)) {
				l->current = e;
				l->cur_index = e->index;
				atomic_store_explicit(&l->scan_start, e->index,
				                      memory_order_relaxed);
				return true;
			}
		}
	}
	return false;
}

static bool slow_pop(struct ordo_sched_state *w, struct ordo_tctx *ctx, struct tl *l,
                     struct ordo_task *out)
{
#if OBIM_ADAPTIVE
	pmod_slow_pop(w, ctx, l);
#endif
	if (!replay(w, l)) {
		ctx->push_oom = true;
		return false;
	}
	uint64_t ss = atomic_load_explicit(&l->scan_start, memory_order_relaxed);
	int leader = w->topo->first_of_node[ctx->node];
	/* the leader looks from the lowest scan start of the running threads, the others
	 * from theirs and the leader's (the lowest of the running ones when it parked) */
	if ((int)ctx->tid == leader ||
	    atomic_load_explicit(&w->tl[leader].parked, memory_order_relaxed)) {
		ss = min_scan_start(w, ss, false);
	} else {
		uint64_t s = atomic_load_explicit(&w->tl[leader].scan_start, memory_order_relaxed);
		ss = s < ss ? s : ss;
	}
	if (!l->nblk)
		return false;
	if (scan_from(w, ctx, l, ss, out))
		return true;
	/* Nothing from there. A parked thread's full chunks stay in the shared bags, and
	 * its scan start, no longer updated, may be what covers them: before giving up,
	 * look from the lowest of all. (Only here: a stale low start in every scan would
	 * make each slow pop walk every emptied bucket above it.) */
	const uint64_t all = min_scan_start(w, ss, true);
	if (all < ss && scan_from(w, ctx, l, all, out))
		return true;
	/* Nothing at or above ss: a thread other than the leader starts its next scan at
	 * the leader's (or at its own next push). What it passed over that another thread
	 * pushed meanwhile stays within that pusher's scan start. It also lets go of its
	 * current bucket: its fast path (core_pop) would otherwise take a chunk that
	 * another thread files there into its own pop chunk, which no scan start then
	 * covers; a rescan (period) that jumped past that bucket left the chunk's tasks
	 * to nobody (a lost-task stall of PMOD with period=3 under ThreadSanitizer). */
	if ((int)ctx->tid != leader) {
		atomic_store_explicit(&l->scan_start, UINT64_MAX, memory_order_relaxed);
		l->current = NULL;
		l->cur_index = UINT64_MAX;
	}
	return false;
}

/* Parking: the thread's partly filled push chunks and partly taken pop chunks hold tasks
 * nobody else reaches (full chunks in the bags are shared already). They are copied
 * out, and the running worker that adopts them pushes them again, which also lowers
 * its scan start: a parked thread's own is read by nobody but its node's leader. */
static void core_release(struct ordo_sched_state *w, struct ordo_tctx *ctx,
                         struct ordo_handoff *out)
{
	struct tl *l = &w->tl[ctx->tid];
	atomic_store_explicit(&l->parked, true, memory_order_relaxed);
	for (size_t b = 0; b < l->nblk; b++)
		for (uint32_t i = 0; i < l->blk[b]->n; i++) {
			struct entry *e = l->blk[b]->e[i];
			wl_chunk_hand(e->push, out);
			wl_chunk_hand(e->pop, out);
		}
}

static bool core_pop(struct ordo_sched_state *w, struct ordo_tctx *ctx, struct ordo_task *out)
{
	struct tl *l = &w->tl[ctx->tid];
	unpark_mark(l);
#if OBIM_ADAPTIVE
	l->pops++;
#endif
	if (w->period_mask && (l->num_pops++ & w->period_mask) == 0)
		return slow_pop(w, ctx, l, out);
	if (l->current && entry_pop(w, ctx, l->current, out)) {
#if OBIM_ADAPTIVE
		l->same_bucket_pops++;
#endif
		return true;
	}
	return slow_pop(w, ctx, l, out);
}

#endif
