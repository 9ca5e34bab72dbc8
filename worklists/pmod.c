/*
 * pmod.c - PMOD, adaptive OBIM (Yesil, Heidarshenas, Morrison, Torrellas, "Understanding
 * priority-based scheduling of graph algorithms on a shared-memory platform", SC'19; as
 * in Galois' WL/AdaptiveObim.h).
 *
 * OBIM (obim_core.h) whose bucket shift is not a parameter but adapts during the run. A
 * bucket's key is (priority index k, the shift d in force when it was created); buckets
 * are ordered by k >> max(d1, d2), ties to the smaller d, so buckets made under an old
 * shift stay valid and ordered after a change. That order equals the order of the
 * buckets' ends ((k >> d) + 1) << d, then d, which is how the key is encoded in 64 bits
 * (end << 6 | d; indices at or above 2^57 share the last bucket), so the OBIM machinery
 * runs unchanged.
 *
 * Adaptation (on slow pops): when a thread has made more than `check` pops since the last
 * check (initially chunk) and more than 1/chunk of them were slow (its current bucket ran
 * dry), it gathers every thread's pushes and smallest and largest priority since the last
 * check; if the pushes per bucket in that range fall below chunk/2 it merges buckets:
 * delta += floor(log2(chunk / pushes per bucket)), and `check` doubles. With unmerge=1
 * (off by default, as in Galois) it also splits: after more than 4 x chunk pops from one
 * bucket, if fewer than 16 buckets span the range and each got more than 4 x chunk
 * pushes, delta -= floor(log2(16 / buckets)). A check by any thread starts every
 * thread's window afresh.
 *
 * Galois and the paper let only thread 0 adapt. Here any thread may, one at a time (a
 * try-lock; a thread that finds it taken simply goes on). Measured reason: on a road
 * grid at 2 threads, thread 0 sat idle in backoff at start-up while thread 1 worked
 * through its private push chunks, one task per bucket at shift 0; thread 0's first check
 * came after ~9 ms (65 of its pops against 5,891 of thread 1's), when some 10,000
 * one-distance buckets existed, and the run never recovered (it settled at 6 and ran
 * 1.24x OBIM's best; with any thread adapting it settles at 9: bench/LOG.md, "PMOD:
 * any thread adapts").
 *
 * As upstream Galois (and unlike the SMQ paper's artifact): the indexer is respected
 * (pmod:delta=D pre-shifts priorities, Galois' -delta; the artifact used raw priorities,
 * so its delta axis had no effect), and the period test is right (period=p rescans every
 * 2^p pops; the artifact's precedence bug disabled it). Galois takes a per-thread lock on
 * every push and pop so that the adapting thread can lock all threads to read and reset
 * their counters (the artifact's lock-all loop was inverted: it returned at once when a
 * lock was busy and later released locks it did not own). Here pushes and pops take no
 * lock: each thread's push counter is written by it alone and only grows, and the
 * adapting thread keeps the values it saw last; min and max are swapped out atomically;
 * each thread resets its own pop counters when it sees that a check was made. A push
 * racing with a shift change simply files its task under the shift it read, a key that
 * stays valid.
 *
 * Parameters: delta (indexer pre-shift, default 0), chunk, period, unmerge. Counters:
 * delta (the shift it settled on), merges, unmerges.
 */
#include <stdio.h>

#define OBIM_ADAPTIVE 1
#include "obim_core.h"

enum { P_DELTA, P_CHUNK, P_PERIOD, P_UNMERGE, P_N };
static const char *const offon[] = {"0", "1", NULL};
static const struct ordo_param params[P_N] = {
    {"delta", 0, 0, 56, "indexer: priorities are shifted right by delta before adapting"},
    {"chunk", 64, 2, 1 << 16, "tasks per chunk (also the adaptation's yardstick)"},
    {"period", 0, 0, 30, "rescan for a better bucket every 2^period pops (0: never)"},
    {"unmerge", 0, 0, 1, "also split buckets when too few are in use (Galois: off)", offon},
};

#define MAX_INDEX ((1ull << 57) - 1)

static uint64_t pmod_key(struct ordo_sched_state *w, uint64_t prio)
{
	const uint64_t d = (uint64_t)atomic_load_explicit(&w->cur_delta, memory_order_relaxed);
	uint64_t k = prio >> w->delta;
	if (k > MAX_INDEX)
		k = MAX_INDEX;
	const uint64_t end = ((k >> d) + 1) << d;
	return end << 6 | d;
}

static void pmod_count_push(struct tl *l, const struct ordo_task *t, size_t n)
{
	uint64_t lo = atomic_load_explicit(&l->min_prio, memory_order_relaxed);
	uint64_t hi = atomic_load_explicit(&l->max_prio, memory_order_relaxed);
	uint64_t lo0 = lo, hi0 = hi;
	for (size_t i = 0; i < n; i++) {
		lo = t[i].prio < lo ? t[i].prio : lo;
		hi = t[i].prio > hi ? t[i].prio : hi;
	}
	/* owner-only stores; a reset by the adapting thread racing with them may lose one
	 * batch's figures, which only blurs a statistic */
	if (lo != lo0)
		atomic_store_explicit(&l->min_prio, lo, memory_order_relaxed);
	if (hi != hi0)
		atomic_store_explicit(&l->max_prio, hi, memory_order_relaxed);
	atomic_store_explicit(&l->pushes,
	                      atomic_load_explicit(&l->pushes, memory_order_relaxed) + n,
	                      memory_order_relaxed);
}

/* Pushes since the last check, and the priority range they spanned, over all threads. */
static void gather(struct ordo_sched_state *w, uint64_t *pushes, uint64_t *lo, uint64_t *hi)
{
	*pushes = 0, *lo = UINT64_MAX, *hi = 0;
	for (int t = 0; t < w->T; t++) {
		struct tl *o = &w->tl[t];
		uint64_t p = atomic_load_explicit(&o->pushes, memory_order_relaxed);
		*pushes += p - w->seen_pushes[t];
		w->seen_pushes[t] = p;
		uint64_t a =
		    atomic_exchange_explicit(&o->min_prio, UINT64_MAX, memory_order_relaxed);
		uint64_t b = atomic_exchange_explicit(&o->max_prio, 0, memory_order_relaxed);
		*lo = a < *lo ? a : *lo;
		*hi = b > *hi ? b : *hi;
	}
}

static void pmod_slow_pop(struct ordo_sched_state *w, struct ordo_tctx *ctx, struct tl *l)
{
	l->slow_pops++;
	/* a check by any thread starts every thread's window afresh (Galois resets every
	 * thread's counters under its lock-all); each thread resets its own */
	const uint64_t checks = atomic_load_explicit(&w->adapt_checks, memory_order_relaxed);
	if (l->seen_checks != checks) {
		l->seen_checks = checks;
		l->pops = l->slow_pops = l->same_bucket_pops = 0;
		return;
	}
	if (l->pops <= atomic_load_explicit(&w->check_every, memory_order_relaxed))
		return;
	const bool merge_test = l->slow_pops * w->chunk > l->pops; /* > 1/chunk were slow */
	const bool split_test = w->unmerge && l->same_bucket_pops > 4ull * w->chunk;
	if ((!merge_test && !split_test) || !wl_trylock(&w->adapt))
		return;
	if (atomic_load_explicit(&w->adapt_checks, memory_order_relaxed) != checks) {
		/* another thread checked since we looked: that check was our window's too */
		wl_unlock(&w->adapt);
		return;
	}
	const int d = atomic_load_explicit(&w->cur_delta, memory_order_relaxed);
	uint64_t pushes, lo, hi;
	gather(w, &pushes, &lo, &hi);
	l->pops = l->slow_pops = l->same_bucket_pops = 0;
	l->seen_checks = checks + 1;
	atomic_store_explicit(&w->adapt_checks, checks + 1, memory_order_relaxed);
	int nd = d;
	if (lo <= hi) { /* something was pushed since the last check */
		lo >>= w->delta, hi >>= w->delta;
		const uint64_t buckets = (hi >> d) - (lo >> d) ? (hi >> d) - (lo >> d) : 1;
		const uint64_t per_bucket = pushes / buckets;
		if (merge_test && per_bucket < w->chunk / 2) {
			nd = d + (int)wl_floor_log2(w->chunk / (per_bucket ? per_bucket : 1));
			nd = nd > 56 ? 56 : nd;
			ctx->wl_stat[1] += nd != d;
		} else if (split_test && buckets < 16 && per_bucket > 4ull * w->chunk) {
			nd = d - (int)wl_floor_log2(16 / buckets);
			nd = nd < 0 ? 0 : nd;
			ctx->wl_stat[2] += nd != d;
		}
	}
	if (nd != d) {
		atomic_store_explicit(&w->cur_delta, nd, memory_order_relaxed);
		atomic_store_explicit(
		    &w->check_every,
		    2 * atomic_load_explicit(&w->check_every, memory_order_relaxed),
		    memory_order_relaxed);
		/* the counters are summed over threads: each adapter adds its own changes (an
		 * unmerge wraps around, and the sum still comes out right) */
		ctx->wl_stat[0] += (uint64_t)(int64_t)(nd - d);
	}
	wl_unlock(&w->adapt);
}

static int pmod_create(const struct ordo_scheduler_config *cfg, struct ordo_sched_state **out,
                       struct ordo_err *err)
{
	int rc = core_create(cfg, (int)cfg->params[P_DELTA], (uint32_t)cfg->params[P_CHUNK],
	                     (int)cfg->params[P_PERIOD], out, err);
	if (!rc) {
		(*out)->unmerge = cfg->params[P_UNMERGE] != 0;
		atomic_store(&(*out)->check_every, (*out)->chunk);
	}
	return rc;
}

/* OBIM's bound at the shift it adapted to (its delta counter, stats[0], over the
 * indexer's pre-shift): uniform pushes over the whole range leave few pushes per
 * bucket, so it merges far (this workload is the worst case for its rule) */
static double pmod_rank_bound(const int64_t *p, const uint64_t *stats, double n, double range)
{
	return (double)(1ull << (p[P_DELTA] + stats[0])) * n / range;
}

/* its starting shift: merged buckets only widen what it treats as equal */
static unsigned pmod_grain(const int64_t *p)
{
	return (unsigned)p[P_DELTA];
}

ORDO_SCHEDULER_DEFINE(
    pmod, .name = "pmod", .rank_bound = pmod_rank_bound, .grain = pmod_grain,
    .summary = "PMOD: OBIM whose bucket shift adapts (merges buckets when they run "
               "thin)",
    .params = params, .nparams = P_N, .stat_names = {"delta", "merges", "unmerges"},
    .create = pmod_create, .destroy = core_destroy, .push = core_push, .pop = core_pop,
    .release = core_release);
