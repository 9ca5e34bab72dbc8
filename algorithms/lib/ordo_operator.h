/*
 * ordo_operator.h - compiling an operator once per graph representation.
 *
 * An operator reads the graph through the _as(..., cz) forms (ordo_graph_arcs_as,
 * ordo_graph_prefetch_stage_as, ordo_graph_prefetch_targets_as) with cz a parameter of
 * its body; these macros make the two copies the executor is given, one per
 * representation, each as fast as if it were written for that one alone.
 */
#ifndef ORDO_OPERATOR_H
#define ORDO_OPERATOR_H

#include "ordo_graph.h"
#include "ordo_runtime.h"

/* An operator NAME_plain and NAME_cz from one body BODY(args..., const bool cz), always
 * inlined, that reads the graph with the _as(..., cz) forms (ordo_graph_arcs_as,
 * ordo_graph_prefetch_stage_as, ordo_graph_prefetch_targets_as): pick one by
 * ordo_graph_compressed. Each runs as if written for its representation alone; one body
 * testing the representation at run time cost the plain CSR 5-10% (road2k SSSP). */
#define ORDO_GRAPH_OPERATOR(name, body, ret, a1, a2, a3) \
	static ret name##_plain(a1, a2, a3)              \
	{                                                \
		return body(ctx, t, user, false);        \
	}                                                \
	static ret name##_cz(a1, a2, a3)                 \
	{                                                \
		return body(ctx, t, user, true);         \
	}
/* The same for a prefetch hook (const struct ordo_task *t, unsigned ahead, void *user). */
#define ORDO_GRAPH_HOOK(name, body)                                                     \
	static void name##_plain(const struct ordo_task *t, unsigned ahead, void *user) \
	{                                                                               \
		body(t, ahead, user, false);                                            \
	}                                                                               \
	static void name##_cz(const struct ordo_task *t, unsigned ahead, void *user)    \
	{                                                                               \
		body(t, ahead, user, true);                                             \
	}

#endif
