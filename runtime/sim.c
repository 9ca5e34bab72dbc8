/*
 * sim.c - the linearized executor (ordo_exec_opts.sim; issue 47): one OS thread runs P
 * virtual workers over the real scheduler and the real operator, one operation at a
 * time, as in the SMQ paper's model (a stochastic scheduler picks thread i with
 * probability pi_i at each step, and each operation is atomic).
 *
 * A step draws a worker from the distribution (struct ordo_sim) and runs its next
 * operation whole: a worker holding no task pops (a failed pop calls the scheduler's
 * flush hook), a worker holding one runs it and pushes its children. Every worker has
 * its own context (tid 0..P-1, its RNG seeded from (seed, tid) as in a real run), so
 * the scheduler sees P workers; nothing runs concurrently, so the run is a function of
 * the seed. The run ends when no task is queued or held. There is no prefetch pipeline
 * (a worker holds one task between its pop and its run: a real run with --lookahead 0)
 * and no seats; a task's own loop (ordo_task_loop) runs inline.
 *
 * Rank error: a shadow multiset of the queued tasks' priorities (a Fenwick tree over
 * the priority values, grown by doubling up to 2^SIM_RANK_BITS values): the rank of a
 * popped task is the number of queued tasks with a smaller priority. Priorities beyond
 * that range switch the measurement off for the run (stats say so).
 *
 * Delay: a second tree counts the pops per priority, and every queued task carries the
 * count of pops with a larger priority at its push (a table keyed by the task's
 * (prio, data); identical tasks leave in the order they came). Its delay is how many
 * such pops happened while it waited. Each pair (x waiting, y popped with a larger
 * priority) is counted once in y's rank and once in x's delay, so over a whole run the
 * two sums are equal (test_sim holds them to it); the maxima and histograms differ.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ordo_rng.h"
#include "ordo_scheduler.h"
#include "run.h"

#define SIM_RANK_BITS 24 /* 16 Mi priority values: 128 MiB of counters at most */

/* Order statistics over priorities 0 .. cap-1: Fenwick trees of the queued tasks'
 * priorities and of the popped ones'. */
struct shadow {
	uint64_t *fw;  /* 1-based Fenwick tree over cap values: queued tasks */
	uint64_t *fwp; /* likewise: pops so far */
	uint64_t cap;
	uint64_t popped; /* pops counted in fwp */
	bool off;        /* a priority past 2^SIM_RANK_BITS: no rank for this run */
};

static void fw_add(uint64_t *fw, uint64_t cap, uint64_t p, int64_t d)
{
	for (uint64_t i = p + 1; i <= cap; i += i & (~i + 1))
		fw[i] += (uint64_t)d;
}

/* the counts of the priorities below p */
static uint64_t fw_below(const uint64_t *fw, uint64_t cap, uint64_t p)
{
	uint64_t n = 0;
	for (uint64_t i = p < cap ? p : cap; i; i -= i & (~i + 1))
		n += fw[i];
	return n;
}

/* A tree over cap values holding old's counts (over old_cap values); NULL when out of
 * memory. */
static uint64_t *fw_regrow(const uint64_t *old, uint64_t old_cap, uint64_t cap)
{
	uint64_t *fw = calloc(cap + 1, sizeof *fw);
	if (!fw)
		return NULL;
	for (uint64_t v = 0; v < old_cap; v++) { /* the old counts, one value at a time */
		const uint64_t c = fw_below(old, old_cap, v + 1) - fw_below(old, old_cap, v);
		if (c)
			fw_add(fw, cap, v, (int64_t)c);
	}
	return fw;
}

/* Room for priority p: the trees double (rebuilt from their own counts). */
static bool shadow_fit(struct shadow *s, uint64_t p)
{
	if (s->off)
		return false;
	if (p < s->cap)
		return true;
	if (p >= (UINT64_C(1) << SIM_RANK_BITS)) {
		s->off = true;
		return false;
	}
	uint64_t cap = s->cap ? s->cap : 1024;
	while (cap <= p)
		cap *= 2;
	uint64_t *fw = fw_regrow(s->fw, s->cap, cap), *fwp = fw_regrow(s->fwp, s->cap, cap);
	if (!fw || !fwp) {
		free(fw);
		free(fwp);
		s->off = true;
		return false;
	}
	free(s->fw);
	free(s->fwp);
	s->fw = fw;
	s->fwp = fwp;
	s->cap = cap;
	return true;
}

/* pops so far of tasks with a priority above p (p < cap) */
static uint64_t shadow_larger_popped(const struct shadow *s, uint64_t p)
{
	return s->popped - fw_below(s->fwp, s->cap, p + 1);
}

static bool shadow_push(struct shadow *s, uint64_t p)
{
	if (!shadow_fit(s, p))
		return false;
	fw_add(s->fw, s->cap, p, 1);
	return true;
}

/* The popped task's rank, and it leaves the multiset. */
static uint64_t shadow_pop(struct shadow *s, uint64_t p)
{
	if (s->off || p >= s->cap)
		return 0;
	const uint64_t r = fw_below(s->fw, s->cap, p);
	fw_add(s->fw, s->cap, p, -1);
	fw_add(s->fwp, s->cap, p, 1);
	s->popped++;
	return r;
}

/* The queued tasks' marks (shadow_larger_popped at their push), by (prio, data): a
 * chained hash table over a pool of entries. Among identical tasks the pop takes the
 * smallest mark, the one queued first (marks never decrease over a run). */
struct mark {
	uint64_t prio, data, mark;
	uint32_t next; /* 1-based index in the pool, 0: none */
};
struct marks {
	struct mark *pool;
	uint32_t *bucket; /* chain heads, 1-based; as many buckets as pool entries */
	uint32_t free;    /* free list through next, 1-based */
	uint64_t cap;
	bool off; /* out of memory or 2^31 queued tasks: no delays for this run */
};

static uint64_t marks_slot(const struct marks *m, uint64_t prio, uint64_t data)
{
	uint64_t h = (prio * UINT64_C(0x9e3779b97f4a7c15)) ^ data;
	h ^= h >> 29;
	h *= UINT64_C(0xbf58476d1ce4e5b9);
	h ^= h >> 32;
	return h & (m->cap - 1);
}

/* Twice the entries and buckets, every chain rebuilt. */
static bool marks_grow(struct marks *m)
{
	const uint64_t old = m->cap, cap = old ? old * 2 : 4096;
	struct mark *pool = cap < (UINT64_C(1) << 31) ? realloc(m->pool, cap * sizeof *pool) : NULL;
	uint32_t *bucket = pool ? calloc(cap, sizeof *bucket) : NULL;
	if (!bucket) {
		if (pool)
			m->pool = pool;
		return false;
	}
	m->pool = pool;
	m->cap = cap;
	for (uint64_t b = 0; b < old; b++) /* the queued entries into the new chains */
		for (uint32_t e = m->bucket[b], nx; e; e = nx) {
			nx = pool[e - 1].next;
			const uint64_t h = marks_slot(m, pool[e - 1].prio, pool[e - 1].data);
			pool[e - 1].next = bucket[h];
			bucket[h] = e;
		}
	for (uint64_t i = old; i < cap; i++) /* the new entries onto the free list */
		pool[i].next = i + 1 < cap ? (uint32_t)(i + 2) : m->free;
	m->free = (uint32_t)old + 1;
	free(m->bucket);
	m->bucket = bucket;
	return true;
}

static void marks_put(struct marks *m, uint64_t prio, uint64_t data, uint64_t mark)
{
	if (m->off || (!m->free && !marks_grow(m))) {
		m->off = true;
		return;
	}
	const uint32_t e = m->free;
	struct mark *x = &m->pool[e - 1];
	m->free = x->next;
	const uint64_t h = marks_slot(m, prio, data);
	*x = (struct mark){prio, data, mark, m->bucket[h]};
	m->bucket[h] = e;
}

/* The mark of the first-queued task equal to (prio, data), which leaves the table. */
static bool marks_take(struct marks *m, uint64_t prio, uint64_t data, uint64_t *mark)
{
	if (m->off)
		return false;
	uint32_t *link = &m->bucket[marks_slot(m, prio, data)], *best = NULL;
	for (; *link; link = &m->pool[*link - 1].next) {
		const struct mark *x = &m->pool[*link - 1];
		if (x->prio == prio && x->data == data &&
		    (!best || x->mark < m->pool[*best - 1].mark))
			best = link;
	}
	if (!best)
		return false;
	const uint32_t e = *best;
	*mark = m->pool[e - 1].mark;
	*best = m->pool[e - 1].next;
	m->pool[e - 1].next = m->free;
	m->free = e;
	return true;
}

/* The scheduling distribution: cumulative weights per worker, or a window of `cores`
 * running workers that moves every `slice` steps (oversubscription). */
struct draw {
	double *cum; /* cum[i]: weights of workers 0..i */
	int P, cores;
	uint32_t slice;
	uint64_t steps;
};

static bool draw_init(struct draw *d, const struct ordo_sim *s, int P, uint64_t seed)
{
	memset(d, 0, sizeof *d);
	d->P = P;
	d->cores = s->cores > 0 && s->cores < P ? s->cores : 0;
	d->slice = s->slice ? s->slice : 1000;
	if (s->gamma <= 0 && s->slow <= 0)
		return true; /* uniform */
	d->cum = malloc((size_t)P * sizeof *d->cum);
	if (!d->cum)
		return false;
	struct ordo_rng rng;
	ordo_rng_seed(&rng, seed, UINT64_C(0x51ed));
	double acc = 0;
	for (int i = 0; i < P; i++) {
		double w = 1;
		if (s->gamma > 0) { /* 1 / (pi_i P) within about [1 - gamma, 1 + gamma] */
			const double u =
			    2.0 * (double)ordo_rng_below(&rng, 1u << 30) / (1u << 30) - 1;
			w = 1.0 / (1.0 + s->gamma * u);
		}
		if (i < s->slow)
			w *= s->f;
		d->cum[i] = acc += w;
	}
	return true;
}

static int draw_next(struct draw *d, struct ordo_rng *rng)
{
	d->steps++;
	if (d->cores) { /* the running window: cores workers from (step / slice) * cores */
		const uint64_t first = (d->steps / d->slice) * (uint64_t)d->cores;
		return (int)((first + ordo_rng_below(rng, (uint64_t)d->cores)) % (uint64_t)d->P);
	}
	if (!d->cum)
		return (int)ordo_rng_below(rng, (uint64_t)d->P);
	const double x =
	    (double)ordo_rng_below(rng, UINT64_C(1) << 53) / 9007199254740992.0 * d->cum[d->P - 1];
	int lo = 0, hi = d->P - 1;
	while (lo < hi) {
		const int mid = (lo + hi) / 2;
		if (d->cum[mid] > x)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

struct vworker {
	struct ordo_task task;
	bool held;
	uint64_t steps;
};

struct sim {
	const struct run
	    *r; /* the executor's own (run.h): options, scheduler, operator, contexts */
	struct vworker *v;
	struct shadow sh;
	struct marks marks;
	struct ordo_sim_stats *st;
	uint64_t pending; /* tasks queued or held */
};

/* Worker i pushes what its last task made (or its initial slice). */
static void sim_push(struct sim *s, struct ordo_tctx *c, const struct ordo_task *t, uint32_t n)
{
	for (uint32_t k = 0; k < n; k++)
		if (shadow_push(&s->sh, t[k].prio))
			marks_put(&s->marks, t[k].prio, t[k].data,
			          shadow_larger_popped(&s->sh, t[k].prio));
	s->pending += n;
	c->pushes += n;
	s->r->ops->push(s->r->wl, c, t, n);
}

static unsigned log2_bin(uint64_t x)
{
	return x ? 64u - (unsigned)__builtin_clzll(x) : 0u;
}

/* A pop's rank and the popped task's delay. */
static void sim_measure(struct sim *s, const struct ordo_task *t)
{
	struct ordo_sim_stats *st = s->st;
	st->pops++;
	if (s->sh.off || t->prio >= s->sh.cap)
		return;
	uint64_t mark;
	const bool known = marks_take(&s->marks, t->prio, t->data, &mark);
	const uint64_t r = shadow_pop(&s->sh, t->prio);
	st->rank_sum += r;
	st->rank_max = r > st->rank_max ? r : st->rank_max;
	st->rank_hist[log2_bin(r)]++;
	if (!known) { /* with the table on: a task the scheduler never took in */
		st->unmatched += !s->marks.off;
		return;
	}
	const uint64_t d = shadow_larger_popped(&s->sh, t->prio) - mark;
	st->delay_sum += d;
	st->delay_max = d > st->delay_max ? d : st->delay_max;
	st->delay_hist[log2_bin(d)]++;
}

/* One atomic operation of worker i: false when it was a failed pop. */
static bool sim_step(struct sim *s, int i)
{
	const struct run *r = s->r;
	struct ordo_tctx *c = r->ctx[i];
	struct vworker *w = &s->v[i];
	w->steps++;
	if (!w->held) {
		if (!r->ops->pop(r->wl, c, &w->task)) {
			c->failed_pops++;
			if (r->ops->flush)
				r->ops->flush(r->wl, c);
			return false;
		}
		w->held = true;
		sim_measure(s, &w->task);
		return true;
	}
	w->held = false;
	const bool useful = r->op(c, &w->task, r->user);
	c->tasks++;
	c->empty += !useful;
	s->pending--;
	if (c->npush) {
		const uint32_t n = c->npush;
		c->npush = 0;
		sim_push(s, c, c->pushbuf, n);
	}
	return true;
}

/* Consecutive failed pops, with tasks pending, after which the scheduler has lost them. */
static uint64_t stuck_limit(int P)
{
	return (uint64_t)P * 4096 + (UINT64_C(1) << 22);
}

int sim_run(const struct run *r, const struct ordo_task *initial, uint64_t n,
            struct ordo_sim_stats *st, struct ordo_err *err)
{
	const struct ordo_exec_opts *o = r->o;
	struct ordo_tctx **ctx = r->ctx;
	const int P = r->T;
	struct sim s = {r, calloc((size_t)P, sizeof *s.v), {0}, {0}, st, 0};
	struct draw d;
	if (!s.v || !draw_init(&d, o->sim, P, o->seed)) {
		free(s.v);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory for the simulation");
	}
	memset(st, 0, sizeof *st);
	for (int t = 0; t < P; t++) { /* worker t seeds slice t, as in a real run */
		const uint64_t lo = n * (uint64_t)t / (uint64_t)P,
		               hi = n * (uint64_t)(t + 1) / (uint64_t)P;
		for (uint64_t b = lo; b < hi; b += 4096) /* in the executor's batches */
			sim_push(&s, ctx[t], initial + b,
			         (uint32_t)(hi - b < 4096 ? hi - b : 4096));
	}
	struct ordo_rng rng;
	ordo_rng_seed(&rng, o->seed, UINT64_C(0x5eed));
	int rc = 0;
	uint64_t fails = 0;
	while (s.pending) {
		const int i = draw_next(&d, &rng);
		fails = sim_step(&s, i) ? 0 : fails + 1;
		st->steps++;
		if (ctx[i]->push_oom) {
			rc = ordo_err_set(err, ORDO_ENOMEM, "out of memory in the scheduler");
			break;
		}
		if (fails > stuck_limit(P)) {
			rc = ordo_err_set(err, ORDO_ESCHEDULER,
			                  "%s lost tasks: %llu pending, %llu pops in a row failed",
			                  r->ops->name, (unsigned long long)s.pending,
			                  (unsigned long long)fails);
			break;
		}
		if ((st->steps & 0xfff) == 0 && o->cancel &&
		    atomic_load_explicit(o->cancel, memory_order_relaxed)) {
			rc = ordo_err_set(err, ORDO_ECANCELED, "canceled");
			break;
		}
	}
	st->ranked = !s.sh.off;
	st->delayed = !s.sh.off && !s.marks.off;
	st->workers = P;
	for (int t = 0; t < P && t < ORDO_STATS_THREADS; t++) {
		st->worker_steps[t] = s.v[t].steps;
		st->worker_tasks[t] = ctx[t]->tasks;
	}
	free(s.sh.fw);
	free(s.sh.fwp);
	free(s.marks.pool);
	free(s.marks.bucket);
	free(s.v);
	free(d.cum);
	return rc;
}

/* One key=value of a --sim spec into *sim; 0 or an error naming the key. */
static int sim_key(const char *k, size_t klen, const char *v, int P, struct ordo_sim *sim,
                   struct ordo_err *err)
{
	char *end;
	const double x = strtod(v, &end);
	if (end == v || (*end && *end != ','))
		return ordo_err_set(err, ORDO_EINVAL, "--sim: %.*s=%s: expected a number",
		                    (int)klen, k, v);
#define SIM_IS(name) (klen == sizeof(name) - 1 && !strncmp(k, name, klen))
	if (SIM_IS("gamma") && x >= 0 && x < 1)
		sim->gamma = x;
	else if (SIM_IS("slow") && x >= 0 && x <= P && x == (int)x)
		sim->slow = (int)x;
	else if (SIM_IS("f") && x > 0 && x <= 1e6)
		sim->f = x;
	else if (SIM_IS("cores") && x >= 1 && x <= P && x == (int)x)
		sim->cores = (int)x;
	else if (SIM_IS("slice") && x >= 1 && x <= 1e9 && x == (uint32_t)x)
		sim->slice = (uint32_t)x;
	else
		return ordo_err_set(
		    err, ORDO_EINVAL,
		    "--sim: %.*s=%s: expected gamma in [0, 1), slow 0..P workers, f in "
		    "(0, 1e6], cores 1..P, slice 1..1e9",
		    (int)klen, k, v);
#undef SIM_IS
	return 0;
}

int ordo_sim_parse(const char *spec, int *workers, struct ordo_sim *sim, struct ordo_err *err)
{
	memset(sim, 0, sizeof *sim);
	sim->f = 0.1;
	char *end;
	const long P = strtol(spec, &end, 10);
	if (end == spec || P < 1 || P > ORDO_SIM_MAX || (*end && (*end != ':' || !end[1])))
		return ordo_err_set(err, ORDO_EINVAL,
		                    "--sim %s: expected P[:key=value,...], P workers 1..%d", spec,
		                    ORDO_SIM_MAX);
	*workers = (int)P;
	for (const char *p = *end ? end + 1 : end; *p;) {
		const char *eq = strchr(p, '='), *comma = strchr(p, ',');
		if (!eq || (comma && comma < eq))
			return ordo_err_set(err, ORDO_EINVAL,
			                    "--sim %s: expected key=value at '%s'", spec, p);
		int rc = sim_key(p, (size_t)(eq - p), eq + 1, (int)P, sim, err);
		if (rc)
			return rc;
		p = comma ? comma + 1 : p + strlen(p);
	}
	return 0;
}

int ordo_sim_describe(const struct ordo_sim *sim, int workers, char *buf, size_t size)
{
	int n = snprintf(buf, size, "%d", workers);
	const char *sep = ":";
	if (sim->gamma > 0)
		n += snprintf(buf + n, n < (int)size ? size - (size_t)n : 0, "%sgamma=%g", sep,
		              sim->gamma),
		    sep = ",";
	if (sim->slow > 0)
		n += snprintf(buf + n, n < (int)size ? size - (size_t)n : 0, "%sslow=%d,f=%g", sep,
		              sim->slow, sim->f),
		    sep = ",";
	if (sim->cores > 0)
		n += snprintf(buf + n, n < (int)size ? size - (size_t)n : 0, "%scores=%d,slice=%u",
		              sep, sim->cores, sim->slice ? sim->slice : 1000);
	return n;
}
