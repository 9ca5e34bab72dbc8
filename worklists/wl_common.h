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

/* ---- d-ary heap ----
 * a[0] is the root; the children of i are D*i+1 .. D*i+D. The array is offset so that
 * a[1] starts a cache line; with 16-byte tasks and D = 4 (or 8) every sibling group then
 * fills exactly one (or two) lines. */
struct wl_heap {
	struct ordo_task *a;
	void *raw;
	size_t n, cap;
};

static inline bool wl_heap_reserve(struct wl_heap *h, size_t need)
{
	if (need <= h->cap)
		return true;
	size_t cap = h->cap ? h->cap * 2 : 256;
	while (cap < need)
		cap *= 2;
	void *raw = ordo_calloc_aligned(cap + 4, sizeof(struct ordo_task));
	if (!raw)
		return false;
	struct ordo_task *a = (struct ordo_task *)((char *)raw + 48);
	if (h->n)
		memcpy(a, h->a, h->n * sizeof *a);
	free(h->raw);
	h->raw = raw;
	h->a = a;
	h->cap = cap;
	return true;
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

/* Removes the minimum into *out; the heap must not be empty. */
static inline void wl_heap_pop(struct wl_heap *h, struct ordo_task *out, const unsigned D)
{
	struct ordo_task *a = h->a;
	*out = a[0];
	size_t n = --h->n;
	if (n == 0)
		return;
	const struct ordo_task last = a[n];
	size_t i = 0;
	for (;;) {
		size_t c = D * i + 1;
		if (c >= n)
			break;
		size_t e = c + D < n ? c + D : n, best = c;
		if (c + D < n) /* full group: prefetch the grandchildren's first line */
			__builtin_prefetch(&a[D * (c + (D >> 1)) + 1]);
		for (size_t k = c + 1; k < e; k++)
			if (a[k].prio < a[best].prio)
				best = k;
		if (a[best].prio >= last.prio)
			break;
		a[i] = a[best];
		i = best;
	}
	a[i] = last;
}

static inline uint64_t wl_heap_top(const struct wl_heap *h)
{
	return h->n ? h->a[0].prio : UINT64_MAX;
}

#endif
