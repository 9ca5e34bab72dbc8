/* prepare.c - ordo_graph_prepare (ordo_prepare.h): the one place where a graph is made
 * fit for a run, for files, generators and the apps' needs alike. */
#include <stdio.h>
#include <string.h>

#include "ordo_graph.h"
#include "ordo_prepare.h"
#include "ordo_util.h"

static void note(struct ordo_prep_info *info, const char *what)
{
	const size_t len = strlen(info->notes);
	snprintf(info->notes + len, sizeof info->notes - len, "%s%s", len ? "; " : "", what);
}

static bool wants_rebuild(const struct ordo_graph *g, const struct ordo_build_opts *b)
{
	return (b->symmetrize && !(g->flags & ORDO_GRAPH_SYMMETRIC)) || b->dedup ||
	       b->random_weights;
}

/* g's arcs through the builder (compressed directly when compress), its per-node data
 * carried over, into *out. */
static int rebuild(const struct ordo_graph *g, const struct ordo_build_opts *b, bool compress,
                   struct ordo_graph **out, struct ordo_prep_info *info, struct ordo_err *err)
{
	const double t0 = ordo_now();
	struct ordo_edge_chain c;
	ordo_chain_init(&c, ordo_graph_weighted(g));
	uint32_t v, w;
	for (uint32_t u = 0; u < g->n; u++)
		for (struct ordo_arcs a = ordo_graph_arcs(g, u); ordo_arcs_next(&a, &v, &w);)
			if (!ordo_chain_push(&c, u, v, w)) {
				ordo_chain_free(&c);
				return ordo_err_set(err, ORDO_ENOMEM,
				                    "out of memory for the arcs of a rebuild");
			}
	/* both arcs of every edge are there already; new random weights may differ per arc */
	const bool symmetric = (g->flags & ORDO_GRAPH_SYMMETRIC) && !b->random_weights;
	struct ordo_build_opts bo = *b;
	bo.n = g->n;
	bo.compress = compress;
	if (g->flags & ORDO_GRAPH_SYMMETRIC)
		bo.symmetrize = false;
	int rc = ordo_graph_build(&c, &bo, out, &info->build, err);
	if (rc)
		return rc;
	info->rebuilt = true;
	info->rebuild_seconds = ordo_now() - t0;
	if (symmetric)
		(*out)->flags |= ORDO_GRAPH_SYMMETRIC;
	if ((rc = ordo_graph_copy_node_data(g, *out, err))) {
		ordo_graph_free(*out);
		*out = NULL;
	}
	return rc;
}

/* *g becomes h; the graph it was is freed unless it is the caller's `keep`. */
static void replace(struct ordo_graph **g, struct ordo_graph *h, const struct ordo_graph *keep)
{
	if (*g != keep)
		ordo_graph_free(*g);
	*g = h;
}

/* A graph of ours (a copy when *g is the caller's) to change in place: the plain form,
 * since weights are set on plain arcs. */
static int plain_own(struct ordo_graph **g, const struct ordo_graph *keep, int threads,
                     struct ordo_err *err)
{
	if (*g != keep)
		return ordo_graph_convert(g, false, threads, err);
	struct ordo_graph *copy;
	int rc = ordo_graph_decompress(*g, threads, &copy, err);
	if (!rc)
		*g = copy;
	return rc;
}

static int steps(struct ordo_graph **g, const struct ordo_prep *p, const struct ordo_graph *keep,
                 struct ordo_prep_info *info, struct ordo_err *err)
{
	const int threads = p->build.threads;
	int rc;
	char what[96];
	if (wants_rebuild(*g, &p->build)) {
		struct ordo_graph *h;
		if ((rc = rebuild(*g, &p->build, ordo_prep_builds_compressed(p), &h, info, err)))
			return rc;
		replace(g, h, keep);
		if (p->build.random_weights)
			note(info, ordo_random_weights_note(&info->build));
	}
	if (p->weights_from_coords) {
		if ((*g)->coord_kind == ORDO_COORD_NONE)
			return ordo_err_set(err, ORDO_EINVAL,
			                    "weights from coordinates asked for, but the graph has "
			                    "no coordinates");
		if ((rc = plain_own(g, keep, threads, err)) ||
		    (rc = ordo_graph_weights_from_coords(*g, err)))
			return rc;
		note(info, "weights = rounded Euclidean length from coordinates");
	}
	if (p->reorder) {
		const double t0 = ordo_now();
		struct ordo_graph *h;
		if ((rc = ordo_graph_reordered(*g, p->reorder, threads, &h, err)))
			return rc;
		replace(g, h, keep);
		snprintf(what, sizeof what, "nodes renumbered in %s order in %.3f s",
		         ordo_order_name(p->reorder), ordo_now() - t0);
		note(info, what);
	}
	if (p->build.compress && !ordo_graph_compressed(*g)) {
		struct ordo_graph *h;
		if ((rc = ordo_graph_compress(*g, threads, &h, err)))
			return rc;
		replace(g, h, keep);
	}
	return 0;
}

int ordo_graph_prepare(struct ordo_graph **g, const struct ordo_prep *p, bool owned,
                       struct ordo_prep_info *info, struct ordo_err *err)
{
	struct ordo_prep_info scratch;
	if (!info)
		info = &scratch;
	memset(info, 0, sizeof *info);
	struct ordo_graph *const given = *g;
	int rc = steps(g, p, owned ? NULL : given, info, err);
	if (rc && (owned || *g != given)) {
		ordo_graph_free(*g); /* owned: whatever it became; else the graph made here */
		*g = owned ? NULL : given;
	}
	return rc;
}

int ordo_graph_symmetrized(const struct ordo_graph *g, int threads, struct ordo_graph **out,
                           struct ordo_build_stats *stats, struct ordo_err *err)
{
	const struct ordo_prep p = {
	    .build = {
	        .symmetrize = true, .dedup = true, .keep_self_loops = true, .threads = threads}};
	struct ordo_prep_info info;
	struct ordo_graph *h = (struct ordo_graph *)g; /* not owned: never changed or freed */
	int rc = ordo_graph_prepare(&h, &p, false, &info, err);
	if (rc)
		return rc;
	if (stats)
		*stats = info.build;
	*out = h;
	return 0;
}
