/*
 * wrong_app: an app on the harness whose answer is always wrong (node 0 gets 1 where
 * the baseline says 0), so that tests can see what the harness does with a failed
 * verification: exit status 1, the FAIL verdict in every record, and a line on stderr
 * even with -q (cli_test.sh).
 */
#include <stdlib.h>

#include "ordo_app.h"

static int init(void **st, const struct ordo_graph *g, const struct app_env *env,
                struct ordo_err *err)
{
	(void)g, (void)env, (void)err;
	*st = NULL;
	return 0;
}

static void fini(void *st)
{
	(void)st;
}

static int baseline(void *st, const struct app_query *q, struct app_baseline *b,
                    struct ordo_err *err)
{
	(void)st, (void)q, (void)err;
	b->tasks = 1;
	return 0;
}

static int run(void *st, const struct app_query *q, struct ordo_worklist *wl,
               const struct ordo_exec_opts *o, struct ordo_run_stats *rs, struct ordo_err *err)
{
	(void)st, (void)q, (void)wl, (void)o, (void)err;
	rs->tasks = 1;
	return 0;
}

static void check(void *st, const struct app_query *q, struct ordo_check *c)
{
	(void)st, (void)q;
	ordo_check_init(c);
	ordo_check_mismatch(c, "node %u has value %u, expected %u", 0u, 1u, 0u);
}

int main(int argc, char **argv)
{
	static const struct app_kernel k = {
	    .name = "wrong",
	    .summary = "a deliberately wrong answer (tests of the harness)",
	    .baseline_name = "nothing",
	    .default_gen = "road:W=8,H=8",
	    .default_wl = "fifo",
	    .query = APP_QUERY_NONE,
	    .init = init,
	    .fini = fini,
	    .baseline = baseline,
	    .run = run,
	    .check = check,
	};
	return app_main(&k, argc, argv);
}
