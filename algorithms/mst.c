/*
 * mst - minimum spanning forest (Boruvka as a priority-scheduled operator) with any
 * registered scheduler, verified against Kruskal. An input not marked undirected is
 * symmetrised; unweighted inputs take --random-weights, or weights from coordinates.
 * `mst --help` lists the options; with no input it runs on a generated road-like graph.
 */
#include <stdlib.h>

#include "ordo_app.h"
#include "ordo_apps.h"
#include "ordo_mst.h"

struct mst_state {
	const struct ordo_graph *g;
	struct ordo_mst *m;
	const struct ordo_topology *topo;
	struct ordo_forest ref, got;
	uint32_t *arc; /* answer(): the forest's arcs, 3 x edges (u, v, w) */
};

static int init(void **st, const struct ordo_graph *g, const struct ordo_app_env *env,
                struct ordo_err *err)
{
	struct mst_state *s = calloc(1, sizeof *s);
	if (!s)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	*st = s;
	s->g = g;
	s->topo = env->topo;
	return ordo_mst_create(g, &s->m, err);
}

static void fini(void *st)
{
	struct mst_state *s = st;
	ordo_mst_free(s->m);
	free(s->arc);
	free(s);
}

/* Kruskal, timed as the baseline; the work denominator is this operator's work (arcs
 * examined + merges, struct ordo_forest) under strict on one thread. */
static int baseline(void *st, const struct ordo_app_query *q, struct ordo_app_baseline *b,
                    struct ordo_err *err)
{
	(void)q;
	struct mst_state *s = st;
	double t0 = ordo_now();
	int rc = ordo_kruskal(s->g, &s->ref, err);
	if (rc)
		return rc;
	b->seconds = ordo_now() - t0;
	struct ordo_topology one;
	if ((rc = ordo_topology_init(&one, 1, 1, ORDO_BIND_NONE, err)))
		return rc;
	struct ordo_scheduler wl;
	if (!(rc = ordo_scheduler_create("strict", NULL, &one, 1, &wl, err))) {
		struct ordo_exec_opts o = {.topo = &one, .seed = 1};
		struct ordo_run_stats rs;
		struct ordo_forest f;
		rc = ordo_mst_run(s->m, &wl, &o, &f, &rs, err);
		b->tasks = f.work;
		ordo_scheduler_destroy(&wl);
	}
	ordo_topology_free(&one);
	return rc;
}

static int run(void *st, const struct ordo_app_query *q, struct ordo_scheduler *wl,
               const struct ordo_exec_opts *o, struct ordo_run_stats *rs, struct ordo_err *err)
{
	(void)q;
	struct mst_state *s = st;
	int rc = ordo_mst_run(s->m, wl, o, &s->got, rs, err);
	/* the work ratio in arcs examined + merges: what the tasks were is the schedule's
	 * choice (the first tasks cover ranges of nodes, so strict on one thread made a few
	 * hundred tasks on R-MAT and the ratio of tasks read 28) */
	rs->tasks = s->got.work;
	rs->tasks_min = s->got.work_min;
	rs->tasks_median = s->got.work_median;
	rs->tasks_max = s->got.work_max;
	return rc;
}

static void check(void *st, const struct ordo_app_query *q, struct ordo_check *c)
{
	(void)q;
	struct mst_state *s = st;
	ordo_mst_check(s->m, &s->ref, c);
}

static int answer(void *st, struct ordo_app_array *out, int max, struct ordo_err *err)
{
	struct mst_state *s = st;
	if (max < 3)
		return ordo_err_set(err, ORDO_EINVAL, "the forest takes 3 arrays"), -1;
	const uint64_t e = s->got.edges;
	free(s->arc);
	if (!(s->arc = malloc((e ? e : 1) * 3 * sizeof *s->arc)))
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory"), -1;
	ordo_mst_forest_arcs(s->m, s->arc, s->arc + e, s->arc + 2 * e);
	out[0] = (struct ordo_app_array){"forest_u", s->arc, e, 4, false, true};
	out[1] = (struct ordo_app_array){"forest_v", s->arc + e, e, 4, false, true};
	out[2] = (struct ordo_app_array){"forest_w", s->arc + 2 * e, e, 4, false};
	return 3;
}

/* The kernel: this binary's, and the apps library's (ordo_apps.h, for bindings). */
const struct ordo_app_kernel ordo_kernel_mst = {
    .name = "mst",
    .summary = "minimum spanning forest by Boruvka (tasks = components, priority = "
               "component size)",
    .baseline_name = "Kruskal (forest weight, edge count, components)",
    .work_note = "tasks = arcs examined (fronts looked up, internal arcs dropped) + "
                 "merges; baseline tasks = the same count of this operator under strict "
                 "on one thread",
    .default_gen = "road:W=1024,H=1024",
    .default_wl = "obim",
    /* On road graphs a worker that keeps its own components (SMQ's per-thread queues)
     * beats one shared order of sizes at 2 threads: road2k 367 against 406 ms,
     * luxembourg 5.1 against 5.8, level at 1 thread; on the social graphs obim:delta=0
     * stays ahead (ca-CondMat at 2 threads 3.7 against 4.4 ms). bench/LOG.md, "MST's
     * and A*'s defaults against a sweep". */
    .default_wl_wide = "smq:pq=bucket",
    .wl_params = "delta=0",
    .query = ORDO_APP_QUERY_NONE,
    .needs = ORDO_APP_NEEDS_WEIGHTS | ORDO_APP_NEEDS_SYMMETRIC,
    .figures = {"forest_weight", "forest_edges", "components"},
    .init = init,
    .fini = fini,
    .baseline = baseline,
    .run = run,
    .check = check,
    .answer = answer,
};

#ifndef ORDO_APP_LIBRARY
int main(int argc, char **argv)
{
	return ordo_app_main(&ordo_kernel_mst, argc, argv);
}
#endif
