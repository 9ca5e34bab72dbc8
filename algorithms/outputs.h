/*
 * outputs.h - what ordo-convert and ordo-gen share (private to their two mains): the
 * options about outputs, the --info summary, and writing a set of output files whole or
 * not at all.
 */
#ifndef ORDO_OUTPUTS_H
#define ORDO_OUTPUTS_H

#include <stdbool.h>

#include "ordo_cli.h"

/* The files of one output set (a .gr and its .co, a --coords-out file) are written
 * under staging names beside their final names and renamed together at the end, so a
 * failed or interrupted run leaves none of them: not a complete .gr without its .co. */
#define MAX_OUTPUTS 3

enum { O_TO = 400, O_COORDS_OUT, O_LEVEL, O_INFO, O_VERSION, O_LIST, O_SEED, O_MAPPABLE };

/* The options both tools take (ordo-gen all but --seed); NULL-terminated. */
extern const struct ordo_cli_opt out_common_opts[];

struct out_cfg {
	const char *out, *coords_out;
	int to; /* ORDO_FMT_AUTO: from the output's extension */
	bool info;
	struct ordo_load_opts lo;
	struct ordo_save_opts so;
};

/* Defaults, and SIGINT/SIGTERM handlers that remove whatever is staged. */
void out_init(struct out_cfg *c);
/* What out_option says: handled, not one of its options, handled and the program is
 * done (it printed what was asked: exit 0); anything else: a bad value, message
 * printed (exit 2). */
enum { OUT_NOT_MINE = 0, OUT_HANDLED = 1, OUT_DONE = 3 };
/* Handles one of out_common_opts (see the enum above). */
int out_option(struct out_cfg *c, int key, const char *arg);
/* Loads the input (a file, or with gen a generator spec), prints --info, writes the
 * output set; the exit status. Refuses, before reading anything, an output whose
 * extension names no format and an output that is the input itself. */
int out_run(struct out_cfg *c, const char *in, bool gen);
/* What a main does with out_option's (or ordo_cli_load_option's) answer: -1 to go on with
 * the next option, else the exit status (2 after "Try --help" for an unknown option). */
int out_exit_status(int r);
/* After the options: IN (or SPEC) [OUT] from the positional arguments, then out_run. */
int out_finish(struct out_cfg *c, int argc, char **argv, bool gen);
/* ordo-convert --info's summary of g. */
void out_summary(const struct ordo_graph *g, const char *name);

#endif
