/*
 * seats.c - the seats of a run (seats.h): the limit and who holds a seat, the futex
 * parked workers sleep on, the hand-off pool, and the two signals of the adapt limit.
 */

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "ordo_coop.h"
#include "seats.h"

/* A seated worker that was off its CPU for this share of a stretch of running tasks
 * gives its seat up (3 runnable threads on 2 cores: each is off a third of the time;
 * quiet: under 1%). */
#define DESCHEDULED_SHARE 0.25
#define SETTLE_NS         20000000ull /* no second change of the limit within 20 ms */
#define PROBE_MIN_NS      20000000ull
#define PROBE_MAX_NS      1280000000ull

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void seats_init(struct seats *s, const struct ordo_exec_opts *o, bool can_release, int T, int cpus)
{
	memset(s, 0, sizeof *s);
	pthread_mutex_init(&s->lock, NULL);
	s->cpus = cpus;
	int max = T;
	if (o->seats > 0)
		max = o->seats < T ? o->seats : T;
	else if (o->seats == ORDO_SEATS_AUTO || o->seats == ORDO_SEATS_ADAPT)
		max = s->cpus < T ? s->cpus : T;
	s->coop = o->coop;
	/* parking needs the scheduler's release hook; it is wanted when the limit is below
	 * T now or may fall (adapt, coop) */
	const bool may_fall = o->coop || (o->seats == ORDO_SEATS_ADAPT && T > 1);
	s->parking = can_release && (max < T || may_fall);
	if (!s->parking)
		max = T, s->coop = NULL;
	s->adapt = s->parking && o->seats == ORDO_SEATS_ADAPT && !s->coop;
	s->max = max;
	/* before the workers start (the parallel region's start orders them) */
	atomic_store_explicit(&s->limit, max, memory_order_relaxed);
	atomic_store_explicit(&s->probe_gap_ns, PROBE_MIN_NS, memory_order_relaxed);
}

void seats_fini(struct seats *s)
{
	free(s->pool);
	pthread_mutex_destroy(&s->lock);
}

bool seats_start(struct seats *s, int t)
{
	if (!s->parking)
		return true;
	if (s->coop)
		return seats_take(s);
	if (t >= atomic_load_explicit(&s->limit, memory_order_relaxed))
		return false;
	atomic_fetch_add_explicit(&s->held, 1, memory_order_relaxed);
	return true;
}

bool seats_take(struct seats *s)
{
	int h = atomic_load_explicit(&s->held, memory_order_relaxed);
	do {
		if (h >= atomic_load_explicit(&s->limit, memory_order_relaxed))
			return false;
	} while (!atomic_compare_exchange_weak_explicit(&s->held, &h, h + 1, memory_order_relaxed,
	                                                memory_order_relaxed));
	if (s->coop && !ordo_coop_acquire(s->coop)) {
		atomic_fetch_sub_explicit(&s->held, 1, memory_order_relaxed);
		return false;
	}
	return true;
}

/* The two bells (parked workers', idle workers'): a futex word bumped by a ring, and
 * waiters woken only when some are counted. */
static void bell_ring(_Atomic uint32_t *bell, const _Atomic int *waiters, int n)
{
	/* seq_cst, both: the ringer's half of the store-load pair with a sleeper, which
	 * counts itself (seq_cst) before it reads the bell (seq_cst): either the sleeper
	 * reads the new bell (and its futex wait returns at once) or the ringer sees it
	 * counted and wakes it. The bump is also a release: what the ringer did before (a
	 * seat given up: `held`, relaxed) is seen by a sleeper that reads the new bell */
	atomic_fetch_add_explicit(bell, 1, memory_order_seq_cst);
	if (atomic_load_explicit(waiters, memory_order_seq_cst))
		syscall(SYS_futex, bell, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
}

static void bell_wait(_Atomic uint32_t *bell, uint32_t seen, uint64_t timeout_ns)
{
	struct timespec ts = {(time_t)(timeout_ns / 1000000000ull),
	                      (long)(timeout_ns % 1000000000ull)};
	syscall(SYS_futex, bell, FUTEX_WAIT_PRIVATE, seen, &ts, NULL, 0);
}

static void ring(struct seats *s, int n)
{
	bell_ring(&s->bell, &s->parked, n);
}

bool seats_must_leave(struct seats *s)
{
	if (atomic_load_explicit(&s->held, memory_order_relaxed) >
	    atomic_load_explicit(&s->limit, memory_order_relaxed))
		return true;
	return s->coop && ordo_coop_should_yield(s->coop);
}

void seats_leave(struct seats *s)
{
	atomic_fetch_sub_explicit(&s->held, 1,
	                          memory_order_relaxed); /* published by the ring below */
	atomic_fetch_add_explicit(&s->parks, 1, memory_order_relaxed);
	if (s->coop)
		ordo_coop_release(s->coop);
	ring(s, 1);
}

bool seats_observe(struct seats *s, double wall, double cpu)
{
	if (!s->adapt || wall <= 0 || (wall - cpu) < DESCHEDULED_SHARE * wall)
		return false;
	const uint64_t t = now_ns();
	uint64_t last = atomic_load_explicit(&s->changed_ns, memory_order_relaxed);
	/* the adapt limit's words are relaxed: its CASes make one change per settling
	 * window, and nothing is published through them */
	int lim = atomic_load_explicit(&s->limit, memory_order_relaxed);
	if (lim <= 1 || t - last < SETTLE_NS ||
	    !atomic_compare_exchange_strong_explicit(&s->changed_ns, &last, t, memory_order_relaxed,
	                                             memory_order_relaxed))
		return false;
	if (!atomic_compare_exchange_strong_explicit(&s->limit, &lim, lim - 1, memory_order_relaxed,
	                                             memory_order_relaxed))
		return false;
	/* a probe that failed soon after it raised the limit: wait longer for the next */
	uint64_t gap = atomic_load_explicit(&s->probe_gap_ns, memory_order_relaxed);
	if (t - last < 2 * gap && gap < PROBE_MAX_NS)
		atomic_store_explicit(&s->probe_gap_ns, 2 * gap, memory_order_relaxed);
	atomic_fetch_sub_explicit(&s->held, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&s->parks, 1, memory_order_relaxed);
	return true;
}

/* Runnable threads on the machine (/proc/loadavg's fourth field counts the reader),
 * or -1 when unreadable. */
static int runnable_now(void)
{
	FILE *f = fopen("/proc/loadavg", "r");
	if (!f)
		return -1;
	double a, b, c;
	int run = -1, total;
	if (fscanf(f, "%lf %lf %lf %d/%d", &a, &b, &c, &run, &total) != 5)
		run = -1;
	fclose(f);
	return run;
}

bool seats_probe(struct seats *s)
{
	if (!s->adapt)
		return false;
	int lim = atomic_load_explicit(&s->limit, memory_order_relaxed);
	const uint64_t t = now_ns();
	uint64_t last = atomic_load_explicit(&s->changed_ns, memory_order_relaxed);
	if (lim >= s->max ||
	    t - last < atomic_load_explicit(&s->probe_gap_ns, memory_order_relaxed))
		return false;
	/* the reader is runnable, and so are the seated workers: a free core means no
	 * more runnable threads than CPUs */
	int run = runnable_now();
	if (run > s->cpus ||
	    !atomic_compare_exchange_strong_explicit(&s->changed_ns, &last, t, memory_order_relaxed,
	                                             memory_order_relaxed))
		return false;
	if (!atomic_compare_exchange_strong_explicit(&s->limit, &lim, lim + 1, memory_order_relaxed,
	                                             memory_order_relaxed))
		return false;
	if (lim + 1 == s->max) /* back to the ceiling: the next drop starts afresh */
		atomic_store_explicit(&s->probe_gap_ns, PROBE_MIN_NS, memory_order_relaxed);
	return true;
}

void seats_wait(struct seats *s, uint32_t seen, uint64_t timeout_ns)
{
	bell_wait(&s->bell, seen, timeout_ns);
}

void seats_wake_all(struct seats *s)
{
	ring(s, INT_MAX);
}

void seats_idle_sleep(struct seats *s, const _Atomic bool *finished, uint64_t timeout_ns)
{
	/* counted before the bell is read, and `finished` read after it: a ring or the
	 * run's end after either read moves the bell, and the wait returns at once */
	atomic_fetch_add_explicit(&s->idle_sleepers, 1, memory_order_seq_cst); /* bell_ring */
	const uint32_t seen = atomic_load_explicit(&s->idle_bell, memory_order_seq_cst);
	if (!atomic_load_explicit(finished, memory_order_seq_cst)) { /* run_end's store */
		bell_wait(&s->idle_bell, seen, timeout_ns);
		atomic_fetch_add_explicit(&s->idle_sleeps, 1, memory_order_relaxed);
	}
	atomic_fetch_sub_explicit(&s->idle_sleepers, 1,
	                          memory_order_relaxed); /* late: a wake for nothing */
}

void seats_idle_ring(struct seats *s, int n)
{
	bell_ring(&s->idle_bell, &s->idle_sleepers, n);
}

void seats_idle_ring_due(struct seats *s)
{
	const uint64_t t = now_ns();
	uint64_t last = atomic_load_explicit(&s->idle_rung_ns, memory_order_relaxed);
	if (t - last >= 200000 &&
	    atomic_compare_exchange_strong_explicit(&s->idle_rung_ns, &last, t,
	                                            memory_order_relaxed, memory_order_relaxed))
		seats_idle_ring(s, 1);
}

bool seats_give(struct seats *s, const struct ordo_task *t, size_t n)
{
	if (!n)
		return true;
	pthread_mutex_lock(&s->lock);
	bool ok = true;
	if (s->n + n > s->cap) {
		size_t cap = s->cap ? s->cap : 4096;
		while (cap < s->n + n)
			cap *= 2;
		struct ordo_task *p = realloc(s->pool, cap * sizeof *p);
		ok = p != NULL;
		if (ok)
			s->pool = p, s->cap = cap;
	}
	if (ok) {
		memcpy(s->pool + s->n, t, n * sizeof *t);
		s->n += n;
		atomic_store_explicit(&s->pending, s->n, memory_order_relaxed);
	}
	pthread_mutex_unlock(&s->lock);
	return ok;
}

size_t seats_adopt(struct seats *s, struct ordo_task **out)
{
	pthread_mutex_lock(&s->lock);
	size_t n = s->n;
	*out = s->pool;
	s->pool = NULL;
	s->n = s->cap = 0;
	atomic_store_explicit(&s->pending, 0, memory_order_relaxed);
	pthread_mutex_unlock(&s->lock);
	return n;
}
