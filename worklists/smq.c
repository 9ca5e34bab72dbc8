/*
 * smq.c - the Stealing Multi-Queue (Postnikova, Koval, Nadiradze, Alistarh, PPoPP'22),
 * as in the authors' artifact (WL/StealingMultiQueue.h; REFERENCES.md, "SMQ").
 *
 * Each thread owns a local queue (a 4-ary heap) that, unguarded, only it touches (a
 * guarded owner's queue is also popped by guests under its lock: "Guarded queues"
 * below; who may touch what is listed there), and a steal buffer holding up to
 * steal_size of its best tasks, guarded by one 64-bit version word:
 *   even = the buffer was taken (or never filled), odd = it holds tasks.
 * - The owner refills the buffer only while the version is even: it moves the heap's
 *   minima into the slots, then stores version + 1 (release): odd. Nobody else writes
 *   an even version, so a plain store is an exact increment.
 * - Anyone (a thief, or the owner taking its own buffer back) takes the whole buffer by
 *   reading the version v (acquire, must be odd), copying the slots, and compare-and-
 *   swapping v -> v+1 (acq_rel). Success means nobody took or refilled the buffer in
 *   between: the owner writes slots only while the version is even, which it can only
 *   see after a successful CAS; the version never decreases, so a value is never seen
 *   twice (no ABA). Slots are read and written with relaxed atomics: the copy may race
 *   with a refill only in runs whose CAS then fails and whose copy is thrown away.
 * - A thief first compares its own buffer's best with the victim's buffer's best
 *   (a seqlock-style read: version, top, fence, version) and steals only a better one.
 *
 * pop: the rest of a batch first (executed in order, without looking at the heap: the
 * paper's task batching); then with probability 1/steal_prob one steal attempt on a
 * random victim (NUMA-weighted with numa_k); then the own buffer when it beats the heap
 * top (taken back by CAS, like a thief), else the heap top; if both are empty, one steal
 * attempt. push: into the heap, then refill the buffer if it was taken. On one thread
 * there is no thief, so the buffer is never filled and pop is the local queue's own
 * (exact; +9% pairs/s on the monotonic benchmark with pq=bucket).
 * Unguarded, SMQ is lock-free: the only synchronisation is the CAS on version words;
 * a guarded queue adds its lock (below).
 *
 * One engineering change from the artifact: there, the owner that takes its buffer back
 * keeps the best task, pushes the others back into its heap and refills the buffer at
 * once. Since a freshly filled buffer always beats the heap top, that costs 2 x
 * steal_size heap operations per pop (it is why the artifact's SMQ runs 3.7x slower than
 * Dijkstra on one thread on road2k). ordo keeps the taken-back tasks as a local batch,
 * consumed in order like a stolen one, so each task costs one heap push and one heap pop
 * and the buffer is refilled once per steal_size pops.
 *
 * Parameters: steal_prob (1/p chance of a steal attempt per pop), steal_size (buffer
 * and batch size), numa_k (weight of same-node victims; 1 = uniform), pq: the owner's
 * exact local queue, the paper's 4-ary heap (default), a radix heap (radix.h), which
 * costs O(1) amortised per operation when priorities rarely go below the last minimum
 * taken (SSSP, BFS, A*, the monotonic benchmark) and stays exact otherwise, or a bucket
 * queue (bq.h) whose buckets hold priorities equal >> bq_shift: exact too, with heap
 * operations on one bucket's tasks (none at shift 0) instead of the whole queue.
 * bq_shift 0 was the fastest start on both yardsticks (SSSP, bench/LOG.md); the
 * queue widens its buckets by itself where priorities spread far past its window.
 * Stealing, buffers and batches are the same for all three, so the paper's rank
 * reasoning holds for each.
 *
 * Guarded queues (guard=auto|on; not in the paper). On a shared machine the OS
 * deschedules an owner for milliseconds with half of the run's front in its private
 * queue; its buffer, once stolen, is not refilled, and the others run ahead on their
 * own parts of the front: on road2k beside one spinning thread, 1.3x the work of a
 * quiet run. A guarded owner touches its local queue only under a lock of its own
 * (uncontended: one exchange per push batch and per pop that reaches the queue) and
 * counts each take of it in `beat`. A worker that sees a guarded owner's beat stand
 * still over GUARD_STALL of its own pops makes it its host: while the host's best beats
 * its own, it takes up to steal_size of the host's best tasks under the host's lock
 * (trylock: a guest never waits, so two locks never make a cycle) and runs them as a
 * batch, and the children of those tasks go back into the host's queue, so the host's
 * part of the front is still its own when it runs again. The host's first take of its
 * lock moves its beat, and the guest lets go. The buffer protocol is unchanged (a guest
 * never fills another's buffer). guard=auto turns an owner guarded when a stretch of
 * GUARD_STRETCH pops (with none failing) ran on a CPU for less than GUARD_SHARE of its
 * wall time; on a quiet machine nothing is guarded and the cost is a counter per pop.
 *
 * Who touches what:
 * - the local queue: its owner alone while `guarded` is 0; once guarded (set by the
 *   owner, never unset within a run) only whoever holds the owner's `lock`: the owner,
 *   or a guest that won the trylock and saw the owner's beat still stand under it;
 * - the steal buffer's slots: written by the owner alone, only while the version is
 *   even; read by anyone (relaxed; a copy counts only if the CAS after it succeeds);
 * - the version word: made odd by the owner alone, made even by one successful CAS
 *   (any thread);
 * - `beat`: moved by the owner under its lock, read by others (relaxed);
 * - `host`, `push_host`, `pops`, the batch and the watch: their worker alone.
 */
#include "bq.h"
#include "numa_pick.h"
#include "ordo_scheduler.h"
#include "perturb.h"
#include "radix.h"
#include "wl_common.h"

static const char *const pq_kinds[] = {"heap", "radix", "bucket", NULL};
enum { PQ_HEAP, PQ_RADIX, PQ_BUCKET };
static const char *const guard_kinds[] = {"off", "auto", "on", NULL};
enum { G_OFF, G_AUTO, G_ON };
enum { P_PROB, P_SIZE, P_NUMA, P_PQ, P_BQ_SHIFT, P_GUARD, P_N };
static const struct ordo_param params[P_N] = {
    {"steal_prob", 8, 1, 1 << 20, "a pop tries to steal with probability 1/steal_prob"},
    {"steal_size", 8, 1, 1024, "tasks in a steal buffer (and in a stolen batch)"},
    {"numa_k", 1, 1, 1 << 20, "weight of same-node victims (others weigh 1)"},
    {"pq", PQ_HEAP, 0, 2,
     "owner's queue: 4-ary heap (the paper's), radix heap, or bucket queue with a heap for "
     "its lowest bucket",
     pq_kinds},
    {"bq_shift", 0, 0, 40,
     "pq=bucket: a bucket holds priorities equal >> bq_shift (at the start: the queue "
     "widens it where priorities spread far)"},
    {"guard", G_AUTO, 0, 2,
     "a lock on the owner's queue, so that others may pop from it while the owner is "
     "descheduled: off, auto (from an owner's first stretch descheduled), on",
     guard_kinds},
};

enum { S_STEALS, S_STOLEN, S_OWN_TAKEBACKS, S_RACES, S_GUEST, S_GUARDED };

#define NO_HOST       UINT32_MAX
#define GUARD_WATCH   64   /* own pops between looks at a victim's beat */
#define GUARD_STALL   256  /* own pops over which a guarded owner's beat stood still */
#define GUARD_STRETCH 4096 /* pops per look at the owner's own CPU share (auto) */
#define GUARD_SHARE   0.85 /* below it the owner turns guarded (auto) */

struct queue {
	/* shared: read by thieves. version, top and count share one line, so that a
	 * thief's look at a victim (buffer_min) costs one cache miss and the owner's
	 * refill one line transfer, however many slot lines the buffer has. */
	alignas(128) _Atomic uint64_t version;
	_Atomic uint64_t top; /* the first slot's priority, valid while version is odd */
	_Atomic uint32_t count;
	_Atomic uint64_t *slots; /* 2 * steal_size words: prio, data */
	/* owner only: the local exact priority queue, one of */
	alignas(128) struct wl_heap heap;
	struct radix_pq radix;
	struct bq_pq bq;
	struct ordo_task *batch; /* rest of a taken buffer, consumed from the back */
	uint32_t nbatch;
	struct numa_pick pick;
	/* the guard (see "Guarded queues" above): `lock` guards the local queue while
	 * `guarded` (set once, by the owner, release); `beat` counts the owner's takes of
	 * its lock, so a beat that stands still while others run tells a descheduled
	 * owner */
	alignas(128) struct wl_lock lock;
	_Atomic uint32_t guarded;
	_Atomic uint64_t beat;
	/* owner only: a guest's host (NO_HOST: none), its beat when chosen, and where
	 * pushes go (the host while a batch from it runs); the watch over others' beats;
	 * the auto mode's stretch */
	alignas(128) uint32_t host, push_host;
	uint64_t host_beat, pops;
	uint64_t *seen_beat, *seen_at;
	double mark_wall, mark_cpu;
	bool dry; /* a pop failed since the stretch began */
};

struct ordo_sched_state {
	uint32_t T, size;
	int pq, guard;
	unsigned bq_shift;
	uint64_t prob, numa_k;
	const struct ordo_topology *topo;
	struct queue *q;
	alignas(128) _Atomic uint32_t nguarded; /* queues guarded now (read every pop) */
};

static int smq_create(const struct ordo_scheduler_config *cfg, struct ordo_sched_state **out,
                      struct ordo_err *err)
{
	struct ordo_sched_state *w = ordo_calloc_aligned(1, sizeof *w); /* alignas(128) inside */
	if (!w)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	w->T = (uint32_t)cfg->topo->nthreads;
	w->prob = (uint64_t)cfg->params[P_PROB];
	w->size = (uint32_t)cfg->params[P_SIZE];
	w->numa_k = (uint64_t)cfg->params[P_NUMA];
	w->pq = (int)cfg->params[P_PQ];
	w->bq_shift = (unsigned)cfg->params[P_BQ_SHIFT];
	w->guard = (int)cfg->params[P_GUARD];
	w->topo = cfg->topo;
	w->q = ordo_calloc_aligned(w->T, sizeof *w->q);
	if (!w->q) {
		free(w);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	}
	*out = w;
	return 0;
}

static void smq_thread_init(struct ordo_sched_state *w, struct ordo_tctx *ctx)
{
	/* each thread allocates its own queue's memory: first touch puts it on its node */
	struct queue *q = &w->q[ctx->tid];
	q->slots = ordo_calloc_aligned(2 * (size_t)w->size, sizeof *q->slots);
	q->batch = malloc(w->size * sizeof *q->batch);
	q->host = q->push_host = NO_HOST;
	q->seen_beat = calloc(w->T, sizeof *q->seen_beat);
	q->seen_at = calloc(w->T, sizeof *q->seen_at);
	if (w->guard == G_ON && w->T > 1) {
		atomic_store_explicit(&q->guarded, 1, memory_order_release);
		atomic_fetch_add_explicit(&w->nguarded, 1, memory_order_relaxed);
		ORDO_STAT(ctx, S_GUARDED, 1);
	}
	if (!q->slots || !q->batch || !q->seen_beat || !q->seen_at ||
	    (w->pq == PQ_BUCKET ? !bq_init(&q->bq, w->bq_shift)
	                        : !wl_heap_reserve(&q->heap, 4096)) ||
	    !numa_pick_init(&q->pick, w->topo, ctx->tid, w->T, 1, ctx->tid, w->numa_k))
		ctx->push_oom = true;
}

static void smq_destroy(struct ordo_sched_state *w)
{
	for (uint32_t t = 0; t < w->T; t++) {
		struct queue *q = &w->q[t];
		free(q->slots);
		free(q->batch);
		free(q->seen_beat);
		free(q->seen_at);
		wl_heap_free(&q->heap);
		radix_free(&q->radix);
		bq_free(&q->bq);
		numa_pick_free(&q->pick);
	}
	free(w->q);
	free(w);
}

/* ---- the owner's local queue ---- */
static inline size_t lpq_size(const struct ordo_sched_state *w, const struct queue *q)
{
	return w->pq == PQ_HEAP    ? q->heap.n
	       : w->pq == PQ_RADIX ? radix_size(&q->radix)
	                           : bq_size(&q->bq);
}

static inline uint64_t lpq_top(const struct ordo_sched_state *w, struct queue *q)
{
	return w->pq == PQ_HEAP    ? wl_heap_top(&q->heap)
	       : w->pq == PQ_RADIX ? radix_top(&q->radix)
	                           : bq_top(&q->bq);
}

/* The queue must not be empty. False only when the radix or bucket queue could not
 * allocate (then nothing was taken; smq_pop reports it as out of memory). */
static inline bool lpq_pop(const struct ordo_sched_state *w, struct queue *q, struct ordo_task *out)
{
	if (w->pq == PQ_HEAP) {
		wl_heap_pop(&q->heap, out, 4);
		return true;
	}
	return w->pq == PQ_RADIX ? radix_pop(&q->radix, out) : bq_pop(&q->bq, out);
}

/* Owner: moves the local queue's best tasks into the (taken, even) buffer and
 * publishes it. */
static void fill_buffer(struct ordo_sched_state *w, struct queue *q)
{
	uint32_t k = 0;
	while (k < w->size && lpq_size(w, q)) {
		struct ordo_task t;
		if (!lpq_pop(w, q, &t))
			break;
		atomic_store_explicit(&q->slots[2 * k], t.prio, memory_order_relaxed);
		atomic_store_explicit(&q->slots[2 * k + 1], t.data, memory_order_relaxed);
		k++;
	}
	if (k == 0)
		return; /* nothing to offer: stays even (empty) */
	atomic_store_explicit(&q->top, atomic_load_explicit(&q->slots[0], memory_order_relaxed),
	                      memory_order_relaxed);
	atomic_store_explicit(&q->count, k, memory_order_relaxed);
	/* A plain release store, not a read-modify-write: while the version is even only
	 * the owner may change it (thieves and take-backs CAS odd values only), so no
	 * increment can be lost, and the store needs no locked instruction that would
	 * wait for the slot stores to gain their lines from a thief's cache. Release: the
	 * slots and count are visible to whoever sees the odd version. */
	/* acquire (as in fill_if_taken): pairs with a thief's release CAS, so its reads
	 * of the old slots happen before the stores above are seen - the reasoning at
	 * take_buffer needs it, not only the CAS */
	const uint64_t v = atomic_load_explicit(&q->version, memory_order_acquire);
	ORDO_PERTURB_POINT(SMQ_FILL);
	atomic_store_explicit(&q->version, v + 1, memory_order_release);
}

/* No other worker runs now: one thread, or the others parked (runtime/seats.h). */
static inline bool solo(const struct ordo_sched_state *w, const struct ordo_tctx *ctx)
{
	return w->T == 1 ||
	       (ctx->running && atomic_load_explicit(ctx->running, memory_order_relaxed) == 1);
}

static inline void fill_if_taken(struct ordo_sched_state *w, struct ordo_tctx *ctx, struct queue *q)
{
	if (solo(w, ctx))
		return; /* no thief: the buffer is not refilled (see smq_pop) */
	/* acquire: an even version may be a thief's release CAS; its copy of the slots
	 * must happen before our refill overwrites them */
	if (!(atomic_load_explicit(&q->version, memory_order_acquire) & 1))
		fill_buffer(w, q);
}

/* Best priority in q's buffer, or UINT64_MAX; *race when it changed under us. */
static inline uint64_t buffer_min(struct queue *q, bool *race)
{
	uint64_t v1 = atomic_load_explicit(&q->version, memory_order_acquire);
	if (!(v1 & 1))
		return UINT64_MAX;
	uint64_t m = atomic_load_explicit(&q->top, memory_order_relaxed);
	/* the top load must complete before the second version load (seqlock read) */
	atomic_thread_fence(memory_order_acquire);
	if (atomic_load_explicit(&q->version, memory_order_relaxed) != v1) {
		*race = true;
		return UINT64_MAX;
	}
	return m;
}

/* Takes q's whole buffer into out[]; returns the count (0 = nothing or lost a race). */
static uint32_t take_buffer(struct queue *q, struct ordo_task *out, uint32_t size, bool *race)
{
	uint64_t v = atomic_load_explicit(&q->version, memory_order_acquire);
	if (!(v & 1))
		return 0;
	uint32_t k = atomic_load_explicit(&q->count, memory_order_relaxed);
	if (k > size)
		k = size; /* a torn read in a run whose CAS will fail anyway */
	for (uint32_t i = 0; i < k; i++) {
		out[i].prio = atomic_load_explicit(&q->slots[2 * i], memory_order_relaxed);
		out[i].data = atomic_load_explicit(&q->slots[2 * i + 1], memory_order_relaxed);
	}
	ORDO_PERTURB_POINT(SMQ_TAKE);
	/* acq_rel: acquire pairs with the filler's release; release lets the owner, which
	 * refills after seeing v+1, overwrite the slots only after our copy */
	if (atomic_compare_exchange_strong_explicit(&q->version, &v, v + 1, memory_order_acq_rel,
	                                            memory_order_relaxed))
		return k;
	*race = true;
	return 0;
}

/* Owner takes its own buffer back by the same CAS a thief uses; the best task is
 * returned and the rest kept, in order, as the local batch. */
static bool take_own(struct ordo_sched_state *w, struct ordo_tctx *ctx, struct queue *q,
                     struct ordo_task *out)
{
	bool race = false;
	uint32_t k = take_buffer(q, q->batch, w->size, &race); /* only when nbatch == 0 */
	if (!k) {
		ORDO_STAT(ctx, S_RACES, race); /* a thief took it first */
		return false;
	}
	ORDO_STAT(ctx, S_OWN_TAKEBACKS, 1);
	q->nbatch = wl_batch_split(q->batch, k, out);
	return true;
}

/* A victim: uniform over the other running workers while some are parked (their
 * queues and buffers are empty: they handed everything over, runtime/seats.h), else
 * the NUMA-weighted draw. With 14 of 16 workers parked, a uniform victim was the other
 * running worker one time in 15. */
static inline uint32_t pick_victim(const struct ordo_sched_state *w, struct ordo_tctx *ctx,
                                   const struct queue *me)
{
	const uint64_t parked =
	    ctx->parked_mask ? atomic_load_explicit(ctx->parked_mask, memory_order_relaxed) : 0;
	if (!parked)
		return numa_pick(&me->pick, &ctx->rng);
	uint64_t cand = ~parked & (w->T >= 64 ? ~0ull : (1ull << w->T) - 1) & ~(1ull << ctx->tid);
	if (!cand)
		return numa_pick(&me->pick, &ctx->rng);
	for (uint64_t k = ordo_rng_below(&ctx->rng, (uint64_t)__builtin_popcountll(cand)); k; k--)
		cand &= cand - 1;
	return (uint32_t)__builtin_ctzll(cand);
}

/* Takes q's whole buffer as me's batch (empty now), counted as a steal; the best task
 * is *out. Returns the count (0 = nothing or lost a race, *race then says which). */
static uint32_t steal_buffer(struct ordo_sched_state *w, struct ordo_tctx *ctx, struct queue *me,
                             struct queue *q, struct ordo_task *out, bool *race)
{
	const uint32_t k = take_buffer(q, me->batch, w->size, race);
	if (k) {
		ORDO_STAT(ctx, S_STEALS, 1);
		ORDO_STAT(ctx, S_STOLEN, k);
		me->nbatch = wl_batch_split(me->batch, k, out);
	}
	return k;
}

/* One steal attempt on a random victim whose buffer beats ours (retried on races). */
static bool try_steal(struct ordo_sched_state *w, struct ordo_tctx *ctx, struct queue *me,
                      struct ordo_task *out)
{
	bool race = false;
	uint64_t mine = buffer_min(me, &race);
	if (mine == UINT64_MAX) {
		fill_if_taken(w, ctx, me);
		race = false;
		mine = buffer_min(me, &race);
	}
	for (int attempt = 0; attempt < 4; attempt++) {
		uint32_t v = pick_victim(w, ctx, me);
		struct queue *q = &w->q[v];
		race = false;
		uint64_t m = buffer_min(q, &race);
		if (m == UINT64_MAX) {
			if (race) { /* the version moved during the read: discarded */
				ORDO_STAT(ctx, S_RACES, 1);
				continue;
			}
			return false;
		}
		if (mine != UINT64_MAX && m >= mine)
			return false;                        /* ours is at least as good */
		if (steal_buffer(w, ctx, me, q, out, &race)) /* nbatch == 0 here */
			return true;
		if (race) { /* the CAS failed: our (possibly torn) copy is dropped */
			ORDO_STAT(ctx, S_RACES, 1);
			continue;
		}
		return false;
	}
	return false;
}

/* ---- guarded queues: others pop from a descheduled owner's queue ---- */

/* The owner takes its own queue's lock (when guarded: true) and beats. It waits only
 * for a guest, which holds the lock for one batch. */
static inline bool own_lock(struct queue *q)
{
	if (!atomic_load_explicit(&q->guarded, memory_order_relaxed))
		return false;
	wl_lock(&q->lock);
	atomic_store_explicit(&q->beat, atomic_load_explicit(&q->beat, memory_order_relaxed) + 1,
	                      memory_order_relaxed);
	return true;
}

static inline void own_unlock(struct queue *q, bool held)
{
	if (held)
		wl_unlock(&q->lock);
}

/* guard=auto: every GUARD_STRETCH pops, the owner's CPU share of the stretch (wall
 * against thread CPU time); below GUARD_SHARE another process took its core, and the
 * queue turns guarded for the rest of the run. A stretch with a failed pop (the worker
 * may have slept idle) is not judged. Called with no lock held. */
static void watch_self(struct ordo_sched_state *w, struct ordo_tctx *ctx, struct queue *q)
{
	const double now = ordo_now(), cpu = ordo_thread_cpu();
	const double wall = now - q->mark_wall;
	if (q->pops > GUARD_STRETCH && !q->dry && wall > 0 &&
	    (cpu - q->mark_cpu) < GUARD_SHARE * wall) {
		/* release: the unguarded accesses before are seen by a guest whose
		 * acquire load reads 1 (it then takes the lock, which we take from now on) */
		atomic_store_explicit(&q->guarded, 1, memory_order_release);
		atomic_fetch_add_explicit(&w->nguarded, 1, memory_order_relaxed);
		ORDO_STAT(ctx, S_GUARDED, 1);
	}
	q->mark_wall = now, q->mark_cpu = cpu, q->dry = false;
}

/* Every GUARD_WATCH pops while some queue is guarded: a look at one running victim's
 * beat. A guarded victim whose beat stood still over GUARD_STALL of our pops is not
 * running (or not popping): it becomes our host. */
static void watch_others(struct ordo_sched_state *w, struct ordo_tctx *ctx, struct queue *q)
{
	const uint32_t v = pick_victim(w, ctx, q);
	struct queue *h = &w->q[v];
	if (v == ctx->tid || !atomic_load_explicit(&h->guarded, memory_order_acquire))
		return;
	const uint64_t b = atomic_load_explicit(&h->beat, memory_order_relaxed);
	if (b == q->seen_beat[v] && q->pops - q->seen_at[v] >= GUARD_STALL) {
		q->host = v;
		q->host_beat = b;
		return;
	}
	if (b != q->seen_beat[v]) {
		q->seen_beat[v] = b;
		q->seen_at[v] = q->pops;
	}
}

/* A guest takes its host's lock, only while the host has not run since it was chosen:
 * its beat is read before the lock and again under it (the host may have run, and
 * parked with its queue handed over, in between). False: the guest lets it go. */
static bool host_lock(struct queue *h, uint64_t beat)
{
	if (atomic_load_explicit(&h->beat, memory_order_relaxed) != beat)
		return false;
	ORDO_PERTURB_POINT(SMQ_HOST_LOCK); /* the host may run, and park, right here */
	if (!wl_trylock(&h->lock))
		return false;
	if (atomic_load_explicit(&h->beat, memory_order_relaxed) == beat)
		return true;
	wl_unlock(&h->lock);
	return false;
}

/* A guest's pop: when the host's best beats ours (local queue and buffer), up to
 * steal_size of the host's best tasks, taken under its lock, become our batch, and
 * the children of their tasks go back to the host's queue (smq_push), so that its part
 * of the front stays its own when it runs again. The host is dropped once its beat
 * moves (it runs again), its lock is taken, or it is empty. */
static bool guest_pop(struct ordo_sched_state *w, struct ordo_tctx *ctx, struct queue *q,
                      struct ordo_task *out)
{
	struct queue *h = &w->q[q->host];
	bool race = false;
	uint64_t mine = buffer_min(q, &race);
	const bool held = own_lock(q);
	if (lpq_size(w, q)) {
		const uint64_t t = lpq_top(w, q);
		mine = t < mine ? t : mine;
	}
	own_unlock(q, held);
	/* the host's buffer holds its very best: taken first, as a thief would */
	race = false;
	if (buffer_min(h, &race) < mine && steal_buffer(w, ctx, q, h, out, &race)) {
		q->push_host = q->host;
		return true;
	}
	if (!host_lock(h, q->host_beat)) {
		q->host = NO_HOST;
		return false;
	}
	uint32_t k = 0;
	while (k < w->size && lpq_size(w, h) && lpq_top(w, h) < mine &&
	       lpq_pop(w, h, &q->batch[k])) {
		ORDO_PERTURB_POINT(SMQ_GUEST); /* the host may come back meanwhile */
		k++;
	}
	const bool empty = !lpq_size(w, h);
	wl_unlock(&h->lock);
	if (!k) {
		/* ours is better (or the host is empty or back): let go; if its beat still
		 * stands, the watch takes it again within GUARD_WATCH pops, so a guest whose
		 * own tasks tie with the host's (BFS levels) pays a look per GUARD_WATCH pops,
		 * not per pop */
		if (!empty && atomic_load_explicit(&h->beat, memory_order_relaxed) == q->host_beat)
			q->seen_at[q->host] = q->pops - (GUARD_STALL - GUARD_WATCH);
		q->host = NO_HOST;
		return false;
	}
	ORDO_STAT(ctx, S_GUEST, 1);
	q->push_host = q->host;
	q->nbatch = wl_batch_split(q->batch, k, out);
	return true;
}

/* Pushes into a local queue (its owner's, or a host's under its lock); returns how
 * many went in (fewer than n only when an allocation failed). */
static size_t lpq_push(const struct ordo_sched_state *w, struct queue *q, const struct ordo_task *t,
                       size_t n)
{
	size_t i = 0;
	if (w->pq == PQ_HEAP) {
		if (wl_heap_reserve(&q->heap, q->heap.n + n))
			for (; i < n; i++)
				wl_heap_push(&q->heap, &t[i], 4);
	} else if (w->pq == PQ_RADIX) {
		while (i < n && radix_push(&q->radix, &t[i]))
			i++;
	} else {
		while (i < n && bq_push(&q->bq, &t[i]))
			i++;
	}
	return i;
}

/* A guest's push of the children of a host's task: into the host's queue, unless the
 * host runs again (its lock is taken or its beat moved); returns how many went there
 * (the rest go to the guest's own queue). */
static size_t guest_push(struct ordo_sched_state *w, struct queue *q, const struct ordo_task *t,
                         size_t n)
{
	struct queue *h = &w->q[q->push_host];
	if (!host_lock(h, q->host_beat)) {
		q->push_host = NO_HOST;
		return 0;
	}
	const size_t k = lpq_push(w, h, t, n);
	wl_unlock(&h->lock);
	return k;
}

static void smq_push(struct ordo_sched_state *w, struct ordo_tctx *ctx, const struct ordo_task *t,
                     size_t n)
{
	struct queue *q = &w->q[ctx->tid];
	if (__builtin_expect(q->push_host != NO_HOST, 0)) {
		const size_t k = guest_push(w, q, t, n);
		t += k, n -= k;
		if (!n)
			return;
	}
	const bool held = own_lock(q);
	if (lpq_push(w, q, t, n) < n)
		ctx->push_oom = true;
	else
		fill_if_taken(w, ctx, q);
	own_unlock(q, held);
}

/* The owner's pop with its lock held (when guarded). */
static bool own_pop(struct ordo_sched_state *w, struct ordo_tctx *ctx, struct queue *q,
                    struct ordo_task *out)
{
	if (solo(w, ctx)) {
		/* the others parked: no steal attempts, no refills; a buffer filled
		 * before comes back when it beats the local queue */
		bool race = false;
		uint64_t b = buffer_min(q, &race);
		if (lpq_size(w, q) && (b == UINT64_MAX || lpq_top(w, q) < b))
			return lpq_pop(w, q, out);
		return take_own(w, ctx, q, out) || (lpq_size(w, q) && lpq_pop(w, q, out));
	}
	if (ordo_rng_below(&ctx->rng, w->prob) == 0 && try_steal(w, ctx, q, out))
		return true;
	bool race = false;
	uint64_t b = buffer_min(q, &race);
	if (b != UINT64_MAX && b <= lpq_top(w, q) && take_own(w, ctx, q, out)) {
		fill_buffer(w, q); /* offer the next best to thieves */
		return true;
	}
	if (lpq_size(w, q) && lpq_pop(w, q, out)) {
		fill_if_taken(w, ctx, q);
		return true;
	}
	if (take_own(w, ctx, q, out)) /* a race above, retried once */
		return true;
	return try_steal(w, ctx, q, out);
}

static bool smq_pop(struct ordo_sched_state *w, struct ordo_tctx *ctx, struct ordo_task *out)
{
	struct queue *q = &w->q[ctx->tid];
	if (__builtin_expect(q->radix.failed || q->bq.failed, 0)) {
		ctx->push_oom = true; /* the executor ends the run with ENOMEM */
		return false;
	}
	if (q->nbatch) {
		*out = q->batch[--q->nbatch];
		/* the version is the owner's to read; the lock only when a refill is due */
		if (!(atomic_load_explicit(&q->version, memory_order_relaxed) & 1) &&
		    !solo(w, ctx)) {
			const bool held = own_lock(q);
			fill_if_taken(w, ctx, q);
			own_unlock(q, held);
		}
		return true;
	}
	if (w->T == 1) /* alone: the exact local queue, without a buffer to take back */
		return lpq_size(w, q) && lpq_pop(w, q, out);
	q->push_host = NO_HOST;
	if (w->guard != G_OFF) {
		q->pops++;
		if (w->guard == G_AUTO && !(q->pops & (GUARD_STRETCH - 1)) &&
		    !atomic_load_explicit(&q->guarded, memory_order_relaxed))
			watch_self(w, ctx, q);
		if (atomic_load_explicit(&w->nguarded, memory_order_relaxed)) {
			if (q->host == NO_HOST && !(q->pops & (GUARD_WATCH - 1)))
				watch_others(w, ctx, q);
			if (q->host != NO_HOST && guest_pop(w, ctx, q, out))
				return true;
		}
	}
	const bool held = own_lock(q);
	const bool ok = own_pop(w, ctx, q, out);
	own_unlock(q, held);
	q->dry |= !ok;
	return ok;
}

/* Parking (the executor runs fewer workers than threads): the batch, the local queue
 * and the steal buffer go to the executor, which hands them to a running worker. */
static void smq_release(struct ordo_sched_state *w, struct ordo_tctx *ctx, struct ordo_handoff *out)
{
	struct queue *q = &w->q[ctx->tid];
	q->host = q->push_host = NO_HOST;
	const bool held = own_lock(q);
	wl_batch_hand(q->batch, &q->nbatch, out);
	/* the whole buffer, whatever steal_size is: a buffer left here would be reachable
	 * only by thieves, which skip a parked owner while anyone runs */
	struct ordo_task *d = ordo_handoff_room(out, w->size);
	if (d) {
		bool race = false; /* lost: a thief has it */
		out->n += take_buffer(q, d, w->size, &race);
	}
	const size_t left = lpq_size(w, q);
	d = ordo_handoff_room(out, left);
	for (size_t k = 0; d && k < left; k++, out->n++)
		if (!lpq_pop(w, q, &d[k])) {
			ctx->push_oom = true; /* the queue could not reorganise: ENOMEM */
			break;
		}
	own_unlock(q, held);
}

/* its own heap is exact, but a buffer it takes back (steal_size tasks) runs in order
 * while better tasks arrive: mean < steal_size */
static double smq_rank_bound(const int64_t *p, const uint64_t *stats, double n, double range)
{
	(void)stats, (void)n, (void)range;
	return (double)p[P_SIZE];
}

static unsigned smq_grain(const int64_t *p)
{
	return p[P_PQ] == PQ_BUCKET ? (unsigned)p[P_BQ_SHIFT] : 0;
}

/* guard=auto watches the owner's share of its core (wall against thread CPU time) */
static bool smq_reads_clock(const int64_t *p)
{
	return p[P_GUARD] == G_AUTO;
}

ORDO_SCHEDULER_DEFINE(smq, .name = "smq", .rank_bound = smq_rank_bound, .grain = smq_grain,
                      .reads_clock = smq_reads_clock,
                      .summary =
                          "Stealing Multi-Queue: per-thread 4-ary heaps, version-guarded steal "
                          "buffers",
                      .params = params, .nparams = P_N,
                      .stat_names = {"steals", "stolen_tasks", "own_takebacks", "steal_races",
                                     "guest_batches", "guarded_queues"},
                      .create = smq_create, .destroy = smq_destroy, .thread_init = smq_thread_init,
                      .push = smq_push, .pop = smq_pop, .release = smq_release);
