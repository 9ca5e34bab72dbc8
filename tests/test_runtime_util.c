/* Unit tests of runtime/ helpers: parameter strings, tables, RNG determinism. */
#include <criterion/criterion.h>
#include <string.h>

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
