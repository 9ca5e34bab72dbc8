/* check.c - verification results (see ordo_check.h). */
#include "ordo_check.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void ordo_check_init(struct ordo_check *c)
{
	memset(c, 0, sizeof *c);
	c->pass = true;
}

void ordo_check_mismatch(struct ordo_check *c, const char *fmt, ...)
{
	c->pass = false;
	if (c->mismatches++)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->first, sizeof c->first, fmt, ap);
	va_end(ap);
}

/* Figure `name`'s slot (added if new), or NULL when the check is full. */
static int slot_of(struct ordo_check *c, const char *name)
{
	for (int i = 0; i < c->nfig; i++)
		if (!strcmp(c->fig[i].name, name))
			return i;
	if (c->nfig == ORDO_CHECK_FIGURES)
		return -1;
	c->fig[c->nfig].name = name;
	return c->nfig++;
}

void ordo_check_figure(struct ordo_check *c, const char *name, uint64_t v)
{
	const int i = slot_of(c, name);
	if (i >= 0)
		c->fig[i].value = v, c->fig[i].is_real = false;
}

void ordo_check_figure_real(struct ordo_check *c, const char *name, double v)
{
	const int i = slot_of(c, name);
	if (i >= 0)
		c->fig[i].real = v, c->fig[i].is_real = true;
}

bool ordo_check_get(const struct ordo_check *c, const char *name, uint64_t *v)
{
	for (int i = 0; i < c->nfig; i++)
		if (!strcmp(c->fig[i].name, name) && !c->fig[i].is_real) {
			*v = c->fig[i].value;
			return true;
		}
	return false;
}

bool ordo_check_get_real(const struct ordo_check *c, const char *name, double *v)
{
	for (int i = 0; i < c->nfig; i++)
		if (!strcmp(c->fig[i].name, name) && c->fig[i].is_real) {
			*v = c->fig[i].real;
			return true;
		}
	return false;
}

double ordo_check_distance(const double *got, const double *ref, uint64_t n, enum ordo_norm norm)
{
	double d = 0;
	for (uint64_t i = 0; i < n; i++) {
		double e = fabs(got[i] - ref[i]);
		if (norm == ORDO_NORM_REL)
			e = ref[i] != 0 ? e / fabs(ref[i]) : fabs(got[i]);
		if (isnan(e))
			return NAN;
		d = norm == ORDO_NORM_L1 ? d + e : e > d ? e : d;
	}
	return d;
}

double ordo_check_within(struct ordo_check *c, const char *name, const double *got,
                         const double *ref, uint64_t n, enum ordo_norm norm, double tol)
{
	static const char *const norms[] = {"L1", "largest", "largest relative"};
	const double d = ordo_check_distance(got, ref, n, norm);
	ordo_check_figure_real(c, name, d);
	if (!(d <= tol))
		ordo_check_mismatch(c,
		                    "%s distance %.3g from the reference, above the tolerance %.3g",
		                    norms[norm], d, tol);
	return d;
}
