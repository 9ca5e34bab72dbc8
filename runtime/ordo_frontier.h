/*
 * ordo_frontier.h - the frontier mode: bulk-synchronous rounds over a frontier, beside
 * ordo_for_each's scheduler-driven tasks, for traversals whose work a round structure
 * can cut (Beamer, Asanovic and Patterson's direction-optimising BFS, SC 2012).
 *
 * Round r holds a frontier F_r of nodes; the operator builds F_{r+1} from it in one of
 * two forms, chosen per round:
 *   push (top-down): for each u in F_r, scan u's out-arcs and add each target it is the
 *        first to claim (ordo_frontier_add); the frontier is sparse (per-thread chunks
 *        appended to one array);
 *   pull (bottom-up): for each node v, in parallel over 64-node words, let the operator
 *        decide: if v still needs a visit, scan v's in-arcs and stop at the first u with
 *        ordo_frontier_in(u), then add v; the frontier is dense (a bitmap).
 * Beamer's rule picks the form: from push to pull when the arcs out of the frontier
 * (m_f, the degree sum of the nodes added last round) exceed the arcs still unexplored
 * (m_u, all arcs less those of nodes already in a frontier) over alpha; back to push
 * when a pull round adds fewer than n / beta nodes and no more than the round before.
 * ORDO_FRONTIER_PUSH and ORDO_FRONTIER_PULL force one form for every round.
 *
 * The operator's contract:
 *   - push(fx, u): called once for each u of the frontier, any thread; claims each
 *     target atomically (a node must be added once over the whole run), adds it with its
 *     out-degree, and returns the arcs it examined;
 *   - pull(fx, base, todo): called once per pull round for each 64-node word that holds
 *     nodes not yet in any frontier (the runtime keeps that set), on the thread that
 *     owns the word: bit i of todo stands for node base + i. For each such v it skips v
 *     if v needs no visit, else scans v's in-arcs, stops at the first u with
 *     ordo_frontier_in(u), and adds v (no other thread touches v this round; the degree
 *     passed is not used after a pull round, 0 will do); it returns the arcs examined;
 *   - degree(v): v's out-degree (the push work v would cost), for the initial nodes;
 *   - push_nodes(fx, nodes, k) (optional, NULL: push is called per node): push for
 *     each of the k (at most ORDO_FRONTIER_PUSH_CHUNK) nodes of a chunk of the
 *     frontier, in order, returning the arcs examined - one call per chunk, so the
 *     per-node loop is inlined in the operator and can prefetch a few nodes ahead in
 *     dependent stages (BFS: a node's arc range, its arcs, its targets' levels), within
 *     the chunk: a node of another thread's chunk prefetched for writing would pull its
 *     lines away from the thread that claims them.
 * fx->round is the round being built from (0 for the initial frontier).
 * A node may be in at most one frontier; the run ends when a round adds nothing.
 */
#ifndef ORDO_FRONTIER_H
#define ORDO_FRONTIER_H

#include <stdbool.h>
#include <stdint.h>

#include "ordo_error.h"
#include "ordo_runtime.h"

enum ordo_frontier_dir { ORDO_FRONTIER_AUTO, ORDO_FRONTIER_PUSH, ORDO_FRONTIER_PULL };

/* a worker's view of the run, passed to the operator */
struct ordo_frontier_tctx {
	const uint64_t *in;  /* the current frontier as a bitmap (pull rounds) */
	uint64_t *next_bits; /* pull rounds: the next frontier */
	uint32_t *buf;       /* push rounds: this worker's chunk of the next frontier */
	unsigned nbuf;
	uint32_t round;
	uint64_t added, scout; /* this round: nodes added, their out-degree sum */
	struct ordo_frontier_run_state *run;
};

struct ordo_frontier_ops {
	uint64_t (*push)(struct ordo_frontier_tctx *fx, uint32_t u, void *user);
	uint64_t (*pull)(struct ordo_frontier_tctx *fx, uint32_t base, uint64_t todo, void *user);
	uint64_t (*degree)(uint32_t v, void *user);
	uint64_t (*push_nodes)(struct ordo_frontier_tctx *fx, const uint32_t *nodes, uint32_t k,
	                       void *user);
};
#define ORDO_FRONTIER_PUSH_CHUNK 64

struct ordo_frontier_space;

struct ordo_frontier_opts {
	const struct ordo_topology *topo;
	enum ordo_frontier_dir direction;
	double alpha, beta; /* Beamer's; 0 takes ORDO_FRONTIER_ALPHA / _BETA */
	/* the run's arrays, made once for a graph and reused; NULL: allocated per run */
	struct ordo_frontier_space *space;
	/* Hand-off (AUTO only, needs a space): from round handoff_round on (0: never), a
	 * push round whose new frontier holds fewer than n x handoff_share nodes (0 takes
	 * ORDO_FRONTIER_HANDOFF_SHARE) ends the run with that frontier unexpanded, for
	 * an asynchronous operator to finish (ordo_frontier_space_left). On a
	 * high-diameter graph thousands of small rounds cost more in barriers than they
	 * save; a low-diameter one is done or pulling long before. */
	uint32_t handoff_round;
	double handoff_share;
	/* As ordo_exec_opts.cancel: looked at between rounds (ORDO_ECANCELED). */
	const volatile _Atomic bool *cancel;
};
#define ORDO_FRONTIER_HANDOFF_SHARE (1.0 / 64)

/* Arrays for runs over n nodes with `threads` workers (two n-entry queues, three
 * bitmaps, per-thread buffers), touched by those threads here so that a timed run does
 * not fault them in. Errors: ENOMEM. */
int ordo_frontier_space_create(uint32_t n, int threads, struct ordo_frontier_space **out,
                               struct ordo_err *err);
void ordo_frontier_space_free(struct ordo_frontier_space *s);
/* After a run that handed off (stats.handed_off > 0): the frontier it left, *len nodes,
 * valid until the space's next run. */
const uint32_t *ordo_frontier_space_left(const struct ordo_frontier_space *s, uint64_t *len);
/* Worker t's work (nodes added + arcs examined) in the space's last run. */
uint64_t ordo_frontier_space_work(const struct ordo_frontier_space *s, int t);
#define ORDO_FRONTIER_ALPHA 15.0
#define ORDO_FRONTIER_BETA  18.0

struct ordo_frontier_stats {
	double seconds; /* from the run's start (clearing its state) to the last round's end */
	uint32_t rounds_push, rounds_pull; /* how many rounds went each way */
	uint64_t handed_off;  /* nodes of the frontier left to the caller (a hand-off) */
	uint64_t added, arcs; /* nodes added (not counting the initial ones),
	                         arcs the operator examined */
	uint64_t work_min, work_median, work_max; /* per thread: added + arcs */
	int threads;
};

/* True when u is in the current frontier: only in pull rounds. */
static inline bool ordo_frontier_in(const struct ordo_frontier_tctx *fx, uint32_t u)
{
	return fx->in[u >> 6] >> (u & 63) & 1;
}

void ordo_frontier_flush(struct ordo_frontier_tctx *fx);
#define ORDO_FRONTIER_CHUNK 1024

/* Adds v, of out-degree `degree` (the push work it brings), to the next frontier (v
 * claimed by this call's operator). */
static inline void ordo_frontier_add(struct ordo_frontier_tctx *fx, uint32_t v, uint64_t degree)
{
	fx->added++;
	fx->scout += degree;
	if (fx->next_bits) {
		fx->next_bits[v >> 6] |= 1ull << (v & 63); /* v's word is this thread's */
		return;
	}
	fx->buf[fx->nbuf++] = v;
	if (fx->nbuf == ORDO_FRONTIER_CHUNK)
		ordo_frontier_flush(fx);
}

/* Runs rounds from the n0 initial nodes (distinct, < n) until one adds nothing. m: the
 * graph's arcs (the rule's m_u starts there). Errors: ENOMEM, EINVAL (threads, a
 * space made for another n or thread count, a hand-off without a space, or a round
 * decided before all its workers finished it: a broken barrier), ECANCELED (o->cancel
 * was raised between rounds). */
int ordo_frontier_run(const struct ordo_frontier_opts *o, uint32_t n, uint64_t m,
                      const uint32_t *initial, uint64_t n0, const struct ordo_frontier_ops *ops,
                      void *user, struct ordo_frontier_stats *st, struct ordo_err *err);

#endif
