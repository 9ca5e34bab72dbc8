/*
 * components - connected components (weakly connected for a directed input, which is
 * made symmetric first): every node labelled with the smallest node id of its
 * component, verified against union-find. By default Afforest (algorithms/lib/cc.c:
 * sampling rounds, then only the nodes outside the largest component link along their
 * other arcs; no scheduler); with --algo lp (or an explicit --wl) label propagation on
 * any registered scheduler, priority = the label, a task superseded by a better one of
 * its node dropped unread. Weights are ignored. Not called `cc`: that is the C
 * compiler's name, and an installed ordo would shadow it. `components --help` lists
 * the options; with no input it runs on a generated R-MAT graph.
 */
#include <stdlib.h>
#include <string.h>

#include "ordo_app.h"
#include "ordo_apps.h"
#include "ordo_cc.h"

enum { O_ALGO = ORDO_APP_OPT_KEY, O_ROUNDS };

static const struct ordo_cli_opt cc_opts[] = {
    {"algo", O_ALGO, "afforest|lp",
     "afforest (default): sampling rounds, then the nodes outside the largest component, "
     "no scheduler; lp: label propagation on a scheduler (--wl; the default when --wl is "
     "given)"},
    {"rounds", O_ROUNDS, "R",
     "afforest: arcs per node linked before the largest component is sought (2; 0: every "
     "arc of every node)"},
    {NULL, 0, NULL, NULL},
};

enum { ALGO_AFFOREST, ALGO_LP };

/* the options block: --algo (-1 when not given) and --rounds */
struct cc_options {
	int algo;
	int64_t rounds;
};
static const struct cc_options cc_option_defaults = {.algo = -1, .rounds = 2};

static int option(void *opts, int key, const char *arg, struct ordo_err *err)
{
	static const char *const algos[] = {"afforest", "lp", NULL};
	struct cc_options *o = opts;
	return key == O_ROUNDS ? ordo_cli_parse_int("--rounds", arg, 0, 64, &o->rounds, err)
	                       : ordo_cli_parse_choice("--algo", arg, algos, &o->algo, err);
}

/* The algorithm a run takes: --algo's, else lp when --wl is given, else Afforest. */
static int algo_of(const void *opts, bool wl_given)
{
	return ordo_app_algo(((const struct cc_options *)opts)->algo, wl_given, ALGO_LP,
	                     ALGO_AFFOREST);
}

static bool uses_scheduler(const void *opts, bool wl_given, int threads)
{
	(void)threads;
	return algo_of(opts, wl_given) == ALGO_LP;
}

struct cc_state {
	const struct ordo_graph *g;
	_Atomic uint32_t *label;
	uint32_t *ref;
	uint32_t *out; /* the answer: each node's component named by its smallest input id */
	int algo;
	unsigned rounds;
};

static int init(void **st, const struct ordo_graph *g, const struct ordo_app_env *env,
                struct ordo_err *err)
{
	struct cc_state *s = calloc(1, sizeof *s);
	if (!s)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	*st = s;
	const struct cc_options *o = env->opts;
	s->g = g;
	s->algo = algo_of(o, env->wl_given);
	s->rounds = (unsigned)o->rounds;
	s->label = ordo_alloc_huge((size_t)g->n * sizeof *s->label + 8);
	s->ref = ordo_alloc_huge((size_t)g->n * sizeof *s->ref + 8);
	if (!s->label || !s->ref)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory for component labels");
	ordo_cc_touch(s->label, g->n, env->topo); /* faulted in now, not in a run's time */
	if (env->report && s->algo == ALGO_AFFOREST)
		fprintf(env->report,
		        "components: Afforest (--algo afforest, %u sampling rounds), no scheduler "
		        "(--wl "
		        "or --algo lp runs one)\n",
		        s->rounds);
	return 0;
}

static void fini(void *st)
{
	struct cc_state *s = st;
	free((void *)s->label);
	free(s->ref);
	free(s->out);
	free(s);
}

static int baseline(void *st, const struct ordo_app_query *q, struct ordo_app_baseline *b,
                    struct ordo_err *err)
{
	(void)q;
	struct cc_state *s = st;
	uint64_t k;
	/* union-find takes each node and examines each arc once; label propagation's
	 * floor is one task per node with arcs (a node without any keeps its own label) */
	if (s->algo == ALGO_AFFOREST) {
		b->tasks = s->g->n + s->g->m;
	} else {
		b->tasks = 0;
		for (uint32_t v = 0; v < s->g->n; v++)
			b->tasks += ordo_graph_degree(s->g, v) > 0;
	}
	return ordo_cc_seq(s->g, s->ref, &k, err);
}

static int run(void *st, const struct ordo_app_query *q, struct ordo_scheduler *wl,
               const struct ordo_exec_opts *o, struct ordo_run_stats *rs, struct ordo_err *err)
{
	(void)q;
	struct cc_state *s = st;
	if (s->algo == ALGO_LP)
		return ordo_cc_lp(s->g, wl, o, s->label, rs, err);
	struct ordo_cc_stats cs;
	int rc = ordo_cc_afforest(s->g, o->topo, s->rounds, s->label, &cs, err);
	if (rc)
		return rc;
	memset(rs, 0, sizeof *rs);
	rs->seconds = cs.seconds;
	rs->threads = cs.threads;
	rs->tasks = s->g->n + cs.arcs;
	rs->tasks_min = cs.work_min;
	rs->tasks_median = cs.work_median;
	rs->tasks_max = cs.work_max;
	return 0;
}

static void check(void *st, const struct ordo_app_query *q, struct ordo_check *c)
{
	(void)q;
	struct cc_state *s = st;
	ordo_cc_check(s->g, s->label, s->ref, c);
}

/* The answer names each component by its node of smallest input id, as the user
 * numbers the nodes (the labels are the smallest graph ids, which a renumbered graph,
 * --reorder, orders otherwise); node ids, so written as input ids. */
static int answer(void *st, struct ordo_app_array *out, int max, struct ordo_err *err)
{
	struct cc_state *s = st;
	const struct ordo_graph *g = s->g;
	if (max < 1)
		return 0;
	if (!s->out && !(s->out = malloc((g->n ? g->n : 1) * sizeof *s->out)))
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory for the answer");
	for (uint32_t v = 0; v < g->n; v++) /* labels are roots, each its own first */
		s->out[v] = v;
	for (uint32_t v = 0; v < g->n; v++) {
		const uint32_t l = atomic_load_explicit(&s->label[v], memory_order_relaxed);
		if (ordo_graph_orig_of(g, v) < ordo_graph_orig_of(g, s->out[l]))
			s->out[l] = v;
	}
	for (uint32_t v = 0; v < g->n; v++)
		s->out[v] = s->out[atomic_load_explicit(&s->label[v], memory_order_relaxed)];
	out[0] = (struct ordo_app_array){"component", s->out, g->n, 4, true, true};
	return 1;
}

/* The kernel: this binary's, and the apps library's (ordo_apps.h, for bindings). */
const struct ordo_app_kernel ordo_kernel_components = {
    .name = "components",
    .summary = "connected components, each node labelled with its component's smallest "
               "node id (Afforest; --algo lp: label propagation, priority = the label; arc "
               "weights ignored)",
    .baseline_name = "union-find",
    .work_note = "afforest: tasks = nodes + arcs linked along, baseline nodes + arcs "
                 "(union-find examines every arc); lp: tasks = node tasks run, baseline "
                 "the nodes with arcs (each runs once at least)",
    .default_gen = "rmat:scale=18,ef=8",
    /* Label propagation floods: a wave run out of order relabels all it reaches.
     * Bucketed schedulers mix labels in a bucket and let a thread run ahead in its own:
     * road2k (4M nodes) at 2 threads did not finish in 30 s on obim or pmod, with
     * delta=0 too; smq 0.81 s. On rmat20 at 2 threads: smq 0.39 s, obim 0.25 s. */
    .default_wl = "smq",
    .wl_params = "delta=0", /* a bucketed scheduler a user picks: one label a bucket */
    .uses_scheduler = uses_scheduler,
    .query = ORDO_APP_QUERY_NONE,
    .needs = ORDO_APP_NEEDS_SYMMETRIC,
    .figures = {"components", "largest"},
    .opts = cc_opts,
    .opts_size = sizeof(struct cc_options),
    .opts_defaults = &cc_option_defaults,
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
	return ordo_app_main(&ordo_kernel_components, argc, argv);
}
#endif
