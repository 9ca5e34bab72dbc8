/*
 * fifo.c - unordered chunked bag (Galois' dChunkedFIFO without priorities).
 * Each thread fills a private push chunk; a full chunk goes to the FIFO of its NUMA
 * node. A thread pops from its private pop chunk, then takes a chunk from its node's
 * FIFO, then from the other nodes' (in order after its own), and finally drains its own
 * partly filled push chunk. Priorities are ignored: this is the "no ordering at all"
 * reference for work-efficiency comparisons.
 * Parameters: chunk (tasks per chunk, default 64).
 */
#include "chunk.h"
#include "ordo_scheduler.h"

enum { P_CHUNK, P_N };
static const struct ordo_param params[P_N] = {
    {"chunk", 64, 1, 1 << 16, "tasks per chunk"},
};

struct local {
	alignas(64) struct wl_chunk *push, *pop;
	struct wl_chunk_cache spare;
};

struct ordo_sched_state {
	uint32_t chunk;
	int nnodes;
	struct wl_chunk_fifo *fifo; /* one per node */
	struct local *local;
	const struct ordo_topology *topo;
};

static int fifo_create(const struct ordo_scheduler_config *cfg, struct ordo_sched_state **out,
                       struct ordo_err *err)
{
	struct ordo_sched_state *w = calloc(1, sizeof *w);
	if (!w)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	w->chunk = (uint32_t)cfg->params[P_CHUNK];
	w->nnodes = cfg->topo->nnodes;
	w->topo = cfg->topo;
	w->fifo = ordo_calloc_aligned((size_t)w->nnodes, sizeof *w->fifo);
	w->local = ordo_calloc_aligned((size_t)cfg->topo->nthreads, sizeof *w->local);
	if (!w->fifo || !w->local) {
		free(w->fifo), free(w->local), free(w);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	}
	*out = w;
	return 0;
}

static void fifo_destroy(struct ordo_sched_state *w)
{
	for (int i = 0; i < w->nnodes; i++)
		wl_fifo_free(&w->fifo[i]);
	for (int t = 0; t < w->topo->nthreads; t++) {
		free(w->local[t].push);
		free(w->local[t].pop);
		wl_chunk_cache_free(&w->local[t].spare);
	}
	free(w->fifo);
	free(w->local);
	free(w);
}

static void fifo_push(struct ordo_sched_state *w, struct ordo_tctx *ctx, const struct ordo_task *t,
                      size_t n)
{
	struct local *l = &w->local[ctx->tid];
	for (size_t i = 0; i < n; i++) {
		struct wl_chunk *c = l->push;
		if (!c || c->tail == w->chunk) {
			if (c)
				wl_fifo_put(&w->fifo[ctx->node], c);
			c = l->push = wl_chunk_get(&l->spare, w->chunk);
			if (!c) {
				ctx->push_oom = true;
				return;
			}
		}
		c->items[c->tail++] = t[i];
	}
}

static bool fifo_pop(struct ordo_sched_state *w, struct ordo_tctx *ctx, struct ordo_task *out)
{
	struct local *l = &w->local[ctx->tid];
	for (;;) {
		if (wl_chunk_next(&l->pop, &l->spare, out))
			return true;
		for (int k = 0; k < w->nnodes && !l->pop; k++)
			l->pop = wl_fifo_take(&w->fifo[(ctx->node + k) % w->nnodes]);
		if (!l->pop) {
			/* nothing shared: take back our own partial chunk */
			l->pop = l->push;
			l->push = NULL;
			if (!l->pop)
				return false;
		}
	}
}

/* Parking: the thread's partial push chunk and partly taken pop chunk go to the
 * executor (full chunks are in the shared FIFOs already). */
static void fifo_release(struct ordo_sched_state *w, struct ordo_tctx *ctx,
                         struct ordo_handoff *out)
{
	struct local *l = &w->local[ctx->tid];
	wl_chunk_hand(l->pop, out);
	wl_chunk_hand(l->push, out);
}

/* unordered by design: no bound */
static double fifo_rank_bound(const int64_t *p, const uint64_t *stats, double n, double range)
{
	(void)p, (void)stats, (void)n, (void)range;
	return -1;
}

static unsigned fifo_grain(const int64_t *p)
{
	(void)p;
	return 64;
}

ORDO_SCHEDULER_DEFINE(fifo, .name = "fifo", .rank_bound = fifo_rank_bound, .grain = fifo_grain,
                      .summary = "unordered chunked bag (per-thread chunks, per-node chunk FIFOs)",
                      .params = params, .nparams = P_N, .create = fifo_create,
                      .destroy = fifo_destroy, .push = fifo_push, .pop = fifo_pop,
                      .release = fifo_release);
