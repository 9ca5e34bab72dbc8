/*
 * bq.h - an exact, owner-only priority queue for monotone workloads: a bucket queue
 * whose current bucket is a small d-ary heap, or at shift 0 a plain vector.
 *
 * Bucket i holds the keys k with k >> shift == i. The keys of bucket `cur` and below
 * are in the heap, so pop is the heap's, and exact; at shift 0 a bucket is one
 * priority, so its keys need no order: they stay in a vector (`curv`), pops take from
 * its end, and the heap holds only keys below cur (a stolen task's children). The
 * BQ_WINDOW buckets above cur are a ring of unsorted vectors (push is an append and a
 * bit in a mask); keys further out wait in a second heap. When the current bucket runs
 * dry, cur moves to the next non-empty one (found in the mask; or the far heap's top,
 * if lower): its vector is heapified, or at shift 0 swapped in (no copy), and the far
 * keys the window now covers move into the ring. On SSSP the heap holds one bucket's
 * tasks, a few hundred, instead of the whole queue. No key moves more than twice, except
 * when the window widens: when more than half of the last BQ_ADAPT pushes went past it
 * (priorities spread far wider than it), the shift grows by one and the ring's keys are
 * placed again, so a width that suits the workload is found from any start, at most 40
 * times. Private to worklists/.
 */
#ifndef ORDO_WL_BQ_H
#define ORDO_WL_BQ_H

#include "radix.h" /* struct radix_vec, radix_append */
#include "wl_common.h"

#define BQ_WINDOW 1024 /* buckets in the ring: a power of two (and of 64) */
#define BQ_ADAPT  4096 /* pushes per look at the share that went past the window */

struct bq_pq {
	unsigned shift;
	uint64_t cur;           /* the current bucket */
	struct wl_heap heap;    /* buckets <= cur (at shift 0: < cur) */
	struct radix_vec curv;  /* at shift 0: the keys equal to cur */
	struct radix_vec *ring; /* bucket i (cur < i < cur + BQ_WINDOW) at i % BQ_WINDOW */
	uint64_t mask[BQ_WINDOW / 64];
	size_t nring;                /* tasks in the ring */
	struct wl_heap far;          /* buckets >= cur + BQ_WINDOW (as of their push) */
	uint32_t pushes, far_pushes; /* since the last look */
	bool failed;                 /* an allocation failed: the run ends with ENOMEM */
};

static inline bool bq_init(struct bq_pq *q, unsigned shift)
{
	memset(q, 0, sizeof *q);
	q->shift = shift;
	q->ring = calloc(BQ_WINDOW, sizeof *q->ring);
	return q->ring && wl_heap_reserve(&q->heap, 1024);
}

static inline void bq_free(struct bq_pq *q)
{
	if (q->ring)
		for (int i = 0; i < BQ_WINDOW; i++)
			free(q->ring[i].a);
	free(q->ring);
	free(q->curv.a);
	wl_heap_free(&q->heap);
	wl_heap_free(&q->far);
	memset(q, 0, sizeof *q);
}

static inline size_t bq_size(const struct bq_pq *q)
{
	return q->heap.n + q->curv.n + q->nring + q->far.n;
}

static inline bool bq_push(struct bq_pq *q, const struct ordo_task *t);

/* One more bit per bucket: cur halves and every ring task is placed again (into the
 * heap when its bucket is now cur). Far tasks stay where they are: each is still above
 * cur, and bq_settle takes the lower of the far top and the next ring bucket. */
static inline bool bq_widen(struct bq_pq *q)
{
	size_t n = q->nring + q->curv.n, k = 0;
	struct ordo_task *all = malloc((n ? n : 1) * sizeof *all);
	if (!all || !wl_heap_reserve(&q->heap, q->heap.n + n)) {
		free(all);
		return false; /* nothing moved: the old width stays */
	}
	for (uint32_t j = 0; j < q->curv.n; j++) /* from now on in the heap */
		all[k++] = q->curv.a[j];
	q->curv.n = 0;
	for (unsigned s = 0; s < BQ_WINDOW; s++) {
		struct radix_vec *v = &q->ring[s];
		for (uint32_t j = 0; j < v->n; j++)
			all[k++] = v->a[j];
		v->n = 0;
	}
	memset(q->mask, 0, sizeof q->mask);
	q->nring = 0;
	q->shift++;
	q->cur >>= 1;
	/* the heap has room for all of them; a ring vector may have to grow (two old
	 * buckets make one new), and if that fails the rest are dropped: reported as out
	 * of memory, which ends the run */
	bool ok = true;
	for (size_t j = 0; j < k; j++)
		ok = ok && bq_push(q, &all[j]);
	free(all);
	return ok;
}

/* Into the ring or the far heap: bucket i > cur. */
static inline bool bq_place(struct bq_pq *q, const struct ordo_task *t, uint64_t i)
{
	if (i - q->cur < BQ_WINDOW) {
		const unsigned s = (unsigned)(i & (BQ_WINDOW - 1));
		if (!radix_append(&q->ring[s], t))
			return false;
		q->mask[s / 64] |= 1ull << (s % 64);
		q->nring++;
		return true;
	}
	if (!wl_heap_reserve(&q->far, q->far.n + 1))
		return false;
	wl_heap_push(&q->far, t, 4);
	q->far_pushes++;
	return true;
}

static inline bool bq_push(struct bq_pq *q, const struct ordo_task *t)
{
	if (__builtin_expect(++q->pushes == BQ_ADAPT, 0)) {
		if (2 * q->far_pushes > BQ_ADAPT && q->shift < 40 && !bq_widen(q))
			q->failed = true; /* reported as out of memory */
		q->pushes = q->far_pushes = 0;
	}
	const uint64_t i = t->prio >> q->shift;
	if (i == q->cur && !q->shift)
		return radix_append(&q->curv, t);
	if (i <= q->cur) {
		if (!wl_heap_reserve(&q->heap, q->heap.n + 1))
			return false;
		wl_heap_push(&q->heap, t, 4);
		return true;
	}
	return bq_place(q, t, i);
}

/* The next non-empty ring bucket after cur, or UINT64_MAX. */
static inline uint64_t bq_next(const struct bq_pq *q)
{
	if (!q->nring)
		return UINT64_MAX;
	const unsigned start = (unsigned)((q->cur + 1) & (BQ_WINDOW - 1));
	for (unsigned k = 0; k <= BQ_WINDOW / 64; k++) {
		unsigned w = (start / 64 + k) % (BQ_WINDOW / 64);
		uint64_t m = q->mask[w];
		if (k == 0)
			m &= ~0ull << (start % 64);
		else if (k == BQ_WINDOW / 64)
			m &= (start % 64) ? ~(~0ull << (start % 64)) : 0;
		if (m) {
			const unsigned s = w * 64 + (unsigned)__builtin_ctzll(m);
			return q->cur + 1 + ((s - start) & (BQ_WINDOW - 1));
		}
	}
	return UINT64_MAX; /* not reached: nring > 0 */
}

/* Makes the heap or the current vector non-empty when the queue holds anything. On a
 * failed allocation nothing is lost and `failed` is set. */
static inline bool bq_settle(struct bq_pq *q)
{
	if (q->heap.n || q->curv.n || (!q->nring && !q->far.n))
		return true;
	uint64_t i = bq_next(q); /* UINT64_MAX when the ring is empty: the far heap is not */
	if (q->far.n && (wl_heap_top(&q->far) >> q->shift) < i)
		i = wl_heap_top(&q->far) >> q->shift;
	const unsigned s = (unsigned)(i & (BQ_WINDOW - 1));
	struct radix_vec *v = &q->ring[s];
	const bool from_ring = q->nring && (q->mask[s / 64] >> (s % 64) & 1) && v->n &&
	                       (v->a[0].prio >> q->shift) == i;
	if (from_ring && q->shift && !wl_heap_reserve(&q->heap, v->n)) {
		q->failed = true;
		return false;
	}
	q->cur = i;
	if (from_ring) {
		q->nring -= v->n;
		q->mask[s / 64] &= ~(1ull << (s % 64));
		if (!q->shift) { /* one priority: the vector is the bucket, swapped in */
			const struct radix_vec empty = q->curv; /* n is 0; its buffer is reused */
			q->curv = *v;
			*v = empty;
		} else {
			for (uint32_t k = 0; k < v->n; k++)
				wl_heap_push(&q->heap, &v->a[k], 4);
			v->n = 0;
		}
	}
	/* far keys the window now reaches: into the current bucket or the ring */
	while (q->far.n && (wl_heap_top(&q->far) >> q->shift) - q->cur < BQ_WINDOW) {
		struct ordo_task t;
		wl_heap_pop(&q->far, &t, 4);
		if (!bq_push(q, &t)) { /* put it back: nothing lost */
			wl_heap_push(&q->far, &t, 4);
			q->failed = true;
			return false;
		}
	}
	return true;
}

/* Smallest key, UINT64_MAX when empty. */
static inline uint64_t bq_top(struct bq_pq *q)
{
	if (!q->heap.n && !q->curv.n && !bq_settle(q))
		return UINT64_MAX;
	return q->heap.n ? wl_heap_top(&q->heap) : q->curv.n ? q->cur : UINT64_MAX;
}

/* The queue must not be empty. False (nothing taken, `failed` set) on a failed
 * allocation. */
static inline bool bq_pop(struct bq_pq *q, struct ordo_task *out)
{
	if (!q->heap.n && !q->curv.n && !bq_settle(q))
		return false;
	if (q->heap.n) /* at shift 0 the heap holds only keys below cur */
		wl_heap_pop(&q->heap, out, 4);
	else
		*out = q->curv.a[--q->curv.n];
	return true;
}

#endif
