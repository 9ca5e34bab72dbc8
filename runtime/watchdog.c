/* watchdog.c - a run that lost tasks ends with an error (the argument: watchdog.h). */
#include "watchdog.h"

#include <stdio.h>
#include <stdlib.h>

#include "ordo_util.h"

bool watchdog_init(struct watchdog *w, int T)
{
	*w = (struct watchdog){.T = T};
	w->idle0 = calloc((size_t)T, sizeof *w->idle0);
	return w->idle0 != NULL;
}

void watchdog_fini(struct watchdog *w)
{
	free(w->idle0);
	w->idle0 = NULL;
}

/* The sums and whether every worker is idle or parked (idle[] filled). */
static bool all_idle(struct ordo_tctx *const *ctx, int T, uint64_t *idle, uint64_t *done,
                     uint64_t *pushed)
{
	bool all = true;
	*done = *pushed = 0;
	for (int t = 0; t < T; t++) {
		idle[t] = atomic_load_explicit(&ctx[t]->pub_idle, memory_order_relaxed);
		all &= idle[t] != 0;
		*done += atomic_load_explicit(&ctx[t]->pub_done, memory_order_relaxed);
		*pushed += atomic_load_explicit(&ctx[t]->pub_pushed, memory_order_relaxed);
	}
	return all;
}

/* The verdict's words: how many are lost, and who was doing what. */
static void describe(struct watchdog *w, const uint64_t *idle)
{
	int parked = 0, n = 0;
	for (int t = 0; t < w->T; t++)
		parked += idle[t] == WATCHDOG_PARKED;
	n = snprintf(w->what, sizeof w->what,
	             "%llu pushed tasks were never run (done %llu of %llu); for %.1f s all %d "
	             "workers were idle (%d parked, %d failing every pop):",
	             (unsigned long long)w->lost, (unsigned long long)w->done,
	             (unsigned long long)w->pushed, WATCHDOG_AFTER, w->T, parked, w->T - parked);
	for (int t = 0; t < w->T && n > 0 && (size_t)n < sizeof w->what; t++)
		n += snprintf(w->what + n, sizeof w->what - (size_t)n, " w%d:%s", t,
		              idle[t] == WATCHDOG_PARKED ? "parked" : "idle");
}

bool watchdog_check(struct watchdog *w, struct ordo_tctx *const *ctx, bool quiet)
{
	if (!w->idle0 || atomic_exchange_explicit(&w->busy, true, memory_order_acquire))
		return false;
	uint64_t idle[w->T], done = 0, pushed = 0;
	bool verdict = false;
	const bool stuck = quiet && all_idle(ctx, w->T, idle, &done, &pushed) && done < pushed;
	if (!stuck || !w->armed || done != w->done || pushed != w->pushed) {
		/* (re)open the window, or close it */
		w->armed = stuck;
		w->since = ordo_now();
		w->done = done, w->pushed = pushed;
		for (int t = 0; stuck && t < w->T; t++)
			w->idle0[t] = idle[t];
	} else if (ordo_now() - w->since >= WATCHDOG_AFTER) {
		verdict = true;
		for (int t = 0; verdict && t < w->T; t++)
			verdict =
			    idle[t] == WATCHDOG_PARKED || (w->idle0[t] != WATCHDOG_PARKED &&
			                                   idle[t] >= w->idle0[t] + WATCHDOG_POPS);
		if (verdict) {
			w->lost = pushed - done;
			describe(w, idle);
		} else {
			w->armed = false; /* someone parked or came back meanwhile: look again */
		}
	}
	/* release: the window's fields are read by the next checker */
	atomic_store_explicit(&w->busy, false, memory_order_release);
	return verdict;
}
