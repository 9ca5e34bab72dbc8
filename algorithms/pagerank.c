/*
 * pagerank - PageRank (algorithms/lib/pagerank.c): by default pull sweeps of the power
 * iteration over the in-arcs (no scheduler, no atomics) until the last sweep bounds the
 * error; with --algo push (or an explicit --wl) by residual push on any registered
 * scheduler, priority = a node's residual, larger first. The ranks are verified within
 * --tolerance (L1, normalised ranks) against a power iteration run 100 times finer;
 * the work ratio's denominator is, for push, the sequential residual push's tasks (a FIFO
 * of pending nodes), for pull the sequential power iteration's nodes + arcs to the same
 * rule, so the reference answer and the work baseline may come from two algorithms. The input is
 * read with its self-loops (they count, as in NetworkX); weights are ignored. `pagerank --help`
 * lists the options; with no input it runs on a generated R-MAT graph.
 */
#include <stdlib.h>
#include <string.h>

#include "ordo_app.h"
#include "ordo_apps.h"
#include "ordo_pagerank.h"

enum { O_DAMPING = ORDO_APP_OPT_KEY, O_TOLERANCE, O_ALGO, O_OMEGA };
enum { ALGO_PULL, ALGO_PUSH };

static const struct ordo_cli_opt pr_opts[] = {
    {"damping", O_DAMPING, "D", "the damping factor, 0 < D < 1 (0.85)"},
    {"tolerance", O_TOLERANCE, "T",
     "the L1 distance of the normalised ranks from the exact ones that the run may leave, "
     "and the check's bound (1e-4)"},
    {"algo", O_ALGO, "pull|push",
     "pull (default): Gauss-Seidel sweeps over the in-arcs, no scheduler; push: "
     "residual push on a scheduler (--wl; the default when --wl is given)"},
    {"omega", O_OMEGA, "W",
     "pull: the sweeps' over-relaxation, 0 < W < 2 (1.3; 1 is plain Gauss-Seidel): each "
     "rank moves W times the way to its new sum"},
    {NULL, 0, NULL, NULL},
};

struct pr_options {
	double damping, tolerance, omega;
	int algo; /* -1: not given */
};
static const struct pr_options pr_option_defaults = {
    .damping = 0.85, .tolerance = 1e-4, .omega = ORDO_PAGERANK_OMEGA, .algo = -1};

static int algo_of(const void *opts, bool wl_given)
{
	return ordo_app_algo(((const struct pr_options *)opts)->algo, wl_given, ALGO_PUSH,
	                     ALGO_PULL);
}

static bool uses_scheduler(const void *opts, bool wl_given, int threads)
{
	(void)threads;
	return algo_of(opts, wl_given) == ALGO_PUSH;
}

static int option(void *opts, int key, const char *arg, struct ordo_err *err)
{
	struct pr_options *o = opts;
	static const char *const algos[] = {"pull", "push", NULL};
	if (key == O_ALGO)
		return ordo_cli_parse_choice("--algo", arg, algos, &o->algo, err);
	double x;
	const char *name = key == O_DAMPING     ? "--damping"
	                   : key == O_TOLERANCE ? "--tolerance"
	                                        : "--omega";
	int rc = ordo_cli_parse_double(name, arg, false, &x, err);
	if (rc)
		return rc;
	if (key == O_OMEGA) {
		if (x >= 2)
			return ordo_err_set(err, ORDO_EINVAL,
			                    "--omega %s: expected a number in (0, 2)", arg);
		o->omega = x;
		return 0;
	}
	if (key == O_DAMPING && x >= 1)
		return ordo_err_set(err, ORDO_EINVAL, "--damping %s: expected a number in (0, 1)",
		                    arg);
	if (key == O_TOLERANCE && x > 1)
		return ordo_err_set(err, ORDO_EINVAL, "--tolerance %s: expected a number in (0, 1]",
		                    arg);
	*(key == O_DAMPING ? &o->damping : &o->tolerance) = x;
	return 0;
}

struct pr_state {
	const struct ordo_graph *g;
	_Atomic double *rank;
	double *ref, *seq;
	double d, tol, tau, omega;
	uint64_t ref_iterations;
	int algo;
	struct ordo_graph *gt; /* pull: the in-arcs */
	uint32_t *deg;         /* pull: out-degrees */
	FILE *report;          /* the run's report (may be NULL) */
	bool noted;            /* the note on fine buckets was given */
};

static int init(void **st, const struct ordo_graph *g, const struct ordo_app_env *env,
                struct ordo_err *err)
{
	struct pr_state *s = calloc(1, sizeof *s);
	if (!s)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	*st = s;
	const struct pr_options *o = env->opts;
	s->g = g;
	s->d = o->damping;
	s->tol = o->tolerance;
	s->omega = o->omega;
	s->tau = ordo_pagerank_tau(g->n, s->d, s->tol);
	s->algo = algo_of(o, env->wl_given);
	s->report = env->report;
	if (s->algo == ALGO_PULL) {
		int rc = ordo_graph_transposed(g, env->topo->nthreads, &s->gt, err);
		if (rc)
			return rc;
		if (!(s->deg = malloc(((size_t)g->n + 1) * sizeof *s->deg)))
			return ordo_err_set(err, ORDO_ENOMEM, "out of memory for the degrees");
		for (uint32_t v = 0; v < g->n; v++)
			s->deg[v] = (uint32_t)ordo_graph_degree(g, v);
	}
	const size_t bytes = ((size_t)g->n + 1) * sizeof(double);
	s->rank = ordo_alloc_huge(bytes);
	s->ref = ordo_alloc_huge(bytes);
	s->seq = ordo_alloc_huge(bytes);
	if (!s->rank || !s->ref || !s->seq)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory for the ranks");
	if (env->report && s->algo == ALGO_PUSH)
		fprintf(env->report,
		        "pagerank: residual push, damping %g, tolerance %g (L1, normalised ranks): "
		        "residuals pushed from %.3g\n",
		        s->d, s->tol, s->tau);
	else if (env->report)
		fprintf(env->report,
		        "pagerank: pull sweeps (--algo pull; Gauss-Seidel over-relaxed by %g "
		        "(--omega), %s shares), no scheduler (--wl or --algo push runs one), "
		        "damping %g, tolerance %g (L1, normalised ranks)\n",
		        s->omega, ordo_pagerank_float_shares(s->d, s->tol) ? "float" : "double",
		        s->d, s->tol);
	return 0;
}

static void fini(void *st)
{
	struct pr_state *s = st;
	free((void *)s->rank);
	free(s->ref);
	free(s->seq);
	free(s->deg);
	ordo_graph_free(s->gt);
	free(s);
}

/* The work baseline, timed: the sequential residual push; then the reference answer, a
 * power iteration, untimed. */
static int baseline(void *st, const struct ordo_app_query *q, struct ordo_app_baseline *b,
                    struct ordo_err *err)
{
	(void)q;
	struct pr_state *s = st;
	uint64_t at_tol = 0;
	if (s->algo ==
	    ALGO_PULL) { /* the reference is the sequential iteration: timed to its step for tol */
		int rc = ordo_pagerank_reference(s->g, s->d, s->tol, s->ref, &s->ref_iterations,
		                                 &at_tol, &b->seconds, err);
		b->tasks = at_tol * ((uint64_t)s->g->n + s->g->m);
		return rc;
	}
	const double t0 = ordo_now();
	int rc = ordo_pagerank_seq(s->g, s->d, s->tau, s->seq, &b->tasks, err);
	b->seconds = ordo_now() - t0;
	if (!rc)
		rc = ordo_pagerank_reference(s->g, s->d, s->tol, s->ref, &s->ref_iterations, NULL,
		                             NULL, err);
	return rc;
}

static int run(void *st, const struct ordo_app_query *q, struct ordo_scheduler *wl,
               const struct ordo_exec_opts *o, struct ordo_run_stats *rs, struct ordo_err *err)
{
	(void)q;
	struct pr_state *s = st;
	const unsigned grain = wl ? ordo_scheduler_grain(wl) : 0;
	if (s->algo == ALGO_PUSH && grain > 0 && grain < 40 && s->report && !s->noted) {
		s->noted = true; /* once, before the first trial */
		fprintf(s->report,
		        "pagerank: note: %s groups priorities that agree above bit %u: nearly "
		        "every residual gets a bucket of its own, and a bucketed scheduler rescans "
		        "the emptied ones (obim:delta=10 ran over a minute on ca-AstroPh, 18,772 "
		        "nodes; delta=56, what this app sets where the spec does not, 0.1 s)\n",
		        wl->spec, grain);
	}
	if (s->algo == ALGO_PUSH)
		return ordo_pagerank(s->g, wl, o, s->d, s->tau, s->rank, rs, err);
	struct ordo_pagerank_stats ps;
	int rc =
	    ordo_pagerank_pull(s->gt, s->deg, o->topo, s->d, s->tol, s->omega, s->rank, &ps, err);
	if (rc)
		return rc;
	if (ps.fell_back && s->report && !s->noted) {
		s->noted = true; /* once */
		fprintf(s->report,
		        "pagerank: note: a sweep over-relaxed by %g changed the ranks more than "
		        "the one before; the sweeps went on as plain Gauss-Seidel (--omega 1)\n",
		        s->omega);
	}
	memset(rs, 0, sizeof *rs);
	rs->seconds = ps.seconds;
	rs->threads = ps.threads;
	rs->tasks = ps.sweeps * ((uint64_t)s->g->n + s->g->m);
	return 0;
}

static void check(void *st, const struct ordo_app_query *q, struct ordo_check *c)
{
	(void)q;
	struct pr_state *s = st;
	ordo_pagerank_check(s->g->n, s->rank, s->ref, s->tol, c);
	ordo_check_figure(c, "reference_iterations", s->ref_iterations);
}

static int answer(void *st, struct ordo_app_array *out, int max, struct ordo_err *err)
{
	(void)err;
	const struct pr_state *s = st;
	if (max < 1)
		return 0;
	out[0] = (struct ordo_app_array){.name = "rank",
	                                 .data = (const void *)s->rank,
	                                 .count = s->g->n,
	                                 .width = 8,
	                                 .per_node = true,
	                                 .real = true};
	return 1;
}

/* The kernel: this binary's, and the apps library's (ordo_apps.h, for bindings). */
const struct ordo_app_kernel ordo_kernel_pagerank = {
    .name = "pagerank",
    .summary = "PageRank (pull sweeps; --algo push: residual push, priority = a node's "
               "residual, larger first; arc weights ignored, self-loops counted)",
    .baseline_name = "sequential residual push (a FIFO of pending nodes); the ranks "
                     "against a power iteration",
    .work_note = "pull: tasks = sweeps x (nodes + arcs), baseline the sequential power "
                 "iteration's to the same rule; push: tasks = pushes of a node's residual, "
                 "baseline the sequential push's",
    .default_gen = "rmat:scale=16,ef=8",
    /* A task's priority is its node's residual when it was pushed (as it rose to tau),
     * not the live one, so a priority order runs small residuals first: on rmat16 at
     * 2 threads fifo took 0.46 s (work 0.97), obim:delta=56 0.72 s (1.53), pmod 0.80 s
     * (1.61), obim:delta=52 1.34 s (3.47), smq 35.8 s (28.7). */
    .default_wl = "fifo",
    .wl_params = ORDO_PAGERANK_WL_PARAMS, /* a bucketed scheduler a user picks */
    .uses_scheduler = uses_scheduler,
    .query = ORDO_APP_QUERY_NONE,
    .needs = ORDO_APP_NEEDS_SELF_LOOPS,
    .figures = {"l1_error", "reference_iterations"},
    .opts = pr_opts,
    .opts_size = sizeof(struct pr_options),
    .opts_defaults = &pr_option_defaults,
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
	return ordo_app_main(&ordo_kernel_pagerank, argc, argv);
}
#endif
