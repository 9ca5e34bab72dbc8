/* Unit tests of runtime/ helpers: parameter strings, tables, RNG determinism. */
#include <criterion/criterion.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ordo_real.h"
#include "ordo_rng.h"
#include "ordo_util.h"

static const struct ordo_param tab[] = {
    {"alpha", 8, 1, 64, "first"},
    {"beta", 0, -5, 5, "second"},
};

Test(util, spec_parse_and_resolve)
{
	struct ordo_spec s;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_spec_parse("smq:alpha=16,beta=-2", &s, &e), 0, "%s", e.msg);
	cr_assert_str_eq(s.name, "smq");
	cr_assert_eq(s.nkv, 2);
	int64_t v[2];
	cr_assert_eq(ordo_params_resolve("x", tab, 2, &s, v, &e), 0, "%s", e.msg);
	cr_assert_eq(v[0], 16);
	cr_assert_eq(v[1], -2);
	char buf[128];
	ordo_params_format(buf, sizeof buf, "smq", tab, 2, v);
	cr_assert_str_eq(buf, "smq:alpha=16,beta=-2");
}

Test(util, defaults_and_suffixes)
{
	struct ordo_spec s;
	int64_t v[2];
	cr_assert_eq(ordo_spec_parse("q", &s, NULL), 0);
	cr_assert_eq(ordo_params_resolve("x", tab, 2, &s, v, NULL), 0);
	cr_assert_eq(v[0], 8);
	cr_assert_eq(v[1], 0);
	int64_t x;
	cr_assert(ordo_parse_i64("2k", &x, true) && x == 2000);
	cr_assert(!ordo_parse_i64("2k", &x, false));
	cr_assert(!ordo_parse_i64("12x", &x, true));
}

Test(util, errors_list_what_is_accepted)
{
	struct ordo_spec s;
	struct ordo_err e = {0};
	int64_t v[2];
	cr_assert_eq(ordo_spec_parse("q:gamma=1", &s, &e), 0);
	cr_assert_eq(ordo_params_resolve("scheduler q", tab, 2, &s, v, &e), ORDO_EINVAL);
	cr_assert(strstr(e.msg, "unknown parameter 'gamma'"), "%s", e.msg);
	cr_assert(strstr(e.msg, "alpha (1..64, default 8)"), "%s", e.msg);
	cr_assert_eq(ordo_spec_parse("q:alpha=65", &s, &e), 0);
	cr_assert_eq(ordo_params_resolve("scheduler q", tab, 2, &s, v, &e), ORDO_EINVAL);
	cr_assert(strstr(e.msg, "out of range 1..64"), "%s", e.msg);
	cr_assert_eq(ordo_spec_parse("q:alpha", &s, &e), ORDO_EINVAL);
	cr_assert(strstr(e.msg, "expected key=value"), "%s", e.msg);
	cr_assert_eq(ordo_spec_parse("q:alpha=1,alpha=2", &s, &e), 0);
	cr_assert_eq(ordo_params_resolve("q", tab, 2, &s, v, &e), ORDO_EINVAL);
	cr_assert(strstr(e.msg, "given twice"), "%s", e.msg);
	cr_assert_eq(ordo_spec_parse(":a=1", &s, &e), ORDO_EINVAL);
}

Test(util, rng_streams_are_deterministic_and_distinct)
{
	struct ordo_rng a, b, c;
	ordo_rng_seed(&a, 42, 0);
	ordo_rng_seed(&b, 42, 0);
	ordo_rng_seed(&c, 42, 1);
	int same = 0;
	for (int i = 0; i < 1000; i++) {
		uint64_t x = ordo_rng_next(&a), y = ordo_rng_next(&b), z = ordo_rng_next(&c);
		cr_assert_eq(x, y);
		same += x == z;
	}
	cr_assert_lt(same, 2);
	/* ordo_rng_below is uniform enough: 10 bins of 100000 draws within 2% */
	int bins[10] = {0};
	for (int i = 0; i < 100000; i++)
		bins[ordo_rng_below(&a, 10)]++;
	for (int i = 0; i < 10; i++)
		cr_assert(bins[i] > 9800 && bins[i] < 10200, "bin %d: %d", i, bins[i]);
}

/* The per-thread spread of a run's records: smallest, median (the two middle values'
 * mean, rounded down, for an even count) and largest, whatever the order given. */
Test(util, spread_of_per_thread_counts)
{
	uint64_t odd[5] = {9, 1, 7, 3, 5}, even[4] = {10, 3, 8, 1}, one[1] = {4};
	uint64_t lo, mid, hi;
	ordo_spread(odd, 5, &lo, &mid, &hi);
	cr_assert(lo == 1 && mid == 5 && hi == 9, "%lu %lu %lu", lo, mid, hi);
	ordo_spread(even, 4, &lo, &mid, &hi);
	cr_assert(lo == 1 && mid == 5 && hi == 10, "%lu %lu %lu", lo, mid, hi); /* (3+8)/2 */
	ordo_spread(one, 1, &lo, &mid, &hi);
	cr_assert(lo == 4 && mid == 4 && hi == 4);
}

/* ---- ordo_real.h ---- */

static int cmp_double(const void *a, const void *b)
{
	const double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

Test(real, double_priorities_keep_the_order_and_invert)
{
	double v[4096];
	size_t n = 0;
	const double fixed[] = {-INFINITY, -1e308,   -3.5,    -1.0, -4.9e-324, 0.0,
	                        4.9e-324,  2.2e-308, 1e-300,  0.5,  1.0,       1.0000000000000002,
	                        3.0,       1e300,    INFINITY};
	for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
		v[n++] = fixed[i];
	struct ordo_rng r;
	ordo_rng_seed(&r, 5, 0);
	while (n < 4096) { /* any bit pattern that is not a NaN */
		uint64_t b = ordo_rng_next(&r);
		double x;
		memcpy(&x, &b, sizeof x);
		if (x == x)
			v[n++] = x;
	}
	qsort(v, n, sizeof *v, cmp_double);
	for (size_t i = 0; i < n; i++) {
		cr_assert_eq(memcmp(&(double){ordo_double_of_prio(ordo_prio_of_double(v[i]))},
		                    &v[i], sizeof v[i]),
		             0, "%g does not come back", v[i]);
		if (i && v[i - 1] < v[i]) {
			cr_assert_lt(ordo_prio_of_double(v[i - 1]), ordo_prio_of_double(v[i]),
			             "%g and %g out of order", v[i - 1], v[i]);
			cr_assert_gt(ordo_prio_of_double_desc(v[i - 1]),
			             ordo_prio_of_double_desc(v[i]));
		}
	}
	cr_assert_lt(ordo_prio_of_double(-0.0), ordo_prio_of_double(0.0), "-0 just below +0");
	cr_assert_eq(ordo_prio_of_double(0.0) + 0, ordo_prio_of_double(-0.0) + 1);
	/* delta = 52 groups each power of two: 1.0 and 1.999 share a bucket, 2.0 does not */
	cr_assert_eq(ordo_prio_of_double(1.0) >> 52, ordo_prio_of_double(1.999) >> 52);
	cr_assert_neq(ordo_prio_of_double(1.999) >> 52, ordo_prio_of_double(2.0) >> 52);
}

struct adder {
	_Atomic double *sum, *lo, *hi;
	int id;
};

static void *add_many(void *p)
{
	const struct adder *a = p;
	for (int i = 0; i < 100000; i++) {
		ordo_atomic_add_double(a->sum, 0.5, memory_order_relaxed);
		const double x = (double)((i * 7919 + a->id * 104729) % 1000003) - 500000.0;
		ordo_atomic_min_double(a->lo, x, memory_order_relaxed);
		ordo_atomic_max_double(a->hi, x, memory_order_relaxed);
	}
	return NULL;
}

Test(real, atomic_add_min_max_lose_nothing_under_threads)
{
	_Atomic double sum = 0, lo = INFINITY, hi = -INFINITY;
	pthread_t th[4];
	struct adder a[4];
	double want_lo = INFINITY, want_hi = -INFINITY;
	for (int t = 0; t < 4; t++)
		for (int i = 0; i < 100000; i++) {
			const double x = (double)((i * 7919 + t * 104729) % 1000003) - 500000.0;
			want_lo = x < want_lo ? x : want_lo;
			want_hi = x > want_hi ? x : want_hi;
		}
	for (int t = 0; t < 4; t++) {
		a[t] = (struct adder){&sum, &lo, &hi, t};
		cr_assert_eq(pthread_create(&th[t], NULL, add_many, &a[t]), 0);
	}
	for (int t = 0; t < 4; t++)
		pthread_join(th[t], NULL);
	/* halves sum exactly: any lost update shows */
	cr_assert_eq(atomic_load(&sum), 200000.0, "sum %f", atomic_load(&sum));
	cr_assert_eq(atomic_load(&lo), want_lo);
	cr_assert_eq(atomic_load(&hi), want_hi);
	/* the value before comes back; min and max leave a value that would not change */
	_Atomic double x = 2.0;
	cr_assert_eq(ordo_atomic_add_double(&x, 1.5, memory_order_release), 2.0);
	cr_assert_eq(ordo_atomic_min_double(&x, 9.0, memory_order_release), 3.5);
	cr_assert_eq(atomic_load(&x), 3.5);
	cr_assert_eq(ordo_atomic_max_double(&x, 1.0, memory_order_release), 3.5);
	cr_assert_eq(atomic_load(&x), 3.5);
}
