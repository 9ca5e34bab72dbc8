/*
 * run.c - ordo_for_each's frame (ordo_runtime.h): the workers' contexts (on their NUMA
 * nodes), one OpenMP parallel region in which every worker seeds its slice of the
 * initial tasks and then runs executor.c's loop, and the run's verdict and statistics.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#ifdef ORDO_HAVE_NUMA
#include <numa.h>
#endif

#include "ordo_coop.h"
#include "ordo_util.h"
#include "run.h"

void ordo_push_grow(struct ordo_tctx *ctx)
{
	uint32_t cap = ctx->cappush ? ctx->cappush * 2 : 256;
	struct ordo_task *p = realloc(ctx->pushbuf, (size_t)cap * sizeof *p);
	if (!p) {
		ctx->push_oom = true;
		return;
	}
	ctx->pushbuf = p;
	ctx->cappush = cap;
}

static struct ordo_tctx *ctx_alloc(const struct ordo_topology *topo, int t)
{
	struct ordo_tctx *c = NULL;
#ifdef ORDO_HAVE_NUMA
	if (topo->libnuma && !topo->fake && topo->nnodes > 1) {
		c = numa_alloc_onnode(sizeof *c, topo->node[t]);
		if (c)
			memset(c, 0, sizeof *c);
		return c;
	}
#endif
	(void)topo;
	(void)t;
	return ordo_calloc_aligned(1, sizeof *c);
}

static void ctx_free(const struct ordo_topology *topo, struct ordo_tctx *c)
{
	if (!c)
		return;
	free(c->pushbuf);
#ifdef ORDO_HAVE_NUMA
	if (topo->libnuma && !topo->fake && topo->nnodes > 1) {
		numa_free(c, sizeof *c);
		return;
	}
#endif
	(void)topo;
	free(c);
}

/* Thread t's context (NULL when out of memory), bound to its CPU when asked. */
static struct ordo_tctx *thread_start(const struct ordo_exec_opts *o, int t)
{
	const struct ordo_topology *topo = o->topo;
	if (topo->bind != ORDO_BIND_NONE) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(topo->cpu[t], &set);
		sched_setaffinity(0, sizeof set, &set);
	}
	struct ordo_tctx *c = ctx_alloc(topo, t);
	if (c) {
		c->tid = (unsigned)t;
		c->nthreads = (unsigned)topo->nthreads;
		c->node = topo->node[t];
		ordo_rng_seed(&c->rng, o->seed, (uint64_t)t);
		ordo_push_grow(c);
	}
	return c;
}

/* The run's statistics from the workers' contexts. */
static void collect_stats(const struct run *r, double seconds, struct ordo_run_stats *stats)
{
	const int T = r->T;
	memset(stats, 0, sizeof *stats);
	stats->threads = T;
	stats->batch = batch_size(r->o, r->ops);
	stats->lookahead = pipeline_depth(r->o, r->ops);
	stats->seconds = seconds;
	stats->seats_start = r->seats.max;
	/* after the join: the region's end orders every worker's stores before these */
	stats->seats_end = atomic_load_explicit(&r->seats.limit, memory_order_relaxed);
	stats->parks = atomic_load_explicit(&r->seats.parks, memory_order_relaxed);
	stats->handed_over = atomic_load_explicit(&r->handed_over, memory_order_relaxed);
	stats->idle_sleeps = atomic_load_explicit(&r->seats.idle_sleeps, memory_order_relaxed);
	stats->task_loops = atomic_load_explicit(&r->loop.opened, memory_order_relaxed);
	stats->loop_items_helped = atomic_load_explicit(&r->loop.helped, memory_order_relaxed);
	uint64_t *per = malloc((size_t)T * sizeof *per);
	for (int t = 0; t < T; t++) {
		const struct ordo_tctx *c = r->ctx[t];
		stats->tasks += c->tasks;
		stats->empty += c->empty;
		stats->pushes += c->pushes;
		stats->failed_pops += c->failed_pops;
		for (int k = 0; k < ORDO_SCHED_STATS; k++)
			stats->wl_stat[k] += c->wl_stat[k];
		if (per)
			per[t] = c->tasks;
	}
	if (per)
		ordo_spread(per, (size_t)T, &stats->tasks_min, &stats->tasks_median,
		            &stats->tasks_max);
	free(per);
	for (int t = 0; t < T && t < ORDO_STATS_THREADS; t++) {
		const struct ordo_tctx *c = r->ctx[t];
		const double off = c->busy_wall - c->busy_cpu;
		stats->thread_busy_s[t] = (float)c->busy_wall;
		stats->thread_idle_s[t] = (float)c->idle_wall;
		stats->thread_descheduled_s[t] = (float)(off > 0 ? off : 0);
	}
	for (int t = 0; t < T; t++)
		stats->idle_cpu_s += r->ctx[t]->idle_cpu;
}

/* The run's outcome, after the join: the first error that applies, in order of cause
 * (no threads, no memory, a stop, a scheduler's broken contract, a context missing). */
static int verdict(const struct run *r, int got, bool oom, struct ordo_err *err)
{
	int rc = 0;
	if (got != r->T)
		rc = ordo_err_set(err, ORDO_EINVAL, "asked for %d threads, OpenMP gave %d", r->T,
		                  got);
	else if (oom)
		rc = ordo_err_set(err, ORDO_ENOMEM, "out of memory during the run");
	else if (atomic_load_explicit(&r->canceled, memory_order_relaxed)) /* after the join */
		rc = ordo_err_set(err, ORDO_ECANCELED, "interrupted: the run was stopped");
	else if (atomic_load_explicit(&r->duplicated, memory_order_relaxed))
		rc = ordo_err_set(err, ORDO_ESCHEDULER,
		                  "scheduler %s broke its contract: more tasks finished than were "
		                  "pushed (a task was given out twice)",
		                  r->ops->name);
	else if (atomic_load_explicit(&r->lost, memory_order_relaxed))
		rc = ordo_err_set(err, ORDO_ESCHEDULER, "scheduler %s lost tasks: %s", r->ops->name,
		                  r->watch.what);
	for (int t = 0; !rc && t < r->T; t++)
		if (!r->ctx[t])
			rc = ordo_err_set(err, ORDO_ENOMEM, "out of memory for thread contexts");
	return rc;
}

/* ordo_for_each under the linearized executor (sim.c): the same contexts, made and
 * initialised in order on the calling thread. */
static int sim_for_each(const struct ordo_exec_opts *o, const struct ordo_scheduler_ops *ops,
                        struct ordo_sched_state *wl, const struct ordo_task *initial, uint64_t n,
                        ordo_operator op, void *user, struct ordo_run_stats *stats,
                        struct ordo_err *err)
{
	const int T = o->topo->nthreads;
	struct ordo_exec_opts so = *o;
	struct ordo_topology topo = *o->topo;
	topo.bind = ORDO_BIND_NONE; /* one OS thread: nothing to bind */
	so.topo = &topo;
	struct run r = {.o = &so, .ops = ops, .wl = wl, .op = op, .user = user, .T = T};
	r.ctx = calloc((size_t)T, sizeof *r.ctx);
	bool ok = r.ctx != NULL;
	for (int t = 0; ok && t < T; t++)
		ok = (r.ctx[t] = thread_start(&so, t)) != NULL && !r.ctx[t]->push_oom;
	for (int t = 0; ok && ops->thread_init && t < T; t++) {
		ops->thread_init(wl, r.ctx[t]);
		ok = !r.ctx[t]->push_oom;
	}
	struct ordo_sim_stats sim;
	int rc = ok ? 0 : ordo_err_set(err, ORDO_ENOMEM, "out of memory for %d workers", T);
	const double t0 = ordo_now();
	if (!rc)
		rc = sim_run(&r, initial, n, &sim, err);
	const double seconds = ordo_now() - t0;
	for (int t = 0; ok && ops->thread_fini && t < T; t++)
		ops->thread_fini(wl, r.ctx[t]);
	if (!rc && stats) {
		collect_stats(&r, seconds, stats);
		stats->seats_start = stats->seats_end = T;
		stats->sim = sim;
	}
	for (int t = 0; r.ctx && t < T; t++)
		ctx_free(&topo, r.ctx[t]);
	free(r.ctx);
	return rc;
}

/* Thread t pushes its slice of the initial tasks, in blocks of 4096. */
static void seed_slice(const struct ordo_scheduler_ops *ops, struct ordo_sched_state *wl,
                       struct ordo_tctx *c, const struct ordo_task *initial, uint64_t n, int t,
                       int T)
{
	uint64_t lo = n * (uint64_t)t / (uint64_t)T, hi = n * (uint64_t)(t + 1) / (uint64_t)T;
	atomic_store_explicit(&c->pub_pushed, hi - lo, memory_order_relaxed);
	c->pushes = hi - lo;
	for (uint64_t b = lo; b < hi; b += 4096)
		ops->push(wl, c, initial + b, (size_t)(hi - b < 4096 ? hi - b : 4096));
}

int ordo_for_each(const struct ordo_exec_opts *o, const struct ordo_scheduler_ops *ops,
                  struct ordo_sched_state *wl, const struct ordo_task *initial, uint64_t n,
                  ordo_operator op, void *user, struct ordo_run_stats *stats, struct ordo_err *err)
{
	if (o->sim)
		return sim_for_each(o, ops, wl, initial, n, op, user, stats, err);
	const struct ordo_topology *topo = o->topo;
	const int T = topo->nthreads;
	const int cpus = ordo_cpus_available();
	struct run r = {.o = o,
	                .ops = ops,
	                .wl = wl,
	                .op = op,
	                .user = user,
	                .ctx = calloc((size_t)T, sizeof *r.ctx),
	                .T = T,
	                .oversubscribed = T > cpus};
	if (!r.ctx)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	if (!watchdog_init(&r.watch, T)) {
		free(r.ctx);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	}
	seats_init(&r.seats, o, ops->release != NULL, T, cpus);
	r.loop.seats = &r.seats;
	struct ordo_tctx **ctx = r.ctx;
	int got_threads = 0;
	bool oom = false;
	double t_start = 0, t_end = 0;
	/* A bound run pins each of its threads to its CPU (thread_start), the caller's too:
	 * it is OpenMP's thread 0. Its mask is put back after the run, or the caller's next
	 * run would count one CPU available: `--bind compact` ran every trial after the
	 * first on one seat, the other worker parked, and called the run oversubscribed. */
	cpu_set_t caller_mask;
	const bool restore =
	    topo->bind != ORDO_BIND_NONE && !sched_getaffinity(0, sizeof caller_mask, &caller_mask);
	omp_set_dynamic(0);
#pragma omp parallel num_threads(T) reduction(|| : oom)
	{
		const int t = omp_get_thread_num();
#pragma omp single
		got_threads = omp_get_num_threads();
		if (got_threads == T)
			ctx[t] = thread_start(o, t);
#pragma omp barrier
		/* Every thread reads every context's flag before any thread_init may set its
		 * own (a data race otherwise, found by TSan over test_scheduler_cases). A scheduler
		 * whose thread_init could not allocate sets push_oom: then no thread may push
		 * into its half-built state, and the run ends with ENOMEM. */
		bool ok = got_threads == T;
		for (int i = 0; ok && i < T; i++)
			ok = ctx[i] != NULL && !ctx[i]->push_oom;
#pragma omp barrier
		if (ok && ops->thread_init)
			ops->thread_init(wl, ctx[t]);
#pragma omp barrier
		for (int i = 0; ok && i < T; i++)
			ok = !ctx[i]->push_oom;
		if (!ok && got_threads == T)
			oom = true; /* a context or its push buffer or the scheduler's state */
		struct ordo_tctx *c = ok ? ctx[t] : NULL;
		if (c)
			c->loop = &r.loop;
		if (c && r.seats.parking) {
			c->running = &r.seats.held;
			c->parked_mask = T <= 64 ? &r.parked_mask : NULL;
		}
		if (c)
			seed_slice(ops, wl, c, initial, n, t, T);
#pragma omp barrier
#pragma omp single
		t_start = ordo_now();
		if (c) {
			run_worker(&r, c);
			oom = c->push_oom;
		}
#pragma omp barrier
#pragma omp single
		t_end = ordo_now();
		if (ok && ops->thread_fini)
			ops->thread_fini(wl, ctx[t]);
	}
	if (restore)
		sched_setaffinity(0, sizeof caller_mask, &caller_mask);
	int rc = verdict(&r, got_threads, oom, err);
	if (!rc && stats)
		collect_stats(&r, t_end - t_start, stats);
	for (int t = 0; t < T; t++)
		ctx_free(topo, ctx[t]);
	free(ctx);
	/* the workers seated at the end give their tokens back */
	if (r.seats.coop)
		for (int h = atomic_load_explicit(&r.seats.held, memory_order_relaxed); h > 0; h--)
			ordo_coop_release(r.seats.coop);
	seats_fini(&r.seats);
	watchdog_fini(&r.watch);
	return rc;
}
