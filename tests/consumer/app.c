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
 *
 * By default (without --wl) the giant component goes first, in frontier rounds pushed
 * or pulled by Beamer's rule (ordo_frontier.h): a BFS from the node of highest degree
 * marks its component, whose label is then the smallest id it marked; label
 * propagation on the scheduler does the rest, none of which can touch the marked nodes.
 * On a social graph most nodes are in that component and most of its rounds are pulled.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ordo_app.h"
#include "ordo_frontier.h"

enum { O_DIRECTION = ORDO_APP_OPT_KEY };
static const struct ordo_cli_opt wcc_opts[] = {
    {"direction", O_DIRECTION, "auto|push|pull|rounds-push",
     "auto (default without --wl): the giant component in frontier rounds, each pushed or "
     "pulled, then label propagation; push (default with --wl): label propagation only; "
     "pull or rounds-push: the giant component's rounds all one way"},
    {NULL, 0, NULL, NULL},
};
enum { DIR_TASKS = 100, DIR_UNSET = -1 };

static int option(void *opts, int key, const char *arg, struct ordo_err *err)
{
	(void)key;
	int *dir = opts;
	*dir = !strcmp(arg, "auto")          ? ORDO_FRONTIER_AUTO
	       : !strcmp(arg, "push")        ? DIR_TASKS
	       : !strcmp(arg, "pull")        ? ORDO_FRONTIER_PULL
	       : !strcmp(arg, "rounds-push") ? ORDO_FRONTIER_PUSH
	                                     : -2;
	if (*dir == -2)
		return ordo_err_set(err, ORDO_EINVAL,
		                    "--direction %s: expected auto, push, pull or rounds-push",
		                    arg);
	return 0;
}
static const int wcc_option_default = DIR_UNSET;

#define UNSEEN UINT32_MAX       /* rounds: not reached yet */
#define GIANT  (UINT32_MAX - 1) /* rounds: in the giant component */

struct wcc {
	const struct ordo_graph *g;
	_Atomic uint32_t *label;
	uint32_t *ref;
	int dir; /* DIR_TASKS or an enum ordo_frontier_dir */
	struct ordo_frontier_space *space;
	struct ordo_frontier_stats fs;
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

/* ---- the rounds' forms (the frontier mode's contract, ordo_frontier.h) ---- */
/* push: marks every unseen neighbour of u (one compare-and-swap claims each) */
static uint64_t wcc_push(struct ordo_frontier_tctx *fx, uint32_t u, void *user)
{
	const struct wcc *s = user;
	uint32_t w, weight, unseen;
	uint64_t arcs = 0;
	for (struct ordo_arcs a = ordo_graph_arcs(s->g, u); ordo_arcs_next(&a, &w, &weight);) {
		arcs++;
		unseen = UNSEEN;
		if (atomic_load_explicit(&s->label[w], memory_order_relaxed) == UNSEEN &&
		    atomic_compare_exchange_strong_explicit(
		        &s->label[w], &unseen, GIANT, memory_order_relaxed, memory_order_relaxed))
			ordo_frontier_add(fx, w, ordo_graph_degree(s->g, w));
	}
	return arcs;
}

/* pull: each node of the word not reached yet looks for one neighbour in the frontier
 * (the graph is symmetric: its arcs are its in-arcs); only this thread touches them */
static uint64_t wcc_pull(struct ordo_frontier_tctx *fx, uint32_t base, uint64_t todo, void *user)
{
	const struct wcc *s = user;
	uint64_t arcs = 0;
	for (; todo; todo &= todo - 1) {
		const uint32_t v = base + (uint32_t)__builtin_ctzll(todo);
		uint32_t u, weight;
		for (struct ordo_arcs a = ordo_graph_arcs(s->g, v);
		     ordo_arcs_next(&a, &u, &weight);) {
			arcs++;
			if (ordo_frontier_in(fx, u)) {
				atomic_store_explicit(&s->label[v], GIANT, memory_order_relaxed);
				ordo_frontier_add(fx, v, 0);
				break;
			}
		}
	}
	return arcs;
}

static uint64_t wcc_degree(uint32_t v, void *user)
{
	return ordo_graph_degree(((const struct wcc *)user)->g, v);
}

/* The giant component in rounds: every node UNSEEN, a BFS from the node of highest
 * degree marks its component GIANT, which then takes its smallest id as label. */
static int giant_component(struct wcc *s, const struct ordo_exec_opts *o, struct ordo_err *err)
{
	const uint32_t n = s->g->n;
	uint32_t start = 0;
	for (uint32_t v = 1; v < n; v++)
		if (ordo_graph_degree(s->g, v) > ordo_graph_degree(s->g, start))
			start = v;
	const int T = o->topo->nthreads;
#pragma omp parallel for num_threads(T) schedule(static)
	for (uint32_t v = 0; v < n; v++)
		atomic_store_explicit(&s->label[v], v == start ? GIANT : UNSEEN,
		                      memory_order_relaxed);
	const struct ordo_frontier_opts fo = {.topo = o->topo,
	                                      .direction = (enum ordo_frontier_dir)s->dir,
	                                      .space = s->space,
	                                      .cancel = o->cancel};
	const struct ordo_frontier_ops ops = {wcc_push, wcc_pull, wcc_degree};
	int rc = ordo_frontier_run(&fo, n, s->g->m, &start, 1, &ops, s, &s->fs, err);
	if (rc)
		return rc;
	uint32_t least = start;
#pragma omp parallel for num_threads(T) schedule(static) reduction(min : least)
	for (uint32_t v = 0; v < n; v++)
		if (v < least && atomic_load_explicit(&s->label[v], memory_order_relaxed) == GIANT)
			least = v;
#pragma omp parallel for num_threads(T) schedule(static)
	for (uint32_t v = 0; v < n; v++)
		if (atomic_load_explicit(&s->label[v], memory_order_relaxed) == GIANT)
			atomic_store_explicit(&s->label[v], least, memory_order_relaxed);
	return 0;
}

static int run(void *st, const struct ordo_app_query *q, struct ordo_scheduler *wl,
               const struct ordo_exec_opts *o, struct ordo_run_stats *rs, struct ordo_err *err)
{
	(void)q;
	struct wcc *s = st;
	const uint32_t n = s->g->n;
	const double t0 = ordo_now();
	int rc = 0;
	if (s->dir != DIR_TASKS && n && (rc = giant_component(s, o, err)))
		return rc;
	/* label propagation, from every node the rounds did not reach (all of them
	 * without rounds; after them, a node without arcs is a component already) */
	struct ordo_task *init = malloc((n ? n : 1) * sizeof *init);
	if (!init)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	uint64_t k = 0, lone = 0;
	for (uint32_t v = 0; v < n; v++) {
		if (s->dir == DIR_TASKS) {
			atomic_store_explicit(&s->label[v], v, memory_order_relaxed);
			init[k++] = (struct ordo_task){v, v};
		} else if (atomic_load_explicit(&s->label[v], memory_order_relaxed) == UNSEEN) {
			atomic_store_explicit(&s->label[v], v, memory_order_relaxed);
			if (ordo_graph_degree(s->g, v))
				init[k++] = (struct ordo_task){v, v};
			else
				lone++;
		}
	}
	rc = ordo_for_each(o, wl->ops, wl->wl, init, k, wcc_op, s, rs, err);
	free(init);
	if (!rc && s->dir != DIR_TASKS) { /* nodes labelled without a task count as tasks */
		rs->seconds = ordo_now() - t0;
		rs->tasks += s->fs.added + 1 + lone;
		rs->pushes += s->fs.added + 1 + lone;
	}
	return rc;
}

/* ---- the exact sequential baseline ---- */
static int baseline(void *st, const struct ordo_app_query *q, struct ordo_app_baseline *b,
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
static void check(void *st, const struct ordo_app_query *q, struct ordo_check *c)
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
	const bool rounds = s->dir != DIR_TASKS;
	ordo_check_figure(c, "rounds_push", rounds ? s->fs.rounds_push : 0);
	ordo_check_figure(c, "rounds_pull", rounds ? s->fs.rounds_pull : 0);
}

/* ---- state and the binary ---- */
static int init(void **out, const struct ordo_graph *g, const struct ordo_app_env *env,
                struct ordo_err *err)
{
	struct wcc *s = calloc(1, sizeof *s);
	*out = s;
	if (!s || !(s->label = malloc((g->n + 1) * sizeof *s->label)) ||
	    !(s->ref = malloc((g->n + 1) * sizeof *s->ref)))
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	s->g = g;
	const int dir = *(const int *)env->opts;
	s->dir = dir != DIR_UNSET ? dir : env->wl_given ? DIR_TASKS : ORDO_FRONTIER_AUTO;
	if (s->dir == DIR_TASKS)
		return 0;
	return ordo_frontier_space_create(g->n, env->topo->nthreads, &s->space, err);
}

static void fini(void *p)
{
	struct wcc *s = p;
	if (s) {
		free(s->label);
		free(s->ref);
		ordo_frontier_space_free(s->space);
	}
	free(s);
}

int main(int argc, char **argv)
{
	static const struct ordo_app_kernel k = {
	    .name = "wcc",
	    .summary = "weakly connected components by label propagation (priority = label)",
	    .baseline_name = "BFS from each unlabelled node",
	    .work_note = "baseline tasks = nodes",
	    .default_gen = "rmat:scale=14,ef=2",
	    .default_wl = "obim",
	    .wl_params = "delta=8",
	    .query = ORDO_APP_QUERY_NONE,
	    .needs = ORDO_APP_NEEDS_SYMMETRIC,
	    .figures = {"components", "rounds_push", "rounds_pull"},
	    .opts = wcc_opts,
	    .opts_size = sizeof(int),
	    .opts_defaults = &wcc_option_default,
	    .option = option,
	    .init = init,
	    .fini = fini,
	    .baseline = baseline,
	    .run = run,
	    .check = check,
	};
	return ordo_app_main(&k, argc, argv);
}
