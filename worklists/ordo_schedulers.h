/*
 * ordo_schedulers.h - the scheduler registry: names, parameters, creation from a spec string.
 *
 * A scheduler is named with its parameters in one string used everywhere (CLI, sweeps,
 * result files): "name:key=value,...", e.g. "obim:delta=12,chunk=64". Unknown names or
 * keys and out-of-range values are EINVAL with a message that lists what is accepted.
 */
#ifndef ORDO_SCHEDULERS_H
#define ORDO_SCHEDULERS_H

#include <stdio.h>

#include "ordo_scheduler.h"

/* Registered schedulers, in registry order. */
int ordo_scheduler_count(void);
const struct ordo_scheduler_ops *ordo_scheduler_at(int i);
const struct ordo_scheduler_ops *ordo_scheduler_find(const char *name);

/* A created scheduler with its resolved parameters. */
struct ordo_scheduler {
	const struct ordo_scheduler_ops *ops;
	struct ordo_sched_state *wl;
	int64_t params[ORDO_MAX_PARAMS];
	char spec[256]; /* "name:k=v,..." with every parameter resolved */
};

/* A scheduler spec resolved once: its implementation and every parameter's value.
 * Parse it once, give it the caller's defaults (a --delta, an app's preferred values),
 * then create as many schedulers from it as there are runs. */
struct ordo_sched_spec {
	const struct ordo_scheduler_ops *ops;
	int64_t params[ORDO_MAX_PARAMS]; /* in the order of ops->params */
	uint32_t given;                  /* bit i: params[i] was set, not a default */
	char spec[256];                  /* "name:k=v,..." with every parameter resolved */
};

/* Parses and checks "name[:k=v,...]": unknown names or keys, values out of range and
 * keys given twice are EINVAL naming what is accepted. */
int ordo_sched_parse(const char *spec, struct ordo_sched_spec *s, struct ordo_err *err);
/* Sets integer parameter `key` to `value` unless it was set already (the spec's own
 * setting wins); a key the scheduler lacks is ignored, and *has (may be NULL) says
 * whether it has it. EINVAL when the value is out of the parameter's range. */
int ordo_sched_default(struct ordo_sched_spec *s, const char *key, int64_t value, bool *has,
                       struct ordo_err *err);
/* True when the scheduler has parameter `key` and nothing set it yet (the spec, an
 * earlier default): what ordo_sched_default would set. */
bool ordo_sched_unset(const struct ordo_sched_spec *s, const char *key);
/* The same for each "k=v" of a comma list, values written as in a spec (choices by
 * name) and checked as a spec's are. */
int ordo_sched_defaults(struct ordo_sched_spec *s, const char *list, struct ordo_err *err);
/* Creates the scheduler a resolved spec describes, for `topo`. */
int ordo_sched_create(const struct ordo_sched_spec *s, const struct ordo_topology *topo,
                      uint64_t seed, struct ordo_scheduler *out, struct ordo_err *err);

/* Parses `spec`, applies `overrides` (another "k=v,..." list applied only for keys the
 * scheduler has and `spec` does not set, e.g. a --delta given on the command line; may be
 * NULL), and creates the scheduler for `topo`. */
int ordo_scheduler_create(const char *spec, const char *overrides, const struct ordo_topology *topo,
                          uint64_t seed, struct ordo_scheduler *out, struct ordo_err *err);
void ordo_scheduler_destroy(struct ordo_scheduler *w);

/* Its grain (ordo_scheduler_ops.grain): 0..64, 0 when it orders every priority. */
unsigned ordo_scheduler_grain(const struct ordo_scheduler *w);

/* Resolves a spec without creating anything (validation, printing). */
int ordo_scheduler_resolve(const char *spec, const struct ordo_scheduler_ops **ops, int64_t *params,
                           char *resolved, size_t cap, struct ordo_err *err);

/* Prints every scheduler with its parameters, defaults, bounds and meaning. */
void ordo_scheduler_print_help(FILE *f);

#endif
