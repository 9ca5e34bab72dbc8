/*
 * kcore - k-core decomposition (every node's core number, and the graph's degeneracy),
 * verified against Batagelj-Zaversnik bucket peeling. By default by level-synchronous
 * peeling (algorithms/lib/kcore_peel.c: each arc examined once, no scheduler); with
 * --algo bounds (or an explicit --wl) by the order-independent operator on any
 * registered scheduler, a node scheduled at its current degree bound as in Julienne's
 * bucketing (algorithms/lib/kcore.c says why it works on falling upper bounds). The
 * input is made symmetric (and deduplicated) when it is not; weights are ignored.
 * `kcore --help` lists the options; with no input it runs on a generated R-MAT graph.
 */
#include <stdlib.h>
#include <string.h>

#include "ordo_app.h"
#include "ordo_apps.h"
#include "ordo_kcore.h"

enum { O_ALGO = ORDO_APP_OPT_KEY };

static const struct ordo_cli_opt kcore_opts[] = {
    {"algo", O_ALGO, "peel|bounds",
     "peel (default): all nodes of degree k peeled together, level by level, no "
     "scheduler; bounds: falling upper bounds on a scheduler (--wl; the default when "
     "--wl is given)"},
    {NULL, 0, NULL, NULL},
};

enum { ALGO_PEEL, ALGO_BOUNDS };

/* kcore's options block: --algo, -1 when not given */
struct kcore_options {
	int algo;
};
static const struct kcore_options kcore_option_defaults = {.algo = -1};

static int option(void *opts, int key, const char *arg, struct ordo_err *err)
{
	(void)key;
	static const char *const algos[] = {"peel", "bounds", NULL};
	return ordo_cli_parse_choice("--algo", arg, algos, &((struct kcore_options *)opts)->algo,
	                             err);
}

/* The algorithm a run takes: --algo's, else bounds when --wl is given, else peeling. */
static int algo_of(const void *opts, bool wl_given)
{
	return ordo_app_algo(((const struct kcore_options *)opts)->algo, wl_given, ALGO_BOUNDS,
	                     ALGO_PEEL);
}

/* Peeling runs in rounds of its own; the bounds operator runs on the scheduler. */
static bool uses_scheduler(const void *opts, bool wl_given, int threads)
{
	(void)threads;
	return algo_of(opts, wl_given) == ALGO_BOUNDS;
}

struct kcore_state {
	const struct ordo_graph *g;
	_Atomic uint32_t *core;
	uint32_t *ref;
	int algo;
};

static int init(void **st, const struct ordo_graph *g, const struct ordo_app_env *env,
                struct ordo_err *err)
{
	struct kcore_state *s = calloc(1, sizeof *s);
	if (!s)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	*st = s;
	s->g = g;
	s->algo = algo_of(env->opts, env->wl_given);
	s->core = ordo_alloc_huge((size_t)g->n * sizeof *s->core + 8);
	s->ref = ordo_alloc_huge((size_t)g->n * sizeof *s->ref + 8);
	if (!s->core || !s->ref)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory for core numbers");
	if (env->report && s->algo == ALGO_PEEL)
		fprintf(env->report, "kcore: level-synchronous peeling (--algo peel), no "
		                     "scheduler (--wl or --algo bounds runs one)\n");
	return 0;
}

static void fini(void *st)
{
	struct kcore_state *s = st;
	free(s->core);
	free(s->ref);
	free(s);
}

static int baseline(void *st, const struct ordo_app_query *q, struct ordo_app_baseline *b,
                    struct ordo_err *err)
{
	(void)q;
	struct kcore_state *s = st;
	/* peeling: every node removed once and every arc examined once, in both */
	b->tasks = s->g->n + (s->algo == ALGO_PEEL ? s->g->m : 0);
	return ordo_kcore_seq(s->g, s->ref, err);
}

static int run(void *st, const struct ordo_app_query *q, struct ordo_scheduler *wl,
               const struct ordo_exec_opts *o, struct ordo_run_stats *rs, struct ordo_err *err)
{
	(void)q;
	struct kcore_state *s = st;
	if (s->algo == ALGO_BOUNDS)
		return ordo_kcore(s->g, wl, o, s->core, rs, err);
	struct ordo_kcore_stats ks;
	int rc = ordo_kcore_peel(s->g, o->topo, s->core, &ks, err);
	if (rc)
		return rc;
	memset(rs, 0, sizeof *rs);
	rs->seconds = ks.seconds;
	rs->threads = ks.threads;
	rs->tasks = ks.peeled + ks.arcs + ks.undone;
	rs->pushes = ks.peeled;
	rs->tasks_min = ks.work_min;
	rs->tasks_median = ks.work_median;
	rs->tasks_max = ks.work_max;
	return 0;
}

static void check(void *st, const struct ordo_app_query *q, struct ordo_check *c)
{
	(void)q;
	struct kcore_state *s = st;
	ordo_kcore_check(s->g, s->core, s->ref, c);
}

static int answer(void *st, struct ordo_app_array *out, int max, struct ordo_err *err)
{
	(void)err;
	const struct kcore_state *s = st;
	return ordo_app_answer_one(out, max, "core", (const void *)s->core, s->g->n, 4, true);
}

/* The kernel: this binary's, and the apps library's (ordo_apps.h, for bindings). */
const struct ordo_app_kernel ordo_kernel_kcore = {
    .name = "kcore",
    .summary = "k-core decomposition: core numbers and degeneracy (level-synchronous "
               "peeling; --algo bounds: priority = the node's degree bound; arc "
               "weights ignored)",
    .baseline_name = "Batagelj-Zaversnik bucket peeling",
    .work_note = "peel: tasks = nodes peeled + arcs examined + decrements taken back, "
                 "baseline nodes + arcs; bounds: tasks = recomputations, baseline "
                 "nodes (peeling removes each once)",
    .default_gen = "rmat:scale=18,ef=8",
    /* OBIM keeps a thread in its bucket while lower buckets fill from the other
     * threads (period=0), so high-degree nodes are recomputed early and often:
     * rmat20 at 2 threads 4.7 s with obim:delta=0, 0.8 s with smq */
    .default_wl = "smq",
    .wl_params = "delta=0", /* priorities are core bounds, a few thousand at most */
    .uses_scheduler = uses_scheduler,
    .query = ORDO_APP_QUERY_NONE,
    .needs = ORDO_APP_NEEDS_SYMMETRIC,
    .figures = {"degeneracy", "max_core_size"},
    .opts = kcore_opts,
    .opts_size = sizeof(struct kcore_options),
    .opts_defaults = &kcore_option_defaults,
    .option = option,
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
	return ordo_app_main(&ordo_kernel_kcore, argc, argv);
}
#endif
