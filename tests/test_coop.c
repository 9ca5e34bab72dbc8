/* test_coop.c - the cooperative core budget (runtime/ordo_coop.h) and seats
 * (runtime/seats.h) seen from outside: tokens are never duplicated, a killed holder's
 * tokens come back, a process over its share yields while another waits, and a run
 * with a budget or with seats gives the answer a plain run gives. */
#include <criterion/criterion.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ordo_coop.h"
#include "ordo_gen.h"
#include "ordo_schedulers.h"
#include "ordo_sssp.h"

static char name[64];

static void fresh_name(void)
{
	snprintf(name, sizeof name, "ordo-test-coop-%d", (int)getpid());
	ordo_coop_unlink(name);
}

static struct ordo_coop *open_budget(int tokens)
{
	struct ordo_coop *c = NULL;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_coop_open(name, tokens, &c, &e), 0, "%s", e.msg);
	return c;
}

Test(coop, tokens_are_counted_and_never_duplicated)
{
	fresh_name();
	struct ordo_coop *a = open_budget(3), *b = open_budget(7);
	cr_assert_eq(ordo_coop_tokens(b), 3, "an existing budget keeps its count");
	cr_assert(ordo_coop_acquire(a));
	cr_assert(ordo_coop_acquire(a));
	cr_assert(ordo_coop_acquire(b));
	cr_assert_not(ordo_coop_acquire(a), "a fourth token out of three");
	cr_assert_not(ordo_coop_acquire(b));
	cr_assert_eq(ordo_coop_held(a) + ordo_coop_held(b), 3);
	cr_assert_eq(ordo_coop_free(a), 0);
	ordo_coop_release(a);
	cr_assert_eq(ordo_coop_free(b), 1);
	cr_assert(ordo_coop_acquire(b));
	ordo_coop_close(a); /* gives back what it holds */
	cr_assert_eq(ordo_coop_free(b), 1);
	ordo_coop_close(b);
	ordo_coop_unlink(name);
}

Test(coop, bad_names_are_refused)
{
	struct ordo_coop *c = NULL;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_coop_open("a/b", 2, &c, &e), ORDO_EINVAL);
	cr_assert_null(c);
	cr_assert_eq(ordo_coop_open("", 2, &c, &e), ORDO_EINVAL);
}

/* A child takes every token and is killed with SIGKILL: they come back. */
Test(coop, a_killed_holders_tokens_come_back)
{
	fresh_name();
	struct ordo_coop *a = open_budget(2);
	int fd[2];
	cr_assert_eq(pipe(fd), 0);
	pid_t child = fork();
	cr_assert(child >= 0);
	if (child == 0) {
		struct ordo_coop *c = NULL;
		struct ordo_err e = {0};
		char ok = ordo_coop_open(name, 0, &c, &e) == 0 && ordo_coop_acquire(c) &&
		          ordo_coop_acquire(c);
		if (write(fd[1], &ok, 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	char ok = 0;
	cr_assert_eq(read(fd[0], &ok, 1), 1);
	cr_assert(ok, "the child could not take both tokens");
	cr_assert_eq(ordo_coop_free(a), 0);
	cr_assert_not(ordo_coop_should_yield(a));
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	cr_assert(ordo_coop_acquire(a), "a dead holder's token did not come back");
	cr_assert(ordo_coop_acquire(a));
	cr_assert_not(ordo_coop_acquire(a), "more tokens than the budget");
	ordo_coop_close(a);
	ordo_coop_unlink(name);
}

/* Two tokens, this process holds both; a child waits for one: this process must
 * yield one (once), and no more once it holds its share. */
Test(coop, a_process_over_its_share_yields_while_another_waits)
{
	fresh_name();
	struct ordo_coop *a = open_budget(2);
	cr_assert(ordo_coop_acquire(a));
	cr_assert(ordo_coop_acquire(a));
	cr_assert_not(ordo_coop_should_yield(a), "nobody waits");
	int up[2], down[2];
	cr_assert_eq(pipe(up), 0);
	cr_assert_eq(pipe(down), 0);
	pid_t child = fork();
	cr_assert(child >= 0);
	if (child == 0) {
		struct ordo_coop *c = NULL;
		struct ordo_err e = {0};
		char r = ordo_coop_open(name, 0, &c, &e) == 0 && !ordo_coop_acquire(c);
		if (write(up[1], &r, 1) != 1 || read(down[0], &r, 1) != 1)
			_exit(1);
		r = ordo_coop_acquire(c); /* after the parent yielded */
		if (write(up[1], &r, 1) != 1)
			_exit(1);
		ordo_coop_close(c);
		_exit(0);
	}
	char r = 0;
	cr_assert_eq(read(up[0], &r, 1), 1);
	cr_assert(r, "the child got a token that was held");
	cr_assert(ordo_coop_should_yield(a), "over its share while another waits");
	cr_assert_not(ordo_coop_should_yield(a), "one worker at a time gives a token back");
	ordo_coop_release(a);
	cr_assert_eq(write(down[1], &r, 1), 1);
	cr_assert_eq(read(up[0], &r, 1), 1);
	cr_assert(r, "the child did not get the yielded token");
	cr_assert_not(ordo_coop_should_yield(a), "at its share");
	waitpid(child, NULL, 0);
	ordo_coop_close(a);
	ordo_coop_unlink(name);
}

/* SSSP distances with a budget of one token, with 1 and 2 seats of 4 workers, and
 * every worker running: the same (exact) answer, with workers parked. */
Test(coop, runs_with_a_budget_or_seats_give_the_same_answer, .timeout = 300)
{
	fresh_name();
	struct ordo_coop *budget = open_budget(1);
	struct ordo_err e = {0};
	struct ordo_graph *g = NULL;
	cr_assert_eq(ordo_generate("road:W=200,H=200", 1, &g, NULL, 0, &e), 0, "%s", e.msg);
	const char *specs[] = {"smq:pq=bucket", "obim", "mq-opt", "fifo"};
	for (size_t s = 0; s < sizeof specs / sizeof *specs; s++) {
		uint64_t *want = NULL;
		for (int mode = 0; mode < 4; mode++) {
			struct ordo_topology topo;
			cr_assert_eq(ordo_topology_init(&topo, 4, 0, ORDO_BIND_NONE, &e), 0);
			struct ordo_scheduler wl;
			cr_assert_eq(ordo_scheduler_create(specs[s], NULL, &topo, 3, &wl, &e), 0,
			             "%s", e.msg);
			struct ordo_exec_opts o = {.topo = &topo, .seed = 5};
			if (mode == 0)
				o.seats = ORDO_SEATS_ALL;
			else if (mode == 3)
				o.coop = budget;
			else
				o.seats = mode, o.seat_shuffle = 16;
			_Atomic uint64_t *dist = malloc(g->n * sizeof *dist);
			struct ordo_run_stats st;
			cr_assert_eq(ordo_sssp(g, 0, &wl, &o, dist, &st, &e), 0, "%s", e.msg);
			if (mode == 0) {
				want = malloc(g->n * sizeof *want);
				for (uint32_t u = 0; u < g->n; u++)
					want[u] = dist[u];
				cr_assert_eq(st.parks, 0);
				cr_assert_eq(st.seats_start, 4);
			} else {
				for (uint32_t u = 0; u < g->n; u++)
					cr_assert_eq(dist[u], want[u], "%s mode %d: node %u",
					             specs[s], mode, u);
				if (mode != 3)
					cr_assert_eq(st.seats_start, mode);
				cr_assert(mode == 3 || st.parks > 0, "%s: nobody parked", specs[s]);
			}
			cr_assert_eq(ordo_coop_free(budget), 1,
			             "a token stayed held after the run");
			free(dist);
			ordo_scheduler_destroy(&wl);
			ordo_topology_free(&topo);
		}
		free(want);
	}
	ordo_graph_free(g);
	ordo_coop_close(budget);
	ordo_coop_unlink(name);
}

/* Eight processes at once (released together) take and give back the one token of a
 * budget, 20000 times each, and count themselves in a shared word while they hold it:
 * never two holders at once. An acquire without its compare-and-swap (a load, then a
 * store) fails this. */
Test(coop, concurrent_processes_never_share_a_token, .timeout = 120)
{
	fresh_name();
	struct ordo_coop *a = open_budget(1);
	enum { P = 8, ROUNDS = 20000 };
	/* [0]: holders now; [1]: violations; [2]: grants; [3]: ready; [4]: go */
	_Atomic int *sh =
	    mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	cr_assert(sh != MAP_FAILED);
	pid_t kids[P];
	for (int k = 0; k < P; k++) {
		kids[k] = fork();
		cr_assert(kids[k] >= 0);
		if (kids[k] == 0) {
			struct ordo_coop *c = NULL;
			struct ordo_err e = {0};
			if (ordo_coop_open(name, 0, &c, &e))
				_exit(2);
			atomic_fetch_add(&sh[3], 1);
			while (!atomic_load(&sh[4]))
				sched_yield();
			for (int r = 0; r < ROUNDS; r++) {
				if (!ordo_coop_acquire(c))
					continue;
				if (atomic_fetch_add(&sh[0], 1) != 0)
					atomic_fetch_add(&sh[1], 1);
				atomic_fetch_add(&sh[2], 1);
				for (volatile int spin = 0; spin < 200; spin++)
					;
				atomic_fetch_sub(&sh[0], 1);
				ordo_coop_release(c);
			}
			ordo_coop_close(c);
			_exit(0);
		}
	}
	while (atomic_load(&sh[3]) < P)
		sched_yield();
	atomic_store(&sh[4], 1);
	for (int k = 0; k < P; k++) {
		int st = 0;
		waitpid(kids[k], &st, 0);
		cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child %d: status %d", k, st);
	}
	cr_assert_eq(atomic_load(&sh[1]), 0, "%d times two holders of one token at once",
	             atomic_load(&sh[1]));
	cr_assert_gt(atomic_load(&sh[2]), P, "too few grants to mean anything");
	cr_assert_eq(ordo_coop_free(a), 1, "the token given back");
	munmap((void *)sh, 4096);
	ordo_coop_close(a);
	ordo_coop_unlink(name);
}

/* A holder in another PID namespace (unshare --pid: its pid there is 1 or 2, which
 * means another process, or none, here) sharing /dev/shm: this process must see it
 * alive and leave its tokens alone, and close must end on both sides. The test skips,
 * saying why, where the machine refuses new namespaces. */
Test(coop, a_holder_in_another_pid_namespace_is_alive, .timeout = 60)
{
	fresh_name();
	struct ordo_coop *a = open_budget(2);
	int up[2], down[2];
	cr_assert_eq(pipe(up), 0);
	cr_assert_eq(pipe(down), 0);
	pid_t child = fork();
	cr_assert(child >= 0);
	if (child == 0) {
		if (unshare(CLONE_NEWPID) != 0) {
			char r = 'S'; /* skip: no namespaces here */
			_exit(write(up[1], &r, 1) == 1 ? 0 : 1);
		}
		pid_t inner = fork(); /* pid 1 of the new namespace */
		if (inner == 0) {
			struct ordo_coop *c = NULL;
			struct ordo_err e = {0};
			char r = ordo_coop_open(name, 0, &c, &e) == 0 && ordo_coop_acquire(c) &&
			                 ordo_coop_acquire(c) && getpid() == 1
			             ? 'Y'
			             : 'N';
			if (write(up[1], &r, 1) != 1 || read(down[0], &r, 1) != 1)
				_exit(1);
			ordo_coop_close(c); /* must end: its tokens are still its own */
			r = 'C';
			_exit(write(up[1], &r, 1) == 1 ? 0 : 1);
		}
		int st = 0;
		waitpid(inner, &st, 0);
		_exit(WIFEXITED(st) ? WEXITSTATUS(st) : 1);
	}
	char r = 0;
	cr_assert_eq(read(up[0], &r, 1), 1);
	if (r == 'S') {
		waitpid(child, NULL, 0);
		ordo_coop_close(a);
		ordo_coop_unlink(name);
		cr_skip_test("unshare(CLONE_NEWPID) is refused here (needs CAP_SYS_ADMIN)");
	}
	cr_assert_eq(r, 'Y', "the child in its own PID namespace could not take both tokens");
	cr_assert_not(ordo_coop_acquire(a), "a live holder's token was taken back");
	cr_assert_eq(ordo_coop_free(a), 0);
	cr_assert_eq(write(down[1], &r, 1), 1);
	cr_assert_eq(read(up[0], &r, 1), 1);
	cr_assert_eq(r, 'C', "close did not end in the other namespace");
	int st = 0;
	waitpid(child, &st, 0);
	cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	cr_assert_eq(ordo_coop_free(a), 2, "the closed holder's tokens are free");
	cr_assert(ordo_coop_acquire(a));
	ordo_coop_close(a);
	ordo_coop_unlink(name);
}

/* close ends whatever the shared state says: a token word of this process's slot
 * overwritten (as a confused process in another namespace did) does not make close
 * loop, and release counts it as given back. */
Test(coop, close_ends_whatever_the_words_say)
{
	fresh_name();
	struct ordo_coop *a = open_budget(2), *b = open_budget(2);
	cr_assert(ordo_coop_acquire(a));
	cr_assert(ordo_coop_acquire(a));
	/* b cannot take them: a is alive */
	cr_assert_not(ordo_coop_acquire(b));
	ordo_coop_release(a);
	ordo_coop_release(a);
	ordo_coop_release(a); /* one more than it holds: nothing happens */
	cr_assert_eq(ordo_coop_held(a), 0);
	cr_assert_eq(ordo_coop_free(b), 2);
	ordo_coop_close(a);
	ordo_coop_close(b);
	ordo_coop_unlink(name);
}
