/*
 * run.h - what the executor's files share about one run (internal to the runtime):
 * executor.c (the workers' loop, against the termination argument at its top), loop.c
 * (a task's own parallel loop) and parking.c (seats given up, tasks handed over,
 * parked workers). Each of them includes this header and none includes another's
 * code: executor.c calls into loop.c and parking.c, they call back only into the
 * inline functions here (the run's end, a stop, the termination scan).
 */
#ifndef ORDO_RUN_H
#define ORDO_RUN_H

#include <limits.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "ordo_runtime.h"
#include "ordo_scheduler.h"
#include "ordo_util.h"
#include "perturb.h"
#include "seats.h"
#include "watchdog.h"

/* The slot of a task's own loop (ordo_task_loop; its argument is at the top of
 * loop.c). */
#define LOOP_OPEN   1ull
#define LOOP_HELPER 2ull /* one joined helper in `state` */
struct ordo_loop {
	_Atomic uint64_t state;
	_Atomic bool taken;
	_Atomic uint32_t next;
	ordo_loop_fn fn;
	void *arg;
	uint32_t n;
	struct seats *seats;             /* idle sleepers are rung when a loop opens */
	_Atomic uint64_t opened, helped; /* statistics */
};

/* True while a task's loop is open (for idle workers: worth a join). */
static inline bool loop_open(struct ordo_loop *l)
{
	return atomic_load_explicit(&l->state, memory_order_relaxed) & LOOP_OPEN;
}

/* loop.c: an idle worker's look at the run's loop: joins it when open; true when it
 * did. */
bool loop_help(struct ordo_loop *l, unsigned tid);

/* What the workers of one run share. */
struct run {
	const struct ordo_exec_opts *o;
	const struct ordo_scheduler_ops *ops;
	struct ordo_sched_state *wl;
	ordo_operator op;
	void *user;
	struct ordo_tctx **ctx;
	int T;
	bool oversubscribed;
	_Atomic bool finished, canceled, duplicated;
	struct seats seats;
	_Atomic uint64_t handed_over;
	_Atomic uint64_t parked_mask; /* bit t: worker t is parked (T <= 64) */
	struct ordo_loop loop;
	struct watchdog watch; /* lost tasks end the run (watchdog.h) */
	_Atomic bool lost;
};

/* The run is over (terminated, canceled or out of memory): parked workers wake. */
static inline void run_end(struct run *r)
{
	/* seq_cst: the store half of a store-load pair with each sleeper, which counts
	 * itself and then reads the bell and `finished` (park, seats_idle_sleep); the ring
	 * after it bumps the bell and reads the count. One side sees the other, so no
	 * sleeper waits past the end */
	atomic_store_explicit(&r->finished, true, memory_order_seq_cst);
	seats_idle_ring(&r->seats, INT_MAX);
	if (r->seats.parking)
		seats_wake_all(&r->seats);
}

/* A caller's stop (ordo_exec_opts.cancel), looked at: true when asked, the run then
 * ended as canceled. */
static inline bool stop_asked(struct run *r)
{
	const volatile _Atomic bool *cancel = r->o->cancel;
	if (!cancel || !atomic_load_explicit(cancel, memory_order_relaxed))
		return false;
	atomic_store_explicit(&r->canceled, true, memory_order_relaxed); /* read after the join */
	run_end(r);
	return true;
}

/* The termination scan (the argument at the top of executor.c): true when every task pushed is
 * done. By the argument above a scan never sees more tasks done than pushed; when it
 * does, a scheduler gave some task out twice (its hooks broke their contract), the sums
 * can never meet again, and the run ends with `duplicated` set (an error, not a hang). */
static inline bool all_done(struct ordo_tctx **ctx, int T, _Atomic bool *duplicated)
{
	uint64_t done = 0, pushed = 0;
	for (int t = 0; t < T; t++)
		done += atomic_load_explicit(&ctx[t]->pub_done, memory_order_acquire);
	ORDO_PERTURB_POINT(TERM_SCAN);
	for (int t = 0; t < T; t++)
		pushed += atomic_load_explicit(&ctx[t]->pub_pushed, memory_order_acquire);
	if (__builtin_expect(done > pushed, 0))
		atomic_store_explicit(duplicated, true,
		                      memory_order_relaxed); /* read after the join */
	return done >= pushed;
}

/* Tasks a worker holds behind the one it runs. */
static inline unsigned pipeline_depth(const struct ordo_exec_opts *o,
                                      const struct ordo_scheduler_ops *ops)
{
	if (!o->prefetch || o->lookahead == ORDO_LOOKAHEAD_OFF || ops->exact)
		return 0;
	return o->lookahead > ORDO_MAX_LOOKAHEAD ? ORDO_MAX_LOOKAHEAD : o->lookahead;
}

/* Positions between two calls of the hook for one task (see prefetch_stages). */
static inline unsigned stage_spacing(const struct ordo_exec_opts *o, unsigned depth)
{
	const unsigned d = o->prefetch_stages ? depth / o->prefetch_stages : 1;
	return d ? d : 1;
}

/* Utilisation: a worker's clocks, read only where a stretch of running tasks turns
 * idle or back (its wall and CPU time at the last turn); run.c sums them into the
 * run's statistics. */
struct stretch_clock {
	double w, cpu;
	bool idling; /* in an idle stretch */
};

static inline void mark_stretch(struct ordo_tctx *c, struct stretch_clock *m, bool was_idle)
{
	const double w = ordo_now(), cpu = ordo_thread_cpu();
	if (was_idle) {
		c->idle_wall += w - m->w;
		c->idle_cpu += cpu - m->cpu;
	} else {
		c->busy_wall += w - m->w;
		c->busy_cpu += cpu - m->cpu;
	}
	m->w = w, m->cpu = cpu;
}

/* An idle stretch begins (its busy time is counted), or a busy one does. */
static inline void to_idle(struct ordo_tctx *c, struct stretch_clock *m)
{
	if (!m->idling)
		mark_stretch(c, m, false);
	m->idling = true;
}

static inline void to_busy(struct ordo_tctx *c, struct stretch_clock *m)
{
	if (m->idling)
		mark_stretch(c, m, true);
	m->idling = false;
}

/* Tasks a worker pops at a time for the batch operator (0: none, the task form, which
 * exact schedulers and the linearized executor run). */
static inline unsigned batch_size(const struct ordo_exec_opts *o,
                                  const struct ordo_scheduler_ops *ops)
{
	if (!o->run_batch || ops->exact || o->sim)
		return 0;
	return !o->batch                   ? ORDO_BATCH_DEFAULT
	       : o->batch > ORDO_MAX_BATCH ? ORDO_MAX_BATCH
	                                   : o->batch;
}

/* executor.c: one worker's run (its loop, against the termination argument there). */
void run_worker(struct run *r, struct ordo_tctx *c);

/* parking.c: the seat's three moments in a worker's loop. */
/* Takes everything parking workers handed over into this worker's scheduler state. */
void parking_adopt(struct run *r, struct ordo_tctx *c);
/* Hands this worker's private tasks over and waits for a seat (true) or the run's end
 * (false). */
bool parking_park(struct run *r, struct ordo_tctx *c);
/* A seated worker's check point: true when it gave its seat up. */
bool parking_must_leave(struct run *r, struct ordo_tctx *c);
/* The same at the executor's check point (every 64 tasks run), where --seats adapt also
 * looks at how much of the last stretch of running tasks was on a CPU, when `observe`
 * (every 4th check point) and the stretch is 10 ms or more (m: the worker's clocks). */
bool parking_check_point(struct run *r, struct ordo_tctx *c, bool observe, struct stretch_clock *m);

/* sim.c: the linearized executor over the run's contexts, made and initialised by
 * run.c (r->o->sim says how workers are drawn). */
int sim_run(const struct run *r, const struct ordo_task *initial, uint64_t n,
            struct ordo_sim_stats *st, struct ordo_err *err);

#endif
