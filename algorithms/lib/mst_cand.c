/*
 * mst_cand.c - finding a component's lightest leaving arc (mst.c has the algorithm): a
 * scan of its segment ring, or of its segment array (components past MST_GROW_MAX
 * nodes), or, for components past MST_STALE_MAX nodes, a look at its list of lightest
 * segment fronts first. Dropping internal arcs from segment fronts happens here.
 */
#include <stdlib.h>

#include "mst_internal.h"

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
void mst_cand_add(struct mst_cand *c, const struct mst_node *nd, uint32_t x)
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
			mst_cand_add(c, nd, x);
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
				mst_cand_add(c, nd, x);
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
			mst_cand_add(c, nd, x);
	}
	L->n = k;
	return s;
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
uint32_t mst_segs_join(struct ordo_mst *m, uint32_t big, uint32_t bsize, uint32_t small,
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

uint32_t mst_lightest(struct ordo_mst *m, uint32_t r, uint32_t size, struct mst_edge *best)
{
	struct mst_cand *c = cand_of(m, r, size);
	uint32_t s = c ? cand_lightest(m, r, c, best) : NIL;
	if (s != NIL)
		return s;
	struct mst_segs *L = size > MST_GROW_MAX ? segs_of(m, r) : NULL;
	return L ? segs_scan(m, r, L, c, best) : ring_scan(m, r, c, best);
}
