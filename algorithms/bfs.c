/*
 * bfs - breadth-first search levels with any registered scheduler, verified against a
 * sequential queue BFS. `bfs --help` lists the options; with no input it runs on a
 * generated road-like graph of about a million nodes.
 */
#include <stdlib.h>

#include "ordo_app.h"
#include "ordo_bfs.h"

struct bfs_state {
	const struct ordo_graph *g;
	_Atomic uint32_t *level;
	uint32_t *ref;
};

static int init(void **st, const struct ordo_graph *g, const struct app_env *env,
                struct ordo_err *err)
{
	(void)env;
	struct bfs_state *s = calloc(1, sizeof *s);
	if (!s)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	*st = s;
	s->g = g;
	s->level = ordo_alloc_huge((size_t)g->n * sizeof *s->level + 8);
	s->ref = ordo_alloc_huge((size_t)g->n * sizeof *s->ref + 8);
	if (!s->level || !s->ref)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory for levels");
	return 0;
}

static void fini(void *st)
{
	struct bfs_state *s = st;
	free(s->level);
	free(s->ref);
	free(s);
}

static int baseline(void *st, const struct app_query *q, struct app_baseline *b,
                    struct ordo_err *err)
{
	struct bfs_state *s = st;
	return ordo_bfs_seq(s->g, q->source, s->ref, &b->tasks, err);
}

static int run(void *st, const struct app_query *q, struct ordo_worklist *wl,
               const struct ordo_exec_opts *o, struct ordo_run_stats *rs, struct ordo_err *err)
{
	struct bfs_state *s = st;
	return ordo_bfs(s->g, q->source, wl, o, s->level, rs, err);
}

static void check(void *st, const struct app_query *q, struct ordo_check *c)
{
	(void)q;
	struct bfs_state *s = st;
	ordo_bfs_check(s->g, s->level, s->ref, c);
}

int main(int argc, char **argv)
{
	static const struct app_kernel k = {
	    .name = "bfs",
	    .summary = "breadth-first search levels (priority = level; arc weights ignored)",
	    .baseline_name = "queue BFS (its visited nodes are the baseline tasks)",
	    .default_gen = "road:W=1024,H=1024",
	    .default_wl = "obim:delta=0",
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
