/*
 * ordo_wl.h - the scheduler registry: names, parameters, creation from a spec string.
 *
 * A scheduler is named with its parameters in one string used everywhere (CLI, sweeps,
 * result files): "name:key=value,...", e.g. "obim:delta=12,chunk=64". Unknown names or
 * keys and out-of-range values are EINVAL with a message that lists what is accepted.
 */
#ifndef ORDO_WL_H
#define ORDO_WL_H

#include <stdio.h>

#include "ordo_worklist.h"

/* Registered schedulers, in registry order. */
int ordo_wl_count(void);
const struct ordo_wl_ops *ordo_wl_at(int i);
const struct ordo_wl_ops *ordo_wl_find(const char *name);

/* A created scheduler with its resolved parameters. */
struct ordo_worklist {
	const struct ordo_wl_ops *ops;
	struct ordo_wl *wl;
	int64_t params[ORDO_MAX_PARAMS];
	char spec[256]; /* "name:k=v,..." with every parameter resolved */
};

/* Parses `spec`, applies `overrides` (another "k=v,..." list applied only for keys the
 * scheduler has and `spec` does not set, e.g. a --delta given on the command line; may be
 * NULL), and creates the scheduler for `topo`. */
int ordo_worklist_create(const char *spec, const char *overrides, const struct ordo_topology *topo,
                         uint64_t seed, struct ordo_worklist *out, struct ordo_err *err);
void ordo_worklist_destroy(struct ordo_worklist *w);

/* Resolves a spec without creating anything (validation, printing). */
int ordo_worklist_resolve(const char *spec, const struct ordo_wl_ops **ops, int64_t *params,
                          char *resolved, size_t cap, struct ordo_err *err);

/* Prints every scheduler with its parameters, defaults, bounds and meaning. */
void ordo_wl_print_help(FILE *f);

#endif
