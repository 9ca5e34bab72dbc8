/*
 * loop.c - a task's own parallel loop (ordo_task_loop, ordo_runtime.h): items that idle
 * workers, and tasks waiting for a lock, help to run.
 *
 * One slot per run. Its caller (who set
 * `taken`) writes fn, arg and n, opens the slot, and runs items until `next` has handed
 * every item out; then it closes the slot and waits until no helper is joined; only
 * then does it return (every item has run) and may the slot be taken again.
 *
 * Why this is exact, with one word. `state` holds the open bit (bit 0) and the count of
 * joined helpers (bits 1..): a helper joins by a compare-and-swap from an open state to
 * the same state with one more helper, and leaves by subtracting its count; the closer
 * clears the open bit with one read-modify-write and then waits for the count to be 0.
 * All of them act on one location, so they are totally ordered by its modification
 * order: a join ordered before the close is in the count the closer waits on, and a
 * join after it finds the bit clear and fails (the compare-and-swap compares the whole
 * word). No store-load pair is involved (the earlier two-word form, a store to `gen`
 * then a load of `joined` against a join then a load of `gen`, needed sequential
 * consistency on both sides, and a release close broke it on x86), so no order
 * stronger than these is needed anywhere:
 *   open:  release, so a helper whose join acquires it reads this loop's fn, arg, n
 *          and next (written before it);
 *   join:  acquire (the same);
 *   leave: release, so the items' writes are seen by the closer that acquires the
 *          count of 0;
 *   close: relaxed: it only has to be one read-modify-write of the word;
 *   wait:  acquire (pairs with the leaves).
 * A helper's fields stay this loop's while it is joined: the next caller can write
 * them only after this close returned, which waits for the helper to leave. */
#include <limits.h>
#include <stdatomic.h>

#include "ordo_util.h"
#include "run.h"

/* Runs items of loop l until none is left to take; returns how many it ran. */
static uint64_t loop_items(struct ordo_loop *l, ordo_loop_fn fn, void *arg, uint32_t n,
                           unsigned tid)
{
	for (uint64_t ran = 0;; ran++) {
		const uint32_t i = atomic_fetch_add_explicit(&l->next, 1, memory_order_relaxed);
		if (i >= n)
			return ran;
		fn(arg, i, tid);
	}
}

void ordo_task_loop(struct ordo_tctx *ctx, ordo_loop_fn fn, void *arg, uint32_t n)
{
	struct ordo_loop *l = ctx ? ctx->loop : NULL;
	bool free_slot = false;
	if (n > 1 && l)
		free_slot = !atomic_exchange_explicit(&l->taken, true, memory_order_acquire);
	if (!free_slot) { /* alone: outside a run, one item, or another loop is open */
		for (uint32_t i = 0; i < n; i++)
			fn(arg, i, ctx ? ctx->tid : 0);
		return;
	}
	l->fn = fn, l->arg = arg, l->n = n;
	atomic_store_explicit(&l->next, 0, memory_order_relaxed);
	/* release: the fields above before any join (no helper is joined now: the last
	 * close waited for the count to be 0, and nobody joins a closed slot) */
	atomic_store_explicit(&l->state, LOOP_OPEN, memory_order_release);
	atomic_fetch_add_explicit(&l->opened, 1, memory_order_relaxed);
	if (atomic_load_explicit(&l->seats->idle_sleepers, memory_order_relaxed))
		seats_idle_ring(l->seats, INT_MAX);
	loop_items(l, fn, arg, n, ctx->tid);
	/* closed: every item is handed out; relaxed, see the argument above */
	atomic_fetch_and_explicit(&l->state, ~LOOP_OPEN, memory_order_relaxed);
	ORDO_PERTURB_POINT(LOOP_CLOSE);
	/* helpers finish their items (acquire: their writes, through their leaves) */
	for (unsigned round = 0; atomic_load_explicit(&l->state, memory_order_acquire); round++)
		ordo_backoff(round < 12 ? round : 12);
	atomic_store_explicit(&l->taken, false, memory_order_release);
}

/* An idle worker's look at the run's loop: joins it when open; true when it did. */
bool loop_help(struct ordo_loop *l, unsigned tid)
{
	uint64_t s = atomic_load_explicit(&l->state, memory_order_relaxed);
	if (!(s & LOOP_OPEN))
		return false;
	ORDO_PERTURB_POINT(LOOP_JOIN);
	/* acquire: the opener's fields (its release store is what the compare-and-swap
	 * read, or the value it was modified from) */
	if (!atomic_compare_exchange_strong_explicit(&l->state, &s, s + LOOP_HELPER,
	                                             memory_order_acquire, memory_order_relaxed))
		return false; /* closed meanwhile, or another helper moved the count: later */
	atomic_fetch_add_explicit(&l->helped, loop_items(l, l->fn, l->arg, l->n, tid),
	                          memory_order_relaxed);
	/* release: its items' writes before the closer's acquire of a count of 0 */
	atomic_fetch_sub_explicit(&l->state, LOOP_HELPER, memory_order_release);
	return true;
}

bool ordo_task_loop_help(struct ordo_tctx *ctx)
{
	return ctx && ctx->loop && loop_help(ctx->loop, ctx->tid);
}
