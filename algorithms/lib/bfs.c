/*
 * bfs.c - breadth-first search levels (see ordo_bfs.h).
 *
 * Operator (the SMQ paper's artifact, apps/bfs "async"; the code is relax.h, shared with
 * SSSP): a task (l, u) is stale when
 * level[u] < l; otherwise every arc u->v with l + 1 < level[v] lowers level[v] with a
 * compare-and-swap loop and each success pushes (l + 1, v). Under an exact scheduler
 * every node runs once, so the work ratio's floor is 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "ordo_bfs.h"
#include "relax.h"

/* The operator and its pipeline hook (relax.h: 32-bit levels, every arc weighs 1),
 * compiled once per representation (ORDO_GRAPH_OPERATOR), and a copy that counts its
 * work per thread (a frontier run's asynchronous tail): separate, so that the plain one
 * has no test of a counter. */
static inline __attribute__((always_inline)) bool
bfs_op_body(struct ordo_tctx *ctx, const struct ordo_task *t, void *user, const bool cz)
{
	return relax_task(ctx, t, user, cz, false, false, false, false);
}
static inline __attribute__((always_inline)) bool
bfs_tail_body(struct ordo_tctx *ctx, const struct ordo_task *t, void *user, const bool cz)
{
	return relax_task(ctx, t, user, cz, false, false, true, false);
}
static inline __attribute__((always_inline)) void
bfs_prefetch_body(const struct ordo_task *t, unsigned ahead, void *user, const bool cz)
{
	relax_prefetch(t, ahead, user, cz, false, false);
}
ORDO_GRAPH_OPERATOR(bfs_tail, bfs_tail_body, bool, struct ordo_tctx *ctx, const struct ordo_task *t,
                    void *user)
ORDO_GRAPH_OPERATOR(bfs_op, bfs_op_body, bool, struct ordo_tctx *ctx, const struct ordo_task *t,
                    void *user)
ORDO_GRAPH_HOOK(bfs_prefetch, bfs_prefetch_body)

/* The scheduled operator from n0 tasks (levels already set); count: per-thread counters
 * of its work (a frontier run's tail, run by the counting copy), or NULL. */
static int bfs_scheduled(const struct ordo_graph *g, struct ordo_scheduler *wl,
                         const struct ordo_exec_opts *o, _Atomic uint32_t *level,
                         const struct ordo_task *init, uint64_t n0, struct relax_count *count,
                         struct ordo_run_stats *st, struct ordo_err *err)
{
	struct relax_ctx s = {ordo_arcs_memo_run(), g, (void *)level, count, 0, false};
	struct ordo_exec_opts eo = *o;
	eo.prefetch = g->cz ? bfs_prefetch_cz : bfs_prefetch_plain;
	eo.prefetch_stages = ordo_graph_prefetch_stages(g);
	if (!eo.lookahead)
		eo.lookahead = ORDO_BFS_LOOKAHEAD;
	const ordo_operator op =
	    count ? (g->cz ? bfs_tail_cz : bfs_tail_plain) : (g->cz ? bfs_op_cz : bfs_op_plain);
	return ordo_for_each(&eo, wl->ops, wl->wl, init, n0, op, &s, st, err);
}

int ordo_bfs(const struct ordo_graph *g, uint32_t src, struct ordo_scheduler *wl,
             const struct ordo_exec_opts *o, _Atomic uint32_t *level, struct ordo_run_stats *st,
             struct ordo_err *err)
{
	if (src >= g->n)
		return ordo_err_set(err, ORDO_EINVAL, "source %u is not a node (n = %u)", src,
		                    g->n);
#pragma omp parallel for num_threads(o->topo->nthreads) schedule(static)
	for (uint64_t v = 0; v < g->n; v++)
		atomic_store_explicit(&level[v], ORDO_LEVEL_INF, memory_order_relaxed);
	atomic_store_explicit(&level[src], 0, memory_order_relaxed);
	struct ordo_task init = {0, src};
	return bfs_scheduled(g, wl, o, level, &init, 1, NULL, st, err);
}

/* ---- the frontier mode (ordo_frontier.h): direction-optimising BFS ----
 * push: every unvisited out-neighbour of a frontier node is claimed by a compare-and-
 * swap of its level from ORDO_LEVEL_INF; pull: an unvisited node scans its in-arcs (gt)
 * and stops at the first one from the frontier. The level is the round + 1. */
struct bfs_fctx {
	const struct ordo_graph *g, *gt;
	_Atomic uint32_t *level;
};

static inline __attribute__((always_inline)) uint64_t
bfs_push_body(struct ordo_frontier_tctx *fx, uint32_t u, void *user, const bool cz)
{
	const struct bfs_fctx *s = user;
	const uint32_t nl = fx->round + 1;
	struct ordo_arcs a = ordo_graph_arcs_as(s->g, u, cz);
	uint32_t vbuf[ORDO_ARCS_BATCH];
	const uint32_t *vb;
	uint64_t arcs = 0;
	for (unsigned k; (k = ordo_arcs_targets_batch(&a, vbuf, &vb));) {
		arcs += k;
		/* the batch's claims first, then their degrees (for Beamer's rule): the
		 * offsets' misses overlap instead of following each claim */
		uint32_t won[ORDO_ARCS_BATCH];
		unsigned nw = 0;
		for (unsigned i = 0; i < k; i++) {
			const uint32_t v = vb[i];
			uint32_t old = atomic_load_explicit(&s->level[v], memory_order_relaxed);
			if (old == ORDO_LEVEL_INF &&
			    atomic_compare_exchange_strong_explicit(
			        &s->level[v], &old, nl, memory_order_relaxed, memory_order_relaxed))
				won[nw++] = v;
		}
		for (unsigned i = 0; i < nw; i++)
			ordo_graph_prefetch_node_as(s->g, won[i], cz);
		for (unsigned i = 0; i < nw; i++)
			ordo_frontier_add(fx, won[i], ordo_graph_degree(s->g, won[i]));
	}
	return arcs;
}

/* One node's pull: its in-arcs up to the first from the frontier. */
static inline __attribute__((always_inline)) uint64_t
bfs_pull_one(struct ordo_frontier_tctx *fx, const struct bfs_fctx *s, uint32_t v, const bool cz)
{
	/* v is in no frontier yet (the runtime's todo), so its level is unset: no test */
	struct ordo_arcs a = ordo_graph_arcs_as(s->gt, v, cz);
	uint32_t vbuf[ORDO_ARCS_BATCH];
	const uint32_t *vb;
	uint64_t arcs = 0;
	for (unsigned k; (k = ordo_arcs_targets_batch(&a, vbuf, &vb));) {
		for (unsigned i = 0; i < k; i++)
			if (ordo_frontier_in(fx, vb[i])) {
				/* v is this thread's alone this round */
				atomic_store_explicit(&s->level[v], fx->round + 1,
				                      memory_order_relaxed);
				ordo_frontier_add(fx, v, 0);
				return arcs + i + 1;
			}
		arcs += k;
	}
	return arcs;
}

/* A word's nodes not yet visited, each pulled. */
static inline __attribute__((always_inline)) uint64_t bfs_pull_body(struct ordo_frontier_tctx *fx,
                                                                    uint32_t base, uint64_t todo,
                                                                    void *user, const bool cz)
{
	const struct bfs_fctx *s = user;
	uint64_t arcs = 0;
	for (; todo; todo &= todo - 1)
		arcs += bfs_pull_one(fx, s, base + (uint32_t)__builtin_ctzll(todo), cz);
	return arcs;
}

static uint64_t bfs_push_plain(struct ordo_frontier_tctx *fx, uint32_t u, void *user)
{
	return bfs_push_body(fx, u, user, false);
}
static uint64_t bfs_push_cz(struct ordo_frontier_tctx *fx, uint32_t u, void *user)
{
	return bfs_push_body(fx, u, user, true);
}
static uint64_t bfs_pull_plain(struct ordo_frontier_tctx *fx, uint32_t base, uint64_t todo,
                               void *user)
{
	return bfs_pull_body(fx, base, todo, user, false);
}
static uint64_t bfs_pull_cz(struct ordo_frontier_tctx *fx, uint32_t base, uint64_t todo, void *user)
{
	return bfs_pull_body(fx, base, todo, user, true);
}
static uint64_t bfs_degree(uint32_t v, void *user)
{
	return ordo_graph_degree(((const struct bfs_fctx *)user)->g, v);
}

/* A push round's chunk: each node pushed in order, the nodes ahead of it fetched in
 * stages FETCH_SPACING nodes apart - the graph's (a node's arc range, then its arcs),
 * then its targets' levels, for writing (only unclaimed ones will be written, but
 * reading them is what misses). On road2k the rounds took 309 -> 253 ms at 1 thread
 * and 168 -> 139 ms at 2 (bench/LOG.md). */
#define FETCH_SPACING 3
static inline __attribute__((always_inline)) void
bfs_fetch_stage(const struct bfs_fctx *s, uint32_t u, unsigned ahead, const bool cz)
{
	if (ahead >= 2) {
		ordo_graph_prefetch_stage_as(s->g, u, ahead, cz);
		return;
	}
	uint32_t vbuf[ORDO_ARCS_BATCH];
	const uint32_t *vb;
	for (unsigned i = 0, k = ordo_graph_prefetch_targets_as(s->g, u, vbuf, &vb, cz); i < k; i++)
		__builtin_prefetch(&s->level[vb[i]], 1);
}
static inline __attribute__((always_inline)) uint64_t
bfs_push_nodes_body(struct ordo_frontier_tctx *fx, const uint32_t *nodes, uint32_t k, void *user,
                    const bool cz)
{
	const struct bfs_fctx *s = user;
	const unsigned S = ordo_graph_prefetch_stages_as(cz);
	uint64_t arcs = 0;
	for (uint32_t i = 0; i < k; i++) {
		for (unsigned a = S; a; a--)
			if (i + a * FETCH_SPACING < k)
				bfs_fetch_stage(s, nodes[i + a * FETCH_SPACING], a, cz);
		arcs += bfs_push_body(fx, nodes[i], user, cz);
	}
	return arcs;
}
static uint64_t bfs_push_nodes_plain(struct ordo_frontier_tctx *fx, const uint32_t *nodes,
                                     uint32_t k, void *user)
{
	return bfs_push_nodes_body(fx, nodes, k, user, false);
}
static uint64_t bfs_push_nodes_cz(struct ordo_frontier_tctx *fx, const uint32_t *nodes, uint32_t k,
                                  void *user)
{
	return bfs_push_nodes_body(fx, nodes, k, user, true);
}

/* A frontier run's tail on one worker: a FIFO queue from the handed-over nodes, which
 * all have the level of the round that made them, so a node's first level is its
 * final one, as in the sequential BFS - no scheduler, no compare-and-swap, each node
 * once. On road2k at one thread the scheduled tail (obim:delta=0) took 0.28-0.29 s
 * where the sequential BFS takes 0.18 s; every task's push and pop, and its claim by
 * compare-and-swap, was the difference. The queue's next nodes' arcs are prefetched
 * QUEUE_AHEAD places ahead. The levels are written with relaxed atomics (plain stores
 * on x86): the array is the concurrent runs' type. */
#define QUEUE_AHEAD 8
static int bfs_queue_tail(const struct ordo_graph *g, _Atomic uint32_t *level, const uint32_t *left,
                          uint64_t len, uint64_t *arcs, uint64_t *set, struct ordo_err *err)
{
	uint32_t *queue = malloc(((size_t)g->n + 1) * sizeof *queue);
	if (!queue)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory for the BFS queue");
	uint64_t head = 0, tail = len, examined = 0;
	memcpy(queue, left, len * sizeof *queue);
	while (head < tail) {
		if (head + QUEUE_AHEAD < tail)
			ordo_graph_prefetch_arcs(g, queue[head + QUEUE_AHEAD]);
		const uint32_t u = queue[head++];
		const uint32_t nl = atomic_load_explicit(&level[u], memory_order_relaxed) + 1;
		uint32_t v, w;
		for (struct ordo_arcs a = ordo_graph_arcs(g, u); ordo_arcs_next(&a, &v, &w);) {
			examined++;
			if (atomic_load_explicit(&level[v], memory_order_relaxed) ==
			    ORDO_LEVEL_INF) {
				atomic_store_explicit(&level[v], nl, memory_order_relaxed);
				queue[tail++] = v;
			}
		}
	}
	free(queue);
	*arcs = examined;
	*set = tail - len;
	return 0;
}

int ordo_bfs_frontier(const struct ordo_graph *g, const struct ordo_graph *gt, uint32_t src,
                      const struct ordo_frontier_opts *o, struct ordo_scheduler *wl,
                      const struct ordo_exec_opts *eo, _Atomic uint32_t *level,
                      struct ordo_bfs_stats *st, struct ordo_err *err)
{
	if (src >= g->n)
		return ordo_err_set(err, ORDO_EINVAL, "source %u is not a node (n = %u)", src,
		                    g->n);
	if (o->direction != ORDO_FRONTIER_PUSH && (!gt || gt->n != g->n || gt->m != g->m))
		return ordo_err_set(err, ORDO_EINVAL,
		                    "pull rounds need the graph's transpose (the graph itself "
		                    "when it is symmetric)");
	if (gt && !g->cz != !gt->cz)
		return ordo_err_set(err, ORDO_EINVAL,
		                    "the transpose must be compressed exactly when the graph is");
	/* timed with the rounds, as GAPBS times its parent array's initialisation */
	const double t0 = ordo_now();
#pragma omp parallel for num_threads(o->topo->nthreads) schedule(static)
	for (uint64_t v = 0; v < g->n; v++)
		atomic_store_explicit(&level[v], ORDO_LEVEL_INF, memory_order_relaxed);
	atomic_store_explicit(&level[src], 0, memory_order_relaxed);
	const double init = ordo_now() - t0;
	struct bfs_fctx s = {g, gt ? gt : g, level};
	const struct ordo_frontier_ops ops = {g->cz ? bfs_push_cz : bfs_push_plain,
	                                      g->cz ? bfs_pull_cz : bfs_pull_plain, bfs_degree,
	                                      g->cz ? bfs_push_nodes_cz : bfs_push_nodes_plain};
	struct ordo_frontier_opts fo = *o;
	if (!wl || !o->space)
		fo.handoff_round = 0; /* nobody to hand the frontier to */
	memset(st, 0, sizeof *st);
	int rc = ordo_frontier_run(&fo, g->n, g->m, &src, 1, &ops, &s, &st->rounds, err);
	st->seconds = init + st->rounds.seconds;
	st->work_min = st->rounds.work_min;
	st->work_median = st->rounds.work_median;
	st->work_max = st->rounds.work_max;
	if (rc || !st->rounds.handed_off)
		return rc;
	/* the asynchronous tail: the frontier's nodes as tasks at their (exact) levels */
	const double t1 = ordo_now();
	uint64_t len;
	const uint32_t *left = ordo_frontier_space_left(o->space, &len);
	const int T = eo->topo->nthreads;
	if (T == 1) { /* one worker: a queue, as the sequential BFS */
		rc = bfs_queue_tail(g, level, left, len, &st->tail_arcs, &st->tail_set, err);
		st->work_min = st->work_median = st->work_max =
		    st->rounds.work_max + st->tail_arcs + st->tail_set;
		st->seconds += ordo_now() - t1;
		return rc;
	}
	struct ordo_task *tasks = malloc(len * sizeof *tasks);
	struct relax_count *count = ordo_calloc_aligned((size_t)T, sizeof *count);
	uint64_t *per = malloc((size_t)T * sizeof *per);
	if (!tasks || !count || !per) {
		free(tasks), free(count), free(per);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory handing %llu nodes over",
		                    (unsigned long long)len);
	}
	for (uint64_t i = 0; i < len; i++)
		tasks[i] = (struct ordo_task){
		    atomic_load_explicit(&level[left[i]], memory_order_relaxed), left[i]};
	rc = bfs_scheduled(g, wl, eo, level, tasks, len, count, &st->tail, err);
	/* per thread: its rounds' work and its tail's arcs and levels set */
	for (int t = 0; t < T; t++) {
		st->tail_arcs += count[t].arcs;
		st->tail_set += count[t].set;
		per[t] = ordo_frontier_space_work(o->space, t) + count[t].arcs + count[t].set;
	}
	ordo_spread(per, (size_t)T, &st->work_min, &st->work_median, &st->work_max);
	free(tasks), free(count), free(per);
	st->seconds += ordo_now() - t1;
	return rc;
}

int ordo_bfs_seq(const struct ordo_graph *g, uint32_t src, uint32_t *level, uint64_t *visited,
                 struct ordo_err *err)
{
	uint64_t arcs;
	return ordo_bfs_seq_work(g, src, level, visited, &arcs, err);
}

int ordo_bfs_seq_work(const struct ordo_graph *g, uint32_t src, uint32_t *level, uint64_t *visited,
                      uint64_t *arcs, struct ordo_err *err)
{
	if (src >= g->n)
		return ordo_err_set(err, ORDO_EINVAL, "source %u is not a node (n = %u)", src,
		                    g->n);
	uint32_t *queue = malloc((size_t)g->n * sizeof *queue);
	if (!queue)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory for the BFS queue");
	for (uint32_t v = 0; v < g->n; v++)
		level[v] = ORDO_LEVEL_INF;
	size_t head = 0, tail = 0;
	uint64_t examined = 0;
	level[src] = 0;
	queue[tail++] = src;
	while (head < tail) {
		const uint32_t u = queue[head++];
		const uint32_t nl = level[u] + 1;
		uint32_t v, w;
		for (struct ordo_arcs a = ordo_graph_arcs(g, u); ordo_arcs_next(&a, &v, &w);) {
			examined++;
			if (level[v] == ORDO_LEVEL_INF) {
				level[v] = nl;
				queue[tail++] = v;
			}
		}
	}
	free(queue);
	*visited = tail;
	*arcs = examined;
	return 0;
}

void ordo_bfs_check(const struct ordo_graph *g, const _Atomic uint32_t *level, const uint32_t *ref,
                    struct ordo_check *c)
{
	ordo_check_init(c);
	uint64_t reached = 0, max_level = 0;
	for (uint32_t v = 0; v < g->n; v++) {
		uint32_t l = atomic_load_explicit(&level[v], memory_order_relaxed);
		if (l != ORDO_LEVEL_INF) {
			reached++;
			max_level = l > max_level ? l : max_level;
		}
		if (l != ref[v]) {
			char got[16] = "unreached", want[16] = "unreached";
			if (l != ORDO_LEVEL_INF)
				snprintf(got, sizeof got, "%u", l);
			if (ref[v] != ORDO_LEVEL_INF)
				snprintf(want, sizeof want, "%u", ref[v]);
			ordo_check_mismatch(c, "node %u has level %s, expected %s",
			                    ordo_graph_orig_of(g, v), got, want);
		}
	}
	ordo_check_figure(c, "reached", reached);
	ordo_check_figure(c, "max_level", max_level);
}
