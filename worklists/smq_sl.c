/*
 * smq_sl.c - the Stealing Multi-Queue over per-thread lock-free skip lists (the SMQ
 * paper's SkipListSMQ; REFERENCES.md, "SMQ over skip lists").
 *
 * Each thread owns a skip list (24 levels, p = 1/2) ordered by (priority, insertion
 * sequence); nothing is ever dropped as a duplicate, since the executor counts every
 * push. Only the owner changes links (single writer): it inserts, and it unlinks claimed
 * nodes from the front. Anyone - owner or thief - removes a task by walking level 0 from
 * the head and claiming the first unclaimed node with a compare-and-swap on its
 * `claimed` flag; a thief claims up to steal_size nodes in one walk (the stolen batch,
 * consumed in order). New links are published with release stores after the node is
 * complete, and read with acquire loads, so a walker always sees whole nodes; a claimed
 * node may stay linked for a while, which walkers simply skip. The structure is
 * lock-free: no thread ever waits for another.
 *
 * Memory reclamation is epoch-based (ebr.h): every push/pop runs inside an epoch
 * section, the owner retires the nodes it unlinks, and a node is freed two epochs later.
 * Everything left is freed at destroy, so nothing leaks and nothing is used after free
 * (checked under ASan/TSan).
 *
 * pop: the rest of a stolen batch first; then with probability 1/steal_prob compare the
 * best unclaimed task of a random victim (NUMA-weighted) with the own best and steal a
 * batch if the victim's is better; then the own list; if that is empty, up to 4 random
 * steal attempts.
 * Parameters: steal_prob, steal_size, numa_k.
 */
#include <stdio.h>

#include "ebr.h"
#include "numa_pick.h"
#include "ordo_scheduler.h"
#include "wl_common.h"

enum { P_PROB, P_SIZE, P_NUMA, P_N };
static const struct ordo_param params[P_N] = {
    {"steal_prob", 8, 1, 1 << 20, "a pop tries to steal with probability 1/steal_prob"},
    {"steal_size", 8, 1, 1024, "tasks claimed per steal (the stolen batch)"},
    {"numa_k", 1, 1, 1 << 20, "weight of same-node victims (others weigh 1)"},
};
enum { S_STEALS, S_STOLEN, S_FREED };

#define LEVELS 24

struct node {
	struct ebr_node ebr; /* limbo list link (owner only) */
	uint64_t prio, data, seq;
	_Atomic uint32_t claimed;
	uint32_t level;
	_Atomic(struct node *) next[]; /* level entries */
};

struct slist {
	/* read by thieves */
	alignas(128) struct node *head;
	/* owner only */
	alignas(128) uint64_t seq;
	struct ordo_rng lvl_rng;
	struct ordo_task *batch; /* rest of a stolen batch, consumed from the back */
	uint32_t nbatch;
	struct numa_pick pick;
};

struct ordo_sched_state {
	uint32_t T, size;
	uint64_t prob, numa_k;
	const struct ordo_topology *topo;
	struct slist *s;
	struct ebr ebr;
};

/* ---- the list ---- */
static bool before(const struct node *a, uint64_t prio, uint64_t seq)
{
	return a->prio < prio || (a->prio == prio && a->seq < seq);
}

static struct node *node_new(uint32_t level)
{
	struct node *n = malloc(sizeof *n + level * sizeof(n->next[0]));
	if (n) {
		ebr_born(&n->ebr);
		n->level = level;
		atomic_store_explicit(&n->claimed, 0, memory_order_relaxed);
		for (uint32_t i = 0; i < level; i++)
			atomic_store_explicit(&n->next[i], NULL, memory_order_relaxed);
	}
	return n;
}

/* Owner: sequential insert; links are published with release stores. */
static bool insert(struct slist *s, const struct ordo_task *t)
{
	uint32_t level = wl_skip_level(&s->lvl_rng, LEVELS);
	struct node *n = node_new(level);
	if (!n)
		return false;
	n->prio = t->prio;
	n->data = t->data;
	n->seq = s->seq++;
	struct node *preds[LEVELS], *p = s->head;
	for (int l = LEVELS - 1; l >= 0; l--) {
		struct node *x;
		while ((x = atomic_load_explicit(&p->next[l], memory_order_relaxed)) &&
		       before(x, n->prio, n->seq))
			p = x;
		preds[l] = p;
	}
	for (uint32_t l = 0; l < level; l++)
		atomic_store_explicit(
		    &n->next[l], atomic_load_explicit(&preds[l]->next[l], memory_order_relaxed),
		    memory_order_relaxed);
	/* release: the node's fields and links are complete before it becomes reachable */
	for (uint32_t l = 0; l < level; l++)
		atomic_store_explicit(&preds[l]->next[l], n, memory_order_release);
	return true;
}

/* Owner: unlinks the claimed prefix of level 0 from every level and retires it. */
static void unlink_claimed_prefix(struct ordo_sched_state *w, struct ordo_tctx *ctx,
                                  struct slist *s)
{
	struct node *h = s->head, *x = atomic_load_explicit(&h->next[0], memory_order_relaxed);
	struct node *last = NULL;
	while (x && atomic_load_explicit(&x->claimed, memory_order_acquire)) {
		last = x;
		x = atomic_load_explicit(&x->next[0], memory_order_relaxed);
	}
	if (!last)
		return;
	/* the prefix is h->next[0] .. last; at higher levels its members form a prefix too */
	for (int l = LEVELS - 1; l >= 1; l--) {
		struct node *y = atomic_load_explicit(&h->next[l], memory_order_relaxed);
		while (y && !before(last, y->prio, y->seq))
			y = atomic_load_explicit(&y->next[l], memory_order_relaxed);
		atomic_store_explicit(&h->next[l], y, memory_order_release);
	}
	struct node *y = atomic_load_explicit(&h->next[0], memory_order_relaxed);
	atomic_store_explicit(&h->next[0], x, memory_order_release);
	/* seq_cst fence before ebr_retire reads the epoch: otherwise (x86 too) the unlink
	 * can sit in the store buffer while the epoch load completes; a thief entering at
	 * the next epoch could then still reach a node that is freed two epochs after the
	 * one it is filed under (ebr.h). With the fence, a thief that misses the unlink
	 * announced its epoch before we read ours. */
	atomic_thread_fence(memory_order_seq_cst);
	while (y != x) {
		struct node *nx = atomic_load_explicit(&y->next[0], memory_order_relaxed);
		ORDO_STAT(ctx, S_FREED, ebr_retire(&w->ebr, ctx->tid, &y->ebr));
		y = nx;
	}
}

/* Anyone, inside an operation: claims up to k of the first unclaimed tasks. */
static uint32_t claim(struct slist *s, struct ordo_task *out, uint32_t k)
{
	uint32_t got = 0;
	struct node *x = atomic_load_explicit(&s->head->next[0], memory_order_acquire);
	while (x && got < k) {
		ebr_check(&x->ebr);
		uint32_t zero = 0;
		if (!atomic_load_explicit(&x->claimed, memory_order_relaxed) &&
		    atomic_compare_exchange_strong_explicit(
		        &x->claimed, &zero, 1, memory_order_acq_rel, memory_order_relaxed)) {
			out[got].prio = x->prio;
			out[got].data = x->data;
			got++;
		}
		x = atomic_load_explicit(&x->next[0], memory_order_acquire);
	}
	return got;
}

/* Best unclaimed priority (a hint: it may be claimed right after). */
static uint64_t peek(struct slist *s)
{
	struct node *x = atomic_load_explicit(&s->head->next[0], memory_order_acquire);
	while (x && (ebr_check(&x->ebr), atomic_load_explicit(&x->claimed, memory_order_relaxed)))
		x = atomic_load_explicit(&x->next[0], memory_order_acquire);
	return x ? x->prio : UINT64_MAX;
}

static int sl_create(const struct ordo_scheduler_config *cfg, struct ordo_sched_state **out,
                     struct ordo_err *err)
{
	struct ordo_sched_state *w = ordo_calloc_aligned(1, sizeof *w);
	if (!w)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	w->T = (uint32_t)cfg->topo->nthreads;
	w->prob = (uint64_t)cfg->params[P_PROB];
	w->size = (uint32_t)cfg->params[P_SIZE];
	w->numa_k = (uint64_t)cfg->params[P_NUMA];
	w->topo = cfg->topo;
	w->s = ordo_calloc_aligned(w->T, sizeof *w->s);
	if (!w->s || !ebr_init(&w->ebr, w->T)) {
		free(w->s);
		free(w);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	}
	for (uint32_t t = 0; t < w->T; t++) {
		w->s[t].head = node_new(LEVELS);
		if (!w->s[t].head) {
			for (uint32_t k = 0; k < t; k++)
				free(w->s[k].head);
			free(w->s);
			ebr_destroy(&w->ebr);
			free(w);
			return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
		}
		ordo_rng_seed(&w->s[t].lvl_rng, cfg->seed ^ 0x5157, t);
	}
	*out = w;
	return 0;
}

static void sl_thread_init(struct ordo_sched_state *w, struct ordo_tctx *ctx)
{
	struct slist *s = &w->s[ctx->tid];
	s->batch = malloc(w->size * sizeof *s->batch);
	if (!s->batch || !numa_pick_init(&s->pick, w->topo, ctx->tid, w->T, 1, ctx->tid, w->numa_k))
		ctx->push_oom = true;
}

static void sl_destroy(struct ordo_sched_state *w)
{
	for (uint32_t t = 0; t < w->T; t++) {
		struct slist *s = &w->s[t];
		struct node *x = s->head;
		while (x) {
			struct node *nx = atomic_load_explicit(&x->next[0], memory_order_relaxed);
			free(x);
			x = nx;
		}
		free(s->batch);
		numa_pick_free(&s->pick);
	}
	free(w->s);
	ebr_destroy(&w->ebr);
	free(w);
}

static void sl_push(struct ordo_sched_state *w, struct ordo_tctx *ctx, const struct ordo_task *t,
                    size_t n)
{
	struct slist *s = &w->s[ctx->tid];
	ebr_enter(&w->ebr, ctx->tid);
	for (size_t i = 0; i < n; i++)
		if (!insert(s, &t[i])) {
			ctx->push_oom = true;
			break;
		}
	ebr_leave(&w->ebr, ctx->tid);
}

static bool steal_from(struct ordo_sched_state *w, struct ordo_tctx *ctx, struct slist *me,
                       struct slist *v, struct ordo_task *out)
{
	uint32_t k = claim(v, me->batch, w->size);
	if (!k)
		return false;
	ORDO_STAT(ctx, S_STEALS, 1);
	ORDO_STAT(ctx, S_STOLEN, k);
	me->nbatch = wl_batch_split(me->batch, k, out);
	return true;
}

static bool sl_pop(struct ordo_sched_state *w, struct ordo_tctx *ctx, struct ordo_task *out)
{
	struct slist *me = &w->s[ctx->tid];
	if (me->nbatch) {
		*out = me->batch[--me->nbatch];
		return true;
	}
	ebr_enter(&w->ebr, ctx->tid);
	bool ok = false;
	if (w->T > 1 && ordo_rng_below(&ctx->rng, w->prob) == 0) {
		struct slist *v = &w->s[numa_pick(&me->pick, &ctx->rng)];
		if (peek(v) < peek(me))
			ok = steal_from(w, ctx, me, v, out);
	}
	if (!ok)
		ok = claim(me, out, 1) == 1;
	for (int a = 0; !ok && w->T > 1 && a < 4; a++)
		ok = steal_from(w, ctx, me, &w->s[numa_pick(&me->pick, &ctx->rng)], out);
	unlink_claimed_prefix(w, ctx, me);
	ORDO_STAT(ctx, S_FREED, ebr_collect(&w->ebr, ctx->tid));
	ebr_leave(&w->ebr, ctx->tid);
	return ok;
}

ORDO_SCHEDULER_DEFINE(smq_sl, .name = "smq-sl",
                      .summary = "Stealing Multi-Queue over per-thread lock-free skip lists (epoch "
                                 "reclamation)",
                      .params = params, .nparams = P_N,
                      .stat_names = {"steals", "stolen_tasks", "nodes_freed"}, .create = sl_create,
                      .destroy = sl_destroy, .thread_init = sl_thread_init, .push = sl_push,
                      .pop = sl_pop);
