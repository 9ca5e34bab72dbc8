/* The real graphs in ../shared/inputs load with exactly the node and edge counts that
 * its SOURCES.md lists. A user's clone has no ../shared: these tests then skip, saying
 * why. The directory can be moved with ORDO_INPUTS=/path. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ordo_io.h"

static const char *inputs_dir(void)
{
	const char *env = getenv("ORDO_INPUTS");
	return env && *env ? env : ORDO_INPUTS_DIR;
}

static bool path_of(char *buf, size_t cap, const char *rel)
{
	snprintf(buf, cap, "%s/%s", inputs_dir(), rel);
	if (access(buf, R_OK) == 0)
		return true;
	cr_skip_test("%s not found: the shared real graphs are not beside this clone "
	             "(set ORDO_INPUTS to their directory to run this test; public graphs of "
	             "your own: inputs/fetch.sh --list)",
	             buf);
	return false;
}

struct expect {
	const char *file;
	uint32_t n;
	uint64_t m;
	bool compact; /* SNAP ids are not dense: count the ids that occur */
};

static void check(const struct expect *x, struct ordo_load_opts *o)
{
	char p[1024];
	if (!path_of(p, sizeof p, x->file))
		return;
	o->compact_ids = x->compact;
	o->build.keep_self_loops = true; /* SOURCES.md counts every listed edge */
	struct ordo_graph *g = NULL;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_load(p, o, &g, NULL, &e), 0, "%s", e.msg);
	cr_assert_eq(ordo_graph_validate(g, &e), 0, "%s", e.msg);
	cr_expect_eq(g->n, x->n, "%s: %u nodes, expected %u", x->file, g->n, x->n);
	cr_expect_eq(g->m, x->m, "%s: %llu arcs, expected %llu", x->file, (unsigned long long)g->m,
	             (unsigned long long)x->m);
	ordo_graph_free(g);
}

Test(inputs, road_graphs)
{
	struct ordo_load_opts o;
	ordo_load_opts_init(&o);
	check(&(struct expect){"road/rome99.gr", 3353, 8870, false}, &o);
	ordo_load_opts_init(&o);
	/* METIS counts undirected edges; each is stored as two arcs */
	o.coords = NULL;
	check(&(struct expect){"road/luxembourg.osm.graph.zst", 114599, 2 * 119666, false}, &o);
}

Test(inputs, luxembourg_coordinates_give_weights)
{
	char g_path[1024], xyz[1024];
	if (!path_of(g_path, sizeof g_path, "road/luxembourg.osm.graph.zst") ||
	    !path_of(xyz, sizeof xyz, "road/luxembourg.osm.xyz.zst"))
		return;
	struct ordo_load_opts o;
	ordo_load_opts_init(&o);
	o.coords = xyz;
	o.weights_from_coords = true;
	struct ordo_graph *g = NULL;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_load(g_path, &o, &g, NULL, &e), 0, "%s", e.msg);
	cr_assert_eq(g->coord_kind, ORDO_COORD_DOUBLE);
	uint64_t sum = 0;
	for (uint64_t k = 0; k < g->m; k++) {
		cr_assert_geq(g->w[k], 1);
		sum += g->w[k];
	}
	/* street segments in UTM metres: tens of metres on average */
	double avg = (double)sum / (double)g->m;
	cr_assert(avg > 10 && avg < 1000, "average street length %.1f m", avg);
	ordo_graph_free(g);
}

Test(inputs, social_graphs)
{
	const struct expect xs[] = {
	    {"social/soc-Slashdot0902.txt.zst", 82168, 948464, true},
	    {"social/ca-AstroPh.txt.zst", 18772, 396160, true},
	    {"social/ca-CondMat.txt.zst", 23133, 186936, true},
	    {"social/musae_facebook_edges.txt.zst", 22470, 171002, true},
	    {"social/wiki-Vote.txt", 7115, 103689, true},
	    {"social/facebook_combined.txt.zst", 4039, 88234, true},
	};
	for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
		struct ordo_load_opts o;
		ordo_load_opts_init(&o);
		check(&xs[i], &o);
	}
}

Test(inputs, slashdot_self_loops_are_counted)
{
	char p[1024];
	if (!path_of(p, sizeof p, "social/soc-Slashdot0902.txt.zst"))
		return;
	struct ordo_graph *g = NULL;
	struct ordo_err e = {0};
	struct ordo_load_info info;
	cr_assert_eq(ordo_load(p, NULL, &g, &info, &e), 0, "%s", e.msg);
	cr_assert_eq(info.build.self_loops_removed, 78303);
	cr_assert_eq(g->m, 948464 - 78303);
	ordo_graph_free(g);
}
