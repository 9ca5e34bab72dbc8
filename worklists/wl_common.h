/*
 * wl_common.h - pieces the schedulers share: a test-and-test-and-set lock that yields
 * under oversubscription, and a d-ary min-heap of tasks laid out so that each group of
 * siblings starts on a cache line (one miss per level).
 * Private to worklists/.
 */
#ifndef ORDO_WL_COMMON_H
#define ORDO_WL_COMMON_H

#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ordo_runtime.h"
#include "ordo_scheduler.h"
#include "ordo_util.h"

/* ---- lock ---- */
struct wl_lock {
	_Atomic uint32_t v;
};

static inline bool wl_trylock(struct wl_lock *l)
{
	/* test first: a failed exchange would still take the line exclusively */
	return atomic_load_explicit(&l->v, memory_order_relaxed) == 0 &&
	       atomic_exchange_explicit(&l->v, 1, memory_order_acquire) == 0;
}

static inline void wl_lock(struct wl_lock *l)
{
	unsigned spins = 0;
	while (!wl_trylock(l)) {
		/* a preempted holder (more threads than cores) needs our CPU: yield soon */
		if (++spins < 64)
			ordo_cpu_relax();
		else
			sched_yield();
	}
}

static inline void wl_unlock(struct wl_lock *l)
{
	atomic_store_explicit(&l->v, 0, memory_order_release);
}

/* floor(log2 x); 0 for x = 0 */
static inline unsigned wl_floor_log2(uint64_t x)
{
	return x ? 63u - (unsigned)__builtin_clzll(x) : 0;
}

/* ---- skip lists ----
 * A new node's level: 1 + the number of consecutive one bits of a random word (p = 1/2),
 * at most `max`. */
static inline uint32_t wl_skip_level(struct ordo_rng *rng, uint32_t max)
{
	uint32_t level = 1;
	uint64_t r = ordo_rng_next(rng);
	while (level < max && (r & 1)) {
		level++;
		r >>= 1;
	}
	return level;
}

/* ---- batches ----
 * a[0..k-1] holds k >= 1 tasks best first (a steal, a take-back, a batched pop). The
 * best goes to *out; the other k-1 stay in a, reordered so that taking them from the
 * back (a[--n]) yields them best first. Returns k - 1. */
static inline uint32_t wl_batch_split(struct ordo_task *a, uint32_t k, struct ordo_task *out)
{
	*out = a[0];
	for (uint32_t i = 0, j = k - 1; i < j; i++, j--) {
		struct ordo_task x = a[i];
		a[i] = a[j];
		a[j] = x;
	}
	return k - 1;
}

/* Moves every task of a split batch (wl_batch_split's rest, consumed from the back)
 * into a parking worker's hand-off, in pop order; *n becomes 0 (unless out of memory).
 * A release hook empties its batch with it. */
static inline void wl_batch_hand(const struct ordo_task *a, uint32_t *n, struct ordo_handoff *out)
{
	struct ordo_task *d = ordo_handoff_room(out, *n);
	if (!d)
		return;
	const uint32_t m = *n;
	for (uint32_t k = 0; k < m; k++)
		d[k] = a[m - 1 - k];
	out->n += m;
	*n = 0;
}

/* The release hook (parking) of a scheduler that keeps no task private: its queues are
 * all shared, so a parked worker holds nothing. */
static inline void wl_release_none(struct ordo_sched_state *w, struct ordo_tctx *ctx,
                                   struct ordo_handoff *out)
{
	(void)w, (void)ctx, (void)out;
}

/* ---- d-ary heap ----
 * a[0] is the root; the children of i are D*i+1 .. D*i+D. The array is offset so that
 * a[1] starts a cache line; with 16-byte tasks and D = 4 (or 8) every sibling group then
 * fills exactly one (or two) lines. The D slots after the last task always hold
 * UINT64_MAX sentinels, so a sibling group can be scanned without bounds checks and the
 * minimum picked without branches (priorities are random: compare-and-branch code
 * mispredicts about half the time). pop is bottom-up (Floyd): the hole sinks along the
 * smaller children to a leaf, then the last task rises from there; the last task is
 * usually large, so this saves the comparison with it on the way down. */
struct wl_heap {
	struct ordo_task *a;
	void *raw;
	size_t n, cap;
};

#define WL_HEAP_PAD  8                 /* sentinel slots (>= the largest arity used) */
#define WL_HEAP_DEEP ((size_t)1 << 16) /* slots from which on a 4-ary pop looks 2 levels ahead */

static inline bool wl_heap_reserve(struct wl_heap *h, size_t need)
{
	if (need <= h->cap)
		return true;
	size_t cap = h->cap ? h->cap * 2 : 256;
	while (cap < need)
		cap *= 2;
	/* large heaps get transparent huge pages: a pop walks a random root-to-leaf path,
	 * and with 4 KiB pages every level below the L2 costs a TLB miss too */
	void *raw = ordo_alloc_huge((cap + WL_HEAP_PAD + 5) * sizeof(struct ordo_task));
	if (!raw)
		return false;
	/* a[1] on a 64-byte boundary */
	uintptr_t first = ((uintptr_t)raw + sizeof(struct ordo_task) + 63) & ~(uintptr_t)63;
	struct ordo_task *a = (struct ordo_task *)(first - sizeof(struct ordo_task));
	if (h->n)
		memcpy(a, h->a, h->n * sizeof *a);
	for (size_t i = h->n; i < cap + WL_HEAP_PAD; i++)
		a[i].prio = UINT64_MAX;
	free(h->raw);
	h->raw = raw;
	h->a = a;
	h->cap = cap;
	return true;
}

/* Empties the heap (restoring the sentinels over the used slots). */
static inline void wl_heap_clear(struct wl_heap *h)
{
	for (size_t i = 0; i < h->n; i++)
		h->a[i].prio = UINT64_MAX;
	h->n = 0;
}

static inline void wl_heap_free(struct wl_heap *h)
{
	free(h->raw);
	memset(h, 0, sizeof *h);
}

/* The caller has reserved room. */
static inline void wl_heap_push(struct wl_heap *h, const struct ordo_task *t, const unsigned D)
{
	struct ordo_task *a = h->a;
	size_t i = h->n++;
	while (i > 0) {
		size_t p = (i - 1) / D;
		if (a[p].prio <= t->prio)
			break;
		a[i] = a[p];
		i = p;
	}
	a[i] = *t;
}

/* Smaller of two (priority, index) candidates, as a mask select: compilers turn
 * `x < y ? i : j` over loaded priorities into a branch at will, and on random
 * priorities that branch mispredicts half the time (~15 cycles on the critical path of
 * every level; measured 1.75x slower pops on a 2^20-task heap). */
static inline void wl_min2(uint64_t *p, size_t *i, uint64_t q, size_t j)
{
	const uint64_t lt = -(uint64_t)(q < *p); /* all ones when q wins */
	*p ^= (*p ^ q) & lt;
	*i ^= (*i ^ j) & (size_t)lt;
}

/* Index of the smallest of a[c .. c+D-1] (sentinels included), without branches. */
static inline size_t wl_heap_min_child(const struct ordo_task *a, size_t c, const unsigned D)
{
	uint64_t p01 = a[c].prio, p23 = a[c + 2].prio;
	size_t i01 = c, i23 = c + 2;
	wl_min2(&p01, &i01, a[c + 1].prio, c + 1);
	wl_min2(&p23, &i23, a[c + 3].prio, c + 3);
	wl_min2(&p01, &i01, p23, i23);
	if (D == 8) {
		uint64_t p45 = a[c + 4].prio, p67 = a[c + 6].prio;
		size_t i45 = c + 4, i67 = c + 6;
		wl_min2(&p45, &i45, a[c + 5].prio, c + 5);
		wl_min2(&p67, &i67, a[c + 7].prio, c + 7);
		wl_min2(&p45, &i45, p67, i67);
		wl_min2(&p01, &i01, p45, i45);
	}
	return i01;
}

/* Removes the minimum into *out; the heap must not be empty. */
static inline void wl_heap_pop(struct wl_heap *h, struct ordo_task *out, const unsigned D)
{
	struct ordo_task *a = h->a;
	*out = a[0];
	size_t n = --h->n;
	const struct ordo_task last = a[n];
	a[n].prio = UINT64_MAX; /* keep the sentinel run intact */
	if (n == 0)
		return;
	size_t i = 0;
	for (;;) { /* sink the hole to a leaf along the smaller children */
		size_t c = D * i + 1;
		if (c >= n)
			break;
		/* the next group is one of the D children's groups: fetch them all while the
		 * minimum is computed (large heaps miss the cache in their lower levels). Only
		 * groups that exist: a prefetch past the array may walk the page tables of an
		 * unmapped address, and stalls like a miss. */
		if (D * c + 1 < n) {
			for (unsigned k = 0; k < D; k++)
				__builtin_prefetch(&a[D * (c + k) + 1]);
			/* One level is too little lookahead once levels come from DRAM: there
			 * a 4-ary heap also fetches the 16 lines of the great-grandchildren
			 * (levels below 1 MiB into the array, i.e. out of the L2). Of every
			 * 16 lines one is used, but each arrives two levels early: 1.6x more
			 * pops per second on a 2^20-task heap, measured with two threads. */
			const size_t g = D * (D * c + 1) + 1;
			if (D == 4 && g >= WL_HEAP_DEEP)
				for (size_t k = g; k < g + 64 && k < n; k += 4)
					__builtin_prefetch(&a[k]);
		}
		size_t b = wl_heap_min_child(a, c, D);
		a[i] = a[b];
		i = b;
	}
	while (i > 0) { /* then let the last task rise to its place */
		size_t p = (i - 1) / D;
		if (a[p].prio <= last.prio)
			break;
		a[i] = a[p];
		i = p;
	}
	a[i] = last;
}

static inline uint64_t wl_heap_top(const struct wl_heap *h)
{
	return h->n ? h->a[0].prio : UINT64_MAX;
}

#endif
