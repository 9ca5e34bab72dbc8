/*
 * seats.h - how many of a run's workers run tasks at once (internal to the runtime).
 *
 * A run has T workers but only `limit` seats. A worker runs tasks only while it holds a
 * seat; the others are parked: they gave away every task they held (the scheduler's
 * release hook, the executor's pipeline) into the run's hand-off pool, from which a
 * seated worker adopts them, and they sleep on a futex until a seat is free or the run
 * ends. Parking happens between tasks, never inside a scheduler's or an operator's
 * critical section, so a parked worker stalls nobody: this is what the OS does not give
 * when it preempts a thread that owns queued work.
 *
 * The limit (ordo_exec_opts.seats):
 *   auto   min(T, CPUs of the affinity mask): more workers than CPUs run as many as CPUs;
 *   adapt  starts there; a seated worker that finds itself
 *          descheduled for a quarter of a 10 ms stretch of running tasks (another
 *          process wants its core) gives its seat up and lowers the limit by one; a
 *          parked worker raises it again when /proc/loadavg shows a runnable count
 *          that leaves a core free, backing off (20 ms to 1.3 s) after probes that
 *          failed;
 *   N      fixed;
 *   all    every worker (no parking; also where the scheduler has no release hook).
 * With a cooperative budget (ordo_coop.h) a seat also needs one of the machine's tokens.
 *
 * Idle seated workers (no task to pop) sleep on a second futex, the idle bell, once
 * their back-off has reached its longest pause, with a timeout of 125 us growing to
 * 1 ms, instead of waking every 64 us to look; so an idle worker costs the workers that
 * have tasks (and the machine's other processes) a few wake-ups a millisecond at most.
 * Whoever has tasks to share rings it: a worker whose last 64 tasks pushed more than 64
 * looks at its every-64-task check whether someone sleeps, and then rings (one sleeper)
 * when the last ring is 200 us old; a woken worker that finds a task rings for the next
 * sleeper, so a burst of work wakes them one after the other; the run's end rings for
 * all. A ring can be missed (a worker
 * that is about to sleep has not yet counted itself): the timeout bounds the delay.
 */
#ifndef ORDO_SEATS_H
#define ORDO_SEATS_H

#include <pthread.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "ordo_runtime.h"

struct ordo_coop;

struct seats {
	/* read by every seated worker at its check points */
	alignas(128) _Atomic int held; /* seats held now */
	_Atomic int limit;             /* seats allowed now (held > limit: someone leaves) */
	int max;                       /* the ceiling of `limit` */
	bool adapt;                    /* adapt: the limit follows the machine */
	bool parking;                  /* false: every worker keeps its seat all run */
	int cpus;
	_Atomic uint64_t changed_ns;   /* last change of limit (adapt) */
	_Atomic uint64_t probe_gap_ns; /* wait before a parked worker probes upwards */
	struct ordo_coop *coop;        /* NULL: no machine-wide budget */
	/* parked workers sleep on bell (a futex word), bumped by whoever frees a seat */
	alignas(128) _Atomic uint32_t bell;
	_Atomic int parked;
	/* the hand-off pool: tasks given away by parking workers, pending (pushed, not
	 * done) while here; `pending` is read by every seated worker per task */
	alignas(128) _Atomic uint64_t pending;
	pthread_mutex_t lock;
	struct ordo_task *pool;
	size_t n, cap;
	_Atomic uint64_t parks; /* statistics */
	/* idle seated workers sleep on idle_bell; idle_sleepers is read at every worker's
	 * every-64-task check */
	alignas(128) _Atomic uint32_t idle_bell;
	_Atomic int idle_sleepers;
	_Atomic uint64_t idle_rung_ns;
	_Atomic uint64_t idle_sleeps; /* statistics */
};

/* Sets the limit from o->seats, T, the CPUs of the affinity mask and the scheduler's
 * release hook. */
void seats_init(struct seats *s, const struct ordo_exec_opts *o, bool can_release, int T, int cpus);
void seats_fini(struct seats *s);
/* The start: worker t begins seated when t < limit (false: it starts parked). */
bool seats_start(struct seats *s, int t);
/* A seat for a parked worker (and a token with coop); false when none is free. */
bool seats_take(struct seats *s);
/* A seated worker's check point: true when it must give its seat up now. */
bool seats_must_leave(struct seats *s);
/* Gives a seat back and wakes a parked worker. */
void seats_leave(struct seats *s);
/* adapt: a seated worker ran `wall` seconds of tasks with `cpu` seconds on a CPU;
 * true when it lowered the limit and must leave (its seat is already given back). */
bool seats_observe(struct seats *s, double wall, double cpu);
/* adapt: a parked worker's chance to raise the limit by one (true: it did; it then
 * tries seats_take). */
bool seats_probe(struct seats *s);
/* Parks: sleeps until the bell moves from `seen` or timeout_ns passes. */
void seats_wait(struct seats *s, uint32_t seen, uint64_t timeout_ns);
/* Wakes every parked worker (the run ended). */
void seats_wake_all(struct seats *s);
/* An idle seated worker's sleep: until the idle bell rings, `finished` is set or
 * timeout_ns passes. */
void seats_idle_sleep(struct seats *s, const _Atomic bool *finished, uint64_t timeout_ns);
/* Wakes up to n idle sleepers. */
void seats_idle_ring(struct seats *s, int n);
/* A worker with tasks, at its every-64-task check: rings one sleeper when someone
 * sleeps and the last ring is 200 us old. */
void seats_idle_ring_due(struct seats *s);
static inline void seats_idle_check(struct seats *s)
{
	if (__builtin_expect(atomic_load_explicit(&s->idle_sleepers, memory_order_relaxed) != 0, 0))
		seats_idle_ring_due(s);
}
/* Appends tasks to the pool; false when out of memory (nothing was added). */
bool seats_give(struct seats *s, const struct ordo_task *t, size_t n);
/* Takes the whole pool: *out (caller frees), returns the count. */
size_t seats_adopt(struct seats *s, struct ordo_task **out);

#endif
