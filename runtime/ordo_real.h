/*
 * ordo_real.h - real values in ordo's integer world: priorities from doubles, and
 * atomic add, min and max on doubles (C11 has no atomic arithmetic on floating types).
 *
 * Priorities. A scheduler orders tasks by a uint64_t, smaller first. ordo_prio_of_double
 * maps a double onto one in the same order (-inf < negatives < -0 < +0 < positives <
 * +inf; a NaN has no place and must not be given), by the IEEE 754 bit pattern: for
 * x >= 0 its bits with the top bit set, for x < 0 its bits inverted. It is exact and
 * invertible (ordo_double_of_prio) and costs two instructions. For "larger first" (a
 * residual, a score) use ordo_prio_of_double_desc. A bucketed scheduler (obim, pmod,
 * smq:pq=bucket) groups priorities that agree above bit `delta`: on positive doubles
 * delta = 52 puts every power of two [2^k, 2^k+1) in a bucket of its own, and
 * delta = 52 - b splits each into 2^b buckets, so delta = 48-52 is the range to try;
 * a small delta gives every distinct value a bucket.
 *
 * Atomics. ordo_atomic_add_double / min / max do a compare-and-swap loop on an
 * _Atomic double and return the value before. `order` is the order of the successful
 * exchange (memory_order_relaxed for a sum no one reads until the run ends, which the
 * run's end orders; memory_order_release when another thread reads the value to decide
 * something, with an acquire load there); a failed attempt is relaxed. The exchange
 * compares bit patterns, so -0 and +0 differ and a NaN stored there is compared by its
 * bits; min and max store nothing when the value would not change.
 */
#ifndef ORDO_REAL_H
#define ORDO_REAL_H

#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

static inline uint64_t ordo_prio_of_double(double x)
{
	uint64_t b;
	memcpy(&b, &x, sizeof b);
	return b >> 63 ? ~b : b | (1ull << 63);
}

/* The double a priority of ordo_prio_of_double came from. */
static inline double ordo_double_of_prio(uint64_t p)
{
	const uint64_t b = p >> 63 ? p & ~(1ull << 63) : ~p;
	double x;
	memcpy(&x, &b, sizeof x);
	return x;
}

/* Larger first: the priority order reversed. */
static inline uint64_t ordo_prio_of_double_desc(double x)
{
	return ~ordo_prio_of_double(x);
}

static inline double ordo_atomic_add_double(_Atomic double *a, double v, memory_order order)
{
	double old = atomic_load_explicit(a, memory_order_relaxed);
	while (
	    !atomic_compare_exchange_weak_explicit(a, &old, old + v, order, memory_order_relaxed))
		;
	return old;
}

static inline double ordo_atomic_min_double(_Atomic double *a, double v, memory_order order)
{
	double old = atomic_load_explicit(a, memory_order_relaxed);
	while (v < old &&
	       !atomic_compare_exchange_weak_explicit(a, &old, v, order, memory_order_relaxed))
		;
	return old;
}

static inline double ordo_atomic_max_double(_Atomic double *a, double v, memory_order order)
{
	double old = atomic_load_explicit(a, memory_order_relaxed);
	while (v > old &&
	       !atomic_compare_exchange_weak_explicit(a, &old, v, order, memory_order_relaxed))
		;
	return old;
}

#endif
