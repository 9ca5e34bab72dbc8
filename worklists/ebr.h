/*
 * ebr.h - epoch-based memory reclamation for the lock-free schedulers (smq-sl,
 * spraylist). Private to worklists/.
 *
 * The quiescent points are the scheduler operations themselves: every push/pop that
 * reads shared nodes runs between ebr_enter and ebr_leave, and nothing is held between
 * operations. ebr_enter announces the global epoch (seq_cst store, then a re-read, so a
 * reclaimer either sees the announcement or the walker sees the newer epoch). A thread
 * retires a node it has made unreachable into the limbo list of the current epoch, and
 * frees a limbo list once the global epoch is two steps past it: every walker that
 * could still hold the node announced an epoch at most one step past the one it was
 * filed under, and the epoch cannot advance twice while such a walker is inside. The
 * epoch advances (ebr_collect) when every thread inside an operation has announced the
 * current one. Whatever is left is freed by ebr_destroy, so nothing leaks.
 *
 * A retirer must make its nodes unreachable, then issue one seq_cst fence before it
 * retires them (ebr_retire reads the epoch): otherwise the unlinking store can sit in
 * the store buffer while the epoch load completes (x86 too), and a walker that enters at
 * the next epoch could still reach a node filed under the older one; with the fence, a
 * walker that misses the unlink announced its epoch before we read ours (crossbeam-epoch
 * fences before it files garbage for the same reason). One fence covers a whole batch.
 *
 * Nodes begin with a struct ebr_node and were allocated with malloc.
 *
 * In ORDO_PERTURB builds (perturb.h) a node is also checked for use after its grace
 * period without ASan: ebr_born marks it live, a freed node is marked dead and kept in
 * a per-thread quarantine of EBR_QUARANTINE nodes before it really goes back to malloc,
 * and readers call ebr_check on every node they step onto: reading a dead node is an
 * assertion failure at the read, not a crash somewhere later.
 */
#ifndef ORDO_EBR_H
#define ORDO_EBR_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "ordo_util.h"
#include "perturb.h"

struct ebr_node {
	struct ebr_node *ebr_next;
#ifdef ORDO_PERTURB
	_Atomic uint64_t ebr_state; /* EBR_LIVE from ebr_born until freed, then EBR_DEAD */
#endif
};

#ifdef ORDO_PERTURB
#include <stdio.h>
#define EBR_LIVE       0x4f52444f4c495645ull /* "ORDOLIVE" */
#define EBR_DEAD       0xdeadebdeadebdeadull
#define EBR_QUARANTINE 65536 /* freed nodes per thread kept poisoned before free() */
static inline void ebr_born(struct ebr_node *n)
{
	atomic_store_explicit(&n->ebr_state, EBR_LIVE, memory_order_relaxed);
}
static inline void ebr_check(const struct ebr_node *n)
{
	uint64_t s = atomic_load_explicit(&((struct ebr_node *)n)->ebr_state, memory_order_relaxed);
	if (__builtin_expect(s != EBR_LIVE, 0)) {
		fprintf(stderr,
		        "ebr: node %p read after reclamation (state %#llx): its grace "
		        "period was too short\n",
		        (const void *)n, (unsigned long long)s);
		abort();
	}
}
#else
static inline void ebr_born(struct ebr_node *n)
{
	(void)n;
}
static inline void ebr_check(const struct ebr_node *n)
{
	(void)n;
}
#endif

struct ebr_limbo {
	struct ebr_node *head;
	uint64_t epoch, count;
};

struct ebr_slot {
	/* read by reclaimers */
	alignas(128) _Atomic uint64_t announce; /* epoch << 1 | inside */
	/* the owner's */
	alignas(128) struct ebr_limbo limbo[3];
	uint64_t pending_peak;          /* most retired-but-unfreed nodes seen at once */
	struct ebr_node *qhead, *qtail; /* ORDO_PERTURB: freed, poisoned, oldest first */
	uint64_t qn;
};

struct ebr {
	alignas(128) _Atomic uint64_t epoch;
	uint32_t T;
	struct ebr_slot *slot;
};

#define EBR_ADVANCE_AT 256 /* retired nodes a thread holds before it tries to advance */

static inline bool ebr_init(struct ebr *e, uint32_t T)
{
	atomic_store_explicit(&e->epoch, 0, memory_order_relaxed);
	e->T = T;
	e->slot = ordo_calloc_aligned(T, sizeof *e->slot);
	return e->slot != NULL;
}

/* Frees a list of nodes (in ORDO_PERTURB builds: marks them dead and quarantines them
 * in slot q, freeing the oldest beyond EBR_QUARANTINE). */
static inline uint64_t ebr_free_list(struct ebr_slot *q, struct ebr_node *n)
{
	uint64_t k = 0;
	while (n) {
		struct ebr_node *x = n->ebr_next;
#ifdef ORDO_PERTURB
		atomic_store_explicit(&n->ebr_state, EBR_DEAD, memory_order_relaxed);
		n->ebr_next = NULL;
		if (q->qtail)
			q->qtail->ebr_next = n;
		else
			q->qhead = n;
		q->qtail = n;
		if (++q->qn > EBR_QUARANTINE) {
			struct ebr_node *old = q->qhead;
			q->qhead = old->ebr_next;
			q->qn--;
			free(old);
		}
#else
		(void)q;
		free(n);
#endif
		n = x;
		k++;
	}
	return k;
}

static inline void ebr_destroy(struct ebr *e)
{
	if (!e->slot)
		return;
	for (uint32_t t = 0; t < e->T; t++) {
		for (int i = 0; i < 3; i++)
			ebr_free_list(&e->slot[t], e->slot[t].limbo[i].head);
		for (struct ebr_node *n = e->slot[t].qhead, *x; n; n = x) {
			x = n->ebr_next;
			free(n);
		}
	}
	free(e->slot);
	e->slot = NULL;
}

static inline void ebr_enter(struct ebr *e, uint32_t tid)
{
	struct ebr_slot *me = &e->slot[tid];
	uint64_t x = atomic_load_explicit(&e->epoch, memory_order_acquire);
	for (;;) {
		ORDO_PERTURB_POINT(EBR_ANNOUNCE);
		/* seq_cst: the announcement is ordered before any later load of a link */
		atomic_store_explicit(&me->announce, x << 1 | 1, memory_order_seq_cst);
		uint64_t again = atomic_load_explicit(&e->epoch, memory_order_seq_cst);
		if (again == x)
			return;
		x = again;
	}
}

static inline void ebr_leave(struct ebr *e, uint32_t tid)
{
	/* release: our reads of nodes happen before a reclaimer sees us outside */
	atomic_store_explicit(&e->slot[tid].announce, 0, memory_order_release);
}

static inline uint64_t ebr_pending(const struct ebr *e, uint32_t tid)
{
	const struct ebr_limbo *l = e->slot[tid].limbo;
	return l[0].count + l[1].count + l[2].count;
}

/* Inside an operation: files n, which the caller has made unreachable (and fenced, see
 * the header), under the current epoch. Returns the number of nodes freed on the way (an old list
 * whose slot is reused). */
static inline uint64_t ebr_retire(struct ebr *e, uint32_t tid, struct ebr_node *n)
{
	struct ebr_slot *me = &e->slot[tid];
	ORDO_PERTURB_POINT(EBR_RETIRE);
	uint64_t x = atomic_load_explicit(&e->epoch, memory_order_acquire), freed = 0;
	struct ebr_limbo *l = &me->limbo[x % 3];
	if (l->head && l->epoch != x) {
		/* the slot holds epoch x - 3 or older: two epochs have passed, free it */
		freed = ebr_free_list(me, l->head);
		l->head = NULL;
		l->count = 0;
	}
	l->epoch = x;
	n->ebr_next = l->head;
	l->head = n;
	l->count++;
	uint64_t p = ebr_pending(e, tid);
	if (p > me->pending_peak)
		me->pending_peak = p;
	return freed;
}

/* Inside an operation: frees this thread's limbo lists two epochs old, then tries to
 * advance the epoch if it still holds many retired nodes. Returns the number freed. */
static inline uint64_t ebr_collect(struct ebr *e, uint32_t tid)
{
	struct ebr_slot *me = &e->slot[tid];
	uint64_t x = atomic_load_explicit(&e->epoch, memory_order_acquire), freed = 0;
	for (int i = 0; i < 3; i++) {
		struct ebr_limbo *l = &me->limbo[i];
		if (l->head && l->epoch + 2 <= x) {
			freed += ebr_free_list(me, l->head);
			l->head = NULL;
			l->count = 0;
		}
	}
	if (ebr_pending(e, tid) < EBR_ADVANCE_AT)
		return freed;
	for (uint32_t t = 0; t < e->T; t++) {
		uint64_t a = atomic_load_explicit(&e->slot[t].announce, memory_order_seq_cst);
		if ((a & 1) && (a >> 1) != x)
			return freed; /* someone is still in an older epoch */
	}
	ORDO_PERTURB_POINT(EBR_ADVANCE);
	atomic_compare_exchange_strong_explicit(&e->epoch, &x, x + 1, memory_order_seq_cst,
	                                        memory_order_relaxed);
	return freed;
}

#endif
