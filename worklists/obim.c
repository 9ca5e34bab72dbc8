/*
 * obim.c - Ordered By Integer Metric, Galois' bucketed scheduler (Nguyen, Lenharth,
 * Pingali, SOSP'13; as in Galois 2.2.1 WL/Obim.h, the SMQ paper's artifact).
 *
 * A task's bucket is prio >> delta. Each bucket is a bag of chunks: every thread fills
 * its own push chunk and drains its own pop chunk; full chunks go to a locked FIFO per
 * NUMA node; a thread that runs dry takes chunks from its node first, then from the
 * others, and finally its own partly filled push chunk.
 *
 * Buckets are created once and never deleted. A global append-only log lists them
 * (creation under one lock, published by a version counter); every thread replays the
 * log lazily into its own sorted map (index -> bag plus the thread's chunks of that bag),
 * so lookups never touch shared state. Each thread works on a current bucket: a push to a
 * smaller index switches to it; when the current bucket is empty, the thread rescans
 * from its scan start (BSP: the smallest index it pushed to since; a node's first thread
 * takes the minimum over all threads, the others the minimum of their own and that
 * leader's). With period = p > 0 a thread also rescans every 2^p pops to catch better
 * buckets that others filled (Galois 6 behaviour). period = 0 never rescans while its
 * bucket has work: the 2.2.1 code meant to rescan but an operator-precedence bug made
 * the test always false, so period = 0 reproduces what the artifact measured.
 *
 * Parameters: delta (bucket = prio >> delta), chunk (tasks per chunk), period.
 */
#include <stdio.h>

#include "chunk.h"
#include "ordo_worklist.h"

enum { P_DELTA, P_CHUNK, P_PERIOD, P_N };
static const struct ordo_param params[P_N] = {
    {"delta", 10, 0, 63, "bucket = priority >> delta (Galois' -delta)"},
    {"chunk", 64, 1, 1 << 16, "tasks per chunk"},
    {"period", 0, 0, 30, "rescan for a better bucket every 2^period pops (0: never)"},
};

#define SEG_BITS 12
#define SEG_SIZE (1u << SEG_BITS)
#define MAX_SEGS (1u << 16) /* 2^28 buckets */

struct bag {
	uint64_t index;
	struct wl_chunk_fifo fifo[]; /* one per node */
};

struct entry {
	uint64_t index;
	struct bag *bag;
	struct wl_chunk *push, *pop; /* this thread's chunks of the bag */
};

struct tl {
	alignas(128) struct entry *current;
	uint64_t cur_index;
	uint64_t num_pops;
	uint64_t replayed;  /* log entries already in the map */
	struct entry **map; /* sorted by index */
	size_t nmap, capmap;
	alignas(64) _Atomic uint64_t scan_start; /* read by other threads */
};

struct ordo_wl {
	int delta;
	uint32_t chunk;
	uint64_t period_mask; /* 0: never */
	int nnodes, T;
	const struct ordo_topology *topo;
	struct tl *tl;
	alignas(64) struct wl_lock master;
	_Atomic uint64_t version;
	struct bag **_Atomic *segs; /* MAX_SEGS segment pointers */
};

static int obim_create(const struct ordo_wl_config *cfg, struct ordo_wl **out, struct ordo_err *err)
{
	struct ordo_wl *w = ordo_calloc_aligned(1, sizeof *w);
	if (!w)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	w->delta = (int)cfg->params[P_DELTA];
	w->chunk = (uint32_t)cfg->params[P_CHUNK];
	w->period_mask = cfg->params[P_PERIOD] ? (1ull << cfg->params[P_PERIOD]) - 1 : 0;
	w->nnodes = cfg->topo->nnodes;
	w->T = cfg->topo->nthreads;
	w->topo = cfg->topo;
	w->tl = ordo_calloc_aligned((size_t)w->T, sizeof *w->tl);
	w->segs = calloc(MAX_SEGS, sizeof *w->segs);
	if (!w->tl || !w->segs) {
		free(w->tl), free(w->segs), free(w);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	}
	for (int t = 0; t < w->T; t++) {
		w->tl[t].cur_index = UINT64_MAX;
		atomic_store(&w->tl[t].scan_start, UINT64_MAX);
	}
	*out = w;
	return 0;
}

static void obim_destroy(struct ordo_wl *w)
{
	for (int t = 0; t < w->T; t++) {
		struct tl *l = &w->tl[t];
		for (size_t i = 0; i < l->nmap; i++) {
			free(l->map[i]->push);
			free(l->map[i]->pop);
			free(l->map[i]);
		}
		free(l->map);
	}
	uint64_t nb = atomic_load(&w->version);
	for (uint64_t i = 0; i < nb; i++) {
		struct bag *b = w->segs[i >> SEG_BITS][i & (SEG_SIZE - 1)];
		for (int k = 0; k < w->nnodes; k++)
			wl_fifo_free(&b->fifo[k]);
		free(b);
	}
	for (uint64_t s = 0; s < MAX_SEGS && w->segs[s]; s++)
		free(w->segs[s]);
	free(w->segs);
	free(w->tl);
	free(w);
}

/* First map position with index >= key. */
static size_t lower_bound(const struct tl *l, uint64_t key)
{
	size_t lo = 0, hi = l->nmap;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (l->map[mid]->index < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool map_insert(struct tl *l, struct bag *b)
{
	if (l->nmap == l->capmap) {
		size_t cap = l->capmap ? l->capmap * 2 : 64;
		struct entry **m = realloc(l->map, cap * sizeof *m);
		if (!m)
			return false;
		l->map = m;
		l->capmap = cap;
	}
	struct entry *e = calloc(1, sizeof *e);
	if (!e)
		return false;
	e->index = b->index;
	e->bag = b;
	size_t pos = lower_bound(l, b->index);
	memmove(&l->map[pos + 1], &l->map[pos], (l->nmap - pos) * sizeof *l->map);
	l->map[pos] = e;
	l->nmap++;
	return true;
}

/* Brings the thread's map up to date with the global log. */
static bool replay(struct ordo_wl *w, struct tl *l)
{
	/* acquire: the bags (and segment pointers) published before version was raised */
	uint64_t v = atomic_load_explicit(&w->version, memory_order_acquire);
	for (; l->replayed < v; l->replayed++) {
		uint64_t i = l->replayed;
		struct bag **seg =
		    atomic_load_explicit(&w->segs[i >> SEG_BITS], memory_order_relaxed);
		if (!map_insert(l, seg[i & (SEG_SIZE - 1)]))
			return false;
	}
	return true;
}

static struct entry *find(struct tl *l, uint64_t index)
{
	size_t p = lower_bound(l, index);
	return p < l->nmap && l->map[p]->index == index ? l->map[p] : NULL;
}

static struct entry *get_entry(struct ordo_wl *w, struct tl *l, uint64_t index)
{
	struct entry *e = find(l, index);
	if (e)
		return e;
	if (!replay(w, l))
		return NULL;
	if ((e = find(l, index)))
		return e;
	wl_lock(&w->master);
	bool ok = replay(w, l);
	if (ok && !(e = find(l, index))) {
		uint64_t v = atomic_load_explicit(&w->version, memory_order_relaxed);
		uint64_t s = v >> SEG_BITS;
		struct bag **seg =
		    s < MAX_SEGS ? atomic_load_explicit(&w->segs[s], memory_order_relaxed) : NULL;
		if (!seg && s < MAX_SEGS) {
			seg = calloc(SEG_SIZE, sizeof *seg);
			atomic_store_explicit(&w->segs[s], seg, memory_order_relaxed);
		}
		struct bag *b =
		    seg ? ordo_calloc_aligned(1, sizeof *b + (size_t)w->nnodes *
		                                                 sizeof(struct wl_chunk_fifo))
		        : NULL;
		if (b) {
			b->index = index;
			seg[v & (SEG_SIZE - 1)] = b;
			/* release: publishes the bag and the segment pointer */
			atomic_store_explicit(&w->version, v + 1, memory_order_release);
		}
		ok = b != NULL;
	}
	wl_unlock(&w->master);
	if (ok && !e && replay(w, l))
		e = find(l, index);
	return e;
}

static bool entry_push(struct ordo_wl *w, struct ordo_tctx *ctx, struct entry *e,
                       const struct ordo_task *t)
{
	struct wl_chunk *c = e->push;
	if (!c || c->tail == w->chunk) {
		if (c)
			wl_fifo_put(&e->bag->fifo[ctx->node], c);
		c = e->push = wl_chunk_new(w->chunk);
		if (!c)
			return false;
	}
	c->items[c->tail++] = *t;
	return true;
}

static bool entry_pop(struct ordo_wl *w, struct ordo_tctx *ctx, struct entry *e,
                      struct ordo_task *out)
{
	for (;;) {
		struct wl_chunk *c = e->pop;
		if (c && c->head < c->tail) {
			*out = c->items[c->head++];
			return true;
		}
		free(c);
		e->pop = NULL;
		for (int k = 0; k < w->nnodes && !e->pop; k++)
			e->pop = wl_fifo_take(&e->bag->fifo[(ctx->node + k) % w->nnodes]);
		if (!e->pop) {
			e->pop = e->push;
			e->push = NULL;
			if (!e->pop)
				return false;
		}
	}
}

static void obim_push(struct ordo_wl *w, struct ordo_tctx *ctx, const struct ordo_task *t, size_t n)
{
	struct tl *l = &w->tl[ctx->tid];
	for (size_t i = 0; i < n; i++) {
		uint64_t index = t[i].prio >> w->delta;
		struct entry *e =
		    l->current && l->cur_index == index ? l->current : get_entry(w, l, index);
		if (!e || !entry_push(w, ctx, e, &t[i])) {
			ctx->push_oom = true;
			return;
		}
		if (index < atomic_load_explicit(&l->scan_start, memory_order_relaxed))
			atomic_store_explicit(&l->scan_start, index, memory_order_relaxed);
		if (index < l->cur_index) {
			l->cur_index = index;
			l->current = e;
		}
	}
}

static bool slow_pop(struct ordo_wl *w, struct ordo_tctx *ctx, struct tl *l, struct ordo_task *out)
{
	if (!replay(w, l)) {
		ctx->push_oom = true;
		return false;
	}
	uint64_t ss = atomic_load_explicit(&l->scan_start, memory_order_relaxed);
	int leader = w->topo->first_of_node[ctx->node];
	if ((int)ctx->tid == leader) {
		for (int t = 0; t < w->T; t++) {
			uint64_t s =
			    atomic_load_explicit(&w->tl[t].scan_start, memory_order_relaxed);
			ss = s < ss ? s : ss;
		}
	} else {
		uint64_t s = atomic_load_explicit(&w->tl[leader].scan_start, memory_order_relaxed);
		ss = s < ss ? s : ss;
	}
	for (size_t p = lower_bound(l, ss); p < l->nmap; p++) {
		struct entry *e = l->map[p];
		if (entry_pop(w, ctx, e, out)) {
			l->current = e;
			l->cur_index = e->index;
			atomic_store_explicit(&l->scan_start, e->index, memory_order_relaxed);
			return true;
		}
	}
	return false;
}

static bool obim_pop(struct ordo_wl *w, struct ordo_tctx *ctx, struct ordo_task *out)
{
	struct tl *l = &w->tl[ctx->tid];
	if (w->period_mask && (l->num_pops++ & w->period_mask) == 0)
		return slow_pop(w, ctx, l, out);
	if (l->current && entry_pop(w, ctx, l->current, out))
		return true;
	return slow_pop(w, ctx, l, out);
}

ORDO_WL_DEFINE(obim, .name = "obim",
               .summary = "Galois OBIM: buckets prio>>delta of chunked FIFOs, lazily replayed "
                          "bucket log",
               .params = params, .nparams = P_N, .create = obim_create, .destroy = obim_destroy,
               .push = obim_push, .pop = obim_pop);
