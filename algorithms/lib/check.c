/* check.c - verification results (see ordo_check.h). */
#include "ordo_check.h"

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

void ordo_check_figure(struct ordo_check *c, const char *name, uint64_t v)
{
	for (int i = 0; i < c->nfig; i++)
		if (!strcmp(c->fig[i].name, name)) {
			c->fig[i].value = v;
			return;
		}
	if (c->nfig < ORDO_CHECK_FIGURES) {
		c->fig[c->nfig].name = name;
		c->fig[c->nfig++].value = v;
	}
}

bool ordo_check_get(const struct ordo_check *c, const char *name, uint64_t *v)
{
	for (int i = 0; i < c->nfig; i++)
		if (!strcmp(c->fig[i].name, name)) {
			*v = c->fig[i].value;
			return true;
		}
	return false;
}
