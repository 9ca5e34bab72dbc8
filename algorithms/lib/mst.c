/*
 * mst.c - minimum spanning forest (see ordo_mst.h).
 *
 * Parallel Boruvka (after the SMQ paper's artifact, apps/boruvka, which runs Galois'
 * morph graph with speculative locks): a component is a union-find tree; its root owns
 * the arcs leaving its nodes, (weight, own end, other end), as a ring of per-node
 * segments. A task for root r
 *   1. is empty work if r is no longer a root;
 *   2. locks r, scans its arcs, drops those that became internal (their other end finds
 *      r) and keeps the lightest arc by (weight, smaller end, larger end);
 *   3. with no arc left the component is final; otherwise it locks the other side's
 *      root s - waiting when s > r, trying once when s < r, so locks are only waited for
 *      in increasing order and no cycle of waits can form; when the try fails the task
 *      releases r, waits for s, retakes both in increasing order and, if its own
 *      component grew meanwhile, rescans (merged away meanwhile: empty work; unchanged:
 *      its lightest arc still stands, only s is looked up again);
 *   4. links the root of the smaller component under the other (union by size),
 *      splices the two segment rings (O(1), no allocation) and records the arc for the
 *      merged-away root; while the merged component has at most MST_GROW_MAX nodes the
 *      task goes on with it (step 2), else it pushes a task for the surviving root with
 *      priority = its size (rounded up to a power of two past MST_STALE_MAX nodes), so
 *      small components go first and a big one is rescanned rarely (an older task of a
 *      big component is then empty work, and a big s that absorbed r keeps its queued
 *      task while the class stands; see component_task).
 * The first tasks are not one per node but ranges of nodes (sweep_task), each doing the
 * above for every node of its range that is still a component of one node.
 * A component past MST_GROW_MAX nodes also lists its segments in an array (struct
 * mst_segs), so that a scan reads them in order and prefetches ahead instead of chasing
 * the ring's links, and one past MST_STALE_MAX nodes keeps a list of its lightest
 * segment fronts (struct mst_cand), so that finding its lightest arc again after a
 * merge does not cost a scan of all its segments.
 * While r is locked no merge can add nodes to r, so "internal" is exact during the scan
 * and the lightest arc found really is the lightest leaving r: by the cut property it
 * belongs to the minimum spanning forest under the strict order above.
 * Kruskal is the baseline; the work ratio's denominator is this operator's work (arcs
 * examined + merges, struct ordo_forest) under `strict` on one thread (said by the app).
 */
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "ordo_mst.h"
#include "ordo_util.h"

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
	uint32_t *sslot;       /* per root: its array in segs, NIL when it has none */
	struct mst_segs *segs; /* segment arrays of components past MST_GROW_MAX nodes */
	uint32_t capsegs;
	_Atomic uint32_t nsegs;
	struct ordo_task *init;
	uint32_t sweep;        /* nodes per first task */
	struct mst_work *work; /* per thread of the run, padded */
	int nwork;
};

/* Work counted as it happens on this thread (arcs examined, merges), added to the
 * thread's slot in m->work after each task: a thread-local counter costs an increment
 * where it is counted, with no pointer to pass down. */
struct mst_work {
	alignas(64) uint64_t n;
};
static _Thread_local uint64_t mst_counted;

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

static inline void lock(_Atomic uint32_t *l)
{
	for (unsigned round = 0; !try_lock(l); round++)
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
struct mst_cand {
	uint32_t n;            /* candidates, lightest front first */
	bool valid;            /* made by a full scan (else: scan first) */
	bool floored;          /* false: every non-empty segment is a candidate */
	struct mst_edge floor; /* the lightest front left out */
	uint32_t seg[MST_CAND];
};

static inline struct mst_edge front(const struct mst_node *nd, uint32_t x)
{
	return (struct mst_edge){nd[x].fw, x, nd[x].fo};
}

static inline void lower_floor(struct mst_cand *c, const struct mst_edge *k)
{
	if (!c->floored || edge_less(k, &c->floor))
		c->floor = *k, c->floored = true;
}

/* Adds non-empty segment x (not listed) by its front; a front left out, x's or the
 * heaviest's, lowers the floor. */
static void cand_add(struct mst_cand *c, const struct mst_node *nd, uint32_t x)
{
	const struct mst_edge k = front(nd, x);
	if (c->n == MST_CAND) {
		const struct mst_edge last = front(nd, c->seg[MST_CAND - 1]);
		if (!edge_less(&k, &last)) {
			lower_floor(c, &k);
			return;
		}
		lower_floor(c, &last); /* the heaviest makes room */
		c->n--;
	}
	uint32_t i = c->n++;
	for (; i; i--) {
		const struct mst_edge prev = front(nd, c->seg[i - 1]);
		if (!edge_less(&k, &prev))
			break;
		c->seg[i] = c->seg[i - 1];
	}
	c->seg[i] = x;
}

/* Drops the internal arcs from the front of segment x of component r; false when the
 * segment is (or is left) empty, else its front is external, with that end's root in
 * *ro. */
static inline bool drop_internal(struct ordo_mst *m, uint32_t x, uint32_t r, uint32_t *ro)
{
	struct mst_node *sg = &m->node[x];
	if (!sg->n)
		return false;
	while (mst_counted++, (*ro = uf_find(m->parent, sg->fo)) == r) {
		if (!--sg->n)
			return false;
		const uint64_t a = m->base[++sg->start];
		sg->fw = (uint32_t)(a >> 32), sg->fo = (uint32_t)a;
	}
	return true;
}

/* The lightest arc leaving r from its list: its other end's root, or NIL when the list
 * cannot tell (a full scan is due). */
static uint32_t cand_lightest(struct ordo_mst *m, uint32_t r, struct mst_cand *c,
                              struct mst_edge *best)
{
	const struct mst_node *nd = m->node;
	if (!c->valid)
		return NIL;
	while (c->n) {
		const uint32_t x = c->seg[0], n0 = nd[x].n;
		const struct mst_edge k0 = front(nd, x);
		uint32_t ro;
		const bool left = drop_internal(m, x, r, &ro);
		if (left && nd[x].n == n0) { /* the lightest front, and external */
			if (c->floored && edge_less(&c->floor, &k0))
				return NIL; /* some segment left out may be lighter */
			*best = k0;
			return ro;
		}
		/* x's front moved on (or x is empty): re-sort it */
		memmove(c->seg, c->seg + 1, --c->n * sizeof *c->seg);
		if (left)
			cand_add(c, nd, x);
	}
	return NIL;
}

/* Once around r's ring from the segment after head, head last, dropping internal arcs
 * from every front: the lightest arc leaving r (its other end's root), NIL when none
 * leaves. Emptied segments are unlinked (p trails x). With c, the list is rebuilt. */
static uint32_t ring_scan(struct ordo_mst *m, uint32_t r, struct mst_cand *c, struct mst_edge *best)
{
	struct mst_node *nd = m->node;
	uint32_t s = NIL, h = nd[r].head;
	if (c)
		*c = (struct mst_cand){.valid = true};
	if (h == NIL)
		return NIL;
	for (uint32_t p = h, x = nd[h].next;;) {
		const bool last = x == h;
		const uint32_t next = nd[x].next;
		uint32_t ro;
		if (!drop_internal(m, x, r, &ro)) { /* unlink the emptied segment */
			if (x == p) {               /* it was the last one */
				h = NIL;
				break;
			}
			nd[p].next = next;
			if (x == h)
				h = p;
		} else {
			const struct mst_edge k = front(nd, x);
			if (s == NIL || edge_less(&k, best)) {
				*best = k, s = ro;
				__builtin_prefetch(&nd[ro].lsize, 1); /* its lock, if it wins */
			}
			if (c)
				cand_add(c, nd, x);
			p = x;
		}
		if (last)
			break;
		x = next;
	}
	nd[r].head = h;
	return s;
}

/* How many segments ahead a scan of an array prefetches a front's union-find entry
 * and the arc after it (their nodes: twice as far). */
#define MST_SEGS_AHEAD 4

/* ring_scan over r's array: emptied segments leave it; with c, the list is rebuilt. */
static uint32_t segs_scan(struct ordo_mst *m, uint32_t r, struct mst_segs *L, struct mst_cand *c,
                          struct mst_edge *best)
{
	struct mst_node *nd = m->node;
	uint32_t *id = L->id, s = NIL, k = 0;
	const uint32_t n = L->n;
	if (c)
		*c = (struct mst_cand){.valid = true};
	for (uint32_t i = 0; i < n; i++) {
		if (i + 2 * MST_SEGS_AHEAD < n)
			ordo_prefetch(&nd[id[i + 2 * MST_SEGS_AHEAD]]);
		if (i + MST_SEGS_AHEAD < n) { /* its front's other end, and the arc after it */
			const struct mst_node *y = &nd[id[i + MST_SEGS_AHEAD]];
			ordo_prefetch(&m->parent[y->fo]);
			ordo_prefetch(&m->base[y->start + 1]);
		}
		const uint32_t x = id[i];
		uint32_t ro;
		if (!drop_internal(m, x, r, &ro))
			continue;
		id[k++] = x;
		const struct mst_edge e = front(nd, x);
		if (s == NIL || edge_less(&e, best)) {
			*best = e, s = ro;
			__builtin_prefetch(&nd[ro].lsize, 1); /* its lock, if it wins */
		}
		if (c)
			cand_add(c, nd, x);
	}
	L->n = k;
	return s;
}

static inline struct mst_segs *segs_of(struct ordo_mst *m, uint32_t r)
{
	return m->sslot[r] == NIL ? NULL : &m->segs[m->sslot[r]];
}

/* Room for `more` ids in L; false when out of memory. */
static bool segs_reserve(struct mst_segs *L, uint32_t more)
{
	if (L->cap - L->n >= more)
		return true;
	uint64_t cap = (uint64_t)L->cap * 2;
	cap = cap < (uint64_t)L->n + more ? (uint64_t)L->n + more : cap;
	cap = cap < 64 ? 64 : cap;
	uint32_t *id = realloc(L->id, cap * sizeof *id);
	if (!id)
		return false;
	L->id = id, L->cap = (uint32_t)cap;
	return true;
}

static void segs_drop(struct ordo_mst *m, uint32_t r)
{
	struct mst_segs *L = segs_of(m, r);
	if (L) {
		free(L->id);
		*L = (struct mst_segs){0};
		m->sslot[r] = NIL;
	}
}

/* Appends ring x's non-empty segments (the ring from x once around); false when out
 * of memory. */
static bool segs_add_ring(const struct mst_node *nd, struct mst_segs *L, uint32_t x)
{
	if (x == NIL)
		return true;
	const uint32_t h = x;
	do {
		if (nd[x].n) {
			if (!segs_reserve(L, 1))
				return false;
			L->id[L->n++] = x;
		}
		x = nd[x].next;
	} while (x != h);
	return true;
}

/* Before big (locked, with small) absorbs small and their rings are spliced: small's
 * segments join big's array, which a component first crossing MST_GROW_MAX nodes
 * (size, merged) gets here, listing its own ring too. Out of memory or a spent pool:
 * big goes on with its ring alone. Returns where small's segments start in big's array,
 * NIL when big has none. */
static uint32_t segs_join(struct ordo_mst *m, uint32_t big, uint32_t bsize, uint32_t small,
                          uint32_t ssize)
{
	struct mst_segs *B = bsize > MST_GROW_MAX ? segs_of(m, big) : NULL;
	struct mst_segs *S = ssize > MST_GROW_MAX ? segs_of(m, small) : NULL;
	const uint32_t size = bsize + ssize;
	uint32_t at = NIL;
	bool ok = true;
	if (!B && size > MST_GROW_MAX) {
		const uint32_t i = atomic_fetch_add_explicit(&m->nsegs, 1, memory_order_relaxed);
		if (i < m->capsegs) {
			m->sslot[big] = i;
			B = &m->segs[i];
			*B = (struct mst_segs){0};
			ok = segs_add_ring(m->node, B, m->node[big].head);
		}
	}
	if (B && ok) {
		at = B->n;
		if (S) {
			ok = segs_reserve(B, S->n);
			if (ok) {
				memcpy(B->id + B->n, S->id, S->n * sizeof *S->id);
				B->n += S->n;
			}
		} else {
			ok = segs_add_ring(m->node, B, m->node[small].head);
		}
	}
	if (!ok)
		segs_drop(m, big), at = NIL;
	if (S)
		segs_drop(m, small);
	return at;
}

/* The list of big component r (locked), made on first use; NULL when the pool is
 * spent (it cannot be: see ordo_mst_create) or r is small. */
static struct mst_cand *cand_of(struct ordo_mst *m, uint32_t r, uint32_t size)
{
	if (size <= MST_STALE_MAX)
		return NULL;
	if (m->cslot[r] == NIL) {
		const uint32_t i = atomic_fetch_add_explicit(&m->ncand, 1, memory_order_relaxed);
		if (i >= m->capcand)
			return NULL;
		m->cslot[r] = i;
		m->cand[i] = (struct mst_cand){0}; /* no list yet: the first look scans */
	}
	return &m->cand[m->cslot[r]];
}

static uint32_t lightest(struct ordo_mst *m, uint32_t r, uint32_t size, struct mst_edge *best)
{
	struct mst_cand *c = cand_of(m, r, size);
	uint32_t s = c ? cand_lightest(m, r, c, best) : NIL;
	if (s != NIL)
		return s;
	struct mst_segs *L = size > MST_GROW_MAX ? segs_of(m, r) : NULL;
	return L ? segs_scan(m, r, L, c, best) : ring_scan(m, r, c, best);
}

static bool component_task(struct ordo_tctx *ctx, struct ordo_mst *m, uint32_t r, uint64_t prio)
{
	_Atomic uint32_t *parent = m->parent;
	struct mst_node *nd = m->node;
	/* A task's priority is its root's size class when it was pushed, and a merge that
	 * changes r's class pushes a task with the new one, so a task whose class is out
	 * of date has a newer one queued that will do its work. Running it anyway is good
	 * for a small component (it runs soon after the merge, while the component is in
	 * cache: road2k was up to 1.3x slower leaving it), not for a big one. */
	if (!is_root(m, r) || stale(size_of(&nd[r].lsize), prio))
		return false; /* merged away, or grown big since */
	lock(&nd[r].lsize);
	uint32_t size0 = size_of(&nd[r].lsize);
	if (!is_root(m, r) || stale(size0, prio)) {
		unlock(&nd[r].lsize);
		return false;
	}
	struct mst_node *C = &nd[r];
	struct mst_edge best;
	uint32_t s;
scan:
	if ((s = lightest(m, r, size0, &best)) == NIL) { /* no arc leaves: final */
		unlock(&C->lsize);
		return true;
	}
	for (;;) {
		for (;;) { /* lock s: wait when it is above r, else try once */
			if (s > r)
				lock(&nd[s].lsize);
			else if (!try_lock(&nd[s].lsize))
				break;
			if (is_root(m, s))
				goto merge;
			unlock(&nd[s].lsize); /* s was merged meanwhile: find its new root */
			s = uf_find(parent, best.other);
		}
		/* s (below r) is busy: let go of r, wait for s's holder, take both in
		 * increasing order */
		unlock(&C->lsize);
		lock(&nd[s].lsize);
		lock(&C->lsize);
		unlock(&nd[s].lsize);
		if (!is_root(m, r)) {
			unlock(&C->lsize);
			return false; /* merged away while we waited */
		}
		const uint32_t now = size_of(&C->lsize);
		if (now != size0) { /* something joined r: its arcs changed */
			if (stale(now, prio)) {
				unlock(&C->lsize);
				return false; /* big now: its newer task takes over */
			}
			size0 = now;
			goto scan;
		}
		/* nothing joined r meanwhile, so its arcs are as scanned and best is still
		 * the lightest leaving it; only the other side's root may have moved */
		s = uf_find(parent, best.other);
	}
merge:;
	/* union by size keeps the union-find trees shallow */
	const uint32_t rsize = size_of(&C->lsize), ssize = size_of(&nd[s].lsize);
	const bool keep_r = rsize >= ssize;
	const uint32_t big = keep_r ? r : s, small = keep_r ? s : r;
	struct mst_node *B = &nd[big], *S = &nd[small];
	const uint32_t bsize = keep_r ? rsize : ssize, smsize = keep_r ? ssize : rsize;
	const uint32_t size = rsize + ssize; /* below 2^31: node ids are 32-bit */
	/* only a component past MST_STALE_MAX nodes has candidates, past MST_GROW_MAX an
	 * array: a merge of small ones reads neither slot */
	const uint32_t cs = bsize > MST_STALE_MAX ? m->cslot[big] : NIL;
	const uint32_t at = size > MST_GROW_MAX ? segs_join(m, big, bsize, small, smsize) : NIL;
	if (cs != NIL && m->cand[cs].valid) { /* S's fronts join B's candidates */
		if (at != NIL) {              /* from where S's segments now stand in B's array */
			const struct mst_segs *BL = segs_of(m, big);
			for (uint32_t i = at; i < BL->n; i++)
				if (nd[BL->id[i]].n)
					cand_add(&m->cand[cs], nd, BL->id[i]);
		} else if (S->head != NIL) {
			uint32_t x = S->head;
			do {
				if (nd[x].n)
					cand_add(&m->cand[cs], nd, x);
				x = nd[x].next;
			} while (x != S->head);
		}
	}
	if (B->head == NIL) {
		B->head = S->head;
	} else if (S->head != NIL) { /* splice the rings */
		const uint32_t t = nd[B->head].next;
		nd[B->head].next = nd[S->head].next;
		nd[S->head].next = t;
	}
	S->head = NIL;
	mst_counted++; /* a merge */
	atomic_store_explicit(&B->lsize, size | LOCKED, memory_order_relaxed);
	m->pick[small] = best;
	atomic_store_explicit(&parent[small], big, memory_order_relaxed); /* under both locks */
	if (size <= MST_GROW_MAX) {
		/* still small: go on with the merged component while its data is in cache */
		unlock(&S->lsize);
		r = big, C = B, size0 = size, prio = size;
		goto scan;
	}
	unlock(&nd[s].lsize);
	unlock(&C->lsize);
	/* r's task ends here, so a surviving r needs a new one. An s past MST_GROW_MAX nodes
	 * that absorbed r has a pending task (every such component that is not final has
	 * one, queued or waiting for s's lock), which stays valid while s's priority class
	 * stands - any priority up to MST_STALE_MAX nodes: it then runs at the priority s
	 * had, a little early. A task for every such merge made road2k's mid-sized
	 * components run 10 times each, mostly as empty work (690,000 tasks against
	 * 73,000; 0.86-0.91x the time at 2 threads). An s of at most MST_GROW_MAX nodes
	 * may be a node whose range has not reached it, so it gets a task. */
	if (big == r || ssize <= MST_GROW_MAX ||
	    (size > MST_STALE_MAX && prio_of(size) != prio_of(ssize)))
		ordo_push(ctx, prio_of(size), big);
	return true;
}

/* The stages of a root u's lightest arc, for the pipeline's hook and along a range:
 * at 2 the arc, at 1 its other end's union-find entry and lock (if that end is a root
 * and will be merged with, its node is what the merge locks). */
static void first_arc_stage(const struct ordo_mst *m, uint64_t u, unsigned ahead)
{
	if (!is_root(m, u) || m->aoff[u + 1] == m->aoff[u])
		return;
	const uint64_t *first = m->base + m->aoff[u];
	if (ahead == 2) {
		ordo_prefetch(first);
	} else {
		ordo_prefetch(&m->parent[(uint32_t)*first]);
		__builtin_prefetch(&m->node[(uint32_t)*first].lsize, 1);
	}
}

/* ---- the first tasks: sweeps ----
 * Every node starts as a component of one node, at priority 1. One task per node would
 * be 4.2 million tasks on road2k, and 86% of them would find their node merged away by
 * a neighbour's growth when popped: scheduler work for nothing. So a first task covers
 * a range of m->sweep consecutive nodes and starts a task's work (component_task) for
 * each node of it that is still a component of one node; a node merged into another
 * component is skipped, and one that absorbed others already has a task of its own.
 * Walking a range in order also reads the nodes, their arcs and union-find entries as
 * streams, and the task prefetches like the pipeline's stages along the range: the
 * first arc of a node 8 ahead, and that arc's other end for a node 4 ahead (only data
 * no task writes: base, aoff, the atomic union-find entries). On road2k at 2 threads
 * this took 0.80x (smq:pq=bucket) and 0.64x (obim:delta=0) the time (bench/LOG.md,
 * "MST: first tasks over ranges of nodes"). The range size
 * depends on n only, so that a run and the one-thread `strict` run that gives the work
 * ratio's denominator make the same first tasks. */
#define MST_SWEEP (UINT64_C(1) << 63) /* task data: a range's first node */

uint32_t ordo_mst_sweep_nodes(uint64_t n)
{
	const uint64_t b = n / ORDO_MST_SWEEP_SHARE;
	return b < ORDO_MST_SWEEP_MIN   ? ORDO_MST_SWEEP_MIN
	       : b > ORDO_MST_SWEEP_MAX ? ORDO_MST_SWEEP_MAX
	                                : (uint32_t)b;
}

static bool sweep_task(struct ordo_tctx *ctx, struct ordo_mst *m, uint64_t first)
{
	const uint64_t n = m->g->n, end = n - first > m->sweep ? first + m->sweep : n;
	const uint64_t *aoff = m->aoff;
	bool did = false;
	for (uint64_t u = first; u < end; u++) {
		if (u + 8 < end) /* no root test: with it, road2k measured 1.02-1.05x */
			ordo_prefetch(&m->base[aoff[u + 8]]);
		if (u + 4 < end)
			first_arc_stage(m, u + 4, 1);
		if (aoff[u + 1] > aoff[u] && is_root(m, u) && size_of(&m->node[u].lsize) == 1)
			did |= component_task(ctx, m, (uint32_t)u, 1);
	}
	return did;
}

static bool mst_op(struct ordo_tctx *ctx, const struct ordo_task *t, void *user)
{
	struct ordo_mst *m = user;
	const uint64_t before = mst_counted;
	const bool did = t->data & MST_SWEEP ? sweep_task(ctx, m, t->data & ~MST_SWEEP)
	                                     : component_task(ctx, m, (uint32_t)t->data, t->prio);
	m->work[ctx->tid].n += mst_counted - before;
	return did;
}

/* Pipeline stages: the root's union-find entry and node; its own lightest arc; that
 * arc's other end. Only data that no task writes is read here (base is written before
 * the run, the union-find entry is atomic), so the hook needs no lock; for a component
 * that is still one node, which is most tasks, that is all the data it reads. */
static void mst_prefetch(const struct ordo_task *t, unsigned ahead, void *user)
{
	const struct ordo_mst *m = user;
	if (t->data & MST_SWEEP) { /* the range's first node */
		const uint64_t u = t->data & ~MST_SWEEP;
		if (ahead >= 2) {
			ordo_prefetch(&m->parent[u]);
			ordo_prefetch(&m->node[u]);
		} else {
			ordo_prefetch(&m->base[m->aoff[u]]);
		}
		return;
	}
	const uint32_t r = (uint32_t)t->data;
	if (ahead >= 3) {
		ordo_prefetch(&m->parent[r]);
		ordo_prefetch(&m->node[r]);
		return;
	}
	first_arc_stage(m, r, ahead);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

int ordo_mst_create(const struct ordo_graph *g, struct ordo_mst **out, struct ordo_err *err)
{
	*out = NULL;
	if (!(g->flags & ORDO_GRAPH_SYMMETRIC))
		return ordo_err_set(err, ORDO_EINVAL,
		                    "mst needs a symmetric graph (see ordo_graph_symmetrized)");
	/* a component's size shares its word with the lock (bit 31), and segment arrays
	 * count in 32 bits */
	if (g->n > MST_MAX_NODES)
		return ordo_err_set(err, ORDO_ERANGE,
		                    "mst holds at most %u nodes (a component's size shares a "
		                    "32-bit word with its lock); the graph has %u",
		                    MST_MAX_NODES, g->n);
	struct ordo_mst *m = calloc(1, sizeof *m);
	if (!m)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	m->g = g;
	const size_t n = g->n;
	m->parent = ordo_alloc_huge(n * sizeof *m->parent + 8);
	m->node = ordo_alloc_huge(n * sizeof *m->node + 8);
	m->base = ordo_alloc_huge((g->m ? g->m : 1) * sizeof *m->base);
	m->pick = ordo_alloc_huge(n * sizeof *m->pick + 8);
	m->init = ordo_alloc_huge(n * sizeof *m->init + 8);
	m->cslot = ordo_alloc_huge(n * sizeof *m->cslot + 8);
	/* a root gets a list when its component first runs past MST_STALE_MAX nodes; the
	 * components that cross it are disjoint when they do, so there are at most this
	 * many */
	m->capcand = (uint32_t)(n / (MST_STALE_MAX + 1) + 1);
	m->cand = calloc(m->capcand, sizeof *m->cand);
	/* likewise a root gets an array when its component first runs past MST_GROW_MAX
	 * nodes */
	m->sslot = ordo_alloc_huge(n * sizeof *m->sslot + 8);
	m->capsegs = (uint32_t)(n / (MST_GROW_MAX + 1) + 1);
	m->segs = calloc(m->capsegs, sizeof *m->segs);
	m->aoff = ordo_alloc_huge((n + 1) * sizeof *m->aoff);
	if (!m->parent || !m->node || !m->base || !m->pick || !m->init || !m->aoff || !m->cslot ||
	    !m->cand || !m->sslot || !m->segs) {
		ordo_mst_free(m);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory for the MST work space");
	}
	m->sweep = ordo_mst_sweep_nodes(n);
	m->aoff[0] = 0;
	for (size_t u = 0; u < n; u++)
		m->aoff[u + 1] = m->aoff[u] + ordo_graph_degree(g, (uint32_t)u);
	*out = m;
	return 0;
}

/* The arrays of the last run's components. */
static void segs_free_all(struct ordo_mst *m)
{
	const uint32_t k = atomic_load_explicit(&m->nsegs, memory_order_relaxed);
	for (uint32_t i = 0; i < k && i < m->capsegs; i++) {
		free(m->segs[i].id);
		m->segs[i] = (struct mst_segs){0};
	}
	atomic_store_explicit(&m->nsegs, 0, memory_order_relaxed);
}

void ordo_mst_free(struct ordo_mst *m)
{
	if (!m)
		return;
	free(m->parent);
	free(m->node);
	free(m->base);
	free(m->pick);
	free(m->init);
	free(m->cslot);
	free(m->cand);
	if (m->segs)
		segs_free_all(m);
	free(m->sslot);
	free(m->segs);
	free(m->aoff);
	free(m->work);
	free(m);
}

int ordo_mst_run(struct ordo_mst *m, struct ordo_worklist *wl, const struct ordo_exec_opts *o,
                 struct ordo_forest *f, struct ordo_run_stats *st, struct ordo_err *err)
{
	const struct ordo_graph *g = m->g;
	segs_free_all(m);
	/* fresh state: every node its own component with its arcs (not timed) */
#pragma omp parallel for num_threads(o->topo->nthreads) schedule(dynamic, 4096)
	for (uint64_t u = 0; u < g->n; u++) {
		const uint64_t b = m->aoff[u], e = m->aoff[u + 1];
		uint64_t *arc = m->base + b, k = b;
		uint32_t v, w;
		for (struct ordo_arcs a = ordo_graph_arcs(g, (uint32_t)u);
		     ordo_arcs_next(&a, &v, &w);)
			m->base[k++] = (uint64_t)w << 32 | v;
		if (e - b > 32) {
			qsort(arc, e - b, sizeof *arc, cmp_u64);
		} else {
			for (uint64_t i = 1; i < e - b; i++) /* insertion sort */
				for (uint64_t j = i; j && arc[j] < arc[j - 1]; j--) {
					uint64_t tmp = arc[j];
					arc[j] = arc[j - 1], arc[j - 1] = tmp;
				}
		}
		m->node[u] = (struct mst_node){.start = b,
		                               .n = (uint32_t)(e - b),
		                               .fw = e > b ? (uint32_t)(arc[0] >> 32) : 0,
		                               .fo = e > b ? (uint32_t)arc[0] : 0,
		                               .next = (uint32_t)u, /* a ring of one */
		                               .head = e > b ? (uint32_t)u : NIL,
		                               .lsize = 1};
		atomic_store_explicit(&m->parent[u], (uint32_t)u, memory_order_relaxed);
		m->cslot[u] = NIL;
		m->sslot[u] = NIL;
	}
	atomic_store_explicit(&m->ncand, 0, memory_order_relaxed);
	uint64_t ninit = 0;
	for (uint64_t u = 0; u < g->n; u += m->sweep)
		m->init[ninit++] = (struct ordo_task){1, u | MST_SWEEP}; /* components of 1 node */
	struct ordo_exec_opts eo = *o;
	eo.prefetch = mst_prefetch;
	if (!eo.lookahead)
		eo.lookahead = ORDO_MST_LOOKAHEAD;
	const int T = o->topo->nthreads;
	if (T > m->nwork) {
		free(m->work);
		m->nwork = 0;
		if (!(m->work = aligned_alloc(64, (size_t)T * sizeof *m->work)))
			return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
		m->nwork = T;
	}
	memset(m->work, 0, (size_t)T * sizeof *m->work);
	int rc = ordo_for_each(&eo, wl->ops, wl->wl, m->init, ninit, mst_op, m, st, err);
	*f = (struct ordo_forest){0};
	uint64_t per[T];
	for (int t = 0; t < T; t++)
		f->work += per[t] = m->work[t].n;
	ordo_spread(per, (size_t)T, &f->work_min, &f->work_median, &f->work_max);
	for (uint64_t v = 0; v < g->n; v++)
		if (!is_root(m, v)) {
			f->weight += m->pick[v].w;
			f->edges++;
		}
	f->components = g->n - f->edges;
	return rc;
}

/* ---- sequential: Kruskal, and the check ---- */

static uint32_t seq_find(uint32_t *p, uint32_t x)
{
	while (p[x] != x) {
		p[x] = p[p[x]];
		x = p[x];
	}
	return x;
}

/* Unites the sets of a and b by size; false when they were one set already. */
static bool seq_union(uint32_t *p, uint32_t *size, uint32_t a, uint32_t b)
{
	a = seq_find(p, a), b = seq_find(p, b);
	if (a == b)
		return false;
	if (size[a] < size[b]) {
		uint32_t t = a;
		a = b, b = t;
	}
	p[b] = a;
	size[a] += size[b];
	return true;
}

int ordo_kruskal(const struct ordo_graph *g, struct ordo_forest *f, struct ordo_err *err)
{
	uint64_t k = 0;
	uint32_t v, w;
	for (uint32_t u = 0; u < g->n; u++)
		for (struct ordo_arcs it = ordo_graph_arcs(g, u); ordo_arcs_next(&it, &v, &w);)
			k += u < v;
	struct mst_edge *a = malloc((k ? k : 1) * sizeof *a), *b = malloc((k ? k : 1) * sizeof *b);
	uint32_t *p = malloc((size_t)g->n * sizeof *p), *size = malloc((size_t)g->n * sizeof *size);
	uint64_t *cnt = calloc(65536, sizeof *cnt);
	if (!a || !b || !p || !size || !cnt) {
		free(a), free(b), free(p), free(size), free(cnt);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory for Kruskal");
	}
	k = 0;
	for (uint32_t u = 0; u < g->n; u++)
		for (struct ordo_arcs it = ordo_graph_arcs(g, u); ordo_arcs_next(&it, &v, &w);)
			if (u < v)
				a[k++] = (struct mst_edge){w, u, v};
	/* stable LSD radix sort by weight, two 16-bit digits (ties need no order: every
	 * minimum spanning forest has the same weight and edge count) */
	for (int pass = 0; pass < 2; pass++) {
		const int sh = 16 * pass;
		memset(cnt, 0, 65536 * sizeof *cnt);
		for (uint64_t i = 0; i < k; i++)
			cnt[(a[i].w >> sh) & 0xFFFF]++;
		uint64_t sum = 0;
		for (int d = 0; d < 65536; d++) {
			uint64_t c = cnt[d];
			cnt[d] = sum;
			sum += c;
		}
		for (uint64_t i = 0; i < k; i++)
			b[cnt[(a[i].w >> sh) & 0xFFFF]++] = a[i];
		struct mst_edge *t = a;
		a = b, b = t;
	}
	for (uint32_t v = 0; v < g->n; v++)
		p[v] = v, size[v] = 1;
	*f = (struct ordo_forest){0};
	for (uint64_t i = 0; i < k && f->edges + 1 < g->n; i++)
		if (seq_union(p, size, a[i].self, a[i].other)) {
			f->weight += a[i].w;
			f->edges++;
		}
	f->components = g->n - f->edges;
	free(a), free(b), free(p), free(size), free(cnt);
	return 0;
}

void ordo_mst_forest_arcs(const struct ordo_mst *m, uint32_t *u, uint32_t *v, uint32_t *w)
{
	uint64_t k = 0;
	for (uint32_t x = 0; x < m->g->n; x++)
		if (!is_root(m, x)) {
			u[k] = m->pick[x].self, v[k] = m->pick[x].other, w[k] = m->pick[x].w;
			k++;
		}
}

void ordo_mst_check(const struct ordo_mst *m, const struct ordo_forest *ref, struct ordo_check *c)
{
	const struct ordo_graph *g = m->g;
	ordo_check_init(c);
	uint32_t *p = malloc((size_t)g->n * sizeof *p), *size = malloc((size_t)g->n * sizeof *size);
	if (!p || !size) {
		free(p), free(size);
		ordo_check_mismatch(c, "out of memory for the check");
		return;
	}
	for (uint32_t v = 0; v < g->n; v++)
		p[v] = v, size[v] = 1;
	struct ordo_forest f = {0};
	for (uint32_t v = 0; v < g->n; v++) {
		if (is_root(m, v))
			continue;
		const struct mst_edge *e = &m->pick[v];
		if (!seq_union(p, size, e->self, e->other))
			ordo_check_mismatch(c, "forest arc %u-%u (weight %u) closes a cycle",
			                    ordo_graph_orig_of(g, e->self),
			                    ordo_graph_orig_of(g, e->other), e->w);
		f.weight += e->w;
		f.edges++;
	}
	f.components = g->n - f.edges;
	if (f.weight != ref->weight)
		ordo_check_mismatch(c, "forest weight %llu, Kruskal's %llu",
		                    (unsigned long long)f.weight, (unsigned long long)ref->weight);
	if (f.edges != ref->edges)
		ordo_check_mismatch(c, "%llu forest edges, Kruskal's %llu",
		                    (unsigned long long)f.edges, (unsigned long long)ref->edges);
	ordo_check_figure(c, "forest_weight", f.weight);
	ordo_check_figure(c, "forest_edges", f.edges);
	ordo_check_figure(c, "components", f.components);
	free(p), free(size);
}
