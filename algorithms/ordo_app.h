/*
 * ordo_app.h - the harness every ordo binary shares (after gapbs): parse options, load or
 * generate the graph, pick the query (source, or source and target), run trials (kernel
 * timed alone), verify each against the exact sequential baseline, and report: a human
 * report on stdout (or stderr) and records for machines (JSON lines or CSV) whose fields
 * come from one table.
 *
 * An app is a `struct ordo_app_kernel` and `return ordo_app_main(&kernel, argc, argv);`. The
 * kernel says what it needs (a query kind, weights, coordinates, a symmetric graph), may
 * add options of its own, names the figures its check reports, and provides the
 * baseline, the parallel run and the check. The harness knows no particular algorithm.
 * The same trials run without a command line through a session (ordo_app_session_open,
 * below): that is how the Python package runs ordo's kernels.
 *
 * Installed with the libraries (target ordo::ordo_app, header ordo_app.h), so an
 * out-of-tree operator gets the same CLI, trials, report and verification. The harness
 * prints and exits; nothing below it does.
 */
#ifndef ORDO_APP_H
#define ORDO_APP_H

#include <stdio.h>

#include "ordo_check.h"
#include "ordo_cli.h"
#include "ordo_runtime.h"
#include "ordo_schedulers.h"

/* What a trial asks of the kernel. */
enum ordo_app_query_kind {
	ORDO_APP_QUERY_NONE,   /* whole-graph (mst): no source */
	ORDO_APP_QUERY_SOURCE, /* one source (sssp, bfs): -r/--source or fixed-seed draws */
	ORDO_APP_QUERY_PAIR,   /* source and target (astar): --source/--target or --pairs N */
};

enum ordo_app_needs {
	ORDO_APP_NEEDS_WEIGHTS = 1u << 0,    /* unweighted input: weights from coordinates when the
	                                   graph has them, else an error asking for
	                                   --random-weights */
	ORDO_APP_NEEDS_COORDS = 1u << 1,     /* node coordinates (in the file or --coords) */
	ORDO_APP_NEEDS_SYMMETRIC = 1u << 2,  /* a graph not built symmetric is symmetrised
	                                   (and deduplicated), said in the report */
	ORDO_APP_NEEDS_SELF_LOOPS = 1u << 3, /* the input is read with its self-loops, as
	                                  --keep-self-loops (the loader drops them
	                                  otherwise); a session runs on the caller's graph
	                                  as it was loaded */
};

#define ORDO_APP_NO_NODE UINT32_MAX

struct ordo_app_query {
	uint32_t source, target; /* ORDO_APP_NO_NODE when the kind has none */
};

/* The exact sequential baseline of one query. */
struct ordo_app_baseline {
	uint64_t tasks; /* the work ratio's denominator */
	double seconds; /* its time; 0 = the harness times the call */
};

/* What a kernel's init gets besides the graph. */
struct ordo_app_env {
	const struct ordo_topology *topo;
	uint64_t seed;
	FILE *report;     /* the human report (notes such as a computed parameter), or NULL */
	bool wl_given;    /* the user chose the scheduler (--wl): bfs runs it rather than rounds */
	const void *opts; /* the kernel's options block as its options set it, or NULL */
	/* ordo_graph_mean_degree of the graph when the harness already computed it (the
	 * delta hint, kernels with delta_from_graph), else 0 */
	double mean_degree;
};

#define ORDO_APP_OPT_KEY \
	600 /* kernels' own option keys: ORDO_APP_OPT_KEY .. ORDO_APP_OPT_KEY + 99 */

struct ordo_app_array; /* below */

struct ordo_app_kernel {
	const char *name;          /* "sssp": records' algorithm field */
	const char *summary;       /* one line for --help: what it computes */
	const char *baseline_name; /* "Dijkstra" */
	const char *work_note;     /* how baseline tasks are counted, if not obvious; or NULL */
	const char *default_gen;   /* graph generated when no input is given */
	const char *default_wl;    /* scheduler when --wl is not given */
	/* Scheduler when neither --wl nor --delta is given and the graph has a high
	 * diameter (ordo_delta_hint's ball rule, `wide`), in place of default_wl; NULL:
	 * default_wl on every graph. It must have the hooks default_wl has (release, for
	 * --coop and --seats, which are checked before the load). */
	const char *default_wl_wide;
	/* Scheduler parameters that fit this app's priorities ("delta=0": levels that grow
	 * by one), applied to any scheduler that has them where neither the spec nor --delta
	 * sets them, so `--wl obim` means OBIM tuned for this app, not OBIM's generic
	 * default; NULL when the schedulers' own defaults fit. */
	const char *wl_params;
	/* true: a scheduler's `delta` that neither the spec, --delta nor wl_params sets
	 * comes from the graph (ordo_delta_hint, for priorities that are distances), and
	 * the report says what it was made of */
	bool delta_from_graph;
	/* with delta_from_graph: on a high-diameter graph, ordo_delta_hint's shift_reach (a
	 * tenth of a ball's reach, for a goal-directed search: astar) rather than its shift */
	bool delta_by_reach;
	/* Whether a run with these options (the kernel's block, --wl given or not, thread
	 * count) pulls its tasks from the scheduler; false: the report names no scheduler
	 * and prints none of its counters (records keep the spec, counters empty). NULL:
	 * always. */
	bool (*uses_scheduler)(const void *opts, bool wl_given, int threads);
	enum ordo_app_query_kind query;
	unsigned needs; /* enum ordo_app_needs */
	/* figures of its check, recorded in this order as fields of these names */
	const char *figures[ORDO_CHECK_FIGURES + 1];
	/* Own options (NULL-terminated, keys from ORDO_APP_OPT_KEY), kept in one options block
	 * of opts_size bytes that the harness allocates, fills from opts_defaults (zeroes
	 * when NULL) and hands to `option` once per option given (arg NULL for a flag);
	 * it returns 0, or an ORDO_E* code with err set (the harness prints it and exits
	 * 2). init gets the block as env->opts. A session sets them from "name=value"
	 * strings (ordo_app_session_opts.options). arg points into argv, or into the
	 * session's string after its '=': it lives until the binary exits or the session
	 * is closed, so the block may keep the pointer for the kernel's init and runs, not
	 * longer. All may be NULL/0. */
	const struct ordo_cli_opt *opts;
	size_t opts_size;
	const void *opts_defaults;
	int (*option)(void *opts, int key, const char *arg, struct ordo_err *err);
	/* Per-graph state, made once, after the harness prepared the graph for `needs`
	 * (symmetrised, weighed); may print notes on env->report. The order of calls per
	 * trial is baseline (only when the query changed), run, check. */
	int (*init)(void **st, const struct ordo_graph *g, const struct ordo_app_env *env,
	            struct ordo_err *err);
	void (*fini)(void *st);
	/* The sequential baseline for q, two things that may come from two algorithms:
	 * the reference answer in st (exact; for an approximate app, one within its
	 * tolerance, e.g. pagerank's power iteration) and b->tasks, the work ratio's
	 * denominator (the tasks of the sequential algorithm the parallel one is measured
	 * against: Dijkstra's settled nodes, pagerank's sequential push). Called again only
	 * when q changes, so the reference must survive runs. Timed by the harness unless
	 * it sets b->seconds (pagerank times its push alone). */
	int (*baseline)(void *st, const struct ordo_app_query *q, struct ordo_app_baseline *b,
	                struct ordo_err *err);
	/* The parallel kernel, once per trial, with a fresh scheduler: it resets its own
	 * per-run state (the harness does not). rs->seconds is the time reported (the
	 * executor's loop, ordo_for_each's; a kernel that times itself sets it);
	 * rs->tasks is divided by the baseline's tasks. o->lookahead 0 means the
	 * algorithm's default depth, ORDO_LOOKAHEAD_OFF no pipeline. */
	int (*run)(void *st, const struct ordo_app_query *q, struct ordo_scheduler *wl,
	           const struct ordo_exec_opts *o, struct ordo_run_stats *rs, struct ordo_err *err);
	/* Compares the last run with the last baseline. The harness hands it an empty,
	 * passing check (ordo_check_init): it only records mismatches and figures. */
	void (*check)(void *st, const struct ordo_app_query *q, struct ordo_check *c);
	/* Optional, for bindings (ordo_app_session): the last run's answer as up to `max` named
	 * arrays (values in the graph's node order; the caller copies them before the next
	 * run). Returns how many, or -1 with err set. */
	int (*answer)(void *st, struct ordo_app_array *out, int max, struct ordo_err *err);
};

/* One array of an answer: count values of `width` bytes (4 or 8, unsigned; or doubles,
 * `real`), indexed by node unless `per_node` is false (then a list, e.g. a forest's
 * arcs). A per-node unsigned value of the width's maximum is an unreached node. The binaries'
 * --output writes these (app_answer.c), the Python package returns them. */
struct ordo_app_array {
	const char *name;
	const void *data;
	uint64_t count;
	unsigned width;
	bool per_node;
	bool node_ids; /* the values are node ids (a forest's ends): written as input ids */
	bool real;     /* the values are doubles (width 8; no value means unreached) */
};

/* a's values as the user sees them, into dst (a->count values of a->width bytes): a
 * per-node array in the input's node order (a renumbered graph's input ids), node ids
 * (a->node_ids) as input ids, an unreached value kept. What --output writes and the
 * Python package returns. */
void ordo_app_array_in_input_order(const struct ordo_app_array *a, const struct ordo_graph *g,
                                   void *dst);

/* An answer of one array (the usual answer hook's body). */
static inline int ordo_app_answer_one(struct ordo_app_array *out, int max, const char *name,
                                      const void *data, uint64_t count, unsigned width,
                                      bool per_node)
{
	if (max < 1)
		return 0;
	out[0] = (struct ordo_app_array){name, data, count, width, per_node};
	return 1;
}

/* For an app with an algorithm of its own besides its scheduler-driven one (kcore's
 * peeling, components' Afforest): the one a run takes is `given` (>= 0: the user's choice),
 * else the scheduler-driven one when --wl was given, else its own. */
static inline int ordo_app_algo(int given, bool wl_given, int scheduled, int own)
{
	return given >= 0 ? given : wl_given ? scheduled : own;
}

/* Runs the whole binary; returns the exit status (0, 1 on a failed verification, 2 on
 * bad usage or input, 3 on I/O or memory failure). */
int ordo_app_main(const struct ordo_app_kernel *k, int argc, char **argv);

/* ---- the harness without a command line: what the Python package calls ----
 * A session holds a kernel on a graph the caller owns (borrowed; a kernel that needs a
 * symmetric or weighted graph gets a prepared copy), with the scheduler resolved as the
 * binaries resolve it; each trial runs one query exactly as a binary's trial does and
 * gives its record as the binaries' JSON line. Nothing is printed. */
struct ordo_app_session;
struct ordo_app_session_opts {
	const char *input; /* the graph's name in records */
	const char *wl;    /* scheduler spec; NULL: the app's default */
	int64_t delta;     /* -1: not given */
	int threads;       /* 0: every CPU of the affinity mask */
	int64_t lookahead; /* -1: the algorithm's */
	uint64_t seed;     /* queries are the caller's; seeds the schedulers */
	bool verify;       /* the verdict; the baseline runs either way (work ratio) */
	/* when it becomes true a running trial stops at its next check (ORDO_ECANCELED);
	 * NULL: never */
	const volatile _Atomic bool *cancel;
	/* the kernel's own options as "name=value" (a flag: "name"), NULL-terminated,
	 * set as its command-line options are; NULL: its defaults. The strings must stay
	 * valid until ordo_app_session_close: a kernel may keep pointers into them. */
	const char *const *options;
	/* the binaries' --seats (auto, adapt, all or a count; NULL: auto) and --coop (NULL:
	 * none; "": the default budget; else the budget's name) */
	const char *seats;
	const char *coop;
	/* the binaries' --sim, "P[:KEY=V,...]": P virtual workers on the calling thread
	 * (runtime/README.md, the linearized executor) instead of `threads`; NULL: a real
	 * run. Not with coop. */
	const char *sim;
};
int ordo_app_session_open(const struct ordo_app_kernel *k, struct ordo_graph *g,
                          const struct ordo_app_session_opts *o, struct ordo_app_session **out,
                          struct ordo_err *err);
/* Runs trial `trial_no` (1-based; it also seeds the scheduler) for q in the graph's
 * ids; *record: a malloc'd JSON object (no newline), the caller frees it; *pass: the
 * verdict (true when not verified). */
int ordo_app_session_trial(struct ordo_app_session *s, const struct ordo_app_query *q, int trial_no,
                           char **record, bool *pass, struct ordo_err *err);
/* The last trial's answer (kernel->answer). Errors: EINVAL when the kernel has none,
 * or the kernel's own (ENOMEM). */
int ordo_app_session_answer(struct ordo_app_session *s, struct ordo_app_array *out, int max, int *n,
                            struct ordo_err *err);
/* The graph the kernel runs on (the caller's, or the prepared copy). */
const struct ordo_graph *ordo_app_session_graph(const struct ordo_app_session *s);
void ordo_app_session_close(struct ordo_app_session *s);

#endif
