/*
 * monotonic - scheduler micro-benchmark, the "monotonic" workload of the relaxed
 * priority queue literature: every thread first pushes 2^20 random keys (from its own
 * context, so owner-based schedulers hold them locally), then repeats pop + push(key +
 * U[0, 2^20)) for a fixed time. Reports pop+push pairs per second (all threads together)
 * and failed pops. No graph, no operator: the scheduler alone.
 *
 *   monotonic [-t THREADS] [-s SECONDS] [-k LOG2_PREFILL] [--wl SPEC]... [--format csv]
 * Without --wl it measures every registered scheduler at its defaults.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "ordo_util.h"
#include "ordo_wl.h"

struct result {
	double seconds, pairs_per_s;
	uint64_t pairs, failed;
};

static int run(const char *spec, int T, double secs, int logk, struct result *res, char *resolved,
               size_t cap)
{
	struct ordo_err e = {0};
	struct ordo_topology topo;
	if (ordo_topology_init(&topo, T, 0, ORDO_BIND_NONE, &e)) {
		fprintf(stderr, "monotonic: %s\n", e.msg);
		return 2;
	}
	struct ordo_worklist wl;
	if (ordo_worklist_create(spec, NULL, &topo, 1, &wl, &e)) {
		fprintf(stderr, "monotonic: %s\n", e.msg);
		ordo_topology_free(&topo);
		return 2;
	}
	snprintf(resolved, cap, "%s", wl.spec);
	const uint64_t prefill = 1ull << logk;
	uint64_t pairs = 0, failed = 0;
	double t0 = 0, t1 = 0;
	_Atomic int stop = 0;
	bool oom = false;
#pragma omp parallel num_threads(T) reduction(+ : pairs, failed) reduction(|| : oom)
	{
		int t = omp_get_thread_num();
		struct ordo_tctx *c = ordo_calloc_aligned(1, sizeof *c);
		c->tid = (unsigned)t;
		c->nthreads = (unsigned)T;
		c->node = topo.node[t];
		ordo_rng_seed(&c->rng, 42, (uint64_t)t);
		if (wl.ops->thread_init)
			wl.ops->thread_init(wl.wl, c);
		struct ordo_task batch[1024];
		for (uint64_t i = 0; i < prefill; i += 1024) {
			for (int k = 0; k < 1024; k++)
				batch[k] =
				    (struct ordo_task){ordo_rng_below(&c->rng, prefill), i + k};
			wl.ops->push(wl.wl, c, batch, 1024);
		}
#pragma omp barrier
#pragma omp single
		t0 = ordo_now();
		uint64_t n = 0, f = 0;
		struct ordo_task x;
		while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
			for (int k = 0; k < 1024; k++) {
				if (!wl.ops->pop(wl.wl, c, &x)) {
					f++;
					continue;
				}
				x.prio += ordo_rng_below(&c->rng, 1u << 20);
				wl.ops->push(wl.wl, c, &x, 1);
				n++;
			}
			if (t == 0 && ordo_now() - t0 >= secs)
				atomic_store(&stop, 1);
		}
#pragma omp barrier
#pragma omp single
		t1 = ordo_now();
		pairs += n;
		failed += f;
		oom = c->push_oom;
		if (wl.ops->thread_fini)
			wl.ops->thread_fini(wl.wl, c);
		free(c->pushbuf);
		free(c);
	}
	ordo_worklist_destroy(&wl);
	ordo_topology_free(&topo);
	if (oom) {
		fprintf(stderr, "monotonic: %s ran out of memory\n", spec);
		return 3;
	}
	res->seconds = t1 - t0;
	res->pairs = pairs;
	res->failed = failed;
	res->pairs_per_s = (double)pairs / res->seconds;
	return 0;
}

int main(int argc, char **argv)
{
	int T = ordo_cpus_available(), logk = 20, nspec = 0;
	double secs = 1.0;
	bool csv = false;
	const char *specs[64];
	static const struct option lo[] = {{"threads", 1, 0, 't'},
	                                   {"seconds", 1, 0, 's'},
	                                   {"prefill", 1, 0, 'k'},
	                                   {"wl", 1, 0, 'w'},
	                                   {"format", 1, 0, 'f'},
	                                   {"help", 0, 0, 'h'},
	                                   {0, 0, 0, 0}};
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
		default:
			printf(
			    "usage: monotonic [-t THREADS] [-s SECONDS (1)] [-k LOG2_PREFILL (20)] "
			    "[--wl SPEC]... [--format text|csv]\n");
			return c == 'h' ? 0 : 2;
		}
	}
	if (T < 1 || secs <= 0 || logk < 1 || logk > 28) {
		fprintf(stderr, "monotonic: bad arguments\n");
		return 2;
	}
	if (!nspec)
		for (int i = 0; i < ordo_wl_count(); i++)
			specs[nspec++] = ordo_wl_at(i)->name;
	if (csv)
		printf(
		    "scheduler,threads,prefill_per_thread,seconds,pairs,pairs_per_s,failed_pops\n");
	for (int i = 0; i < nspec; i++) {
		struct result r;
		char name[256];
		int rc = run(specs[i], T, secs, logk, &r, name, sizeof name);
		if (rc)
			return rc;
		if (csv)
			printf("\"%s\",%d,%llu,%.3f,%llu,%.0f,%llu\n", name, T, 1ull << logk,
			       r.seconds, (unsigned long long)r.pairs, r.pairs_per_s,
			       (unsigned long long)r.failed);
		else
			printf("%-60s %2d threads  %7.2f M pairs/s  (%llu failed pops)\n", name, T,
			       r.pairs_per_s / 1e6, (unsigned long long)r.failed);
		fflush(stdout);
	}
	return 0;
}
