/*
 * app_internal.h - what the harness's three files share (not installed): the parsed
 * command line (struct ordo_app_cfg, app_options.c), one trial's results and the run's state
 * (struct trial, struct ordo_app_run: app.c), and the records written from them
 * (app_records.c).
 */
#ifndef ORDO_APP_INTERNAL_H
#define ORDO_APP_INTERNAL_H

#include "ordo_app.h"
#include "ordo_sssp.h"

/* record formats: the human report (stdout only), JSON lines, CSV */
enum { F_TEXT, F_JSON, F_CSV };

/* The command line, parsed (app_options.c) or filled by a session (app.c). */
struct ordo_app_cfg {
	const char *file, *gen, *wl_spec, *out_path;
	const char *answer_path; /* --output: the last trial's answer (app_answer.c) */
	bool wl_given;           /* --wl was on the command line */
	int64_t threads, source, target, pairs, trials, seed, fake, delta, lookahead;
	int64_t seats;         /* ORDO_SEATS_AUTO, _ADAPT, _ALL or a count */
	int sim_workers;       /* --sim: virtual workers (0: a real run) */
	struct ordo_sim sim;   /* --sim's distribution */
	bool coop;             /* --coop */
	const char *coop_name; /* NULL: ordo_coop_default_name() */
	int fmt;               /* stdout: F_TEXT (human report), F_JSON or F_CSV records */
	int out_fmt;           /* --out file: F_JSON or F_CSV */
	bool fmt_given;
	int bind;
	bool verify, quiet;
	struct ordo_load_opts lo;
	void *ordo_app_opts; /* the kernel's own options block (opts_size bytes), or NULL */
};

struct trial {
	struct ordo_app_query q;
	struct ordo_run_stats rs;
	struct ordo_app_baseline base;
	struct ordo_check chk;
	const char *verdict;
};

struct ordo_app_run {
	const struct ordo_app_kernel *k;
	struct ordo_app_cfg *cfg;
	struct ordo_topology topo;
	struct ordo_graph *g;
	char input[512];
	double load_s;
	void *st;
	char sched[256];             /* the resolved scheduler spec (text) */
	char sim_spec[128];          /* --sim's spec, canonical (ordo_sim_describe), or "" */
	struct ordo_sched_spec spec; /* the same, resolved once: every trial creates from it */
	struct ordo_delta_hint hint; /* the graph's delta, when `hinted` (delta_from_graph) */
	int hint_shift;              /* the shift taken from it: hint.shift or shift_reach */
	bool hinted;
	bool wide_default; /* the kernel's default_wl_wide, chosen by the graph's diameter */
	bool sched_used;   /* the kernel's uses_scheduler for this run */
	struct ordo_graph *borrowed; /* the caller's graph (a session's), never freed here */
	const volatile _Atomic bool *cancel; /* a session's stop flag, or NULL */
	struct ordo_coop *coop;              /* --coop's budget, or NULL */
	const struct ordo_scheduler_ops *ops;
	int format;           /* the input's format (ORDO_FMT_AUTO: generated) */
	FILE *hout;           /* human report, or NULL */
	FILE *mout;           /* stdout records, or NULL */
	FILE *fout;           /* --out file, opened at the first record */
	bool fout_has_header; /* the file already holds our header */
	/* scheduler counters: the union of every registered scheduler's names, so that one
	 * csv file can hold runs of different schedulers under one header */
	const char *stat_col[ORDO_SCHED_STATS * 16];
	char stat_key[ORDO_SCHED_STATS * 16][48];
	int nstat;
};

/* app_options.c (the harness_* names stay out of libordo.so's exports, algorithms/ordo.map):
 * the command line into c, its ordo_app_opts allocated (the caller frees it); -1 to go on,
 * else the exit status (0 after --help or --version). */
int harness_parse(const struct ordo_app_kernel *k, int argc, char **argv, struct ordo_app_cfg *c);
/* --seats' value (auto, adapt, all or a count) into *seats; EINVAL with a message. */
int harness_parse_seats(const char *arg, int64_t *seats, struct ordo_err *err);
/* A kernel's options block, initialised from its defaults (NULL when it has none);
 * *ok false when out of memory. */
void *harness_opts_new(const struct ordo_app_kernel *k, bool *ok);
/* Sets a session's "name=value" options through the kernel's option hook. */
int harness_opts_set(const struct ordo_app_kernel *k, void *opts, const char *const *kv,
                     struct ordo_err *err);
void harness_galois_aliases(int argc, char **argv);

/* app_records.c: records (one table of fields) and the human report */
void harness_stat_columns(struct ordo_app_run *r);
double harness_work(const struct trial *t);
double harness_useful(const struct trial *t);
double harness_speedup(const struct trial *t);
/* a baseline under this many seconds is no base for a speedup (the report says so) */
#define MIN_BASELINE_S 1e-3
int harness_check_out(struct ordo_app_run *r);
/* --output (app_answer.c): the path checked before the load; the last trial's answer
 * written (text, .npy or .npz by its name), atomically. Exit statuses as ordo_app_main's. */
int harness_check_output(const struct ordo_app_kernel *k, const char *path);

int harness_write_answer(struct ordo_app_run *r, const struct trial *t, int trial_no);
int harness_emit(struct ordo_app_run *r, int trial_no, const struct trial *t);
void harness_record(FILE *fp, int fmt, const struct ordo_app_run *r, int trial_no,
                    const struct trial *t);
void harness_human_trial(const struct ordo_app_run *r, int i, const struct trial *t);

#endif
