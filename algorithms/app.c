/* app.c - the harness of the ordo binaries (see ordo_app.h): set-up (the graph made fit
 * for the kernel, the scheduler resolved once), trials, summary, and sessions (the same
 * without a command line). Options are app_options.c's; records app_records.c's. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_internal.h"
#include "ordo_coop.h"
#include "ordo_util.h"

/* ---- set-up ---- */

/* Makes r->g fit the kernel's needs (ordo_graph_prepare: symmetrised, weighed by its
 * coordinates; then compressed again when `compress`), after refusing an input that
 * cannot run. r->g may be replaced by a new graph (the old one is freed unless it is
 * r->borrowed, the caller's). Notes go to stderr unless quiet. */
static int ordo_app_prepare(struct ordo_app_run *r, bool quiet, bool compress, struct ordo_err *err)
{
	const struct ordo_app_kernel *k = r->k;
	const struct ordo_graph *g = r->g;
	if (g->n == 0 || g->m == 0)
		return ordo_err_set(err, ORDO_EINVAL, "%s has no arcs: nothing to run", r->input);
	if ((k->needs & ORDO_APP_NEEDS_COORDS) && g->coord_kind == ORDO_COORD_NONE)
		return ordo_err_set(err, ORDO_EINVAL,
		                    "%s has no node coordinates, and this app needs them; give "
		                    "them with --coords FILE (DIMACS .co or one 'x y' line per "
		                    "node)",
		                    r->input);
	if ((k->needs & ORDO_APP_NEEDS_WEIGHTS) && !ordo_graph_weighted(g) &&
	    g->coord_kind == ORDO_COORD_NONE)
		return ordo_err_set(err, ORDO_EINVAL,
		                    "%s has no arc weights, and this app needs them; give "
		                    "--random-weights LO:HI (or coordinates with --coords to weigh "
		                    "arcs by length)",
		                    r->input);
	const bool sym =
	    (k->needs & ORDO_APP_NEEDS_SYMMETRIC) && !(g->flags & ORDO_GRAPH_SYMMETRIC);
	const struct ordo_prep p = {
	    .build = {.symmetrize = sym,
	              .dedup = sym, /* both directions of an edge weigh the same */
	              .keep_self_loops = true,
	              .threads = r->topo.nthreads,
	              .compress = compress && ordo_graph_compressed(g)},
	    .weights_from_coords = (k->needs & ORDO_APP_NEEDS_WEIGHTS) && !ordo_graph_weighted(g)};
	struct ordo_prep_info info;
	int rc = ordo_graph_prepare(&r->g, &p, r->g != r->borrowed, &info, err);
	if (rc)
		return rc;
	if (!quiet && sym)
		fprintf(stderr,
		        "%s needs an undirected graph and %s is not marked symmetric: "
		        "symmetrised (%llu reverse arcs added, %llu duplicate arcs merged "
		        "keeping the lightest) to %llu arcs in %.3f s\n",
		        k->name, r->input, (unsigned long long)info.build.reverse_arcs_added,
		        (unsigned long long)info.build.duplicates_removed,
		        (unsigned long long)r->g->m, info.rebuild_seconds);
	if (!quiet && p.weights_from_coords)
		fprintf(stderr,
		        "%s is unweighted: weights = rounded Euclidean lengths from "
		        "its coordinates\n",
		        r->input);
	return 0;
}

/* Resolves r->cfg's scheduler once, every parameter included, into r->spec and its
 * text r->sched (the first setting of a key wins: the spec's, then --delta's, then the
 * app's wl_params); *has_delta: the scheduler has a delta. Nothing is created. */
static int resolve_spec(struct ordo_app_run *r, const char *wl_spec, bool *has_delta,
                        struct ordo_err *err)
{
	const struct ordo_app_cfg *c = r->cfg;
	int rc = ordo_sched_parse(wl_spec, &r->spec, err);
	*has_delta = false;
	if (!rc && c->delta >= 0)
		rc = ordo_sched_default(&r->spec, "delta", c->delta, has_delta, err);
	if (!rc)
		rc = ordo_sched_defaults(&r->spec, r->k->wl_params, err);
	if (rc)
		return rc;
	snprintf(r->sched, sizeof r->sched, "%s", r->spec.spec);
	r->ops = r->spec.ops;
	return 0;
}

static int resolve_scheduler(struct ordo_app_run *r, bool *has_delta, struct ordo_err *err)
{
	return resolve_spec(r, r->cfg->wl_spec, has_delta, err);
}

/* What the loaded graph and the options decide: whether the run uses its scheduler
 * (r->sched_used); for a kernel with a scheduler of its own for high-diameter graphs,
 * that one when the user chose none (r->wide_default says so); and, for a kernel whose
 * delta comes from the graph, a `delta` that the scheduler has and nothing set (spec,
 * --delta, wl_params): the graph's hint (r->hinted says so). */
static int resolve_for_graph(struct ordo_app_run *r, struct ordo_err *err)
{
	const struct ordo_app_kernel *k = r->k;
	r->sched_used = !k->uses_scheduler || k->uses_scheduler(r->cfg->ordo_app_opts,
	                                                        r->cfg->wl_given, r->topo.nthreads);
	if (!r->sched_used)
		return 0;
	bool measured = false, has_delta;
	int rc;
	if (k->default_wl_wide && !r->cfg->wl_given && r->cfg->delta < 0) {
		ordo_delta_hint(r->g, &r->hint);
		measured = true;
		if (r->hint.wide) {
			if ((rc = resolve_spec(r, k->default_wl_wide, &has_delta, err)))
				return rc;
			r->wide_default = true;
		}
	}
	if (!k->delta_from_graph || !ordo_sched_unset(&r->spec, "delta"))
		return 0;
	if (!measured)
		ordo_delta_hint(r->g, &r->hint);
	r->hint_shift = k->delta_by_reach ? r->hint.shift_reach : r->hint.shift;
	rc = ordo_sched_default(&r->spec, "delta", r->hint_shift, NULL, err);
	if (rc)
		return rc;
	r->hinted = true;
	snprintf(r->sched, sizeof r->sched, "%s", r->spec.spec);
	return 0;
}

static void say_hint(const struct ordo_app_run *r)
{
	const struct ordo_delta_hint *h = &r->hint;
	if (r->wide_default && r->hout)
		fprintf(r->hout,
		        "scheduler %s from the graph: a %d-node ball %u levels deep (high "
		        "diameter; %s otherwise); --wl or --delta sets it\n",
		        r->k->default_wl_wide, ORDO_HINT_BALL, h->ball_depth, r->k->default_wl);
	if (!r->hinted || !r->hout)
		return;
	char rule[96];
	if (h->wide && r->k->delta_by_reach)
		snprintf(rule, sizeof rule,
		         "high diameter, goal-directed: width = mean weight x ball depth / %d",
		         ORDO_HINT_REACH_DIV);
	else if (h->wide)
		snprintf(rule, sizeof rule, "high diameter: width = %d mean weights",
		         ORDO_HINT_WIDE);
	else
		snprintf(rule, sizeof rule, "width = mean weight / mean degree");
	fprintf(r->hout,
	        "delta %d from the graph: mean weight %.1f, mean degree %.1f, a %d-node ball "
	        "%u levels deep (%s); --delta D or the spec's delta= sets it\n",
	        r->hint_shift, h->mean_weight, h->mean_degree, ORDO_HINT_BALL, h->ball_depth, rule);
}

/* --sim: what the run is, and a scheduler whose decisions read clocks (they follow
 * the simulating thread's, not a worker's). */
static void say_sim(const struct ordo_app_run *r)
{
	if (!r->cfg->sim_workers)
		return;
	fprintf(r->hout,
	        "simulated: %d virtual workers on one thread (--sim %s), one atomic step "
	        "at a time\n",
	        r->cfg->sim_workers, r->sim_spec);
	const struct ordo_scheduler_ops *ops = r->spec.ops;
	if (r->sched_used && ops && ops->reads_clock && ops->reads_clock(r->spec.params))
		fprintf(
		    r->hout,
		    "note: %s reads clocks with these parameters (%s): under --sim they are the "
		    "one simulating thread's, so those decisions do not model P workers\n",
		    ops->name, r->sched);
}

/* --source and --target name nodes of g by input id (sparse ones under --compact-ids);
 * false after a message when one does not. */
static bool query_ids_exist(const struct ordo_app_run *r, const struct ordo_graph *g)
{
	for (int k = 0; k < 2; k++) {
		const int64_t id = k ? r->cfg->target : r->cfg->source;
		if (id < 0 || (id <= UINT32_MAX && ordo_graph_has_id(g, (uint32_t)id)))
			continue;
		if (g->ids_sparse)
			fprintf(stderr,
			        "%s: --%s %lld: no node has that id in %s (its %u ids are the edge "
			        "list's, %u..%u)\n",
			        ordo_cli_prog, k ? "target" : "source", (long long)id, r->input,
			        g->n, ordo_graph_orig_of(g, ordo_graph_node_at(g, 0)),
			        ordo_graph_orig_of(g, ordo_graph_node_at(g, g->n - 1)));
		else
			fprintf(stderr, "%s: --%s %lld: the graph has nodes 0..%u\n", ordo_cli_prog,
			        k ? "target" : "source", (long long)id, g->n - 1);
		return false;
	}
	return true;
}

/* The run's workers, for the binaries and sessions alike: --sim's virtual ones (never
 * with --coop; the canonical spec into r->sim_spec) or `threads` real ones. */
static int workers_init(struct ordo_app_run *r, const struct ordo_app_cfg *c, int threads, int fake,
                        int bind, bool coop, struct ordo_err *err)
{
	if (!c->sim_workers)
		return ordo_topology_init(&r->topo, threads, fake, bind, err);
	if (coop)
		return ordo_err_set(err, ORDO_EINVAL, "--sim and --coop do not go together");
	ordo_sim_describe(&c->sim, c->sim_workers, r->sim_spec, sizeof r->sim_spec);
	return ordo_topology_init(&r->topo, c->sim_workers, fake, ORDO_BIND_NONE, err);
}

static int ordo_app_setup(struct ordo_app_run *r)
{
	const struct ordo_app_kernel *k = r->k;
	struct ordo_app_cfg *c = r->cfg;
	struct ordo_err err = {0};
	r->mout = c->fmt == F_TEXT ? NULL : stdout;
	r->hout = c->quiet ? NULL : c->fmt == F_TEXT ? stdout : stderr;
	if (r->mout)
		setvbuf(stdout, NULL, _IOLBF, 0);
	harness_stat_columns(r);
	int rc = workers_init(r, c, (int)c->threads, (int)c->fake, c->bind, c->coop, &err);
	if (rc)
		return ordo_cli_fail(ordo_cli_prog, &err);
	c->lo.threads = r->topo.nthreads;
	if (k->needs & ORDO_APP_NEEDS_SELF_LOOPS) /* as --keep-self-loops */
		c->lo.build.keep_self_loops = true;
	/* everything that can be checked before the (possibly long) load: the scheduler
	 * (resolved once, every parameter and --delta included; nothing created) and the --out file
	 */
	bool has_delta;
	if ((rc = resolve_scheduler(r, &has_delta, &err)))
		return ordo_cli_fail(ordo_cli_prog, &err);
	if (c->delta >= 0 && !has_delta && !c->quiet)
		fprintf(stderr, "%s: note: --delta %lld is not used: %s has no delta parameter\n",
		        ordo_cli_prog, (long long)c->delta, r->ops->name);
	if (c->out_path && (rc = harness_check_out(r)))
		return rc;
	if (c->answer_path && (rc = harness_check_output(k, c->answer_path)))
		return rc;
	const int cpus = ordo_cpus_available();
	if (r->topo.nthreads > cpus && !c->quiet && !c->sim_workers) /* said, not refused */
		fprintf(
		    stderr,
		    "%s: note: %d threads on the %d CPU%s of this process's affinity mask: more "
		    "workers than CPUs (--seats says how many run tasks at once)\n",
		    ordo_cli_prog, r->topo.nthreads, cpus, cpus == 1 ? "" : "s");
	if ((c->coop || c->seats) && !r->ops->release && !c->quiet)
		fprintf(stderr,
		        "%s: note: %s cannot hand a worker's tasks over (no release hook): every "
		        "worker runs, and --seats and --coop do not apply\n",
		        ordo_cli_prog, r->ops->name);
	if (c->coop && r->ops->release &&
	    ordo_coop_open(c->coop_name ? c->coop_name : ordo_coop_default_name(), 0, &r->coop,
	                   &err))
		return ordo_cli_fail(ordo_cli_prog, &err);
	int fmt;
	rc = ordo_cli_load_graph(c->file, c->file ? NULL : (c->gen ? c->gen : k->default_gen),
	                         &c->lo, c->quiet, &r->g, r->input, sizeof r->input, &r->load_s,
	                         &fmt);
	if (rc)
		return rc;
	r->format = fmt;
	if ((rc = ordo_app_prepare(r, c->quiet, c->lo.build.compress, &err)) ||
	    (rc = resolve_for_graph(r, &err)))
		return ordo_cli_fail(ordo_cli_prog, &err);
	struct ordo_graph *g = r->g;
	if (!query_ids_exist(r, g))
		return 2;
	if (r->hout) {
		fprintf(r->hout,
		        "%s on %s (%u nodes, %llu arcs) with %s, %d threads (%d NUMA node%s%s), "
		        "seed %lld\n",
		        k->name, r->input, g->n, (unsigned long long)g->m,
		        r->sched_used ? r->sched : "no scheduler (below)", r->topo.nthreads,
		        r->topo.nnodes, r->topo.nnodes == 1 ? "" : "s",
		        r->topo.fake ? ", fake" : "", (long long)c->seed);
		say_hint(r);
		say_sim(r);
		fprintf(r->hout, "baseline: %s; work ratio = tasks / baseline tasks%s%s%s\n",
		        k->baseline_name, k->work_note ? " (" : "",
		        k->work_note ? k->work_note : "", k->work_note ? ")" : "");
		/* DIMACS, METIS and Matrix Market number nodes from 1; ordo from 0 */
		if (k->query != ORDO_APP_QUERY_NONE && ordo_format_info(fmt) &&
		    (ordo_format_info(fmt)->flags & ORDO_FORMAT_ONE_BASED))
			fprintf(r->hout,
			        "node ids: 0-based, here and in the options (the %s file's node 1 "
			        "is node 0)\n",
			        ordo_format_name(fmt));
	}
	struct ordo_app_env env = {.topo = &r->topo,
	                           .seed = (uint64_t)c->seed,
	                           .report = r->hout,
	                           .wl_given = c->wl_given,
	                           .opts = c->ordo_app_opts,
	                           .mean_degree = r->hinted ? r->hint.mean_degree : 0};
	if ((rc = k->init(&r->st, g, &env, &err)))
		return ordo_cli_fail(ordo_cli_prog, &err);
	return 0;
}

/* ---- trials ---- */

static int pick_query(struct ordo_app_run *r, int64_t i, struct ordo_app_query *q)
{
	const struct ordo_app_cfg *c = r->cfg;
	struct ordo_err err = {0};
	*q = (struct ordo_app_query){ORDO_APP_NO_NODE, ORDO_APP_NO_NODE};
	switch (r->k->query) {
	case ORDO_APP_QUERY_NONE:
		return 0;
	case ORDO_APP_QUERY_SOURCE:
		/* ids given and printed are the input's (a renumbered graph maps them) */
		q->source = c->source >= 0
		                ? ordo_graph_node_of(r->g, (uint32_t)c->source)
		                : ordo_graph_pick_source(r->g, (uint64_t)c->seed, (uint64_t)i);
		return 0;
	case ORDO_APP_QUERY_PAIR:
		if (c->source >= 0) {
			q->source = ordo_graph_node_of(r->g, (uint32_t)c->source);
			q->target = ordo_graph_node_of(r->g, (uint32_t)c->target);
			return 0;
		}
		if (ordo_graph_pick_pair(r->g, (uint64_t)c->seed,
		                         (uint64_t)(c->pairs ? i % c->pairs : i), &q->source,
		                         &q->target, &err))
			return ordo_cli_fail(ordo_cli_prog, &err);
		return 0;
	}
	return 0;
}

/* Trial i for query t->q: the baseline (again only when the query changed since
 * *last), a fresh scheduler, the timed run and the check. */
static int one_trial(struct ordo_app_run *r, int64_t i, struct trial *t,
                     struct ordo_app_query *last, struct ordo_app_baseline *base,
                     struct ordo_err *err)
{
	const struct ordo_app_kernel *k = r->k;
	const struct ordo_app_cfg *c = r->cfg;
	int rc;
	if (t->q.source != last->source || t->q.target != last->target) {
		double t0 = ordo_now();
		*base = (struct ordo_app_baseline){0};
		if ((rc = k->baseline(r->st, &t->q, base, err)))
			return rc;
		if (base->seconds <= 0)
			base->seconds = ordo_now() - t0;
		*last = t->q;
	}
	t->base = *base;
	struct ordo_scheduler wl = {0};
	rc = ordo_sched_create(&r->spec, &r->topo, (uint64_t)c->seed + (uint64_t)i, &wl, err);
	if (rc)
		return rc;
	struct ordo_exec_opts eo = {.topo = &r->topo,
	                            .seed = (uint64_t)c->seed + (uint64_t)i,
	                            .cancel = r->cancel,
	                            .seats = (int)c->seats,
	                            .coop = r->coop,
	                            .sim = c->sim_workers ? &c->sim : NULL};
	if (c->lookahead >= 0)
		eo.lookahead = c->lookahead ? (unsigned)c->lookahead : ORDO_LOOKAHEAD_OFF;
	rc = k->run(r->st, &t->q, &wl, &eo, &t->rs, err);
	ordo_scheduler_destroy(&wl);
	if (rc)
		return rc;
	ordo_check_init(&t->chk); /* a kernel's check only adds mismatches and figures */
	k->check(r->st, &t->q, &t->chk);
	t->verdict = c->verify ? (t->chk.pass ? "PASS" : "FAIL") : "SKIP";
	return 0;
}

static int ordo_app_trials(struct ordo_app_run *r, struct trial *tr, int *status)
{
	const struct ordo_app_cfg *c = r->cfg;
	struct ordo_err err = {0};
	struct ordo_app_query last = {ORDO_APP_NO_NODE - 1, ORDO_APP_NO_NODE - 1};
	struct ordo_app_baseline base = {0};
	int rc;
	for (int64_t i = 0; i < c->trials; i++) {
		struct trial *t = &tr[i];
		if ((rc = pick_query(r, i, &t->q)))
			return rc;
		if ((rc = one_trial(r, i, t, &last, &base, &err))) {
			if (rc == ORDO_ECANCELED) { /* Ctrl-C: what ran is reported above */
				fprintf(
				    stderr,
				    "%s: interrupted after %lld of %lld trials (their reports are "
				    "above; no summary, no --output)\n",
				    ordo_cli_prog, (long long)i, (long long)c->trials);
				return 130;
			}
			return ordo_cli_fail(ordo_cli_prog, &err);
		}
		if (c->verify && !t->chk.pass)
			*status = 1;
		if (r->hout)
			harness_human_trial(r, (int)i + 1, t);
		if ((rc = harness_emit(r, (int)i + 1, t)))
			return rc;
	}
	return 0;
}

/* ---- summary ---- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median_of(const struct trial *tr, int n, double (*get)(const struct trial *))
{
	double v[n > 0 ? n : 1];
	for (int i = 0; i < n; i++)
		v[i] = get(&tr[i]);
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double get_time(const struct trial *t)
{
	return t->rs.seconds;
}
static double get_base(const struct trial *t)
{
	return t->base.seconds;
}

static void ordo_app_summary(const struct ordo_app_run *r, const struct trial *tr, int status)
{
	int n = (int)r->cfg->trials;
	if (!r->hout) {
		/* -q: nothing is printed unless the answer is wrong; that is never silent */
		int bad = 0, first = -1;
		for (int i = 0; i < n; i++)
			if (r->cfg->verify && !tr[i].chk.pass && (bad++, first < 0))
				first = i;
		if (bad)
			fprintf(stderr,
			        "%s: verification FAIL in %d of %d trials; trial %d: %llu "
			        "mismatch%s, first: %s\n",
			        ordo_cli_prog, bad, n, first + 1,
			        (unsigned long long)tr[first].chk.mismatches,
			        tr[first].chk.mismatches == 1 ? "" : "es", tr[first].chk.first);
		return;
	}
	double tm = median_of(tr, n, get_time), wm = median_of(tr, n, harness_work),
	       bm = median_of(tr, n, get_base);
	char sp[96];
	if (bm < MIN_BASELINE_S)
		snprintf(sp, sizeof sp, "- (baseline %.4f s, too short to time)", bm);
	else
		snprintf(sp, sizeof sp, "%.2fx (baseline %.4f s; median baseline over median time)",
		         tm > 0 ? bm / tm : 0, bm);
	fprintf(r->hout,
	        "summary: median time %.4f s over %d trial%s  work ratio %.3f  speedup vs "
	        "sequential baseline %s  load %.3f s  verification %s\n",
	        tm, n, n == 1 ? "" : "s", wm, sp, r->load_s,
	        !r->cfg->verify ? "SKIPPED"
	        : status        ? "FAIL"
	                        : "PASS");
}

/* Ctrl-C (SIGINT) or SIGTERM while a binary runs: the running trial stops at its next
 * check (every 64 tasks), the trials that finished keep their reports (stdout is line
 * buffered, so a redirected report has them too), and the binary says how far it got
 * and exits 130. A second signal ends it at once. */
static volatile _Atomic bool ordo_app_interrupted;

static void on_interrupt(int sig)
{
	atomic_store(&ordo_app_interrupted, true);
	signal(sig, SIG_DFL);
}

int ordo_app_main(const struct ordo_app_kernel *k, int argc, char **argv)
{
	const char *slash = strrchr(argv[0], '/');
	ordo_cli_prog = slash ? slash + 1 : argv[0];
	harness_galois_aliases(argc, argv);
	struct ordo_app_cfg cfg;
	int rc = harness_parse(k, argc, argv, &cfg);
	if (rc >= 0) {
		free(cfg.ordo_app_opts);
		return rc;
	}
	struct ordo_app_run r = {.k = k, .cfg = &cfg, .cancel = &ordo_app_interrupted};
	setvbuf(stdout, NULL, _IOLBF, 0); /* each trial's lines reach a file as it ends */
	signal(SIGINT, on_interrupt);
	signal(SIGTERM, on_interrupt);
	int status = 0;
	struct trial *tr = calloc((size_t)cfg.trials, sizeof *tr);
	if (!tr) {
		fprintf(stderr, "%s: out of memory\n", ordo_cli_prog);
		return 3;
	}
	rc = ordo_app_setup(&r);
	if (!rc)
		rc = ordo_app_trials(&r, tr, &status);
	if (!rc)
		ordo_app_summary(&r, tr, status);
	if (!rc && cfg.answer_path) {
		if (status) /* a wrong answer is not written */
			fprintf(stderr,
			        "%s: --output %s: not written: the last verification failed\n",
			        ordo_cli_prog, cfg.answer_path);
		else
			rc = harness_write_answer(&r, &tr[cfg.trials - 1], (int)cfg.trials);
	}
	if (rc)
		status = rc;
	if (r.st)
		k->fini(r.st);
	free(tr);
	free(cfg.ordo_app_opts);
	ordo_graph_free(r.g);
	if (r.topo.node)
		ordo_topology_free(&r.topo);
	ordo_coop_close(r.coop);
	if (r.fout && fclose(r.fout) && !status) {
		fprintf(stderr, "%s: --out %s: write failed\n", ordo_cli_prog, cfg.out_path);
		status = 3;
	}
	return status;
}

/* ---- sessions (ordo_app.h) ---- */

struct ordo_app_session {
	struct ordo_app_cfg cfg;
	struct ordo_app_run r;
	struct ordo_app_query last;
	struct ordo_app_baseline base;
};

int ordo_app_session_open(const struct ordo_app_kernel *k, struct ordo_graph *g,
                          const struct ordo_app_session_opts *o, struct ordo_app_session **out,
                          struct ordo_err *err)
{
	*out = NULL;
	struct ordo_app_session *s = calloc(1, sizeof *s);
	if (!s)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	s->cfg = (struct ordo_app_cfg){.wl_spec = o->wl ? o->wl : k->default_wl,
	                               .wl_given = o->wl != NULL,
	                               .trials = 1,
	                               .seed = (int64_t)o->seed,
	                               .delta = o->delta,
	                               .lookahead = o->lookahead,
	                               .source = -1,
	                               .target = -1,
	                               .verify = o->verify,
	                               .quiet = true};
	s->r = (struct ordo_app_run){
	    .k = k, .cfg = &s->cfg, .g = g, .borrowed = g, .cancel = o->cancel};
	snprintf(s->r.input, sizeof s->r.input, "%s", o->input ? o->input : "graph");
	s->last = (struct ordo_app_query){ORDO_APP_NO_NODE - 1, ORDO_APP_NO_NODE - 1};
	harness_stat_columns(&s->r);
	bool has_delta, ok;
	if (!(s->cfg.ordo_app_opts = harness_opts_new(k, &ok)) && !ok) {
		free(s);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	}
	int rc = harness_opts_set(k, s->cfg.ordo_app_opts, o->options, err);
	if (!rc && o->lookahead > ORDO_MAX_LOOKAHEAD) /* the CLI's range, not a silent clamp */
		rc = ordo_err_set(err, ORDO_EINVAL, "lookahead=%lld: expected 0..%d (or unset)",
		                  (long long)o->lookahead, ORDO_MAX_LOOKAHEAD);
	if (!rc && o->seats)
		rc = harness_parse_seats(o->seats, &s->cfg.seats, err);
	if (!rc && o->sim)
		rc = ordo_sim_parse(o->sim, &s->cfg.sim_workers, &s->cfg.sim, err);
	if (!rc)
		rc = workers_init(&s->r, &s->cfg, o->threads, 0, ORDO_BIND_NONE, o->coop != NULL,
		                  err);
	if (!rc)
		rc = resolve_scheduler(&s->r, &has_delta, err);
	if (!rc && o->coop && s->r.ops->release) /* (no hook: every worker runs, as the CLI) */
		rc = ordo_coop_open(o->coop[0] ? o->coop : ordo_coop_default_name(), 0, &s->r.coop,
		                    err);
	if (!rc)
		rc = ordo_app_prepare(&s->r, true, false, err);
	if (!rc)
		rc = resolve_for_graph(&s->r, err);
	if (!rc) {
		struct ordo_app_env env = {.topo = &s->r.topo,
		                           .seed = o->seed,
		                           .report = NULL,
		                           .wl_given = s->cfg.wl_given,
		                           .opts = s->cfg.ordo_app_opts,
		                           .mean_degree = s->r.hinted ? s->r.hint.mean_degree : 0};
		rc = k->init(&s->r.st, s->r.g, &env, err);
	}
	if (rc) {
		ordo_app_session_close(s);
		return rc;
	}
	*out = s;
	return 0;
}

int ordo_app_session_trial(struct ordo_app_session *s, const struct ordo_app_query *q, int trial_no,
                           char **record_out, bool *pass, struct ordo_err *err)
{
	struct trial t = {.q = *q};
	const struct ordo_graph *g = s->r.g;
	if ((q->source != ORDO_APP_NO_NODE && q->source >= g->n) ||
	    (q->target != ORDO_APP_NO_NODE && q->target >= g->n))
		return ordo_err_set(err, ORDO_EINVAL, "%s %u: the graph has nodes 0..%u",
		                    q->source >= g->n ? "source" : "target",
		                    q->source >= g->n ? q->source : q->target, g->n - 1);
	int rc = one_trial(&s->r, trial_no > 0 ? trial_no - 1 : 0, &t, &s->last, &s->base, err);
	if (rc)
		return rc;
	*pass = !s->cfg.verify || t.chk.pass;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory for the record");
	harness_record(f, F_JSON, &s->r, trial_no, &t);
	if (fclose(f) || !buf) {
		free(buf);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory for the record");
	}
	if (len && buf[len - 1] == '\n')
		buf[len - 1] = 0;
	*record_out = buf;
	return 0;
}

int ordo_app_session_answer(struct ordo_app_session *s, struct ordo_app_array *out, int max, int *n,
                            struct ordo_err *err)
{
	if (!s->r.k->answer)
		return ordo_err_set(err, ORDO_EINVAL, "%s gives no answer arrays", s->r.k->name);
	int k = s->r.k->answer(s->r.st, out, max, err);
	if (k < 0)
		return err->code ? err->code : ORDO_ENOMEM;
	*n = k;
	return 0;
}

const struct ordo_graph *ordo_app_session_graph(const struct ordo_app_session *s)
{
	return s->r.g;
}

void ordo_app_session_close(struct ordo_app_session *s)
{
	if (!s)
		return;
	if (s->r.st)
		s->r.k->fini(s->r.st);
	if (s->r.g != s->r.borrowed)
		ordo_graph_free(s->r.g);
	if (s->r.topo.node)
		ordo_topology_free(&s->r.topo);
	ordo_coop_close(s->r.coop);
	free(s->cfg.ordo_app_opts);
	free(s);
}
