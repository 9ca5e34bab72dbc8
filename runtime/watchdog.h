/*
 * watchdog.h - a run that has lost tasks ends with an error (internal to the runtime).
 *
 * The termination scan (executor.c) waits while sum(done) < sum(pushed). When a
 * scheduler breaks its contract and a pushed task can never be popped again (left in a
 * parked worker's private buffer, dropped by a push), the sums never meet and the run
 * would never end. The watchdog tells that state from a slow one: every worker is idle
 * (its pops fail) or parked, none holds a task, no hand-off is pending, no task loop is
 * open, and neither sum moves, for WATCHDOG_AFTER seconds during which every seated
 * worker failed at least WATCHDOG_POPS more pops. By the scheduler contract
 * (ordo_scheduler.h) a pending task must come out of some worker's pops eventually; a
 * second of a thousand failed pops per worker is far past what any registered scheduler
 * needs (a descheduled worker's count does not move, so a busy machine delays the
 * verdict, never forces it). The run then ends with ORDO_ESCHEDULER naming the lost
 * count and each worker's state.
 *
 * Per worker, ordo_tctx.pub_idle (owner writes, relaxed; others read): 0 while it runs
 * tasks, 1 + its failed pops since it last ran one while idle, WATCHDOG_PARKED while
 * parked. Relaxed is enough: a stale value either does not move (no verdict) or is a
 * real idle count; the verdict needs a whole second of them.
 *
 * Thread safety: watchdog_check may be called by any worker at any time; one caller at
 * a time does the work (a trylock), the others return false at once.
 */
#ifndef ORDO_WATCHDOG_H
#define ORDO_WATCHDOG_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ordo_runtime.h"

#define WATCHDOG_PARKED UINT64_MAX
#define WATCHDOG_AFTER  1.0 /* seconds of the stuck state before the verdict */
#define WATCHDOG_POPS   64  /* failed pops each seated worker must show over it */

struct watchdog {
	_Atomic bool busy; /* one checker at a time */
	bool armed;        /* a stuck window is open since `since` */
	double since;
	uint64_t done, pushed; /* the sums when the window opened */
	uint64_t *idle0;       /* each worker's pub_idle then (T entries) */
	int T;
	char what[480]; /* the verdict: lost count and worker states */
	uint64_t lost;
};

/* false: out of memory (the run then has no watchdog and never gives a verdict). */
bool watchdog_init(struct watchdog *w, int T);
void watchdog_fini(struct watchdog *w);

/* Called by an idle worker; `quiet` says that nothing outside the workers' contexts
 * holds a task (no hand-off pending, no loop open). True when the run has lost tasks:
 * w->lost and w->what say how many and each worker's state. */
bool watchdog_check(struct watchdog *w, struct ordo_tctx *const *ctx, bool quiet);

#endif
