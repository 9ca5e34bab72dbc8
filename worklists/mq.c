/*
 * mq.c - the classic Multi-Queue (Rihani, Sanders, Dementiev, SPAA'15) as the SMQ
 * paper's baseline hmq<C> (worklists/REFERENCES.md, "MQ"): c*T queues, each an 8-ary heap
 * with a test-and-test-and-set lock and an atomically readable top.
 * push: each task into a random queue whose try_lock succeeds (one task per lock).
 * pop: two random distinct queues, lock the one with the better top, pop; a lost
 * try_lock re-draws both. After a failed two-choice round the pop scans every queue
 * before reporting failure, so "nothing found" means nothing was there.
 * numa_k > 1 weighs queues homed on the caller's node (queue q is homed with thread
 * q / c) by numa_k, the others by 1.
 * Parameters: c (queues per thread), numa_k.
 */
#include "lqueue.h"
#include "ordo_scheduler.h"

enum { P_C, P_NUMA, P_N };
static const struct ordo_param params[P_N] = {
    {"c", 4, 1, 64, "queues per thread"},
    {"numa_k", 1, 1, 1 << 20, "weight of queues on the caller's node (others weigh 1)"},
};

struct local {
	alignas(64) struct numa_pick pick;
};

struct ordo_sched_state {
	uint32_t nq, c;
	uint64_t numa_k;
	const struct ordo_topology *topo;
	struct lqueue *q;
	struct local *l;
};

static int mq_create(const struct ordo_scheduler_config *cfg, struct ordo_sched_state **out,
                     struct ordo_err *err)
{
	struct ordo_sched_state *w = calloc(1, sizeof *w);
	if (!w)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	w->c = (uint32_t)cfg->params[P_C];
	w->nq = w->c * (uint32_t)cfg->topo->nthreads;
	w->numa_k = (uint64_t)cfg->params[P_NUMA];
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

static void mq_thread_init(struct ordo_sched_state *w, struct ordo_tctx *ctx)
{
	if (!numa_pick_init(&w->l[ctx->tid].pick, w->topo, ctx->tid, w->nq, w->c, UINT32_MAX,
	                    w->numa_k))
		ctx->push_oom = true;
}

static void mq_destroy(struct ordo_sched_state *w)
{
	for (int t = 0; t < w->topo->nthreads; t++)
		numa_pick_free(&w->l[t].pick);
	lq_destroy(w->q, w->nq);
	free(w->l);
	free(w);
}

static void mq_push(struct ordo_sched_state *w, struct ordo_tctx *ctx, const struct ordo_task *t,
                    size_t n)
{
	const struct numa_pick *pick = &w->l[ctx->tid].pick;
	for (size_t i = 0; i < n; i++) {
		struct lqueue *q = lq_lock_random(w->q, pick, &ctx->rng);
		bool ok = lq_push_locked(q, &t[i], 1);
		wl_unlock(&q->lock);
		if (!ok) {
			ctx->push_oom = true;
			return;
		}
	}
}

static bool mq_pop(struct ordo_sched_state *w, struct ordo_tctx *ctx, struct ordo_task *out)
{
	const struct numa_pick *pick = &w->l[ctx->tid].pick;
	struct lqueue *q = lq_lock_two_choice(w->q, w->nq, pick, &ctx->rng, 8);
	if (!q)
		q = lq_lock_scan(w->q, w->nq, (uint32_t)ordo_rng_below(&ctx->rng, w->nq));
	if (!q)
		return false;
	lq_pop_locked(q, out, 1);
	wl_unlock(&q->lock);
	return true;
}

/* c queues, each pop the better of two random tops: mean < 2c (the two-choice
 * process keeps the rank error O(c)) */
static double mq_rank_bound(const int64_t *p, const uint64_t *stats, double n, double range)
{
	(void)stats, (void)n, (void)range;
	return 2.0 * (double)p[0];
}

ORDO_SCHEDULER_DEFINE(mq, .name = "mq", .rank_bound = mq_rank_bound,
                      .summary = "classic Multi-Queue: c*T locked 8-ary heaps, two-choice pop",
                      .params = params, .nparams = P_N, .create = mq_create, .destroy = mq_destroy,
                      .thread_init = mq_thread_init, .push = mq_push, .pop = mq_pop,
                      .release = wl_release_none);
