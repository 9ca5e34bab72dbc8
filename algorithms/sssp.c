/*
 * sssp - single-source shortest paths with any registered scheduler, verified against
 * Dijkstra. `sssp --help` lists the options; with no input it runs on a generated
 * road-like graph of about a million nodes.
 */
#include <stdlib.h>

#include "app.h"

struct sssp_state {
	const struct ordo_graph *g;
	_Atomic uint64_t *dist;
	uint64_t *ref;
};

static int init(void **st, const struct ordo_graph *g, struct ordo_err *err)
{
	struct sssp_state *s = calloc(1, sizeof *s);
	if (!s)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	s->g = g;
	s->dist = ordo_alloc_huge((size_t)g->n * sizeof *s->dist + 8);
	s->ref = ordo_alloc_huge((size_t)g->n * sizeof *s->ref + 8);
	*st = s;
	if (!s->dist || !s->ref)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory for distances");
	return 0;
}

static void fini(void *st)
{
	struct sssp_state *s = st;
	free(s->dist);
	free(s->ref);
	free(s);
}

static int baseline(void *st, uint32_t src, uint64_t *tasks, struct ordo_err *err)
{
	struct sssp_state *s = st;
	return ordo_dijkstra(s->g, src, s->ref, tasks, err);
}

static int run(void *st, uint32_t src, struct ordo_worklist *wl, const struct ordo_exec_opts *o,
               struct ordo_run_stats *rs, struct ordo_err *err)
{
	struct sssp_state *s = st;
	return ordo_sssp(s->g, src, wl, o, s->dist, rs, err);
}

static bool verify(void *st, struct ordo_check *c)
{
	struct sssp_state *s = st;
	return ordo_sssp_check(s->g, s->dist, s->ref, c);
}

int main(int argc, char **argv)
{
	static const struct app_kernel k = {
	    .name = "sssp",
	    .default_gen = "road:W=1024,H=1024",
	    .default_wl = "obim",
	    .init = init,
	    .fini = fini,
	    .baseline = baseline,
	    .run = run,
	    .verify = verify,
	};
	return app_main(&k, argc, argv);
}
