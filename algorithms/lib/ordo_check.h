/*
 * ordo_check.h - the verification result every algorithm reports: pass or fail, how
 * many values differ from the exact sequential baseline and the first of them in words,
 * and a few named figures the algorithm chooses ("reached", "max_dist", "forest_weight")
 * that the harness prints and records by name: integers, or reals ("l1_error"). An
 * approximate answer (PageRank) is checked within a tolerance against a reference
 * (ordo_check_within), which need not come from the algorithm that counts the work
 * ratio's baseline tasks.
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
		double real; /* the value of a real figure (is_real) */
		bool is_real;
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
/* The same for a real-valued figure. */
void ordo_check_figure_real(struct ordo_check *c, const char *name, double v);
/* The value of figure `name`; false when the check has no such figure, or (get) when
 * it is real, or (get_real) when it is an integer. */
bool ordo_check_get(const struct ordo_check *c, const char *name, uint64_t *v);
bool ordo_check_get_real(const struct ordo_check *c, const char *name, double *v);

enum ordo_norm {
	ORDO_NORM_L1,  /* sum of |got - ref| */
	ORDO_NORM_MAX, /* largest |got - ref| */
	ORDO_NORM_REL, /* largest |got - ref| / |ref| (|got| where ref is 0) */
};
/* The distance from got to ref (n values each) in `norm`; NaN when a value is NaN. */
double ordo_check_distance(const double *got, const double *ref, uint64_t n, enum ordo_norm norm);
/* Records that distance as the real figure `name` and, when it exceeds tol (or is
 * NaN), a mismatch saying so. Returns the distance. */
double ordo_check_within(struct ordo_check *c, const char *name, const double *got,
                         const double *ref, uint64_t n, enum ordo_norm norm, double tol);

#endif
