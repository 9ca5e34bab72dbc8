/*
 * mbq.c - the Multi Bucket Queue (MBQ) after T. Zhang, T. Posluns, M. C. Jeffrey,
 * "Multi Bucket Queues: Efficient Concurrent Priority Scheduling", SPAA 2024
 * (mcj-group/mbq; worklists/REFERENCES.md): a Multi-Queue whose queues are bucket
 * queues. c*T queues, each a ring of buckets prio >> delta (bring.h) behind a lock,
 * with its lowest bucket readable without the lock (`top`). A thread buffers its
 * pushes and moves `push_batch` of them into one random queue under one lock (a busy
 * queue is passed over for another); a pop takes up to `pop_batch` tasks of one bucket
 * into a private buffer, from the queue of its last pop for `stick` pops in a row, else
 * from the better top of two random queues, trying their locks without waiting. A
 * queue's ring moves down to a lower key while its highest key stays within the ring's
 * width; a key lower than that waits in a small exact heap that the queue's pops take
 * first. A pop that finds nothing in two choices scans every queue, waiting for busy
 * ones, before it fails, so a failed pop means nothing was anywhere.
 *
 * MBQ's other half is the operator's: its tasks are node ids whose bucket is read from
 * the node's live distance, one queued task per node; ordo's sssp does that in its
 * live form (ordo_live.h), with any bucketed scheduler, this one included.
 *
 * Parameters: c, delta (sssp and astar take it from the graph), stick, push_batch,
 * pop_batch, numa_k.
 */
#include "bring.h"
#include "numa_pick.h"
#include "ordo_scheduler.h"

/* One queue per thread and batches of 64 both ways: a sweep of c 1-2, push batches
 * 32-128 and pop batches 16-64 beside MBQ's own code found c = 1 fastest in every cell
 * and the larger batches ahead at 2 threads (road2k 170 ms against 204 with c = 2 and
 * batches of 16 / 8; bench/LOG.md, "`mbq`'s defaults from a sweep beside MBQ"). */
enum { P_C, P_DELTA, P_STICK, P_PUSH_BATCH, P_POP_BATCH, P_NUMA, P_N };
static const struct ordo_param params[P_N] = {
    {"c", 1, 1, 64, "queues per thread"},
    {"delta", 10, 0, 63, "bucket = priority >> delta"},
    {"stick", 8, 1, 1 << 20, "pops from the same queue before a new two-choice"},
    {"push_batch", 64, 1, 1 << 12, "pushes buffered before one locked flush"},
    {"pop_batch", 64, 1, 1 << 12, "tasks of one bucket taken per locked pop"},
    {"numa_k", 1, 1, 1 << 20, "weight of queues on the caller's node (others weigh 1)"},
};
enum { S_LOST_TRIES };

#define MBQ_CHUNK 64 /* tasks per chunk in a queue's buckets */

struct queue {
	alignas(128) struct wl_lock lock;
	_Atomic uint64_t top; /* its lowest key, UINT64_MAX when empty (written under the lock) */
	struct bring b;
	uint64_t hi;        /* at least the highest key in the ring */
	struct wl_heap low; /* keys below the ring's base, taken first */
	struct wl_chunk_cache spare;
};

struct local {
	alignas(128) struct numa_pick pick;
	uint32_t push_q, pop_q, stick_left;
	uint32_t npush, npop;
	struct ordo_task *pushbuf, *popbuf; /* popbuf consumed from the back */
};

struct ordo_sched_state {
	uint32_t nq, c, push_batch, pop_batch, stick;
	unsigned delta;
	uint64_t numa_k;
	const struct ordo_topology *topo;
	struct queue *q;
	struct local *l;
};

static void mbq_destroy(struct ordo_sched_state *w)
{
	for (uint32_t i = 0; w->q && i < w->nq; i++) {
		bring_free(&w->q[i].b);
		wl_heap_free(&w->q[i].low);
		wl_chunk_cache_free(&w->q[i].spare);
	}
	for (int t = 0; w->l && t < w->topo->nthreads; t++) {
		numa_pick_free(&w->l[t].pick);
		free(w->l[t].pushbuf);
		free(w->l[t].popbuf);
	}
	free(w->q);
	free(w->l);
	free(w);
}

static int mbq_create(const struct ordo_scheduler_config *cfg, struct ordo_sched_state **out,
                      struct ordo_err *err)
{
	struct ordo_sched_state *w = calloc(1, sizeof *w);
	if (!w)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	const int64_t *p = cfg->params;
	w->c = (uint32_t)p[P_C];
	w->nq = w->c * (uint32_t)cfg->topo->nthreads;
	w->delta = (unsigned)p[P_DELTA];
	w->stick = (uint32_t)p[P_STICK];
	w->push_batch = (uint32_t)p[P_PUSH_BATCH];
	w->pop_batch = (uint32_t)p[P_POP_BATCH];
	w->numa_k = (uint64_t)p[P_NUMA];
	w->topo = cfg->topo;
	w->q = ordo_calloc_aligned(w->nq, sizeof *w->q);
	w->l = ordo_calloc_aligned((size_t)cfg->topo->nthreads, sizeof *w->l);
	bool ok = w->q && w->l;
	for (uint32_t i = 0; ok && i < w->nq; i++) {
		atomic_init(&w->q[i].top, UINT64_MAX);
		ok = bring_init(&w->q[i].b, w->delta, MBQ_CHUNK) &&
		     wl_heap_reserve(&w->q[i].low, 64);
	}
	if (!ok) {
		mbq_destroy(w);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	}
	*out = w;
	return 0;
}

static void mbq_thread_init(struct ordo_sched_state *w, struct ordo_tctx *ctx)
{
	struct local *l = &w->l[ctx->tid];
	l->pushbuf = malloc(w->push_batch * sizeof *l->pushbuf);
	l->popbuf = malloc(w->pop_batch * sizeof *l->popbuf);
	if (!l->pushbuf || !l->popbuf ||
	    !numa_pick_init(&l->pick, w->topo, ctx->tid, w->nq, w->c, UINT32_MAX, w->numa_k)) {
		ctx->push_oom = true;
		return;
	}
	l->push_q = numa_pick(&l->pick, &ctx->rng);
}

static uint64_t top_of(struct queue *q)
{
	return atomic_load_explicit(&q->top, memory_order_relaxed);
}

/* Under the lock: the lowest key into `top`. */
static void publish_top(struct queue *q)
{
	uint64_t k = UINT64_MAX;
	if (q->low.n)
		k = wl_heap_top(&q->low) >> q->b.shift;
	else if (!bring_lowest(&q->b, &k))
		k = UINT64_MAX;
	atomic_store_explicit(&q->top, k, memory_order_relaxed);
}

/* Under the lock: n tasks in; false when out of memory (the rest stay with the caller). */
static bool queue_put(struct queue *q, const struct ordo_task *t, uint32_t n, uint32_t *done)
{
	uint64_t lo = top_of(q);
	for (*done = 0; *done < n; (*done)++) {
		const struct ordo_task *x = &t[*done];
		const uint64_t k = x->prio >> q->b.shift;
		if (bring_empty(&q->b))
			q->b.base = q->hi = k;
		else if (k < q->b.base && q->hi - k < BRING_WINDOW)
			q->b.base = k; /* the ring still holds every key it held */
		q->hi = k > q->hi ? k : q->hi;
		if (k < q->b.base) {
			if (!wl_heap_reserve(&q->low, q->low.n + 1))
				return false;
			wl_heap_push(&q->low, x, 4);
		} else if (!bring_push(&q->b, k, x, &q->spare))
			return false;
		lo = k < lo ? k : lo;
		atomic_store_explicit(&q->top, lo, memory_order_relaxed);
	}
	return true;
}

/* Moves the push buffer into one queue (a random one when the last is busy). */
static void flush(struct ordo_sched_state *w, struct ordo_tctx *ctx, struct local *l)
{
	for (unsigned spins = 0;; spins++) {
		struct queue *q = &w->q[l->push_q];
		if (wl_trylock(&q->lock)) {
			uint32_t done;
			const bool ok = queue_put(q, l->pushbuf, l->npush, &done);
			wl_unlock(&q->lock); /* release: the tasks are visible to their takers */
			memmove(l->pushbuf, l->pushbuf + done,
			        (l->npush - done) * sizeof *l->pushbuf);
			l->npush -= done;
			if (!ok)
				ctx->push_oom = true;
			l->push_q = numa_pick(&l->pick, &ctx->rng); /* the next batch elsewhere */
			return;
		}
		ORDO_STAT(ctx, S_LOST_TRIES, 1);
		l->push_q = numa_pick(&l->pick, &ctx->rng);
		if (spins > 64)
			sched_yield(); /* every queue busy: holders may be preempted */
	}
}

static void mbq_push(struct ordo_sched_state *w, struct ordo_tctx *ctx, const struct ordo_task *t,
                     size_t n)
{
	struct local *l = &w->l[ctx->tid];
	for (size_t i = 0; i < n; i++) {
		l->pushbuf[l->npush++] = t[i];
		if (l->npush == w->push_batch) {
			flush(w, ctx, l);
			if (ctx->push_oom)
				return;
		}
	}
}

/* Under q's lock (released here): up to pop_batch tasks of its lowest bucket; the first
 * into *out, the rest into the pop buffer. False when q was empty. */
static bool take(struct ordo_sched_state *w, struct ordo_tctx *ctx, struct local *l,
                 struct queue *q, struct ordo_task *out)
{
	uint32_t got = 0;
	if (q->low.n) {
		while (got < w->pop_batch && q->low.n)
			wl_heap_pop(&q->low, &l->popbuf[got++], 4);
	} else {
		uint64_t k;
		if (bring_lowest(&q->b, &k)) {
			if (k != q->b.base && !bring_rebase(&q->b, k, &q->spare))
				ctx->push_oom = true; /* nothing lost: the run ends with ENOMEM */
			got = bring_take(&q->b, k, l->popbuf, w->pop_batch, &q->spare);
		}
	}
	publish_top(q);
	wl_unlock(&q->lock);
	if (!got)
		return false;
	*out = l->popbuf[got - 1];
	l->npop = got - 1;
	return true;
}

/* Two random queues, the better top tried (never waited on), `tries` times; NULL when
 * the ones drawn were empty or busy. */
static struct queue *two_choice(struct ordo_sched_state *w, struct ordo_tctx *ctx, struct local *l,
                                int tries)
{
	for (int a = 0; a < tries; a++) {
		uint32_t i = numa_pick(&l->pick, &ctx->rng), j = numa_pick(&l->pick, &ctx->rng);
		if (w->nq > 1)
			while (j == i)
				j = numa_pick(&l->pick, &ctx->rng);
		const uint64_t ti = top_of(&w->q[i]), tj = top_of(&w->q[j]);
		if (ti == UINT64_MAX && tj == UINT64_MAX)
			return NULL;
		struct queue *q = ti <= tj ? &w->q[i] : &w->q[j];
		if (wl_trylock(&q->lock))
			return q;
		ORDO_STAT(ctx, S_LOST_TRIES, 1);
	}
	return NULL;
}

static bool mbq_pop(struct ordo_sched_state *w, struct ordo_tctx *ctx, struct ordo_task *out)
{
	struct local *l = &w->l[ctx->tid];
	if (l->npop) {
		*out = l->popbuf[--l->npop];
		return true;
	}
	if (l->npush) /* buffered pushes take part from here on */
		flush(w, ctx, l);
	if (l->stick_left) {
		l->stick_left--;
		struct queue *q = &w->q[l->pop_q];
		if (top_of(q) != UINT64_MAX && wl_trylock(&q->lock) && take(w, ctx, l, q, out))
			return true;
	}
	struct queue *q = two_choice(w, ctx, l, 4);
	if (q && take(w, ctx, l, q, out)) {
		l->pop_q = (uint32_t)(q - w->q);
		l->stick_left = w->stick - 1;
		return true;
	}
	/* nothing in the draws: every queue, waiting for busy ones, before failing */
	const uint32_t from = (uint32_t)ordo_rng_below(&ctx->rng, w->nq);
	for (uint32_t k = 0; k < w->nq; k++) {
		q = &w->q[(from + k) % w->nq];
		if (top_of(q) == UINT64_MAX)
			continue;
		wl_lock(&q->lock);
		if (take(w, ctx, l, q, out)) {
			l->pop_q = (uint32_t)(q - w->q);
			l->stick_left = w->stick - 1;
			return true;
		}
	}
	return false;
}

/* Parking: the popped batch and the push buffer are private; they go to the executor. */
static void mbq_release(struct ordo_sched_state *w, struct ordo_tctx *ctx, struct ordo_handoff *out)
{
	struct local *l = &w->l[ctx->tid];
	(void)w;
	wl_batch_hand(l->popbuf, &l->npop, out);
	if (l->npush && ordo_handoff_put(out, l->pushbuf, l->npush))
		l->npush = 0;
}

/* A Multi-Queue's 2c, times the longest run on one queue (stick pops, or a batch), times
 * the keys a bucket holds (n 2^delta / range), which come out in no order */
static double mbq_rank_bound(const int64_t *p, const uint64_t *stats, double n, double range)
{
	(void)stats;
	int64_t run = p[P_STICK];
	run = p[P_PUSH_BATCH] > run ? p[P_PUSH_BATCH] : run;
	run = p[P_POP_BATCH] > run ? p[P_POP_BATCH] : run;
	const double per_bucket = (double)(1ull << p[P_DELTA]) * n / range;
	return 2.0 * (double)p[P_C] * (double)run * (per_bucket > 1 ? per_bucket : 1);
}

static unsigned mbq_grain(const int64_t *p)
{
	return (unsigned)p[P_DELTA];
}

ORDO_SCHEDULER_DEFINE(mbq, .name = "mbq", .rank_bound = mbq_rank_bound, .grain = mbq_grain,
                      .summary = "Multi Bucket Queue (SPAA'24): c*T locked bucket queues, "
                                 "batched pushes and pops, sticky two-choice on their tops",
                      .params = params, .nparams = P_N, .stat_names = {"lost_tries"},
                      .create = mbq_create, .destroy = mbq_destroy, .thread_init = mbq_thread_init,
                      .push = mbq_push, .pop = mbq_pop, .release = mbq_release);
