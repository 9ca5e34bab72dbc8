/*
 * mst_cand.c - finding a component's lightest leaving arc (mst.c has the algorithm): a
 * scan of its segment ring, or of its segment array (components past MST_GROW_MAX
 * nodes), or, for components past MST_STALE_MAX nodes, a look at its list of lightest
 * segment fronts first. Dropping internal arcs from segment fronts happens here.
 */
#include <stdlib.h>
#include <string.h>

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
static inline bool drop_internal(struct ordo_mst *m, uint32_t x, uint32_t r, uint32_t *ro,
                                 uint64_t *counted)
{
	struct mst_node *sg = &m->node[x];
	if (!sg->n)
		return false;
	uint64_t k = 0; /* arcs examined, added once (the counter may alias the nodes) */
	bool left = true;
	while (k++, (*ro = uf_find(m->parent, sg->fo)) == r) {
		if (!--sg->n) {
			left = false;
			break;
		}
		const uint64_t a = m->base[++sg->start];
		sg->fw = (uint32_t)(a >> 32), sg->fo = (uint32_t)a;
	}
	*counted += k;
	return left;
}

/* The lightest arc leaving r from its list: its other end's root, or NIL when the list
 * cannot tell (a full scan is due). */
static uint32_t cand_lightest(struct ordo_mst *m, uint32_t r, struct mst_cand *c,
                              struct mst_edge *best, uint64_t *counted)
{
	const struct mst_node *nd = m->node;
	if (!c->valid)
		return NIL;
	while (c->n) {
		const uint32_t x = c->seg[0], n0 = nd[x].n;
		const struct mst_edge k0 = front(nd, x);
		uint32_t ro;
		const bool left = drop_internal(m, x, r, &ro, counted);
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
static uint32_t ring_scan(struct ordo_mst *m, uint32_t r, struct mst_cand *c, struct mst_edge *best,
                          uint64_t *counted)
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
		if (!drop_internal(m, x, r, &ro, counted)) { /* unlink the emptied segment */
			if (x == p) {                        /* it was the last one */
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

/* ring_scan over ids id[lo, hi) of r's array: the segments left are compacted to
 * id[lo, lo + *kept); with c, the list of that range is made. */
static uint32_t scan_range(struct ordo_mst *m, uint32_t r, uint32_t *id, uint32_t lo, uint32_t hi,
                           struct mst_cand *c, struct mst_edge *best, uint32_t *kept,
                           uint64_t *counted)
{
	struct mst_node *nd = m->node;
	uint32_t s = NIL, k = lo;
	if (c)
		*c = (struct mst_cand){.valid = true};
	for (uint32_t i = lo; i < hi; i++) {
		if (i + 2 * MST_SEGS_AHEAD < hi)
			ordo_prefetch(&nd[id[i + 2 * MST_SEGS_AHEAD]]);
		if (i + MST_SEGS_AHEAD < hi) { /* its front's other end, and the arc after it */
			const struct mst_node *y = &nd[id[i + MST_SEGS_AHEAD]];
			ordo_prefetch(&m->parent[y->fo]);
			ordo_prefetch(&m->base[y->start + 1]);
		}
		const uint32_t x = id[i];
		uint32_t ro;
		if (!drop_internal(m, x, r, &ro, counted))
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
	*kept = k - lo;
	return s;
}

/* A scan of a big array is a loop of items of MST_SCAN_CHUNK segments each
 * (ordo_task_loop), so that idle workers share it: on R-MAT one scan of the giant
 * component drops nearly every arc of the graph as internal, 0.13 s of a 0.18 s run
 * at one thread, which a second thread could only wait for. The items touch disjoint
 * segments; dropping an internal arc needs no lock beyond r's, which the caller holds
 * throughout (internal stays internal, and r cannot grow while locked). */
#define MST_SCAN_CHUNK 1024

struct scan_part {
	struct mst_cand c;    /* its range's lightest fronts */
	struct mst_edge best; /* its range's lightest front, when s != NIL */
	uint32_t s, kept;     /* best's other root; segments left */
};

struct scan_job {
	struct ordo_mst *m;
	uint32_t r, n, *id;
	bool cand;
	struct scan_part *part;
};

static void scan_item(void *arg, uint32_t i, unsigned tid)
{
	const struct scan_job *j = arg;
	struct scan_part *p = &j->part[i];
	const uint32_t lo = i * MST_SCAN_CHUNK;
	const uint32_t hi = j->n - lo > MST_SCAN_CHUNK ? lo + MST_SCAN_CHUNK : j->n;
	/* counted in the running thread's slot, not in the task's (which may be another
	 * thread's: the task counts its own work in the counter it passes down) */
	uint64_t counted = 0;
	p->s = scan_range(j->m, j->r, j->id, lo, hi, j->cand ? &p->c : NULL, &p->best, &p->kept,
	                  &counted);
	j->m->work[tid].n += counted;
}

static int cmp_u32(const void *a, const void *b)
{
	const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* The invariant of a list that a full scan made (checked builds): every non-empty
 * segment of the array that the list leaves out has a front no lighter than the floor,
 * and a list without a floor leaves none out. */
static bool cand_holds(const struct ordo_mst *m, const struct mst_segs *L, const struct mst_cand *c)
{
	uint32_t listed[MST_CAND];
	memcpy(listed, c->seg, c->n * sizeof *listed);
	qsort(listed, c->n, sizeof *listed, cmp_u32);
	for (uint32_t i = 0; i < L->n; i++) {
		const uint32_t x = L->id[i];
		if (!m->node[x].n || bsearch(&x, listed, c->n, sizeof *listed, cmp_u32))
			continue;
		const struct mst_edge k = front(m->node, x);
		if (!c->floored || edge_less(&k, &c->floor))
			return false;
	}
	return true;
}

/* ring_scan over r's array: emptied segments leave it; with c, the list is rebuilt. */
static uint32_t segs_scan(struct ordo_tctx *ctx, struct ordo_mst *m, uint32_t r, struct mst_segs *L,
                          struct mst_cand *c, struct mst_edge *best, uint64_t *counted)
{
	const uint32_t n = L->n, k = n / MST_SCAN_CHUNK + (n % MST_SCAN_CHUNK != 0);
	struct scan_part *part = k > 1 ? malloc(k * sizeof *part) : NULL;
	if (!part) /* one item, or out of memory: alone */
		return scan_range(m, r, L->id, 0, n, c, best, &L->n, counted);
	struct scan_job j = {.m = m, .r = r, .n = n, .id = L->id, .cand = c != NULL, .part = part};
	ordo_task_loop(ctx, scan_item, &j, k);
	uint32_t s = NIL, at = 0;
	if (c)
		*c = (struct mst_cand){.valid = true};
	for (uint32_t i = 0; i < k; i++) {
		const struct scan_part *p = &part[i];
		if (p->s != NIL && (s == NIL || edge_less(&p->best, best)))
			*best = p->best, s = p->s;
		if (c) { /* a front left out of a part's list is left out of the whole's */
			for (uint32_t q = 0; q < p->c.n; q++)
				mst_cand_add(c, m->node, p->c.seg[q]);
			if (p->c.floored)
				lower_floor(c, &p->c.floor);
		}
		memmove(L->id + at, L->id + (size_t)i * MST_SCAN_CHUNK, p->kept * sizeof *L->id);
		at += p->kept;
	}
	L->n = at;
	free(part);
	if (MST_CHECKED && c && !cand_holds(m, L, c))
		atomic_store_explicit(&m->cand_broken, true, memory_order_relaxed);
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

uint32_t mst_lightest(struct ordo_tctx *ctx, struct ordo_mst *m, uint32_t r, uint32_t size,
                      struct mst_edge *best, uint64_t *counted)
{
	struct mst_cand *c = cand_of(m, r, size);
	uint32_t s = c ? cand_lightest(m, r, c, best, counted) : NIL;
	if (s != NIL)
		return s;
	struct mst_segs *L = size > MST_GROW_MAX ? segs_of(m, r) : NULL;
	return L ? segs_scan(ctx, m, r, L, c, best, counted) : ring_scan(m, r, c, best, counted);
}
