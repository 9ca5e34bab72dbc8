/*
 * ordo_scheduler.h - the contract between the executor and a scheduler.
 *
 * A scheduler is one `const struct ordo_scheduler_ops` (defined at the end of its file with
 * ORDO_SCHEDULER_DEFINE) plus one line in worklists/registry.h. The executor calls:
 *   create      once, before the run, from one thread
 *   thread_init each worker, once, before its first push (may be NULL)
 *   push        a batch of tasks (all children of one task, or a slice of the initial
 *               tasks) from the calling worker; never fails (a scheduler that cannot
 *               allocate sets ctx->push_oom)
 *   pop         one task for the calling worker; may fail spuriously while tasks exist
 *               elsewhere, but a task that only the caller can see (its private buffers)
 *               must come back from the caller's pops eventually, and a task in shared
 *               structures must be found by some worker's pops eventually
 *   flush       (may be NULL) called when the worker's pop failed, before it idles:
 *               publish private buffers if the scheduler wants others to see them
 *   release     (may be NULL) called when the worker gives up its seat and parks (the
 *               executor runs fewer workers than threads: oversubscription, a busy
 *               core, --seats, --coop): make every task only the caller can see
 *               reachable without it, by publishing it in shared structures or by
 *               moving it into the hand-off `out` (ordo_handoff_put / _room, below:
 *               the hand-off grows, so there is no capacity to respect and nothing
 *               may stay behind; tasks moved out are no longer the scheduler's).
 *               One call; when a put fails (out of memory) the hook may stop, and
 *               the run ends with ENOMEM. Nobody pushes into a parked worker's
 *               private buffers. NULL means the scheduler cannot do this: its runs
 *               keep every worker running.
 *   thread_fini each worker after termination (may be NULL)
 *   destroy     once, after the run
 * Memory order: a pop that returns a task must synchronise with (acquire) the push that
 * made it visible (release). The executor's termination detection relies on this.
 */
#ifndef ORDO_SCHEDULER_H
#define ORDO_SCHEDULER_H

#include "ordo_runtime.h"
#include "ordo_util.h"

struct ordo_sched_state; /* a scheduler's own type */

struct ordo_scheduler_config {
	const struct ordo_topology *topo;
	const int64_t *params; /* resolved, in the order of ops->params */
	uint64_t seed;
};

/* A parking worker's hand-off (the release hook's `out`): a growable array of tasks
 * that the executor owns and passes to a running worker. Only the parking worker
 * touches it. */
struct ordo_handoff {
	struct ordo_task *t;
	size_t n, cap;
	bool oom; /* a put or room failed: some task stayed behind, the run ends with ENOMEM */
};

/* Room for n more tasks at the end (write them, then add n to h->n); NULL (and h->oom)
 * when the array cannot grow. */
struct ordo_task *ordo_handoff_room(struct ordo_handoff *h, size_t n);

/* Appends a copy of t[0..n); false (and h->oom) when the array cannot grow. */
static inline bool ordo_handoff_put(struct ordo_handoff *h, const struct ordo_task *t, size_t n)
{
	struct ordo_task *d = ordo_handoff_room(h, n);
	if (!d)
		return false;
	for (size_t i = 0; i < n; i++)
		d[i] = t[i];
	h->n += n;
	return true;
}

struct ordo_scheduler_ops {
	const char *name;
	const char *summary;
	const struct ordo_param *params;
	int nparams;
	const char *stat_names[ORDO_SCHED_STATS]; /* names of ctx->wl_stat[i], NULL if unused */
	/* true for a scheduler whose point is exact priority order (strict): the executor
	 * then holds no popped tasks ahead of the running one, whatever the prefetch
	 * pipeline asks, since held tasks would run after better children pushed later */
	bool exact;
	int (*create)(const struct ordo_scheduler_config *cfg, struct ordo_sched_state **out,
	              struct ordo_err *err);
	void (*destroy)(struct ordo_sched_state *wl);
	void (*thread_init)(struct ordo_sched_state *wl, struct ordo_tctx *ctx);
	void (*thread_fini)(struct ordo_sched_state *wl, struct ordo_tctx *ctx);
	void (*push)(struct ordo_sched_state *wl, struct ordo_tctx *ctx, const struct ordo_task *t,
	             size_t n);
	bool (*pop)(struct ordo_sched_state *wl, struct ordo_tctx *ctx, struct ordo_task *out);
	void (*flush)(struct ordo_sched_state *wl, struct ordo_tctx *ctx);
	void (*release)(struct ordo_sched_state *wl, struct ordo_tctx *ctx,
	                struct ordo_handoff *out);
	/* Its own bound on the mean rank error of one thread (the quality test,
	 * tests/test_scheduler_cases.c: n keys uniform in [0, range) prefilled, then each
	 * pop followed by a push of a fresh uniform key), from its resolved parameters and
	 * its counters after the run. NULL: exact, a bound of 0. A negative bound: none
	 * (unordered by design). */
	double (*rank_bound)(const int64_t *params, const uint64_t *stats, double n, double range);
	/* Its grain, from its resolved parameters: priorities that agree above bit `grain`
	 * are equal to it (it keeps no order among them), 0..64; 64: it ignores priorities.
	 * An operator that queues one task per node (ordo_live.h) pushes again only when a
	 * node's priority moves to another grain. NULL: 0, every priority its own. */
	unsigned (*grain)(const int64_t *params);
	/* Whether its decisions read clocks (real or thread CPU time) under these
	 * parameters; NULL: never. The linearized executor (--sim) runs every worker on one
	 * thread, so such decisions follow that thread's clock, not a worker's, and the
	 * apps say so rather than model something else silently. */
	bool (*reads_clock)(const int64_t *params);
};

#define ORDO_SCHEDULER_DEFINE(id, ...) \
	const struct ordo_scheduler_ops ordo_scheduler_##id = {__VA_ARGS__}

#endif
