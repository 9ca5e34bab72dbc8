/*
 * Targeted tests of what makes each scheduler tricky (the conformance suite covers the
 * common contract): SMQ's stolen batches and its version-word races, NUMA-weighted
 * sampling frequencies, sticky switching in the optimized MQ, RELD's owner-only
 * dequeue. Schedulers are driven directly through their ops with hand-made contexts,
 * or through the executor with many threads.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ordo_schedulers.h"
#include "perturb.h"
#include "wl_rig.h"

/* white-box access to the optimized MQ: its file, compiled here under another name */
#undef ORDO_SCHEDULER_DEFINE
#define ORDO_SCHEDULER_DEFINE(id, ...) \
	static const struct ordo_scheduler_ops test_copy_##id = {__VA_ARGS__}
#include "../worklists/mq_opt.c"

static void push1(struct rig *r, int t, uint64_t prio)
{
	struct ordo_task x = {prio, prio};
	r->wl.ops->push(r->wl.wl, r->ctx[t], &x, 1);
}

static uint64_t pop1(struct rig *r, int t)
{
	struct ordo_task x;
	cr_assert(r->wl.ops->pop(r->wl.wl, r->ctx[t], &x), "thread %d: pop failed", t);
	return x.prio;
}

Test(smq, a_stolen_batch_is_consumed_in_order)
{
	struct rig r;
	rig_init(&r, "smq:steal_size=4,steal_prob=1", 2, 0);
	struct ordo_task batch[20];
	for (uint64_t p = 10; p < 30; p++)
		batch[p - 10] = (struct ordo_task){p, p};
	/* one batch: the buffer is filled after it, with 10..13 (single pushes would have
	 * offered 10 alone: the buffer is refilled only once it is taken) */
	r.wl.ops->push(r.wl.wl, r.ctx[0], batch, 20);
	push1(&r, 1, 20); /* thread 1's own best is 20: 10 beats it */
	cr_assert_eq(pop1(&r, 1), 10, "steals the victim's best");
	cr_assert_eq(r.ctx[1]->wl_stat[0], 1, "one steal");
	cr_assert_eq(r.ctx[1]->wl_stat[1], 4, "four tasks stolen, not %llu (steals %llu)",
	             (unsigned long long)r.ctx[1]->wl_stat[1],
	             (unsigned long long)r.ctx[1]->wl_stat[0]);
	push1(&r, 1, 1); /* better than the batch, but the batch comes first */
	cr_assert_eq(pop1(&r, 1), 11);
	cr_assert_eq(pop1(&r, 1), 12);
	cr_assert_eq(pop1(&r, 1), 13);
	cr_assert_eq(pop1(&r, 1), 1);
	/* the victim continues with what was not stolen */
	cr_assert_eq(pop1(&r, 0), 14);
	rig_free(&r);
}

Test(smq, a_thief_only_steals_a_better_buffer)
{
	struct rig r;
	rig_init(&r, "smq:steal_size=2,steal_prob=1", 2, 0);
	push1(&r, 0, 50);
	push1(&r, 1, 5);
	cr_assert_eq(pop1(&r, 1), 5, "own 5 beats the victim's 50");
	cr_assert_eq(r.ctx[1]->wl_stat[0], 0);
	cr_assert_eq(pop1(&r, 1), 50, "empty: steals whatever there is");
	cr_assert_eq(r.ctx[1]->wl_stat[0], 1);
	struct ordo_task x;
	cr_assert(!r.wl.ops->pop(r.wl.wl, r.ctx[0], &x), "nothing left");
	rig_free(&r);
}

/* Many thieves hammer one owner's version word: with steal_prob=1 every pop of every
 * thread tries a steal; tasks are created by thread 0 only (one root, operator pushes
 * happen wherever the parent ran), and each must run exactly once. */
static _Atomic uint32_t *seen;
static bool fan(struct ordo_tctx *ctx, const struct ordo_task *t, void *user)
{
	uint64_t n = *(uint64_t *)user, id = t->data;
	atomic_fetch_add(&seen[id], 1);
	for (uint64_t c = 4 * id + 1; c <= 4 * id + 4 && c < n; c++)
		ordo_push(ctx, t->prio + 1 + (c & 7), c);
	return true;
}

Test(smq, version_word_races_lose_nothing, .timeout = 300)
{
	const char *specs[] = {"smq:steal_prob=1,steal_size=1", "smq:steal_prob=1,steal_size=3",
	                       "smq:steal_prob=2,steal_size=64"};
	uint64_t steals = 0, races = 0;
	/* every set of runs checks exactly-once; sets repeat (up to 30) until both the steal
	 * path and the race path have run, which scheduling makes likely but not certain in
	 * any one set */
	for (int set = 0; set < 30 && (!steals || !races); set++)
		for (int s = 0; s < 3; s++) {
			for (int T = 2; T <= 16; T *= 2) {
				struct rig r;
				rig_init(&r, specs[s], T, 0);
				uint64_t n = 200000;
				seen = calloc(n, sizeof *seen);
				struct ordo_task root = {0, 0};
				struct ordo_exec_opts o = {.topo = &r.topo, .seed = 9};
				struct ordo_run_stats st;
				struct ordo_err e = {0};
				cr_assert_eq(ordo_for_each(&o, r.wl.ops, r.wl.wl, &root, 1, fan, &n,
				                           &st, &e),
				             0);
				for (uint64_t i = 0; i < n; i++)
					cr_assert_eq(atomic_load(&seen[i]), 1, "%s T=%d: task %llu",
					             specs[s], T, (unsigned long long)i);
				steals += st.wl_stat[0];
				races += st.wl_stat[3];
				free(seen);
				rig_free(&r);
			}
		}
	/* whether a given run steals depends on scheduling (a loaded machine may let one
	 * thread do everything); over the runs some must have */
	cr_assert_gt(steals, 0, "no steal happened in any run");
	/* and the other path: a version that moved under a read, or a lost CAS whose copy
	 * was dropped (16 threads on this machine's 2 cores make them certain) */
	cr_assert_gt(races, 0, "no steal race happened in any run (%llu steals)",
	             (unsigned long long)steals);
	cr_log_info("smq races: %llu steals, %llu discarded reads or lost CASes",
	            (unsigned long long)steals, (unsigned long long)races);
}

/* guard=on: thread 0 pushes 100 tasks and then stops, as if descheduled. Thread 1, with
 * nothing of its own, steals the buffer's 8 and then fails pops until thread 0's beat
 * has stood still over 256 of them; from then on it pops thread 0's queue as a guest,
 * in order, 8 at a time. The children of a host's task that a guest runs go to the
 * host's queue, and the host, running again, takes its queue back. */
Test(smq, a_guest_pops_a_stalled_owners_queue)
{
	struct rig r;
	rig_init(&r, "smq:pq=bucket,guard=on,steal_prob=1048576", 2, 0);
	struct ordo_task batch[100];
	for (uint64_t p = 100; p < 200; p++)
		batch[p - 100] = (struct ordo_task){p, p};
	r.wl.ops->push(r.wl.wl, r.ctx[0], batch, 100);
	uint64_t next = 100, failed = 0;
	while (next < 200 && failed < 100000) {
		struct ordo_task x;
		if (!r.wl.ops->pop(r.wl.wl, r.ctx[1], &x)) {
			failed++;
			continue;
		}
		cr_assert_eq(x.prio, next, "task %llu, expected %llu: a guest pops in order",
		             (unsigned long long)x.prio, (unsigned long long)next);
		next++;
		if (next == 150) { /* a child of a host's task (of the batch 148..155) */
			struct ordo_task child = {5, 5};
			r.wl.ops->push(r.wl.wl, r.ctx[1], &child, 1);
			/* the host runs again: the child is its (the guest's own queue is
			 * empty), and the guest lets go, then finds it stalled again */
			cr_assert_eq(pop1(&r, 0), 5, "the child went to the host's queue");
		}
	}
	cr_assert_eq(next, 200, "the guest got %llu of the stalled owner's 100 tasks",
	             (unsigned long long)(next - 100));
	cr_assert_geq(failed, 256, "the guest waited for the beat to stand still");
	cr_assert_geq(r.ctx[1]->wl_stat[4], 100 / 8 - 3, "guest batches: %llu",
	              (unsigned long long)r.ctx[1]->wl_stat[4]);
	struct ordo_task x;
	cr_assert(!r.wl.ops->pop(r.wl.wl, r.ctx[0], &x), "nothing left at the host");
	cr_assert(!r.wl.ops->pop(r.wl.wl, r.ctx[1], &x), "nothing left at the guest");
	rig_free(&r);
}

/* guard=on, 2 threads: thread 0 pushes tasks 100..199 and stops; thread 1 pops until
 * it holds a batch taken as thread 0's guest (its host). */
static void guest_of_a_stalled_owner(struct rig *r)
{
	rig_init(r, "smq:pq=bucket,guard=on,steal_prob=1048576", 2, 0);
	struct ordo_task batch[100];
	for (uint64_t p = 100; p < 200; p++)
		batch[p - 100] = (struct ordo_task){p, p};
	r->wl.ops->push(r->wl.wl, r->ctx[0], batch, 100);
	struct ordo_task x;
	for (int tries = 0; r->ctx[1]->wl_stat[4] == 0 && tries < 100000; tries++)
		r->wl.ops->pop(r->wl.wl, r->ctx[1], &x);
	cr_assert_gt(r->ctx[1]->wl_stat[4], 0, "thread 1 never became thread 0's guest");
}

/* The children of a host's task that its guest runs go to the host's queue, all of
 * them: a guest's push of three children lands three tasks there, which the host,
 * running again, pops first (they beat everything else). */
Test(smq, a_guests_push_into_its_host_loses_nothing)
{
	struct rig r;
	guest_of_a_stalled_owner(&r);
	const struct ordo_task kids[3] = {{2, 1001}, {3, 1002}, {4, 1003}};
	r.wl.ops->push(r.wl.wl, r.ctx[1], kids, 3); /* children of a host's task */
	for (int k = 0; k < 3; k++)
		cr_assert_eq(pop1(&r, 0), (uint64_t)(2 + k),
		             "the host's queue lacks child %d of the three its guest pushed", k);
	rig_free(&r);
}

/* A guest takes its host's lock only while the host has not run since it was chosen:
 * it looks at the host's beat before its trylock and again under the lock. Here the
 * host runs and parks (its release hook: its lock, its beat, its queue handed over)
 * exactly between the guest's first look and its trylock, by a perturbation hook at
 * SMQ_HOST_LOCK: the guest's push of a child must not go into the parked host's queue,
 * where nobody would look (thieves skip parked workers). Needs the perturbation build
 * (perturb_test.sh runs it there); skipped, saying so, elsewhere. */
struct host_park {
	struct rig *r;
	struct ordo_handoff h;
	bool done;
};

static void host_parks(enum ordo_perturb_point p, void *arg)
{
	struct host_park *hp = arg;
	if (p != ORDO_PP_SMQ_HOST_LOCK || hp->done)
		return;
	hp->done = true;
	hp->r->wl.ops->release(hp->r->wl.wl, hp->r->ctx[0], &hp->h);
}

Test(smq, a_guest_never_pushes_into_a_host_that_parked_under_its_look)
{
	if (!ordo_perturb_built())
		cr_skip_test("needs the perturbation build's hook (-DORDO_PERTURB=ON; "
		             "tests/perturb_test.sh runs it there)");
	ordo_perturb_configure(1, 0); /* count visits, no delays */
	struct rig r;
	guest_of_a_stalled_owner(&r);
	struct ordo_task x;
	struct host_park hp = {.r = &r};
	cr_assert(ordo_perturb_set_hook(host_parks, &hp));
	struct ordo_task child = {1, 1000};
	r.wl.ops->push(r.wl.wl, r.ctx[1], &child, 1); /* a child of the host's task */
	ordo_perturb_set_hook(NULL, NULL);
	cr_assert(hp.done, "the guest's push did not look at its host's lock");
	struct ordo_handoff again = {0};
	r.wl.ops->release(r.wl.wl, r.ctx[0], &again);
	cr_assert_eq(again.n, 0,
	             "the guest pushed %zu task(s) into its host's queue after the host parked",
	             again.n);
	bool found = false;
	for (int k = 0; k < 1000 && !found; k++)
		found = r.wl.ops->pop(r.wl.wl, r.ctx[1], &x) && x.data == 1000;
	cr_assert(found, "the child is not in the guest's own queue");
	free(hp.h.t);
	free(again.t);
	rig_free(&r);
}

/* Two threads through SMQ's ops with guard=on: the owner pushes new tasks, pops and
 * now and then stops for 50-300 us, while the other pops as a thief and, while the
 * owner is stopped, as its guest; the owner comes back at any point of a guest's
 * batch. Every task must come out exactly once. */
enum { GUARD_TASKS = 300000 };
struct guard_race {
	struct rig r;
	_Atomic uint32_t *count;
	_Atomic uint64_t done;
	_Atomic bool stuck; /* no task taken for GUARD_STUCK_S: both threads stop */
};
#define GUARD_STUCK_S 10.0

static void guard_take(struct guard_race *g, int t)
{
	struct ordo_task x;
	if (g->r.wl.ops->pop(g->r.wl.wl, g->r.ctx[t], &x)) {
		atomic_fetch_add(&g->count[x.data], 1);
		atomic_fetch_add(&g->done, 1);
	}
}

static void *guard_owner(void *arg)
{
	struct guard_race *g = arg;
	struct ordo_task batch[256];
	uint64_t next = 0, round = 0;
	while (atomic_load(&g->done) < GUARD_TASKS && !atomic_load(&g->stuck)) {
		if (next < GUARD_TASKS) {
			uint32_t k = 0;
			for (; k < 256 && next < GUARD_TASKS; k++, next++)
				batch[k] = (struct ordo_task){ordo_hash2(9, next) >> 52, next};
			g->r.wl.ops->push(g->r.wl.wl, g->r.ctx[0], batch, k);
		}
		for (int i = 0; i < 64; i++)
			guard_take(g, 0);
		if (++round % 8 == 0) {
			struct timespec us = {0, 1000L * (50 + (long)(ordo_hash2(4, round) % 251))};
			nanosleep(&us, NULL);
		}
	}
	return NULL;
}

Test(smq, a_guest_and_its_returning_host_share_nothing, .timeout = 120)
{
	struct guard_race *g = calloc(1, sizeof *g);
	rig_init(&g->r, "smq:pq=bucket,guard=on", 2, 0);
	g->count = calloc(GUARD_TASKS, sizeof *g->count);
	pthread_t owner;
	cr_assert_eq(pthread_create(&owner, NULL, guard_owner, g), 0);
	/* a lost task would leave both threads popping for ever: a watchdog names it */
	uint64_t seen = 0;
	double since = ordo_now();
	for (uint64_t i = 0; atomic_load(&g->done) < GUARD_TASKS; i++) {
		guard_take(g, 1);
		if (i % 65536)
			continue;
		const uint64_t d = atomic_load(&g->done);
		if (d != seen) {
			seen = d, since = ordo_now();
		} else if (ordo_now() - since > GUARD_STUCK_S) {
			atomic_store(&g->stuck, true);
			break;
		}
	}
	pthread_join(owner, NULL);
	cr_assert_not(atomic_load(&g->stuck),
	              "stuck: %llu of %d tasks taken, none for %.0f s while both threads popped "
	              "(thread 1 a guest %llu times): tasks lost",
	              (unsigned long long)atomic_load(&g->done), GUARD_TASKS, GUARD_STUCK_S,
	              (unsigned long long)g->r.ctx[1]->wl_stat[4]);
	uint64_t bad = 0;
	for (uint64_t i = 0; i < GUARD_TASKS; i++)
		bad += atomic_load(&g->count[i]) != 1;
	cr_assert_eq(bad, 0, "%llu tasks not taken exactly once", (unsigned long long)bad);
	cr_assert_gt(g->r.ctx[1]->wl_stat[4], 0, "no guest batch");
	cr_log_info("guard race: %llu guest batches", (unsigned long long)g->r.ctx[1]->wl_stat[4]);
	free(g->count);
	rig_free(&g->r);
	free(g);
}

Test(numa, weighted_sampling_matches_k)
{
	struct ordo_topology topo;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_topology_init(&topo, 8, 2, ORDO_BIND_NONE, &e), 0);
	for (uint64_t k = 1; k <= 16; k *= 4) {
		struct numa_pick p; /* thread 0: node 0 holds threads 0-3 */
		cr_assert(numa_pick_init(&p, &topo, 0, 8, 1, 0, k));
		struct ordo_rng rng;
		ordo_rng_seed(&rng, 3, 0);
		const int n = 400000;
		int count[8] = {0};
		for (int i = 0; i < n; i++)
			count[numa_pick(&p, &rng)]++;
		cr_assert_eq(count[0], 0, "never the caller itself");
		double pl = 3.0 * k / (3.0 * k + 4.0); /* 3 local others, 4 remote */
		int local = count[1] + count[2] + count[3];
		double sd = sqrt(n * pl * (1 - pl));
		cr_assert(fabs(local - n * pl) < 5 * sd, "k=%llu: %d local of %d, expected %.0f",
		          (unsigned long long)k, local, n, n * pl);
		for (int t = 1; t < 8; t++) { /* uniform within each side */
			double want = t < 4 ? n * pl / 3 : n * (1 - pl) / 4;
			cr_assert(fabs(count[t] - want) < 5 * sqrt(want) + 1,
			          "k=%llu thread %d: %d vs %.0f", (unsigned long long)k, t,
			          count[t], want);
		}
		numa_pick_free(&p);
	}
	/* queues (c per thread): queue q is homed with thread q / c */
	struct numa_pick p;
	cr_assert(numa_pick_init(&p, &topo, 5, 32, 4, UINT32_MAX, 8));
	cr_assert_eq(p.nlocal, 16); /* threads 4-7 x 4 queues */
	struct ordo_rng rng;
	ordo_rng_seed(&rng, 4, 0);
	int local = 0, n = 200000;
	for (int i = 0; i < n; i++)
		local += numa_pick(&p, &rng) >= 16;
	double pl = 16.0 * 8 / (16.0 * 8 + 16);
	cr_assert(fabs(local - n * pl) < 5 * sqrt(n * pl * (1 - pl)), "%d", local);
	numa_pick_free(&p);
	ordo_topology_free(&topo);
}

Test(numa, k1_draws_exactly_like_the_plain_scheduler)
{
	struct ordo_topology topo;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_topology_init(&topo, 8, 4, ORDO_BIND_NONE, &e), 0);
	struct numa_pick p;
	cr_assert(numa_pick_init(&p, &topo, 2, 8, 1, 2, 1));
	struct ordo_rng a, b;
	ordo_rng_seed(&a, 8, 1);
	ordo_rng_seed(&b, 8, 1);
	for (int i = 0; i < 10000; i++) {
		uint32_t plain = (uint32_t)ordo_rng_below(&b, 7);
		plain += plain >= 2;
		cr_assert_eq(numa_pick(&p, &a), plain);
	}
	numa_pick_free(&p);
	ordo_topology_free(&topo);
}

Test(mq_opt, sticky_push_switches_with_probability_one_over_stick)
{
	struct rig r;
	rig_init(&r, "mq-opt:push=sticky,push_stick=8,c=4", 2, 0);
	const uint64_t n = 100000;
	struct ordo_task *t = malloc(n * sizeof *t);
	for (uint64_t i = 0; i < n; i++)
		t[i] = (struct ordo_task){i, i};
	r.wl.ops->push(r.wl.wl, r.ctx[0], t, n);
	/* which queue holds each task */
	struct ordo_sched_state *w = r.wl.wl;
	uint32_t *where = malloc(n * sizeof *where);
	for (uint32_t q = 0; q < w->nq; q++)
		for (size_t k = 0; k < w->q[q].heap.n; k++)
			where[w->q[q].heap.a[k].data] = q;
	uint64_t switches = 0;
	for (uint64_t i = 1; i < n; i++)
		switches += where[i] != where[i - 1];
	/* a run ends with probability 1/8 per task; the new queue is one of 8 at random */
	double want = (double)n / 8 * (1 - 1.0 / w->nq);
	cr_assert(fabs((double)switches - want) < 0.05 * want, "%llu switches, expected %.0f",
	          (unsigned long long)switches, want);
	free(where);
	free(t);
	rig_free(&r);
}

Test(mq_opt, batch_pop_takes_the_best_tasks_of_one_queue_in_order)
{
	struct rig r;
	rig_init(&r, "mq-opt:push=batch,push_batch=16,pop=batch,pop_batch=4,c=1", 1, 0);
	for (uint64_t p = 100; p > 84; p--)
		push1(&r, 0, p); /* the 16th push flushes all 16 into one queue */
	cr_assert_eq(r.wl.wl->l[0].pushbuf.n, 0);
	for (uint64_t p = 85; p <= 100; p++)
		cr_assert_eq(pop1(&r, 0), p);
	rig_free(&r);
}

Test(reld, only_the_owner_dequeues)
{
	struct rig r;
	rig_init(&r, "reld", 2, 0);
	for (uint64_t p = 0; p < 1000; p++)
		push1(&r, 0, p); /* random queues: about half land in thread 1's */
	struct ordo_task x;
	uint64_t got0 = 0, got1 = 0, last = 0;
	while (r.wl.ops->pop(r.wl.wl, r.ctx[0], &x)) {
		cr_assert_geq(x.prio, last, "a RELD queue is an exact heap");
		last = x.prio;
		got0++;
	}
	cr_assert(got0 > 400 && got0 < 600, "thread 0 dequeued %llu", (unsigned long long)got0);
	cr_assert(!r.wl.ops->pop(r.wl.wl, r.ctx[0], &x), "never steals from thread 1's queue");
	while (r.wl.ops->pop(r.wl.wl, r.ctx[1], &x))
		got1++;
	cr_assert_eq(got0 + got1, 1000);
	rig_free(&r);
}

/* OBIM with a rescan period, 2 threads (thread 0 the leader): thread 1's scan finds
 * nothing, so its scan start is raised past every bucket; a chunk thread 0 then files in
 * the bucket thread 1 last worked must not become thread 1's through its fast path, out
 * of every scan start's reach: a rescan that jumps past it would leave its tasks to
 * nobody (the lost-task stall of pmod:period=3 under ThreadSanitizer). */
Test(obim, a_chunk_filed_after_a_failed_scan_stays_in_reach)
{
	struct rig r;
	rig_init(&r, "obim:delta=0,chunk=2,period=1", 2, 0);
	struct ordo_task x;
	push1(&r, 1, 10);
	cr_assert_eq(pop1(&r, 1), 10, "pop 0 of thread 1 (a rescan) finds its own task");
	cr_assert(!r.wl.ops->pop(r.wl.wl, r.ctx[1], &x), "nothing anywhere");
	cr_assert(!r.wl.ops->pop(r.wl.wl, r.ctx[1], &x), "still nothing");
	/* bucket 10: a shared chunk of two and a private one; 30 the same; 20 private */
	const uint64_t p0[] = {10, 10, 10, 30, 30, 30, 20};
	for (int i = 0; i < 7; i++)
		push1(&r, 0, p0[i]);
	cr_assert_eq(pop1(&r, 1), 10, "thread 1 takes the shared chunk of bucket 10");
	cr_assert_eq(pop1(&r, 0), 10, "thread 0 its private chunk of bucket 10");
	cr_assert_eq(pop1(&r, 0), 20, "then bucket 20: its scan start is 20 now");
	/* thread 1's pop 4 rescans: from its scan start (10 if it took the chunk by a
	 * scan), else from the leader's, 20: past the task it holds in bucket 10 */
	int popped = 4, idle = 0;
	for (int k = 0; idle < 8 && k < 200; k++) {
		const bool got = r.wl.ops->pop(r.wl.wl, r.ctx[(k + 1) & 1], &x); /* 1 first */
		popped += got;
		idle = got ? 0 : idle + 1;
	}
	cr_assert_eq(popped, 8, "%d of 8 tasks popped before both threads ran dry", popped);
	rig_free(&r);
}

/* ---- PMOD: its adaptation decisions on scripted sequences (mostly one thread, which
 * makes them on its own slow pops), and the order across a change ---- */

/* The shift PMOD settled on: each adapting thread counts its own changes, so the
 * counter is their sum, as the executor reports it. */
static uint64_t pmod_delta(struct rig *r)
{
	uint64_t d = 0;
	for (int t = 0; t < r->T; t++)
		d += r->ctx[t]->wl_stat[0];
	return d;
}

Test(pmod, merges_when_buckets_run_thin)
{
	struct rig r;
	rig_init(&r, "pmod:chunk=8", 1, 0);
	/* 100 tasks 10 apart: at delta 0 each bucket holds one, so every pop is slow */
	for (uint64_t i = 0; i < 100; i++)
		push1(&r, 0, 10 * i);
	for (int i = 0; i < 9; i++)
		pop1(&r, 0);
	/* the 9th pop passed check = chunk = 8 pops: 100 pushes over 990 buckets is 0 per
	 * bucket < chunk/2, so delta += floor(log2(8 / max(1, 0))) = 3 */
	cr_assert_eq(pmod_delta(&r), 3);
	cr_assert_eq(r.ctx[0]->wl_stat[1], 1, "one merge");
	/* no pushes since: later checks change nothing */
	for (int i = 0; i < 40; i++)
		pop1(&r, 0);
	cr_assert_eq(pmod_delta(&r), 3);
	/* again 50 tasks 10 apart over 500: 125 buckets of 8 at delta 3, under one each:
	 * +3; the check interval has doubled to 16 pops */
	for (uint64_t i = 0; i < 50; i++)
		push1(&r, 0, 2000 + 10 * i);
	for (int i = 0; i < 40; i++)
		pop1(&r, 0);
	cr_assert_eq(pmod_delta(&r), 6);
	cr_assert_eq(r.ctx[0]->wl_stat[1], 2);
	cr_assert_eq(r.ctx[0]->wl_stat[2], 0, "unmerge is off by default");
	rig_free(&r);
}

Test(pmod, any_thread_adapts_while_thread_0_idles)
{
	/* At start-up thread 0 may find nothing to pop for a long while (the few tasks sit
	 * in another thread's chunks); Galois adapts on thread 0's slow pops only, so fine
	 * buckets piled up meanwhile. Here thread 1 alone works: it must merge, and the
	 * counters, summed over threads, say so. */
	struct rig r;
	rig_init(&r, "pmod:chunk=8", 2, 0);
	for (uint64_t i = 0; i < 100; i++)
		push1(&r, 1, 10 * i);
	for (int i = 0; i < 9; i++)
		pop1(&r, 1);
	cr_assert_eq(pmod_delta(&r), 3);
	cr_assert_eq(r.ctx[1]->wl_stat[1], 1, "thread 1 merged");
	cr_assert_eq(r.ctx[0]->wl_stat[1], 0);
	/* thread 0 then works alone: its first slow pop only restarts its window (thread
	 * 1 checked since) and the check interval has doubled to 16, so it checks on about
	 * its 18th pop: 20 pushes over (24000 >> 3) - (5000 >> 3) buckets is 0 per bucket,
	 * +3 */
	for (uint64_t i = 0; i < 20; i++)
		push1(&r, 0, 5000 + 1000 * i);
	int merged_at = 0;
	for (int i = 1; i <= 20; i++) {
		pop1(&r, 0);
		if (!merged_at && r.ctx[0]->wl_stat[1])
			merged_at = i;
	}
	cr_assert(merged_at > 16, "thread 0 merged at pop %d: its window did not restart",
	          merged_at);
	cr_assert_eq(r.ctx[0]->wl_stat[1], 1, "thread 0 merged");
	cr_assert_eq(pmod_delta(&r), 6);
	rig_free(&r);
}

Test(pmod, keeps_delta_while_buckets_are_full)
{
	struct rig r;
	rig_init(&r, "pmod:chunk=8", 1, 0);
	/* 100 tasks per priority 0..9: buckets are full, pops are fast */
	for (uint64_t i = 0; i < 1000; i++)
		push1(&r, 0, i % 10);
	for (int i = 0; i < 1000; i++)
		pop1(&r, 0);
	cr_assert_eq(pmod_delta(&r), 0);
	cr_assert_eq(r.ctx[0]->wl_stat[1], 0);
	rig_free(&r);
}

Test(pmod, unmerge_splits_a_crowded_bucket)
{
	struct rig r;
	rig_init(&r, "pmod:chunk=8,unmerge=1", 1, 0);
	for (uint64_t i = 0; i < 100; i++)
		push1(&r, 0, 100 + 10 * i);
	for (int i = 0; i < 9; i++)
		pop1(&r, 0);
	cr_assert_eq(pmod_delta(&r), 3);
	/* 2000 tasks in priorities 0..23, ahead of the rest: at delta 3 that is 3 buckets
	 * and (23 >> 3) - (0 >> 3) = 2 in range (< 16), 1000 pushes each (> 4 x chunk); the
	 * pops stay in one bucket (> 4 x chunk of them) until it runs dry, and that slow pop
	 * splits: delta -= floor(log2(16 / 2)) = 3 */
	for (uint64_t i = 0; i < 2000; i++)
		push1(&r, 0, i % 24);
	for (int i = 0; i < 700; i++)
		pop1(&r, 0);
	cr_assert_eq(pmod_delta(&r), 0, "delta %llu", (unsigned long long)pmod_delta(&r));
	cr_assert_eq(r.ctx[0]->wl_stat[2], 1, "one unmerge");
	rig_free(&r);
}

Test(pmod, order_stays_monotone_across_delta_changes)
{
	struct rig r;
	rig_init(&r, "pmod:chunk=16", 1, 0);
	struct ordo_rng rng;
	ordo_rng_seed(&rng, 3, 0);
	/* the monotone workload (SSSP-like): pop x, push x + U[0, 200) twice */
	for (uint64_t i = 0; i < 64; i++)
		push1(&r, 0, ordo_rng_below(&rng, 200));
	uint64_t popped[20000];
	int n = 0;
	struct ordo_task x;
	while (n < 20000 && r.wl.ops->pop(r.wl.wl, r.ctx[0], &x)) {
		popped[n++] = x.prio;
		if (n < 10000) {
			push1(&r, 0, x.prio + ordo_rng_below(&rng, 200));
			push1(&r, 0, x.prio + ordo_rng_below(&rng, 200));
		}
	}
	const uint64_t d = pmod_delta(&r);
	cr_assert_geq(r.ctx[0]->wl_stat[1], 1, "the shift changed during the run");
	for (int i = 1; i < n; i++)
		cr_assert_geq(popped[i] >> d, popped[i - 1] >> d,
		              "pop %d: %llu after %llu (delta %llu)", i,
		              (unsigned long long)popped[i], (unsigned long long)popped[i - 1],
		              (unsigned long long)d);
	rig_free(&r);
}

/* ---- the executor when a scheduler's thread_init runs out of memory ---- */

static const struct ordo_scheduler_ops *oom_inner;
static _Atomic int oom_pushes_after_init;

static void oom_thread_init(struct ordo_sched_state *wl, struct ordo_tctx *ctx)
{
	if (oom_inner->thread_init)
		oom_inner->thread_init(wl, ctx);
	if (ctx->tid == 1)
		ctx->push_oom = true; /* as a scheduler that could not allocate */
}

static void oom_push(struct ordo_sched_state *wl, struct ordo_tctx *ctx, const struct ordo_task *t,
                     size_t n)
{
	atomic_fetch_add(&oom_pushes_after_init, 1);
	oom_inner->push(wl, ctx, t, n);
}

Test(executor, no_push_after_a_failed_thread_init)
{
	struct ordo_err e = {0};
	struct ordo_topology topo;
	cr_assert_eq(ordo_topology_init(&topo, 4, 0, ORDO_BIND_NONE, &e), 0);
	struct ordo_scheduler wl;
	cr_assert_eq(ordo_scheduler_create("fifo", NULL, &topo, 1, &wl, &e), 0);
	oom_inner = wl.ops;
	struct ordo_scheduler_ops ops = *wl.ops;
	ops.thread_init = oom_thread_init;
	ops.push = oom_push;
	struct ordo_task init[64];
	for (int i = 0; i < 64; i++)
		init[i] = (struct ordo_task){(uint64_t)i, (uint64_t)i};
	struct ordo_exec_opts o = {.topo = &topo, .seed = 1};
	struct ordo_run_stats st;
	int rc = ordo_for_each(&o, &ops, wl.wl, init, 64, NULL, NULL, &st, &e);
	cr_assert_eq(rc, ORDO_ENOMEM, "rc %d: %s", rc, e.msg);
	cr_assert_eq(atomic_load(&oom_pushes_after_init), 0,
	             "%d pushes into a scheduler whose thread_init failed",
	             atomic_load(&oom_pushes_after_init));
	ordo_scheduler_destroy(&wl);
	ordo_topology_free(&topo);
}

/* ---- quality: a scheduler that ignored priorities would pass every other suite (SSSP
 * stays correct in any order), so each one's mean rank error is held under a bound. One
 * thread, a fixed seed (wl_rig.h: N keys uniform in [0, R) prefilled, then each step
 * pops one task and pushes a fresh uniform key). A FIFO impostor registered only here
 * must fail its bound. ---- */

/* FIFO in disguise: the registered fifo scheduler under a priority scheduler's name */
static double impostor_rank(void)
{
	struct rig r;
	rig_init(&r, "fifo", 1, 0);
	double m = rig_mean_rank_error(r.wl.ops, r.wl.wl, r.ctx[0], 20000, 11, NULL, NULL);
	rig_free(&r);
	return m;
}

Test(quality, mean_rank_error_per_scheduler, .timeout = 120)
{
	/* Each scheduler declares its own bound at one thread (ordo_scheduler_ops'
	 * rank_bound, beside its code; NULL: exact, 0 - strict, smq-sl, reld, and spraylist,
	 * whose pops at one thread are a cleaner's exact delete-min; its sprays have their
	 * own rank test, tests/test_spraylist.c); a negative one (fifo) means none. So a
	 * new scheduler is held to its bound here without an edit of this file. N = 4096
	 * keys over R = 2^20. */
	for (int i = 0; i < ordo_scheduler_count(); i++) {
		const struct ordo_scheduler_ops *ops = ordo_scheduler_at(i);
		struct rig r;
		rig_init(&r, ops->name, 1, 0);
		double m = rig_mean_rank_error(r.wl.ops, r.wl.wl, r.ctx[0], 20000, 11, NULL, NULL);
		const double bound =
		    ops->rank_bound
		        ? ops->rank_bound(r.wl.params, r.ctx[0]->wl_stat, RANK_N, RANK_R)
		        : 0;
		if (bound < 0) { /* unordered by design */
			rig_free(&r);
			continue;
		}
		cr_log_info("%-8s mean rank error %.3f (bound %.3f)", ops->name, m, bound);
		cr_expect(m <= bound, "%s: mean rank error %.3f above its bound %.3f", ops->name, m,
		          bound);
		rig_free(&r);
	}
	/* a FIFO impostor must fail even the loosest of those bounds */
	double m = impostor_rank();
	cr_assert_gt(m, 2.0 * 4 * 8, "a FIFO impostor passed with mean rank error %.1f", m);
}
