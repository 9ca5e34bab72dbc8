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

/* ---- a giant's candidates: a binary min-heap by front (seg[0] the lightest) ---- */

static void heap_up(const struct mst_node *nd, uint32_t *h, uint32_t i)
{
	const uint32_t x = h[i];
	const struct mst_edge k = front(nd, x);
	while (i) {
		const uint32_t p = (i - 1) / 2;
		const struct mst_edge kp = front(nd, h[p]);
		if (!edge_less(&k, &kp))
			break;
		h[i] = h[p], i = p;
	}
	h[i] = x;
}

static void heap_down(const struct mst_node *nd, uint32_t *h, uint32_t n, uint32_t i)
{
	const uint32_t x = h[i];
	const struct mst_edge k = front(nd, x);
	for (uint32_t l; (l = 2 * i + 1) < n;) {
		struct mst_edge kl = front(nd, h[l]);
		if (l + 1 < n) {
			const struct mst_edge kr = front(nd, h[l + 1]);
			if (edge_less(&kr, &kl))
				l++, kl = kr;
		}
		if (!edge_less(&kl, &k))
			break;
		h[i] = h[l], i = l;
	}
	h[i] = x;
}

/* Room for need candidates in a heap (whose seg is its own allocation); false when out
 * of memory. */
static bool heap_room(struct mst_cand *c, uint32_t need)
{
	if (c->cap >= need)
		return true;
	uint64_t cap = (uint64_t)c->cap * 2;
	cap = cap < need ? need : cap;
	cap = cap > UINT32_MAX ? UINT32_MAX : cap;
	uint32_t *seg = realloc(c->seg, cap * sizeof *seg);
	if (!seg)
		return false;
	c->seg = seg, c->cap = (uint32_t)cap;
	return true;
}

/* Empties c for a full scan to rebuild (its room stays). */
static inline void cand_clear(struct mst_cand *c)
{
	c->n = 0, c->valid = true, c->floored = false;
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
	if (c->heap) { /* out of memory, x is left out: below the floor */
		if (!heap_room(c, c->n + 1)) {
			lower_floor(c, &k);
			return;
		}
		c->seg[c->n] = x;
		heap_up(nd, c->seg, c->n++);
		return;
	}
	if (c->n == c->cap) {
		const struct mst_edge last = front(nd, c->seg[c->cap - 1]);
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
		if (c->heap) {
			if (!left)
				c->seg[0] = c->seg[--c->n];
			if (c->n)
				heap_down(nd, c->seg, c->n, 0);
			continue;
		}
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
		cand_clear(c);
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
		cand_clear(c);
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
 * and a list without a floor leaves none out; a heap is in heap order. */
static bool cand_holds(const struct ordo_mst *m, const struct mst_segs *L, const struct mst_cand *c)
{
	for (uint32_t i = 1; c->heap && i < c->n; i++) { /* a heap: no front above its parent's */
		const struct mst_edge k = front(m->node, c->seg[i]);
		const struct mst_edge kp = front(m->node, c->seg[(i - 1) / 2]);
		if (edge_less(&k, &kp))
			return false;
	}
	uint32_t *listed = malloc((c->n ? c->n : 1) * sizeof *listed);
	if (!listed) /* out of memory: unchecked */
		return true;
	memcpy(listed, c->seg, c->n * sizeof *listed);
	qsort(listed, c->n, sizeof *listed, cmp_u32);
	for (uint32_t i = 0; i < L->n; i++) {
		const uint32_t x = L->id[i];
		if (!m->node[x].n || bsearch(&x, listed, c->n, sizeof *listed, cmp_u32))
			continue;
		const struct mst_edge k = front(m->node, x);
		if (!c->floored || edge_less(&k, &c->floor)) {
			free(listed);
			return false;
		}
	}
	free(listed);
	return true;
}

/* Is part a's next front (at pos[a]) lighter than part b's? */
static inline bool part_less(const struct mst_node *nd, const struct scan_part *part,
                             const uint32_t *pos, uint32_t a, uint32_t b)
{
	const struct mst_edge ka = front(nd, part[a].c.seg[pos[a]]);
	const struct mst_edge kb = front(nd, part[b].c.seg[pos[b]]);
	return edge_less(&ka, &kb);
}

static void part_sift(const struct mst_node *nd, const struct scan_part *part, const uint32_t *pos,
                      uint32_t *heap, uint32_t h, uint32_t i)
{
	for (;;) {
		uint32_t l = 2 * i + 1, min = i;
		if (l < h && part_less(nd, part, pos, heap[l], heap[min]))
			min = l;
		if (l + 1 < h && part_less(nd, part, pos, heap[l + 1], heap[min]))
			min = l + 1;
		if (min == i)
			return;
		const uint32_t t = heap[i];
		heap[i] = heap[min], heap[min] = t, i = min;
	}
}

/* c's list (cleared) from the k parts' sorted lists: their c->cap lightest fronts by a
 * k-way merge, O(cap log k); the lightest front not taken and every part's floor bound
 * c's floor. (Adding the parts' fronts one by one into a sorted list costs up to its
 * length per front: with a giant's 4096 and parts that list their whole range, 60 ms a
 * scan on rmat20.) Out of memory, it does just that. */
static void cand_merge(const struct mst_node *nd, struct mst_cand *c, const struct scan_part *part,
                       uint32_t k)
{
	uint32_t *heap = malloc(2 * (size_t)k * sizeof *heap), *pos = heap ? heap + k : NULL, h = 0;
	for (uint32_t i = 0; i < k; i++) {
		if (part[i].c.floored)
			lower_floor(c, &part[i].c.floor);
		if (!heap) {
			for (uint32_t q = 0; q < part[i].c.n; q++)
				mst_cand_add(c, nd, part[i].c.seg[q]);
		} else if (part[i].c.n) {
			pos[i] = 0, heap[h++] = i;
		}
	}
	if (!heap)
		return;
	for (uint32_t i = h / 2; i-- > 0;)
		part_sift(nd, part, pos, heap, h, i);
	while (h && c->n < c->cap) {
		const uint32_t t = heap[0];
		c->seg[c->n++] = part[t].c.seg[pos[t]++];
		if (pos[t] == part[t].c.n)
			heap[0] = heap[--h];
		part_sift(nd, part, pos, heap, h, 0);
	}
	if (h) { /* the lightest front left out */
		const struct mst_edge k0 = front(nd, part[heap[0]].c.seg[pos[heap[0]]]);
		lower_floor(c, &k0);
	}
	free(heap);
}

/* A heap's rebuild from the n non-empty segments id[0, n): a heapify, O(n); out of
 * memory, those past its room are left out (below the floor). */
static void heap_fill(const struct mst_node *nd, struct mst_cand *c, const uint32_t *id, uint32_t n)
{
	cand_clear(c);
	heap_room(c, n);
	const uint32_t k = n < c->cap ? n : c->cap;
	memcpy(c->seg, id, k * sizeof *id);
	for (uint32_t i = k; i < n; i++) {
		const struct mst_edge e = front(nd, id[i]);
		lower_floor(c, &e);
	}
	c->n = k;
	for (uint32_t i = k / 2; i-- > 0;)
		heap_down(nd, c->seg, k, i);
}

/* ring_scan over r's array: emptied segments leave it; with c, the list is rebuilt. */
static uint32_t segs_scan(struct ordo_tctx *ctx, struct ordo_mst *m, uint32_t r, struct mst_segs *L,
                          struct mst_cand *c, struct mst_edge *best, uint64_t *counted)
{
	const uint32_t n = L->n, k = n / MST_SCAN_CHUNK + (n % MST_SCAN_CHUNK != 0);
	struct scan_part *part = k > 1 ? malloc(k * sizeof *part) : NULL;
	if (!part) /* one item, or out of memory: alone */
		return scan_range(m, r, L->id, 0, n, c, best, &L->n, counted);
	/* the parts list their lightest fronts for a sorted list; a heap is made from the
	 * whole array after */
	const bool lists = c && !c->heap;
	for (uint32_t i = 0; lists && i < k; i++)
		part[i].c.seg = part[i].c.own, part[i].c.cap = MST_CAND, part[i].c.heap = false;
	struct scan_job j = {.m = m, .r = r, .n = n, .id = L->id, .cand = lists, .part = part};
	ordo_task_loop(ctx, scan_item, &j, k);
	uint32_t s = NIL, at = 0;
	if (c)
		cand_clear(c);
	for (uint32_t i = 0; i < k; i++) {
		const struct scan_part *p = &part[i];
		if (p->s != NIL && (s == NIL || edge_less(&p->best, best)))
			*best = p->best, s = p->s;
		memmove(L->id + at, L->id + (size_t)i * MST_SCAN_CHUNK, p->kept * sizeof *L->id);
		at += p->kept;
	}
	L->n = at;
	if (lists)
		cand_merge(m->node, c, part, k);
	else if (c)
		heap_fill(m->node, c, L->id, at);
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
		mst_cand_init(&m->cand[i]); /* no list yet: the first look scans */
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
	if (c && !c->heap && size > m->heap_at) { /* a giant */
		uint32_t *seg = malloc(4 * MST_CAND * sizeof *seg);
		if (seg) /* the scan below makes the heap; out of memory, the list stays */
			c->seg = seg, c->cap = 4 * MST_CAND, c->heap = true;
	}
	struct mst_segs *L = size > MST_GROW_MAX ? segs_of(m, r) : NULL;
	return L ? segs_scan(ctx, m, r, L, c, best, counted) : ring_scan(m, r, c, best, counted);
}
