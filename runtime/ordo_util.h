/*
 * ordo_util.h - small helpers every ordo library uses: wall-clock time, cache-line
 * aligned allocation, overflow-checked sizes, and the "name:key=value,..." parameter
 * strings that name schedulers and generators, with their tables of integer
 * parameters (name, default, bounds, one-line meaning).
 * Everything here is thread-safe (no shared state).
 */
#ifndef ORDO_UTIL_H
#define ORDO_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ordo_error.h"

#define ORDO_CACHELINE 64

/* A read prefetch that the compiler cannot drop. GCC 12 deletes __builtin_prefetch
 * calls (and the loads feeding their addresses) when a function does nothing else on
 * that path, e.g. a prefetch hook's stage that only prefetches a node's arcs; measured
 * on SSSP, that lost a pipeline stage and 20% of the time. */
static inline void ordo_prefetch(const void *p)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ __volatile__("prefetcht0 %0" ::"m"(*(const char *)p));
#else
	__builtin_prefetch(p);
#endif
}

/* Monotonic wall-clock seconds. */
double ordo_now(void);

/* The calling thread's CPU seconds (CLOCK_THREAD_CPUTIME_ID): beside ordo_now, how
 * much of a stretch the thread spent on a CPU. */
double ordo_thread_cpu(void);

/* Zeroed, 128-byte aligned allocation of n*size bytes (enough for alignas(128)
 * per-thread structures); NULL on overflow or failure. Free with free(). */
void *ordo_calloc_aligned(size_t n, size_t size);

/* Allocation for big arrays (graph CSR, distances): 2 MiB aligned and advised for
 * transparent huge pages when at least 2 MiB, which cuts page-fault time on first touch
 * by orders of magnitude. Contents uninitialised. Free with free(). */
void *ordo_alloc_huge(size_t bytes);

/* Sorts v[0..n) (n >= 1) and gives its smallest, median (the mean of the two middle
 * values, rounded down, for an even n) and largest: the per-thread spread of a run. */
void ordo_spread(uint64_t *v, size_t n, uint64_t *min, uint64_t *median, uint64_t *max);

/* Physical memory of this machine in bytes (0 when unknown). */
uint64_t ordo_phys_mem(void);

/* a*b into *out; false on overflow. */
static inline bool ordo_mul_ok(uint64_t a, uint64_t b, uint64_t *out)
{
	return !__builtin_mul_overflow(a, b, out);
}

/* One integer parameter of a scheduler or generator. With `choices` (a NULL-terminated
 * list of names) the value is an index into it, written and printed by name. */
struct ordo_param {
	const char *name;
	int64_t def, lo, hi;
	const char *help;
	const char *const *choices;
};

#define ORDO_MAX_PARAMS 16

/* A parsed "name:key=value,key=value" string. */
struct ordo_spec {
	char name[64];
	int nkv;
	char key[ORDO_MAX_PARAMS][32];
	char val[ORDO_MAX_PARAMS][64];
};

/* Splits `text` into name and key=value pairs (no interpretation). Errors: EINVAL
 * with a message for empty names, missing '=', too many or too long fields. */
int ordo_spec_parse(const char *text, struct ordo_spec *out, struct ordo_err *err);

/* Resolves the pairs of `spec` against `tab` (n entries) into vals[n]: defaults for
 * keys not given; an unknown key or a value that is not an integer within [lo, hi] is
 * EINVAL with a message that lists what is accepted. `what` names the thing for
 * messages ("scheduler smq"). */
int ordo_params_resolve(const char *what, const struct ordo_param *tab, int n,
                        const struct ordo_spec *spec, int64_t *vals, struct ordo_err *err);

/* EINVAL (the message naming `what`, the parameter and its range) when v is outside
 * p's [lo, hi]; 0 otherwise. */
int ordo_param_check(const char *what, const struct ordo_param *p, int64_t v, struct ordo_err *err);

/* Writes "name:k1=v1,k2=v2" with every parameter resolved; returns snprintf's result. */
int ordo_params_format(char *buf, size_t cap, const char *name, const struct ordo_param *tab, int n,
                       const int64_t *vals);

/* Parses a whole decimal integer (optional sign, optional k/M/G suffix = 10^3/10^6/10^9
 * when `suffixes`) into *out; false when the text is not exactly that. */
bool ordo_parse_i64(const char *s, int64_t *out, bool suffixes);

#endif
