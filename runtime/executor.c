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
 *   Seats (seats.h): a worker that gives its seat up runs the tasks its pipeline holds,
 *   then hands the scheduler's private tasks (release hook) to a locked pool and parks.
 *   Tasks in the pool are pending like queued ones: counted pushed, not done. A seated
 *   worker adopts the pool and pushes its tasks into its own scheduler state without
 *   counting them again. The argument above holds for them: the pool's lock orders the
 *   parking worker's pop (which acquired the first push, after its pushed[] store)
 *   before the adopter's push, and the adopter's push before the pop that runs the task.
 *   Parked workers wait on a futex and scan too (when every seat was given up to other
 *   processes, --coop, the end is seen there); the worker that ends the run wakes them.
 *   Idle seated workers sleep on another futex, the idle bell (seats.h), always with a
 *   timeout of at most 1 ms: a missed ring delays a sleeper, never the run's end, which
 *   any worker's scan still sees and which rings for them all.
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
#include "seats.h"
#include "watchdog.h"

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

/* ordo_backoff's round of its longest pause (64 us): an idle worker that reaches it
 * sleeps on the idle bell instead (seats.h) */
#define IDLE_SLEEP_ROUND 30

void ordo_backoff(unsigned round)
{
	if (round < 8) {
		for (unsigned i = 0; i < (16u << round); i++)
			ordo_cpu_relax();
	} else if (round < 24) {
		sched_yield();
	} else {
		/* 1 us .. 64 us: long enough to hand the CPU to workers that hold tasks when
		 * threads outnumber cores, short enough that a sleeper whose own queue refills
		 * (RELD, an SMQ owner) comes back quickly */
		unsigned r = round - 24;
		long ns = 1000L << (r < 6 ? r : 6);
		struct timespec ts = {0, ns};
		nanosleep(&ts, NULL);
	}
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

/* Tasks a worker holds behind the one it runs. */
static unsigned pipeline_depth(const struct ordo_exec_opts *o, const struct ordo_scheduler_ops *ops)
{
	if (!o->prefetch || o->lookahead == ORDO_LOOKAHEAD_OFF || ops->exact)
		return 0;
	return o->lookahead > ORDO_MAX_LOOKAHEAD ? ORDO_MAX_LOOKAHEAD : o->lookahead;
}

/* Positions between two calls of the hook for one task (see prefetch_stages). */
static unsigned stage_spacing(const struct ordo_exec_opts *o, unsigned depth)
{
	const unsigned d = o->prefetch_stages ? depth / o->prefetch_stages : 1;
	return d ? d : 1;
}

/* The termination scan (see the comment at the top): true when every task pushed is
 * done. By the argument above a scan never sees more tasks done than pushed; when it
 * does, a scheduler gave some task out twice (its hooks broke their contract), the sums
 * can never meet again, and the run ends with `duplicated` set (an error, not a hang). */
static bool all_done(struct ordo_tctx **ctx, int T, _Atomic bool *duplicated)
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

/* Ends the current stretch (idle when was_idle, else busy) at now: its wall and CPU
 * time go to c's totals. */
static void mark_stretch(struct ordo_tctx *c, double *w_mark, double *c_mark, bool was_idle)
{
	const double w = ordo_now(), cpu = ordo_thread_cpu();
	if (was_idle) {
		c->idle_wall += w - *w_mark;
		c->idle_cpu += cpu - *c_mark;
	} else {
		c->busy_wall += w - *w_mark;
		c->busy_cpu += cpu - *c_mark;
	}
	*w_mark = w, *c_mark = cpu;
}

/* A task's own parallel loop (ordo_task_loop): one slot per run. Its caller (who set
 * `taken`) writes fn, arg and n, opens the slot, and runs items until `next` has handed
 * every item out; then it closes the slot and waits until no helper is joined; only
 * then does it return (every item has run) and may the slot be taken again.
 *
 * Why this is exact, with one word. `state` holds the open bit (bit 0) and the count of
 * joined helpers (bits 1..): a helper joins by a compare-and-swap from an open state to
 * the same state with one more helper, and leaves by subtracting its count; the closer
 * clears the open bit with one read-modify-write and then waits for the count to be 0.
 * All of them act on one location, so they are totally ordered by its modification
 * order: a join ordered before the close is in the count the closer waits on, and a
 * join after it finds the bit clear and fails (the compare-and-swap compares the whole
 * word). No store-load pair is involved (the earlier two-word form, a store to `gen`
 * then a load of `joined` against a join then a load of `gen`, needed sequential
 * consistency on both sides, and a release close broke it on x86), so no order
 * stronger than these is needed anywhere:
 *   open:  release, so a helper whose join acquires it reads this loop's fn, arg, n
 *          and next (written before it);
 *   join:  acquire (the same);
 *   leave: release, so the items' writes are seen by the closer that acquires the
 *          count of 0;
 *   close: relaxed: it only has to be one read-modify-write of the word;
 *   wait:  acquire (pairs with the leaves).
 * A helper's fields stay this loop's while it is joined: the next caller can write
 * them only after this close returned, which waits for the helper to leave. */
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

/* Runs items of loop l until none is left to take; returns how many it ran. */
static uint64_t loop_items(struct ordo_loop *l, ordo_loop_fn fn, void *arg, uint32_t n,
                           unsigned tid)
{
	for (uint64_t ran = 0;; ran++) {
		const uint32_t i = atomic_fetch_add_explicit(&l->next, 1, memory_order_relaxed);
		if (i >= n)
			return ran;
		fn(arg, i, tid);
	}
}

/* True while a task's loop is open (for idle workers: worth a join). */
static inline bool loop_open(struct ordo_loop *l)
{
	return atomic_load_explicit(&l->state, memory_order_relaxed) & LOOP_OPEN;
}

void ordo_task_loop(struct ordo_tctx *ctx, ordo_loop_fn fn, void *arg, uint32_t n)
{
	struct ordo_loop *l = ctx ? ctx->loop : NULL;
	bool free_slot = false;
	if (n > 1 && l)
		free_slot = !atomic_exchange_explicit(&l->taken, true, memory_order_acquire);
	if (!free_slot) { /* alone: outside a run, one item, or another loop is open */
		for (uint32_t i = 0; i < n; i++)
			fn(arg, i, ctx ? ctx->tid : 0);
		return;
	}
	l->fn = fn, l->arg = arg, l->n = n;
	atomic_store_explicit(&l->next, 0, memory_order_relaxed);
	/* release: the fields above before any join (no helper is joined now: the last
	 * close waited for the count to be 0, and nobody joins a closed slot) */
	atomic_store_explicit(&l->state, LOOP_OPEN, memory_order_release);
	atomic_fetch_add_explicit(&l->opened, 1, memory_order_relaxed);
	if (atomic_load_explicit(&l->seats->idle_sleepers, memory_order_relaxed))
		seats_idle_ring(l->seats, INT_MAX);
	loop_items(l, fn, arg, n, ctx->tid);
	/* closed: every item is handed out; relaxed, see the argument above */
	atomic_fetch_and_explicit(&l->state, ~LOOP_OPEN, memory_order_relaxed);
	ORDO_PERTURB_POINT(LOOP_CLOSE);
	/* helpers finish their items (acquire: their writes, through their leaves) */
	for (unsigned round = 0; atomic_load_explicit(&l->state, memory_order_acquire); round++)
		ordo_backoff(round < 12 ? round : 12);
	atomic_store_explicit(&l->taken, false, memory_order_release);
}

/* An idle worker's look at the run's loop: joins it when open; true when it did. */
static bool loop_help(struct ordo_loop *l, unsigned tid)
{
	uint64_t s = atomic_load_explicit(&l->state, memory_order_relaxed);
	if (!(s & LOOP_OPEN))
		return false;
	ORDO_PERTURB_POINT(LOOP_JOIN);
	/* acquire: the opener's fields (its release store is what the compare-and-swap
	 * read, or the value it was modified from) */
	if (!atomic_compare_exchange_strong_explicit(&l->state, &s, s + LOOP_HELPER,
	                                             memory_order_acquire, memory_order_relaxed))
		return false; /* closed meanwhile, or another helper moved the count: later */
	atomic_fetch_add_explicit(&l->helped, loop_items(l, l->fn, l->arg, l->n, tid),
	                          memory_order_relaxed);
	/* release: its items' writes before the closer's acquire of a count of 0 */
	atomic_fetch_sub_explicit(&l->state, LOOP_HELPER, memory_order_release);
	return true;
}

bool ordo_task_loop_help(struct ordo_tctx *ctx)
{
	return ctx && ctx->loop && loop_help(ctx->loop, ctx->tid);
}

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
static void run_end(struct run *r)
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

/* Takes everything parking workers handed over into this worker's scheduler state.
 * The tasks stay pending (counted pushed by whoever pushed them first, not done), and
 * the pool's lock orders their first push before this one, so the termination
 * argument at the top holds for them unchanged. */
static void adopt(struct run *r, struct ordo_tctx *c)
{
	struct ordo_task *t;
	const size_t n = seats_adopt(&r->seats, &t);
	for (size_t b = 0; b < n && !c->push_oom; b += 4096)
		r->ops->push(r->wl, c, t + b, n - b < 4096 ? n - b : 4096);
	free(t);
}

struct ordo_task *ordo_handoff_room(struct ordo_handoff *h, size_t n)
{
	if (h->n + n > h->cap) {
		size_t cap = h->cap ? h->cap : 512;
		while (cap < h->n + n)
			cap *= 2;
		struct ordo_task *p = realloc(h->t, cap * sizeof *p);
		if (!p) {
			h->oom = true;
			return NULL;
		}
		h->t = p, h->cap = cap;
	}
	return h->t + h->n;
}

/* Gives away every task the scheduler keeps private to this worker (its release
 * hook) into the pool; the worker's pipeline is empty by then (it ran its held tasks
 * before it parked, so their prefetch stages count down as the executor promises).
 * The hand-off grows as the hook fills it, so no task can stay behind for want of
 * room. False: out of memory (the tasks stay counted, the run ends with ENOMEM). */
static bool hand_over(struct run *r, struct ordo_tctx *c)
{
	struct ordo_handoff h = {0};
	r->ops->release(r->wl, c, &h);
	const bool ok = !h.oom && !c->push_oom && seats_give(&r->seats, h.t, h.n);
	if (ok)
		atomic_fetch_add_explicit(&r->handed_over, h.n, memory_order_relaxed);
	free(h.t);
	if (!ok)
		c->push_oom = true;
	return ok;
}

/* A parked worker's wait: until it gets a seat (true) or the run is over (false).
 * It holds nothing, so it only looks for a seat, the run's end and a stop. */
static bool park(struct run *r, struct ordo_tctx *c)
{
	struct seats *s = &r->seats;
	if (!hand_over(r, c)) {
		run_end(r);
		return false;
	}
	/* seq_cst, and the bell's and `finished`'s loads below: the sleeper's half of the
	 * store-load pair with bell_ring (seats.c) and run_end */
	atomic_fetch_add_explicit(&s->parked, 1, memory_order_seq_cst);
	atomic_store_explicit(&c->pub_idle, WATCHDOG_PARKED, memory_order_relaxed);
	const uint64_t bit = c->tid < 64 ? 1ull << c->tid : 0;
	atomic_fetch_or_explicit(&r->parked_mask, bit, memory_order_relaxed);
	bool seated = false;
	for (;;) {
		const uint32_t seen = atomic_load_explicit(&s->bell, memory_order_seq_cst);
		if (atomic_load_explicit(&r->finished, memory_order_seq_cst))
			break;
		if (stop_asked(r))
			break;
		if (seats_take(s) || (seats_probe(s) && seats_take(s))) {
			seated = true;
			break;
		}
		/* with every seat given up (cooperating processes hold the tokens), the
		 * end of the run is seen here */
		if (all_done(r->ctx, r->T, &r->duplicated)) {
			run_end(r);
			break;
		}
		/* a seat freed here rings the bell; another process's token, a probe's
		 * moment and a stop are looked at on the timeout */
		seats_wait(s, seen, s->coop ? 1000000 : s->adapt ? 20000000 : 100000000);
	}
	atomic_fetch_and_explicit(&r->parked_mask, ~bit, memory_order_relaxed);
	atomic_store_explicit(&c->pub_idle, 0, memory_order_relaxed);
	atomic_fetch_sub_explicit(&s->parked, 1,
	                          memory_order_relaxed); /* late: a wake for nothing */
	return seated;
}

/* A seated worker's check point: true when it gave its seat up (the test hook, the
 * limit fell, another process's turn, or it saw itself descheduled). */
static bool must_leave(struct run *r, struct ordo_tctx *c)
{
	if ((r->o->seat_shuffle && ordo_rng_below(&c->rng, r->o->seat_shuffle) == 0) ||
	    seats_must_leave(&r->seats)) {
		seats_leave(&r->seats);
		return true;
	}
	return false;
}

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

/* One worker's run: pop, run, push the children, publish the counters; when a pop
 * fails, flush, back off and scan for termination (the protocol at the top of this
 * file: pushed[] is published before the push, done[] after the operator and its
 * children's push). Inlined into its one caller. */
static inline __attribute__((always_inline)) void worker(struct run *r, struct ordo_tctx *c)
{
	const struct ordo_exec_opts *o = r->o;
	const struct ordo_scheduler_ops *ops = r->ops;
	struct ordo_sched_state *wl = r->wl;
	void *user = r->user;
	const ordo_operator op = r->op;
	uint64_t pushed = c->pushes, done = 0;
	/* with more threads than CPUs, spinning only delays the threads that hold work:
	 * idle workers start by yielding */
	const unsigned idle_start = r->oversubscribed ? 8 : 0;
	unsigned idle = idle_start;
	/* the pipeline: ring[h] runs next, up to `ahead` popped tasks wait behind it (all
	 * counted as pending: pushed, not done) */
	struct ordo_task ring[ORDO_MAX_LOOKAHEAD + 1], task;
	_Static_assert((ORDO_MAX_LOOKAHEAD & (ORDO_MAX_LOOKAHEAD + 1)) == 0,
	               "the ring is indexed with a mask");
	const unsigned ahead = pipeline_depth(o, ops);
	const unsigned spacing = stage_spacing(o, ahead);
	unsigned h = 0, cnt = 0;
	/* utilisation: clocks read only where a busy stretch turns idle or back */
	double w_mark = ordo_now(), c_mark = ordo_thread_cpu();
	bool idling = false;
	struct seats *const seats = &r->seats;
	if (!seats_start(seats, (int)c->tid)) {
		idling = true; /* parked time counts as idle */
		if (!park(r, c))
			goto out;
	}
	/* gave its seat up: runs the tasks it holds, pops no more, then parks */
	bool leaving = false;
	bool slept = false;       /* on the idle bell, since its last task */
	uint64_t pushed_mark = 0; /* `pushed` at the last every-64-task check */
	uint64_t fails = 0;       /* failed pops since its last task (pub_idle) */
	for (;;) {
		if (__builtin_expect(
		        atomic_load_explicit(&seats->pending, memory_order_relaxed) != 0, 0))
			adopt(r, c);
		if (__builtin_expect(leaving, 0) && !cnt) { /* its held tasks ran: park */
			leaving = false;
			mark_stretch(c, &w_mark, &c_mark, false);
			idling = true;
			if (!park(r, c))
				break;
		}
		while (!leaving && cnt <= ahead &&
		       ops->pop(wl, c, &ring[(h + cnt) & (ORDO_MAX_LOOKAHEAD)]))
			cnt++;
		if (cnt) {
			if (__builtin_expect(fails != 0, 0)) {
				fails = 0;
				atomic_store_explicit(&c->pub_idle, 0, memory_order_relaxed);
			}
			if (__builtin_expect(idling, 0)) {
				mark_stretch(c, &w_mark, &c_mark, true);
				idling = false;
				/* woken to tasks: the next sleeper may find some too */
				if (slept) {
					slept = false;
					if (atomic_load_explicit(&seats->idle_sleepers,
					                         memory_order_relaxed))
						seats_idle_ring(seats, 1);
				}
			}
			/* stage prefetches: every `spacing` positions a held task is told how
			 * many stages are left before it runs */
			for (unsigned i = spacing; i < cnt; i += spacing)
				o->prefetch(&ring[(h + i) & (ORDO_MAX_LOOKAHEAD)], i / spacing,
				            user);
			task = ring[h];
			h = (h + 1) & (ORDO_MAX_LOOKAHEAD);
			cnt--;
			bool useful = op(c, &task, user);
			c->tasks++; /* also the termination count: always kept */
#ifdef ORDO_COUNT_WORK
			c->empty += !useful;
#else
			(void)useful;
#endif
			if (c->npush) {
				pushed += c->npush;
				publish_pushed(c, pushed);
				ORDO_PERTURB_POINT(PUSH_PUBLISH);
				ops->push(wl, c, c->pushbuf, c->npush);
				c->npush = 0;
			}
			publish_done(c, ++done);
			idle = idle_start;
			if (__builtin_expect(c->push_oom, 0)) {
				run_end(r);
				break;
			}
			if (__builtin_expect(done & 63, 1) || leaving)
				continue;
			/* every 64 tasks: a caller's stop, idle sleepers, and the seat */
			if (stop_asked(r))
				break;
			/* rings for idle sleepers only while its tasks multiply: pushed more than
			 * the 64 it ran (a worker walking a path has nothing to share) */
			if (pushed - pushed_mark > 64)
				seats_idle_check(seats);
			pushed_mark = pushed;
			if (!seats->parking)
				continue;
			bool leave = must_leave(r, c);
			if (!leave && seats->adapt && !(done & 255) &&
			    ordo_now() - w_mark >= 0.010) {
				/* a 10 ms stretch of running tasks: how much of it was on a CPU */
				const double w0 = w_mark, c0 = c_mark;
				mark_stretch(c, &w_mark, &c_mark, false);
				leave = seats_observe(seats, w_mark - w0, c_mark - c0);
			}
			leaving = leave;
			continue;
		}
#ifdef ORDO_COUNT_WORK
		c->failed_pops++;
#endif
		atomic_store_explicit(&c->pub_idle, ++fails, memory_order_relaxed);
		if (ops->flush)
			ops->flush(wl, c);
		/* a scheduler that could not allocate (its flush, or a pop that had to
		 * reorganise) ends the run: the tasks it holds stay counted, the run fails
		 * with ENOMEM instead of waiting for them */
		if (__builtin_expect(c->push_oom, 0)) {
			run_end(r);
			break;
		}
		if (atomic_load_explicit(&r->finished, memory_order_relaxed))
			break;
		if (stop_asked(r))
			break;
		if (loop_open(&r->loop)) {
			/* a task's loop is open: its items are this worker's work now */
			if (idling)
				mark_stretch(c, &w_mark, &c_mark, true);
			idling = false;
			if (loop_help(&r->loop, c->tid)) {
				idle = idle_start;
				fails = 0;
				atomic_store_explicit(&c->pub_idle, 0, memory_order_relaxed);
				continue;
			}
		}
		if (idle >= idle_start + 2 && all_done(r->ctx, r->T, &r->duplicated)) {
			run_end(r);
			break;
		}
		if (!idling && idle >= idle_start + 1) { /* a second failed pop */
			mark_stretch(c, &w_mark, &c_mark, false);
			idling = true;
		}
		if (seats->parking && idle >= idle_start + 1 && must_leave(r, c)) {
			if (!idling)
				mark_stretch(c, &w_mark, &c_mark, false);
			idling = true;
			if (!park(r, c))
				break;
			idle = idle_start;
			continue;
		}
		if (idle >= IDLE_SLEEP_ROUND &&
		    watchdog_check(&r->watch, r->ctx,
		                   !atomic_load_explicit(&seats->pending, memory_order_relaxed) &&
		                       !loop_open(&r->loop))) {
			/* a scheduler lost tasks: an error, not a hang (read after the join) */
			atomic_store_explicit(&r->lost, true, memory_order_relaxed);
			run_end(r);
			break;
		}
		if (idle >= IDLE_SLEEP_ROUND) { /* the longest pause reached: sleep until rung */
			const unsigned k = idle - IDLE_SLEEP_ROUND;
			seats_idle_sleep(seats, &r->finished, 125000ull << (k < 3 ? k : 3));
			slept = true;
			idle++;
		} else {
			ordo_backoff(idle++);
		}
	}
out:
	mark_stretch(c, &w_mark, &c_mark, idling);
	c->pushes = pushed;
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

int ordo_for_each(const struct ordo_exec_opts *o, const struct ordo_scheduler_ops *ops,
                  struct ordo_sched_state *wl, const struct ordo_task *initial, uint64_t n,
                  ordo_operator op, void *user, struct ordo_run_stats *stats, struct ordo_err *err)
{
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
		if (c) {
			/* seed this thread's slice of the initial tasks */
			uint64_t lo = n * (uint64_t)t / (uint64_t)T,
			         hi = n * (uint64_t)(t + 1) / (uint64_t)T;
			atomic_store_explicit(&c->pub_pushed, hi - lo, memory_order_relaxed);
			c->pushes = hi - lo;
			for (uint64_t b = lo; b < hi; b += 4096)
				ops->push(wl, c, initial + b,
				          (size_t)(hi - b < 4096 ? hi - b : 4096));
		}
#pragma omp barrier
#pragma omp single
		t_start = ordo_now();
		if (c) {
			worker(&r, c);
			oom = c->push_oom;
		}
#pragma omp barrier
#pragma omp single
		t_end = ordo_now();
		if (ok && ops->thread_fini)
			ops->thread_fini(wl, ctx[t]);
	}
	int rc = 0;
	if (got_threads != T)
		rc = ordo_err_set(err, ORDO_EINVAL, "asked for %d threads, OpenMP gave %d", T,
		                  got_threads);
	else if (oom)
		rc = ordo_err_set(err, ORDO_ENOMEM, "out of memory during the run");
	else if (atomic_load_explicit(&r.canceled, memory_order_relaxed)) /* after the join */
		rc = ordo_err_set(err, ORDO_ECANCELED, "interrupted: the run was stopped");
	else if (atomic_load_explicit(&r.duplicated, memory_order_relaxed))
		rc = ordo_err_set(err, ORDO_ESCHEDULER,
		                  "scheduler %s broke its contract: more tasks finished than were "
		                  "pushed (a task was given out twice)",
		                  ops->name);
	else if (atomic_load_explicit(&r.lost, memory_order_relaxed))
		rc = ordo_err_set(err, ORDO_ESCHEDULER, "scheduler %s lost tasks: %s", ops->name,
		                  r.watch.what);
	for (int t = 0; !rc && t < T; t++)
		if (!ctx[t])
			rc = ordo_err_set(err, ORDO_ENOMEM, "out of memory for thread contexts");
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
