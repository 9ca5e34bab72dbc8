/*
 * spraylist.c - the SprayList (Alistarh, Kopinsky, Li, Shavit; REFERENCES.md,
 * "SprayList"): one global lock-free skip list whose pops "spray" - take a random task near
 * the front - so that threads do not all fight over the minimum.
 *
 * The list. Keys are (priority, task data, uid), uid = a per-thread push counter with
 * the thread id in its low bits: equal priorities of different tasks are distinct keys,
 * as the paper's node comparer makes them, and since the executor counts every push no
 * task is dropped as a duplicate either. Fraser's design: a node is linked bottom-up;
 * each next pointer carries a mark bit; a marked pointer freezes its node at that level,
 * and any search that meets a marked node unlinks it with a compare-and-swap on the
 * unmarked predecessor (a marked node, once unlinked, is never relinked). Taking a task
 * is marking level 0 of its node (the claim, one CAS: exactly one of several racing
 * claimers wins); the claimer then marks the upper levels at once, so that searches
 * route around the node, but unlinks it later (below).
 *
 * pop. With probability 1/T (always at T = 1) the thread is a cleaner: it unlinks the
 * nodes it claimed since its last turn, then takes the first unclaimed node (the exact
 * Lotan-Shavit delete-min). Otherwise it sprays: from the head at level H, at each
 * level down to 0 it walks right a uniform 0..J steps (steps onto claimed nodes do not
 * count). The first steps stand for P "padding" nodes in front of the list: a step at
 * level i consumes 2^i of them without moving. Landing still on the head (inside the
 * padding) fails the pop, as in the paper's code; the executor retries. Otherwise the
 * thread claims the first unclaimed node at or after its landing point, and falls back
 * to the exact delete-min when it reaches the end of the list. Defaults as the paper:
 * H = J = floor(log2 T) + 1, P = T floor(log2 T) / 2. A spray lands on one of the first
 * O(T log^3 T) tasks, so the mean rank error is bounded by the parameters alone (the
 * sum over levels of J/2 steps of 2^i nodes; tests/test_scheduler_cases.c checks it).
 *
 * Memory. A node may be freed only once it is unreachable and no walker can still hold
 * it (epochs, ebr.h). Two threads can touch its links late: the claimer, and the
 * inserter, which may still be linking upper levels when the node is claimed (a late
 * link can make a claimed node reachable again at that level). So each node starts
 * with two references; the claimer drops one after marking every level, the inserter
 * after it stops linking (it stops at the first level it finds marked). Whoever drops
 * the last runs a search for the node's key - which unlinks it at every level, since
 * nobody links it any more - and retires it: the inserter at once, the claimer at its
 * next cleaner turn (its nodes wait on a per-thread list, so unlinking is batched away
 * from the contended front, as in the paper). Memory is thus bounded by the tasks in
 * the list, T times the pops between two cleaner turns, and the epochs' limbo lists
 * (the counter limbo_peak reports their high-water mark).
 *
 * Parameters: height, jump, padding (-1: the paper's default for the thread count).
 */
#include <stdio.h>

#include "ebr.h"
#include "ordo_scheduler.h"
#include "perturb.h"
#include "wl_common.h"

enum { P_HEIGHT, P_JUMP, P_PAD, P_N };
static const struct ordo_param params[P_N] = {
    {"height", -1, -1, 23, "level a spray starts at (-1: floor(log2 T) + 1)"},
    {"jump", -1, -1, 1 << 20, "a spray walks 0..jump steps per level (-1: floor(log2 T) + 1)"},
    {"padding", -1, -1, INT64_C(1) << 40,
     "virtual nodes in front of the list a spray skips (-1: T floor(log2 T) / 2)"},
};
enum { S_SPRAYS, S_CLEANS, S_FREED, S_LIMBO_PEAK };

#define LEVELS 24

struct node {
	struct ebr_node ebr; /* limbo link, once retired */
	uint64_t prio, data, uid;
	struct node *claimed_next; /* the claimer's list of nodes to unlink */
	_Atomic uint32_t refs;     /* claimer + inserter, see the header */
	uint32_t level;
	_Atomic uintptr_t next[]; /* level entries; bit 0 = marked */
};

struct local {
	alignas(128) struct node *claimed; /* claimed by us, last reference ours */
	uint64_t nclaimed, seq;
	struct ordo_rng lvl_rng;
};

struct ordo_sched_state {
	uint32_t T, height, jump;
	uint64_t padding;
	struct node *head;
	struct local *l;
	struct ebr ebr;
};

/* ---- links ---- */
static inline struct node *ptr(uintptr_t v)
{
	return (struct node *)(v & ~(uintptr_t)1);
}

static inline bool marked(uintptr_t v)
{
	return v & 1;
}

static inline uintptr_t link_of(const struct node *n, int l)
{
	ebr_check(&n->ebr);
	return atomic_load_explicit(&((struct node *)n)->next[l], memory_order_acquire);
}

static inline bool is_claimed(const struct node *n)
{
	return marked(link_of(n, 0));
}

/* key(a) < key */
static inline bool before(const struct node *a, const struct node *key)
{
	if (a->prio != key->prio)
		return a->prio < key->prio;
	if (a->data != key->data)
		return a->data < key->data;
	return a->uid < key->uid;
}

static struct node *node_new(uint32_t level)
{
	struct node *n = malloc(sizeof *n + level * sizeof(n->next[0]));
	if (n) {
		ebr_born(&n->ebr);
		n->level = level;
		n->claimed_next = NULL;
		atomic_store_explicit(&n->refs, 2, memory_order_relaxed);
		for (uint32_t i = 0; i < level; i++)
			atomic_store_explicit(&n->next[i], 0, memory_order_relaxed);
	}
	return n;
}

/* Fraser's search: for each level, the last node before `key` and the first at or after
 * it, unlinking every marked node met on the way (a node marked at a level is checked
 * before it is compared, so the node with `key` itself is unlinked if it is marked).
 * Restarts from the head when a predecessor turns out to be marked itself. */
static void search(struct ordo_sched_state *w, const struct node *key, struct node **preds,
                   struct node **succs)
{
retry:;
	struct node *pred = w->head;
	for (int l = LEVELS - 1; l >= 0; l--) {
		uintptr_t pv = link_of(pred, l);
		if (marked(pv))
			goto retry;
		struct node *cur = ptr(pv);
		while (cur) {
			uintptr_t cv = link_of(cur, l);
			if (marked(cv)) { /* cur is deleted at this level: unlink it */
				uintptr_t expect = (uintptr_t)cur;
				ORDO_PERTURB_POINT(SPRAY_UNLINK);
				if (!atomic_compare_exchange_strong_explicit(
				        &pred->next[l], &expect, (uintptr_t)ptr(cv),
				        memory_order_acq_rel, memory_order_acquire))
					goto retry;
				cur = ptr(cv);
				continue;
			}
			if (!before(cur, key))
				break;
			pred = cur;
			cur = ptr(cv);
		}
		if (preds) {
			preds[l] = pred;
			succs[l] = cur;
		}
	}
}

/* Drops one of n's two references; the last one unlinks and retires it (see the
 * header). `defer`: the claimer files it for its next cleaner turn instead. */
static void release(struct ordo_sched_state *w, struct ordo_tctx *ctx, struct node *n, bool defer)
{
	if (atomic_fetch_sub_explicit(&n->refs, 1, memory_order_acq_rel) != 1)
		return;
	struct local *me = &w->l[ctx->tid];
	if (defer) {
		n->claimed_next = me->claimed;
		me->claimed = n;
		me->nclaimed++;
		return;
	}
	search(w, n, NULL, NULL);
	atomic_thread_fence(memory_order_seq_cst); /* ebr.h: unlink before the epoch read */
	ORDO_STAT(ctx, S_FREED, ebr_retire(&w->ebr, ctx->tid, &n->ebr));
}

/* Claims n if it is still unclaimed: marks level 0 (the linearisation point), then the
 * upper levels. */
static bool claim(struct ordo_sched_state *w, struct ordo_tctx *ctx, struct node *n)
{
	uintptr_t v = link_of(n, 0);
	ORDO_PERTURB_POINT(SPRAY_CLAIM);
	if (marked(v) || !atomic_compare_exchange_strong_explicit(
	                     &n->next[0], &v, v | 1, memory_order_acq_rel, memory_order_relaxed))
		return false;
	for (int l = (int)n->level - 1; l >= 1; l--)
		atomic_fetch_or_explicit(&n->next[l], 1, memory_order_acq_rel);
	release(w, ctx, n, true);
	return true;
}

/* The first unclaimed node at or after n, claimed; NULL at the end of the list. */
static struct node *claim_from(struct ordo_sched_state *w, struct ordo_tctx *ctx, struct node *n)
{
	while (n) {
		if (claim(w, ctx, n))
			return n;
		n = ptr(link_of(n, 0));
	}
	return NULL;
}

/* The cleaner's turn: unlinks and retires the nodes this thread claimed. */
static void clean(struct ordo_sched_state *w, struct ordo_tctx *ctx)
{
	struct local *me = &w->l[ctx->tid];
	struct node *n = me->claimed;
	if (!n)
		return;
	for (struct node *x = n; x; x = x->claimed_next)
		search(w, x, NULL, NULL);
	atomic_thread_fence(memory_order_seq_cst); /* ebr.h: unlinks before the epoch read */
	while (n) {
		struct node *nx = n->claimed_next;
		ORDO_STAT(ctx, S_FREED, ebr_retire(&w->ebr, ctx->tid, &n->ebr));
		n = nx;
	}
	me->claimed = NULL;
	me->nclaimed = 0;
}

static bool insert(struct ordo_sched_state *w, struct ordo_tctx *ctx, const struct ordo_task *t)
{
	struct local *me = &w->l[ctx->tid];
	uint32_t level = wl_skip_level(&me->lvl_rng, LEVELS);
	struct node *n = node_new(level);
	if (!n)
		return false;
	n->prio = t->prio;
	n->data = t->data;
	n->uid = me->seq++ << 20 | ctx->tid;
	struct node *preds[LEVELS], *succs[LEVELS];
	for (;;) {
		search(w, n, preds, succs);
		for (uint32_t l = 0; l < level; l++) /* n is private until linked */
			atomic_store_explicit(&n->next[l], (uintptr_t)succs[l],
			                      memory_order_relaxed);
		uintptr_t expect = (uintptr_t)succs[0];
		/* release: n's fields and links are complete before it becomes reachable */
		if (atomic_compare_exchange_strong_explicit(&preds[0]->next[0], &expect,
		                                            (uintptr_t)n, memory_order_acq_rel,
		                                            memory_order_relaxed))
			break;
	}
	for (uint32_t l = 1; l < level; l++) {
		for (;;) {
			uintptr_t old = link_of(n, (int)l);
			if (marked(old))
				goto done; /* claimed meanwhile: stop linking */
			if (ptr(old) != succs[l] && !atomic_compare_exchange_strong_explicit(
			                                &n->next[l], &old, (uintptr_t)succs[l],
			                                memory_order_acq_rel, memory_order_relaxed))
				goto done; /* marked between the load and the swap */
			uintptr_t expect = (uintptr_t)succs[l];
			if (atomic_compare_exchange_strong_explicit(
			        &preds[l]->next[l], &expect, (uintptr_t)n, memory_order_acq_rel,
			        memory_order_relaxed))
				break;
			search(w, n, preds, succs);
			if (is_claimed(n))
				goto done;
		}
	}
done:
	release(w, ctx, n, false);
	return true;
}

static int spray_create(const struct ordo_scheduler_config *cfg, struct ordo_sched_state **out,
                        struct ordo_err *err)
{
	struct ordo_sched_state *w = ordo_calloc_aligned(1, sizeof *w);
	if (!w)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	w->T = (uint32_t)cfg->topo->nthreads;
	uint32_t lg = wl_floor_log2(w->T);
	w->height = cfg->params[P_HEIGHT] >= 0 ? (uint32_t)cfg->params[P_HEIGHT] : lg + 1;
	if (w->height > LEVELS - 1)
		w->height = LEVELS - 1;
	w->jump = cfg->params[P_JUMP] >= 0 ? (uint32_t)cfg->params[P_JUMP] : lg + 1;
	w->padding =
	    cfg->params[P_PAD] >= 0 ? (uint64_t)cfg->params[P_PAD] : (uint64_t)w->T * lg / 2;
	w->head = node_new(LEVELS);
	w->l = ordo_calloc_aligned(w->T, sizeof *w->l);
	if (!w->head || !w->l || !ebr_init(&w->ebr, w->T)) {
		free(w->head);
		free(w->l);
		ebr_destroy(&w->ebr);
		free(w);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	}
	for (uint32_t t = 0; t < w->T; t++)
		ordo_rng_seed(&w->l[t].lvl_rng, cfg->seed ^ 0x5e7a, t);
	*out = w;
	return 0;
}

static void spray_destroy(struct ordo_sched_state *w)
{
	/* quiescent: unclaimed nodes are only in the list; claimed ones are on their
	 * claimer's list or already retired (then unlinked from level 0) */
	struct node *x = ptr(link_of(w->head, 0));
	while (x) {
		uintptr_t v = link_of(x, 0);
		if (!marked(v))
			free(x);
		x = ptr(v);
	}
	for (uint32_t t = 0; t < w->T; t++) {
		struct node *n = w->l[t].claimed;
		while (n) {
			struct node *nx = n->claimed_next;
			free(n);
			n = nx;
		}
	}
	free(w->head);
	free(w->l);
	ebr_destroy(&w->ebr);
	free(w);
}

static void spray_push(struct ordo_sched_state *w, struct ordo_tctx *ctx, const struct ordo_task *t,
                       size_t n)
{
	ebr_enter(&w->ebr, ctx->tid);
	for (size_t i = 0; i < n; i++)
		if (!insert(w, ctx, &t[i])) {
			ctx->push_oom = true;
			break;
		}
	ebr_leave(&w->ebr, ctx->tid);
}

/* A spray: the landing node, or the head while still inside the padding. A walk that
 * meets the end of a level stops there and goes down (as the paper's code does). */
static struct node *spray_walk(struct ordo_sched_state *w, struct ordo_tctx *ctx)
{
	struct node *cur = w->head;
	uint64_t pad = 0;
	for (int l = (int)w->height; l >= 0; l--) {
		uint64_t steps = ordo_rng_below(&ctx->rng, (uint64_t)w->jump + 1);
		while (pad < w->padding && steps > 0) {
			pad += (uint64_t)1 << l;
			steps--;
		}
		while (steps > 0) {
			struct node *nx = ptr(link_of(cur, l));
			if (!nx)
				break;
			cur = nx;
			if (!is_claimed(cur))
				steps--;
		}
	}
	return cur;
}

static bool spray_pop(struct ordo_sched_state *w, struct ordo_tctx *ctx, struct ordo_task *out)
{
	ebr_enter(&w->ebr, ctx->tid);
	struct node *got = NULL;
	bool cleaner = w->T == 1 || ordo_rng_below(&ctx->rng, w->T) == 0;
	if (!cleaner) {
		ORDO_STAT(ctx, S_SPRAYS, 1);
		struct node *at = spray_walk(w, ctx);
		if (at == w->head) {
			ebr_leave(&w->ebr, ctx->tid);
			return false; /* inside the padding */
		}
		got = claim_from(w, ctx, at);
		cleaner = !got; /* ran off the end: the exact delete-min decides */
	}
	if (cleaner) {
		ORDO_STAT(ctx, S_CLEANS, 1);
		clean(w, ctx);
		got = claim_from(w, ctx, ptr(link_of(w->head, 0)));
	}
	if (got) {
		out->prio = got->prio;
		out->data = got->data;
	}
	ORDO_STAT(ctx, S_FREED, ebr_collect(&w->ebr, ctx->tid));
	ebr_leave(&w->ebr, ctx->tid);
	return got != NULL;
}

static void spray_thread_fini(struct ordo_sched_state *w, struct ordo_tctx *ctx)
{
	ORDO_STAT(ctx, S_LIMBO_PEAK, w->ebr.slot[ctx->tid].pending_peak);
}

ORDO_SCHEDULER_DEFINE(spraylist, .name = "spraylist",
                      .summary =
                          "SprayList: one global lock-free skip list, pops spray near the front "
                          "(epoch reclamation)",
                      .params = params, .nparams = P_N,
                      .stat_names = {"sprays", "cleans", "nodes_freed", "limbo_peak"},
                      .create = spray_create, .destroy = spray_destroy,
                      .thread_fini = spray_thread_fini, .push = spray_push, .pop = spray_pop);
