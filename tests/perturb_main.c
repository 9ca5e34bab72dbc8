/*
 * perturb_main - the concurrency checks under schedule perturbation, for the
 * ORDO_PERTURB build (runtime/perturb.h; run by tests/perturb_test.sh).
 *
 * For each seed, every scheduler of the conformance list runs, at T threads (more than
 * this machine's cores): a chain (one task pending at a time), a caterpillar (a spine
 * that sheds a leaf at every step) and a task tree, all
 * through pops that fail spuriously; a tree of tasks pushed by the operators; and SSSP
 * against Dijkstra. Then BFS, MST, k-core, components, SSSP's live form and PageRank's
 * push run on small generated graphs with every
 * registered scheduler at 1, 2 and 4 threads, verified against their baselines. Every
 * check asserts an exact answer: a task lost or run twice, an early stop, a wrong
 * distance, forest or core number is a failure, named with its seed.
 * At the end every named perturbation point must have been visited (a point that no
 * run reaches protects nothing).
 *
 *   perturb_main [--seeds N] [--first S] [--threads T] [--rate R] [--only PART]...
 *                [SPEC-PREFIX...]
 * Defaults: 20 seeds from 1, T = 4, rate 64 delays per 1024 visits, every part
 * (PART: conformance, bfs, mst, kcore, cc, live); SPEC-PREFIX limits the conformance part's
 * schedulers (the apps always run every registered one).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps_check.h"
#include "conformance.h"
#include "ordo_rng.h"
#include "perturb.h"

static int conformance(const char *spec, int T, char *msg, size_t cap)
{
	int rc = conf_chain(spec, T, 3000, msg, cap);
	if (!rc)
		rc = conf_caterpillar(spec, T, 3000, msg, cap);
	if (!rc)
		rc = conf_spurious(spec, T, 6000, msg, cap);
	if (!rc)
		rc = conf_exactly_once(spec, T, 6000, true, 0, msg, cap);
	if (!rc)
		rc = conf_exactly_once(spec, T, 6000, false, 0, msg, cap);
	if (!rc && T >= 2) /* workers parking and coming back at random points */
		rc = conf_parking(spec, T, 6000, T / 2, false, msg, cap);
	if (!rc && T >= 2) /* workers stopped at random, all running */
		rc = conf_stalls(spec, T, 6000, NULL, msg, cap);
	/* SMQ's guests, for certain: at T workers on few cores an owner stopped long enough
	 * for a guest to see its beat stand still is a matter of chance (20 seeds saw none
	 * at times), so a guarded SMQ also runs test_conformance's guard scenario, two
	 * workers over 20,000 tasks, where guests always run the stopped owners' tasks */
	if (!rc && !strncmp(spec, "smq:pq=bucket,guard=on", 22))
		rc = conf_stalls(spec, 2, 20000, NULL, msg, cap);
	if (!rc) /* tasks' own loops */
		rc = conf_loops(spec, T, 3000, msg, cap);
	return rc;
}

enum { P_CONF = 1, P_BFS = 2, P_MST = 4, P_KCORE = 8, P_CC = 16, P_LIVE = 32, P_ALL = 63 };

/* BFS on a road graph, MST and k-core on its symmetric form and on an R-MAT graph;
 * MST also on an R-MAT graph whose giant component holds thousands of segments, so that
 * its scans run as several parts whose candidate lists overflow (the checked build
 * checks each list a scan makes: mst_cand.c, cand_holds), and on a ladder whose
 * lightest fronts all sit in one part (apps_check.h). */
static int apps(uint64_t seed, int T, unsigned parts, char *msg, size_t cap)
{
	char specs[3][64];
	snprintf(specs[0], sizeof specs[0], "road:W=30,H=20,seed=%llu", (unsigned long long)seed);
	snprintf(specs[1], sizeof specs[1], "rmat:scale=9,ef=8,seed=%llu",
	         (unsigned long long)seed);
	snprintf(specs[2], sizeof specs[2], "rmat:scale=13,ef=4,seed=%llu",
	         (unsigned long long)seed);
	for (int k = 0; k < 3; k++) {
		if (k == 2 && !(parts & P_MST))
			break;
		struct ordo_graph *g, *s;
		struct ordo_err e = {0};
		struct ordo_build_stats bs;
		if (ordo_generate(specs[k], 1, &g, NULL, 0, &e))
			return snprintf(msg, cap, "%s: %s", specs[k], e.msg), -1;
		if (ordo_graph_symmetrized(g, 1, &s, &bs, &e)) {
			ordo_graph_free(g);
			return snprintf(msg, cap, "%s: %s", specs[k], e.msg), -1;
		}
		int rc = 0;
		if ((parts & P_BFS) && k < 2)
			rc = apps_bfs_all(g, specs[k], T, msg, cap);
		if (!rc && (parts & P_MST))
			rc = apps_mst_all(s, specs[k], T, msg, cap);
		if (!rc && (parts & P_KCORE) && k < 2)
			rc = apps_kcore_all(s, specs[k], T, msg, cap);
		if (!rc && (parts & P_CC) && k < 2)
			rc = apps_cc_all(s, specs[k], T, msg, cap);
		/* one queued task per node (ordo_live.h): SSSP's live form, PageRank's push */
		if (!rc && (parts & P_LIVE) && k < 2)
			rc = apps_sssp_live_all(g, specs[k], T, msg, cap);
		if (!rc && (parts & P_LIVE) && k < 2)
			rc = apps_pagerank_all(g, specs[k], T, 1e-2, NULL, msg, cap);
		ordo_graph_free(g);
		ordo_graph_free(s);
		if (rc)
			return rc;
	}
	if (parts & P_MST) { /* a part's floor the only word on what its list left out */
		struct ordo_graph *l;
		if (apps_ladder(3000, 6, &l, msg, cap))
			return -1;
		int rc = apps_mst_all(l, "ladder 3000x6", T, msg, cap);
		ordo_graph_free(l);
		if (rc)
			return rc;
	}
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t first = 1, seeds = 20;
	int T = 4;
	unsigned rate = 64;
	int nprefix = 0;
	unsigned parts = 0;
	const char *prefix[32];
	static const char *const part_names[] = {"conformance", "bfs", "mst",
	                                         "kcore",       "cc",  "live"};
	for (int a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--seeds") && a + 1 < argc)
			seeds = strtoull(argv[++a], NULL, 10);
		else if (!strcmp(argv[a], "--first") && a + 1 < argc)
			first = strtoull(argv[++a], NULL, 10);
		else if (!strcmp(argv[a], "--threads") && a + 1 < argc)
			T = atoi(argv[++a]);
		else if (!strcmp(argv[a], "--rate") && a + 1 < argc)
			rate = (unsigned)atoi(argv[++a]);
		else if (!strcmp(argv[a], "--only") && a + 1 < argc) {
			const char *want = argv[++a];
			unsigned bit = 0;
			for (unsigned k = 0; k < sizeof part_names / sizeof *part_names; k++)
				bit |= strcmp(want, part_names[k]) ? 0 : 1u << k;
			if (!bit) {
				fprintf(stderr,
				        "perturb_main: --only %s: expected conformance, bfs, "
				        "mst, kcore, cc or live\n",
				        want);
				return 2;
			}
			parts |= bit;
		} else if (argv[a][0] == '-' || nprefix == 32) {
			fprintf(stderr,
			        "usage: %s [--seeds N] [--first S] [--threads T] [--rate R] "
			        "[--only conformance|bfs|mst|kcore|cc|live]... [SPEC-PREFIX...]\n",
			        argv[0]);
			return 2;
		} else
			prefix[nprefix++] = argv[a];
	}
	if (!ordo_perturb_built()) {
		fprintf(stderr, "perturb_main: this build has no perturbation points "
		                "(configure with -DORDO_PERTURB=ON)\n");
		return 2;
	}
	parts = parts ? parts : P_ALL;
	char msg[1024];
	int failures = 0;
	uint64_t visits[ORDO_PP_COUNT] = {0}, delays = 0;
	for (uint64_t seed = first; seed < first + seeds; seed++) {
		int specs = 0, bad = 0;
		ordo_perturb_configure(seed, rate);
		for (int i = 0; (parts & P_CONF) && conf_specs[i]; i++) {
			bool chosen = nprefix == 0;
			for (int p = 0; p < nprefix; p++)
				chosen |= !strncmp(prefix[p], conf_specs[i], strlen(prefix[p]));
			if (!chosen)
				continue;
			specs++;
			if (conformance(conf_specs[i], T, msg, sizeof msg)) {
				printf("FAIL seed %llu: %s\n", (unsigned long long)seed, msg);
				bad++;
			}
		}
		if ((parts & ~P_CONF) && apps(seed, T, parts, msg, sizeof msg)) {
			printf("FAIL seed %llu: %s\n", (unsigned long long)seed, msg);
			bad++;
		}
		for (int p = 0; p < ORDO_PP_COUNT; p++)
			visits[p] += ordo_perturb_visits((enum ordo_perturb_point)p);
		delays += ordo_perturb_delays();
		printf("seed %llu: %d schedulers x 6 checks%s%s%s%s: %s (%llu delays so far)\n",
		       (unsigned long long)seed, specs, parts & P_BFS ? ", bfs" : "",
		       parts & P_MST ? ", mst" : "", parts & P_KCORE ? ", kcore" : "",
		       parts & P_CC ? ", cc" : "", bad ? "FAIL" : "ok", (unsigned long long)delays);
		fflush(stdout);
		failures += bad;
	}
	/* every point was reached (when everything ran: a part alone reaches only some) */
	int unvisited = 0;
	for (int p = 0; p < ORDO_PP_COUNT; p++) {
		printf("  point %-15s %12llu visits\n",
		       ordo_perturb_name((enum ordo_perturb_point)p),
		       (unsigned long long)visits[p]);
		if (!visits[p] && (nprefix == 0 && parts == P_ALL))
			unvisited++;
	}
	if (unvisited) {
		printf("FAIL: %d perturbation point(s) never visited\n", unvisited);
		failures++;
	}
	printf("%s: %llu seeds at %d threads, rate %u/1024, %d failure(s)\n",
	       failures ? "FAIL" : "perturbation test passed", (unsigned long long)seeds, T, rate,
	       failures);
	return failures ? 1 : 0;
}
