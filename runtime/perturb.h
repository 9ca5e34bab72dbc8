/*
 * perturb.h - schedule perturbation for finding races (the ORDO_PERTURB build); a test
 * hook, internal: no installed header includes it (the runtime, the schedulers and the
 * operators include it where they have points).
 *
 * On a machine with few cores the windows of a concurrent protocol (between a load and
 * the store that depends on it, between the two passes of the termination scan, ...)
 * are nanoseconds wide, and stress tests rarely land a second thread inside them. A
 * build configured with -DORDO_PERTURB=ON compiles a call at each named point below;
 * the call, from a per-thread generator seeded by (seed, thread), now and then spins,
 * yields or sleeps for a few microseconds, so other threads run inside the window. In
 * every other build ORDO_PERTURB_POINT is nothing and costs nothing.
 *
 * Configuration: ordo_perturb_configure(seed, rate), or the environment variables
 * ORDO_PERTURB_SEED (default 1) and ORDO_PERTURB_RATE (delays per 1024 point visits,
 * default 64; 0 turns delays off), read on first use. A seed reproduces the decisions
 * each thread makes (which visits it delays, how, for how long); the OS still decides
 * the rest, so a failing seed makes the failure likely again, not certain.
 * ordo_perturb_visits counts visits per point (in perturbed builds), so a test can
 * check that the points it relies on were reached.
 */
#ifndef ORDO_PERTURB_H
#define ORDO_PERTURB_H

#include <stdbool.h>
#include <stdint.h>

/* The named points: each sits between two steps of a protocol. */
#define ORDO_PERTURB_POINTS(X)                                                                   \
	X(TERM_SCAN)      /* executor: between the done[] and the pushed[] pass */               \
	X(COUNT_PUBLISH)  /* executor: right before a task's children are counted (pushed[]) */  \
	X(PUSH_PUBLISH)   /* executor: between counting children and pushing them */             \
	X(DONE_PUBLISH)   /* executor: right before done[], after the children's push */         \
	X(LOOP_JOIN)      /* executor: between seeing a task's loop open and joining it */       \
	X(LOOP_CLOSE)     /* executor: between closing a task's loop and counting its helpers */ \
	X(EBR_ANNOUNCE)   /* ebr: between reading the epoch and announcing it */                 \
	X(EBR_ADVANCE)    /* ebr: between checking every announcement and advancing */           \
	X(EBR_RETIRE)     /* ebr: between the unlink's fence and filing the node */              \
	X(SPRAY_CLAIM)    /* spraylist: between reading a node's link and marking it */          \
	X(SPRAY_UNLINK)   /* spraylist: between finding a marked node and unlinking it */        \
	X(SMQ_FILL)       /* smq: between writing the steal buffer and publishing it */          \
	X(SMQ_TAKE)       /* smq: between copying a buffer and claiming it */                    \
	X(SMQ_GUEST)      /* smq: a guest holds a descheduled owner's queue lock */              \
	X(SMQ_HOST_LOCK)  /* smq: between a guest's look at its host's beat and its trylock */   \
	X(BUCKET_PUBLISH) /* obim/pmod: between creating a bucket and logging it */              \
	X(MST_LOCK)       /* mst: between testing a lock word and taking it, and holding it */   \
	X(MST_DEFER)      /* mst: a deferred merge, its list claimed, before its checks */       \
	X(MST_SETTLE)     /* mst: a giant's holder, a list claimed, before joining from it */    \
	X(KCORE_LOWER)    /* kcore: lowering an estimate or a peeling degree, and re-checking */ \
	X(KCORE_SUPPORT)  /* kcore: before a run folds its support count back */                 \
	X(CC_WAKE)        /* cc: between a look at a root and linking it, a label's fall and */  \
	                  /* its wake-up, a task's claim and its read of the label */

enum ordo_perturb_point {
#define ORDO_PP_ENUM(name) ORDO_PP_##name,
	ORDO_PERTURB_POINTS(ORDO_PP_ENUM)
#undef ORDO_PP_ENUM
	    ORDO_PP_COUNT
};

#ifdef ORDO_PERTURB
void ordo_perturb_visit(enum ordo_perturb_point p);
#define ORDO_PERTURB_POINT(name) ordo_perturb_visit(ORDO_PP_##name)
#else
#define ORDO_PERTURB_POINT(name) ((void)0)
#endif

/* True in a build with -DORDO_PERTURB=ON. */
bool ordo_perturb_built(void);
/* Seeds every thread's generator afresh (threads pick it up at their next visit) and
 * sets the delay rate per 1024 visits (0: never delay, only count). */
void ordo_perturb_configure(uint64_t seed, unsigned rate_per_1024);
/* Visits of point p since the last configure (0 in other builds). */
uint64_t ordo_perturb_visits(enum ordo_perturb_point p);
/* Delays made since the last configure, over every point. */
uint64_t ordo_perturb_delays(void);
const char *ordo_perturb_name(enum ordo_perturb_point p);
/* A test's own step at the calling thread's visits (before any delay): fn(p, arg) at
 * each point this thread visits, until set again (fn NULL: none). A scripted test runs
 * one side of a protocol inside the other's window with it, deterministically. False
 * (and nothing happens) in a build without ORDO_PERTURB. */
typedef void (*ordo_perturb_hook)(enum ordo_perturb_point p, void *arg);
bool ordo_perturb_set_hook(ordo_perturb_hook fn, void *arg);

#endif
