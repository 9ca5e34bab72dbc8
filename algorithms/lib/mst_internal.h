/*
 * mst_internal.h - what the minimum spanning forest's two files share (internal to the
 * operator library): the per-node and per-component state, locks and priorities
 * (mst.c: tasks, sweeps, run and check), and a big component's candidate lists and
 * segment arrays (mst_cand.c). The algorithm is described in mst.c.
 */
#ifndef ORDO_MST_INTERNAL_H
#define ORDO_MST_INTERNAL_H

#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "ordo_mst.h"
#include "ordo_util.h"
#include "perturb.h"

struct mst_edge {
	uint32_t w, self, other;
};

/* Per node, 32 bytes, so one cache line holds two nodes and no node straddles two: the
 * node's segment - its arcs in base, sorted by (weight, other end), which is the arcs'
 * order for a fixed own end, with the first one cached here - and, while the node is a
 * root, its component: a ring of segments (merging two components splices their rings
 * in O(1) by swapping two next links, with no allocation), its size and its lock (one
 * word). Since a segment is sorted, its lightest external arc is its first one once
 * the internal arcs at its front are dropped: a scan looks at one arc per segment, and
 * every arc is dropped at most once. */
struct mst_node {
	uint64_t start;         /* segment: first arc left in base */
	uint32_t n;             /* segment: arcs left */
	uint32_t fw, fo;        /* segment: its first arc's weight and other end */
	uint32_t next;          /* segment: next in its component's ring */
	uint32_t head;          /* component: a segment of its ring, NIL when none is left */
	_Atomic uint32_t lsize; /* component: nodes (the task priority), LOCKED its lock */
};
_Static_assert(sizeof(struct mst_node) == 32, "two nodes per cache line");

#define NIL           UINT32_MAX
#define LOCKED        0x80000000u
#define MST_MAX_NODES (LOCKED - 1)

/* A component past MST_GROW_MAX nodes also lists its ring's segments in an array, so
 * that a scan reads their ids in order and can prefetch their nodes and their fronts'
 * union-find entries a few segments ahead: walking the ring takes one dependent miss
 * per segment (the next link), and such scans were half of road2k's time. The ring is
 * still spliced at every merge (O(1)), so a component without an array (out of memory,
 * or the pool spent) scans its ring as before. Emptied segments leave the array at a
 * scan and stay in the ring until a ring scan unlinks them. */
struct mst_segs {
	uint32_t *id; /* its segments (emptied ones leave at the next scan) */
	uint32_t n, cap;
};

struct ordo_mst {
	const struct ordo_graph *g;
	_Atomic uint32_t *parent; /* union-find; a root is its own parent */
	struct mst_node *node;
	uint64_t *base;        /* every node's arcs as weight << 32 | other end */
	uint64_t *aoff;        /* n + 1: node u's arcs are base[aoff[u] .. aoff[u+1]) */
	struct mst_edge *pick; /* per merged-away root: the arc that merged it */
	uint32_t *cslot;       /* per root: its list in cand, NIL when it has none */
	struct mst_cand *cand; /* lists of big components */
	uint32_t capcand;
	_Atomic uint32_t ncand;
	uint32_t heap_at;      /* a component past this many nodes keeps a heap (struct mst_cand) */
	uint32_t *sslot;       /* per root: its array in segs, NIL when it has none */
	struct mst_segs *segs; /* segment arrays of components past MST_GROW_MAX nodes */
	uint32_t capsegs;
	_Atomic uint32_t nsegs;
	struct ordo_task *init;
	uint32_t sweep;          /* nodes per first task, which sets how many there are */
	uint32_t sweep_block;    /* nodes a first task claims at a time */
	struct mst_work *work;   /* per thread of the run, padded */
	struct mst_defer *defer; /* per thread of the run: its merges into giants, unjoined */
	bool deferring;          /* this run defers merges into giants (mst.c) */
	int nwork;
	/* checked builds (MST_CHECKED): a candidate list was found to break its
	 * invariant (a segment left out with a front below the floor); the run fails */
	_Atomic bool cand_broken;
};

/* The perturbation build (and -DORDO_MST_CHECK) checks every candidate list a full scan
 * of a segment array makes against the array (mst_cand.c): O(segments log MST_CAND) per
 * scan, too slow for the other builds, and what notices a list that lost part of a
 * floor, which the answer alone shows only on rare graphs. */
#if defined(ORDO_PERTURB) || defined(ORDO_MST_CHECK)
#define MST_CHECKED 1
#else
#define MST_CHECKED 0
#endif

/* Work (arcs examined, merges), counted by each task into a counter of its own that
 * it passes down (mst_lightest, `counted`) and added to its thread's slot in m->work
 * when it ends; the items of a shared scan count into the slot of the thread that ran
 * them. */
struct mst_work {
	alignas(64) uint64_t n;
	/* the thread's region of the first tasks' sweep: [next, end) is left to claim */
	_Atomic uint64_t next;
	uint64_t end;
};

/* A merge into a giant (a component past m->heap_at nodes) is deferred: the task links
 * its own root r under the giant g and records (g, r) in its thread's list, without
 * taking g's lock; whoever locks g next joins r's arcs to g's (mst.c, "deferred
 * merges"). `into` is the list's lock and says what holds it: MST_FREE, the giant its
 * owner is deferring into, or MST_JOINING while a holder of some giant's lock empties
 * it. */
struct mst_pend {
	uint32_t g, x; /* x was linked under giant g; its arcs are not yet g's */
};
struct mst_defer {
	alignas(64) _Atomic uint32_t into;
	uint32_t n, cap;
	struct mst_pend *p;
};
#define MST_FREE    UINT32_MAX
#define MST_JOINING (UINT32_MAX - 1)

static inline bool edge_less(const struct mst_edge *a, const struct mst_edge *b)
{
	if (a->w != b->w)
		return a->w < b->w;
	const uint32_t alo = a->self < a->other ? a->self : a->other;
	const uint32_t ahi = a->self ^ a->other ^ alo;
	const uint32_t blo = b->self < b->other ? b->self : b->other;
	const uint32_t bhi = b->self ^ b->other ^ blo;
	return alo != blo ? alo < blo : ahi < bhi;
}

/* Root of x with path halving: a non-root's parent may be replaced by any ancestor,
 * and only roots are ever linked (under their locks), so the stores are safe. */
static inline uint32_t uf_find(_Atomic uint32_t *p, uint32_t x)
{
	for (;;) {
		uint32_t px = atomic_load_explicit(&p[x], memory_order_relaxed);
		if (px == x)
			return x;
		uint32_t gx = atomic_load_explicit(&p[px], memory_order_relaxed);
		if (gx != px)
			atomic_store_explicit(&p[x], gx, memory_order_relaxed);
		x = gx;
	}
}

static inline bool is_root(const struct ordo_mst *m, uint64_t u)
{
	return atomic_load_explicit(&m->parent[u], memory_order_relaxed) == u;
}

static inline bool try_lock(_Atomic uint32_t *l)
{
	/* acquire: the arcs and links written under the lock by its last holder */
	if (atomic_load_explicit(l, memory_order_relaxed) & LOCKED)
		return false;
	ORDO_PERTURB_POINT(MST_LOCK);
	if (atomic_fetch_or_explicit(l, LOCKED, memory_order_acquire) & LOCKED)
		return false;
	ORDO_PERTURB_POINT(MST_LOCK); /* holding it: others find it taken */
	return true;
}

/* Takes lock l for a task: while it waits, it runs items of an open loop
 * (ordo_task_loop), which is how a giant component's scan is shared by the tasks
 * waiting for its lock. */
static inline void lock_helping(struct ordo_tctx *ctx, _Atomic uint32_t *l)
{
	for (unsigned round = 0; !try_lock(l); round++)
		if (!ordo_task_loop_help(ctx))
			ordo_backoff(round);
}

/* Only the holder changes the size, so it can store the word back whole. */
static inline void unlock(_Atomic uint32_t *l)
{
	atomic_store_explicit(l, atomic_load_explicit(l, memory_order_relaxed) & ~LOCKED,
	                      memory_order_release); /* publishes the arcs */
}

static inline uint32_t size_of(_Atomic uint32_t *l)
{
	return atomic_load_explicit(l, memory_order_relaxed) & ~LOCKED;
}

/* A task's priority is its component's size up to MST_STALE_MAX nodes and above that
 * the size rounded up to a power of two, so a big component that grows a node at a
 * time does not open a bucket per size in a bucketed scheduler (rmat20 under
 * obim:delta=0 made 561,000 of them). */
#define MST_STALE_MAX 1024
static inline uint64_t prio_of(uint32_t size)
{
	return size <= MST_STALE_MAX ? size : (uint64_t)1 << (64 - __builtin_clzll(size - 1));
}

/* A task pushed at priority `prio` for a component now of `size` nodes is left to the
 * newer task once the component is past MST_STALE_MAX nodes (see component_task). */
static inline bool stale(uint32_t size, uint64_t prio)
{
	return size > MST_STALE_MAX && prio_of(size) != prio;
}

/* A task goes on with the component it merged into while that has at most this many
 * nodes, instead of pushing a task for it (see component_task): growing a small component at
 * once, while its ring is in cache, instead of once per pass of the scheduler over the
 * sizes, took road2k at 2 threads from 0.83 s to about 0.6 s. */
#define MST_GROW_MAX ORDO_MST_GROW_MAX

/* ---- a big component's candidates ----
 * Scanning a big component's whole ring for every merge is what a relaxed scheduler
 * can make quadratic: a thread whose own queue holds little but the giant component's
 * task runs it again and again, each time absorbing one node (rmat20 under smq: up to
 * 25 s). So a component past MST_STALE_MAX nodes keeps, from its last full scan, its
 * MST_CAND lightest segment fronts in order and a floor: no other segment's front is
 * lighter. A front only gets heavier (internal arcs are dropped from it), so the
 * lightest candidate whose front is external and not above the floor is the lightest
 * arc leaving the component. A merge adds the absorbed segments' fronts (a walk of the
 * smaller ring); when no candidate qualifies, a full scan rebuilds the list. */
#define MST_CAND 256
/* A giant component (past m->heap_at nodes, ORDO_MST_HEAP_AT unless set) keeps every
 * non-empty segment as a candidate instead, in a binary min-heap by front: no floor, so
 * no rescans. On rmat20 at two threads the other thread's merges into the giant push
 * fronts out of its 256-long list and lower its floor, and each time the list runs into
 * the floor the giant is scanned again (1-77 scans per run against 1 at one thread); a
 * sorted list of 4096 for every component ended most rescans but cost 1.6x on road2k at
 * one thread (many mid-sized components each kept a list 16 times longer), and for the
 * giant alone still 30-60 ms a rescan in shifts of 16 KB. */
struct mst_cand {
	uint32_t n;            /* candidates: lightest front first, or a heap */
	uint32_t cap;          /* room in seg */
	bool valid;            /* made by a full scan (else: scan first) */
	bool floored;          /* false: every non-empty segment is a candidate */
	bool heap;             /* seg is a min-heap that grows (a giant's), not a sorted list */
	struct mst_edge floor; /* the lightest front left out */
	uint32_t *seg;         /* own, or a heap's array */
	uint32_t own[MST_CAND];
};

/* An empty list (no scan yet: not valid) with room for MST_CAND, freeing a heap. */
static inline void mst_cand_init(struct mst_cand *c)
{
	if (c->seg && c->seg != c->own)
		free(c->seg);
	c->n = 0, c->cap = MST_CAND, c->valid = c->floored = c->heap = false;
	c->seg = c->own;
}

static inline struct mst_segs *segs_of(struct ordo_mst *m, uint32_t r)
{
	return m->sslot[r] == NIL ? NULL : &m->segs[m->sslot[r]];
}

/* mst_cand.c: adds segment x's front to big component c's list (merges); */
void mst_cand_add(struct mst_cand *c, const struct mst_node *nd, uint32_t x);
/* joins small's segment array into big's (their rings are spliced by the caller) and
 * returns big's segment count; */
uint32_t mst_segs_join(struct ordo_mst *m, uint32_t big, uint32_t bsize, uint32_t small,
                       uint32_t ssize);
/* finds locked root r's lightest leaving arc into *best, dropping internal arcs on the
 * way (a big component's scan shares its segments with idle workers, ordo_task_loop):
 * its other end's root, or NIL when no arc leaves r. The arcs it examines are added to
 * *counted. */
uint32_t mst_lightest(struct ordo_tctx *ctx, struct ordo_mst *m, uint32_t r, uint32_t size,
                      struct mst_edge *best, uint64_t *counted);

#endif
