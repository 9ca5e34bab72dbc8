/*
 * wcc - weakly connected components by label propagation, written outside ordo on the
 * installed package only (find_package(ordo) or pkg-config; see install_test.sh and
 * algorithms/README.md, which walks through this file).
 *
 * Every node starts labelled with its own id; a task (l, v) offers label l to v's
 * neighbours, each keeps the smallest label it is offered, and every lowering pushes
 * (l, w). Priority = the label, so the component of node 0 floods first. At the end each
 * node's label is the smallest id in its component. Baseline: a sequential BFS from each
 * unlabelled node in id order, which labels every node once (n tasks).
 */
#include <stdio.h>
#include <stdlib.h>

#include "ordo_app.h"

struct wcc {
	const struct ordo_graph *g;
	_Atomic uint32_t *label;
	uint32_t *ref;
};

/* ---- the operator ---- */
static bool wcc_op(struct ordo_tctx *ctx, const struct ordo_task *t, void *user)
{
	const struct wcc *s = user;
	const uint32_t v = (uint32_t)t->data, l = (uint32_t)t->prio;
	if (atomic_load_explicit(&s->label[v], memory_order_relaxed) != l)
		return false; /* v has a smaller label already: empty work */
	uint32_t w, weight;
	for (struct ordo_arcs a = ordo_graph_arcs(s->g, v); ordo_arcs_next(&a, &w, &weight);) {
		uint32_t old = atomic_load_explicit(&s->label[w], memory_order_relaxed);
		while (l < old)
			if (atomic_compare_exchange_weak_explicit(&s->label[w], &old, l,
			                                          memory_order_relaxed,
			                                          memory_order_relaxed)) {
				ordo_push(ctx, l, w);
				break;
			}
	}
	return true;
}

static int run(void *st, const struct app_query *q, struct ordo_scheduler *wl,
               const struct ordo_exec_opts *o, struct ordo_run_stats *rs, struct ordo_err *err)
{
	(void)q;
	struct wcc *s = st;
	const uint32_t n = s->g->n;
	struct ordo_task *init = malloc((n ? n : 1) * sizeof *init);
	if (!init)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	for (uint32_t v = 0; v < n; v++) {
		atomic_store_explicit(&s->label[v], v, memory_order_relaxed);
		init[v] = (struct ordo_task){v, v};
	}
	int rc = ordo_for_each(o, wl->ops, wl->wl, init, n, wcc_op, s, rs, err);
	free(init);
	return rc;
}

/* ---- the exact sequential baseline ---- */
static int baseline(void *st, const struct app_query *q, struct app_baseline *b,
                    struct ordo_err *err)
{
	(void)q;
	struct wcc *s = st;
	const uint32_t n = s->g->n;
	uint32_t *queue = malloc((n ? n : 1) * sizeof *queue);
	if (!queue)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	for (uint32_t v = 0; v < n; v++)
		s->ref[v] = UINT32_MAX;
	for (uint32_t r = 0; r < n; r++) {
		if (s->ref[r] != UINT32_MAX)
			continue;
		size_t head = 0, tail = 0;
		s->ref[r] = r;
		queue[tail++] = r;
		while (head < tail) {
			const uint32_t u = queue[head++];
			uint32_t w, weight;
			for (struct ordo_arcs a = ordo_graph_arcs(s->g, u);
			     ordo_arcs_next(&a, &w, &weight);) {
				if (s->ref[w] == UINT32_MAX) {
					s->ref[w] = r;
					queue[tail++] = w;
				}
			}
		}
	}
	free(queue);
	b->tasks = n;
	return 0;
}

/* ---- verification ---- */
static void check(void *st, const struct app_query *q, struct ordo_check *c)
{
	(void)q;
	struct wcc *s = st;
	ordo_check_init(c);
	uint64_t components = 0;
	for (uint32_t v = 0; v < s->g->n; v++) {
		uint32_t l = atomic_load_explicit(&s->label[v], memory_order_relaxed);
		if (l != s->ref[v])
			ordo_check_mismatch(c, "node %u has label %u, expected %u", v, l,
			                    s->ref[v]);
		components += s->ref[v] == v;
	}
	ordo_check_figure(c, "components", components);
}

/* ---- state and the binary ---- */
static int init(void **out, const struct ordo_graph *g, const struct app_env *env,
                struct ordo_err *err)
{
	(void)env;
	struct wcc *s = calloc(1, sizeof *s);
	*out = s;
	if (!s || !(s->label = malloc((g->n + 1) * sizeof *s->label)) ||
	    !(s->ref = malloc((g->n + 1) * sizeof *s->ref)))
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	s->g = g;
	return 0;
}

static void fini(void *p)
{
	struct wcc *s = p;
	if (s) {
		free(s->label);
		free(s->ref);
	}
	free(s);
}

int main(int argc, char **argv)
{
	static const struct app_kernel k = {
	    .name = "wcc",
	    .summary = "weakly connected components by label propagation (priority = label)",
	    .baseline_name = "BFS from each unlabelled node",
	    .work_note = "baseline tasks = nodes",
	    .default_gen = "rmat:scale=14,ef=2",
	    .default_wl = "obim",
	    .wl_params = "delta=8",
	    .query = APP_QUERY_NONE,
	    .needs = APP_NEEDS_SYMMETRIC,
	    .figures = {"components"},
	    .init = init,
	    .fini = fini,
	    .baseline = baseline,
	    .run = run,
	    .check = check,
	};
	return app_main(&k, argc, argv);
}
