/*
 * ordo_runtime.h - tasks, per-thread contexts, topology and the for_each executor.
 *
 * A task is a 16-byte value: lower prio = more urgent; operators encode what they need
 * in data. An operator runs on one task at a time per thread and pushes children through
 * its context (ordo_push); the executor hands each operator's children to the scheduler as
 * one batch after the operator returns. The runtime knows no scheduler: it drives the
 * struct ordo_scheduler_ops table of ordo_scheduler.h.
 */
#ifndef ORDO_RUNTIME_H
#define ORDO_RUNTIME_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ordo_error.h"
#include "ordo_rng.h"

struct ordo_task {
	uint64_t prio;
	uint64_t data;
};

#define ORDO_SCHED_STATS 6 /* scheduler-defined counters per thread (steals, ...) */

/* ---- topology ---- */
enum ordo_bind { ORDO_BIND_NONE = 0, ORDO_BIND_COMPACT, ORDO_BIND_SCATTER };

struct ordo_topology {
	int nthreads;
	int nnodes;         /* NUMA nodes the threads are spread over (>= 1) */
	int *node;          /* node of each thread */
	int *cpu;           /* CPU each thread runs on (when bound) or would run on */
	int *first_of_node; /* smallest thread id on each node (the node's leader) */
	int *threads_on;    /* threads on each node */
	bool fake;          /* nodes come from ORDO_FAKE_NUMA / fake_numa */
	bool libnuma;       /* real topology from libnuma */
	int bind;           /* enum ordo_bind */
};

/* Fills `t` for `nthreads` threads (0 = every CPU of the inherited affinity mask).
 * fake_numa > 0 splits the threads into that many virtual nodes (contiguous blocks);
 * fake_numa == 0 reads ORDO_FAKE_NUMA, then libnuma. bind: enum ordo_bind; binding is
 * refused (EINVAL) when OMP_PROC_BIND is set, so ordo never fights the user's binding. */
int ordo_topology_init(struct ordo_topology *t, int nthreads, int fake_numa, int bind,
                       struct ordo_err *err);
void ordo_topology_free(struct ordo_topology *t);
/* CPUs in this process's affinity mask. */
int ordo_cpus_available(void);

/* ---- per-thread context ---- */
struct ordo_loop; /* executor.c */
struct ordo_tctx {
	/* hot: touched on every task */
	alignas(128) unsigned tid;
	unsigned nthreads;
	int node;
	struct ordo_task *pushbuf;
	uint32_t npush, cappush;
	bool push_oom;
	struct ordo_rng rng;
	void *wl_local; /* the scheduler's per-thread state */
	/* workers running tasks now (seats.h), or NULL when every worker runs all along: a
	 * scheduler may skip work that only serves other running workers while it reads 1
	 * (a relaxed load; it changes only when workers park or come back) */
	const _Atomic int *running;
	/* workers parked now (bit t for worker t), or NULL when every worker runs all along
	 * or there are more than 64: a scheduler choosing a victim may skip parked ones,
	 * whose private queues are empty (they handed everything over) */
	const _Atomic uint64_t *parked_mask;
	/* the run's slot for a task's own parallel loop (ordo_task_loop), NULL outside a
	 * run of ordo_for_each */
	struct ordo_loop *loop;
	/* plain counters, summed after the run */
	uint64_t tasks, empty, pushes, failed_pops;
	uint64_t wl_stat[ORDO_SCHED_STATS];
	/* utilisation (wall and CPU seconds of busy and idle stretches), owner only */
	double busy_wall, busy_cpu, idle_wall, idle_cpu;
	/* termination counters: written by the owner only, read by idle detectors */
	alignas(128) _Atomic uint64_t pub_pushed;
	_Atomic uint64_t pub_done;
	/* 0 while running tasks, else failed pops since the last (the lost-task watchdog,
	 * runtime/watchdog.h); written by the owner only, relaxed */
	_Atomic uint64_t pub_idle;
};

/* Slow path of ordo_push: grows the buffer (never loses a task; on ENOMEM the run is
 * aborted and reports it). */
void ordo_push_grow(struct ordo_tctx *ctx);

/* Operators call this to create a child task. */
static inline void ordo_push(struct ordo_tctx *ctx, uint64_t prio, uint64_t data)
{
	if (__builtin_expect(ctx->npush == ctx->cappush, 0)) {
		ordo_push_grow(ctx);
		if (ctx->push_oom)
			return;
	}
	ctx->pushbuf[ctx->npush].prio = prio;
	ctx->pushbuf[ctx->npush].data = data;
	ctx->npush++;
}

/* Scheduler counters (ctx->wl_stat) go through this, so that a build with
 * ORDO_COUNT_WORK=OFF pays nothing for them (its reports say "work_counters":"off"). */
#ifdef ORDO_COUNT_WORK
#define ORDO_STAT(ctx, i, v) ((ctx)->wl_stat[i] += (v))
#else
#define ORDO_STAT(ctx, i, v) ((void)(ctx), (void)(v))
#endif

/* A task's own parallel loop (fork and join inside one task): runs fn(arg, i, tid)
 * once for every i in [0, n) and returns when all have run. The calling worker runs
 * them, and so does any seated worker of the same run that finds no task meanwhile:
 * idle workers look for an open loop after each failed pop (a sleeping one is rung),
 * so a task that holds the run's one long piece of work - MST's scan of its giant
 * component - gets the cores that would otherwise wait for it. `tid` is the running
 * worker's (ctx->tid of the caller, or of the helper), for per-thread slots.
 * fn must not push tasks, and may run while the caller holds locks, so it must not
 * wait for other tasks or take locks a task may hold. Writes made by fn are visible to
 * the caller when this returns. One loop is open per run at a time: a task calling
 * this while another task's loop is open runs its own loop alone, and so does a
 * caller outside a run (ctx NULL or ctx->loop NULL). n == 0 returns at once. */
typedef void (*ordo_loop_fn)(void *arg, uint32_t i, unsigned tid);
void ordo_task_loop(struct ordo_tctx *ctx, ordo_loop_fn fn, void *arg, uint32_t n);
/* For a task that waits for another task (a lock it holds): runs items of the run's
 * open loop, if one is open, until none is left to take; true when it joined one. The
 * waiting task may hold locks meanwhile: items take none. */
bool ordo_task_loop_help(struct ordo_tctx *ctx);

/* ---- executor ---- */
struct ordo_scheduler_ops;
struct ordo_sched_state;
struct ordo_coop;

/* Returns true when the task did useful work, false when it was stale ("empty"). */
typedef bool (*ordo_operator)(struct ordo_tctx *ctx, const struct ordo_task *t, void *user);

/* The batch form of an operator (ordo_exec_opts.run_batch): runs the k tasks t[0..k-1]
 * in that order, each exactly as the operator would, and returns how many did useful
 * work. A batch lets an operator keep its own prefetch pipeline inside one loop, where
 * the per-task form pays an indirect call per task and per stage: `spacing` is the
 * tasks between two of its stages, as the executor would space the prefetch hook's
 * (prefetch_stages over lookahead), or 0 when the run has no pipeline. */
typedef uint64_t (*ordo_batch_operator)(struct ordo_tctx *ctx, const struct ordo_task *t,
                                        unsigned k, unsigned spacing, void *user);

#define ORDO_MAX_LOOKAHEAD 15
#define ORDO_LOOKAHEAD_OFF (~0u) /* lookahead: no pipeline even with a prefetch hook */
/* Tasks a worker pops at a time for a batch operator: at most, and by default (one
 * OBIM chunk; bench/LOG.md, "Tasks run in batches") */
#define ORDO_MAX_BATCH     64
#define ORDO_BATCH_DEFAULT 64

/* The linearized executor (runtime/sim.c): one OS thread runs topo->nthreads virtual
 * workers, one atomic operation (a pop; or a task's run and its children's push) at a
 * time, the worker of each step drawn at random: uniformly by default; with gamma > 0
 * from fixed weights 1 / (1 + gamma u), u uniform in [-1, 1] (the SMQ paper's
 * gamma-bounded unfairness); workers 0..slow-1 at f times the others' weight; with
 * cores > 0 only `cores` workers run at a time, a window that moves on every `slice`
 * steps (oversubscription). Deterministic for a seed. */
struct ordo_sim {
	double gamma;
	int slow;
	double f;
	int cores;
	uint32_t slice; /* 0: 1000 */
};
#define ORDO_SIM_MAX 4096 /* virtual workers */

/* Parses a --sim spec, "P[:key=value,...]" with the keys gamma, slow, f (default 0.1),
 * cores and slice, into *workers and *sim; EINVAL naming what is wrong. */
int ordo_sim_parse(const char *spec, int *workers, struct ordo_sim *sim, struct ordo_err *err);
/* The spec back as text (canonical: the keys that apply), snprintf's result. */
int ordo_sim_describe(const struct ordo_sim *sim, int workers, char *buf, size_t size);

/* What a simulated run measured (ordo_run_stats.sim; workers 0 when the run was
 * real). rank: queued tasks with a smaller priority than the popped one, over every
 * pop (ranked false when a priority exceeded 2^24, the shadow queue's range). delay: a
 * popped task's count of pops of larger priorities while it was queued, tasks told
 * apart by (prio, data), identical ones first in first out (delayed false when ranked
 * is, or the table of queued tasks ran out of memory). delay_sum equals rank_sum over
 * a whole run. unmatched: pops of a task never pushed (0 for a correct scheduler). */
struct ordo_sim_stats {
	int workers;
	bool ranked, delayed;
	uint64_t steps, pops, rank_sum, rank_max, delay_sum, delay_max, unmatched;
	uint64_t rank_hist[65];  /* pops of rank 0, 1, 2-3, 4-7, ..., [2^63, 2^64) */
	uint64_t delay_hist[65]; /* likewise, of delays */
	uint64_t worker_steps[64], worker_tasks[64]; /* workers 0..63 */
};

struct ordo_exec_opts {
	const struct ordo_topology *topo; /* threads = topo->nthreads */
	uint64_t seed;                    /* per-thread RNGs: (seed, thread id) */
	/* Optional software pipeline: with prefetch set, each worker holds up to
	 * `lookahead` (1..ORDO_MAX_LOOKAHEAD) popped tasks behind the one it runs, and
	 * before each step calls prefetch(t, ahead, user) for every held task, where
	 * `ahead` (1..lookahead) is the number of tasks that run before t. A task that
	 * stays held through a full pipeline is seen once with each value, from
	 * `lookahead` down to 1, so the hook can issue dependent prefetches in stages
	 * (the larger `ahead`, the earlier the data it may already rely on). A held task
	 * is pending like a queued one; holding delays it by at most `lookahead` tasks.
	 * With prefetch_stages = S > 0 (the hook acts on ahead = 1..S and treats larger
	 * values as its first stage) the executor spaces the stages evenly over the
	 * pipeline: with d = lookahead / S (at least 1) it calls the hook only for the
	 * tasks d, 2d, 3d, ... positions ahead, with ahead = position / d, so each stage's
	 * lines have d tasks' runs to arrive before the next stage relies on them (one
	 * step was shorter than a miss: road2k BFS and SSSP took 11-15% less time with
	 * lookahead 9 and 3 stages than with 4 and every step; bench/LOG.md). The
	 * values a task is shown still count down by one, from lookahead / d. */
	void (*prefetch)(const struct ordo_task *t, unsigned ahead, void *user);
	unsigned lookahead;       /* 0: the algorithm's default; ORDO_LOOKAHEAD_OFF: none */
	unsigned prefetch_stages; /* 0: the hook sees every held task at every step */
	/* Optional batch form of `op` (ordo_batch_operator): a worker pops up to `batch`
	 * tasks (1..ORDO_MAX_BATCH; 0: ORDO_BATCH_DEFAULT), stopping early at the first
	 * failed pop, hands them to run_batch in the order popped, then gives all their
	 * children to the scheduler as one push. The held tasks are pending, as in the
	 * pipeline above (which a batch run does not use: the operator pipelines within the
	 * batch); a task waits for at most batch - 1 others of its batch. `op` is still
	 * needed: exact schedulers (one task at a time) and the linearized executor run it. */
	ordo_batch_operator run_batch;
	unsigned batch;
	/* Optional: when *cancel becomes true (a signal handler, another thread) the run
	 * stops at the next task or round boundary, its tasks dropped, and fails with
	 * ORDO_ECANCELED; the answer is then incomplete. NULL: never (no cost). */
	const volatile _Atomic bool *cancel;
	/* Workers that run tasks at once (runtime/seats.h): ORDO_SEATS_AUTO (0, the
	 * default: at most the CPUs of the affinity mask), ORDO_SEATS_ADAPT (the same, and
	 * fewer while other work takes cores), ORDO_SEATS_ALL (every thread, as an OS would
	 * run them), or a fixed N >= 1.
	 * The other workers park: they hand every task they hold to a running worker and
	 * sleep until a seat is free. Needs the scheduler's release hook; without one every
	 * worker runs. */
	int seats;
	/* A machine-wide budget of cores shared by cooperating processes (ordo_coop_open);
	 * a seat then also needs one of its tokens. NULL: none. */
	struct ordo_coop *coop;
	/* Tests: a running worker gives its seat up at a check point (every 64 tasks, and
	 * when idle) with probability 1/seat_shuffle, so workers park and come back at
	 * arbitrary points of the run. 0: never. */
	unsigned seat_shuffle;
	/* The linearized executor instead of threads (struct ordo_sim), or NULL. */
	const struct ordo_sim *sim;
};

enum { ORDO_SEATS_AUTO = 0, ORDO_SEATS_ALL = -1, ORDO_SEATS_ADAPT = -2 };

struct ordo_run_stats {
	double seconds; /* the parallel loop, from the first pop to termination */
	uint64_t tasks, empty, pushes, failed_pops;
	uint64_t wl_stat[ORDO_SCHED_STATS];
	uint64_t tasks_min, tasks_median, tasks_max; /* per thread */
	int threads;
	unsigned lookahead; /* tasks each worker held (0: no pipeline) */
	unsigned batch;     /* tasks popped at a time for the batch operator (0: the task form) */
	/* seats (runtime/seats.h): the limit at the start and at the end (equal to threads
	 * when nobody parks), times a worker gave its seat up, tasks handed over by parking
	 * workers */
	int seats_start, seats_end;
	uint64_t parks, handed_over;
	/* idle workers: CPU seconds they used (looking for work, backing off; all workers
	 * together) and times one slept on the idle bell (seats.h) */
	double idle_cpu_s;
	uint64_t idle_sleeps;
	/* tasks' own loops (ordo_task_loop) opened to the run's workers, and their items
	 * that workers other than the opener ran */
	uint64_t task_loops, loop_items_helped;
	/* Per worker (the first ORDO_STATS_THREADS), in seconds of the loop: busy (between
	 * a successful pop after an idle stretch and the next idle stretch, an idle stretch
	 * being two failed pops or more), idle (looking for work, backing off), and
	 * descheduled: busy wall time the thread was not on a CPU (preempted, or waiting
	 * for a page), from CLOCK_THREAD_CPUTIME_ID. A stalled owner of queued work shows
	 * as descheduled time. */
#define ORDO_STATS_THREADS 64
	float thread_busy_s[ORDO_STATS_THREADS], thread_idle_s[ORDO_STATS_THREADS],
	    thread_descheduled_s[ORDO_STATS_THREADS];
	struct ordo_sim_stats sim; /* a simulated run's (ordo_exec_opts.sim) */
};

/* Runs `op` over `initial` (n tasks, spread over the threads: thread t seeds slice t)
 * and everything they push, until no task exists anywhere. Errors: ENOMEM (a context,
 * a push buffer or the scheduler's state could not grow), EINVAL (OpenMP gave fewer
 * threads than asked), ECANCELED (o->cancel was raised; the answer is incomplete),
 * ESCHEDULER (the scheduler broke its contract: a task given out twice, or tasks lost:
 * every worker idle for a second with tasks pending, runtime/watchdog.h; the message
 * counts them). */
int ordo_for_each(const struct ordo_exec_opts *o, const struct ordo_scheduler_ops *ops,
                  struct ordo_sched_state *wl, const struct ordo_task *initial, uint64_t n,
                  ordo_operator op, void *user, struct ordo_run_stats *stats, struct ordo_err *err);

/* Spin-then-yield-then-sleep backoff for idle loops; round starts at 0. */
void ordo_backoff(unsigned round);

static inline void ordo_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

#endif
