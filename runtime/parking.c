/*
 * parking.c - seats given up and taken again (seats.h): a worker that must leave its
 * seat runs the tasks its pipeline holds (executor.c), hands the tasks only its
 * scheduler state can reach to the run's pool, and parks on a futex; a seated worker
 * adopts the pool. Tasks in the pool are pending like queued ones (counted pushed, not
 * done), so the termination argument at the top of executor.c holds for them: the
 * pool's lock orders the parking worker's pop (which acquired the first push, after its
 * pushed[] store) before the adopter's push, and that push before the pop that runs
 * the task. Parked workers scan for the end too (when every seat was given up to other
 * processes, --coop, it is seen there), and the worker that ends the run wakes them.
 */
#include <stdlib.h>

#include "run.h"

/* Takes everything parking workers handed over into this worker's scheduler state.
 * The tasks stay pending (counted pushed by whoever pushed them first, not done), and
 * the pool's lock orders their first push before this one, so the termination
 * argument at the top holds for them unchanged. */
void parking_adopt(struct run *r, struct ordo_tctx *c)
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
bool parking_park(struct run *r, struct ordo_tctx *c)
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
bool parking_must_leave(struct run *r, struct ordo_tctx *c)
{
	if ((r->o->seat_shuffle && ordo_rng_below(&c->rng, r->o->seat_shuffle) == 0) ||
	    seats_must_leave(&r->seats)) {
		seats_leave(&r->seats);
		return true;
	}
	return false;
}

bool parking_check_point(struct run *r, struct ordo_tctx *c, bool observe, struct stretch_clock *m)
{
	if (parking_must_leave(r, c))
		return true;
	if (!r->seats.adapt || !observe || ordo_now() - m->w < 0.010)
		return false;
	/* a 10 ms stretch of running tasks: how much of it was on a CPU */
	const struct stretch_clock m0 = *m;
	mark_stretch(c, m, false);
	return seats_observe(&r->seats, m->w - m0.w, m->cpu - m0.cpu);
}
