/*
 * kcore - k-core decomposition (every node's core number, and the graph's degeneracy)
 * with any registered scheduler, verified against Batagelj-Zaversnik bucket peeling.
 * A node is scheduled at its current degree bound, as in Julienne's bucketing; see
 * algorithms/lib/kcore.c for why the operator works on falling upper bounds. The input
 * is made symmetric (and deduplicated) when it is not; weights are ignored. `kcore
 * --help` lists the options; with no input it runs on a generated R-MAT graph.
 */
#include <stdlib.h>

#include "ordo_app.h"
#include "ordo_kcore.h"

struct kcore_state {
	const struct ordo_graph *g;
	_Atomic uint32_t *core;
	uint32_t *ref;
};

static int init(void **st, const struct ordo_graph *g, const struct app_env *env,
                struct ordo_err *err)
{
	(void)env;
	struct kcore_state *s = calloc(1, sizeof *s);
	if (!s)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	*st = s;
	s->g = g;
	s->core = ordo_alloc_huge((size_t)g->n * sizeof *s->core + 8);
	s->ref = ordo_alloc_huge((size_t)g->n * sizeof *s->ref + 8);
	if (!s->core || !s->ref)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory for core numbers");
	return 0;
}

static void fini(void *st)
{
	struct kcore_state *s = st;
	free(s->core);
	free(s->ref);
	free(s);
}

static int baseline(void *st, const struct app_query *q, struct app_baseline *b,
                    struct ordo_err *err)
{
	(void)q;
	struct kcore_state *s = st;
	b->tasks = s->g->n; /* every node peeled once */
	return ordo_kcore_seq(s->g, s->ref, err);
}

static int run(void *st, const struct app_query *q, struct ordo_worklist *wl,
               const struct ordo_exec_opts *o, struct ordo_run_stats *rs, struct ordo_err *err)
{
	(void)q;
	struct kcore_state *s = st;
	return ordo_kcore(s->g, wl, o, s->core, rs, err);
}

static void check(void *st, const struct app_query *q, struct ordo_check *c)
{
	(void)q;
	struct kcore_state *s = st;
	ordo_kcore_check(s->g, s->core, s->ref, c);
}

int main(int argc, char **argv)
{
	static const struct app_kernel k = {
	    .name = "kcore",
	    .summary = "k-core decomposition: core numbers and degeneracy (priority = the "
	               "node's current degree bound; arc weights ignored)",
	    .baseline_name = "Batagelj-Zaversnik bucket peeling",
	    .work_note = "baseline tasks = nodes (peeling removes each once)",
	    .default_gen = "rmat:scale=18,ef=8",
	    /* OBIM keeps a thread in its bucket while lower buckets fill from the other
	     * threads (period=0), so high-degree nodes are recomputed early and often:
	     * rmat20 at 2 threads 4.7 s with obim:delta=0, 0.8 s with smq */
	    .default_wl = "smq",
	    .query = APP_QUERY_NONE,
	    .needs = APP_NEEDS_SYMMETRIC,
	    .figures = {"degeneracy", "max_core_size"},
	    .init = init,
	    .fini = fini,
	    .baseline = baseline,
	    .run = run,
	    .check = check,
	};
	return app_main(&k, argc, argv);
}
