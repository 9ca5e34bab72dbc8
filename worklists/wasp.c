/*
 * wasp.c - a stealing bucket queue after Wasp (M. D'Antonio, S. T. Mai, P. Tsigas,
 * H. Vandierendonck, "Wasp: Efficient Asynchronous Single-Source Shortest Path on
 * Multicore Systems via Work Stealing", SC'25; DIPSA-QUB/wasp, include/bucketing/;
 * worklists/REFERENCES.md): every thread owns its delta-buckets and runs them in order
 * with no barrier; only the bucket it runs now is shared, as a FIFO of chunks that
 * others may steal whole.
 *
 * A task's bucket is prio >> delta. Per thread:
 *   - the current bucket `key`: a private pop chunk (being drained), a private open
 *     chunk (being filled by pushes to the current bucket, drained last: Wasp drains
 *     it first, which on road2k ran 1.30 times Dijkstra's tasks against 1.007 in
 *     FIFO order), and a locked FIFO of published chunks (`shared`): a full open
 *     chunk goes there, and so does the whole of a bucket when it becomes current;
 *   - the next buckets, private: a ring of chunk lists and a heap past it (bring.h).
 * A push goes to the current bucket when its key is the current one, to its next
 * bucket when above. A key below the current bucket (a fresh task of a non-monotone
 * workload; in SSSP only a stolen chunk's children) goes into a private exact heap
 * that pops drain before anything else: Wasp has no such case, and without it a thread
 * would run its whole current bucket before a better task (a mean rank error of 16 at
 * one thread on the quality test's uniform keys, against 4 for OBIM).
 *
 * When the current bucket is drained the thread looks at its lowest next bucket `next`
 * and, as Wasp does, first steals one chunk from a thread whose published current
 * bucket is at or below `next` (any thread's, when it has no next bucket); failing
 * that it makes `next` current. Thieves and owner take chunks from the FIFO under its
 * lock, which orders every task's push before its pop. A stopped owner's private
 * chunks and later buckets wait for it (as in Wasp); parking hands them over.
 *
 * Wasp's other ideas are operator-side (stale tasks dropped, leaves never pushed,
 * pull-before-push, hubs split): ordo's sssp has the first (and its live form keeps
 * one task per node and bucket); the others are not tried here yet.
 *
 * Parameters: delta (bucket = prio >> delta; sssp and astar take it from the graph),
 * chunk (tasks per chunk, Wasp's 64).
 */
#include "bring.h"
#include "ordo_scheduler.h"

enum { P_DELTA, P_CHUNK, P_N };
static const struct ordo_param params[P_N] = {
    {"delta", 10, 0, 63, "bucket = priority >> delta"},
    {"chunk", 64, 1, 1 << 16, "tasks per chunk (the unit of a steal)"},
};
enum { S_STEALS, S_ADVANCES };

#define WASP_NONE UINT64_MAX /* published: no current bucket */

struct local {
	struct wl_chunk_fifo shared;      /* the current bucket's published chunks */
	alignas(64) _Atomic uint64_t cur; /* the current bucket for thieves (owner writes) */
	/* owner only from here */
	alignas(64) struct wl_chunk *pop, *open;
	uint64_t key;       /* the current bucket, when `active` */
	bool active;        /* a current bucket exists (its tasks may all be taken already) */
	struct bring next;  /* the later buckets */
	struct wl_heap low; /* tasks whose key is below the current bucket, popped first */
	struct wl_chunk_cache spare;
};

struct ordo_sched_state {
	unsigned delta;
	uint32_t chunk;
	int nthreads;
	struct local *l;
};

static int wasp_create(const struct ordo_scheduler_config *cfg, struct ordo_sched_state **out,
                       struct ordo_err *err)
{
	struct ordo_sched_state *w = calloc(1, sizeof *w);
	if (!w)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	w->delta = (unsigned)cfg->params[P_DELTA];
	w->chunk = (uint32_t)cfg->params[P_CHUNK];
	w->nthreads = cfg->topo->nthreads;
	w->l = ordo_calloc_aligned((size_t)w->nthreads, sizeof *w->l);
	if (!w->l) {
		free(w);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	}
	for (int t = 0; t < w->nthreads; t++)
		atomic_init(&w->l[t].cur, WASP_NONE);
	*out = w;
	return 0;
}

static void wasp_thread_init(struct ordo_sched_state *w, struct ordo_tctx *ctx)
{
	struct local *l = &w->l[ctx->tid];
	if (!bring_init(&l->next, w->delta, w->chunk) || !wl_heap_reserve(&l->low, 64))
		ctx->push_oom = true;
}

static void wasp_destroy(struct ordo_sched_state *w)
{
	for (int t = 0; t < w->nthreads; t++) {
		struct local *l = &w->l[t];
		wl_fifo_free(&l->shared);
		free(l->pop);
		free(l->open);
		bring_free(&l->next);
		wl_heap_free(&l->low);
		wl_chunk_cache_free(&l->spare);
	}
	free(w->l);
	free(w);
}

/* A task of the current bucket: into the open chunk, published when full. */
static bool push_current(struct ordo_sched_state *w, struct local *l, const struct ordo_task *t)
{
	struct wl_chunk *c = l->open;
	if (!c || c->tail == w->chunk) {
		if (c)
			wl_fifo_put(&l->shared, c);
		c = l->open = wl_chunk_get(&l->spare, w->chunk);
		if (!c)
			return false;
	}
	c->items[c->tail++] = *t;
	return true;
}

/* A task of a later bucket k (> key). */
static bool push_next(struct ordo_sched_state *w, struct local *l, uint64_t k,
                      const struct ordo_task *t)
{
	if (bring_empty(&l->next))
		l->next.base = l->key + 1; /* nothing waits: the ring starts after the current */
	if (k < l->next.base) /* below the ring (the current bucket came from a steal) */
		return push_current(w, l, t);
	return bring_push(&l->next, k, t, &l->spare);
}

static bool push_heap(struct wl_heap *h, const struct ordo_task *t)
{
	if (!wl_heap_reserve(h, h->n + 1))
		return false;
	wl_heap_push(h, t, 4);
	return true;
}

static void wasp_push(struct ordo_sched_state *w, struct ordo_tctx *ctx, const struct ordo_task *t,
                      size_t n)
{
	struct local *l = &w->l[ctx->tid];
	if (!l->active && n) { /* the batch's lowest bucket becomes current */
		uint64_t lo = UINT64_MAX;
		for (size_t i = 0; i < n; i++)
			lo = t[i].prio < lo ? t[i].prio : lo;
		l->key = lo >> w->delta;
		l->active = true;
		atomic_store_explicit(&l->cur, l->key, memory_order_relaxed);
	}
	for (size_t i = 0; i < n; i++) {
		const uint64_t k = t[i].prio >> w->delta;
		if (!(k == l->key  ? push_current(w, l, &t[i])
		      : k > l->key ? push_next(w, l, k, &t[i])
		                   : push_heap(&l->low, &t[i]))) {
			ctx->push_oom = true;
			return;
		}
	}
}

/* Makes bucket k (the lowest next one) current and publishes its chunks. False when
 * out of memory (tasks stay where they were). */
static bool advance(struct ordo_sched_state *w, struct local *l, uint64_t k)
{
	(void)w;
	l->key = k;
	if (!bring_rebase(&l->next, k, &l->spare))
		return false;
	struct wl_chunk *head, *tail;
	bring_detach(&l->next, k, &head, &tail);
	if (head)
		wl_fifo_put_list(&l->shared, head, tail);
	atomic_store_explicit(&l->cur, k, memory_order_relaxed);
	return true;
}
/* One chunk from another thread whose current bucket is at or below `limit`, starting
 * at a random thread; NULL when none has one. */
static struct wl_chunk *steal(struct ordo_sched_state *w, struct ordo_tctx *ctx, uint64_t limit)
{
	const int T = w->nthreads;
	if (T == 1)
		return NULL;
	const int start = (int)ordo_rng_below(&ctx->rng, (uint64_t)T);
	for (int i = 0; i < T; i++) {
		const int v = (start + i) % T;
		if (v == (int)ctx->tid)
			continue;
		struct local *o = &w->l[v];
		if (atomic_load_explicit(&o->cur, memory_order_relaxed) > limit)
			continue;
		struct wl_chunk *c = wl_fifo_take(&o->shared);
		if (c) {
			ORDO_STAT(ctx, S_STEALS, 1);
			return c;
		}
	}
	return NULL;
}

/* The current bucket is drained: steal at or below the lowest next bucket, or make it
 * current. False when there is no task to be had. */
static bool refill(struct ordo_sched_state *w, struct ordo_tctx *ctx, struct local *l)
{
	uint64_t next = UINT64_MAX;
	const bool has_next = bring_lowest(&l->next, &next);
	struct wl_chunk *c = steal(w, ctx, has_next ? next : UINT64_MAX);
	if (c) {
		l->pop = c;
		const uint64_t sk = c->items[c->head].prio >> w->delta;
		if (!has_next || sk < next) { /* the stolen bucket is current */
			l->key = sk;
			l->active = true;
			atomic_store_explicit(&l->cur, sk, memory_order_relaxed);
			return true;
		}
	}
	if (!has_next) {
		if (!c) {
			l->active = false;
			atomic_store_explicit(&l->cur, WASP_NONE, memory_order_relaxed);
		}
		return c != NULL;
	}
	ORDO_STAT(ctx, S_ADVANCES, 1);
	if (!advance(w, l, next))
		ctx->push_oom = true; /* nothing lost: the run ends with ENOMEM */
	l->active = true;
	return true;
}

static bool wasp_pop(struct ordo_sched_state *w, struct ordo_tctx *ctx, struct ordo_task *out)
{
	struct local *l = &w->l[ctx->tid];
	if (__builtin_expect(l->low.n != 0, 0)) {
		wl_heap_pop(&l->low, out, 4);
		return true;
	}
	for (;;) {
		if (wl_chunk_next(&l->pop, &l->spare, out))
			return true;
		if ((l->pop = wl_fifo_take(&l->shared)))
			continue;
		if (l->open && l->open->head < l->open->tail) {
			l->pop = l->open;
			l->open = NULL;
			continue;
		}
		/* each refill takes a chunk or makes a non-empty bucket current (whose
		 * chunks thieves may take first): the ring only shrinks meanwhile */
		if (!refill(w, ctx, l) || ctx->push_oom)
			return false;
	}
}

/* Parking: the private chunks and later buckets go to the executor; the published
 * chunks of the current bucket stay stealable (a parked worker keeps its `cur`). */
static void wasp_release(struct ordo_sched_state *w, struct ordo_tctx *ctx,
                         struct ordo_handoff *out)
{
	struct local *l = &w->l[ctx->tid];
	wl_chunk_hand(l->pop, out);
	wl_chunk_hand(l->open, out);
	bring_hand(&l->next, &l->spare, out);
	if (l->low.n && ordo_handoff_put(out, l->low.a, l->low.n))
		wl_heap_clear(&l->low);
}

/* FIFO inside a bucket of 2^delta keys, as OBIM: n 2^delta / range keys a bucket */
static double wasp_rank_bound(const int64_t *p, const uint64_t *stats, double n, double range)
{
	(void)stats;
	return (double)(1ull << p[P_DELTA]) * n / range;
}

static unsigned wasp_grain(const int64_t *p)
{
	return (unsigned)p[P_DELTA];
}

ORDO_SCHEDULER_DEFINE(wasp, .name = "wasp", .rank_bound = wasp_rank_bound, .grain = wasp_grain,
                      .summary = "Wasp (SC'25): per-thread delta-buckets, the current one a "
                                 "FIFO of chunks stolen whole by threads at or above it",
                      .params = params, .nparams = P_N, .stat_names = {"steals", "advances"},
                      .create = wasp_create, .destroy = wasp_destroy,
                      .thread_init = wasp_thread_init, .push = wasp_push, .pop = wasp_pop,
                      .release = wasp_release);
