/* An app outside ordo built on the installed harness (see install_test.sh): BFS levels
 * from the installed operator library, with ordo's options, trials, report, records and
 * verification. */
#include <stdlib.h>

#include "ordo_app.h"
#include "ordo_bfs.h"

struct st {
	const struct ordo_graph *g;
	_Atomic uint32_t *level;
	uint32_t *ref;
};

static int init(void **out, const struct ordo_graph *g, const struct app_env *env,
                struct ordo_err *err)
{
	(void)env;
	struct st *s = calloc(1, sizeof *s);
	*out = s;
	if (!s || !(s->level = malloc(g->n * sizeof *s->level)) ||
	    !(s->ref = malloc(g->n * sizeof *s->ref)))
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	s->g = g;
	return 0;
}

static void fini(void *p)
{
	struct st *s = p;
	free((void *)s->level);
	free(s->ref);
	free(s);
}

static int baseline(void *p, const struct app_query *q, struct app_baseline *b,
                    struct ordo_err *err)
{
	struct st *s = p;
	return ordo_bfs_seq(s->g, q->source, s->ref, &b->tasks, err);
}

static int run(void *p, const struct app_query *q, struct ordo_worklist *wl,
               const struct ordo_exec_opts *o, struct ordo_run_stats *rs, struct ordo_err *err)
{
	struct st *s = p;
	return ordo_bfs(s->g, q->source, wl, o, s->level, rs, err);
}

static void check(void *p, const struct app_query *q, struct ordo_check *c)
{
	(void)q;
	struct st *s = p;
	ordo_bfs_check(s->g, s->level, s->ref, c);
}

int main(int argc, char **argv)
{
	static const struct app_kernel k = {
	    .name = "levels",
	    .summary = "BFS levels, as an out-of-tree app",
	    .baseline_name = "queue BFS",
	    .default_gen = "grid:W=16,H=16",
	    .default_wl = "smq",
	    .query = APP_QUERY_SOURCE,
	    .figures = {"reached", "max_level"},
	    .init = init,
	    .fini = fini,
	    .baseline = baseline,
	    .run = run,
	    .check = check,
	};
	return app_main(&k, argc, argv);
}
