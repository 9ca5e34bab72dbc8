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
#include "ordo_util.h"

enum { O_PARENTS = ORDO_APP_OPT_KEY, O_LIVE, O_LABELS, O_LEAVES };

static const struct ordo_cli_opt sssp_opts[] = {
    {"parents", O_PARENTS, NULL,
     "also give each node's parent in a shortest-path tree (the source's is itself): a "
     "`parent` column or array in --output"},
    {"live", O_LIVE, "auto|off|G",
     "one queued task per node and grain, run with the node's distance when it starts "
     "(auto, the default: at a bucketed scheduler's grain, its delta, when that is 4 or "
     "more; off: a task per relaxation, as on an exact scheduler; G: this grain, 0..64)"},
    {"labels", O_LABELS, "auto|32|64",
     "bits of the distances the run keeps (auto, the default: 32, and once a distance "
     "would pass 2^31 - 2, that trial again and every later one in 64; the answer is "
     "64-bit either way)"},
    {"leaves", O_LEAVES, "on|off",
     "on (the default): nodes whose task could lower no distance (no arc, or one back to "
     "the only node with arcs into them) get their distance without a task, so a run can "
     "do fewer tasks than Dijkstra settles; off: a task for every node, as Dijkstra"},
    {NULL, 0, NULL, NULL},
};

enum { LIVE_AUTO = -2, LIVE_OFF = -1 };
enum { LABELS_AUTO = 0, LABELS_32 = 32, LABELS_64 = 64 };

struct sssp_options {
	bool parents;
	int live;   /* LIVE_AUTO, LIVE_OFF or a grain */
	int labels; /* LABELS_* */
	bool leaves;
};

static int option(void *opts, int key, const char *arg, struct ordo_err *err)
{
	struct sssp_options *o = opts;
	if (key == O_PARENTS) {
		o->parents = true;
		return 0;
	}
	if (key == O_LEAVES) {
		if (strcmp(arg, "on") && strcmp(arg, "off"))
			return ordo_err_set(err, ORDO_EINVAL, "--leaves %s: expected on or off",
			                    arg);
		o->leaves = arg[1] == 'n';
		return 0;
	}
	if (key == O_LABELS) {
		o->labels = !strcmp(arg, "auto") ? LABELS_AUTO
		            : !strcmp(arg, "32") ? LABELS_32
		            : !strcmp(arg, "64") ? LABELS_64
		                                 : -1;
		return o->labels < 0 ? ordo_err_set(err, ORDO_EINVAL,
		                                    "--labels %s: expected auto, 32 or 64", arg)
		                     : 0;
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

static const struct sssp_options sssp_defaults = {false, LIVE_AUTO, LABELS_AUTO, true};

struct sssp_state {
	const struct ordo_graph *g;
	_Atomic uint64_t *dist;   /* the answer, 64-bit */
	_Atomic uint32_t *narrow; /* the run's distances while they fit 32 bits, or NULL */
	bool widen;               /* narrow holds the last run's distances, dist not yet */
	int labels;               /* --labels */
	int threads;              /* for widening */
	FILE *report;
	uint64_t *leaves; /* ordo_sssp_leaves', or NULL (--leaves off) */
	uint64_t *ref;
	bool parents;     /* --parents */
	int live;         /* --live */
	uint32_t *parent; /* the last run's tree, made by answer */
	uint32_t source;  /* the last run's */
	double degree;    /* ordo_graph_mean_degree */
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
	s->labels = opt->labels;
	s->threads = env->topo->nthreads;
	s->report = env->report;
	s->dist = ordo_alloc_huge((size_t)g->n * sizeof *s->dist + 8);
	s->ref = ordo_alloc_huge((size_t)g->n * sizeof *s->ref + 8);
	if (s->labels != LABELS_64)
		s->narrow = ordo_alloc_huge((size_t)g->n * sizeof *s->narrow + 8);
	if (!s->dist || !s->ref || (s->labels != LABELS_64 && !s->narrow))
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory for distances");
	s->degree = env->mean_degree > 0 ? env->mean_degree : ordo_graph_mean_degree(g);
	const bool reads = ordo_sssp_reads_labels(s->degree, s->threads);
	if (s->report && s->threads > 1)
		fprintf(s->report,
		        "sssp: neighbours' distances prefetched for %s (mean degree %.1f %s %g)\n",
		        reads ? "reading" : "writing", s->degree,
		        reads ? ">" : "<=", ORDO_SSSP_READ_DEGREE);
	if (!opt->leaves)
		return 0;
	const double t0 = ordo_now();
	uint64_t count;
	if (ordo_sssp_leaves(g, s->threads, &s->leaves, &count, err))
		return err->code;
	if (s->report)
		fprintf(s->report,
		        "leaves: %llu nodes whose task could lower no distance get theirs without "
		        "one (found in %.3f s; --leaves off: a task for every node)\n",
		        (unsigned long long)count, ordo_now() - t0);
	return 0;
}

static void fini(void *st)
{
	struct sssp_state *s = st;
	free(s->dist);
	free(s->narrow);
	free(s->leaves);
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

/* A trial's figures when it ran twice (32-bit labels overflowed): both runs' time and
 * work; per worker, the sums of the two runs' figures. */
static void add_run(struct ordo_run_stats *rs, const struct ordo_run_stats *a)
{
	rs->seconds += a->seconds;
	rs->tasks += a->tasks, rs->empty += a->empty, rs->pushes += a->pushes;
	rs->failed_pops += a->failed_pops;
	for (int i = 0; i < ORDO_SCHED_STATS; i++)
		rs->wl_stat[i] += a->wl_stat[i];
	rs->tasks_min += a->tasks_min, rs->tasks_median += a->tasks_median;
	rs->tasks_max += a->tasks_max;
	rs->parks += a->parks, rs->handed_over += a->handed_over;
	rs->idle_cpu_s += a->idle_cpu_s, rs->idle_sleeps += a->idle_sleeps;
	rs->task_loops += a->task_loops, rs->loop_items_helped += a->loop_items_helped;
	for (int i = 0; i < ORDO_STATS_THREADS; i++) {
		rs->thread_busy_s[i] += a->thread_busy_s[i];
		rs->thread_idle_s[i] += a->thread_idle_s[i];
		rs->thread_descheduled_s[i] += a->thread_descheduled_s[i];
	}
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
	s->widen = false;
	struct ordo_sssp_run r = {.grain = grain, .leaves = s->leaves, .mean_degree = s->degree};
	if (s->narrow) {
		r.narrow = s->narrow;
		int rc = ordo_sssp_run(s->g, q->source, wl, o, &r, rs, err);
		if (rc || !r.overflow) {
			s->widen = !rc;
			return rc;
		}
		if (s->labels == LABELS_32)
			return ordo_err_set(
			    err, ORDO_ERANGE, "--labels 32: a distance from node %u passes %u",
			    ordo_graph_orig_of(s->g, q->source), (unsigned)ORDO_SSSP_NARROW_MAX);
		/* the same trial again, its time and work added, and 64 bits from now on */
		if (s->report)
			fprintf(s->report,
			        "sssp: a distance passes %u: 64-bit distances from this trial on\n",
			        (unsigned)ORDO_SSSP_NARROW_MAX);
		free(s->narrow);
		s->narrow = NULL;
		struct ordo_run_stats first = *rs;
		r.narrow = NULL;
		r.dist = s->dist;
		rc = ordo_sssp_run(s->g, q->source, wl, o, &r, rs, err);
		add_run(rs, &first);
		return rc;
	}
	r.dist = s->dist;
	return ordo_sssp_run(s->g, q->source, wl, o, &r, rs, err);
}

/* The answer array from the last run's 32-bit distances (outside the timed run). */
static void settle(struct sssp_state *s)
{
	if (s->widen)
		ordo_sssp_widen(s->narrow, s->dist, s->g->n, s->threads);
	s->widen = false;
}

static void check(void *st, const struct ordo_app_query *q, struct ordo_check *c)
{
	(void)q;
	struct sssp_state *s = st;
	settle(s);
	ordo_sssp_check(s->g, s->dist, s->ref, c);
}

static int answer(void *st, struct ordo_app_array *out, int max, struct ordo_err *err)
{
	struct sssp_state *s = st;
	settle(s);
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
