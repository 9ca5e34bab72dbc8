/* app.c - the harness of the ordo binaries (see ordo_app.h): parse, set up, trials,
 * summary. Records are produced from one table of fields (record_fields), which drives
 * the CSV header, the CSV rows and the JSON lines alike. */
#include "ordo_app.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ordo_util.h"

enum {
	A_GEN = 500,
	A_WL,
	A_SEED,
	A_NOVERIFY,
	A_FORMAT,
	A_OUT,
	A_BIND,
	A_FAKE,
	A_LOOKAHEAD,
	A_TARGET,
	A_PAIRS,
	A_VERSION,
};

static const struct cli_opt app_opts[] = {
    {"file", 'f', "FILE", "input graph (also accepted as the positional argument)"},
    {"gen", A_GEN, "SPEC", "generate the input instead (see ordo-gen --help)"},
    {"threads", 't', "N", "worker threads (default: every CPU of the affinity mask)"},
    {"wl", A_WL, "SPEC", "scheduler NAME:key=value,... ('--wl help' lists them)"},
    {"delta", 'd', "D",
     "bucket shift of schedulers that have one (obim, pmod) where SPEC omits it"},
    {"trials", 'n', "K", "trials (default 3); without a fixed query each trial draws a new one"},
    {"seed", A_SEED, "S", "seed of queries and scheduler RNGs (default 1)"},
    {"verify", 'v', NULL, "check every trial against the sequential baseline (default)"},
    {"no-verify", A_NOVERIFY, NULL, "skip the check (the baseline still runs for work ratio)"},
    {"format", A_FORMAT, "FMT",
     "stdout: text (default), json (JSON lines) or csv; with --out, the file's format"},
    {"out", A_OUT, "FILE",
     "append records to FILE: json for .json/.jsonl, else csv (unless --format)"},
    {"bind", A_BIND, "MODE", "none (default: respect the inherited mask), compact, scatter"},
    {"numa-fake", A_FAKE, "N", "split threads into N virtual NUMA nodes (or ORDO_FAKE_NUMA)"},
    {"lookahead", A_LOOKAHEAD, "K",
     "tasks a worker holds to prefetch their data in stages, 0..15 (0: none; default: the "
     "algorithm's)"},
    {"quiet", 'q', NULL, "no human-readable report"},
    {"help", 'h', NULL, "this help"},
    {"version", A_VERSION, NULL, "version, git revision and build options"},
    {NULL, 0, NULL, NULL},
};

static const struct cli_opt source_opts[] = {
    {"source", 'r', "NODE", "source node, 0-based (default: a fixed-seed random node with arcs)"},
    {NULL, 0, NULL, NULL},
};

static const struct cli_opt pair_opts[] = {
    {"source", 'r', "NODE", "source node, 0-based (with --target)"},
    {"target", A_TARGET, "NODE", "target node, 0-based (with --source)"},
    {"pairs", A_PAIRS, "N",
     "without --source/--target: trial i uses fixed-seed random reachable pair i mod N "
     "(default: a new pair per trial)"},
    {NULL, 0, NULL, NULL},
};

static const char *const galois_aliases[] = {"startNode=source",
                                             "destNode=target",
                                             "reportNode=target",
                                             "delta=delta",
                                             "noverify=no-verify",
                                             "t=threads",
                                             "statFile=out",
                                             "wl=wl",
                                             NULL};

enum { F_TEXT, F_JSON, F_CSV };

/* ---- configuration (parse) ---- */

struct app_cfg {
	const char *file, *gen, *wl_spec, *out_path;
	bool wl_given; /* --wl was on the command line */
	int64_t threads, source, target, pairs, trials, seed, fake, delta, lookahead;
	int fmt;     /* stdout: F_TEXT (human report), F_JSON or F_CSV records */
	int out_fmt; /* --out file: F_JSON or F_CSV */
	bool fmt_given;
	int bind;
	bool verify, quiet;
	struct ordo_load_opts lo;
};

static void print_help(const struct app_kernel *k)
{
	char usage[1024];
	snprintf(usage, sizeof usage,
	         "usage: %s [options] [FILE]\n%s: %s,\nwith a pluggable scheduler.\nVerified "
	         "against the exact sequential baseline: %s.\nWithout FILE or --gen it runs "
	         "on the generated graph %s.\nGalois spellings -startNode, -destNode, -delta, "
	         "-noverify, -t=N are accepted.",
	         cli_prog, k->name, k->summary, k->baseline_name, k->default_gen);
	const struct cli_opt *tabs[4];
	int nt = 0;
	tabs[nt++] = app_opts;
	if (k->query == APP_QUERY_SOURCE)
		tabs[nt++] = source_opts;
	else if (k->query == APP_QUERY_PAIR)
		tabs[nt++] = pair_opts;
	if (k->opts)
		tabs[nt++] = k->opts;
	tabs[nt++] = cli_load_opts;
	cli_print_help(usage, tabs, nt);
	printf("\nscheduler without --wl: %s%s%s%s\n'--wl help' lists every scheduler with its "
	       "parameters and defaults.\n",
	       k->default_wl, k->wl_params ? "\n(and with any --wl, this app sets " : "",
	       k->wl_params ? k->wl_params : "",
	       k->wl_params ? "\nwherever the scheduler has it and the spec leaves it unset)" : "");
}

static int parse_format(const char *arg, int *fmt)
{
	if (!strcmp(arg, "text"))
		*fmt = F_TEXT;
	else if (!strcmp(arg, "json"))
		*fmt = F_JSON;
	else if (!strcmp(arg, "csv"))
		*fmt = F_CSV;
	else {
		fprintf(stderr, "%s: --format %s: expected text, json or csv\n", cli_prog, arg);
		return 2;
	}
	return 0;
}

/* Returns -1 to go on, else the exit status. */
/* One option of an app's command line into c: -1 to go on, else the exit status (0
 * after --help, --version or a `help` value; 2 after a message). */
static int app_option(const struct app_kernel *k, struct app_cfg *c, int ch, const char *arg,
                      char **argv, bool *verify_given)
{
	switch (ch) {
	case '?': {
		const char *bad = argv[optind - 1];
		if (k->query == APP_QUERY_NONE &&
		    (optopt == 'r' || !strncmp(bad, "--source", 8) || !strncmp(bad, "--target", 8)))
			fprintf(stderr,
			        "%s: no source or target here: the app covers the whole "
			        "graph\n",
			        cli_prog);
		else if (k->query == APP_QUERY_SOURCE && !strncmp(bad, "--target", 8))
			fprintf(stderr, "%s: a source only (--source), no target\n", cli_prog);
		fprintf(stderr, "Try '%s --help'.\n", cli_prog);
		return 2;
	}
	case 'f':
		c->file = arg;
		break;
	case A_GEN:
		c->gen = arg;
		break;
	case 't':
		if (!cli_int(cli_prog, "--threads", arg, 1, 4096, &c->threads))
			return 2;
		break;
	case A_WL:
		if (!strcmp(arg, "help")) {
			ordo_wl_print_help(stdout);
			return 0;
		}
		c->wl_spec = arg;
		c->wl_given = true;
		break;
	case 'd':
		if (!cli_int(cli_prog, "--delta", arg, 0, 63, &c->delta))
			return 2;
		break;
	case 'r':
		if (!cli_int(cli_prog, "--source", arg, 0, UINT32_MAX - 1, &c->source))
			return 2;
		break;
	case A_TARGET:
		if (!cli_int(cli_prog, "--target", arg, 0, UINT32_MAX - 1, &c->target))
			return 2;
		break;
	case A_PAIRS:
		if (!cli_int(cli_prog, "--pairs", arg, 1, 1000000, &c->pairs))
			return 2;
		break;
	case 'n':
		if (!cli_int(cli_prog, "--trials", arg, 1, 100000, &c->trials))
			return 2;
		break;
	case A_SEED:
		if (!cli_int(cli_prog, "--seed", arg, 0, INT64_MAX, &c->seed))
			return 2;
		break;
	case 'v':
	case A_NOVERIFY:
		if (*verify_given) {
			fprintf(stderr, "%s: give --verify or --no-verify, not both\n", cli_prog);
			return 2;
		}
		*verify_given = true;
		c->verify = ch == 'v';
		break;
	case A_FORMAT:
		if (parse_format(arg, &c->fmt))
			return 2;
		c->fmt_given = true;
		break;
	case A_OUT:
		c->out_path = arg;
		break;
	case A_BIND:
		if (!strcmp(arg, "none"))
			c->bind = ORDO_BIND_NONE;
		else if (!strcmp(arg, "compact"))
			c->bind = ORDO_BIND_COMPACT;
		else if (!strcmp(arg, "scatter"))
			c->bind = ORDO_BIND_SCATTER;
		else {
			fprintf(stderr, "%s: --bind %s: expected none, compact or scatter\n",
			        cli_prog, arg);
			return 2;
		}
		break;
	case A_FAKE:
		if (!cli_int(cli_prog, "--numa-fake", arg, 1, 1024, &c->fake))
			return 2;
		break;
	case A_LOOKAHEAD:
		if (!cli_int(cli_prog, "--lookahead", arg, 0, ORDO_MAX_LOOKAHEAD, &c->lookahead))
			return 2;
		break;
	case 'q':
		c->quiet = true;
		break;
	case 'h':
		print_help(k);
		return 0;
	case A_VERSION:
		cli_print_version();
		return 0;
	default: {
		if (ch >= APP_OPT_KEY && ch < APP_OPT_KEY + 100 && k->option) {
			int r = k->option(ch, arg);
			if (r)
				return r;
			break;
		}
		int r = cli_load_option(ch, arg, &c->lo);
		if (r == 1)
			break;
		if (r == 0)
			fprintf(stderr, "Try '%s --help'.\n", cli_prog);
		return 2;
	}
	}
	return -1;
}

/* What the options say together: the input, positional arguments, source and target,
 * and the --out file's format. -1 to go on, else 2 after a message. */
static int app_check_args(const struct app_kernel *k, struct app_cfg *c, int argc, char **argv)
{
	if (optind < argc && !c->file)
		c->file = argv[optind++];
	if (optind < argc) {
		fprintf(stderr, "%s: unexpected argument '%s'; try '%s --help'\n", cli_prog,
		        argv[optind], cli_prog);
		return 2;
	}
	if (c->file && c->gen) {
		fprintf(stderr, "%s: give an input file or --gen, not both\n", cli_prog);
		return 2;
	}
	if (k->query == APP_QUERY_PAIR) {
		if ((c->source >= 0) != (c->target >= 0)) {
			fprintf(stderr, "%s: give --source and --target together (or neither)\n",
			        cli_prog);
			return 2;
		}
		if (c->pairs && c->source >= 0) {
			fprintf(stderr, "%s: --pairs draws pairs; it cannot go with --source\n",
			        cli_prog);
			return 2;
		}
	}
	/* --out: the file's format follows its extension unless --format names one */
	if (c->out_path) {
		const char *dot = strrchr(c->out_path, '.');
		bool json_ext = dot && (!strcmp(dot, ".json") || !strcmp(dot, ".jsonl"));
		c->out_fmt = c->fmt_given && c->fmt != F_TEXT ? c->fmt : json_ext ? F_JSON : F_CSV;
		if (!c->fmt_given)
			c->fmt = F_TEXT; /* stdout keeps the human report */
	}
	return -1;
}

static int app_parse(const struct app_kernel *k, int argc, char **argv, struct app_cfg *c)
{
	*c = (struct app_cfg){.wl_spec = k->default_wl,
	                      .source = -1,
	                      .target = -1,
	                      .trials = 3,
	                      .seed = 1,
	                      .delta = -1,
	                      .lookahead = -1,
	                      .fmt = F_TEXT,
	                      .bind = ORDO_BIND_NONE,
	                      .verify = true};
	ordo_load_opts_init(&c->lo);
	struct cli_opt all[160];
	int na = 0;
	const struct cli_opt *tabs[] = {app_opts,
	                                k->query == APP_QUERY_SOURCE ? source_opts
	                                : k->query == APP_QUERY_PAIR ? pair_opts
	                                                             : NULL,
	                                k->opts, cli_load_opts};
	for (size_t t = 0; t < sizeof tabs / sizeof *tabs; t++)
		for (const struct cli_opt *o = tabs[t]; o && o->name; o++)
			if (na < 159)
				all[na++] = *o;
	all[na] = (struct cli_opt){0};
	struct option lopts[160];
	char sopts[96];
	cli_getopt_tables(all, lopts, sopts, sizeof sopts);
	int ch;
	unsigned char seen[160] = {0};
	bool verify_given = false;
	while ((ch = cli_next(argc, argv, sopts, lopts, all, seen)) != -1) {
		const char *arg = optarg && optarg[0] == '=' ? optarg + 1 : optarg; /* -t=2 */
		const int r = app_option(k, c, ch, arg, argv, &verify_given);
		if (r >= 0)
			return r;
	}
	return app_check_args(k, c, argc, argv);
}

/* ---- records: one table of fields ---- */

enum { FK_STR, FK_U64, FK_F64, FK_NULL, FK_LIST };

struct field {
	const char *name;
	int kind;
	int prec; /* FK_F64, FK_LIST: decimals */
	const char *s;
	uint64_t u;
	double d;
	const float *v; /* FK_LIST: u values; JSON [a,b], csv "a;b" */
};

#define MAX_FIELDS 64

struct trial {
	struct app_query q;
	struct ordo_run_stats rs;
	struct app_baseline base;
	struct ordo_check chk;
	const char *verdict;
};

struct app_run {
	const struct app_kernel *k;
	struct app_cfg *cfg;
	struct ordo_topology topo;
	struct ordo_graph *g;
	char input[512];
	double load_s;
	void *st;
	char sched[256];             /* the resolved scheduler spec (text) */
	struct ordo_sched spec;      /* the same, resolved once: every trial creates from it */
	struct ordo_graph *borrowed; /* the caller's graph (a session's), never freed here */
	const volatile _Atomic bool *cancel; /* a session's stop flag, or NULL */
	const struct ordo_wl_ops *ops;
	FILE *hout;           /* human report, or NULL */
	FILE *mout;           /* stdout records, or NULL */
	FILE *fout;           /* --out file, opened at the first record */
	bool fout_has_header; /* the file already holds our header */
	/* scheduler counters: the union of every registered scheduler's names, so that one
	 * csv file can hold runs of different schedulers under one header */
	const char *stat_col[ORDO_WL_STATS * 16];
	char stat_key[ORDO_WL_STATS * 16][48];
	int nstat;
};

static void collect_stat_columns(struct app_run *r)
{
	for (int i = 0; i < ordo_wl_count(); i++)
		for (int s = 0; s < ORDO_WL_STATS; s++) {
			const char *nm = ordo_wl_at(i)->stat_names[s];
			bool seen = !nm;
			for (int j = 0; j < r->nstat && !seen; j++)
				seen = !strcmp(r->stat_col[j], nm);
			if (!seen && r->nstat < ORDO_WL_STATS * 16) {
				r->stat_col[r->nstat] = nm;
				snprintf(r->stat_key[r->nstat], sizeof r->stat_key[0], "wl_%s", nm);
				r->nstat++;
			}
		}
}

#define F_S(n, v)                                     \
	f[nf++] = (struct field)                      \
	{                                             \
		.name = (n), .kind = FK_STR, .s = (v) \
	}
#define F_U(n, v)                                               \
	f[nf++] = (struct field)                                \
	{                                                       \
		.name = (n), .kind = FK_U64, .u = (uint64_t)(v) \
	}
#define F_D(n, v, p)                                               \
	f[nf++] = (struct field)                                   \
	{                                                          \
		.name = (n), .kind = FK_F64, .d = (v), .prec = (p) \
	}
#define F_L(n, vals, count, p)                                                       \
	f[nf++] = (struct field)                                                     \
	{                                                                            \
		.name = (n), .kind = FK_LIST, .v = (vals), .u = (count), .prec = (p) \
	}
#define F_N(n)                               \
	f[nf++] = (struct field)             \
	{                                    \
		.name = (n), .kind = FK_NULL \
	}

/* A trial's work ratio and speedup over its sequential baseline (0 when undefined);
 * the records, the human report and the summary all use these. */
static double trial_work(const struct trial *t)
{
	return t->base.tasks ? (double)t->rs.tasks / (double)t->base.tasks : 0;
}

static double trial_speedup(const struct trial *t)
{
	return t->rs.seconds > 0 ? t->base.seconds / t->rs.seconds : 0;
}

/* A baseline that ran under a millisecond is timer noise and thread start-up, not a base
 * for a speedup: the human report says so instead of printing a ratio like 900x (the
 * record keeps the raw ratio with the baseline's time beside it). */
#define MIN_BASELINE_S 1e-3
static void speedup_text(char *buf, size_t size, double base_s, double speedup)
{
	if (base_s < MIN_BASELINE_S)
		snprintf(buf, size, "- (baseline under 1 ms)");
	else
		snprintf(buf, size, "%.2fx", speedup);
}

/* Node u's id in the input (what the user gave and sees); u when no graph is held. */
static uint32_t input_id(const struct app_run *r, uint32_t u)
{
	return r->g ? ordo_graph_orig_of(r->g, u) : u;
}

/* The one table of record fields; t == NULL gives the names only (header). */
static int record_fields(const struct app_run *r, int trial_no, const struct trial *t,
                         struct field *f)
{
	static const struct trial none;
	if (!t)
		t = &none;
	const struct app_kernel *k = r->k;
	int nf = 0;
	F_S("algorithm", k->name);
	F_S("input", r->input);
	F_U("n", r->g ? r->g->n : 0);
	F_U("m", r->g ? r->g->m : 0);
	F_S("scheduler", r->sched);
	F_U("threads", r->topo.nthreads);
	F_U("lookahead", t->rs.lookahead);
	F_U("seed", r->cfg->seed);
	F_U("trial", trial_no);
	if (k->query != APP_QUERY_NONE)
		F_U("source", input_id(r, t->q.source));
	else
		F_N("source");
	if (k->query == APP_QUERY_PAIR)
		F_U("target", input_id(r, t->q.target));
	else
		F_N("target");
	F_D("load_s", r->load_s, 6);
	F_D("time_s", t->rs.seconds, 6);
	F_U("tasks", t->rs.tasks);
	F_U("empty_tasks", t->rs.empty);
	F_U("pushes", t->rs.pushes);
	F_U("failed_pops", t->rs.failed_pops);
	F_U("baseline_tasks", t->base.tasks);
	F_D("work_ratio", trial_work(t), 6);
	F_D("baseline_time_s", t->base.seconds, 6);
	F_D("speedup", trial_speedup(t), 4);
	F_U("tasks_thread_min", t->rs.tasks_min);
	F_U("tasks_thread_median", t->rs.tasks_median);
	F_U("tasks_thread_max", t->rs.tasks_max);
	/* per worker: busy, idle, descheduled seconds (null for runs without the executor:
	 * frontier rounds, peeling) */
	const int nt = t->rs.threads < ORDO_STATS_THREADS ? t->rs.threads : ORDO_STATS_THREADS;
	bool timed = false;
	for (int i = 0; i < nt; i++)
		timed |= t->rs.thread_busy_s[i] + t->rs.thread_idle_s[i] > 0;
	if (timed) {
		F_L("thread_busy_s", t->rs.thread_busy_s, nt, 4);
		F_L("thread_idle_s", t->rs.thread_idle_s, nt, 4);
		F_L("thread_descheduled_s", t->rs.thread_descheduled_s, nt, 4);
	} else {
		F_N("thread_busy_s");
		F_N("thread_idle_s");
		F_N("thread_descheduled_s");
	}
	for (int i = 0; k->figures[i]; i++) {
		uint64_t v;
		if (ordo_check_get(&t->chk, k->figures[i], &v))
			F_U(k->figures[i], v);
		else
			F_N(k->figures[i]);
	}
	F_S("verify", t->verdict ? t->verdict : "");
	F_U("mismatches", t->chk.mismatches);
	F_S("first_mismatch", t->chk.first);
#ifdef ORDO_COUNT_WORK
	F_S("work_counters", "on");
#else
	F_S("work_counters", "off");
#endif
	for (int i = 0; i < r->nstat; i++) {
		int s = -1;
		for (int j = 0; r->ops && j < ORDO_WL_STATS; j++)
			if (r->ops->stat_names[j] && !strcmp(r->ops->stat_names[j], r->stat_col[i]))
				s = j;
		if (s >= 0)
			F_U(r->stat_key[i], t->rs.wl_stat[s]);
		else
			F_N(r->stat_key[i]);
	}
	return nf;
}

static void put_str(FILE *fp, const char *s, bool json)
{
	if (!json && !s[strcspn(s, ",\"\r\n")]) { /* csv quotes only where needed */
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (; *s; s++) {
		if (*s == '"')
			fputs(json ? "\\\"" : "\"\"", fp);
		else if (json && *s == '\\')
			fputs("\\\\", fp);
		else if (json && (unsigned char)*s < 32)
			fprintf(fp, "\\u%04x", *s);
		else
			fputc(*s, fp);
	}
	fputc('"', fp);
}

static void put_value(FILE *fp, const struct field *f, bool json)
{
	switch (f->kind) {
	case FK_STR:
		put_str(fp, f->s, json);
		break;
	case FK_U64:
		fprintf(fp, "%llu", (unsigned long long)f->u);
		break;
	case FK_F64:
		fprintf(fp, "%.*f", f->prec, f->d);
		break;
	case FK_LIST:
		fputs(json ? "[" : "\"", fp);
		for (uint64_t i = 0; i < f->u; i++)
			fprintf(fp, "%s%.*f", i ? (json ? "," : ";") : "", f->prec,
			        (double)f->v[i]);
		fputs(json ? "]" : "\"", fp);
		break;
	default:
		if (json)
			fputs("null", fp);
	}
}

static void csv_header_line(const struct app_run *r, char *buf, size_t cap)
{
	struct field f[MAX_FIELDS];
	int nf = record_fields(r, 0, NULL, f);
	size_t len = 0;
	buf[0] = 0;
	for (int i = 0; i < nf && len < cap; i++)
		len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? "," : "", f[i].name);
}

static void put_csv_header(FILE *fp, const struct app_run *r)
{
	char h[4096];
	csv_header_line(r, h, sizeof h);
	fprintf(fp, "%s\n", h);
}

static void record(FILE *fp, int fmt, const struct app_run *r, int trial_no, const struct trial *t)
{
	struct field f[MAX_FIELDS];
	int nf = record_fields(r, trial_no, t, f);
	bool json = fmt == F_JSON;
	if (json)
		fputc('{', fp);
	for (int i = 0; i < nf; i++) {
		if (i)
			fputc(',', fp);
		if (json)
			fprintf(fp, "\"%s\":", f[i].name);
		put_value(fp, &f[i], json);
	}
	fputs(json ? "}\n" : "\n", fp);
	fflush(fp); /* a run killed later keeps every finished trial */
}

/* ---- the --out file: checked before the (possibly long) load, opened at the first
 * record so that a run failing earlier leaves no empty file ---- */

static int check_out_file(struct app_run *r)
{
	const char *path = r->cfg->out_path;
	struct stat sb;
	/* a directory opens for reading and reads as empty: refuse it here, before the
	 * graph is loaded, not when the first record cannot be appended */
	if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
		fprintf(stderr, "%s: --out %s: %s, not a file; give a file name\n", cli_prog, path,
		        S_ISDIR(sb.st_mode) ? "a directory" : "not a regular file");
		return 2;
	}
	FILE *fp = fopen(path, "r");
	if (!fp) {
		if (errno != ENOENT) {
			fprintf(stderr, "%s: --out %s: cannot read it: %s\n", cli_prog, path,
			        strerror(errno));
			return 3;
		}
		char dir[1024];
		snprintf(dir, sizeof dir, "%s", path);
		char *slash = strrchr(dir, '/');
		if (slash)
			*(slash == dir ? slash + 1 : slash) = 0;
		else
			snprintf(dir, sizeof dir, ".");
		if (access(dir, W_OK)) {
			fprintf(stderr, "%s: --out %s: cannot create it in %s: %s\n", cli_prog,
			        path, dir, strerror(errno));
			return 3;
		}
		return 0;
	}
	char line[4096] = "";
	bool empty = !fgets(line, sizeof line, fp);
	fclose(fp);
	if (access(path, W_OK)) {
		fprintf(stderr, "%s: --out %s: cannot append to it: %s\n", cli_prog, path,
		        strerror(errno));
		return 3;
	}
	if (empty)
		return 0;
	line[strcspn(line, "\r\n")] = 0;
	bool is_json = line[0] == '{';
	if (is_json != (r->cfg->out_fmt == F_JSON)) {
		fprintf(stderr,
		        "%s: --out %s holds %s records and this run writes %s; give another "
		        "file or --format %s\n",
		        cli_prog, path, is_json ? "json" : "csv",
		        r->cfg->out_fmt == F_JSON ? "json" : "csv", is_json ? "json" : "csv");
		return 2;
	}
	if (!is_json) {
		char want[4096];
		csv_header_line(r, want, sizeof want);
		if (strcmp(line, want)) {
			fprintf(stderr,
			        "%s: --out %s: its csv header is not %s's (another app or "
			        "version wrote it); give another file\n",
			        cli_prog, path, r->k->name);
			return 2;
		}
		r->fout_has_header = true;
	}
	return 0;
}

static int emit(struct app_run *r, int trial_no, const struct trial *t)
{
	const struct app_cfg *c = r->cfg;
	if (r->mout) {
		if (trial_no == 1 && c->fmt == F_CSV)
			put_csv_header(r->mout, r);
		record(r->mout, c->fmt, r, trial_no, t);
	}
	if (c->out_path) {
		if (!r->fout) {
			r->fout = fopen(c->out_path, "a");
			if (!r->fout) {
				fprintf(stderr, "%s: --out %s: cannot open for appending: %s\n",
				        cli_prog, c->out_path, strerror(errno));
				return 3;
			}
			if (c->out_fmt == F_CSV && !r->fout_has_header)
				put_csv_header(r->fout, r);
		}
		record(r->fout, c->out_fmt, r, trial_no, t);
		if (ferror(r->fout)) {
			fprintf(stderr, "%s: --out %s: write failed\n", cli_prog, c->out_path);
			return 3;
		}
	}
	return 0;
}

/* ---- human report ---- */

static void human_trial(const struct app_run *r, int i, const struct trial *t)
{
	FILE *f = r->hout;
	const struct app_kernel *k = r->k;
	fprintf(f, "trial %d:", i);
	if (k->query != APP_QUERY_NONE)
		fprintf(f, " source %u", input_id(r, t->q.source));
	if (k->query == APP_QUERY_PAIR)
		fprintf(f, " target %u", input_id(r, t->q.target));
	char sp[64];
	speedup_text(sp, sizeof sp, t->base.seconds, trial_speedup(t));
	fprintf(f,
	        "  time %.4f s  tasks %llu (empty %llu)  baseline %llu  work %.3f  speedup "
	        "%s  per-thread tasks %llu/%llu/%llu",
	        t->rs.seconds, (unsigned long long)t->rs.tasks, (unsigned long long)t->rs.empty,
	        (unsigned long long)t->base.tasks, trial_work(t), sp,
	        (unsigned long long)t->rs.tasks_min, (unsigned long long)t->rs.tasks_median,
	        (unsigned long long)t->rs.tasks_max);
	for (int s = 0; s < ORDO_WL_STATS; s++)
		if (r->ops->stat_names[s])
			fprintf(f, "  %s %llu", r->ops->stat_names[s],
			        (unsigned long long)t->rs.wl_stat[s]);
	fprintf(f, "\n        ");
	for (int j = 0; k->figures[j]; j++) {
		uint64_t v;
		if (ordo_check_get(&t->chk, k->figures[j], &v))
			fprintf(f, " %s %llu ", k->figures[j], (unsigned long long)v);
	}
	fprintf(f, " verification %s", t->verdict);
	if (t->chk.mismatches)
		fprintf(f, " (%llu mismatch%s; first: %s)", (unsigned long long)t->chk.mismatches,
		        t->chk.mismatches == 1 ? "" : "es", t->chk.first);
	fprintf(f, "\n");
}

/* ---- set-up ---- */

/* Makes r->g fit the kernel's needs: arcs, coordinates, weights, a symmetric graph;
 * then compressed when `compress`. r->g may be replaced by a new graph (the old one is
 * freed unless it is r->borrowed, the caller's). Notes go to stderr unless quiet. */
static int app_prepare(struct app_run *r, bool quiet, bool compress, struct ordo_err *err)
{
	const struct app_kernel *k = r->k;
	struct ordo_graph *g = r->g;
	int rc;
	if (g->n == 0 || g->m == 0)
		return ordo_err_set(err, ORDO_EINVAL, "%s has no arcs: nothing to run", r->input);
	if ((k->needs & APP_NEEDS_COORDS) && g->coord_kind == ORDO_COORD_NONE)
		return ordo_err_set(err, ORDO_EINVAL,
		                    "%s has no node coordinates, and this app needs them; give "
		                    "them with --coords FILE (DIMACS .co or one 'x y' line per "
		                    "node)",
		                    r->input);
	/* before any long preparation: an input that cannot run is refused first */
	if ((k->needs & APP_NEEDS_WEIGHTS) && !ordo_graph_weighted(g) &&
	    g->coord_kind == ORDO_COORD_NONE)
		return ordo_err_set(err, ORDO_EINVAL,
		                    "%s has no arc weights, and this app needs them; give "
		                    "--random-weights LO:HI (or coordinates with --coords to weigh "
		                    "arcs by length)",
		                    r->input);
	if ((k->needs & APP_NEEDS_SYMMETRIC) && !(g->flags & ORDO_GRAPH_SYMMETRIC)) {
		struct ordo_graph *sg;
		struct ordo_build_stats bs;
		double t0 = ordo_now();
		if ((rc = ordo_graph_symmetrized(g, r->topo.nthreads, &sg, &bs, err)))
			return rc;
		if (g != r->borrowed)
			ordo_graph_free(g);
		r->g = g = sg;
		if (!quiet)
			fprintf(stderr,
			        "%s needs an undirected graph and %s is not marked symmetric: "
			        "symmetrised (%llu reverse arcs added, %llu duplicate arcs merged "
			        "keeping the lightest) to %llu arcs in %.3f s\n",
			        k->name, r->input, (unsigned long long)bs.reverse_arcs_added,
			        (unsigned long long)bs.duplicates_removed, (unsigned long long)g->m,
			        ordo_now() - t0);
	}
	if ((k->needs & APP_NEEDS_WEIGHTS) && !ordo_graph_weighted(g)) {
		/* weights from the coordinates (checked above), set on a plain graph of ours */
		if (g == r->borrowed) { /* a plain copy (decompressed if need be) */
			struct ordo_graph *copy;
			if ((rc = ordo_graph_decompress(g, r->topo.nthreads, &copy, err)))
				return rc;
			r->g = g = copy;
		} else if ((rc = ordo_graph_convert(&r->g, false, r->topo.nthreads, err))) {
			return rc;
		}
		g = r->g;
		if ((rc = ordo_graph_weights_from_coords(g, err)))
			return rc;
		if (!quiet)
			fprintf(stderr,
			        "%s is unweighted: weights = rounded Euclidean lengths from "
			        "its coordinates\n",
			        r->input);
	} /* a graph symmetrised or weighed here is plain: compress it as asked */
	if (compress && r->g != r->borrowed &&
	    (rc = ordo_graph_convert(&r->g, true, r->topo.nthreads, err)))
		return rc;
	return 0;
}

/* Resolves r->cfg's scheduler once, every parameter included, into r->spec and its
 * text r->sched (the first setting of a key wins: the spec's, then --delta's, then the
 * app's wl_params); *has_delta: the scheduler has a delta. Nothing is created. */
static int resolve_scheduler(struct app_run *r, bool *has_delta, struct ordo_err *err)
{
	const struct app_cfg *c = r->cfg;
	int rc = ordo_sched_parse(c->wl_spec, &r->spec, err);
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

static int app_setup(struct app_run *r)
{
	const struct app_kernel *k = r->k;
	struct app_cfg *c = r->cfg;
	struct ordo_err err = {0};
	r->mout = c->fmt == F_TEXT ? NULL : stdout;
	r->hout = c->quiet ? NULL : c->fmt == F_TEXT ? stdout : stderr;
	if (r->mout)
		setvbuf(stdout, NULL, _IOLBF, 0);
	collect_stat_columns(r);
	int rc = ordo_topology_init(&r->topo, (int)c->threads, (int)c->fake, c->bind, &err);
	if (rc)
		return cli_fail(cli_prog, &err);
	c->lo.threads = r->topo.nthreads;
	/* everything that can be checked before the (possibly long) load: the scheduler
	 * (resolved once, every parameter and --delta included; nothing created) and the --out file
	 */
	bool has_delta;
	if ((rc = resolve_scheduler(r, &has_delta, &err)))
		return cli_fail(cli_prog, &err);
	if (c->delta >= 0 && !has_delta && !c->quiet)
		fprintf(stderr, "%s: note: --delta %lld is not used: %s has no delta parameter\n",
		        cli_prog, (long long)c->delta, r->ops->name);
	if (c->out_path && (rc = check_out_file(r)))
		return rc;
	int fmt;
	rc = cli_load_graph(c->file, c->file ? NULL : (c->gen ? c->gen : k->default_gen), &c->lo,
	                    c->quiet, &r->g, r->input, sizeof r->input, &r->load_s, &fmt);
	if (rc)
		return rc;
	if ((rc = app_prepare(r, c->quiet, c->lo.build.compress, &err)))
		return cli_fail(cli_prog, &err);
	struct ordo_graph *g = r->g;
	if (c->source >= (int64_t)g->n || c->target >= (int64_t)g->n) {
		fprintf(stderr, "%s: --%s %lld: the graph has nodes 0..%u\n", cli_prog,
		        c->source >= (int64_t)g->n ? "source" : "target",
		        (long long)(c->source >= (int64_t)g->n ? c->source : c->target), g->n - 1);
		return 2;
	}
	if (r->hout) {
		fprintf(r->hout,
		        "%s on %s (%u nodes, %llu arcs) with %s, %d threads (%d NUMA node%s%s), "
		        "seed %lld\n",
		        k->name, r->input, g->n, (unsigned long long)g->m, r->sched,
		        r->topo.nthreads, r->topo.nnodes, r->topo.nnodes == 1 ? "" : "s",
		        r->topo.fake ? ", fake" : "", (long long)c->seed);
		fprintf(r->hout, "baseline: %s; work ratio = tasks / baseline tasks%s%s%s\n",
		        k->baseline_name, k->work_note ? " (" : "",
		        k->work_note ? k->work_note : "", k->work_note ? ")" : "");
		/* DIMACS, METIS and Matrix Market number nodes from 1; ordo from 0 */
		if (k->query != APP_QUERY_NONE && ordo_format_info(fmt) &&
		    (ordo_format_info(fmt)->flags & ORDO_FORMAT_ONE_BASED))
			fprintf(r->hout,
			        "node ids: 0-based, here and in the options (the %s file's node 1 "
			        "is node 0)\n",
			        ordo_format_name(fmt));
	}
	struct app_env env = {.topo = &r->topo,
	                      .seed = (uint64_t)c->seed,
	                      .report = r->hout,
	                      .wl_given = c->wl_given};
	if ((rc = k->init(&r->st, g, &env, &err)))
		return cli_fail(cli_prog, &err);
	return 0;
}

/* ---- trials ---- */

static int pick_query(struct app_run *r, int64_t i, struct app_query *q)
{
	const struct app_cfg *c = r->cfg;
	struct ordo_err err = {0};
	*q = (struct app_query){APP_NO_NODE, APP_NO_NODE};
	switch (r->k->query) {
	case APP_QUERY_NONE:
		return 0;
	case APP_QUERY_SOURCE:
		/* ids given and printed are the input's (a renumbered graph maps them) */
		q->source = c->source >= 0
		                ? ordo_graph_node_of(r->g, (uint32_t)c->source)
		                : ordo_graph_pick_source(r->g, (uint64_t)c->seed, (uint64_t)i);
		return 0;
	case APP_QUERY_PAIR:
		if (c->source >= 0) {
			q->source = ordo_graph_node_of(r->g, (uint32_t)c->source);
			q->target = ordo_graph_node_of(r->g, (uint32_t)c->target);
			return 0;
		}
		if (ordo_graph_pick_pair(r->g, (uint64_t)c->seed,
		                         (uint64_t)(c->pairs ? i % c->pairs : i), &q->source,
		                         &q->target, &err))
			return cli_fail(cli_prog, &err);
		return 0;
	}
	return 0;
}

/* Trial i for query t->q: the baseline (again only when the query changed since
 * *last), a fresh scheduler, the timed run and the check. */
static int one_trial(struct app_run *r, int64_t i, struct trial *t, struct app_query *last,
                     struct app_baseline *base, struct ordo_err *err)
{
	const struct app_kernel *k = r->k;
	const struct app_cfg *c = r->cfg;
	int rc;
	if (t->q.source != last->source || t->q.target != last->target) {
		double t0 = ordo_now();
		*base = (struct app_baseline){0};
		if ((rc = k->baseline(r->st, &t->q, base, err)))
			return rc;
		if (base->seconds <= 0)
			base->seconds = ordo_now() - t0;
		*last = t->q;
	}
	t->base = *base;
	struct ordo_worklist wl = {0};
	rc = ordo_sched_create(&r->spec, &r->topo, (uint64_t)c->seed + (uint64_t)i, &wl, err);
	if (rc)
		return rc;
	struct ordo_exec_opts eo = {
	    .topo = &r->topo, .seed = (uint64_t)c->seed + (uint64_t)i, .cancel = r->cancel};
	if (c->lookahead >= 0)
		eo.lookahead = c->lookahead ? (unsigned)c->lookahead : ORDO_LOOKAHEAD_OFF;
	rc = k->run(r->st, &t->q, &wl, &eo, &t->rs, err);
	ordo_worklist_destroy(&wl);
	if (rc)
		return rc;
	ordo_check_init(&t->chk); /* a kernel's check only adds mismatches and figures */
	k->check(r->st, &t->q, &t->chk);
	t->verdict = c->verify ? (t->chk.pass ? "PASS" : "FAIL") : "SKIP";
	return 0;
}

static int app_trials(struct app_run *r, struct trial *tr, int *status)
{
	const struct app_cfg *c = r->cfg;
	struct ordo_err err = {0};
	struct app_query last = {APP_NO_NODE - 1, APP_NO_NODE - 1};
	struct app_baseline base = {0};
	int rc;
	for (int64_t i = 0; i < c->trials; i++) {
		struct trial *t = &tr[i];
		if ((rc = pick_query(r, i, &t->q)))
			return rc;
		if ((rc = one_trial(r, i, t, &last, &base, &err)))
			return cli_fail(cli_prog, &err);
		if (c->verify && !t->chk.pass)
			*status = 1;
		if (r->hout)
			human_trial(r, (int)i + 1, t);
		if ((rc = emit(r, (int)i + 1, t)))
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

static void app_summary(const struct app_run *r, const struct trial *tr, int status)
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
			        cli_prog, bad, n, first + 1,
			        (unsigned long long)tr[first].chk.mismatches,
			        tr[first].chk.mismatches == 1 ? "" : "es", tr[first].chk.first);
		return;
	}
	double tm = median_of(tr, n, get_time), wm = median_of(tr, n, trial_work),
	       bm = median_of(tr, n, get_base);
	char sp[96];
	if (bm < MIN_BASELINE_S)
		snprintf(sp, sizeof sp, "- (baseline %.4f s, too short to time)", bm);
	else
		snprintf(sp, sizeof sp, "%.2fx (baseline %.4f s)", tm > 0 ? bm / tm : 0, bm);
	fprintf(r->hout,
	        "summary: median time %.4f s over %d trial%s  work ratio %.3f  speedup vs "
	        "sequential baseline %s  load %.3f s  verification %s\n",
	        tm, n, n == 1 ? "" : "s", wm, sp, r->load_s,
	        !r->cfg->verify ? "SKIPPED"
	        : status        ? "FAIL"
	                        : "PASS");
}

int app_main(const struct app_kernel *k, int argc, char **argv)
{
	const char *slash = strrchr(argv[0], '/');
	cli_prog = slash ? slash + 1 : argv[0];
	cli_galois_aliases(argc, argv, galois_aliases);
	struct app_cfg cfg;
	int rc = app_parse(k, argc, argv, &cfg);
	if (rc >= 0)
		return rc;
	struct app_run r = {.k = k, .cfg = &cfg};
	int status = 0;
	struct trial *tr = calloc((size_t)cfg.trials, sizeof *tr);
	if (!tr) {
		fprintf(stderr, "%s: out of memory\n", cli_prog);
		return 3;
	}
	rc = app_setup(&r);
	if (!rc)
		rc = app_trials(&r, tr, &status);
	if (!rc)
		app_summary(&r, tr, status);
	else
		status = rc;
	if (r.st)
		k->fini(r.st);
	free(tr);
	ordo_graph_free(r.g);
	if (r.topo.node)
		ordo_topology_free(&r.topo);
	if (r.fout && fclose(r.fout) && !status) {
		fprintf(stderr, "%s: --out %s: write failed\n", cli_prog, cfg.out_path);
		status = 3;
	}
	return status;
}

/* ---- sessions (ordo_app.h) ---- */

struct app_session {
	struct app_cfg cfg;
	struct app_run r;
	struct app_query last;
	struct app_baseline base;
};

int app_session_open(const struct app_kernel *k, struct ordo_graph *g,
                     const struct app_session_opts *o, struct app_session **out,
                     struct ordo_err *err)
{
	*out = NULL;
	struct app_session *s = calloc(1, sizeof *s);
	if (!s)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	s->cfg = (struct app_cfg){.wl_spec = o->wl ? o->wl : k->default_wl,
	                          .wl_given = o->wl != NULL,
	                          .trials = 1,
	                          .seed = (int64_t)o->seed,
	                          .delta = o->delta,
	                          .lookahead = o->lookahead,
	                          .source = -1,
	                          .target = -1,
	                          .verify = o->verify,
	                          .quiet = true};
	s->r = (struct app_run){.k = k, .cfg = &s->cfg, .g = g, .borrowed = g, .cancel = o->cancel};
	snprintf(s->r.input, sizeof s->r.input, "%s", o->input ? o->input : "graph");
	s->last = (struct app_query){APP_NO_NODE - 1, APP_NO_NODE - 1};
	collect_stat_columns(&s->r);
	bool has_delta;
	int rc = ordo_topology_init(&s->r.topo, o->threads, 0, ORDO_BIND_NONE, err);
	if (!rc)
		rc = resolve_scheduler(&s->r, &has_delta, err);
	if (!rc)
		rc = app_prepare(&s->r, true, false, err);
	if (!rc) {
		struct app_env env = {.topo = &s->r.topo,
		                      .seed = o->seed,
		                      .report = NULL,
		                      .wl_given = s->cfg.wl_given};
		rc = k->init(&s->r.st, s->r.g, &env, err);
	}
	if (rc) {
		app_session_close(s);
		return rc;
	}
	*out = s;
	return 0;
}

int app_session_trial(struct app_session *s, const struct app_query *q, int trial_no,
                      char **record_out, bool *pass, struct ordo_err *err)
{
	struct trial t = {.q = *q};
	const struct ordo_graph *g = s->r.g;
	if ((q->source != APP_NO_NODE && q->source >= g->n) ||
	    (q->target != APP_NO_NODE && q->target >= g->n))
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
	record(f, F_JSON, &s->r, trial_no, &t);
	if (fclose(f) || !buf) {
		free(buf);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory for the record");
	}
	if (len && buf[len - 1] == '\n')
		buf[len - 1] = 0;
	*record_out = buf;
	return 0;
}

int app_session_answer(struct app_session *s, struct app_array *out, int max, int *n,
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

const struct ordo_graph *app_session_graph(const struct app_session *s)
{
	return s->r.g;
}

void app_session_close(struct app_session *s)
{
	if (!s)
		return;
	if (s->r.st)
		s->r.k->fini(s->r.st);
	if (s->r.g != s->r.borrowed)
		ordo_graph_free(s->r.g);
	if (s->r.topo.node)
		ordo_topology_free(&s->r.topo);
	free(s);
}
