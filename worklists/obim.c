/*
 * obim.c - Ordered By Integer Metric, Galois' bucketed scheduler (Nguyen, Lenharth,
 * Pingali, SOSP'13; as in Galois 2.2.1 WL/Obim.h, the SMQ paper's artifact).
 *
 * A task's bucket is prio >> delta. Each bucket is a bag of chunks: every thread fills
 * its own push chunk and drains its own pop chunk; full chunks go to a locked FIFO per
 * NUMA node; a thread that runs dry takes chunks from its node first, then from the
 * others, and finally its own partly filled push chunk.
 *
 * Buckets are created once and never deleted. A global append-only log lists them
 * (creation under one lock, published by a version counter); every thread replays the log
 * lazily into its own sorted map (index -> bag plus the thread's chunks of that bag), so
 * lookups never touch shared state; a 64-slot direct-mapped cache of the buckets a thread
 * pushed to lately sits in front of the map's hash table (with a small delta a
 * relaxation's pushes spread over the few buckets the heaviest arc spans). Each thread
 * works on a current bucket: a push to a smaller index switches to it; when the current
 * bucket is empty, the thread rescans from its scan start (BSP: the smallest index it
 * pushed to since; a node's first thread takes the minimum over all threads, the others
 * the minimum of their own and that leader's). With period = p > 0 a thread also rescans
 * every 2^p pops to catch better buckets that others filled (Galois 6 behaviour). A
 * thread other than the leader that finds nothing from its scan start raises it past
 * every bucket: its next scan starts at the leader's (or at its own next push), and
 * what it passed over that another thread pushed meanwhile is within that pusher's.
 * period = 0 never rescans while its bucket has work: the 2.2.1 code meant to rescan but
 * an operator-precedence bug made the test always false, so period = 0 reproduces what
 * the artifact measured.
 *
 * Parameters: delta (bucket = prio >> delta), chunk (tasks per chunk), period.
 */
#include <stdio.h>

#define OBIM_ADAPTIVE 0
#include "obim_core.h"

enum { P_DELTA, P_CHUNK, P_PERIOD, P_N };
static const struct ordo_param params[P_N] = {
    {"delta", 10, 0, 63, "bucket = priority >> delta (Galois' -delta)"},
    {"chunk", 64, 1, 1 << 16, "tasks per chunk"},
    {"period", 0, 0, 30, "rescan for a better bucket every 2^period pops (0: never)"},
};

static int obim_create(const struct ordo_scheduler_config *cfg, struct ordo_sched_state **out,
                       struct ordo_err *err)
{
	return core_create(cfg, (int)cfg->params[P_DELTA], (uint32_t)cfg->params[P_CHUNK],
	                   (int)cfg->params[P_PERIOD], out, err);
}

/* FIFO inside a bucket of 2^delta keys: n 2^delta / range keys a bucket on average */
static double obim_rank_bound(const int64_t *p, const uint64_t *stats, double n, double range)
{
	(void)stats;
	return (double)(1ull << p[P_DELTA]) * n / range;
}

static unsigned obim_grain(const int64_t *p)
{
	return (unsigned)p[P_DELTA];
}

ORDO_SCHEDULER_DEFINE(
    obim, .name = "obim", .rank_bound = obim_rank_bound, .grain = obim_grain,
    .summary = "Galois OBIM: buckets prio>>delta of chunked FIFOs, lazily replayed "
               "bucket log",
    .params = params, .nparams = P_N, .create = obim_create, .destroy = core_destroy,
    .push = core_push, .pop = core_pop, .release = core_release);
