/*
 * conformance.h - the scheduler checks shared by the Criterion suite (test_conformance)
 * and the plain driver that runs under ThreadSanitizer (stress_main): Criterion's own
 * process machinery does not run under TSan. Each returns 0, or -1 with a message.
 */
#ifndef ORDO_TEST_CONFORMANCE_H
#define ORDO_TEST_CONFORMANCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ordo_schedulers.h"

/* n unique tasks (tree: grown by the operators from one root, random priorities)
 * executed exactly once by T threads; fake_numa virtual nodes (0 = real). */
int conf_exactly_once(const char *spec, int T, uint64_t n, bool tree, int fake_numa, char *msg,
                      size_t cap);
/* The same tree with the scheduler wrapped so that half the pops fail and some tasks are
 * held back privately by their pusher: termination must stay exact. */
int conf_spurious(const char *spec, int T, uint64_t n, char *msg, size_t cap);
/* A chain: task i pushes task i+1, so one task is pending at a time and every idle
 * worker scans for termination while it runs; through the same flaky wrapper. A scan
 * that reads pushed[] before done[] stops the run with the chain unfinished. */
int conf_chain(const char *spec, int T, uint64_t n, char *msg, size_t cap);
/* A caterpillar: each even task pushes a leaf and the next even task, so idle workers
 * scan all along while leaves finish before their parents; through the same wrapper.
 * A task's children counted after their push (not before) lets a scan stop the run
 * with the spine unfinished. */
int conf_caterpillar(const char *spec, int T, uint64_t n, char *msg, size_t cap);
/* The same wrapper with `seats` of T workers running at once, parking and coming back
 * at random points, tasks that stall their worker for 1 ms now and then: every task
 * once, tasks handed over (a tree, or a chain of n). */
int conf_parking(const char *spec, int T, uint64_t n, int seats, bool chain, char *msg, size_t cap);
/* A tree of n tasks run by T workers that all keep running (no parking), of which one
 * in 512 stops its worker for 100-1000 us, as the OS stops a thread on a shared machine:
 * every task once. With `st`, the run's statistics (a guarded SMQ's guests run while
 * owners are stopped; test_scheduler_cases checks that they did). */
int conf_stalls(const char *spec, int T, uint64_t n, struct ordo_run_stats *st, char *msg,
                size_t cap);
/* A tree of n tasks, some of which open their own loops (ordo_task_loop) while others
 * help: every task and every loop item runs exactly once. */
int conf_loops(const char *spec, int T, uint64_t n, char *msg, size_t cap);
/* Every parameter of `ops` at both ends of its declared range, each run as
 * conf_parking (a tree of n tasks with `seats` of T workers, then a chain). */
int conf_edges(const struct ordo_scheduler_ops *ops, int T, int seats, uint64_t n, char *msg,
               size_t cap);
/* A run whose scheduler is wrapped to drop one task that worker 0 pushes: returns the
 * executor's status (ORDO_ESCHEDULER expected, in about a second: the watchdog) with
 * its message in msg. */
int conf_lost(const char *spec, int T, int seats, char *msg, size_t cap);
/* Under the linearized executor (ordo_exec_opts.sim) with P virtual workers drawn by
 * `sim`: a tree of n tasks once each, and the flaky wrapper's tree and chain; the
 * simulator's lost-task check (pops failing in a row while tasks are pending) turns a
 * scheduler that strands a task into an error instead of a hang. Deterministic. */
int conf_simulated(const char *spec, int P, uint64_t n, const struct ordo_sim *sim, char *msg,
                   size_t cap);
/* SSSP on a generated road graph and an R-MAT graph, verified against Dijkstra. */
int conf_sssp(const char *spec, int T, char *msg, size_t cap);

/* Every registered scheduler at its defaults (from the registry), then variants worth
 * checking on their own (other policies, NUMA weights, tiny batches, smq's radix
 * heap). NULL-terminated; filled before main. */
extern const char *const *conf_specs;
int conf_nspecs(void);

/* ORDO_STRESS_SCALE divides task counts; ORDO_STRESS_MAX_THREADS caps T (default 16). */
uint64_t conf_scale(uint64_t n);
int conf_max_threads(void);

#endif
