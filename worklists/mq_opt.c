/*
 * mq_opt.c - the optimized Multi-Queue of the SMQ paper (REFERENCES.md, "MQ optimized",
 * artifact WL/MQOptimized): the classic MQ (c*T locked 8-ary heaps, two-choice pops)
 * with temporal locality ("sticky") and task batching ("batch") for pushes and pops,
 * giving the four variants pp, pl, lp, ll:
 *   push=sticky  stay on one queue; after each geometric run of tasks (a run ends with
 *                probability 1/push_stick per task) switch to a random queue; a busy
 *                queue is also abandoned for a random one.
 *   push=batch   collect tasks in a private unlocked heap; once it holds push_batch
 *                tasks, move them all into one random queue under one lock.
 *   pop=sticky   with probability 1 - 1/pop_stick pop from the queue of the previous
 *                pop; otherwise (or when that fails) two-choice, which sets that queue.
 *   pop=batch    two-choice, then take up to pop_batch tasks at once into a private
 *                buffer that the next pops consume in order.
 * With push=batch, the private heap takes part in pops: its top competes with the
 * two-choice winner, and it is drained before a pop reports failure. A failed pop first
 * scans every queue, so "nothing found" means nothing was anywhere.
 * numa_k > 1 weighs queues on the caller's node by numa_k (queue q is homed with thread
 * q / c); a sticky queue drawn off-node is re-drawn once.
 * Parameters: c, push, pop, push_stick, pop_stick, push_batch, pop_batch, numa_k.
 * Defaults: the paper's final-plot variant (push sticky, pop batch) with the best cell on
 * road graphs (push_stick 4, pop_batch 2) and c = 4 as in its experiments.
 */
#include "lqueue.h"
#include "ordo_scheduler.h"

static const char *const modes[] = {"sticky", "batch", NULL};
enum { STICKY, BATCH };
enum { P_C, P_PUSH, P_POP, P_PUSH_STICK, P_POP_STICK, P_PUSH_BATCH, P_POP_BATCH, P_NUMA, P_N };
static const struct ordo_param params[P_N] = {
    {"c", 4, 1, 64, "queues per thread"},
    {"push", STICKY, 0, 1, "push policy", modes},
    {"pop", BATCH, 0, 1, "pop policy", modes},
    {"push_stick", 4, 1, 1 << 20, "sticky push: switch queue with probability 1/push_stick"},
    {"pop_stick", 4, 1, 1 << 20, "sticky pop: new two-choice with probability 1/pop_stick"},
    {"push_batch", 4, 1, 1 << 16, "batch push: tasks buffered before one locked flush"},
    {"pop_batch", 2, 1, 1 << 16, "batch pop: tasks taken per locked pop"},
    {"numa_k", 1, 1, 1 << 20, "weight of queues on the caller's node (others weigh 1)"},
};

struct local {
	alignas(128) struct numa_pick pick;
	uint32_t push_q, pop_q;
	bool have_pop_q;
	struct wl_heap pushbuf;   /* push=batch */
	struct ordo_task *popbuf; /* pop=batch, consumed from the back */
	uint32_t npop;
};

struct ordo_sched_state {
	uint32_t nq, c;
	int push, pop;
	uint64_t push_stick, pop_stick, numa_k;
	uint32_t push_batch, pop_batch;
	const struct ordo_topology *topo;
	struct lqueue *q;
	struct local *l;
};

static int mqo_create(const struct ordo_scheduler_config *cfg, struct ordo_sched_state **out,
                      struct ordo_err *err)
{
	struct ordo_sched_state *w = calloc(1, sizeof *w);
	if (!w)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	const int64_t *p = cfg->params;
	w->c = (uint32_t)p[P_C];
	w->nq = w->c * (uint32_t)cfg->topo->nthreads;
	w->push = (int)p[P_PUSH];
	w->pop = (int)p[P_POP];
	w->push_stick = (uint64_t)p[P_PUSH_STICK];
	w->pop_stick = (uint64_t)p[P_POP_STICK];
	w->push_batch = (uint32_t)p[P_PUSH_BATCH];
	w->pop_batch = (uint32_t)p[P_POP_BATCH];
	w->numa_k = (uint64_t)p[P_NUMA];
	w->topo = cfg->topo;
	w->q = lq_create(w->nq);
	w->l = ordo_calloc_aligned((size_t)cfg->topo->nthreads, sizeof *w->l);
	if (!w->q || !w->l) {
		lq_destroy(w->q, w->nq);
		free(w->l);
		free(w);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	}
	*out = w;
	return 0;
}

static uint32_t sticky_queue(struct ordo_sched_state *w, struct ordo_tctx *ctx, struct local *l)
{
	uint32_t q = numa_pick(&l->pick, &ctx->rng);
	if (w->numa_k > 1 && !numa_pick_is_local(w->topo, ctx->tid, q, w->c))
		q = numa_pick(&l->pick, &ctx->rng);
	return q;
}

static void mqo_thread_init(struct ordo_sched_state *w, struct ordo_tctx *ctx)
{
	struct local *l = &w->l[ctx->tid];
	l->popbuf = malloc(w->pop_batch * sizeof *l->popbuf);
	if (!l->popbuf || !wl_heap_reserve(&l->pushbuf, w->push_batch + 1) ||
	    !numa_pick_init(&l->pick, w->topo, ctx->tid, w->nq, w->c, UINT32_MAX, w->numa_k)) {
		ctx->push_oom = true;
		return;
	}
	l->push_q = sticky_queue(w, ctx, l);
}

static void mqo_destroy(struct ordo_sched_state *w)
{
	for (int t = 0; t < w->topo->nthreads; t++) {
		numa_pick_free(&w->l[t].pick);
		wl_heap_free(&w->l[t].pushbuf);
		free(w->l[t].popbuf);
	}
	lq_destroy(w->q, w->nq);
	free(w->l);
	free(w);
}

static void flush_pushbuf(struct ordo_sched_state *w, struct ordo_tctx *ctx, struct local *l)
{
	struct lqueue *q = lq_lock_random(w->q, &l->pick, &ctx->rng);
	bool ok = wl_heap_reserve(&q->heap, q->heap.n + l->pushbuf.n);
	if (ok) {
		for (size_t i = 0; i < l->pushbuf.n; i++)
			wl_heap_push(&q->heap, &l->pushbuf.a[i], 8);
		lq_publish_top(q);
		wl_heap_clear(&l->pushbuf);
	}
	wl_unlock(&q->lock);
	if (!ok)
		ctx->push_oom = true;
}

static void mqo_push(struct ordo_sched_state *w, struct ordo_tctx *ctx, const struct ordo_task *t,
                     size_t n)
{
	struct local *l = &w->l[ctx->tid];
	if (w->push == BATCH) {
		for (size_t i = 0; i < n; i++) {
			wl_heap_push(&l->pushbuf, &t[i], 8);
			if (l->pushbuf.n >= w->push_batch) {
				flush_pushbuf(w, ctx, l);
				/* a failed flush keeps its tasks, and the buffer has room for
				 * one more only: stop here, the executor ends with ENOMEM */
				if (ctx->push_oom)
					return;
			}
		}
		return;
	}
	size_t i = 0;
	while (i < n) {
		size_t run = 1; /* geometric: ends with probability 1/push_stick per task */
		while (i + run < n && ordo_rng_below(&ctx->rng, w->push_stick) != 0)
			run++;
		struct lqueue *q = &w->q[l->push_q];
		for (unsigned spins = 0; !wl_trylock(&q->lock); spins++) {
			l->push_q = sticky_queue(w, ctx, l);
			q = &w->q[l->push_q];
			if (spins > 64)
				sched_yield();
		}
		bool ok = lq_push_locked(q, &t[i], run);
		wl_unlock(&q->lock);
		if (!ok) {
			ctx->push_oom = true;
			return;
		}
		i += run;
		if (i < n || ordo_rng_below(&ctx->rng, w->push_stick) == 0)
			l->push_q = sticky_queue(w, ctx, l);
	}
}

/* Takes from a locked queue: one task, or a batch into popbuf. */
static void take(struct ordo_sched_state *w, struct local *l, struct lqueue *q,
                 struct ordo_task *out)
{
	if (w->pop == BATCH && w->pop_batch > 1) {
		uint32_t k = lq_pop_locked(q, l->popbuf, w->pop_batch);
		wl_unlock(&q->lock);
		l->npop = wl_batch_split(l->popbuf, k, out);
		return;
	}
	lq_pop_locked(q, out, 1);
	wl_unlock(&q->lock);
}

static bool mqo_pop(struct ordo_sched_state *w, struct ordo_tctx *ctx, struct ordo_task *out)
{
	struct local *l = &w->l[ctx->tid];
	if (l->npop) {
		*out = l->popbuf[--l->npop];
		return true;
	}
	if (w->pop == STICKY && l->have_pop_q && ordo_rng_below(&ctx->rng, w->pop_stick) != 0) {
		struct lqueue *q = &w->q[l->pop_q];
		if (lq_top(q) != UINT64_MAX && wl_trylock(&q->lock)) {
			if (q->heap.n) {
				if (l->pushbuf.n &&
				    wl_heap_top(&l->pushbuf) < wl_heap_top(&q->heap)) {
					wl_unlock(&q->lock);
					wl_heap_pop(&l->pushbuf, out, 8);
					return true;
				}
				take(w, l, q, out);
				return true;
			}
			wl_unlock(&q->lock);
		}
	}
	struct lqueue *q = lq_lock_two_choice(w->q, w->nq, &l->pick, &ctx->rng, 4);
	if (q && l->pushbuf.n && wl_heap_top(&l->pushbuf) < wl_heap_top(&q->heap)) {
		wl_unlock(&q->lock);
		q = NULL;
	} else if (!q && !l->pushbuf.n) {
		q = lq_lock_scan(w->q, w->nq, (uint32_t)ordo_rng_below(&ctx->rng, w->nq));
	}
	if (q) {
		l->pop_q = (uint32_t)(q - w->q);
		l->have_pop_q = true;
		take(w, l, q, out);
		return true;
	}
	if (l->pushbuf.n) {
		wl_heap_pop(&l->pushbuf, out, 8);
		return true;
	}
	return false;
}

/* Parking: a popped batch and the push buffer are private; they go to the executor. */
static void mqo_release(struct ordo_sched_state *w, struct ordo_tctx *ctx, struct ordo_handoff *out)
{
	struct local *l = &w->l[ctx->tid];
	wl_batch_hand(l->popbuf, &l->npop, out);
	struct ordo_task *d = ordo_handoff_room(out, l->pushbuf.n);
	if (!d)
		return;
	size_t k = 0;
	while (l->pushbuf.n)
		wl_heap_pop(&l->pushbuf, &d[k++], 8);
	out->n += k;
}

/* stickiness and batches multiply the Multi-Queue's 2c by the longest run spent on
 * one queue (push_stick, pop_stick or a batch) */
static double mqo_rank_bound(const int64_t *p, const uint64_t *stats, double n, double range)
{
	(void)stats, (void)n, (void)range;
	int64_t run = 1;
	for (int k = 3; k <= 6; k++) /* push_stick, pop_stick, push_batch, pop_batch */
		run = p[k] > run ? p[k] : run;
	return 2.0 * (double)p[0] * (double)run;
}

ORDO_SCHEDULER_DEFINE(
    mq_opt, .name = "mq-opt", .rank_bound = mqo_rank_bound,
    .summary = "optimized Multi-Queue: sticky or batched push and pop (pp/pl/lp/ll)",
    .params = params, .nparams = P_N, .create = mqo_create, .destroy = mqo_destroy,
    .thread_init = mqo_thread_init, .push = mqo_push, .pop = mqo_pop, .release = mqo_release);
