/*
 * perturb.c - the schedule-perturbation hook (see perturb.h).
 *
 * Each thread keeps its generator and its counters in a slot of its own (claimed on its
 * first visit after a configure), written with plain relaxed stores: a locked
 * read-modify-write per visit would be a full fence on x86 and would hide exactly the
 * store-load reorderings the build is meant to expose.
 */
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "ordo_rng.h"
#include "ordo_runtime.h"
#include "perturb.h"

static const char *const names[] = {
#define ORDO_PP_NAME(name) #name,
    ORDO_PERTURB_POINTS(ORDO_PP_NAME)
#undef ORDO_PP_NAME
};

const char *ordo_perturb_name(enum ordo_perturb_point p)
{
	return (unsigned)p < ORDO_PP_COUNT ? names[p] : "?";
}

#ifdef ORDO_PERTURB

#define SLOTS 512 /* threads counted; more share the last slot's counters */

struct slot {
	_Atomic uint64_t visits[ORDO_PP_COUNT];
	_Atomic uint64_t delays;
	char pad[64];
};

static struct slot slots[SLOTS];
static _Atomic uint64_t generation = 0; /* bumped by configure; 0: not yet read */
static _Atomic uint64_t g_seed = 1;
static _Atomic unsigned g_rate = 64;
static _Atomic unsigned next_slot;

struct local {
	uint64_t gen;
	struct ordo_rng rng;
	struct slot *slot;
	unsigned rate;
};
static _Thread_local struct local me;
static _Thread_local ordo_perturb_hook my_hook;
static _Thread_local void *my_hook_arg;

bool ordo_perturb_set_hook(ordo_perturb_hook fn, void *arg)
{
	my_hook = fn;
	my_hook_arg = arg;
	return true;
}

/* Only while nothing configured the points (generation 0). The values are stored
 * before generation leaves 0 (release; join reads it with acquire), so a thread that
 * sees generation 1 sees them; every thread that gets here stores the same values (the
 * environment's), so losing the race to set generation changes nothing. */
static void from_environment(void)
{
	const char *s = getenv("ORDO_PERTURB_SEED"), *r = getenv("ORDO_PERTURB_RATE");
	if (s && *s)
		atomic_store_explicit(&g_seed, strtoull(s, NULL, 0), memory_order_relaxed);
	if (r && *r)
		atomic_store_explicit(&g_rate, (unsigned)strtoul(r, NULL, 0), memory_order_relaxed);
	uint64_t want = 0;
	atomic_compare_exchange_strong_explicit(&generation, &want, 1, memory_order_release,
	                                        memory_order_relaxed);
}

static void join(void)
{
	if (atomic_load_explicit(&generation, memory_order_acquire) == 0)
		from_environment();
	uint64_t gen = atomic_load_explicit(&generation, memory_order_acquire);
	/* the slot counter is a counter (relaxed); seed and rate were published by
	 * generation's release, read above with acquire */
	unsigned k = atomic_fetch_add_explicit(&next_slot, 1, memory_order_relaxed);
	me.slot = &slots[k < SLOTS ? k : SLOTS - 1];
	ordo_rng_seed(&me.rng, atomic_load_explicit(&g_seed, memory_order_relaxed), k);
	me.rate = atomic_load_explicit(&g_rate, memory_order_relaxed);
	me.gen = gen;
}

static void bump(_Atomic uint64_t *c)
{
	atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + 1,
	                      memory_order_relaxed);
}

void ordo_perturb_visit(enum ordo_perturb_point p)
{
	if (__builtin_expect(me.gen != atomic_load_explicit(&generation, memory_order_relaxed) ||
	                         me.gen == 0,
	                     0))
		join();
	bump(&me.slot->visits[p]);
	if (my_hook)
		my_hook(p, my_hook_arg);
	uint64_t r = ordo_rng_next(&me.rng);
	if ((r & 1023) >= me.rate)
		return;
	bump(&me.slot->delays);
	unsigned how = (unsigned)(r >> 10) % 10, len = (unsigned)(r >> 20);
	if (how < 5) { /* a short spin: another core's next few steps */
		for (unsigned i = 0, n = 1 + len % 2048; i < n; i++)
			ordo_cpu_relax();
	} else if (how < 8) { /* give the core away: another thread's whole step */
		sched_yield();
	} else { /* 1-20 us: long enough to be descheduled mid-protocol */
		struct timespec ts = {0, 1000L * (1 + len % 20)};
		nanosleep(&ts, NULL);
	}
}

bool ordo_perturb_built(void)
{
	return true;
}

void ordo_perturb_configure(uint64_t seed, unsigned rate_per_1024)
{
	/* published by the release store of generation below */
	atomic_store_explicit(&g_seed, seed, memory_order_relaxed);
	atomic_store_explicit(&g_rate, rate_per_1024 > 1024 ? 1024 : rate_per_1024,
	                      memory_order_relaxed);
	for (unsigned k = 0; k < SLOTS; k++) {
		for (int p = 0; p < ORDO_PP_COUNT; p++)
			atomic_store_explicit(&slots[k].visits[p], 0, memory_order_relaxed);
		atomic_store_explicit(&slots[k].delays, 0, memory_order_relaxed);
	}
	atomic_store_explicit(&next_slot, 0, memory_order_relaxed);
	uint64_t g =
	    atomic_load_explicit(&generation, memory_order_relaxed); /* only the caller writes it */
	atomic_store_explicit(&generation, (g ? g : 1) + 1, memory_order_release);
}

uint64_t ordo_perturb_visits(enum ordo_perturb_point p)
{
	uint64_t s = 0;
	for (unsigned k = 0; k < SLOTS && (unsigned)p < ORDO_PP_COUNT; k++)
		s += atomic_load_explicit(&slots[k].visits[p], memory_order_relaxed);
	return s;
}

uint64_t ordo_perturb_delays(void)
{
	uint64_t s = 0;
	for (unsigned k = 0; k < SLOTS; k++)
		s += atomic_load_explicit(&slots[k].delays, memory_order_relaxed);
	return s;
}

#else

bool ordo_perturb_built(void)
{
	return false;
}

void ordo_perturb_configure(uint64_t seed, unsigned rate_per_1024)
{
	(void)seed;
	(void)rate_per_1024;
}

uint64_t ordo_perturb_visits(enum ordo_perturb_point p)
{
	(void)p;
	return 0;
}

uint64_t ordo_perturb_delays(void)
{
	return 0;
}

bool ordo_perturb_set_hook(ordo_perturb_hook fn, void *arg)
{
	(void)fn, (void)arg;
	return false;
}

#endif
