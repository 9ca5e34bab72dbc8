/*
 * app.h - the shape every ordo binary shares (after gapbs): parse options, load or
 * generate the graph, pick sources, run trials (kernel timed alone), verify each
 * against the exact sequential baseline, print a report for humans and records for
 * machines (JSON lines or CSV with fixed field names).
 */
#ifndef ORDO_APP_H
#define ORDO_APP_H

#include "cli.h"
#include "ordo_runtime.h"
#include "ordo_sssp.h"
#include "ordo_wl.h"

struct app_kernel {
	const char *name;        /* "sssp" */
	const char *default_gen; /* graph generated when no input is given */
	const char *default_wl;
	bool needs_weights;
	/* Prepares per-graph state. */
	int (*init)(void **st, const struct ordo_graph *g, struct ordo_err *err);
	void (*fini)(void *st);
	/* Exact sequential baseline from src; *tasks = its task count (settled nodes). */
	int (*baseline)(void *st, uint32_t src, uint64_t *tasks, struct ordo_err *err);
	/* The parallel kernel. */
	int (*run)(void *st, uint32_t src, struct ordo_worklist *wl, const struct ordo_exec_opts *o,
	           struct ordo_run_stats *rs, struct ordo_err *err);
	/* Compares the last run with the last baseline. */
	bool (*verify)(void *st, struct ordo_check *c);
};

/* Runs the whole binary; returns the exit status (0, 1 on a failed verification, 2 on
 * bad usage or input, 3 on I/O or memory failure). */
int app_main(const struct app_kernel *k, int argc, char **argv);

#endif
