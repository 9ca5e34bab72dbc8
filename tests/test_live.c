/*
 * The live set (runtime/ordo_live.h): offers and claims one at a time, then under every
 * scheduler with many threads, where a lost update would show as a token never drained.
 */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "ordo_live.h"
#include "ordo_rng.h"
#include "ordo_schedulers.h"

static struct ordo_tctx *fake_ctx(void)
{
	struct ordo_tctx *c = calloc(1, sizeof *c);
	c->cappush = 64;
	c->pushbuf = malloc(c->cappush * sizeof *c->pushbuf);
	return c;
}

Test(live, offers_and_claims_one_at_a_time)
{
	struct ordo_live l;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_live_init(&l, 4, 4, &e), 0, "%s", e.msg); /* grains of 16 */
	struct ordo_tctx *c = fake_ctx();
	cr_assert(!ordo_live_queued(&l, 1));
	cr_assert(ordo_live_offer(c, &l, 1, 40)); /* grain 2 */
	cr_assert_eq(c->npush, 1);
	cr_assert(!ordo_live_offer(c, &l, 1, 35), "the same grain: queued already");
	cr_assert(!ordo_live_offer(c, &l, 1, 70), "a worse grain: queued already");
	cr_assert(ordo_live_offer(c, &l, 1, 20), "a better grain: pushed again");
	cr_assert_eq(c->npush, 2);
	cr_assert(c->pushbuf[1].prio == 20 && c->pushbuf[1].data == 1);
	/* the first task is superseded; the second claims, once */
	cr_assert(!ordo_live_claim(&l, &c->pushbuf[0]));
	cr_assert(ordo_live_claim(&l, &c->pushbuf[1]));
	cr_assert(!ordo_live_queued(&l, 1));
	cr_assert(!ordo_live_claim(&l, &c->pushbuf[1]), "claimed twice");
	/* after a claim any offer pushes, even at a worse grain */
	cr_assert(ordo_live_offer(c, &l, 1, 90));
	/* a task of the same grain as the queued one may claim it (a duplicate left from
	 * an earlier queueing); the one pushed with it then finds nothing */
	const struct ordo_task same = {91, 1};
	cr_assert(ordo_live_claim(&l, &same));
	cr_assert(!ordo_live_claim(&l, &c->pushbuf[2]));
	/* grain 64: one task per node whatever the priority; grain 0: every priority */
	cr_assert_eq(ordo_live_mask(64), 0);
	cr_assert_eq(ordo_live_mask(0), ~UINT64_C(0));
	ordo_live_seed(&l, 3, 7);
	cr_assert(ordo_live_queued(&l, 3));
	cr_assert(!ordo_live_offer(c, &l, 3, 8));
	ordo_live_reset(&l, 2);
	for (uint32_t v = 0; v < 4; v++)
		cr_assert(!ordo_live_queued(&l, v));
	ordo_live_free(&l);
	free(c->pushbuf);
	free(c);
}

/* Tokens: a task claims its node, drains its pending tokens, and passes each on to a
 * node of its choosing (while the budget lasts) with an add before the offer, at a
 * priority from the pending count it saw, so priorities rise and fall. Every token
 * added must be drained by the end: an offer lost against a claim leaves one behind. */
enum { NODES = 512, BUDGET = 200000 };

struct tokens {
	struct ordo_live live;
	_Atomic uint64_t pending[NODES];
	_Atomic int64_t budget;
	_Atomic uint64_t drained;
};

static bool token_op(struct ordo_tctx *ctx, const struct ordo_task *t, void *user)
{
	struct tokens *s = user;
	const uint32_t v = (uint32_t)t->data;
	if (!ordo_live_claim(&s->live, t))
		return false;
	const uint64_t k =
	    atomic_exchange_explicit(&s->pending[v], 0, memory_order_relaxed); /* any order */
	atomic_fetch_add_explicit(&s->drained, k, memory_order_relaxed);
	for (uint64_t i = 0; i < k; i++) {
		if (atomic_fetch_sub_explicit(&s->budget, 1, memory_order_relaxed) <= 0)
			break;
		const uint32_t w = (uint32_t)(ordo_rng_next(&ctx->rng) % NODES);
		const uint64_t now =
		    atomic_fetch_add_explicit(&s->pending[w], 1, memory_order_relaxed) + 1;
		/* more tokens, more urgent; a random part so grains are crossed both ways */
		ordo_live_offer(ctx, &s->live, w,
		                (1000 - (now > 999 ? 999 : now)) * 8 +
		                    ordo_rng_next(&ctx->rng) % 8);
	}
	return true;
}

Test(live, no_token_lost_under_any_scheduler, .timeout = 600)
{
	static struct tokens s;
	const unsigned grains[] = {0, 3, 6, 64};
	for (int i = 0; i < ordo_scheduler_count(); i++) {
		const struct ordo_scheduler_ops *ops = ordo_scheduler_at(i);
		for (int T = 1; T <= 16; T *= 2) {
			const unsigned grain = grains[(unsigned)(i + T) % 4];
			struct ordo_err e = {0};
			struct ordo_topology topo;
			cr_assert_eq(ordo_topology_init(&topo, T, 0, ORDO_BIND_NONE, &e), 0);
			struct ordo_scheduler wl;
			cr_assert_eq(ordo_scheduler_create(ops->name, NULL, &topo, 7, &wl, &e), 0,
			             "%s", e.msg);
			cr_assert_eq(ordo_live_init(&s.live, NODES, grain, &e), 0);
			struct ordo_task init[NODES];
			for (uint32_t v = 0; v < NODES; v++) {
				atomic_store(&s.pending[v], 1);
				init[v] = (struct ordo_task){4000 + v % 7, v};
				ordo_live_seed(&s.live, v, init[v].prio);
			}
			atomic_store(&s.budget, BUDGET);
			atomic_store(&s.drained, 0);
			struct ordo_exec_opts o = {.topo = &topo, .seed = 3};
			struct ordo_run_stats st;
			cr_assert_eq(
			    ordo_for_each(&o, wl.ops, wl.wl, init, NODES, token_op, &s, &st, &e), 0,
			    "%s", e.msg);
			const int64_t left = atomic_load(&s.budget);
			const uint64_t added =
			    NODES + (uint64_t)BUDGET - (uint64_t)(left > 0 ? left : 0);
			cr_assert_eq(atomic_load(&s.drained), added,
			             "%s, %d threads, grain %u: %llu tokens drained of %llu",
			             ops->name, T, grain,
			             (unsigned long long)atomic_load(&s.drained),
			             (unsigned long long)added);
			for (uint32_t v = 0; v < NODES; v++) {
				cr_assert_eq(atomic_load(&s.pending[v]), 0);
				cr_assert(!ordo_live_queued(&s.live, v), "node %u still queued", v);
			}
			ordo_live_free(&s.live);
			ordo_scheduler_destroy(&wl);
			ordo_topology_free(&topo);
		}
	}
}
