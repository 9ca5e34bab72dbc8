/*
 * A stand-in for the part of Criterion's API the scheduler tests use, so that they also
 * run as a plain program under ThreadSanitizer: Criterion itself cannot start there (its
 * inheritable arena collides with TSan's memory layout, Snaipe/Criterion#274). Tests
 * register themselves before main and run one after another in one process; a failed
 * assertion prints file, line, expression and message and exits 1. Only for the TSan
 * build (tests/CMakeLists.txt); the normal build uses Criterion.
 */
#ifndef ORDO_CRSHIM_H
#define ORDO_CRSHIM_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

void crshim_register(const char *suite, const char *name, void (*fn)(void));
void crshim_fail(bool fatal, const char *file, int line, const char *expr, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
void crshim_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Test(suite, name, .timeout = ...): the options are accepted and ignored */
#define Test(suite, name, ...)                                                     \
	static void crshim_##suite##_##name(void);                                 \
	__attribute__((constructor)) static void crshim_reg_##suite##_##name(void) \
	{                                                                          \
		crshim_register(#suite, #name, crshim_##suite##_##name);           \
	}                                                                          \
	static void crshim_##suite##_##name(void)

#define CRSHIM_CHECK(fatal, cond, expr, ...)                                          \
	do {                                                                          \
		if (!(cond))                                                          \
			crshim_fail(fatal, __FILE__, __LINE__, expr, "" __VA_ARGS__); \
	} while (0)

#define cr_assert(c, ...)          CRSHIM_CHECK(true, (c), #c, __VA_ARGS__)
#define cr_expect(c, ...)          CRSHIM_CHECK(false, (c), #c, __VA_ARGS__)
#define cr_assert_eq(a, b, ...)    CRSHIM_CHECK(true, (a) == (b), #a " == " #b, __VA_ARGS__)
#define cr_assert_neq(a, b, ...)   CRSHIM_CHECK(true, (a) != (b), #a " != " #b, __VA_ARGS__)
#define cr_assert_gt(a, b, ...)    CRSHIM_CHECK(true, (a) > (b), #a " > " #b, __VA_ARGS__)
#define cr_assert_geq(a, b, ...)   CRSHIM_CHECK(true, (a) >= (b), #a " >= " #b, __VA_ARGS__)
#define cr_assert_lt(a, b, ...)    CRSHIM_CHECK(true, (a) < (b), #a " < " #b, __VA_ARGS__)
#define cr_assert_leq(a, b, ...)   CRSHIM_CHECK(true, (a) <= (b), #a " <= " #b, __VA_ARGS__)
#define cr_expect_gt(a, b, ...)    CRSHIM_CHECK(false, (a) > (b), #a " > " #b, __VA_ARGS__)
#define cr_expect_geq(a, b, ...)   CRSHIM_CHECK(false, (a) >= (b), #a " >= " #b, __VA_ARGS__)
#define cr_expect_lt(a, b, ...)    CRSHIM_CHECK(false, (a) < (b), #a " < " #b, __VA_ARGS__)
#define cr_expect_leq(a, b, ...)   CRSHIM_CHECK(false, (a) <= (b), #a " <= " #b, __VA_ARGS__)
#define cr_assert_null(p, ...)     CRSHIM_CHECK(true, (p) == NULL, #p " == NULL", __VA_ARGS__)
#define cr_assert_not_null(p, ...) CRSHIM_CHECK(true, (p) != NULL, #p " != NULL", __VA_ARGS__)
#define cr_assert_not(c, ...)      CRSHIM_CHECK(true, !(c), "!(" #c ")", __VA_ARGS__)
#define cr_log_info(...)           crshim_log(__VA_ARGS__)
/* a skip says why and leaves the test (its function returns void) */
#define cr_skip_test(...)                \
	do {                             \
		crshim_log(__VA_ARGS__); \
		return;                  \
	} while (0)

#endif
