/*
 * executor.c - ordo_for_each: workers in one OpenMP parallel region pop tasks, run the
 * operator, and hand each operator's children to the scheduler as one batch. With a
 * prefetch hook a worker is a small software pipeline: it holds up to `lookahead`
 * popped tasks behind the one it runs, and before each step tells every held task how
 * many tasks run before it, so an operator can fetch a task's data in dependent stages
 * (SSSP: the node's distance and offsets, then its arcs, then its neighbours'
 * distances), each stage one task's run time ahead of its use. Held tasks are pending
 * - pushed, not done - like any other, so termination detection is unchanged.
 *
 * With a batch form of the operator (ordo_exec_opts.run_batch) a worker pops up to
 * `batch` tasks instead, runs them with one call, and finishes them together: their
 * children pushed with pushed[] published first, then done[] raised by the batch's size.
 * Popped tasks are pending until then, as held ones are.
 *
 * Termination detection (exact for every scheduler, including relaxed ones whose pop
 * fails spuriously and ones that keep tasks in private buffers):
 *
 *   Each worker t owns two monotone counters, published with atomic stores:
 *     pushed[t]  tasks t has pushed (initial slice and children), stored BEFORE the
 *                push that makes them visible (relaxed: the scheduler's push is a
 *                release operation, which orders this store before the task is seen);
 *     done[t]    tasks t has finished, stored with release AFTER the operator returned
 *                and its children were pushed (so after their pushed[t] stores).
 *   An idle worker scans: first it reads every done[] (acquire), then every pushed[]
 *   (acquire), and declares termination when the two sums are equal.
 *
 *   Why that is exact. Call D the tasks whose completion the first pass saw, P those
 *   whose push the second pass saw. (1) D is a subset of P: a task in D was popped by
 *   the worker that finished it, and that pop acquired the push, which came after the
 *   pusher's pushed[] store; reading done[] with acquire makes that store visible to
 *   the later read of pushed[] (happens-before is transitive). (2) The children of a
 *   task in D are in P: their pushed[] stores precede the done[] store that the first
 *   pass saw. (3) Initial tasks are in P: they are pushed before the barrier that
 *   precedes any scan. If sum(done) == sum(pushed) then D == P, so by induction over the
 *   task tree (roots in P = D, children of D in P = D) every task that will ever exist
 *   is already finished: no task is in any queue, buffer or operator. Conversely, while
 *   a task is pending its push is counted and its completion is not, so the sums differ
 *   and nobody stops early. The counters are never written by two threads, and the
 *   scan needs no fence stronger than acquire.
 *
 *   Workers whose pop fails call the scheduler's flush hook, back off (spin, then
 *   sched_yield, then sleep with growing pauses, so oversubscribed runs do not starve
 *   the workers that hold tasks), and scan; the worker that sees equal sums raises a
 *   shared flag that the others read while idle.
 *
 *   Seats (seats.h) and tasks handed over by parking workers keep the argument whole:
 *   parking.c says why. Idle seated workers sleep on the idle bell (seats.h), always
 *   with a timeout of at most 1 ms: a missed ring delays a sleeper, never the run's
 *   end, which any worker's scan still sees and which rings for them all.
 *
 *   The parallel region, the contexts and the run's verdict are run.c's; this file is
 *   the worker's loop (worker(), below, and its steps).
 */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <omp.h>

#ifdef ORDO_HAVE_NUMA
#include <numa.h>
#endif

#include "ordo_coop.h"
#include "ordo_runtime.h"
#include "ordo_scheduler.h"
#include "ordo_util.h"
#include "perturb.h"
#include "run.h"
#include "seats.h"
#include "watchdog.h"

/* ordo_backoff's round of its longest pause (64 us): an idle worker that reaches it
 * sleeps on the idle bell instead (seats.h) */
#define IDLE_SLEEP_ROUND 30

/* The termination counters' publications (the protocol at the top of this file). Each
 * store has a perturbation point right before it, so that in a perturbed build every
 * window that ends at a publication holds a point, wherever a change moves the store
 * (a count published after its push instead of before: the children may run, and
 * finish, inside that window). */
static inline void publish_pushed(struct ordo_tctx *c, uint64_t pushed)
{
	ORDO_PERTURB_POINT(COUNT_PUBLISH);
	/* relaxed: the scheduler's push that follows is a release operation */
	atomic_store_explicit(&c->pub_pushed, pushed, memory_order_relaxed);
}

static inline void publish_done(struct ordo_tctx *c, uint64_t done)
{
	ORDO_PERTURB_POINT(DONE_PUBLISH);
	/* release: orders the children's pushed[] store and push before it (the scan's
	 * step (2)) */
	atomic_store_explicit(&c->pub_done, done, memory_order_release);
}

/* A worker's own state through its loop. Every helper below is inlined into worker(),
 * and nothing takes this struct's address beyond them, so it lives in registers; the
 * pipeline's ring and the clocks, whose addresses do leave, are kept apart. */
struct wk {
	uint64_t pushed, done;     /* the termination counters, as published */
	unsigned idle, idle_start; /* the back-off round, and where it restarts */
	unsigned h, cnt;           /* ring[h] runs next; cnt tasks held */
	unsigned ahead, spacing;   /* the pipeline's depth, and its stages' spacing */
	unsigned batch;            /* tasks popped at a time for run_batch (0: the task form) */
	bool leaving, slept;       /* seat given up; slept on the bell */
	uint64_t pushed_mark;      /* `pushed` at the last every-64-task check */
	unsigned checks;           /* those checks so far */
	uint64_t fails;            /* failed pops since its last task (pub_idle) */
};
#define RING_MASK ORDO_MAX_LOOKAHEAD
_Static_assert((ORDO_MAX_LOOKAHEAD & (ORDO_MAX_LOOKAHEAD + 1)) == 0,
               "the ring is indexed with a mask");
#define WORKER_STEP static inline __attribute__((always_inline))

/* A popped task ends an idle stretch: the failed pops' count and the idle time. */
WORKER_STEP void wake(struct run *r, struct ordo_tctx *c, struct wk *w, struct stretch_clock *m)
{
	if (__builtin_expect(w->fails != 0, 0)) {
		w->fails = 0;
		atomic_store_explicit(&c->pub_idle, 0, memory_order_relaxed);
	}
	if (__builtin_expect(m->idling, 0)) {
		to_busy(c, m);
		if (w->slept) { /* woken to tasks: the next sleeper may find some too */
			w->slept = false;
			if (atomic_load_explicit(&r->seats.idle_sleepers, memory_order_relaxed))
				seats_idle_ring(&r->seats, 1);
		}
	}
}

/* After the operator ran k tasks (useful of them did work): their children's push with
 * pushed[] published before it, then done[] (the protocol at the top). False: the run
 * ends (out of memory). */
WORKER_STEP bool finish(struct run *r, struct ordo_tctx *c, struct wk *w, unsigned k,
                        uint64_t useful)
{
	c->tasks += k; /* also the termination count: always kept */
#ifdef ORDO_COUNT_WORK
	c->empty += k - useful;
#else
	(void)useful;
#endif
	if (c->npush) {
		w->pushed += c->npush;
		publish_pushed(c, w->pushed);
		ORDO_PERTURB_POINT(PUSH_PUBLISH);
		r->ops->push(r->wl, c, c->pushbuf, c->npush);
		c->npush = 0;
	}
	w->done += k;
	publish_done(c, w->done);
	w->idle = w->idle_start;
	if (__builtin_expect(c->push_oom, 0)) {
		run_end(r);
		return false;
	}
	return true;
}

/* Runs the task at the ring's head (the worker holds cnt >= 1): the held tasks' next
 * prefetch stages, the operator, then finish. False: the run ends (out of memory). */
WORKER_STEP bool run_next(struct run *r, struct ordo_tctx *c, struct wk *w, struct ordo_task *ring,
                          struct stretch_clock *m)
{
	wake(r, c, w, m);
	/* every `spacing` positions a held task is told how many stages are left */
	for (unsigned i = w->spacing, stage = 1; i < w->cnt; i += w->spacing, stage++)
		r->o->prefetch(&ring[(w->h + i) & RING_MASK], stage, r->user);
	struct ordo_task task = ring[w->h];
	w->h = (w->h + 1) & RING_MASK;
	w->cnt--;
	const bool useful = r->op(c, &task, r->user);
	return finish(r, c, w, 1, useful);
}

/* The batch form (ordo_exec_opts.run_batch): pops up to `batch` tasks, stopping at the
 * first failed pop, and runs them as one batch; the same protocol as run_next, for k
 * tasks at once. 0: no task was popped; -1: the run ends (out of memory); else k. */
WORKER_STEP int run_batch(struct run *r, struct ordo_tctx *c, struct wk *w, struct ordo_task *buf,
                          struct stretch_clock *m)
{
	unsigned k = 0;
	while (k < w->batch && r->ops->pop(r->wl, c, &buf[k]))
		k++;
	if (!k)
		return 0;
	wake(r, c, w, m);
	const uint64_t useful = r->o->run_batch(c, buf, k, w->ahead ? w->spacing : 0, r->user);
	return finish(r, c, w, k, useful) ? (int)k : -1;
}

/* Every 64 tasks: a caller's stop, idle sleepers, and the seat (which may be given
 * up: `leaving`). False: the run was stopped. */
WORKER_STEP bool check_point(struct run *r, struct ordo_tctx *c, struct wk *w,
                             struct stretch_clock *m)
{
	struct seats *const seats = &r->seats;
	if (stop_asked(r))
		return false;
	/* rings for idle sleepers only while its tasks multiply: pushed more than the 64
	 * it ran (a worker walking a path has nothing to share) */
	if (w->pushed - w->pushed_mark > 64)
		seats_idle_check(seats);
	w->pushed_mark = w->pushed;
	w->leaving = seats->parking && parking_check_point(r, c, !(++w->checks & 3), m);
	return true;
}

/* A failed pop: flush, a stop or the end, a task's open loop to help, the
 * termination scan, the seat, the lost-task watchdog, then a back-off or a sleep on
 * the idle bell. False: the run is over for this worker. */
WORKER_STEP bool idle_step(struct run *r, struct ordo_tctx *c, struct wk *w,
                           struct stretch_clock *m)
{
	struct seats *const seats = &r->seats;
#ifdef ORDO_COUNT_WORK
	c->failed_pops++;
#endif
	atomic_store_explicit(&c->pub_idle, ++w->fails, memory_order_relaxed);
	if (r->ops->flush)
		r->ops->flush(r->wl, c);
	/* a scheduler that could not allocate (its flush, or a pop that had to
	 * reorganise) ends the run: the tasks it holds stay counted, the run fails with
	 * ENOMEM instead of waiting for them */
	if (__builtin_expect(c->push_oom, 0)) {
		run_end(r);
		return false;
	}
	if (atomic_load_explicit(&r->finished, memory_order_relaxed) || stop_asked(r))
		return false;
	if (loop_open(&r->loop)) { /* a task's loop is open: its items are this worker's work */
		to_busy(c, m);
		if (loop_help(&r->loop, c->tid)) {
			w->idle = w->idle_start;
			w->fails = 0;
			atomic_store_explicit(&c->pub_idle, 0, memory_order_relaxed);
			return true;
		}
	}
	if (w->idle >= w->idle_start + 2 && all_done(r->ctx, r->T, &r->duplicated)) {
		run_end(r);
		return false;
	}
	if (w->idle >= w->idle_start + 1) { /* a second failed pop: an idle stretch */
		to_idle(c, m);
		if (seats->parking && parking_must_leave(r, c)) {
			if (!parking_park(r, c))
				return false;
			w->idle = w->idle_start;
			return true;
		}
	}
	if (w->idle >= IDLE_SLEEP_ROUND &&
	    watchdog_check(&r->watch, r->ctx,
	                   !atomic_load_explicit(&seats->pending, memory_order_relaxed) &&
	                       !loop_open(&r->loop))) {
		/* a scheduler lost tasks: an error, not a hang (read after the join) */
		atomic_store_explicit(&r->lost, true, memory_order_relaxed);
		run_end(r);
		return false;
	}
	if (w->idle >= IDLE_SLEEP_ROUND) { /* the longest pause reached: sleep until rung */
		const unsigned k = w->idle - IDLE_SLEEP_ROUND;
		seats_idle_sleep(seats, &r->finished, 125000ull << (k < 3 ? k : 3));
		w->slept = true;
		w->idle++;
	} else {
		ordo_backoff(w->idle++);
	}
	return true;
}

/* One worker's run, to be read against the termination argument at the top: pop up to
 * the pipeline's depth, run the head task (pushed[] published before its children's
 * push, done[] after), and on a failed pop flush, back off and scan. The seat's moments
 * (adopt handed-over tasks, park once its held tasks ran, leave at a check point) are
 * parking.c's. Inlined into its one caller. */
static inline __attribute__((always_inline)) void worker(struct run *r, struct ordo_tctx *c)
{
	struct seats *const seats = &r->seats;
	/* with more threads than CPUs, spinning only delays the threads that hold work:
	 * idle workers start by yielding */
	const unsigned idle_start = r->oversubscribed ? 8 : 0;
	const unsigned ahead = pipeline_depth(r->o, r->ops);
	struct wk w = {.pushed = c->pushes,
	               .idle = idle_start,
	               .idle_start = idle_start,
	               .ahead = ahead,
	               .spacing = stage_spacing(r->o, ahead),
	               .batch = batch_size(r->o, r->ops)};
	struct ordo_task ring[ORDO_MAX_LOOKAHEAD + 1]; /* all held tasks are pending */
	struct ordo_task batch[ORDO_MAX_BATCH];        /* likewise, the batch form's */
	struct stretch_clock m = {ordo_now(), ordo_thread_cpu()};
	if (!seats_start(seats, (int)c->tid)) {
		m.idling = true; /* parked time counts as idle */
		if (!parking_park(r, c))
			goto out;
	}
	for (;;) {
		if (__builtin_expect(
		        atomic_load_explicit(&seats->pending, memory_order_relaxed) != 0, 0))
			parking_adopt(r, c);
		if (__builtin_expect(w.leaving, 0) && !w.cnt) { /* its held tasks ran: park */
			w.leaving = false;
			to_idle(c, &m);
			if (!parking_park(r, c))
				break;
		}
		/* the batch form: a check point where done passes a multiple of 64 */
		if (w.batch) {
			const uint64_t before = w.done;
			const int k = run_batch(r, c, &w, batch, &m);
			if (k < 0 || (!k && !idle_step(r, c, &w, &m)) ||
			    (k && (before >> 6) != (w.done >> 6) && !check_point(r, c, &w, &m)))
				break;
			continue;
		}
		while (!w.leaving && w.cnt <= w.ahead &&
		       r->ops->pop(r->wl, c, &ring[(w.h + w.cnt) & RING_MASK]))
			w.cnt++;
		if (w.cnt) {
			if (!run_next(r, c, &w, ring, &m))
				break;
			if (__builtin_expect(w.done & 63, 1) || w.leaving)
				continue;
			if (!check_point(r, c, &w, &m))
				break;
			continue;
		}
		if (!idle_step(r, c, &w, &m))
			break;
	}
out:
	mark_stretch(c, &m, m.idling);
	c->pushes = w.pushed;
}

void run_worker(struct run *r, struct ordo_tctx *c)
{
	worker(r, c);
}
