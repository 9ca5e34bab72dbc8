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
 * above for every node of its range that is still a component of one node; a first
 * task claims ranges, from its thread's region first, until none is left. A merge into a giant
 * component is deferred (see "deferred merges"): the giant's next lock holder joins it.
 * A component past MST_GROW_MAX nodes also lists its segments in an array (struct
 * mst_segs), so that a scan reads them in order and prefetches ahead instead of chasing
 * the ring's links, and one past MST_STALE_MAX nodes keeps a list of its lightest
 * segment fronts (struct mst_cand), so that finding its lightest arc again after a
 * merge does not cost a scan of all its segments. A scan of a big array is shared: its
 * segments are split into items of a loop (ordo_task_loop) that idle workers and tasks
 * waiting for a lock run too, so the giant component's scan on R-MAT (nearly every
 * arc of the graph dropped as internal, in one task) is no longer one thread's.
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

#include "mst_internal.h"

/* The merge's lists: the small root's arcs become the big one's (big and small both
 * locked, the new size bsize + smsize): its segments join the big one's array (past
 * MST_GROW_MAX nodes), its segment fronts the big one's candidates (past MST_STALE_MAX),
 * and its ring of segments is spliced into the big one's. */
static inline void join_arcs(struct ordo_mst *m, uint32_t big, uint32_t bsize, uint32_t small,
                             uint32_t smsize)
{
	struct mst_node *nd = m->node, *B = &nd[big], *S = &nd[small];
	const uint32_t size = bsize + smsize;
	/* only a component past MST_STALE_MAX nodes has candidates, past MST_GROW_MAX an
	 * array: a merge of small ones reads neither slot */
	const uint32_t cs = bsize > MST_STALE_MAX ? m->cslot[big] : NIL;
	const uint32_t at = size > MST_GROW_MAX ? mst_segs_join(m, big, bsize, small, smsize) : NIL;
	if (cs != NIL && m->cand[cs].valid) { /* S's fronts join B's candidates */
		if (at != NIL) {              /* from where S's segments now stand in B's array */
			const struct mst_segs *BL = segs_of(m, big);
			for (uint32_t i = at; i < BL->n; i++)
				if (nd[BL->id[i]].n)
					mst_cand_add(&m->cand[cs], nd, BL->id[i]);
		} else if (S->head != NIL) {
			uint32_t x = S->head;
			do {
				if (nd[x].n)
					mst_cand_add(&m->cand[cs], nd, x);
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
}

/* ---- deferred merges into a giant ----
 * On R-MAT nearly every node's lightest arc leads into the giant component, and every
 * such merge took the giant's lock and wrote its size, ring, segment array and heap:
 * at two threads those few cache lines went back and forth between the cores for each
 * of some 600,000 merges, and the first tasks' sweep took 1.6x its one-thread time. So
 * a task whose lightest arc leads into a giant g (past m->heap_at nodes, and no smaller
 * than its own component) defers the merge: holding its own root r's lock it records the arc,
 * links r under g and appends (g, r) to its thread's list, touching only its own lines
 * and reading g's lock word. Whoever takes g's lock next (g's own task before its scan,
 * or a merge of g) first joins every list's entries for g (settle): r's arcs, size and
 * segments become g's, as a merge would have made them. A run on one thread does not
 * defer: it has no other core to keep the lines from (rmat20 was 1.07x slower with it).
 * A giant's holder must not miss an entry, and a deferral must not join a giant whose
 * lock is held, whose arcs are then being scanned or moved. The list's lock word
 * orders the two: the owner claims it (MST_FREE -> g) and only then reads g's lock word,
 * giving up if g is locked or no longer a root; the holder, which took g's lock before,
 * claims each list in turn (MST_FREE -> MST_JOINING), waiting out an owner inside its
 * few instructions. An owner that finds its list claimed gives up too, and merges the
 * usual way (which waits for g's lock). Every step is sequentially consistent, so an
 * owner that claims its list after the holder let it go sees g locked. */
/* A checked build starts a list small, and frees it when a holder empties it, so that
 * it grows often while holders join. */
#define MST_DEFER_CAP0 (MST_CHECKED ? 2 : 1024)

static bool defer_room(struct mst_defer *d)
{
	const uint32_t cap = d->cap ? 2 * d->cap : MST_DEFER_CAP0;
	struct mst_pend *p = cap > d->cap ? realloc(d->p, (size_t)cap * sizeof *p) : NULL;
	if (!p)
		return false;
	d->p = p, d->cap = cap;
	return true;
}

/* r (locked, so with no deferred merges of its own: see lock_comp), of rsize nodes,
 * merges into g by best, its lightest leaving arc, if g is a giant no smaller than r that
 * is a root and not locked (a merge counted); false: merge the usual way. */
static bool defer_into(struct ordo_tctx *ctx, struct ordo_mst *m, uint32_t r, uint32_t rsize,
                       uint32_t g, const struct mst_edge *best, uint64_t *counted)
{
	const uint32_t gsize = size_of(&m->node[g].lsize); /* a peek: looked at again below */
	if (!m->deferring || gsize <= m->heap_at || gsize < rsize)
		return false;
	struct mst_defer *d = &m->defer[ctx->tid];
	uint32_t fr = MST_FREE;
	if (!atomic_compare_exchange_strong(&d->into, &fr, g))
		return false; /* a holder is joining its entries */
	ORDO_PERTURB_POINT(MST_DEFER);
	/* the list grows only while claimed: a holder moves its entries meanwhile */
	const uint32_t w = atomic_load(&m->node[g].lsize);
	const bool ok =
	    !(w & LOCKED) && w > m->heap_at && is_root(m, g) && (d->n < d->cap || defer_room(d));
	if (ok) {
		m->pick[r] = *best;
		atomic_store_explicit(&m->parent[r], g, memory_order_relaxed);
		d->p[d->n++] = (struct mst_pend){g, r};
		(*counted)++;
	}
	atomic_store(&d->into, MST_FREE);
	return ok;
}

/* After g's lock is taken: a giant joins every deferred merge into it (see above). A
 * new size class makes g's queued task out of date, so g gets one for the new class. */
static void settle(struct ordo_tctx *ctx, struct ordo_mst *m, uint32_t g)
{
	struct mst_node *nd = m->node;
	const uint32_t size0 = size_of(&nd[g].lsize);
	if (size0 <= m->heap_at || !m->deferring)
		return;
	uint32_t size = size0;
	for (int t = 0; t < m->nwork; t++) {
		struct mst_defer *d = &m->defer[t];
		for (unsigned round = 0;; round++) {
			uint32_t fr = MST_FREE;
			if (atomic_compare_exchange_weak(&d->into, &fr, MST_JOINING))
				break;
			ordo_backoff(round);
		}
		ORDO_PERTURB_POINT(MST_SETTLE);
		uint32_t k = 0;
		for (uint32_t i = 0; i < d->n; i++) {
			const struct mst_pend e = d->p[i];
			if (e.g != g) {
				d->p[k++] = e;
				continue;
			}
			const uint32_t xs = size_of(&nd[e.x].lsize);
			join_arcs(m, g, size, e.x, xs);
			size += xs;
		}
		d->n = k;
		if (MST_CHECKED && !k) { /* so that its owner allocates again (MST_DEFER_CAP0) */
			free(d->p);
			d->p = NULL, d->cap = 0;
		}
		atomic_store(&d->into, MST_FREE);
	}
	if (size == size0)
		return;
	atomic_store_explicit(&nd[g].lsize, size | LOCKED, memory_order_relaxed);
	if (prio_of(size) != prio_of(size0))
		ordo_push(ctx, prio_of(size), g);
}

/* A component's lock, taken for its arcs: a giant's deferred merges are joined. While
 * it is held no merge into it is deferred, so its holder may defer its own. */
static inline void lock_comp(struct ordo_tctx *ctx, struct ordo_mst *m, uint32_t x)
{
	lock_helping(ctx, &m->node[x].lsize);
	settle(ctx, m, x);
}

static bool component_task(struct ordo_tctx *ctx, struct ordo_mst *m, uint32_t r, uint64_t prio,
                           uint64_t *counted)
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
	lock_comp(ctx, m, r);
	uint32_t size0 = size_of(&nd[r].lsize), s;
	if (!is_root(m, r) || stale(size0, prio)) {
		unlock(&nd[r].lsize);
		return false;
	}
	struct mst_node *C = &nd[r];
	struct mst_edge best;
scan:
	if ((s = mst_lightest(ctx, m, r, size0, &best, counted)) ==
	    NIL) { /* no arc leaves: final */
		unlock(&C->lsize);
		return true;
	}
	if (defer_into(ctx, m, r, size0, s, &best, counted)) {
		unlock(&C->lsize);
		return true;
	}
	for (;;) {
		for (;;) { /* lock s: wait when it is above r, else try once */
			if (s > r)
				lock_helping(ctx, &nd[s].lsize);
			else if (!try_lock(&nd[s].lsize))
				break;
			if (is_root(m, s)) {
				settle(ctx, m, s);
				goto merge;
			}
			unlock(&nd[s].lsize); /* s was merged meanwhile: find its new root */
			s = uf_find(parent, best.other);
		}
		/* s (below r) is busy: let go of r, wait for s's holder, take both in
		 * increasing order */
		unlock(&C->lsize);
		lock_helping(ctx, &nd[s].lsize);
		lock_comp(ctx, m, r);
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
	join_arcs(m, big, bsize, small, smsize);
	(*counted)++; /* a merge */
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
 * ratio's denominator make the same first tasks.
 * A first task does not own a fixed range: each thread of the run has a region of
 * consecutive nodes, and a first task claims ranges from its thread's region and then
 * from the others' until none is left (the tasks that come after find none: empty).
 * Fixed ranges reached the workers in a scheduler's chunks (OBIM: 64 tasks, a quarter
 * of rmat20's nodes), so one worker could be left alone with the last quarter while the
 * other, out of small tasks, ran the giant component's task early, one merge a task:
 * 12,000-105,000 such tasks in the slow 2-thread trials on rmat20 (0.35-0.8 s against
 * 0.12-0.2). Now the workers sweep until the last range is taken. The regions keep a
 * thread's ranges next to each other: one shared cursor, handing out neighbouring
 * ranges to the two threads in turn, took road2k's 2-thread run 1.05-1.14x longer. */
#define MST_SWEEP (UINT64_C(1) << 63) /* task data: a first task (the rest unused) */

uint32_t ordo_mst_sweep_nodes(uint64_t n)
{
	const uint64_t b = n / ORDO_MST_SWEEP_SHARE;
	return b < ORDO_MST_SWEEP_MIN   ? ORDO_MST_SWEEP_MIN
	       : b > ORDO_MST_SWEEP_MAX ? ORDO_MST_SWEEP_MAX
	                                : (uint32_t)b;
}

/* Claims m->sweep_block nodes at a time, from the thread's own region and then from
 * the others' in turn, until every region is claimed. */
static bool sweep_task(struct ordo_tctx *ctx, struct ordo_mst *m, uint64_t *counted)
{
	const uint64_t blk = m->sweep_block, *aoff = m->aoff;
	bool did = false;
	for (int k = 0; k < m->nwork; k++) {
		struct mst_work *w = &m->work[(ctx->tid + k) % m->nwork];
		for (;;) {
			const uint64_t first =
			    atomic_fetch_add_explicit(&w->next, blk, memory_order_relaxed);
			if (first >= w->end)
				break;
			const uint64_t end = w->end - first > blk ? first + blk : w->end;
			for (uint64_t u = first; u < end; u++) {
				if (u + 8 <
				    end) /* no root test: with it, road2k measured 1.02-1.05x */
					ordo_prefetch(&m->base[aoff[u + 8]]);
				if (u + 4 < end)
					first_arc_stage(m, u + 4, 1);
				if (aoff[u + 1] > aoff[u] && is_root(m, u) &&
				    size_of(&m->node[u].lsize) == 1)
					did |= component_task(ctx, m, (uint32_t)u, 1, counted);
			}
		}
	}
	return did;
}

static bool mst_op(struct ordo_tctx *ctx, const struct ordo_task *t, void *user)
{
	struct ordo_mst *m = user;
	uint64_t counted = 0; /* this task's work (a shared scan's items count apart) */
	const bool did = t->data & MST_SWEEP
	                     ? sweep_task(ctx, m, &counted)
	                     : component_task(ctx, m, (uint32_t)t->data, t->prio, &counted);
	m->work[ctx->tid].n += counted;
	return did;
}

/* Pipeline stages: the root's union-find entry and node; its own lightest arc; that
 * arc's other end. Only data that no task writes is read here (base is written before
 * the run, the union-find entry is atomic), so the hook needs no lock; for a component
 * that is still one node, which is most tasks, that is all the data it reads. */
static void mst_prefetch(const struct ordo_task *t, unsigned ahead, void *user)
{
	const struct ordo_mst *m = user;
	if (t->data & MST_SWEEP) /* its nodes are claimed when it runs */
		return;
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
	m->sweep_block = m->sweep;
	m->heap_at = ORDO_MST_HEAP_AT;
	m->aoff[0] = 0;
	for (size_t u = 0; u < n; u++)
		m->aoff[u + 1] = m->aoff[u] + ordo_graph_degree(g, (uint32_t)u);
	*out = m;
	return 0;
}

void ordo_mst_set_heap_at(struct ordo_mst *m, uint32_t nodes)
{
	m->heap_at = nodes;
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

static void defer_free(struct ordo_mst *m)
{
	for (int t = 0; m->defer && t < m->nwork; t++)
		free(m->defer[t].p);
	free(m->defer);
	m->defer = NULL;
}

void ordo_mst_free(struct ordo_mst *m)
{
	if (!m)
		return;
	defer_free(m);
	free(m->parent);
	free(m->node);
	free(m->base);
	free(m->pick);
	free(m->init);
	free(m->cslot);
	for (uint32_t i = 0; m->cand && i < m->capcand; i++)
		if (m->cand[i].seg != m->cand[i].own)
			free(m->cand[i].seg); /* a heap (NULL when never used) */
	free(m->cand);
	if (m->segs)
		segs_free_all(m);
	free(m->sslot);
	free(m->segs);
	free(m->aoff);
	free(m->work);
	free(m);
}

/* The run's per-thread state for T threads: work counters, sweep regions, deferral
 * lists (-1: out of memory). */
static int threads_prepare(struct ordo_mst *m, int T)
{
	const uint64_t n = m->g->n;
	if (T > m->nwork) {
		defer_free(m);
		free(m->work);
		m->nwork = 0;
		if (!(m->work = aligned_alloc(64, (size_t)T * sizeof *m->work)))
			return -1;
		/* out of memory, no merge is deferred */
		if ((m->defer = aligned_alloc(64, (size_t)T * sizeof *m->defer)))
			memset(m->defer, 0, (size_t)T * sizeof *m->defer);
		m->nwork = T;
	}
	memset(m->work, 0, (size_t)T * sizeof *m->work);
	/* the sweep's regions: T consecutive ones, whole blocks but the last; those of the
	 * threads an earlier, wider run had are empty */
	const uint64_t blk = m->sweep_block, share = (n / T + blk - 1) / blk * blk;
	for (int t = 0; t < m->nwork; t++) {
		const uint64_t b = t < T && (uint64_t)t * share < n ? (uint64_t)t * share : n;
		atomic_store_explicit(&m->work[t].next, b, memory_order_relaxed);
		m->work[t].end = t + 1 < T && n - b > share ? b + share : n;
	}
	/* one thread has no one to wait for: it merges into a giant at once */
	m->deferring = m->defer && T > 1;
	for (int t = 0; m->defer && t < m->nwork; t++) {
		m->defer[t].n = 0;
		atomic_store_explicit(&m->defer[t].into, MST_FREE, memory_order_relaxed);
	}
	return 0;
}

int ordo_mst_run(struct ordo_mst *m, struct ordo_scheduler *wl, const struct ordo_exec_opts *o,
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
	if (threads_prepare(m, T))
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	atomic_store_explicit(&m->cand_broken, false, memory_order_relaxed);
	int rc = ordo_for_each(&eo, wl->ops, wl->wl, m->init, ninit, mst_op, m, st, err);
	uint64_t unjoined = 0;
	for (int t = 0; m->defer && t < m->nwork; t++)
		unjoined += m->defer[t].n;
	if (!rc && unjoined)
		rc = ordo_err_set(err, ORDO_EINVAL,
		                  "mst: %llu merges into a giant component were never joined",
		                  (unsigned long long)unjoined);
	if (!rc && atomic_load_explicit(&m->cand_broken, memory_order_relaxed))
		rc =
		    ordo_err_set(err, ORDO_EINVAL,
		                 "mst: a big component's candidate list left out a segment lighter "
		                 "than its floor (the checked build's invariant)");
	*f = (struct ordo_forest){0};
	uint64_t per[T];
	for (int t = 0; t < T; t++)
		f->work += per[t] = m->work[t].n;
	ordo_spread(per, (size_t)T, &f->work_min, &f->work_median, &f->work_max);
	uint64_t nodes = 0; /* the roots' sizes: each node counted once, in one component */
	for (uint64_t v = 0; v < g->n; v++)
		if (!is_root(m, v)) {
			f->weight += m->pick[v].w;
			f->edges++;
		} else {
			nodes += size_of(&m->node[v].lsize);
		}
	f->components = g->n - f->edges;
	if (!rc && nodes != g->n)
		rc = ordo_err_set(err, ORDO_EINVAL,
		                  "mst: the components' sizes add up to %llu nodes, not %llu",
		                  (unsigned long long)nodes, (unsigned long long)g->n);
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
