/*
 * ordo_check.h - the verification result every algorithm reports: pass or fail, how
 * many values differ from the exact sequential baseline and the first of them in words,
 * and a few named figures the algorithm chooses ("reached", "max_dist", "forest_weight")
 * that the harness prints and records by name.
 *
 * A check is filled by one thread; it owns no memory.
 */
#ifndef ORDO_CHECK_H
#define ORDO_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#define ORDO_CHECK_FIGURES 6

struct ordo_check {
	bool pass;
	uint64_t mismatches; /* values that differ from the baseline */
	char first[240];     /* the first mismatch in words; "" when none */
	int nfig;
	struct {
		const char *name; /* a string literal */
		uint64_t value;
	} fig[ORDO_CHECK_FIGURES];
};

/* An empty, passing check. */
void ordo_check_init(struct ordo_check *c);
/* Records one more mismatch; the first one's description (printf format) is kept. */
void ordo_check_mismatch(struct ordo_check *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Sets figure `name` (a string literal) to v, adding it if new (at most
 * ORDO_CHECK_FIGURES; further names are ignored). */
void ordo_check_figure(struct ordo_check *c, const char *name, uint64_t v);
/* The value of figure `name`; false when the check has no such figure. */
bool ordo_check_get(const struct ordo_check *c, const char *name, uint64_t *v);

#endif
