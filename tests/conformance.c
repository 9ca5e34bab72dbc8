/* conformance.c - scheduler checks shared by test_conformance and stress_main. */
#include "conformance.h"

#include <stdalign.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ordo_rng.h"
#include "ordo_schedulers.h"
#include "ordo_sssp.h"

/* Variants worth checking on their own, beyond every registered scheduler at its
 * defaults (which conf_build adds from the registry, so a new scheduler is covered
 * without touching this file). */
static const char *const extra_specs[] = {
    "smq-sl:steal_size=1,steal_prob=2,numa_k=4",
    "obim:period=4,delta=12",
    "pmod:unmerge=1,chunk=8,period=3",
    "smq:steal_size=1,steal_prob=2",
    "smq:numa_k=8",
    "smq:pq=radix",
    "smq:pq=radix,steal_size=2",
    "smq:pq=bucket",
    "smq:pq=bucket,bq_shift=0,steal_size=2",
    "smq:pq=bucket,guard=on",
    "smq:guard=on,steal_size=2,steal_prob=2",
    "mq:numa_k=8",
    "mq-opt:push=sticky,pop=sticky",
    "mq-opt:push=batch,pop=sticky",
    "mq-opt:push=batch,pop=batch,numa_k=4",
    NULL,
};

static const char *spec_list[64];
const char *const *conf_specs = spec_list;

__attribute__((constructor)) static void conf_build(void)
{
	int n = 0;
	for (int i = 0; i < ordo_scheduler_count() && n < 62; i++)
		spec_list[n++] = ordo_scheduler_at(i)->name;
	for (int i = 0; extra_specs[i] && n < 63; i++)
		spec_list[n++] = extra_specs[i];
	spec_list[n] = NULL;
}

int conf_nspecs(void)
{
	int n = 0;
	while (conf_specs[n])
		n++;
	return n;
}

uint64_t conf_scale(uint64_t n)
{
	const char *s = getenv("ORDO_STRESS_SCALE");
	uint64_t k = s ? strtoull(s, NULL, 10) : 1;
	return n / (k ? k : 1);
}

int conf_max_threads(void)
{
	const char *s = getenv("ORDO_STRESS_MAX_THREADS");
	int t = s ? atoi(s) : 16;
	return t > 0 ? t : 16;
}

struct seen_ctx {
	_Atomic uint32_t *count;
	uint64_t n;
	uint64_t fanout_limit; /* tree mode: task i spawns 2i+1, 2i+2 below this */
	bool chain;            /* chain mode: task i spawns i+1 below n, nothing else */
	/* caterpillar mode: an even task i spawns the leaf i+1 and the next even i+2 (below
	 * n), so one or two tasks are pending at a time, idle workers scan all along, and a
	 * leaf often finishes while the task that pushed it still runs */
	bool caterpillar;
	/* the executor's prefetch pipeline: the last `ahead` each task was shown
	 * (0: none yet, STAGE_RAN: executed), and contract violations seen */
	_Atomic uint8_t *stage;
	unsigned lookahead;
	unsigned max_ahead; /* lookahead / the stages' spacing (prefetch_stages) */
	bool exact;         /* the scheduler refuses the pipeline (strict) */
	_Atomic uint64_t bad_stages;
	/* the batch form (ordo_exec_opts.run_batch, mark_batch): its size, 0 for none, and
	 * batches seen empty or larger */
	unsigned batch;
	_Atomic uint64_t bad_batches;
	bool stall;      /* a running task sleeps 1 ms now and then (a stalled worker) */
	bool stop;       /* one task in 512 sleeps 100-1000 us (conf_stalls) */
	uint64_t preset; /* tasks counted as run before the run (not the executor's) */
};

enum { STAGE_RAN = 255 };

/* A held task is shown ahead = k, k-1, ..., 1 on consecutive calls (k <= lookahead
 * over the stages' spacing), then runs; never again after it ran. */
static void staged(const struct ordo_task *t, unsigned ahead, void *user)
{
	struct seen_ctx *s = user;
	unsigned prev = atomic_load_explicit(&s->stage[t->data], memory_order_relaxed);
	bool ok = ahead >= 1 && ahead <= s->max_ahead &&
	          (prev == 0 ? true : prev != STAGE_RAN && ahead == prev - 1);
	if (!ok)
		atomic_fetch_add_explicit(&s->bad_stages, 1, memory_order_relaxed);
	atomic_store_explicit(&s->stage[t->data], (uint8_t)ahead, memory_order_relaxed);
}

/* 20-bit priorities: a bucketed scheduler with its default delta sees ~1000 buckets
 * (sparse 64-bit priorities would make OBIM scan millions of empty ones). */
static bool mark(struct ordo_tctx *ctx, const struct ordo_task *t, void *user)
{
	struct seen_ctx *s = user;
	uint64_t id = t->data;
	atomic_fetch_add_explicit(&s->count[id], 1, memory_order_relaxed);
	if (s->stage) {
		unsigned prev =
		    atomic_exchange_explicit(&s->stage[id], STAGE_RAN, memory_order_relaxed);
		if (prev > 1) /* ran before its last stage, or twice */
			atomic_fetch_add_explicit(&s->bad_stages, 1, memory_order_relaxed);
	}
	if (s->stall && ordo_rng_below(&ctx->rng, 4096) == 0) {
		struct timespec ms = {0, 1000000};
		nanosleep(&ms, NULL);
	}
	if (s->stop && ordo_rng_below(&ctx->rng, 512) == 0) {
		struct timespec us = {0, 1000L * (100 + (long)ordo_rng_below(&ctx->rng, 901))};
		nanosleep(&us, NULL);
	}
	if (s->caterpillar && !(id & 1))
		for (uint64_t c = id + 1; c <= id + 2 && c < s->n; c++)
			ordo_push(ctx, ordo_rng_next(&ctx->rng) >> 44, c);
	if (s->chain && id + 1 < s->n)
		ordo_push(ctx, ordo_rng_next(&ctx->rng) >> 44, id + 1);
	if (s->fanout_limit)
		for (uint64_t c = 2 * id + 1; c <= 2 * id + 2 && c < s->fanout_limit; c++)
			ordo_push(ctx, ordo_rng_next(&ctx->rng) >> 44, c);
	return true;
}

/* The batch form of mark: each task as mark runs it, in the order given. */
static uint64_t mark_batch(struct ordo_tctx *ctx, const struct ordo_task *t, unsigned k,
                           unsigned spacing, void *user)
{
	(void)spacing; /* mark prefetches nothing */
	struct seen_ctx *s = user;
	if (k == 0 || k > s->batch)
		atomic_fetch_add_explicit(&s->bad_batches, 1, memory_order_relaxed);
	uint64_t useful = 0;
	for (unsigned i = 0; i < k; i++)
		useful += mark(ctx, &t[i], user);
	return useful;
}

/* A batch size for a check that takes the batch form: 1..ORDO_MAX_BATCH from its
 * parameters, so that sizes of 1, a few and a full batch all come up. */
static unsigned batch_for(int T, uint64_t n)
{
	return 1 + (unsigned)(((uint64_t)T * 21 + n) % ORDO_MAX_BATCH);
}

static int check_counts(const struct seen_ctx *s, const struct ordo_run_stats *st, const char *what,
                        char *msg, size_t cap)
{
	uint64_t bad = 0, first = 0;
	for (uint64_t i = 0; i < s->n; i++)
		if (atomic_load(&s->count[i]) != 1 && bad++ == 0)
			first = i;
	if (bad) {
		snprintf(msg, cap, "%s: %llu tasks not executed exactly once (task %llu: %u times)",
		         what, (unsigned long long)bad, (unsigned long long)first,
		         atomic_load(&s->count[first]));
		return -1;
	}
	if (atomic_load(&s->bad_stages)) {
		snprintf(msg, cap, "%s: %llu violations of the prefetch pipeline's stage order",
		         what, (unsigned long long)atomic_load(&s->bad_stages));
		return -1;
	}
	if (atomic_load(&s->bad_batches)) {
		snprintf(msg, cap, "%s: %llu batches empty or over %u tasks", what,
		         (unsigned long long)atomic_load(&s->bad_batches), s->batch);
		return -1;
	}
	if (st->batch != (s->exact ? 0 : s->batch)) {
		snprintf(msg, cap, "%s: executor reports batches of %u, asked for %u", what,
		         st->batch, s->batch);
		return -1;
	}
	if (st->lookahead != s->lookahead && !(s->exact && st->lookahead == 0)) {
		snprintf(msg, cap, "%s: executor reports lookahead %u, asked for %u", what,
		         st->lookahead, s->lookahead);
		return -1;
	}
	if (st->tasks != s->n - s->preset || st->pushes != s->n - s->preset) {
		snprintf(msg, cap, "%s: executor counted %llu tasks and %llu pushes, expected %llu",
		         what, (unsigned long long)st->tasks, (unsigned long long)st->pushes,
		         (unsigned long long)(s->n - s->preset));
		return -1;
	}
	return 0;
}

/* The topology and the scheduler of a check (`what` names it in a failure). */
static int conf_open(const char *spec, int T, int fake_numa, uint64_t seed, const char *what,
                     struct ordo_topology *topo, struct ordo_scheduler *wl, char *msg, size_t cap)
{
	struct ordo_err e = {0};
	if (ordo_topology_init(topo, T, fake_numa, ORDO_BIND_NONE, &e))
		return snprintf(msg, cap, "%s: %s", what, e.msg), -1;
	if (ordo_scheduler_create(spec, NULL, topo, seed, wl, &e)) {
		ordo_topology_free(topo);
		return snprintf(msg, cap, "%s: %s", what, e.msg), -1;
	}
	return 0;
}

/* Runs the marking operator from `init` and checks that every task ran exactly once. */
static int run_counted(const struct ordo_exec_opts *o, const struct ordo_scheduler_ops *ops,
                       struct ordo_sched_state *wl, const struct ordo_task *init, uint64_t ninit,
                       struct seen_ctx *s, struct ordo_run_stats *st, const char *what, char *msg,
                       size_t cap)
{
	struct ordo_err e = {0};
	int rc = ordo_for_each(o, ops, wl, init, ninit, mark, s, st, &e);
	if (rc)
		snprintf(msg, cap, "%s: %s", what, e.msg);
	else
		rc = check_counts(s, st, what, msg, cap);
	return rc;
}

int conf_exactly_once(const char *spec, int T, uint64_t n, bool tree, int fake_numa, char *msg,
                      size_t cap)
{
	struct ordo_topology topo;
	char what[128];
	/* every depth of the executor's prefetch pipeline comes up across thread counts */
	const unsigned la = (unsigned)(T + tree) % (ORDO_MAX_LOOKAHEAD + 1);
	/* and hooks of 0 (every step), 1, 2 or 3 stages spread over it: both modes get
	 * every-step and spaced pipelines across T = 1, 2, 4, 8 */
	const unsigned stages = (unsigned)(T / 2 + tree) % 4;
	const unsigned spacing = stages && la / stages ? la / stages : 1;
	/* and the batch form at half of them (T + tree even), in batches of 1..64 */
	const unsigned batch = (T + tree) % 2 ? 0 : batch_for(T, n);
	snprintf(what, sizeof what,
	         "%s, %d threads%s, %llu tasks%s, lookahead %u, %u stages, batches of %u", spec, T,
	         tree ? ", tree" : "", (unsigned long long)n, fake_numa ? ", fake NUMA" : "", la,
	         stages, batch);
	struct ordo_scheduler wl;
	if (conf_open(spec, T, fake_numa, 7, what, &topo, &wl, msg, cap))
		return -1;
	uint64_t ninit = tree ? 1 : n;
	struct ordo_task *init = malloc(ninit * sizeof *init);
	for (uint64_t i = 0; i < ninit; i++)
		init[i] = (struct ordo_task){.prio = ordo_hash2(3, i) >> 44, .data = i};
	struct seen_ctx s = {.count = calloc(n, sizeof *s.count),
	                     .n = n,
	                     .fanout_limit = tree ? n : 0,
	                     .stage = la ? calloc(n, 1) : NULL,
	                     .lookahead = la,
	                     .max_ahead = la / spacing,
	                     .exact = wl.ops->exact,
	                     .batch = batch};
	struct ordo_run_stats st;
	struct ordo_exec_opts o = {.topo = &topo,
	                           .seed = 11,
	                           .prefetch = la ? staged : NULL,
	                           .lookahead = la ? la : ORDO_LOOKAHEAD_OFF,
	                           .prefetch_stages = stages,
	                           .run_batch = batch ? mark_batch : NULL,
	                           .batch = batch};
	int rc = run_counted(&o, wl.ops, wl.wl, init, ninit, &s, &st, what, msg, cap);
	free(s.count);
	free((void *)s.stage);
	free(init);
	ordo_scheduler_destroy(&wl);
	ordo_topology_free(&topo);
	return rc ? -1 : 0;
}

int conf_stalls(const char *spec, int T, uint64_t n, struct ordo_run_stats *out, char *msg,
                size_t cap)
{
	struct ordo_topology topo;
	char what[128];
	snprintf(what, sizeof what, "%s, %d threads, %llu tasks, workers stopped at random", spec,
	         T, (unsigned long long)n);
	struct ordo_scheduler wl;
	if (conf_open(spec, T, 0, 9, what, &topo, &wl, msg, cap))
		return -1;
	struct ordo_task init = {0, 0};
	struct seen_ctx s = {
	    .count = calloc(n, sizeof *s.count), .n = n, .fanout_limit = n, .stop = true};
	struct ordo_run_stats st;
	struct ordo_exec_opts o = {
	    .topo = &topo, .seed = 13, .lookahead = ORDO_LOOKAHEAD_OFF, .seats = ORDO_SEATS_ALL};
	int rc = run_counted(&o, wl.ops, wl.wl, &init, 1, &s, &st, what, msg, cap);
	if (out)
		*out = st;
	free(s.count);
	ordo_scheduler_destroy(&wl);
	ordo_topology_free(&topo);
	return rc ? -1 : 0;
}

/* ---- tasks' own loops (ordo_task_loop) ---- */
enum { LOOP_EVERY = 16, LOOP_ITEMS = 40 };

struct loops_ctx {
	_Atomic uint32_t *count; /* per task */
	_Atomic uint32_t *item;  /* per loop (task / LOOP_EVERY) and item */
	uint64_t n;
	int T;
	_Atomic uint64_t helped, bad_tid, early;
	struct loop_arg *args; /* per loop: kept for the whole run, so that an item a helper
	                        * runs after its loop returned (a broken loop) is counted,
	                        * not a read of a dead stack frame */
};

struct loop_arg {
	struct loops_ctx *s;
	uint64_t loop;
	unsigned opener;
};

static void loop_item(void *arg, uint32_t i, unsigned tid)
{
	const struct loop_arg *a = arg;
	atomic_fetch_add_explicit(&a->s->item[a->loop * LOOP_ITEMS + i], 1, memory_order_relaxed);
	if (tid >= (unsigned)a->s->T)
		atomic_fetch_add(&a->s->bad_tid, 1);
	if (tid != a->opener)
		atomic_fetch_add_explicit(&a->s->helped, 1, memory_order_relaxed);
	if (ordo_hash2(a->loop, i) % 16 == 0) { /* a slow item now and then: helpers join */
		struct timespec us = {0, 20000};
		nanosleep(&us, NULL);
	}
}

/* A tree of tasks; every LOOP_EVERY-th opens a loop of 2..LOOP_ITEMS items, and other
 * tasks help whatever loop is open, as a task waiting for a lock would. */
static bool loop_task(struct ordo_tctx *ctx, const struct ordo_task *t, void *user)
{
	struct loops_ctx *s = user;
	const uint64_t id = t->data;
	atomic_fetch_add_explicit(&s->count[id], 1, memory_order_relaxed);
	if (id % LOOP_EVERY == 0) {
		const uint64_t l = id / LOOP_EVERY;
		struct loop_arg *a = &s->args[l];
		*a = (struct loop_arg){s, l, ctx->tid};
		const uint32_t k = 2 + (uint32_t)(ordo_hash2(5, id) % (LOOP_ITEMS - 1));
		ordo_task_loop(ctx, loop_item, a, k);
		/* returned: every item has run (a helper's too) */
		for (uint32_t i = 0; i < k; i++)
			if (atomic_load_explicit(&s->item[l * LOOP_ITEMS + i],
			                         memory_order_acquire) != 1)
				atomic_fetch_add(&s->early, 1);
	} else if (id % LOOP_EVERY == 5) {
		ordo_task_loop_help(ctx);
	}
	for (uint64_t c = 2 * id + 1; c <= 2 * id + 2 && c < s->n; c++)
		ordo_push(ctx, ordo_rng_next(&ctx->rng) >> 44, c);
	return true;
}

int conf_loops(const char *spec, int T, uint64_t n, char *msg, size_t cap)
{
	struct ordo_err e = {0};
	struct ordo_topology topo;
	char what[128];
	snprintf(what, sizeof what, "%s, %d threads, %llu tasks opening loops", spec, T,
	         (unsigned long long)n);
	struct ordo_scheduler wl;
	if (conf_open(spec, T, 0, 9, what, &topo, &wl, msg, cap))
		return -1;
	const uint64_t loops = (n + LOOP_EVERY - 1) / LOOP_EVERY;
	struct loops_ctx s = {.count = calloc(n, sizeof *s.count),
	                      .item = calloc(loops * LOOP_ITEMS, sizeof *s.item),
	                      .n = n,
	                      .T = T,
	                      .args = calloc(loops, sizeof *s.args)};
	const struct ordo_task root = {0, 0};
	struct ordo_exec_opts o = {.topo = &topo, .seed = 13};
	struct ordo_run_stats st;
	int rc = ordo_for_each(&o, wl.ops, wl.wl, &root, 1, loop_task, &s, &st, &e);
	if (rc)
		snprintf(msg, cap, "%s: %s", what, e.msg);
	for (uint64_t i = 0; !rc && i < n; i++)
		if (atomic_load(&s.count[i]) != 1)
			rc = snprintf(msg, cap, "%s: task %llu ran %u times", what,
			              (unsigned long long)i, atomic_load(&s.count[i]));
	for (uint64_t l = 0; !rc && l < loops; l++) {
		const uint32_t k = 2 + (uint32_t)(ordo_hash2(5, l * LOOP_EVERY) % (LOOP_ITEMS - 1));
		for (uint32_t i = 0; !rc && i < LOOP_ITEMS; i++) {
			const uint32_t got = atomic_load(&s.item[l * LOOP_ITEMS + i]);
			if (got != (i < k))
				rc = snprintf(msg, cap,
				              "%s: item %u of loop %llu (of %u items) ran %u times",
				              what, i, (unsigned long long)l, k, got);
		}
	}
	if (!rc && atomic_load(&s.early))
		rc = snprintf(msg, cap, "%s: %llu items had not run when their loop returned", what,
		              (unsigned long long)atomic_load(&s.early));
	if (!rc && atomic_load(&s.bad_tid))
		rc = snprintf(msg, cap, "%s: an item ran with a thread id past %d", what, T - 1);
	free(s.count);
	free(s.item);
	free(s.args);
	ordo_scheduler_destroy(&wl);
	ordo_topology_free(&topo);
	return rc ? -1 : 0;
}

/* ---- a wrapper that makes a scheduler misbehave as much as the contract allows ---- */
struct flaky_tl {
	alignas(64) struct ordo_task held[64];
	int nheld;
	uint64_t held_total; /* batches kept private (the test requires some) */
	struct ordo_rng rng;
};

struct flaky {
	struct ordo_scheduler_ops ops; /* first: the executor sees a struct ordo_scheduler_ops */
	const struct ordo_scheduler_ops *inner;
	struct ordo_sched_state *wl;
	struct flaky_tl *tl;
};

/* The executor passes the wl pointer through; ours is the struct flaky. */
static void flaky_init(struct ordo_sched_state *w, struct ordo_tctx *ctx)
{
	struct flaky *f = (struct flaky *)w;
	ordo_rng_seed(&f->tl[ctx->tid].rng, 99, ctx->tid);
	if (f->inner->thread_init)
		f->inner->thread_init(f->wl, ctx);
}

static void flaky_fini(struct ordo_sched_state *w, struct ordo_tctx *ctx)
{
	struct flaky *f = (struct flaky *)w;
	if (f->inner->thread_fini)
		f->inner->thread_fini(f->wl, ctx);
}

static void flaky_push(struct ordo_sched_state *w, struct ordo_tctx *ctx, const struct ordo_task *t,
                       size_t n)
{
	struct flaky *f = (struct flaky *)w;
	struct flaky_tl *l = &f->tl[ctx->tid];
	/* with probability 1/4 a batch (of any size) is kept private, up to what fits:
	 * only this thread will pop those tasks, so termination must wait for them */
	if ((ordo_rng_next(&l->rng) & 3) == 0) {
		while (n && l->nheld < 64) {
			l->held[l->nheld++] = t[0];
			t++, n--;
		}
		l->held_total++;
	}
	if (n)
		f->inner->push(f->wl, ctx, t, n);
}

static bool flaky_pop(struct ordo_sched_state *w, struct ordo_tctx *ctx, struct ordo_task *out)
{
	struct flaky *f = (struct flaky *)w;
	struct flaky_tl *l = &f->tl[ctx->tid];
	if (ordo_rng_next(&l->rng) & 1)
		return false; /* spurious failure */
	if (l->nheld && (ordo_rng_next(&l->rng) & 1)) {
		*out = l->held[--l->nheld];
		return true;
	}
	if (f->inner->pop(f->wl, ctx, out))
		return true;
	if (l->nheld) {
		*out = l->held[--l->nheld];
		return true;
	}
	return false;
}

static void flaky_flush(struct ordo_sched_state *w, struct ordo_tctx *ctx)
{
	struct flaky *f = (struct flaky *)w;
	if (f->inner->flush)
		f->inner->flush(f->wl, ctx);
}

/* Parking: the privately held tasks first, then the inner scheduler's. */
static void flaky_release(struct ordo_sched_state *w, struct ordo_tctx *ctx,
                          struct ordo_handoff *out)
{
	struct flaky *f = (struct flaky *)w;
	struct flaky_tl *l = &f->tl[ctx->tid];
	if (ordo_handoff_put(out, l->held, l->nheld))
		l->nheld = 0;
	f->inner->release(f->wl, ctx, out);
}

/* How a flaky run's workers take seats: all run; `seats` of them, parking and coming
 * back at random points (1 in 32 check points) while tasks stall their worker now and
 * then; or `seats` of them fixed, the others parked from the start with their slice of
 * the initial tasks handed over (every worker gets a slice). */
enum seating { SEAT_ALL, SEAT_SHUFFLE, SEAT_FIXED };

/* The shapes of a flaky run's tasks: a tree, a chain, a caterpillar (see seen_ctx). */
enum shape { SHAPE_TREE, SHAPE_CHAIN, SHAPE_CATERPILLAR };

/* The flaky wrapper over n tasks of one shape. */
static int flaky_run(const char *spec, int T, uint64_t n, int shape, int seats, enum seating how,
                     const struct ordo_sim *sim, char *msg, size_t cap)
{
	const bool chain = shape != SHAPE_TREE; /* one or two tasks pending at a time */
	struct ordo_topology topo;
	char what[160];
	snprintf(what, sizeof what, "%s wrapped to fail spuriously, %d threads%s%s", spec, T,
	         shape == SHAPE_CHAIN         ? ", a chain"
	         : shape == SHAPE_CATERPILLAR ? ", a caterpillar"
	                                      : "",
	         how == SEAT_SHUFFLE ? ", parking at random"
	         : how == SEAT_FIXED ? ", parked from the start"
	                             : "");
	if (seats)
		snprintf(what + strlen(what), sizeof what - strlen(what), " with %d seats", seats);
	if (sim) {
		char desc[96];
		ordo_sim_describe(sim, T, desc, sizeof desc);
		snprintf(what + strlen(what), sizeof what - strlen(what), ", --sim %s", desc);
	}
	/* the batch form for a caterpillar and for a tree whose workers park at random */
	const unsigned batch =
	    shape == SHAPE_CATERPILLAR || (how == SEAT_SHUFFLE && !chain) ? batch_for(T, n) : 0;
	if (batch)
		snprintf(what + strlen(what), sizeof what - strlen(what), ", batches of %u", batch);
	struct ordo_scheduler wl;
	if (conf_open(spec, T, 0, 5, what, &topo, &wl, msg, cap))
		return -1;
	struct flaky f = {.ops = *wl.ops, .inner = wl.ops, .wl = wl.wl};
	f.ops.thread_init = flaky_init;
	f.ops.thread_fini = flaky_fini;
	f.ops.push = flaky_push;
	f.ops.pop = flaky_pop;
	f.ops.flush = flaky_flush;
	f.ops.release = wl.ops->release ? flaky_release : NULL;
	f.tl = ordo_calloc_aligned((size_t)T, sizeof *f.tl);
	struct seen_ctx s = {.count = calloc(n, sizeof *s.count),
	                     .n = n,
	                     .fanout_limit = chain ? 0 : n,
	                     .chain = shape == SHAPE_CHAIN,
	                     .caterpillar = shape == SHAPE_CATERPILLAR,
	                     .stall = how == SEAT_SHUFFLE,
	                     .exact = wl.ops->exact,
	                     .batch = sim ? 0 : batch};
	/* one root; or (SEAT_FIXED, a tree) the first level of the tree with at least T
	 * nodes, disjoint subtrees, so that each worker's slice holds one, the levels above
	 * counted as run */
	struct ordo_task init[64] = {{0, 0}};
	uint64_t ninit = 1;
	if (how == SEAT_FIXED && !chain) {
		while (ninit < (uint64_t)T && 4 * ninit - 1 < n && 2 * ninit <= 64)
			ninit *= 2;
		for (uint64_t i = 0; i < ninit; i++)
			init[i] = (struct ordo_task){.prio = i, .data = ninit - 1 + i};
		for (uint64_t i = 0; i + 1 < ninit; i++)
			atomic_store(&s.count[i], 1);
		s.preset = ninit - 1;
	}
	struct ordo_run_stats st;
	struct ordo_exec_opts o = {.topo = &topo,
	                           .seed = 3,
	                           .seats = how == SEAT_ALL ? 0 : seats,
	                           .seat_shuffle = how == SEAT_SHUFFLE ? 32 : 0,
	                           .sim = sim,
	                           .run_batch = batch ? mark_batch : NULL,
	                           .batch = batch};
	int rc = run_counted(&o, &f.ops, (struct ordo_sched_state *)&f, init, ninit, &s, &st, what,
	                     msg, cap);
	if (!rc && st.failed_pops == 0) {
		snprintf(msg, cap, "%s: no pop failed", what);
		rc = -1;
	}
	uint64_t held = 0;
	for (int t = 0; t < T; t++)
		held += f.tl[t].held_total;
	if (!rc && n >= 1000 && held == 0 && !chain) {
		snprintf(msg, cap, "%s: no batch was kept private", what);
		rc = -1;
	}
	/* a scheduler with a release hook must have parked workers and handed tasks over;
	 * one without runs every worker (st.seats_start == T) */
	if (!rc && how == SEAT_SHUFFLE && wl.ops->release &&
	    (st.seats_start != seats || st.parks == 0 || (n >= 1000 && st.handed_over == 0))) {
		snprintf(msg, cap, "%s: %d seats reported, %llu parks, %llu tasks handed over",
		         what, st.seats_start, (unsigned long long)st.parks,
		         (unsigned long long)st.handed_over);
		rc = -1;
	}
	if (!rc && how != SEAT_ALL && !wl.ops->release && st.seats_start != T) {
		snprintf(msg, cap, "%s: no release hook, yet %d seats", what, st.seats_start);
		rc = -1;
	}
	free(s.count);
	free(f.tl);
	ordo_scheduler_destroy(&wl);
	ordo_topology_free(&topo);
	return rc ? -1 : 0;
}

int conf_spurious(const char *spec, int T, uint64_t n, char *msg, size_t cap)
{
	return flaky_run(spec, T, n, false, 0, SEAT_ALL, NULL, msg, cap);
}

int conf_chain(const char *spec, int T, uint64_t n, char *msg, size_t cap)
{
	return flaky_run(spec, T, n, true, 0, SEAT_ALL, NULL, msg, cap);
}

int conf_caterpillar(const char *spec, int T, uint64_t n, char *msg, size_t cap)
{
	return flaky_run(spec, T, n, SHAPE_CATERPILLAR, 0, SEAT_ALL, NULL, msg, cap);
}

int conf_parking(const char *spec, int T, uint64_t n, int seats, bool chain, char *msg, size_t cap)
{
	return flaky_run(spec, T, n, chain, seats, SEAT_SHUFFLE, NULL, msg, cap);
}

int conf_simulated(const char *spec, int P, uint64_t n, const struct ordo_sim *sim, char *msg,
                   size_t cap)
{
	char desc[96], what[192];
	ordo_sim_describe(sim, P, desc, sizeof desc);
	snprintf(what, sizeof what, "%s, --sim %s, tree of %llu tasks", spec, desc,
	         (unsigned long long)n);
	struct ordo_topology topo;
	struct ordo_scheduler wl;
	if (conf_open(spec, P, 0, 7, what, &topo, &wl, msg, cap))
		return -1;
	struct ordo_task root = {0, 0};
	struct seen_ctx s = {.count = calloc(n, sizeof *s.count), .n = n, .fanout_limit = n};
	struct ordo_run_stats st;
	struct ordo_exec_opts o = {
	    .topo = &topo, .seed = 11, .lookahead = ORDO_LOOKAHEAD_OFF, .sim = sim};
	int rc = run_counted(&o, wl.ops, wl.wl, &root, 1, &s, &st, what, msg, cap);
	/* 20-bit priorities: every pop is ranked and matched to its push (delayed) */
	if (!rc && (st.sim.workers != P || st.sim.pops != st.tasks || !st.sim.delayed ||
	            st.sim.unmatched)) {
		snprintf(msg, cap,
		         "%s: %d workers reported, %llu pops of %llu tasks, pops %s matched to "
		         "pushes, %llu unmatched",
		         what, st.sim.workers, (unsigned long long)st.sim.pops,
		         (unsigned long long)st.tasks, st.sim.delayed ? "were" : "were not",
		         (unsigned long long)st.sim.unmatched);
		rc = -1;
	}
	free(s.count);
	ordo_scheduler_destroy(&wl);
	ordo_topology_free(&topo);
	if (rc)
		return -1;
	/* the flaky wrapper: spurious failures and privately held batches, a tree, a chain */
	if (flaky_run(spec, P, n, SHAPE_TREE, 0, SEAT_ALL, sim, msg, cap) ||
	    flaky_run(spec, P, n / 20 + 2, SHAPE_CHAIN, 0, SEAT_ALL, sim, msg, cap))
		return -1;
	return 0;
}

int conf_sssp(const char *spec, int T, char *msg, size_t cap)
{
	const char *specs[] = {"road:W=120,H=100,seed=4", "rmat:scale=11,ef=8"};
	for (int k = 0; k < 2; k++) {
		struct ordo_err e = {0};
		struct ordo_graph *g;
		if (ordo_generate(specs[k], 1, &g, NULL, 0, &e))
			return snprintf(msg, cap, "%s", e.msg), -1;
		uint64_t *ref = malloc(g->n * sizeof *ref), settled;
		_Atomic uint64_t *dist = malloc(g->n * sizeof *dist);
		uint32_t src = ordo_graph_pick_source(g, 1, 0);
		int rc = ordo_dijkstra(g, src, ref, &settled, &e);
		struct ordo_topology topo;
		struct ordo_scheduler wl = {0};
		if (!rc)
			rc = ordo_topology_init(&topo, T, 0, ORDO_BIND_NONE, &e);
		if (!rc && (rc = ordo_scheduler_create(spec, NULL, &topo, 1, &wl, &e)))
			ordo_topology_free(&topo);
		if (!rc) {
			struct ordo_exec_opts o = {.topo = &topo, .seed = 1};
			struct ordo_run_stats st;
			rc = ordo_sssp(g, src, &wl, &o, dist, &st, &e);
			struct ordo_check c;
			if (!rc) {
				ordo_sssp_check(g, dist, ref, &c);
				if (!c.pass) {
					snprintf(e.msg, sizeof e.msg,
					         "%llu wrong distances (first: %s)",
					         (unsigned long long)c.mismatches, c.first);
					rc = -1;
				}
			}
			ordo_scheduler_destroy(&wl);
			ordo_topology_free(&topo);
		}
		if (rc)
			snprintf(msg, cap, "sssp on %s with %s, %d threads: %s", specs[k], spec, T,
			         e.msg);
		free(ref);
		free((void *)dist);
		ordo_graph_free(g);
		if (rc)
			return -1;
	}
	return 0;
}

/* Every parameter of `ops` at both ends of its declared range (the others at their
 * defaults; a choice by its name), each run by T workers on `seats` seats: a tree of n
 * tasks with the seats fixed (the others park at the start, holding their slice of the
 * roots), the same tree parking at random, then a chain. A task left where only a parked worker
 * could reach it ends the run by the executor's watchdog (an error naming the lost count), so an
 * edge that strands tasks fails here by an assertion, not by a hang. */
int conf_edges(const struct ordo_scheduler_ops *ops, int T, int seats, uint64_t n, char *msg,
               size_t cap)
{
	for (int i = 0; i < ops->nparams; i++) {
		const struct ordo_param *p = &ops->params[i];
		const int64_t ends[2] = {p->lo, p->hi};
		for (int e = 0; e < 2 - (p->lo == p->hi); e++) {
			char spec[160];
			if (p->choices)
				snprintf(spec, sizeof spec, "%s:%s=%s", ops->name, p->name,
				         p->choices[ends[e]]);
			else
				snprintf(spec, sizeof spec, "%s:%s=%lld", ops->name, p->name,
				         (long long)ends[e]);
			if (flaky_run(spec, T, n, false, seats, SEAT_FIXED, NULL, msg, cap) ||
			    flaky_run(spec, T, n, false, seats, SEAT_SHUFFLE, NULL, msg, cap) ||
			    flaky_run(spec, T, n / 10, true, 1, SEAT_SHUFFLE, NULL, msg, cap))
				return -1;
		}
	}
	return 0;
}

/* The lossy wrapper: push forwards every task but the `drop`-th one pushed in the run. */
struct lossy {
	struct ordo_scheduler_ops ops; /* first: the executor sees a struct ordo_scheduler_ops */
	const struct ordo_scheduler_ops *inner;
	struct ordo_sched_state *wl;
	uint64_t drop;
	_Atomic uint64_t seen; /* tasks pushed so far, by everyone */
};

static void lossy_push(struct ordo_sched_state *w, struct ordo_tctx *ctx, const struct ordo_task *t,
                       size_t n)
{
	struct lossy *f = (struct lossy *)w;
	const uint64_t seen = atomic_fetch_add_explicit(&f->seen, n, memory_order_relaxed);
	if (seen <= f->drop && seen + n > f->drop) {
		const size_t k = (size_t)(f->drop - seen);
		if (k)
			f->inner->push(f->wl, ctx, t, k);
		if (n > k + 1)
			f->inner->push(f->wl, ctx, t + k + 1, n - k - 1);
	} else {
		f->inner->push(f->wl, ctx, t, n);
	}
}

static bool lossy_pop(struct ordo_sched_state *w, struct ordo_tctx *ctx, struct ordo_task *out)
{
	struct lossy *f = (struct lossy *)w;
	return f->inner->pop(f->wl, ctx, out);
}

static void lossy_flush(struct ordo_sched_state *w, struct ordo_tctx *ctx)
{
	struct lossy *f = (struct lossy *)w;
	if (f->inner->flush)
		f->inner->flush(f->wl, ctx);
}

static void lossy_release(struct ordo_sched_state *w, struct ordo_tctx *ctx,
                          struct ordo_handoff *out)
{
	struct lossy *f = (struct lossy *)w;
	f->inner->release(f->wl, ctx, out);
}

static void lossy_init(struct ordo_sched_state *w, struct ordo_tctx *ctx)
{
	struct lossy *f = (struct lossy *)w;
	if (f->inner->thread_init)
		f->inner->thread_init(f->wl, ctx);
}

static void lossy_fini(struct ordo_sched_state *w, struct ordo_tctx *ctx)
{
	struct lossy *f = (struct lossy *)w;
	if (f->inner->thread_fini)
		f->inner->thread_fini(f->wl, ctx);
}

int conf_lost(const char *spec, int T, int seats, char *msg, size_t cap)
{
	struct ordo_topology topo;
	char what[160];
	snprintf(what, sizeof what, "%s dropping one pushed task, %d threads, %d seats", spec, T,
	         seats);
	struct ordo_scheduler wl;
	if (conf_open(spec, T, 0, 9, what, &topo, &wl, msg, cap))
		return -1;
	struct lossy f = {.ops = *wl.ops, .inner = wl.ops, .wl = wl.wl, .drop = 100};
	f.ops.thread_init = lossy_init;
	f.ops.thread_fini = lossy_fini;
	f.ops.push = lossy_push;
	f.ops.pop = lossy_pop;
	f.ops.flush = lossy_flush;
	f.ops.release = wl.ops->release ? lossy_release : NULL;
	const uint64_t n = 4000;
	struct ordo_task init = {0, 0};
	struct seen_ctx s = {.count = calloc(n, sizeof *s.count), .n = n, .fanout_limit = n};
	struct ordo_exec_opts o = {.topo = &topo, .seed = 3, .seats = seats};
	struct ordo_err e = {0};
	int rc =
	    ordo_for_each(&o, &f.ops, (struct ordo_sched_state *)&f, &init, 1, mark, &s, NULL, &e);
	snprintf(msg, cap, "%s: %s", what, rc ? e.msg : "the run ended without an error");
	free(s.count);
	ordo_scheduler_destroy(&wl);
	ordo_topology_free(&topo);
	return rc;
}
