/*
 * radix.h - an exact, owner-only priority queue for monotone workloads: a radix heap
 * (Ahuja, Mehlhorn, Orlin, Tarjan 1990) with a d-ary heap on the side.
 *
 * Keys >= `last` (the last minimum taken out) live in 65 buckets: bucket 0 holds keys
 * equal to last, bucket i >= 1 the keys whose highest bit differing from last is bit
 * i-1. Push is an append. When bucket 0 is empty, the lowest non-empty bucket is
 * scanned for its minimum, which becomes `last`, and its keys are redistributed into
 * lower buckets; every key moves down at most 64 times, so both operations are cheap
 * amortised and touch memory sequentially. Keys below `last` (pushed after a smaller
 * key was taken elsewhere - e.g. children of a stolen task) go to the side heap, whose
 * top is always smaller than anything in the buckets. The queue is exact: pop returns
 * the minimum of everything present. Private to worklists/.
 */
#ifndef ORDO_WL_RADIX_H
#define ORDO_WL_RADIX_H

#include "wl_common.h"

struct radix_vec {
	struct ordo_task *a;
	uint32_t n, cap;
};

struct radix_pq {
	uint64_t last;
	uint64_t mask; /* bit i-1 set when bucket i (1..64) is non-empty */
	size_t n;      /* tasks in the buckets */
	struct radix_vec b[65];
	struct wl_heap low; /* keys < last */
	bool failed;        /* a settle could not allocate: nothing was lost, nothing moved */
};

static inline unsigned radix_bucket(uint64_t key, uint64_t last)
{
	return key == last ? 0 : 64 - (unsigned)__builtin_clzll(key ^ last);
}

static inline bool radix_append(struct radix_vec *v, const struct ordo_task *t)
{
	if (v->n == v->cap) {
		uint32_t cap = v->cap ? v->cap * 2 : 64;
		struct ordo_task *a = realloc(v->a, cap * sizeof *a);
		if (!a)
			return false;
		v->a = a;
		v->cap = cap;
	}
	v->a[v->n++] = *t;
	return true;
}

static inline bool radix_push(struct radix_pq *q, const struct ordo_task *t)
{
	if (t->prio < q->last) {
		if (!wl_heap_reserve(&q->low, q->low.n + 1))
			return false;
		wl_heap_push(&q->low, t, 4);
		return true;
	}
	unsigned i = radix_bucket(t->prio, q->last);
	if (!radix_append(&q->b[i], t))
		return false;
	if (i)
		q->mask |= 1ull << (i - 1);
	q->n++;
	return true;
}

/* Makes bucket 0 non-empty when the buckets hold anything. All or nothing: the target
 * buckets are grown before any key moves, so a failed allocation leaves the queue as
 * it was (and sets `failed`) instead of dropping the keys not yet moved. */
static inline bool radix_settle(struct radix_pq *q)
{
	if (q->b[0].n || !q->mask)
		return true;
	unsigned i = (unsigned)__builtin_ctzll(q->mask) + 1;
	struct radix_vec *v = &q->b[i];
	uint64_t m = UINT64_MAX;
	for (uint32_t k = 0; k < v->n; k++)
		m = v->a[k].prio < m ? v->a[k].prio : m;
	uint32_t add[65] = {0};
	for (uint32_t k = 0; k < v->n; k++)
		add[radix_bucket(v->a[k].prio, m)]++;
	for (unsigned j = 0; j < i; j++) {
		struct radix_vec *d = &q->b[j];
		if (!add[j] || d->n + add[j] <= d->cap)
			continue;
		uint32_t cap = d->cap ? d->cap : 64;
		while (cap < d->n + add[j])
			cap *= 2;
		struct ordo_task *a = realloc(d->a, cap * sizeof *a);
		if (!a) {
			q->failed = true;
			return false;
		}
		d->a = a;
		d->cap = cap;
	}
	q->last = m;
	q->mask &= ~(1ull << (i - 1));
	uint32_t cnt = v->n;
	v->n = 0;
	for (uint32_t k = 0; k < cnt; k++) { /* every key lands in a bucket below i */
		unsigned j = radix_bucket(v->a[k].prio, m);
		q->b[j].a[q->b[j].n++] = v->a[k];
		if (j)
			q->mask |= 1ull << (j - 1);
	}
	return true;
}

static inline size_t radix_size(const struct radix_pq *q)
{
	return q->n + q->low.n;
}

/* Smallest key, UINT64_MAX when empty (may reorganise buckets). */
static inline uint64_t radix_top(struct radix_pq *q)
{
	if (q->low.n)
		return wl_heap_top(&q->low);
	if (!q->n || !radix_settle(q))
		return UINT64_MAX;
	return q->last;
}

/* The queue must not be empty. False (nothing taken, `failed` set) when the buckets
 * could not be reorganised for lack of memory. */
static inline bool radix_pop(struct radix_pq *q, struct ordo_task *out)
{
	if (q->low.n) {
		wl_heap_pop(&q->low, out, 4);
		return true;
	}
	if (!radix_settle(q))
		return false;
	*out = q->b[0].a[--q->b[0].n];
	q->n--;
	return true;
}

static inline void radix_free(struct radix_pq *q)
{
	for (int i = 0; i < 65; i++)
		free(q->b[i].a);
	wl_heap_free(&q->low);
	memset(q, 0, sizeof *q);
}

#endif
