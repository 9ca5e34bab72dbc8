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
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ordo_rng.h"
#include "ordo_scheduler.h"
#include "run.h"

#define SIM_RANK_BITS 24 /* 16 Mi priority values: 128 MiB of counters at most */

/* Order statistics over priorities 0 .. cap-1: counts in a Fenwick tree. */
struct shadow {
	uint64_t *fw; /* 1-based Fenwick tree over cap values */
	uint64_t cap;
	bool off; /* a priority past 2^SIM_RANK_BITS: no rank for this run */
};

static void fw_add(struct shadow *s, uint64_t p, int64_t d)
{
	for (uint64_t i = p + 1; i <= s->cap; i += i & (~i + 1))
		s->fw[i] += (uint64_t)d;
}

/* queued tasks with a priority below p */
static uint64_t fw_below(const struct shadow *s, uint64_t p)
{
	uint64_t n = 0;
	for (uint64_t i = p < s->cap ? p : s->cap; i; i -= i & (~i + 1))
		n += s->fw[i];
	return n;
}

/* Room for priority p: the tree doubles (rebuilt from its own counts). */
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
	uint64_t *fw = calloc(cap + 1, sizeof *fw);
	if (!fw) {
		s->off = true;
		return false;
	}
	for (uint64_t v = 0; v < s->cap; v++) { /* the old counts, one value at a time */
		const uint64_t c = fw_below(s, v + 1) - fw_below(s, v);
		if (c)
			for (uint64_t i = v + 1; i <= cap; i += i & (~i + 1))
				fw[i] += c;
	}
	free(s->fw);
	s->fw = fw;
	s->cap = cap;
	return true;
}

static void shadow_push(struct shadow *s, uint64_t p)
{
	if (shadow_fit(s, p))
		fw_add(s, p, 1);
}

/* The popped task's rank, and it leaves the multiset. */
static uint64_t shadow_pop(struct shadow *s, uint64_t p)
{
	if (s->off || p >= s->cap)
		return 0;
	const uint64_t r = fw_below(s, p);
	fw_add(s, p, -1);
	return r;
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
	struct ordo_sim_stats *st;
	uint64_t pending; /* tasks queued or held */
};

/* Worker i pushes what its last task made (or its initial slice). */
static void sim_push(struct sim *s, struct ordo_tctx *c, const struct ordo_task *t, uint32_t n)
{
	for (uint32_t k = 0; k < n; k++)
		shadow_push(&s->sh, t[k].prio);
	s->pending += n;
	c->pushes += n;
	s->r->ops->push(s->r->wl, c, t, n);
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
		const uint64_t r = shadow_pop(&s->sh, w->task.prio);
		s->st->rank_sum += r;
		s->st->rank_max = r > s->st->rank_max ? r : s->st->rank_max;
		s->st->rank_hist[r ? 64 - __builtin_clzll(r) : 0]++;
		s->st->pops++;
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
	struct sim s = {r, calloc((size_t)P, sizeof *s.v), {0}, st, 0};
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
	st->workers = P;
	for (int t = 0; t < P && t < ORDO_STATS_THREADS; t++)
		st->worker_steps[t] = s.v[t].steps;
	free(s.sh.fw);
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
