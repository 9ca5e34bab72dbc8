/*
 * reld.c - Random Enqueue, Local Dequeue (the SMQ paper's "RELD", artifact heapswarm;
 * REFERENCES.md, "RELD"): one locked 8-ary heap per thread; push puts each task
 * into a random queue whose try_lock succeeds; pop takes the lock of the caller's own
 * queue only and pops its top. No stealing: a task is only ever removed by the owner of
 * the queue it landed in, and the executor's termination detection waits for it.
 * Parameters: none.
 */
#include "lqueue.h"
#include "ordo_scheduler.h"

struct local {
	alignas(64) struct numa_pick pick;
};

struct ordo_sched_state {
	uint32_t T;
	const struct ordo_topology *topo;
	struct lqueue *q;
	struct local *l;
};

static int reld_create(const struct ordo_scheduler_config *cfg, struct ordo_sched_state **out,
                       struct ordo_err *err)
{
	struct ordo_sched_state *w = calloc(1, sizeof *w);
	if (!w)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	w->T = (uint32_t)cfg->topo->nthreads;
	w->topo = cfg->topo;
	w->q = lq_create(w->T);
	w->l = ordo_calloc_aligned(w->T, sizeof *w->l);
	if (!w->q || !w->l) {
		lq_destroy(w->q, w->T);
		free(w->l);
		free(w);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	}
	*out = w;
	return 0;
}

static void reld_thread_init(struct ordo_sched_state *w, struct ordo_tctx *ctx)
{
	if (!numa_pick_init(&w->l[ctx->tid].pick, w->topo, ctx->tid, w->T, 1, UINT32_MAX, 1))
		ctx->push_oom = true;
}

static void reld_destroy(struct ordo_sched_state *w)
{
	for (uint32_t t = 0; t < w->T; t++)
		numa_pick_free(&w->l[t].pick);
	lq_destroy(w->q, w->T);
	free(w->l);
	free(w);
}

static void reld_push(struct ordo_sched_state *w, struct ordo_tctx *ctx, const struct ordo_task *t,
                      size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct lqueue *q = lq_lock_random(w->q, &w->l[ctx->tid].pick, &ctx->rng);
		bool ok = lq_push_locked(q, &t[i], 1);
		wl_unlock(&q->lock);
		if (!ok) {
			ctx->push_oom = true;
			return;
		}
	}
}

static bool reld_pop(struct ordo_sched_state *w, struct ordo_tctx *ctx, struct ordo_task *out)
{
	struct lqueue *q = &w->q[ctx->tid];
	if (lq_top(q) == UINT64_MAX)
		return false;
	wl_lock(&q->lock);
	uint32_t got = lq_pop_locked(q, out, 1);
	wl_unlock(&q->lock);
	return got == 1;
}

ORDO_SCHEDULER_DEFINE(reld, .name = "reld",
                      .summary = "Random Enqueue, Local Dequeue: per-thread locked 8-ary heaps, no "
                                 "stealing",
                      .create = reld_create, .destroy = reld_destroy,
                      .thread_init = reld_thread_init, .push = reld_push, .pop = reld_pop);
