/*
 * astar - point-to-point shortest paths guided by node coordinates, with any registered
 * scheduler; the baseline is a sequential A* with the same heuristic (its expansions are
 * the baseline tasks) and the distance is verified against Dijkstra. `astar --help`
 * lists the options; with no input it runs on a generated road-like graph.
 */
#include <stdlib.h>
#include <string.h>

#include "ordo_app.h"
#include "ordo_apps.h"
#include "ordo_astar.h"
#include "ordo_sssp.h"

enum { O_HSCALE = ORDO_APP_OPT_KEY };

static const struct ordo_cli_opt astar_opts[] = {
    {"heuristic-scale", O_HSCALE, "X",
     "multiply straight-line lengths by X (default: the largest factor that keeps the "
     "heuristic consistent on this graph, computed at load)"},
    {NULL, 0, NULL, NULL},
};

/* astar's options block: --heuristic-scale, -1 when not given */
struct astar_options {
	double scale;
};
static const struct astar_options astar_option_defaults = {.scale = -1};

static int option(void *opts, int key, const char *arg, struct ordo_err *err)
{
	(void)key;
	return ordo_cli_parse_double("--heuristic-scale", arg, true,
	                             &((struct astar_options *)opts)->scale, err);
}

struct astar_state {
	const struct ordo_graph *g;
	struct ordo_geo geo;
	double scale;
	FILE *report;
	_Atomic uint64_t *dist; /* parallel work space */
	uint64_t *ref;          /* Dijkstra from the source, for verification */
	uint64_t seq_dist, got;
	/* the last run's path (ordo_sp_parents over its distances): its nodes from the
	 * source to the target, npath of them (0: not made yet, or no path) */
	uint32_t *parent, *path, npath;
	bool path_made;
	struct ordo_app_query last; /* the last run's query */
};

static int init(void **st, const struct ordo_graph *g, const struct ordo_app_env *env,
                struct ordo_err *err)
{
	struct astar_state *s = calloc(1, sizeof *s);
	if (!s)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	*st = s;
	s->g = g;
	s->report = env->report;
	int rc = ordo_geo_init(g, &s->geo, err);
	if (rc)
		return rc;
	s->dist = ordo_alloc_huge((size_t)g->n * sizeof *s->dist + 8);
	s->ref = ordo_alloc_huge((size_t)g->n * sizeof *s->ref + 8);
	if (!s->dist || !s->ref)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory for distances");
	const double user_scale = ((const struct astar_options *)env->opts)->scale;
	s->scale = user_scale >= 0 ? user_scale : s->geo.scale;
	if (env->report) {
		fprintf(env->report,
		        "heuristic: straight-line length between %s x %.9g; consistent up to "
		        "%.9g (min over arcs of weight / length",
		        s->geo.sphere ? "points on a 6371 km sphere (coordinates in microdegrees), "
		                        "in metres,"
		                      : "planar points, in the coordinates' unit,",
		        s->scale, s->geo.scale);
		if (s->geo.tight_u != UINT32_MAX)
			fprintf(env->report, ", at arc %u->%u", s->geo.tight_u, s->geo.tight_v);
		fprintf(env->report, ")");
		if (s->geo.zero_arcs)
			fprintf(env->report, "; %llu arcs join nodes at the same point",
			        (unsigned long long)s->geo.zero_arcs);
		if (user_scale >= 0)
			fprintf(env->report, "; --heuristic-scale %.9g is %s", user_scale,
			        user_scale <= s->geo.scale
			            ? "consistent, hence admissible"
			            : "NOT consistent on this graph: admissibility is checked "
			              "per target");
		fprintf(env->report, "\n");
	}
	return 0;
}

static void fini(void *st)
{
	struct astar_state *s = st;
	ordo_geo_free(&s->geo);
	free(s->dist);
	free(s->ref);
	free(s->parent);
	free(s->path);
	free(s);
}

/* The last run's shortest path, from the distances it left (once per run); false when
 * out of memory. */
static bool make_path(struct astar_state *s, const struct ordo_app_query *q)
{
	if (s->path_made)
		return true;
	const uint32_t n = s->g->n;
	if (!s->parent && !(s->parent = malloc(((size_t)n + 1) * sizeof *s->parent)))
		return false;
	if (!s->path && !(s->path = malloc(((size_t)n + 1) * sizeof *s->path)))
		return false;
	ordo_sp_parents(s->g, s->dist, q->source, s->parent);
	s->npath =
	    s->got == ORDO_DIST_INF ? 0 : ordo_sp_path(s->parent, q->source, q->target, s->path, n);
	s->path_made = true;
	return true;
}

/* "path: a b c ... (N nodes, length D)" in input ids; the middle of a long path elided. */
static void print_path(const struct astar_state *s)
{
	const struct ordo_graph *g = s->g;
	if (!s->npath) {
		fprintf(s->report, "path: none (the target is not reached)\n");
		return;
	}
	fprintf(s->report, "path:");
	for (uint32_t i = 0; i < s->npath; i++) {
		if (s->npath > 16 && i == 8) {
			fprintf(s->report, " ... (%u more) ...", s->npath - 16);
			i = s->npath - 8;
		}
		fprintf(s->report, " %u", ordo_graph_orig_of(g, s->path[i]));
	}
	fprintf(s->report, " (%u nodes, length %llu)\n", s->npath, (unsigned long long)s->got);
}

static int baseline(void *st, const struct ordo_app_query *q, struct ordo_app_baseline *b,
                    struct ordo_err *err)
{
	struct astar_state *s = st;
	double t0 = ordo_now();
	int rc = ordo_astar_seq(s->g, &s->geo, s->scale, q->source, q->target, &s->seq_dist,
	                        &b->tasks, err);
	if (rc)
		return rc;
	b->seconds = ordo_now() - t0;
	uint64_t settled;
	if ((rc = ordo_dijkstra(s->g, q->source, s->ref, &settled, err)))
		return rc;
	if (s->scale > s->geo.scale) {
		uint64_t bad_count;
		uint32_t bad;
		if ((rc = ordo_astar_admissible(s->g, &s->geo, s->scale, q->target, &bad_count,
		                                &bad, err)))
			return rc;
		if (s->report && !bad_count)
			fprintf(s->report, "heuristic scale %.9g is admissible for target %u\n",
			        s->scale, ordo_graph_orig_of(s->g, q->target));
		else if (s->report)
			fprintf(s->report,
			        "heuristic scale %.9g is NOT admissible for target %u: %llu nodes "
			        "overestimate their distance (first: node %u); A* may miss the "
			        "shortest path\n",
			        s->scale, ordo_graph_orig_of(s->g, q->target),
			        (unsigned long long)bad_count, ordo_graph_orig_of(s->g, bad));
	}
	return 0;
}

static int run(void *st, const struct ordo_app_query *q, struct ordo_scheduler *wl,
               const struct ordo_exec_opts *o, struct ordo_run_stats *rs, struct ordo_err *err)
{
	struct astar_state *s = st;
	s->path_made = false;
	s->last = *q;
	return ordo_astar(s->g, &s->geo, s->scale, q->source, q->target, wl, o, s->dist, &s->got,
	                  rs, err);
}

static void check(void *st, const struct ordo_app_query *q, struct ordo_check *c)
{
	struct astar_state *s = st;
	ordo_check_init(c);
	const uint64_t want = s->ref[q->target];
	char got[24], exp[24], seq[24];
	ordo_dist_str(got, s->got);
	ordo_dist_str(exp, want);
	ordo_dist_str(seq, s->seq_dist);
	const uint32_t from = ordo_graph_orig_of(s->g, q->source),
	               to = ordo_graph_orig_of(s->g, q->target);
	if (s->got != want)
		ordo_check_mismatch(c, "distance %u->%u is %s, Dijkstra says %s", from, to, got,
		                    exp);
	if (s->seq_dist != want)
		ordo_check_mismatch(c, "sequential A* found %s for %u->%u, Dijkstra says %s", seq,
		                    from, to, exp);
	ordo_check_figure(c, "distance", s->got);
	ordo_check_figure(
	    c, "heuristic",
	    ordo_geo_h(&s->geo, s->scale, q->source, s->geo.p + 3 * (size_t)q->target));
	if (s->report && make_path(s, q))
		print_path(s);
}

static int answer(void *st, struct ordo_app_array *out, int max, struct ordo_err *err)
{
	struct astar_state *s = st;
	if (max < 2)
		return ordo_err_set(err, ORDO_EINVAL, "astar's answer takes 2 arrays"), -1;
	if (!make_path(s, &s->last))
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory for the path"), -1;
	out[0] = (struct ordo_app_array){"distance", &s->got, 1, 8, false, false};
	out[1] = (struct ordo_app_array){"path", s->path, s->npath, 4, false, true};
	return 2;
}

/* The kernel: this binary's, and the apps library's (ordo_apps.h, for bindings). */
const struct ordo_app_kernel ordo_kernel_astar = {
    .name = "astar",
    .summary = "point-to-point shortest path guided by coordinates (priority = g + h)",
    .baseline_name = "sequential A* with the same heuristic (its expansions are the "
                     "baseline tasks); distances checked against Dijkstra",
    .default_gen = "road:W=1024,H=1024",
    .default_wl = "obim",
    .delta_from_graph = true,
    .delta_by_reach = true,
    .query = ORDO_APP_QUERY_PAIR,
    .needs = ORDO_APP_NEEDS_COORDS,
    .figures = {"distance", "heuristic"},
    .opts = astar_opts,
    .opts_size = sizeof(struct astar_options),
    .opts_defaults = &astar_option_defaults,
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
	return ordo_app_main(&ordo_kernel_astar, argc, argv);
}
#endif
