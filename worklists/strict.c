/*
 * strict.c - the exact reference scheduler: one 4-ary min-heap under one lock.
 * Every pop returns the smallest task present (no rank error); a push batch takes the
 * lock once. It does not scale and is not meant to: it is the baseline against which
 * the relaxed schedulers' wasted work is read.
 * Parameters: none.
 */
#include "ordo_scheduler.h"
#include "wl_common.h"

struct ordo_sched_state {
	alignas(64) struct wl_lock lock;
	_Atomic size_t size; /* heap.n, readable without the lock */
	struct wl_heap heap;
};

static int strict_create(const struct ordo_scheduler_config *cfg, struct ordo_sched_state **out,
                         struct ordo_err *err)
{
	(void)cfg;
	struct ordo_sched_state *w = ordo_calloc_aligned(1, sizeof *w);
	if (!w || !wl_heap_reserve(&w->heap, 1024)) {
		free(w);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	}
	*out = w;
	return 0;
}

static void strict_destroy(struct ordo_sched_state *w)
{
	wl_heap_free(&w->heap);
	free(w);
}

static void strict_push(struct ordo_sched_state *w, struct ordo_tctx *ctx,
                        const struct ordo_task *t, size_t n)
{
	wl_lock(&w->lock);
	if (!wl_heap_reserve(&w->heap, w->heap.n + n)) {
		ctx->push_oom = true;
	} else {
		for (size_t i = 0; i < n; i++)
			wl_heap_push(&w->heap, &t[i], 4);
		atomic_store_explicit(&w->size, w->heap.n, memory_order_relaxed);
	}
	wl_unlock(&w->lock);
}

static bool strict_pop(struct ordo_sched_state *w, struct ordo_tctx *ctx, struct ordo_task *out)
{
	(void)ctx;
	/* empty check without the lock: a stale answer is a spurious failure, allowed */
	if (atomic_load_explicit(&w->size, memory_order_relaxed) == 0)
		return false;
	wl_lock(&w->lock);
	bool ok = w->heap.n > 0;
	if (ok) {
		wl_heap_pop(&w->heap, out, 4);
		atomic_store_explicit(&w->size, w->heap.n, memory_order_relaxed);
	}
	wl_unlock(&w->lock);
	return ok;
}

ORDO_SCHEDULER_DEFINE(
    strict, .name = "strict",
    .summary = "exact global 4-ary heap under one lock (rank-error-free reference)",
    .create = strict_create, .destroy = strict_destroy, .push = strict_push, .pop = strict_pop,
    .release = wl_release_none, .exact = true);
