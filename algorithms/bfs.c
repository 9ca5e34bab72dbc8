/*
 * bfs - breadth-first search levels, verified against a sequential queue BFS. By
 * default in the frontier mode (direction-optimising rounds, ordo_frontier.h); with
 * --direction push (or an explicit --wl) as a priority-scheduled operator on any
 * registered scheduler. `bfs --help` lists the options; with no input it runs on a
 * generated road-like graph of about a million nodes.
 */
#include <stdlib.h>
#include <string.h>

#include "ordo_app.h"
#include "ordo_apps.h"
#include "ordo_bfs.h"

enum { O_DIRECTION = ORDO_APP_OPT_KEY, O_ALPHA, O_BETA, O_HANDOFF };

static const struct ordo_cli_opt bfs_opts[] = {
    {"direction", O_DIRECTION, "auto|push|pull|rounds-push",
     "auto (default): frontier rounds, each pushed or pulled by Beamer's rule; push: the "
     "scheduler-driven operator (--wl; the default when --wl is given); pull or "
     "rounds-push: every round one way"},
    {"alpha", O_ALPHA, "A", "push -> pull when frontier arcs > unexplored arcs / A (15)"},
    {"beta", O_BETA, "B", "pull -> push when a round adds < n / B nodes, fewer than the last (18)"},
    {"handoff-round", O_HANDOFF, "R",
     "auto: from round R on, a push round that leaves fewer than n / 64 nodes hands them "
     "over: on one thread to a FIFO queue, on more to the scheduler (--wl), which "
     "finishes asynchronously; 0: never (default: 32 on one thread, where a high-diameter "
     "graph's thousands of small rounds cost more than a queue, else 0)"},
    {NULL, 0, NULL, NULL},
};

enum { DIR_SCHEDULER = 100 };

/* bfs's options block (struct ordo_app_kernel.opts_size) */
struct bfs_options {
	int direction;         /* -1: not given (auto, or push when --wl is given) */
	double alpha, beta;    /* 0: the frontier's defaults */
	int64_t handoff_round; /* -1: not given (BFS_HANDOFF_ONE on one thread, else never) */
};
static const struct bfs_options bfs_option_defaults = {.direction = -1, .handoff_round = -1};

/* The default hand-off: on one thread the rounds of a high-diameter graph cost more
 * than a queue (road2k: 206 ms of rounds, 139 ms handing off at round 32); on two
 * threads the rounds win (112 ms, against 151 ms handing off to the scheduler). */
#define BFS_HANDOFF_ONE 32
static uint32_t handoff_round(const struct bfs_options *o, int threads)
{
	return o->handoff_round >= 0 ? (uint32_t)o->handoff_round
	       : threads == 1        ? BFS_HANDOFF_ONE
	                             : 0;
}

/* The form a run takes: --direction's, else the scheduled one when --wl is given,
 * else direction-optimising rounds. */
static int direction_of(const struct bfs_options *o, bool wl_given)
{
	return o->direction >= 0 ? o->direction : wl_given ? DIR_SCHEDULER : ORDO_FRONTIER_AUTO;
}

/* The frontier's rounds use no scheduler, except for the rounds after a hand-off on
 * more than one thread; the scheduled form (push) always does. */
static bool uses_scheduler(const void *opts, bool wl_given, int threads)
{
	const struct bfs_options *o = opts;
	const int dir = direction_of(o, wl_given);
	return dir == DIR_SCHEDULER ||
	       (dir == ORDO_FRONTIER_AUTO && threads > 1 && handoff_round(o, threads));
}

static int option(void *opts, int key, const char *arg, struct ordo_err *err)
{
	struct bfs_options *o = opts;
	if (key == O_DIRECTION) {
		o->direction = !strcmp(arg, "auto")          ? ORDO_FRONTIER_AUTO
		               : !strcmp(arg, "push")        ? DIR_SCHEDULER
		               : !strcmp(arg, "pull")        ? ORDO_FRONTIER_PULL
		               : !strcmp(arg, "rounds-push") ? ORDO_FRONTIER_PUSH
		                                             : -2;
		if (o->direction == -2)
			return ordo_err_set(
			    err, ORDO_EINVAL,
			    "--direction %s: expected auto, push, pull or rounds-push", arg);
		return 0;
	}
	if (key == O_HANDOFF)
		return ordo_cli_parse_int("--handoff-round", arg, 0, UINT32_MAX, &o->handoff_round,
		                          err);
	return ordo_cli_parse_double(key == O_ALPHA ? "--alpha" : "--beta", arg, false,
	                             key == O_ALPHA ? &o->alpha : &o->beta, err);
}

struct bfs_state {
	const struct ordo_graph *g;
	struct ordo_graph *gt; /* the transpose of a directed graph, for pull rounds */
	_Atomic uint32_t *level;
	uint32_t *ref;
	int dir; /* DIR_SCHEDULER or an enum ordo_frontier_dir */
	struct bfs_options opt;
	struct ordo_frontier_space *space;
	struct ordo_bfs_stats fs;
};

static int init(void **st, const struct ordo_graph *g, const struct ordo_app_env *env,
                struct ordo_err *err)
{
	struct bfs_state *s = calloc(1, sizeof *s);
	if (!s)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	*st = s;
	s->g = g;
	s->opt = *(const struct bfs_options *)env->opts;
	s->dir = direction_of(&s->opt, env->wl_given);
	s->level = ordo_alloc_huge((size_t)g->n * sizeof *s->level + 8);
	s->ref = ordo_alloc_huge((size_t)g->n * sizeof *s->ref + 8);
	if (!s->level || !s->ref)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory for levels");
	if (s->dir == DIR_SCHEDULER)
		return 0;
	int rc = ordo_frontier_space_create(g->n, env->topo->nthreads, &s->space, err);
	if (rc)
		return rc;
	if (s->dir != ORDO_FRONTIER_PUSH && !(g->flags & ORDO_GRAPH_SYMMETRIC)) {
		double t0 = ordo_now();
		rc = ordo_graph_transposed(g, env->topo->nthreads, &s->gt, err);
		if (rc)
			return rc;
		if (env->report)
			fprintf(
			    env->report,
			    "bfs: the graph is directed: its transpose (in-arcs for pull rounds, "
			    "%.1f MiB) built in %.3f s\n",
			    (double)ordo_graph_csr_bytes(s->gt) / (1 << 20), ordo_now() - t0);
	}
	const uint32_t h = handoff_round(&s->opt, env->topo->nthreads);
	if (env->report && s->dir == ORDO_FRONTIER_AUTO && h)
		fprintf(env->report,
		        "bfs: frontier rounds (--direction auto); from round %u a small frontier "
		        "goes to %s, which finishes (--handoff-round)\n",
		        h, env->topo->nthreads == 1 ? "a FIFO queue" : "the scheduler");
	else if (env->report)
		fprintf(env->report,
		        "bfs: frontier rounds only (--direction %s), no scheduler (--wl or "
		        "--direction push runs one)\n",
		        s->dir == ORDO_FRONTIER_AUTO   ? "auto, --handoff-round 0"
		        : s->dir == ORDO_FRONTIER_PULL ? "pull"
		                                       : "rounds-push");
	return 0;
}

static void fini(void *st)
{
	struct bfs_state *s = st;
	free(s->level);
	free(s->ref);
	ordo_graph_free(s->gt);
	ordo_frontier_space_free(s->space);
	free(s);
}

static int baseline(void *st, const struct ordo_app_query *q, struct ordo_app_baseline *b,
                    struct ordo_err *err)
{
	struct bfs_state *s = st;
	uint64_t visited, arcs;
	int rc = ordo_bfs_seq_work(s->g, q->source, s->ref, &visited, &arcs, err);
	/* the scheduler counts nodes run; the rounds count levels set and arcs examined */
	b->tasks = s->dir == DIR_SCHEDULER ? visited : visited + arcs;
	return rc;
}

static int run(void *st, const struct ordo_app_query *q, struct ordo_scheduler *wl,
               const struct ordo_exec_opts *o, struct ordo_run_stats *rs, struct ordo_err *err)
{
	struct bfs_state *s = st;
	if (s->dir == DIR_SCHEDULER)
		return ordo_bfs(s->g, q->source, wl, o, s->level, rs, err);
	const struct ordo_frontier_opts fo = {.topo = o->topo,
	                                      .direction = (enum ordo_frontier_dir)s->dir,
	                                      .alpha = s->opt.alpha,
	                                      .beta = s->opt.beta,
	                                      .space = s->space,
	                                      .handoff_round =
	                                          handoff_round(&s->opt, o->topo->nthreads),
	                                      .cancel = o->cancel};
	const struct ordo_graph *gt = s->g->flags & ORDO_GRAPH_SYMMETRIC ? s->g : s->gt;
	int rc = ordo_bfs_frontier(s->g, gt, q->source, &fo, wl, o, s->level, &s->fs, err);
	if (rc)
		return rc;
	/* levels set and arcs examined, the rounds' and the tail's */
	const struct ordo_frontier_stats *r = &s->fs.rounds;
	const struct ordo_run_stats *t = &s->fs.tail;
	memset(rs, 0, sizeof *rs);
	rs->seconds = s->fs.seconds;
	rs->threads = r->threads;
	rs->tasks = r->added + 1 + r->arcs + s->fs.tail_set + s->fs.tail_arcs;
	rs->pushes = r->added + 1 + s->fs.tail_set;
	rs->empty = t->empty;
	rs->failed_pops = t->failed_pops;
	rs->lookahead = t->lookahead;
	memcpy(rs->wl_stat, t->wl_stat, sizeof rs->wl_stat);
	rs->tasks_min = s->fs.work_min;
	rs->tasks_median = s->fs.work_median;
	rs->tasks_max = s->fs.work_max;
	return 0;
}

static void check(void *st, const struct ordo_app_query *q, struct ordo_check *c)
{
	(void)q;
	struct bfs_state *s = st;
	ordo_bfs_check(s->g, s->level, s->ref, c);
	const bool rounds = s->dir != DIR_SCHEDULER;
	ordo_check_figure(c, "rounds_push", rounds ? s->fs.rounds.rounds_push : 0);
	ordo_check_figure(c, "rounds_pull", rounds ? s->fs.rounds.rounds_pull : 0);
	ordo_check_figure(c, "handed_off", rounds ? s->fs.rounds.handed_off : 0);
}

static int answer(void *st, struct ordo_app_array *out, int max, struct ordo_err *err)
{
	(void)err;
	const struct bfs_state *s = st;
	return ordo_app_answer_one(out, max, "level", (const void *)s->level, s->g->n, 4, true);
}

/* The kernel: this binary's, and the apps library's (ordo_apps.h, for bindings). */
const struct ordo_app_kernel ordo_kernel_bfs = {
    .name = "bfs",
    .summary = "breadth-first search levels (frontier rounds pushed or pulled; "
               "--direction push: priority = level on a scheduler)",
    .baseline_name = "queue BFS",
    .work_note = "frontier rounds: tasks = levels set + arcs examined, baseline the "
                 "same of the queue BFS (its visited nodes + their out-arcs); "
                 "--direction push: tasks = nodes run, baseline its visited nodes",
    .default_gen = "road:W=1024,H=1024",
    .default_wl = "obim",
    .wl_params = "delta=0", /* levels grow by one */
    .uses_scheduler = uses_scheduler,
    .query = ORDO_APP_QUERY_SOURCE,
    .figures = {"reached", "max_level", "rounds_push", "rounds_pull", "handed_off"},
    .opts = bfs_opts,
    .opts_size = sizeof(struct bfs_options),
    .opts_defaults = &bfs_option_defaults,
    .option = option,
    .init = init,
    .fini = fini,
    .baseline = baseline,
    .run = run,
    .check = check,
    .answer = answer,
};

#ifndef ORDO_APP_LIBRARY
int main(int argc, char **argv)
{
	return ordo_app_main(&ordo_kernel_bfs, argc, argv);
}
#endif
