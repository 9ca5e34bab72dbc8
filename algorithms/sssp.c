/*
 * sssp - single-source shortest paths with any registered scheduler, verified against
 * Dijkstra. `sssp --help` lists the options; with no input it runs on a generated
 * road-like graph of about a million nodes.
 */
#include <stdlib.h>
#include <string.h>

#include "ordo_app.h"
#include "ordo_apps.h"
#include "ordo_cli.h"
#include "ordo_sssp.h"

enum { O_PARENTS = ORDO_APP_OPT_KEY, O_LIVE };

static const struct ordo_cli_opt sssp_opts[] = {
    {"parents", O_PARENTS, NULL,
     "also give each node's parent in a shortest-path tree (the source's is itself): a "
     "`parent` column or array in --output"},
    {"live", O_LIVE, "auto|off|G",
     "one queued task per node and grain, run with the node's distance when it starts "
     "(auto, the default: at a bucketed scheduler's grain, its delta, when that is 4 or "
     "more; off: a task per relaxation, as on an exact scheduler; G: this grain, 0..64)"},
    {NULL, 0, NULL, NULL},
};

enum { LIVE_AUTO = -2, LIVE_OFF = -1 };

struct sssp_options {
	bool parents;
	int live; /* LIVE_AUTO, LIVE_OFF or a grain */
};

static int option(void *opts, int key, const char *arg, struct ordo_err *err)
{
	struct sssp_options *o = opts;
	if (key == O_PARENTS) {
		o->parents = true;
		return 0;
	}
	if (!strcmp(arg, "auto") || !strcmp(arg, "off")) {
		o->live = *arg == 'a' ? LIVE_AUTO : LIVE_OFF;
		return 0;
	}
	if (*arg < '0' || *arg > '9')
		return ordo_err_set(err, ORDO_EINVAL,
		                    "--live %s: expected auto, off or a grain 0..64", arg);
	int64_t g;
	const int rc = ordo_cli_parse_int("--live", arg, 0, 64, &g, err);
	o->live = (int)g;
	return rc;
}

static const struct sssp_options sssp_defaults = {false, LIVE_AUTO};

struct sssp_state {
	const struct ordo_graph *g;
	_Atomic uint64_t *dist;
	uint64_t *ref;
	bool parents;     /* --parents */
	int live;         /* --live */
	uint32_t *parent; /* the last run's tree, made by answer */
	uint32_t source;  /* the last run's */
};

static int init(void **st, const struct ordo_graph *g, const struct ordo_app_env *env,
                struct ordo_err *err)
{
	struct sssp_state *s = calloc(1, sizeof *s);
	if (!s)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	*st = s;
	s->g = g;
	const struct sssp_options *opt = env->opts ? env->opts : &sssp_defaults;
	s->parents = opt->parents;
	s->live = opt->live;
	if (s->live == LIVE_AUTO && !ordo_sssp_live_fits(g))
		s->live = LIVE_OFF; /* distances could need bit 63 */
	s->dist = ordo_alloc_huge((size_t)g->n * sizeof *s->dist + 8);
	s->ref = ordo_alloc_huge((size_t)g->n * sizeof *s->ref + 8);
	if (!s->dist || !s->ref)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory for distances");
	return 0;
}

static void fini(void *st)
{
	struct sssp_state *s = st;
	free(s->dist);
	free(s->ref);
	free(s->parent);
	free(s);
}

static int baseline(void *st, const struct ordo_app_query *q, struct ordo_app_baseline *b,
                    struct ordo_err *err)
{
	struct sssp_state *s = st;
	return ordo_dijkstra(s->g, q->source, s->ref, &b->tasks, err);
}

static int run(void *st, const struct ordo_app_query *q, struct ordo_scheduler *wl,
               const struct ordo_exec_opts *o, struct ordo_run_stats *rs, struct ordo_err *err)
{
	struct sssp_state *s = st;
	s->source = q->source;
	int grain = s->live;
	if (grain == LIVE_AUTO) /* the live form where the scheduler's buckets are wide */
		grain = ordo_scheduler_grain(wl) >= ORDO_SSSP_LIVE_GRAIN
		            ? (int)ordo_scheduler_grain(wl)
		            : LIVE_OFF;
	return ordo_sssp_live(s->g, q->source, wl, o, grain, s->dist, rs, err);
}

static void check(void *st, const struct ordo_app_query *q, struct ordo_check *c)
{
	(void)q;
	struct sssp_state *s = st;
	ordo_sssp_check(s->g, s->dist, s->ref, c);
}

static int answer(void *st, struct ordo_app_array *out, int max, struct ordo_err *err)
{
	struct sssp_state *s = st;
	const int k =
	    ordo_app_answer_one(out, max, "dist", (const void *)s->dist, s->g->n, 8, true);
	if (!s->parents || k < 1 || max < 2)
		return k;
	if (!s->parent && !(s->parent = malloc(((size_t)s->g->n + 1) * sizeof *s->parent)))
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory for the parents"), -1;
	ordo_sp_parents(s->g, s->dist, s->source, s->parent);
	out[1] = (struct ordo_app_array){"parent", s->parent, s->g->n, 4, true, true};
	return 2;
}

/* The kernel: this binary's, and the apps library's (ordo_apps.h, for bindings). */
const struct ordo_app_kernel ordo_kernel_sssp = {
    .name = "sssp",
    .summary = "single-source shortest paths (a task per improved distance; on wide buckets one "
               "per node and bucket, --live)",
    .baseline_name = "Dijkstra (its settled nodes are the baseline tasks)",
    .default_gen = "road:W=1024,H=1024",
    .default_wl = "obim",
    .delta_from_graph = true,
    .query = ORDO_APP_QUERY_SOURCE,
    .figures = {"reached", "max_dist"},
    .opts = sssp_opts,
    .opts_size = sizeof(struct sssp_options),
    .opts_defaults = &sssp_defaults,
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
	return ordo_app_main(&ordo_kernel_sssp, argc, argv);
}
#endif
