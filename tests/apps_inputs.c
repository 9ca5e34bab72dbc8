/*
 * apps_inputs - BFS, A*, MST and k-core with every registered scheduler on the real
 * graphs of ../shared/inputs (or $ORDO_INPUTS), each run verified against its exact
 * sequential baseline: rome99 (directed; symmetrised for MST and k-core), luxembourg
 * with its .xyz (A*; arcs weighed by length), soc-Slashdot0902 and ca-AstroPh with
 * random weights 1..255; each on the plain graph and on its compressed copy; PageRank
 * (push with every scheduler, and pull) on rome99 and ca-AstroPh.
 * Exits 77 (CTest's skip) with the reason when the directory is absent.
 * `apps_inputs --generated` runs the same checks on small generated graphs instead,
 * and MST on a road graph big enough for its shared scans (the ThreadSanitizer test
 * runs that; sanitizer_test.sh tsan).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apps_check.h"
#include "ordo_io.h"
#include "ordo_pagerank.h"

static const char *dir;

static struct ordo_graph *load(const char *rel, struct ordo_load_opts *o)
{
	char p[1024];
	snprintf(p, sizeof p, "%s/%s", dir, rel);
	struct ordo_graph *g;
	struct ordo_err e = {0};
	if (ordo_load(p, o, &g, NULL, &e)) {
		fprintf(stderr, "FAIL: %s\n", e.msg);
		exit(1);
	}
	return g;
}

static int fails;

static void report(int rc, const char *what, const char *msg)
{
	printf("%s %s%s%s\n", rc ? "FAIL" : "ok  ", what, rc ? ": " : "", rc ? msg : "");
	fflush(stdout);
	fails += rc != 0;
}

/* Every app on g (and its symmetrised copy s for MST and k-core). */
static void apps_on(const struct ordo_graph *g, const struct ordo_graph *s, const char *name,
                    bool astar, int maxT)
{
	char msg[1024], what[300];
	snprintf(what, sizeof what, "bfs on %s", name);
	report(apps_bfs_all(g, name, maxT, msg, sizeof msg), what, msg);
	if (astar) {
		snprintf(what, sizeof what, "astar on %s", name);
		report(apps_astar_all(g, name, maxT, 2, msg, sizeof msg), what, msg);
	}
	snprintf(what, sizeof what, "mst on %s", name);
	report(apps_mst_all(s, name, maxT, msg, sizeof msg), what, msg);
	snprintf(what, sizeof what, "kcore on %s", name);
	report(apps_kcore_all(s, name, maxT, msg, sizeof msg), what, msg);
	snprintf(what, sizeof what, "cc on %s", name);
	report(apps_cc_all(s, name, maxT, msg, sizeof msg), what, msg);
}

/* Every app on the plain graph, then on its compressed copy, whose sequential answers
 * must be the plain graph's. */
static void all_apps(struct ordo_graph *g, const char *name, bool astar, int maxT)
{
	struct ordo_graph *s = g, *gc = NULL, *sc = NULL;
	struct ordo_build_stats bs;
	struct ordo_err e = {0};
	if (!(g->flags & ORDO_GRAPH_SYMMETRIC) && ordo_graph_symmetrized(g, 2, &s, &bs, &e)) {
		report(-1, "symmetrise", e.msg);
		return;
	}
	apps_on(g, s, name, astar, maxT);
	if (ordo_graph_compress(g, 2, &gc, &e) || ordo_graph_compress(s, 2, &sc, &e)) {
		report(-1, "compress", e.msg);
	} else {
		char msg[1024], what[300], cname[260];
		snprintf(cname, sizeof cname, "%s (compressed)", name);
		snprintf(what, sizeof what, "same answers on %s", cname);
		report(apps_same_answers(g, gc, name, msg, sizeof msg), what, msg);
		report(apps_same_answers(s, sc, name, msg, sizeof msg), what, msg);
		apps_on(gc, sc, cname, astar, maxT < 4 ? maxT : 4);
	}
	ordo_graph_free(gc);
	ordo_graph_free(sc);
	if (s != g)
		ordo_graph_free(s);
}

static int generated(void)
{
	const char *specs[] = {"road:W=60,H=50,seed=3", "rmat:scale=10,ef=8"};
	for (int i = 0; i < 2; i++) {
		struct ordo_graph *g;
		struct ordo_err e = {0};
		if (ordo_generate(specs[i], 0, &g, NULL, 0, &e)) {
			fprintf(stderr, "FAIL: %s\n", e.msg);
			return 1;
		}
		all_apps(g, specs[i], g->coord_kind != ORDO_COORD_NONE, 16);
		ordo_graph_free(g);
	}
	{ /* PageRank: small, since a priority order does many times the work there */
		struct ordo_graph *p;
		struct ordo_err pe = {0};
		char pmsg[1024];
		if (ordo_generate("rmat:scale=8,ef=4", 0, &p, NULL, 0, &pe)) {
			fprintf(stderr, "FAIL: %s\n", pe.msg);
			return 1;
		}
		report(apps_pagerank_all(p, "rmat:scale=8,ef=4", 16, 1e-2, NULL, pmsg, sizeof pmsg),
		       "pagerank on rmat:scale=8,ef=4", pmsg);
		ordo_graph_free(p);
	}
	/* MST on a graph whose giant component's scans are shared with the workers
	 * (ordo_task_loop; apps_mst_all requires it of a forest of 10,000 edges) */
	const char *big = "road:W=120,H=100,seed=3";
	struct ordo_graph *g, *s;
	struct ordo_err e = {0};
	struct ordo_build_stats bs;
	if (ordo_generate(big, 0, &g, NULL, 0, &e) || ordo_graph_symmetrized(g, 2, &s, &bs, &e)) {
		fprintf(stderr, "FAIL: %s: %s\n", big, e.msg);
		return 1;
	}
	char msg[1024], what[300];
	snprintf(what, sizeof what, "mst on %s (shared scans)", big);
	report(apps_mst_all(s, big, 4, msg, sizeof msg), what, msg);
	ordo_graph_free(s);
	ordo_graph_free(g);
	printf("%s\n", fails ? "apps (generated): FAILED" : "apps (generated): every check passed");
	return fails ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--generated"))
		return generated();
	const char *env = getenv("ORDO_INPUTS");
	dir = env && *env ? env : ORDO_INPUTS_DIR;
	char probe[1024];
	snprintf(probe, sizeof probe, "%s/road/rome99.gr", dir);
	if (access(probe, R_OK)) {
		printf("SKIP: %s not found: the shared real graphs are not beside this clone "
		       "(set ORDO_INPUTS to their directory; public graphs of your own: "
		       "inputs/fetch.sh --list)\n",
		       probe);
		return 77;
	}
	struct ordo_load_opts o;
	struct ordo_graph *g = load("road/rome99.gr", NULL);
	all_apps(g, "rome99", false, 16);
	ordo_graph_free(g);

	char xyz[1024];
	snprintf(xyz, sizeof xyz, "%s/road/luxembourg.osm.xyz.zst", dir);
	ordo_load_opts_init(&o);
	o.coords = xyz;
	o.weights_from_coords = true;
	g = load("road/luxembourg.osm.graph.zst", &o);
	all_apps(g, "luxembourg.osm", true, 4);
	ordo_graph_free(g);

	const char *social[] = {"social/soc-Slashdot0902.txt.zst", "social/ca-AstroPh.txt.zst"};
	for (int i = 0; i < 2; i++) {
		ordo_load_opts_init(&o);
		o.build.random_weights = true;
		o.build.wlo = 1;
		o.build.whi = 255;
		g = load(social[i], &o);
		all_apps(g, social[i], false, 4);
		ordo_graph_free(g);
	}
	/* PageRank's push on every scheduler (with the bucket width the binary gives them:
	 * at OBIM's default every residual is a bucket, minutes on ca-AstroPh) and its pull,
	 * on the two smallest (a priority order does several times the sequential push's
	 * work) */
	const char *pr[] = {"road/rome99.gr", "social/ca-AstroPh.txt.zst"};
	for (int i = 0; i < 2; i++) {
		char msg[1024], what[300];
		ordo_load_opts_init(&o);
		o.compact_ids = i == 1; /* ca-AstroPh's 133,280 ids name 18,772 nodes */
		g = load(pr[i], &o);
		snprintf(what, sizeof what, "pagerank on %s", pr[i]);
		report(
		    apps_pagerank_all(g, pr[i], 4, 1e-2, ORDO_PAGERANK_WL_PARAMS, msg, sizeof msg),
		    what, msg);
		ordo_graph_free(g);
	}
	printf("%s\n", fails ? "apps_inputs: FAILED" : "apps_inputs: every check passed");
	return fails ? 1 : 0;
}
