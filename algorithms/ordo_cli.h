/*
 * ordo_cli.h - what every ordo binary shares: one option table that drives getopt_long and
 * prints --help with defaults, the graph-loading options (input format, symmetrize,
 * weights, coordinates, ...), the progress line, and error reporting. Only binaries
 * print and exit; this file belongs to them.
 */
#ifndef ORDO_CLI_H
#define ORDO_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>

#include "ordo_graph.h"
#include "ordo_io.h"

struct ordo_cli_opt {
	const char *name; /* long name */
	int key;          /* short char, or a value >= 256 */
	const char *arg;  /* argument name, NULL for flags */
	const char *help; /* one line, with the default */
};

/* Builds getopt_long's tables from `opts` (terminated by a NULL name). */
void ordo_cli_getopt_tables(const struct ordo_cli_opt *opts, struct option *lo, char *so,
                            size_t socap);
/* getopt_long over the tables of ordo_cli_getopt_tables, for every ordo binary alike: errors
 * name the program, not its path; an option given twice is an error, since every ordo
 * option takes one value and the last one silently winning has misled users (seen[]
 * holds a byte per entry of `opts`, zeroed by the caller). Returns the option's key, -1
 * at the end, or '?' after printing why (the unknown or incomplete option is then
 * argv[optind - 1]). */
int ordo_cli_next(int argc, char **argv, const char *so, const struct option *lo,
                  const struct ordo_cli_opt *opts, unsigned char *seen);
/* Prints "usage" then every option with its help text. */
void ordo_cli_print_help(const char *usage, const struct ordo_cli_opt *const *tables, int ntables);

/* Galois-style single-dash long options (-startNode 5, -delta=3, -t=2) are rewritten
 * in place into their double-dash forms (listed in `aliases` as "galois=ordo" pairs). */
void ordo_cli_galois_aliases(int argc, char **argv, const char *const *aliases);

/* Options for loading a graph; keys 300..349. */
extern const struct ordo_cli_opt ordo_cli_load_opts[];
/* Handles one of ordo_cli_load_opts; returns 1 when handled, 0 when not ours, -1 on a bad
 * value (message printed). */
int ordo_cli_load_option(int key, const char *arg, struct ordo_load_opts *lo);

/* Loads `path` (or generates from `gen` when path is NULL), printing errors. Returns 0
 * or an exit status. Prints the load summary line on stderr unless quiet. *format (may
 * be NULL) gets the file's format as detected, ORDO_FMT_AUTO for a generated graph. */
int ordo_cli_load_graph(const char *path, const char *gen, struct ordo_load_opts *lo, bool quiet,
                        struct ordo_graph **g, char *input_name, size_t cap, double *load_seconds,
                        int *format);

/* A progress callback printing "\rloading PATH: 45% ..." on a terminal stderr. */
void ordo_cli_progress(void *user, const char *path, uint64_t done, uint64_t total);

/* Prints "prog: message" on stderr and returns ordo_exit_status(code). */
int ordo_cli_fail(const char *prog, const struct ordo_err *err);
/* The rule every tool applies to a file it will write (given with option `opt`, "-o",
 * "--output", ...), before any work: not a directory, and its folder exists and is
 * writable (ordo creates no folders). 0, or the exit status with the message printed
 * (2: a directory or a missing folder; 3: the folder cannot be written). */
int ordo_cli_check_output_path(const char *opt, const char *path);
/* The folder a file path names ("." for a bare name). */
void ordo_cli_dir_of(const char *path, char *dir, size_t cap);

/* Parses an integer option value; prints an error and returns false when invalid. */
bool ordo_cli_int(const char *prog, const char *opt, const char *arg, int64_t lo, int64_t hi,
                  int64_t *out);
/* The same without printing (for option hooks, ordo_app.h): arg as an integer in lo..hi,
 * or as a number > 0 (>= 0 when zero_ok, at most 1e9); ORDO_EINVAL with a message
 * naming the option otherwise. */
int ordo_cli_parse_int(const char *opt, const char *arg, int64_t lo, int64_t hi, int64_t *out,
                       struct ordo_err *err);
int ordo_cli_parse_double(const char *opt, const char *arg, bool zero_ok, double *out,
                          struct ordo_err *err);
/* arg as one of `names` (NULL-terminated): *out its index, or ORDO_EINVAL with a message
 * naming the option and listing the names ("--algo x: expected peel or bounds"). */
int ordo_cli_parse_choice(const char *opt, const char *arg, const char *const *names, int *out,
                          struct ordo_err *err);

extern const char *ordo_cli_prog;

/* Prints "PROG (ordo) VERSION, git REVISION" and the build options on stdout. */
void ordo_cli_print_version(void);

#endif
