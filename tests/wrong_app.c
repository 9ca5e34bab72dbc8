/*
 * wrong_app: an app on the harness whose answer is always wrong (node 0 gets 1 where
 * the baseline says 0), so that tests can see what the harness does with a failed
 * verification: exit status 1, the FAIL verdict in every record, and a line on stderr
 * even with -q (cli_test.sh). With --right its check finds nothing wrong: the harness
 * hands every check an empty, passing one, so a kernel that never calls
 * ordo_check_init passes (it used to FAIL with 0 mismatches). It needs self-loops
 * (ORDO_APP_NEEDS_SELF_LOOPS) and reports how many arcs u -> u it was given, so the
 * tests see that the harness read them.
 */
#include <stdlib.h>

#include "ordo_app.h"

/* the options block: --right (the harness allocates it, hands it to option, then to
 * init as env->opts) */
struct wrong_options {
	bool right;
};

static int option(void *opts, int key, const char *arg, struct ordo_err *err)
{
	(void)key, (void)arg, (void)err;
	((struct wrong_options *)opts)->right = true;
	return 0;
}

/* the state: a copy of the options, and the graph's self-loops */
struct wrong_state {
	struct wrong_options o;
	uint64_t loops;
};

static int init(void **st, const struct ordo_graph *g, const struct ordo_app_env *env,
                struct ordo_err *err)
{
	struct wrong_state *s = malloc(sizeof *s);
	if (!s)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	s->o = *(const struct wrong_options *)env->opts;
	s->loops = 0;
	for (uint32_t u = 0; u < g->n; u++) {
		uint32_t w, wt;
		for (struct ordo_arcs a = ordo_graph_arcs(g, u); ordo_arcs_next(&a, &w, &wt);)
			s->loops += w == u;
	}
	*st = s;
	return 0;
}

static void fini(void *st)
{
	free(st);
}

static int baseline(void *st, const struct ordo_app_query *q, struct ordo_app_baseline *b,
                    struct ordo_err *err)
{
	(void)st, (void)q, (void)err;
	b->tasks = 1;
	return 0;
}

static int run(void *st, const struct ordo_app_query *q, struct ordo_scheduler *wl,
               const struct ordo_exec_opts *o, struct ordo_run_stats *rs, struct ordo_err *err)
{
	(void)st, (void)q, (void)wl, (void)o, (void)err;
	rs->tasks = 1;
	return 0;
}

static void check(void *st, const struct ordo_app_query *q, struct ordo_check *c)
{
	(void)q;
	const struct wrong_state *s = st;
	if (!s->o.right) /* no ordo_check_init: the harness's */
		ordo_check_mismatch(c, "node %u has value %u, expected %u", 0u, 1u, 0u);
	ordo_check_figure(c, "self_loops", s->loops);
}

static const struct ordo_cli_opt opts[] = {
    {"right", ORDO_APP_OPT_KEY, NULL, "a right answer instead"},
    {NULL, 0, NULL, NULL},
};

int main(int argc, char **argv)
{
	static const struct ordo_app_kernel k = {
	    .name = "wrong",
	    .summary = "a deliberately wrong answer (tests of the harness)",
	    .baseline_name = "nothing",
	    .default_gen = "road:W=8,H=8",
	    .default_wl = "fifo",
	    .query = ORDO_APP_QUERY_NONE,
	    .needs = ORDO_APP_NEEDS_SELF_LOOPS,
	    .figures = {"self_loops"},
	    .opts = opts,
	    .opts_size = sizeof(struct wrong_options),
	    .option = option,
	    .init = init,
	    .fini = fini,
	    .baseline = baseline,
	    .run = run,
	    .check = check,
	};
	return ordo_app_main(&k, argc, argv);
}
