/*
 * chunk.h - fixed-size chunks of tasks and a locked FIFO of chunks: the building blocks
 * of the unordered bag (fifo) and of OBIM's per-bucket bags, after Galois' ChunkedMaster.
 * A chunk is owned by one thread at a time (filled by one, drained by one); only the
 * FIFO of full chunks is shared. Private to worklists/.
 */
#ifndef ORDO_WL_CHUNK_H
#define ORDO_WL_CHUNK_H

#include "wl_common.h"

struct wl_chunk {
	struct wl_chunk *next;
	uint32_t head, tail; /* items head..tail-1 */
	struct ordo_task items[];
};

/* FIFO of full chunks, guarded by a lock; `nonempty` is readable without it. */
struct wl_chunk_fifo {
	alignas(64) struct wl_lock lock;
	_Atomic(struct wl_chunk *) head;
	struct wl_chunk *tail;
};

static inline struct wl_chunk *wl_chunk_new(uint32_t size)
{
	struct wl_chunk *c = malloc(sizeof *c + size * sizeof(struct ordo_task));
	if (c) {
		c->next = NULL;
		c->head = c->tail = 0;
	}
	return c;
}

/* A thread's drained chunks, kept for its next pushes: recycling a chunk that is still
 * in cache saves a malloc/free pair and fresh memory per chunk, which matters where
 * many buckets each get a few tasks (OBIM with a small delta, PMOD). Owner-only. */
#define WL_CHUNK_CACHE 32
struct wl_chunk_cache {
	struct wl_chunk *top;
	uint32_t n;
};

static inline struct wl_chunk *wl_chunk_get(struct wl_chunk_cache *k, uint32_t size)
{
	struct wl_chunk *c = k->top;
	if (!c)
		return wl_chunk_new(size);
	k->top = c->next;
	k->n--;
	c->next = NULL;
	c->head = c->tail = 0;
	return c;
}

/* Every chunk of one scheduler has the same size, so any cached one fits. */
static inline void wl_chunk_put(struct wl_chunk_cache *k, struct wl_chunk *c)
{
	if (!c)
		return;
	if (k->n == WL_CHUNK_CACHE) {
		free(c);
		return;
	}
	c->next = k->top;
	k->top = c;
	k->n++;
}

/* The next task of the chunk *c; when it has none (or *c is NULL) the chunk goes back
 * to the cache k, *c becomes NULL and the answer is false. */
static inline bool wl_chunk_next(struct wl_chunk **c, struct wl_chunk_cache *k,
                                 struct ordo_task *out)
{
	struct wl_chunk *x = *c;
	if (x && x->head < x->tail) {
		*out = x->items[x->head++];
		return true;
	}
	wl_chunk_put(k, x);
	*c = NULL;
	return false;
}

/* Moves c's remaining tasks (c may be NULL) into a parking worker's hand-off; c is
 * then empty (unless out of memory). A release hook empties its private chunks with it. */
static inline void wl_chunk_hand(struct wl_chunk *c, struct ordo_handoff *out)
{
	if (!c || c->head >= c->tail)
		return;
	if (ordo_handoff_put(out, c->items + c->head, c->tail - c->head))
		c->head = c->tail;
}

static inline void wl_chunk_cache_free(struct wl_chunk_cache *k)
{
	while (k->top) {
		struct wl_chunk *c = k->top;
		k->top = c->next;
		free(c);
	}
	k->n = 0;
}

/* Appends the chunk list head..tail (linked by next) under one lock. */
static inline void wl_fifo_put_list(struct wl_chunk_fifo *f, struct wl_chunk *head,
                                    struct wl_chunk *tail)
{
	tail->next = NULL;
	wl_lock(&f->lock);
	if (f->tail)
		f->tail->next = head;
	else
		atomic_store_explicit(&f->head, head, memory_order_relaxed);
	f->tail = tail;
	wl_unlock(&f->lock); /* release: the chunks' items are visible to the taker */
}

static inline void wl_fifo_put(struct wl_chunk_fifo *f, struct wl_chunk *c)
{
	wl_fifo_put_list(f, c, c);
}

static inline struct wl_chunk *wl_fifo_take(struct wl_chunk_fifo *f)
{
	if (!atomic_load_explicit(&f->head, memory_order_relaxed))
		return NULL;
	wl_lock(&f->lock); /* acquire: pairs with the putter's unlock */
	struct wl_chunk *c = atomic_load_explicit(&f->head, memory_order_relaxed);
	if (c) {
		atomic_store_explicit(&f->head, c->next, memory_order_relaxed);
		if (!c->next)
			f->tail = NULL;
	}
	wl_unlock(&f->lock);
	return c;
}

static inline void wl_fifo_free(struct wl_chunk_fifo *f)
{
	struct wl_chunk *c = atomic_load(&f->head);
	while (c) {
		struct wl_chunk *n = c->next;
		free(c);
		c = n;
	}
	atomic_store(&f->head, NULL);
	f->tail = NULL;
}

#endif
