/*
 * lqueue.h - the locked queue of the Multi-Queue family (classic MQ, MQ-optimized,
 * RELD): an 8-ary heap behind a test-and-test-and-set lock, plus an atomically readable
 * copy of its top priority (UINT64_MAX when empty) so that choosing between queues needs
 * no lock. The cached top is a hint: it is written under the lock (relaxed) and every
 * decision made on it is re-checked under the lock. Private to worklists/.
 */
#ifndef ORDO_WL_LQUEUE_H
#define ORDO_WL_LQUEUE_H

#include "numa_pick.h"
#include "wl_common.h"

struct lqueue {
	alignas(128) struct wl_lock lock;
	_Atomic uint64_t top;
	struct wl_heap heap;
};

static inline struct lqueue *lq_create(uint32_t n)
{
	struct lqueue *q = ordo_calloc_aligned(n, sizeof *q);
	for (uint32_t i = 0; q && i < n; i++) {
		atomic_store(&q[i].top, UINT64_MAX);
		if (!wl_heap_reserve(&q[i].heap, 256)) {
			for (uint32_t k = 0; k < i; k++)
				wl_heap_free(&q[k].heap);
			free(q);
			return NULL;
		}
	}
	return q;
}

static inline void lq_destroy(struct lqueue *q, uint32_t n)
{
	for (uint32_t i = 0; q && i < n; i++)
		wl_heap_free(&q[i].heap);
	free(q);
}

static inline uint64_t lq_top(struct lqueue *q)
{
	return atomic_load_explicit(&q->top, memory_order_relaxed);
}

/* Under the lock. */
static inline void lq_publish_top(struct lqueue *q)
{
	atomic_store_explicit(&q->top, wl_heap_top(&q->heap), memory_order_relaxed);
}

/* Under the lock: pushes n tasks; false on ENOMEM. */
static inline bool lq_push_locked(struct lqueue *q, const struct ordo_task *t, size_t n)
{
	if (!wl_heap_reserve(&q->heap, q->heap.n + n))
		return false;
	for (size_t i = 0; i < n; i++)
		wl_heap_push(&q->heap, &t[i], 8);
	lq_publish_top(q);
	return true;
}

/* Locks a randomly chosen queue, re-drawing while try_lock fails. */
static inline struct lqueue *lq_lock_random(struct lqueue *qs, const struct numa_pick *pick,
                                            struct ordo_rng *rng)
{
	for (unsigned spins = 0;; spins++) {
		struct lqueue *q = &qs[numa_pick(pick, rng)];
		if (wl_trylock(&q->lock))
			return q;
		if (spins > 64)
			sched_yield(); /* every queue busy: holders may be preempted */
	}
}

/* Two-choice: draws two distinct queues, locks the one with the better top. Returns
 * the locked, non-empty queue, or NULL when the two seen were empty (or after `tries`
 * lost races). */
static inline struct lqueue *lq_lock_two_choice(struct lqueue *qs, uint32_t nq,
                                                const struct numa_pick *pick, struct ordo_rng *rng,
                                                int tries)
{
	for (int a = 0; a < tries; a++) {
		uint32_t i = numa_pick(pick, rng), j = numa_pick(pick, rng);
		if (nq > 1)
			while (j == i)
				j = numa_pick(pick, rng);
		uint64_t ti = lq_top(&qs[i]), tj = lq_top(&qs[j]);
		struct lqueue *q = ti <= tj ? &qs[i] : &qs[j];
		if ((ti < tj ? ti : tj) == UINT64_MAX)
			return NULL;
		if (!wl_trylock(&q->lock))
			continue;
		if (q->heap.n)
			return q;
		wl_unlock(&q->lock);
	}
	return NULL;
}

/* Locks the first non-empty queue of a full scan (starting at `from`), or NULL when all
 * are empty: the guarantee that a failed pop means "nothing found anywhere" at scan
 * time, which keeps random sampling from starving the last tasks. */
static inline struct lqueue *lq_lock_scan(struct lqueue *qs, uint32_t nq, uint32_t from)
{
	for (uint32_t k = 0; k < nq; k++) {
		struct lqueue *q = &qs[(from + k) % nq];
		if (lq_top(q) == UINT64_MAX)
			continue;
		wl_lock(&q->lock);
		if (q->heap.n)
			return q;
		wl_unlock(&q->lock);
	}
	return NULL;
}

/* Under the lock: pops up to k tasks (best first) into out[]; returns the count. */
static inline uint32_t lq_pop_locked(struct lqueue *q, struct ordo_task *out, uint32_t k)
{
	uint32_t got = 0;
	while (got < k && q->heap.n)
		wl_heap_pop(&q->heap, &out[got++], 8);
	lq_publish_top(q);
	return got;
}

#endif
