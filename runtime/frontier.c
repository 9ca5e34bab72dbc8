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

/* per worker, on its own line */
struct slot {
	alignas(64) uint64_t added, arcs, work; /* the whole run */
	uint64_t round_added, round_scout;      /* the last round */
	/* rounds this worker finished: written before the round's barrier, read by the
	 * deciding thread after it (relaxed: the barrier orders them), which checks that
	 * every worker finished the round it decides on */
	_Atomic uint32_t rounds_done;
};

/* The arrays of a run, kept between runs of one graph (their first touch would
 * otherwise fault in and zero every page inside each timed run). */
struct ordo_frontier_space {
	uint32_t n;
	int T;
	size_t words;
	uint32_t *queue, *next;
	uint64_t *bits, *nbits;
	/* every node that has been in a frontier, so that a pull round hands the operator
	 * only the others: set by the deciding thread after each push round (plain stores:
	 * atomic ones from the workers fought over the lines of neighbouring nodes), and
	 * by a word's owner in pull rounds */
	uint64_t *seen;
	uint64_t qlen; /* the frontier a hand-off left in queue */
	struct slot *sl;
	uint32_t *bufs;
};

struct ordo_frontier_run_state {
	uint32_t *queue, *next;
	_Atomic uint64_t nlen;
	uint64_t *bits, *nbits, *seen;
};

uint64_t ordo_frontier_space_work(const struct ordo_frontier_space *s, int t)
{
	return t >= 0 && t < s->T ? s->sl[t].work : 0;
}

const uint32_t *ordo_frontier_space_left(const struct ordo_frontier_space *s, uint64_t *len)
{
	*len = s->qlen;
	return s->queue;
}

void ordo_frontier_space_free(struct ordo_frontier_space *s)
{
	if (!s)
		return;
	free(s->queue), free(s->next), free(s->bits), free(s->nbits), free(s->seen);
	free(s->sl), free(s->bufs);
	free(s);
}

int ordo_frontier_space_create(uint32_t n, int threads, struct ordo_frontier_space **out,
                               struct ordo_err *err)
{
	*out = NULL;
	struct ordo_frontier_space *s = calloc(1, sizeof *s);
	if (!s)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	s->n = n;
	s->T = threads;
	s->words = ((size_t)n + 63) / 64 + 1;
	s->queue = ordo_alloc_huge(((size_t)n + 1) * sizeof *s->queue);
	s->next = ordo_alloc_huge(((size_t)n + 1) * sizeof *s->next);
	s->bits = calloc(s->words, sizeof *s->bits);
	s->nbits = calloc(s->words, sizeof *s->nbits);
	s->seen = calloc(s->words, sizeof *s->seen);
	s->sl = ordo_calloc_aligned((size_t)threads, sizeof *s->sl);
	s->bufs = malloc((size_t)threads * ORDO_FRONTIER_CHUNK * sizeof *s->bufs);
	if (!s->queue || !s->next || !s->bits || !s->nbits || !s->seen || !s->sl || !s->bufs) {
		ordo_frontier_space_free(s);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory for the frontier of %u nodes",
		                    n);
	}
	/* touched now, by the threads that will use them */
#pragma omp parallel for num_threads(threads) schedule(static)
	for (size_t i = 0; i <= n; i++)
		s->queue[i] = s->next[i] = 0;
	*out = s;
	return 0;
}

void ordo_frontier_flush(struct ordo_frontier_tctx *fx)
{
	const uint64_t at =
	    atomic_fetch_add_explicit(&fx->run->nlen, fx->nbuf, memory_order_relaxed);
	memcpy(fx->run->next + at, fx->buf, fx->nbuf * sizeof *fx->buf);
	fx->nbuf = 0;
}

/* The rule's state, written by one thread (an omp single) between barriers. */
struct decide {
	uint64_t qlen;             /* sparse frontier's length (push rounds) */
	uint64_t scout;            /* arcs out of the frontier */
	uint64_t unexplored;       /* arcs not yet scouted (Beamer's m_u) */
	uint64_t awake, old_awake; /* dense frontier's size now and a round ago */
	uint64_t handed;           /* nodes left to the caller (a hand-off) */
	uint32_t rounds_push, rounds_pull;
	bool pull, over, canceled;
	int early;           /* >= 0: a worker that had not finished a round decided on */
	uint32_t early_done; /* its count of finished rounds then */
};

/* Before a round: Beamer's rule (push -> pull when the frontier's arcs exceed the
 * unexplored arcs / alpha; pull -> push when the frontier shrinks below n / beta), and
 * the frontier converted to the new form. One thread. */
static void choose_direction(const struct ordo_frontier_opts *o, uint32_t n, size_t words,
                             double alpha, double beta, struct ordo_frontier_run_state *rs,
                             struct decide *D)
{
	bool to_pull = false, to_push = false;
	if (!D->pull) {
		to_pull = o->direction == ORDO_FRONTIER_PULL ||
		          (o->direction == ORDO_FRONTIER_AUTO &&
		           (double)D->scout > (double)D->unexplored / alpha);
		if (!to_pull)
			D->unexplored -= D->scout < D->unexplored ? D->scout : D->unexplored;
	} else {
		to_push = o->direction == ORDO_FRONTIER_AUTO && D->awake < D->old_awake &&
		          (double)D->awake < (double)n / beta;
	}
	if (to_pull) {
		memset(rs->bits, 0, words * sizeof *rs->bits);
		for (uint64_t i = 0; i < D->qlen; i++)
			rs->bits[rs->queue[i] >> 6] |= 1ull << (rs->queue[i] & 63);
		D->pull = true;
		D->old_awake = 0;
		D->awake = D->qlen;
	} else if (to_push) {
		D->qlen = 0;
		for (size_t w = 0; w < words; w++)
			for (uint64_t b = rs->bits[w]; b; b &= b - 1)
				rs->queue[D->qlen++] =
				    (uint32_t)(w * 64 + (unsigned)__builtin_ctzll(b));
		D->pull = false;
		D->scout = 1; /* as GAPBS: do not turn straight back */
	}
}

/* One round's share of this thread (inside the parallel region: the loops are the
 * region's work-sharing loops): pull scans the unvisited nodes' in-arcs word by word,
 * push the frontier's out-arcs. Returns the arcs this thread examined. */
static inline uint64_t round_share(const struct ordo_frontier_ops *ops, void *user, uint32_t n,
                                   size_t words, uint64_t qlen, bool pull,
                                   struct ordo_frontier_run_state *rs,
                                   struct ordo_frontier_tctx *fx)
{
	uint64_t arcs = 0;
	if (pull) {
		fx->in = rs->bits;
		fx->next_bits = rs->nbits;
#pragma omp for schedule(dynamic, 16) nowait
		for (size_t w = 0; w < words - 1; w++) {
			rs->nbits[w] = 0;
			const uint32_t lo = (uint32_t)(w * 64);
			/* the word's nodes below n not in a frontier yet */
			const uint64_t todo =
			    ~rs->seen[w] & (n - lo >= 64 ? ~0ull : (1ull << (n - lo)) - 1);
			if (todo)
				arcs += ops->pull(fx, lo, todo, user);
			rs->seen[w] |= rs->nbits[w];
		}
	} else {
		fx->in = NULL;
		fx->next_bits = NULL;
		/* chunks of the frontier handed out dynamically: degrees are skewed */
		const uint64_t C = ORDO_FRONTIER_PUSH_CHUNK;
		if (ops->push_nodes) { /* one call per chunk: the operator's loop, inlined */
			const uint64_t chunks = (qlen + C - 1) / C;
#pragma omp for schedule(dynamic, 1) nowait
			for (uint64_t c = 0; c < chunks; c++) {
				const uint64_t lo = c * C;
				const uint32_t k = (uint32_t)(qlen - lo < C ? qlen - lo : C);
				arcs += ops->push_nodes(fx, rs->queue + lo, k, user);
			}
		} else {
#pragma omp for schedule(dynamic, ORDO_FRONTIER_PUSH_CHUNK) nowait
			for (uint64_t i = 0; i < qlen; i++)
				arcs += ops->push(fx, rs->queue[i], user);
		}
		if (fx->nbuf)
			ordo_frontier_flush(fx);
	}
	return arcs;
}

/* After a round: the threads' counts summed, the next frontier made current, and
 * whether the run is over (no node added, a caller's stop, or a hand-off of a long
 * tail of small push rounds: on a high-diameter graph the rounds' barriers cost more
 * than they save, so the frontier goes to the caller's asynchronous operator). One
 * thread. */
static void end_round(const struct ordo_frontier_opts *o, uint32_t n, uint32_t round, bool track,
                      const struct slot *sl, int T, struct ordo_frontier_run_state *rs,
                      struct decide *D)
{
	uint64_t add = 0, sc = 0;
	for (int t = 0; t < T; t++) {
		const uint32_t done =
		    atomic_load_explicit(&sl[t].rounds_done, memory_order_relaxed);
		if (done != round + 1 && D->early < 0) {
			/* a round decided before one of its workers finished it: the rounds'
			 * barrier is missing or broken; the run ends with an error, not a wrong
			 * frontier */
			D->early = t, D->early_done = done;
			D->over = true;
			return;
		}
		add += sl[t].round_added;
		sc += sl[t].round_scout;
	}
	if (D->pull) {
		D->rounds_pull++;
		uint64_t *x = rs->bits;
		rs->bits = rs->nbits, rs->nbits = x;
		D->old_awake = D->awake;
		D->awake = add;
	} else {
		D->rounds_push++;
		uint32_t *x = rs->queue;
		rs->queue = rs->next, rs->next = x;
		D->qlen = atomic_load_explicit(&rs->nlen, memory_order_relaxed);
		atomic_store_explicit(&rs->nlen, 0, memory_order_relaxed);
		for (uint64_t i = 0; track && i < D->qlen; i++)
			rs->seen[rs->queue[i] >> 6] |= 1ull << (rs->queue[i] & 63);
	}
	D->scout = sc;
	D->over = add == 0;
	if (!D->over && o->cancel && atomic_load_explicit(o->cancel, memory_order_relaxed))
		D->over = D->canceled = true;
	if (!D->over && !D->pull && o->handoff_round && round + 1 >= o->handoff_round &&
	    o->direction == ORDO_FRONTIER_AUTO &&
	    (double)D->qlen < (double)n * (o->handoff_share > 0 ? o->handoff_share
	                                                        : ORDO_FRONTIER_HANDOFF_SHARE)) {
		D->handed = D->qlen;
		D->over = true;
	}
}

static void fill_stats(const struct decide *D, const struct slot *sl, int T, double seconds,
                       struct ordo_frontier_stats *st)
{
	memset(st, 0, sizeof *st);
	st->seconds = seconds;
	st->rounds_push = D->rounds_push;
	st->rounds_pull = D->rounds_pull;
	st->handed_off = D->handed;
	st->threads = T;
	uint64_t *per = malloc((size_t)T * sizeof *per);
	for (int t = 0; t < T; t++) {
		st->added += sl[t].added;
		st->arcs += sl[t].arcs;
		if (per)
			per[t] = sl[t].work;
	}
	if (per)
		ordo_spread(per, (size_t)T, &st->work_min, &st->work_median, &st->work_max);
	free(per);
}

int ordo_frontier_run(const struct ordo_frontier_opts *o, uint32_t n, uint64_t m,
                      const uint32_t *initial, uint64_t n0, const struct ordo_frontier_ops *ops,
                      void *user, struct ordo_frontier_stats *st, struct ordo_err *err)
{
	const int T = o->topo->nthreads;
	const double alpha = o->alpha > 0 ? o->alpha : ORDO_FRONTIER_ALPHA;
	const double beta = o->beta > 0 ? o->beta : ORDO_FRONTIER_BETA;
	struct ordo_frontier_space *own = NULL, *sp = o->space;
	if (o->handoff_round && !sp) /* a handed-off frontier must outlive the run */
		return ordo_err_set(err, ORDO_EINVAL, "a hand-off needs a frontier space");
	if (sp && (sp->n != n || sp->T != T))
		return ordo_err_set(err, ORDO_EINVAL,
		                    "frontier space for %u nodes and %d threads, run on %u and %d",
		                    sp->n, sp->T, n, T);
	if (!sp) {
		int rc = ordo_frontier_space_create(n, T, &own, err);
		if (rc)
			return rc;
		sp = own;
	}
	const double t0 = ordo_now();
	const size_t words = sp->words;
	struct ordo_frontier_run_state rs = {.queue = sp->queue,
	                                     .next = sp->next,
	                                     .bits = sp->bits,
	                                     .nbits = sp->nbits,
	                                     .seen = sp->seen};
	struct slot *sl = sp->sl;
	uint32_t *bufs = sp->bufs;
	memset(sl, 0, (size_t)T * sizeof *sl);
	memset(rs.seen, 0, words * sizeof *rs.seen);
	/* a run that never pulls needs no record of who was seen */
	const bool track = o->direction != ORDO_FRONTIER_PUSH;
	memcpy(rs.queue, initial, n0 * sizeof *initial);
	atomic_store_explicit(&rs.nlen, 0, memory_order_relaxed);
	struct decide D = {.qlen = n0, .unexplored = m, .awake = n0, .over = n0 == 0, .early = -1};
	for (uint64_t i = 0; i < n0; i++) {
		D.scout += ops->degree(initial[i], user);
		rs.seen[initial[i] >> 6] |= 1ull << (initial[i] & 63);
	}
	int got = 0;
	double t1 = 0;
	omp_set_dynamic(0);
#pragma omp parallel num_threads(T)
	{
		const int tid = omp_get_thread_num();
#pragma omp single
		got = omp_get_num_threads();
		struct ordo_frontier_tctx fx = {.buf = bufs + (size_t)tid * ORDO_FRONTIER_CHUNK,
		                                .run = &rs};
#pragma omp single
		if (got == T && !D.over)
			choose_direction(o, n, words, alpha, beta, &rs, &D);
		for (uint32_t round = 0; got == T && !D.over; round++) {
			fx.round = round;
			fx.added = fx.scout = 0;
			const uint64_t arcs =
			    round_share(ops, user, n, words, D.qlen, D.pull, &rs, &fx);
			struct slot *me = &sl[tid];
			me->added += fx.added;
			me->arcs += arcs;
			me->work += fx.added + arcs;
			me->round_added = fx.added;
			me->round_scout = fx.scout;
			atomic_store_explicit(&me->rounds_done, round + 1, memory_order_relaxed);
#pragma omp barrier /* the loops are nowait: two barriers a round */
#pragma omp single
			{
				end_round(o, n, round, track, sl, T, &rs, &D);
				if (!D.over)
					choose_direction(o, n, words, alpha, beta, &rs, &D);
			}
		}
#pragma omp single
		t1 = ordo_now();
	}
	int rc = 0;
	if (got != T)
		rc = ordo_err_set(err, ORDO_EINVAL, "asked for %d threads, OpenMP gave %d", T, got);
	else if (D.canceled)
		rc = ordo_err_set(err, ORDO_ECANCELED, "interrupted: the rounds were stopped");
	else if (D.early >= 0)
		rc =
		    ordo_err_set(err, ORDO_EINVAL,
		                 "frontier: a round was decided before worker %d of %d finished it "
		                 "(it had finished %u rounds): the rounds' barrier did not hold",
		                 D.early, T, D.early_done);
	else if (st)
		fill_stats(&D, sl, T, t1 - t0, st);
	/* the last frontier (sparse after a push round), for a caller that takes over */
	sp->queue = rs.queue, sp->next = rs.next;
	sp->qlen = D.handed;
	ordo_frontier_space_free(own);
	return rc;
}
