/*
 * bring.h - a ring of buckets of chunks, owned by one thread at a time (its owner, or
 * whoever holds the lock around it): the later buckets of Wasp's threads (wasp.c) and
 * each of MBQ's queues (mbq.c). Private to worklists/.
 *
 * A task's key is prio >> shift. Keys base .. base + BRING_WINDOW - 1 live in the ring,
 * bucket k at slot k % BRING_WINDOW, each an unordered list of chunks (a bit a slot in
 * `mask` says which are non-empty); keys past the ring wait in a heap ordered by
 * priority (`far`) and move into the ring when its base reaches them. Keys below base
 * are the caller's to place (each user has its own answer), and so is the base of an
 * empty ring. Buckets leave whole (bring_detach, Wasp publishing its next bucket) or a batch
 * of tasks at a time from the lowest (bring_take, MBQ's pops).
 */
#ifndef ORDO_WL_BRING_H
#define ORDO_WL_BRING_H

#include "chunk.h"

#define BRING_WINDOW 1024 /* buckets in the ring: a power of two, and of 64 */

struct bring_list {
	struct wl_chunk *head, *tail;
};

struct bring {
	unsigned shift;
	uint32_t chunk; /* tasks per chunk */
	uint64_t base;  /* the ring's keys: base .. base + BRING_WINDOW - 1 */
	size_t nchunks; /* chunks in the ring */
	struct bring_list *ring;
	uint64_t mask[BRING_WINDOW / 64];
	struct wl_heap far; /* tasks whose key is past the ring (4-ary, by priority) */
};

static inline bool bring_init(struct bring *r, unsigned shift, uint32_t chunk)
{
	memset(r, 0, sizeof *r);
	r->shift = shift;
	r->chunk = chunk;
	r->ring = calloc(BRING_WINDOW, sizeof *r->ring);
	return r->ring && wl_heap_reserve(&r->far, 64);
}

static inline void bring_free(struct bring *r)
{
	if (r->ring)
		for (int i = 0; i < BRING_WINDOW; i++)
			for (struct wl_chunk *c = r->ring[i].head, *n; c; c = n) {
				n = c->next;
				free(c);
			}
	free(r->ring);
	wl_heap_free(&r->far);
	memset(r, 0, sizeof *r);
}

static inline bool bring_empty(const struct bring *r)
{
	return !r->nchunks && !r->far.n;
}

static inline uint64_t bring_key(const struct bring *r, const struct ordo_task *t)
{
	return t->prio >> r->shift;
}

/* Puts t (key k >= base; an empty ring's base is the caller's to set first) into its
 * bucket; false when out of memory (nothing changed). */
static inline bool bring_push(struct bring *r, uint64_t k, const struct ordo_task *t,
                              struct wl_chunk_cache *spare)
{
	if (k - r->base >= BRING_WINDOW) {
		if (!wl_heap_reserve(&r->far, r->far.n + 1))
			return false;
		wl_heap_push(&r->far, t, 4);
		return true;
	}
	const uint32_t s = (uint32_t)(k & (BRING_WINDOW - 1));
	struct bring_list *b = &r->ring[s];
	struct wl_chunk *c = b->tail;
	if (!c || c->tail == r->chunk) {
		struct wl_chunk *n = wl_chunk_get(spare, r->chunk);
		if (!n)
			return false;
		if (c)
			c->next = n;
		else {
			b->head = n;
			r->mask[s / 64] |= UINT64_C(1) << (s % 64);
		}
		b->tail = c = n;
		r->nchunks++;
	}
	c->items[c->tail++] = *t;
	return true;
}

/* The lowest key held into *k; false when the ring and the far heap are empty. */
static inline bool bring_lowest(const struct bring *r, uint64_t *k)
{
	if (r->nchunks) {
		const uint32_t s0 = (uint32_t)(r->base & (BRING_WINDOW - 1)), W = BRING_WINDOW / 64;
		for (uint32_t i = 0; i <= W; i++) { /* from s0's word, around once */
			const uint32_t word = (s0 / 64 + i) % W;
			uint64_t m = r->mask[word];
			if (i == 0)
				m &= ~UINT64_C(0) << (s0 % 64); /* the slots before s0 come last */
			else if (i == W)
				m &= (s0 % 64) ? (UINT64_C(1) << (s0 % 64)) - 1 : 0;
			if (m) {
				const uint32_t s = word * 64 + (uint32_t)__builtin_ctzll(m);
				*k = r->base + ((s - s0) & (BRING_WINDOW - 1));
				return true;
			}
		}
	}
	if (r->far.n) {
		*k = wl_heap_top(&r->far) >> r->shift;
		return true;
	}
	return false;
}

/* Moves the ring's start up to k (at most the lowest key held): far tasks it now
 * covers move in. False when out of memory (a task stays in the heap, nothing lost). */
static inline bool bring_rebase(struct bring *r, uint64_t k, struct wl_chunk_cache *spare)
{
	r->base = k;
	while (r->far.n && (wl_heap_top(&r->far) >> r->shift) - k < BRING_WINDOW) {
		const struct ordo_task t = r->far.a[0];
		struct ordo_task drop;
		wl_heap_pop(&r->far, &drop, 4);
		if (!bring_push(r, t.prio >> r->shift, &t, spare)) {
			wl_heap_push(&r->far, &t, 4); /* the pop left room for it */
			return false;
		}
	}
	return true;
}

/* Detaches bucket k (in the ring) whole: its chunk list into *head..*tail (NULL when
 * empty). */
static inline void bring_detach(struct bring *r, uint64_t k, struct wl_chunk **head,
                                struct wl_chunk **tail)
{
	const uint32_t s = (uint32_t)(k & (BRING_WINDOW - 1));
	struct bring_list *b = &r->ring[s];
	*head = b->head;
	*tail = b->tail;
	for (struct wl_chunk *c = b->head; c; c = c->next)
		r->nchunks--;
	b->head = b->tail = NULL;
	r->mask[s / 64] &= ~(UINT64_C(1) << (s % 64));
}

/* Takes up to max tasks of bucket k (in the ring) into out, from its last chunk down;
 * drained chunks go to the cache. Returns the count. */
static inline uint32_t bring_take(struct bring *r, uint64_t k, struct ordo_task *out, uint32_t max,
                                  struct wl_chunk_cache *spare)
{
	const uint32_t s = (uint32_t)(k & (BRING_WINDOW - 1));
	struct bring_list *b = &r->ring[s];
	uint32_t got = 0;
	while (got < max && b->head) {
		struct wl_chunk *c = b->head;
		while (got < max && c->head < c->tail)
			out[got++] = c->items[--c->tail];
		if (c->head == c->tail) {
			b->head = c->next;
			if (!b->head)
				b->tail = NULL;
			r->nchunks--;
			wl_chunk_put(spare, c);
		}
	}
	if (!b->head)
		r->mask[s / 64] &= ~(UINT64_C(1) << (s % 64));
	return got;
}

/* Parking: every task goes into the hand-off; the ring is then empty (unless out of
 * memory: what is left stays, and the run ends with ENOMEM). */
static inline void bring_hand(struct bring *r, struct wl_chunk_cache *spare,
                              struct ordo_handoff *out)
{
	for (int s = 0; s < BRING_WINDOW && r->nchunks; s++) {
		struct bring_list *b = &r->ring[s];
		while (b->head) {
			struct wl_chunk *c = b->head;
			wl_chunk_hand(c, out);
			if (c->head < c->tail)
				return;
			b->head = c->next;
			r->nchunks--;
			wl_chunk_put(spare, c);
		}
		b->tail = NULL;
		r->mask[s / 64] &= ~(UINT64_C(1) << (s % 64));
	}
	if (r->far.n && ordo_handoff_put(out, r->far.a, r->far.n))
		wl_heap_clear(&r->far);
}

#endif
