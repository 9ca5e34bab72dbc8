/*
 * frontier.c - the frontier mode's rounds (see ordo_frontier.h).
 *
 * One OpenMP parallel region runs every round; rounds are separated by barriers, and
 * one thread (an omp single) makes each round's decision from the counters the workers
 * left in their slots. A push round hands out the sparse frontier in chunks of 64
 * (dynamic: degrees are skewed) and each worker appends what it adds in chunks of
 * ORDO_FRONTIER_CHUNK to the next array with one fetch-and-add per chunk. A pull round
 * hands out 64-node words in blocks of 16 words, so each bit of the next bitmap has one
 * writer and needs no atomic.
 */
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "ordo_frontier.h"
#include "ordo_util.h"

struct ordo_frontier_run_state {
	uint32_t *queue, *next;
	_Atomic uint64_t nlen;
	uint64_t *bits, *nbits;
	/* every node that has been in a frontier: a pull round calls the operator only for
	 * the others (a node joins one frontier at most) */
	_Atomic uint64_t *seen;
};

/* per worker, on its own line */
struct slot {
	alignas(64) uint64_t added, arcs, work; /* the whole run */
	uint64_t round_added, round_scout;      /* the last round */
};

void ordo_frontier_flush(struct ordo_frontier_tctx *fx)
{
	const uint64_t at =
	    atomic_fetch_add_explicit(&fx->run->nlen, fx->nbuf, memory_order_relaxed);
	memcpy(fx->run->next + at, fx->buf, fx->nbuf * sizeof *fx->buf);
	for (unsigned i = 0; i < fx->nbuf; i++)
		atomic_fetch_or_explicit(&fx->run->seen[fx->buf[i] >> 6], 1ull << (fx->buf[i] & 63),
		                         memory_order_relaxed);
	fx->nbuf = 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Per-thread work into the stats' min / median / max. */
static void work_spread(const struct slot *sl, int T, struct ordo_frontier_stats *st)
{
	uint64_t per[256];
	const int k = T < 256 ? T : 256;
	for (int t = 0; t < k; t++)
		per[t] = sl[t].work;
	qsort(per, (size_t)k, sizeof *per, cmp_u64);
	st->work_min = per[0];
	st->work_max = per[k - 1];
	st->work_median = (k & 1) ? per[k / 2] : (per[k / 2 - 1] + per[k / 2]) / 2;
}

int ordo_frontier_run(const struct ordo_frontier_opts *o, uint32_t n, uint64_t m,
                      const uint32_t *initial, uint64_t n0, const struct ordo_frontier_ops *ops,
                      void *user, struct ordo_frontier_stats *st, struct ordo_err *err)
{
	const int T = o->topo->nthreads;
	const double alpha = o->alpha > 0 ? o->alpha : ORDO_FRONTIER_ALPHA;
	const double beta = o->beta > 0 ? o->beta : ORDO_FRONTIER_BETA;
	const size_t words = ((size_t)n + 63) / 64 + 1;
	struct ordo_frontier_run_state rs = {
	    .queue = ordo_alloc_huge(((size_t)n + 1) * sizeof(uint32_t)),
	    .next = ordo_alloc_huge(((size_t)n + 1) * sizeof(uint32_t)),
	    .bits = calloc(words, sizeof(uint64_t)),
	    .nbits = calloc(words, sizeof(uint64_t)),
	    .seen = calloc(words, sizeof(uint64_t)),
	};
	struct slot *sl = ordo_calloc_aligned((size_t)T, sizeof *sl);
	uint32_t *bufs = malloc((size_t)T * ORDO_FRONTIER_CHUNK * sizeof *bufs);
	if (!rs.queue || !rs.next || !rs.bits || !rs.nbits || !rs.seen || !sl || !bufs) {
		free(rs.queue), free(rs.next), free(rs.bits), free(rs.nbits), free((void *)rs.seen);
		free(sl), free(bufs);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory for the frontier of %u nodes",
		                    n);
	}
	memcpy(rs.queue, initial, n0 * sizeof *initial);
	atomic_store_explicit(&rs.nlen, 0, memory_order_relaxed);
	/* shared state, written by the deciding thread only, between barriers */
	uint64_t qlen = n0, scout = 0, unexplored = m, awake = n0, old_awake = 0;
	for (uint64_t i = 0; i < n0; i++) {
		scout += ops->degree(initial[i], user);
		atomic_fetch_or_explicit(&rs.seen[initial[i] >> 6], 1ull << (initial[i] & 63),
		                         memory_order_relaxed);
	}
	bool pull = false, over = n0 == 0;
	uint32_t rounds_push = 0, rounds_pull = 0;
	int got = 0;
	double t0 = 0, t1 = 0;
	omp_set_dynamic(0);
#pragma omp parallel num_threads(T)
	{
		const int tid = omp_get_thread_num();
#pragma omp single
		{
			got = omp_get_num_threads();
			t0 = ordo_now();
		}
		struct ordo_frontier_tctx fx = {.buf = bufs + (size_t)tid * ORDO_FRONTIER_CHUNK,
		                                .run = &rs,
		                                .ops = ops,
		                                .user = user,
		                                .tid = tid};
		for (uint32_t round = 0; got == T && !over; round++) {
			/* the rule (one thread), then the form's conversion if it changes */
#pragma omp single
			{
				bool to_pull = false, to_push = false;
				if (!pull) {
					to_pull = o->direction == ORDO_FRONTIER_PULL ||
					          (o->direction == ORDO_FRONTIER_AUTO &&
					           (double)scout > (double)unexplored / alpha);
					if (!to_pull)
						unexplored -=
						    scout < unexplored ? scout : unexplored;
				} else {
					to_push = o->direction == ORDO_FRONTIER_AUTO &&
					          awake < old_awake &&
					          (double)awake < (double)n / beta;
				}
				if (to_pull) {
					memset(rs.bits, 0, words * sizeof *rs.bits);
					for (uint64_t i = 0; i < qlen; i++)
						rs.bits[rs.queue[i] >> 6] |= 1ull
						                             << (rs.queue[i] & 63);
					pull = true;
					old_awake = 0;
					awake = qlen;
				} else if (to_push) {
					qlen = 0;
					for (size_t w = 0; w < words; w++)
						for (uint64_t b = rs.bits[w]; b; b &= b - 1)
							rs.queue[qlen++] =
							    (uint32_t)(w * 64 +
							               (unsigned)__builtin_ctzll(
							                   b));
					pull = false;
					scout = 1; /* as GAPBS: do not turn straight back */
				}
			}
			fx.round = round;
			fx.added = fx.scout = 0;
			uint64_t arcs = 0;
			if (pull) {
				fx.in = rs.bits;
				fx.next_bits = rs.nbits;
#pragma omp for schedule(dynamic, 16)
				for (size_t w = 0; w < words - 1; w++) {
					rs.nbits[w] = 0;
					const uint32_t lo = (uint32_t)(w * 64);
					const uint64_t seen =
					    atomic_load_explicit(&rs.seen[w], memory_order_relaxed);
					/* the nodes of this word not seen yet, below n */
					uint64_t todo =
					    ~seen & (n - lo >= 64 ? ~0ull : (1ull << (n - lo)) - 1);
					for (; todo; todo &= todo - 1)
						arcs += ops->pull(
						    &fx, lo + (uint32_t)__builtin_ctzll(todo),
						    user);
					if (rs.nbits[w]) /* this word is ours this round */
						atomic_store_explicit(&rs.seen[w],
						                      seen | rs.nbits[w],
						                      memory_order_relaxed);
				}
			} else {
				fx.in = NULL;
				fx.next_bits = NULL;
#pragma omp for schedule(dynamic, 64)
				for (uint64_t i = 0; i < qlen; i++)
					arcs += ops->push(&fx, rs.queue[i], user);
				if (fx.nbuf)
					ordo_frontier_flush(&fx);
			}
			struct slot *me = &sl[tid];
			me->added += fx.added;
			me->arcs += arcs;
			me->work += fx.added + arcs;
			me->round_added = fx.added;
			me->round_scout = fx.scout;
#pragma omp barrier
#pragma omp single
			{
				uint64_t add = 0, sc = 0;
				for (int t = 0; t < T; t++) {
					add += sl[t].round_added;
					sc += sl[t].round_scout;
				}
				if (pull) {
					rounds_pull++;
					uint64_t *x = rs.bits;
					rs.bits = rs.nbits, rs.nbits = x;
					old_awake = awake;
					awake = add;
				} else {
					rounds_push++;
					uint32_t *x = rs.queue;
					rs.queue = rs.next, rs.next = x;
					qlen = atomic_load_explicit(&rs.nlen, memory_order_relaxed);
					atomic_store_explicit(&rs.nlen, 0, memory_order_relaxed);
				}
				scout = sc;
				over = add == 0;
			}
		}
#pragma omp single
		t1 = ordo_now();
	}
	int rc = 0;
	if (got != T)
		rc = ordo_err_set(err, ORDO_EINVAL, "asked for %d threads, OpenMP gave %d", T, got);
	else if (st) {
		memset(st, 0, sizeof *st);
		st->seconds = t1 - t0;
		st->rounds_push = rounds_push;
		st->rounds_pull = rounds_pull;
		st->threads = T;
		for (int t = 0; t < T; t++) {
			st->added += sl[t].added;
			st->arcs += sl[t].arcs;
		}
		work_spread(sl, T, st);
	}
	free(rs.queue), free(rs.next), free(rs.bits), free(rs.nbits), free((void *)rs.seen);
	free(sl), free(bufs);
	return rc;
}
