/*
 * monotonic - scheduler micro-benchmark, the "monotonic" workload of the relaxed
 * priority queue literature: every thread first pushes 2^20 random keys (from its own
 * context, so owner-based schedulers hold them locally), then repeats pop + push(key +
 * U[0, 2^20)) for a fixed time. Reports pop+push pairs per second (all threads together)
 * and failed pops. No graph, no operator: the scheduler alone.
 *
 *   monotonic [-t THREADS] [-s SECONDS] [-k LOG2_PREFILL] [--wl SPEC]... [--format csv]
 * Without --wl it measures every registered scheduler at its defaults.
 *
 * Scheduler quality (--rank OPS): every thread logs its operations (prefill included)
 * with a timestamp; the run stops for all when one log holds OPS (or at --seconds), so
 * the log holds every operation of the run, and the merged log is
 * replayed in timestamp order against an exact order-statistics structure (Fenwick
 * trees over the keys): the rank error of a pop is the number of keys present that are
 * smaller, its delay the number of pops of larger keys while it waited. A push is
 * stamped when it returns, a pop when it is called, so the replay never counts a key
 * that was not surely there; with several threads the stamps only approximate the real
 * order, which `strict` (exact) shows as the noise floor. --log FILE keeps the log;
 * --replay FILE replays a kept (or hand-made) log: "ORDOLOG1", u64 records, then
 * records of (u64 ns, u64 key | 1<<63 for a pop), any order.
 */
#include <getopt.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <omp.h>

#include "ordo_schedulers.h"
#include "ordo_util.h"

struct result {
	double seconds, pairs_per_s;
	uint64_t pairs, failed;
};

/* ---- the operation log and its replay ---- */
#define POP_BIT (1ull << 63)

struct logrec {
	uint64_t t, key; /* key | POP_BIT for a pop */
};

struct quality {
	uint64_t pops, rank_max, delay_max;
	double rank_mean, delay_mean;
};

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int cmp_rec(const void *a, const void *b)
{
	const struct logrec *x = a, *y = b;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	/* a push and a pop with the same stamp: the push first */
	return (x->key >> 63) < (y->key >> 63) ? -1 : (x->key >> 63) > (y->key >> 63);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static void fw_add(int64_t *f, size_t n, size_t i, int64_t v)
{
	for (i++; i <= n; i += i & (0 - i))
		f[i] += v;
}

static int64_t fw_sum(const int64_t *f, size_t i) /* entries [0, i) */
{
	int64_t s = 0;
	for (; i; i -= i & (0 - i))
		s += f[i];
	return s;
}

/* Replays n records (sorted here). Pops of keys never pushed are ignored. */
static int replay(struct logrec *r, size_t n, struct quality *q)
{
	memset(q, 0, sizeof *q);
	qsort(r, n, sizeof *r, cmp_rec);
	uint64_t *keys = malloc((n + 1) * sizeof *keys);
	size_t nk = 0;
	if (!keys)
		return 3;
	for (size_t i = 0; i < n; i++)
		keys[nk++] = r[i].key & ~POP_BIT;
	qsort(keys, nk, sizeof *keys, cmp_u64);
	size_t u = 0;
	for (size_t i = 0; i < nk; i++)
		if (!u || keys[i] != keys[u - 1])
			keys[u++] = keys[i];
	/* present: keys pushed and not popped; popped: pops so far by key; for every
	 * present key instance, the pops of larger keys when it was pushed (a FIFO per
	 * distinct key, kept as one array of slots in push order) */
	int64_t *present = calloc(u + 1, sizeof *present), *popped = calloc(u + 1, sizeof *popped);
	uint64_t *mark = malloc((n + 1) * sizeof *mark);
	size_t *head = calloc(u + 1, sizeof *head), *next = malloc((n + 1) * sizeof *next),
	       *tail = calloc(u + 1, sizeof *tail);
	int rc = 0;
	if (!present || !popped || !mark || !head || !next || !tail) {
		rc = 3;
		goto out;
	}
	uint64_t pops = 0;
	double rsum = 0, dsum = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t k = r[i].key & ~POP_BIT;
		size_t lo = 0, hi = u; /* index of k */
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (keys[mid] < k)
				lo = mid + 1;
			else
				hi = mid;
		}
		const int64_t larger_popped = (int64_t)pops - fw_sum(popped, lo + 1);
		if (!(r[i].key & POP_BIT)) {
			fw_add(present, u, lo, 1);
			mark[i] = (uint64_t)larger_popped; /* queued under key lo */
			next[i] = SIZE_MAX;
			if (head[lo])
				next[tail[lo] - 1] = i;
			else
				head[lo] = i + 1;
			tail[lo] = i + 1;
			continue;
		}
		if (!head[lo])
			continue; /* a key the log never saw pushed */
		size_t at = head[lo] - 1;
		head[lo] = next[at] == SIZE_MAX ? 0 : next[at] + 1;
		uint64_t rank = (uint64_t)fw_sum(present, lo);
		uint64_t delay = (uint64_t)(larger_popped - (int64_t)mark[at]);
		fw_add(present, u, lo, -1);
		fw_add(popped, u, lo, 1);
		pops++;
		rsum += (double)rank;
		dsum += (double)delay;
		q->rank_max = rank > q->rank_max ? rank : q->rank_max;
		q->delay_max = delay > q->delay_max ? delay : q->delay_max;
	}
	q->pops = pops;
	q->rank_mean = pops ? rsum / (double)pops : 0;
	q->delay_mean = pops ? dsum / (double)pops : 0;
out:
	free(keys);
	free(present);
	free(popped);
	free(mark);
	free(head);
	free(next);
	free(tail);
	return rc;
}

static int write_log(const char *path, const struct logrec *r, size_t n)
{
	FILE *f = fopen(path, "wb");
	uint64_t cnt = n;
	if (!f || fwrite("ORDOLOG1", 1, 8, f) != 8 || fwrite(&cnt, 8, 1, f) != 1 ||
	    fwrite(r, sizeof *r, n, f) != n || fclose(f)) {
		fprintf(stderr, "monotonic: cannot write %s\n", path);
		return 3;
	}
	return 0;
}

static int replay_file(const char *path, struct quality *q)
{
	FILE *f = fopen(path, "rb");
	char magic[8];
	uint64_t n;
	if (!f || fread(magic, 1, 8, f) != 8 || memcmp(magic, "ORDOLOG1", 8) ||
	    fread(&n, 8, 1, f) != 1 || n > (1ull << 32)) {
		fprintf(stderr, "monotonic: %s: not an ordo operation log\n", path);
		if (f)
			fclose(f);
		return 2;
	}
	struct logrec *r = malloc((n + 1) * sizeof *r);
	if (!r || fread(r, sizeof *r, n, f) != n) {
		fprintf(stderr, "monotonic: %s: truncated (%llu records promised)\n", path,
		        (unsigned long long)n);
		free(r);
		fclose(f);
		return 2;
	}
	fclose(f);
	int rc = replay(r, n, q);
	free(r);
	return rc;
}

/* The threads' logs (freed) into one, written to logpath when given, and replayed
 * into q; 0 or an exit status. */
static int merge_logs(struct logrec **logs, size_t *nlog, int T, const char *logpath,
                      struct quality *q)
{
	size_t total = 0, at = 0;
	for (int t = 0; t < T; t++)
		total += nlog[t];
	struct logrec *all = malloc((total + 1) * sizeof *all);
	int rc = all ? 0 : 3;
	for (int t = 0; t < T; t++) {
		if (all)
			memcpy(all + at, logs[t], nlog[t] * sizeof *all);
		at += nlog[t];
		free(logs[t]);
	}
	free(logs);
	free(nlog);
	if (!rc && logpath)
		rc = write_log(logpath, all, total);
	if (!rc)
		rc = replay(all, total, q);
	free(all);
	return rc;
}

/* One run's shared state. */
struct mono_run {
	struct ordo_scheduler *wl;
	const struct ordo_topology *topo;
	int T;
	double secs, t0, t1;
	uint64_t prefill, logcap;
	_Atomic int stop;
	struct logrec **logs; /* per thread (--rank), or NULL */
	size_t *nlog;
};

/* Thread t's part of a run (inside its parallel region): the prefill, then pop + push
 * pairs until the time is up or a log is full; its pairs, failed pops and memory verdict
 * are added to the reductions. */
static void mono_thread(struct mono_run *R, int t, uint64_t *pairs, uint64_t *failed, bool *oom)
{
	struct ordo_scheduler wl = *R->wl;
	const uint64_t logcap = R->logcap;
	struct logrec *lg = logcap ? malloc(logcap * sizeof *lg) : NULL;
	size_t nl = 0;
	if (logcap && !lg)
		*oom = true;
#define LOG(key)                                                                          \
	do {                                                                              \
		if (lg) {                                                                 \
			if (nl < logcap)                                                  \
				lg[nl++] = (struct logrec){now_ns(), (key)};              \
			else                                                              \
				atomic_store_explicit(&R->stop, 1, memory_order_relaxed); \
		}                                                                         \
	} while (0)
	struct ordo_tctx *c = ordo_calloc_aligned(1, sizeof *c);
	c->tid = (unsigned)t;
	c->nthreads = (unsigned)R->T;
	c->node = R->topo->node[t];
	ordo_rng_seed(&c->rng, 42, (uint64_t)t);
	if (wl.ops->thread_init)
		wl.ops->thread_init(wl.wl, c);
	struct ordo_task batch[1024];
	for (uint64_t i = 0; i < R->prefill; i += 1024) {
		for (int k = 0; k < 1024; k++)
			batch[k] = (struct ordo_task){ordo_rng_below(&c->rng, R->prefill), i + k};
		wl.ops->push(wl.wl, c, batch, 1024);
		for (int k = 0; k < 1024; k++)
			LOG(batch[k].prio);
	}
#pragma omp barrier
#pragma omp single
	R->t0 = ordo_now();
	uint64_t n = 0, f = 0;
	struct ordo_task x;
	while (!atomic_load_explicit(&R->stop, memory_order_relaxed)) {
		for (int k = 0; k < 1024; k++) {
			if (lg && nl + 2 > logcap) {
				/* a full log ends the run for every thread: one that went on
				 * alone would strand the tasks only a stopped owner may take
				 * (RELD) and change the workload */
				atomic_store_explicit(&R->stop, 1, memory_order_relaxed);
				break;
			}
			const uint64_t called = lg ? now_ns() : 0;
			if (!wl.ops->pop(wl.wl, c, &x)) {
				f++;
				continue;
			}
			if (lg)
				lg[nl++] = (struct logrec){called, x.prio | POP_BIT};
			x.prio += ordo_rng_below(&c->rng, 1u << 20);
			wl.ops->push(wl.wl, c, &x, 1);
			LOG(x.prio);
			n++;
		}
		if (ordo_now() - R->t0 >= R->secs)
			atomic_store_explicit(&R->stop, 1, memory_order_relaxed);
	}
#undef LOG
#pragma omp barrier
#pragma omp single
	R->t1 = ordo_now();
	*pairs += n;
	*failed += f;
	*oom = *oom || c->push_oom;
	if (wl.ops->thread_fini)
		wl.ops->thread_fini(wl.wl, c);
	free(c->pushbuf);
	free(c);
	if (R->logs) {
		R->logs[t] = lg;
		R->nlog[t] = nl;
	}
}

static int run(const char *spec, int T, double secs, int logk, uint64_t logcap, const char *logpath,
               struct result *res, struct quality *q, char *resolved, size_t cap)
{
	struct ordo_err e = {0};
	struct ordo_topology topo;
	if (ordo_topology_init(&topo, T, 0, ORDO_BIND_NONE, &e)) {
		fprintf(stderr, "monotonic: %s\n", e.msg);
		return 2;
	}
	struct ordo_scheduler wl;
	if (ordo_scheduler_create(spec, NULL, &topo, 1, &wl, &e)) {
		fprintf(stderr, "monotonic: %s\n", e.msg);
		ordo_topology_free(&topo);
		return 2;
	}
	snprintf(resolved, cap, "%s", wl.spec);
	struct mono_run R = {.wl = &wl,
	                     .topo = &topo,
	                     .T = T,
	                     .secs = secs,
	                     .prefill = 1ull << logk,
	                     .logcap = logcap,
	                     /* per-thread logs (--rank) */
	                     .logs = logcap ? calloc((size_t)T, sizeof *R.logs) : NULL,
	                     .nlog = logcap ? calloc((size_t)T, sizeof *R.nlog) : NULL};
	uint64_t pairs = 0, failed = 0;
	bool oom = false;
	if (logcap && (!R.logs || !R.nlog)) {
		fprintf(stderr, "monotonic: out of memory for the logs\n");
		return 3;
	}
#pragma omp parallel num_threads(T) reduction(+ : pairs, failed) reduction(|| : oom)
	mono_thread(&R, omp_get_thread_num(), &pairs, &failed, &oom);
	ordo_scheduler_destroy(&wl);
	ordo_topology_free(&topo);
	if (oom) {
		fprintf(stderr, "monotonic: %s ran out of memory\n", spec);
		return 3;
	}
	if (R.logs) {
		int rc = merge_logs(R.logs, R.nlog, T, logpath, q);
		if (rc)
			return rc;
	}
	res->seconds = R.t1 - R.t0;
	res->pairs = pairs;
	res->failed = failed;
	res->pairs_per_s = (double)pairs / res->seconds;
	return 0;
}

/* One scheduler's line (text, or a CSV row). */
static void print_result(const char *name, int T, int logk, bool csv, uint64_t logcap,
                         const struct result *r, const struct quality *q)
{
	char qual[200] = "";
	if (logcap && csv)
		snprintf(qual, sizeof qual, ",%llu,%.4f,%llu,%.4f,%llu",
		         (unsigned long long)q->pops, q->rank_mean, (unsigned long long)q->rank_max,
		         q->delay_mean, (unsigned long long)q->delay_max);
	else if (logcap)
		snprintf(qual, sizeof qual,
		         "  rank error mean %.2f max %llu, delay mean %.2f max %llu (%llu pops)",
		         q->rank_mean, (unsigned long long)q->rank_max, q->delay_mean,
		         (unsigned long long)q->delay_max, (unsigned long long)q->pops);
	if (csv)
		printf("\"%s\",%d,%llu,%.3f,%llu,%.0f,%llu%s\n", name, T, 1ull << logk, r->seconds,
		       (unsigned long long)r->pairs, r->pairs_per_s, (unsigned long long)r->failed,
		       qual);
	else
		printf("%-60s %2d threads  %7.2f M pairs/s  (%llu failed pops)%s\n", name, T,
		       r->pairs_per_s / 1e6, (unsigned long long)r->failed, qual);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	int T = ordo_cpus_available(), logk = 20, nspec = 0;
	double secs = 1.0;
	bool csv = false;
	const char *specs[64], *logpath = NULL, *replay_path = NULL;
	uint64_t logcap = 0;
	static const struct option lo[] = {{"threads", 1, 0, 't'}, {"seconds", 1, 0, 's'},
	                                   {"prefill", 1, 0, 'k'}, {"wl", 1, 0, 'w'},
	                                   {"format", 1, 0, 'f'},  {"rank", 1, 0, 'r'},
	                                   {"log", 1, 0, 'l'},     {"replay", 1, 0, 'p'},
	                                   {"help", 0, 0, 'h'},    {0, 0, 0, 0}};
	int c;
	while ((c = getopt_long(argc, argv, "t:s:k:w:f:h", lo, NULL)) != -1) {
		switch (c) {
		case 't':
			T = atoi(optarg);
			break;
		case 's':
			secs = atof(optarg);
			break;
		case 'k':
			logk = atoi(optarg);
			break;
		case 'w':
			if (nspec < 64)
				specs[nspec++] = optarg;
			break;
		case 'f':
			csv = !strcmp(optarg, "csv");
			break;
		case 'r':
			logcap = strtoull(optarg, NULL, 10);
			break;
		case 'l':
			logpath = optarg;
			break;
		case 'p':
			replay_path = optarg;
			break;
		default:
			printf(
			    "usage: monotonic [-t THREADS] [-s SECONDS (1)] [-k LOG2_PREFILL (20)] "
			    "[--wl SPEC]... [--format text|csv]\n"
			    "       [--rank OPS_PER_THREAD [--log FILE]] | --replay FILE\n"
			    "--rank logs each thread's first OPS operations and reports rank error "
			    "and delay\n");
			return c == 'h' ? 0 : 2;
		}
	}
	if (replay_path) {
		struct quality q;
		int rc = replay_file(replay_path, &q);
		if (!rc)
			printf("pops %llu rank_mean %.4f rank_max %llu delay_mean %.4f delay_max "
			       "%llu\n",
			       (unsigned long long)q.pops, q.rank_mean,
			       (unsigned long long)q.rank_max, q.delay_mean,
			       (unsigned long long)q.delay_max);
		return rc;
	}
	if (logpath && !logcap) {
		fprintf(stderr, "monotonic: --log needs --rank OPS\n");
		return 2;
	}
	if (logcap && logcap < (1ull << logk) + 1024 + 4) {
		fprintf(
		    stderr,
		    "monotonic: --rank %llu: the log must hold the prefill (2^%d keys) and more\n",
		    (unsigned long long)logcap, logk);
		return 2;
	}
	if (T < 1 || secs <= 0 || logk < 1 || logk > 28) {
		fprintf(stderr, "monotonic: bad arguments\n");
		return 2;
	}
	if (!nspec)
		for (int i = 0; i < ordo_scheduler_count(); i++)
			specs[nspec++] = ordo_scheduler_at(i)->name;
	if (csv)
		printf("scheduler,threads,prefill_per_thread,seconds,pairs,pairs_per_s,failed_pops%"
		       "s\n",
		       logcap ? ",pops_replayed,rank_mean,rank_max,delay_mean,delay_max" : "");
	for (int i = 0; i < nspec; i++) {
		struct result r;
		struct quality q = {0};
		char name[256];
		int rc = run(specs[i], T, secs, logk, logcap, logpath, &r, &q, name, sizeof name);
		if (rc)
			return rc;
		print_result(name, T, logk, csv, logcap, &r, &q);
	}
	return 0;
}
