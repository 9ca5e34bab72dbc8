/* app_options.c - the harness's command line (ordo_app.h): the option tables every app
 * shares, the query options of its kind, the kernel's own options (given to its option
 * hook with its options block), the loaders' options (cli.c); Galois spellings; --help. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "app_internal.h"

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
	A_SEATS,
	A_COOP,
	A_COOP_NAME,
	A_OUTPUT,
	A_SIM,
};

static const struct ordo_cli_opt ordo_app_opts[] = {
    {"file", 'f', "FILE", "input graph (also accepted as the positional argument)"},
    {"gen", A_GEN, "SPEC", "generate the input instead (see ordo-gen --help)"},
    {"threads", 't', "N", "worker threads (default: every CPU of the affinity mask)"},
    {"wl", A_WL, "SPEC", "scheduler NAME:key=value,... ('--wl help' lists them)"},
    {"delta", 'd', "D",
     "bucket shift of schedulers that have one (obim, pmod) where SPEC omits it "
     "(sssp and astar otherwise take one from the graph)"},
    {"trials", 'n', "K", "trials (default 3); without a fixed query each trial draws a new one"},
    {"seed", A_SEED, "S", "seed of queries and scheduler RNGs (default 1)"},
    {"verify", 'v', NULL, "check every trial against the sequential baseline (default)"},
    {"no-verify", A_NOVERIFY, NULL, "skip the check (the baseline still runs for work ratio)"},
    {"format", A_FORMAT, "FMT",
     "stdout: text (default), json (JSON lines) or csv; with --out, the file's format"},
    {"out", A_OUT, "FILE",
     "append records to FILE: json for .json/.jsonl, else csv (unless --format)"},
    {"output", A_OUTPUT, "FILE",
     "write the last trial's answer to FILE: NumPy .npy (one array) or .npz (all), else "
     "text, one `node value` line per node in the input's ids"},
    {"bind", A_BIND, "MODE", "none (default: respect the inherited mask), compact, scatter"},
    {"numa-fake", A_FAKE, "N", "split threads into N virtual NUMA nodes (or ORDO_FAKE_NUMA)"},
    {"lookahead", A_LOOKAHEAD, "K",
     "tasks a worker holds to prefetch their data in stages, 0..15 (0: none; default: the "
     "algorithm's)"},
    {"seats", A_SEATS, "auto|adapt|all|N",
     "workers that run tasks at once; the others park, their tasks handed over: auto "
     "(default: at most the CPUs), adapt (also fewer while other processes take cores), "
     "all (every thread), or N"},
    {"coop", A_COOP, NULL,
     "share a budget of one token per core with other ordo processes run with --coop "
     "(a worker runs only while it holds one)"},
    {"coop-name", A_COOP_NAME, "NAME",
     "the budget --coop uses (implies it; default ordo-coop-UID in /dev/shm)"},
    {"sim", A_SIM, "P[:KEY=V,...]",
     "run P virtual workers on one thread, one atomic step at a time (the linearized "
     "executor): workers drawn uniformly, or gamma=G (unfair by up to G), slow=K,f=F (K "
     "workers at F times the rate), cores=C,slice=S (C run at a time); reports each pop's "
     "rank error (-t, --seats, --coop and --lookahead do not apply)"},
    {"quiet", 'q', NULL, "no human-readable report"},
    {"help", 'h', NULL, "this help"},
    {"version", A_VERSION, NULL, "version, git revision and build options"},
    {NULL, 0, NULL, NULL},
};

static const struct ordo_cli_opt source_opts[] = {
    {"source", 'r', "NODE", "source node, 0-based (default: a fixed-seed random node with arcs)"},
    {NULL, 0, NULL, NULL},
};

static const struct ordo_cli_opt pair_opts[] = {
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

static void print_help(const struct ordo_app_kernel *k)
{
	char usage[1024];
	snprintf(usage, sizeof usage,
	         "usage: %s [options] [FILE]\n%s: %s,\nwith a pluggable scheduler.\nVerified "
	         "against the exact sequential baseline: %s.\nWithout FILE or --gen it runs "
	         "on the generated graph %s.\nGalois spellings -startNode, -destNode, -delta, "
	         "-noverify, -t=N are accepted.",
	         ordo_cli_prog, k->name, k->summary, k->baseline_name, k->default_gen);
	const struct ordo_cli_opt *tabs[4];
	int nt = 0;
	tabs[nt++] = ordo_app_opts;
	if (k->query == ORDO_APP_QUERY_SOURCE)
		tabs[nt++] = source_opts;
	else if (k->query == ORDO_APP_QUERY_PAIR)
		tabs[nt++] = pair_opts;
	if (k->opts)
		tabs[nt++] = k->opts;
	tabs[nt++] = ordo_cli_load_opts;
	ordo_cli_print_help(usage, tabs, nt);
	printf("\nscheduler without --wl: %s%s%s%s%s%s\n'--wl help' lists every scheduler with "
	       "its parameters and defaults.\n",
	       k->default_wl,
	       k->default_wl_wide ? ";\non a graph of high diameter (the report says so), "
	                            "unless --delta\nis given: "
	                          : "",
	       k->default_wl_wide ? k->default_wl_wide : "",
	       k->wl_params ? "\n(and with any --wl, this app sets " : "",
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
		fprintf(stderr, "%s: --format %s: expected text, json or csv\n", ordo_cli_prog,
		        arg);
		return 2;
	}
	return 0;
}

/* The harness's integer options: key, name, range and field. */
static const struct {
	int key;
	const char *name;
	int64_t lo, hi;
	size_t field; /* offsetof(struct ordo_app_cfg, ...), an int64_t */
} int_opts[] = {
    {'t', "--threads", 1, 4096, offsetof(struct ordo_app_cfg, threads)},
    {'d', "--delta", 0, 63, offsetof(struct ordo_app_cfg, delta)},
    {'r', "--source", 0, UINT32_MAX - 1, offsetof(struct ordo_app_cfg, source)},
    {A_TARGET, "--target", 0, UINT32_MAX - 1, offsetof(struct ordo_app_cfg, target)},
    {A_PAIRS, "--pairs", 1, 1000000, offsetof(struct ordo_app_cfg, pairs)},
    {'n', "--trials", 1, 100000, offsetof(struct ordo_app_cfg, trials)},
    {A_SEED, "--seed", 0, INT64_MAX, offsetof(struct ordo_app_cfg, seed)},
    {A_FAKE, "--numa-fake", 1, 1024, offsetof(struct ordo_app_cfg, fake)},
    {A_LOOKAHEAD, "--lookahead", 0, ORDO_MAX_LOOKAHEAD, offsetof(struct ordo_app_cfg, lookahead)},
};

/* An integer option into its field: 1 when ch is one (0 after a message), -1 when not. */
static int int_option(struct ordo_app_cfg *c, int ch, const char *arg)
{
	for (size_t i = 0; i < sizeof int_opts / sizeof *int_opts; i++)
		if (int_opts[i].key == ch)
			return ordo_cli_int(ordo_cli_prog, int_opts[i].name, arg, int_opts[i].lo,
			                    int_opts[i].hi,
			                    (int64_t *)((char *)c + int_opts[i].field));
	return -1;
}

/* A kernel's own option, or a loader's: -1 to go on, else the exit status (2). */
static int other_option(const struct ordo_app_kernel *k, struct ordo_app_cfg *c, int ch,
                        const char *arg)
{
	if (ch >= ORDO_APP_OPT_KEY && ch < ORDO_APP_OPT_KEY + 100 && k->option) {
		struct ordo_err err = {0};
		if (k->option(c->ordo_app_opts, ch, arg, &err))
			return ordo_cli_fail(ordo_cli_prog, &err);
		return -1;
	}
	int r = ordo_cli_load_option(ch, arg, &c->lo);
	if (r == 1)
		return -1;
	if (r == 0)
		fprintf(stderr, "Try '%s --help'.\n", ordo_cli_prog);
	return 2;
}

/* --seats and --sim into c: -1 to go on, 2 after a message. */
static int executor_option(struct ordo_app_cfg *c, int ch, const char *arg)
{
	struct ordo_err e = {0};
	if (ch == A_SEATS ? harness_parse_seats(arg, &c->seats, &e)
	                  : ordo_sim_parse(arg, &c->sim_workers, &c->sim, &e)) {
		fprintf(stderr, "%s: %s\n", ordo_cli_prog, e.msg);
		return 2;
	}
	return -1;
}

/* One option of an app's command line into c: -1 to go on, else the exit status (0
 * after --help, --version or a `help` value; 2 after a message). */
static int ordo_app_option(const struct ordo_app_kernel *k, struct ordo_app_cfg *c, int ch,
                           const char *arg, char **argv, bool *verify_given)
{
	switch (ch) {
	case '?': {
		const char *bad = argv[optind - 1];
		if (k->query == ORDO_APP_QUERY_NONE &&
		    (optopt == 'r' || !strncmp(bad, "--source", 8) || !strncmp(bad, "--target", 8)))
			fprintf(stderr,
			        "%s: no source or target here: the app covers the whole "
			        "graph\n",
			        ordo_cli_prog);
		else if (k->query == ORDO_APP_QUERY_SOURCE && !strncmp(bad, "--target", 8))
			fprintf(stderr, "%s: a source only (--source), no target\n", ordo_cli_prog);
		fprintf(stderr, "Try '%s --help'.\n", ordo_cli_prog);
		return 2;
	}
	case 'f':
		c->file = arg;
		break;
	case A_GEN:
		c->gen = arg;
		break;
	case A_WL:
		if (!strcmp(arg, "help")) {
			ordo_scheduler_print_help(stdout);
			return 0;
		}
		c->wl_spec = arg;
		c->wl_given = true;
		break;
	case 'v':
	case A_NOVERIFY:
		if (*verify_given) {
			fprintf(stderr, "%s: give --verify or --no-verify, not both\n",
			        ordo_cli_prog);
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
	case A_OUTPUT:
		c->answer_path = arg;
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
			        ordo_cli_prog, arg);
			return 2;
		}
		break;
	case A_SEATS:
	case A_SIM:
		return executor_option(c, ch, arg);
	case A_COOP_NAME:
		c->coop_name = arg;
		/* fall through */
	case A_COOP:
		c->coop = true;
		break;
	case 'q':
		c->quiet = true;
		break;
	case 'h':
		print_help(k);
		return 0;
	case A_VERSION:
		ordo_cli_print_version();
		return 0;
	default: {
		int r = int_option(c, ch, arg);
		return r < 0 ? other_option(k, c, ch, arg) : r ? -1 : 2;
	}
	}
	return -1;
}

/* What the options say together: the input, positional arguments, source and target,
 * and the --out file's format. -1 to go on, else 2 after a message. */
static int ordo_app_check_args(const struct ordo_app_kernel *k, struct ordo_app_cfg *c, int argc,
                               char **argv)
{
	if (optind < argc && !c->file)
		c->file = argv[optind++];
	if (optind < argc) {
		fprintf(stderr, "%s: unexpected argument '%s'; try '%s --help'\n", ordo_cli_prog,
		        argv[optind], ordo_cli_prog);
		return 2;
	}
	if (c->file && c->gen) {
		fprintf(stderr, "%s: give an input file or --gen, not both\n", ordo_cli_prog);
		return 2;
	}
	if (k->query == ORDO_APP_QUERY_PAIR) {
		if ((c->source >= 0) != (c->target >= 0)) {
			fprintf(stderr, "%s: give --source and --target together (or neither)\n",
			        ordo_cli_prog);
			return 2;
		}
		if (c->pairs && c->source >= 0) {
			fprintf(stderr, "%s: --pairs draws pairs; it cannot go with --source\n",
			        ordo_cli_prog);
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

int harness_parse_seats(const char *arg, int64_t *seats, struct ordo_err *err)
{
	if (!strcmp(arg, "auto"))
		*seats = ORDO_SEATS_AUTO;
	else if (!strcmp(arg, "adapt"))
		*seats = ORDO_SEATS_ADAPT;
	else if (!strcmp(arg, "all"))
		*seats = ORDO_SEATS_ALL;
	else if (ordo_cli_parse_int("--seats", arg, 1, 4096, seats, &(struct ordo_err){0}))
		return ordo_err_set(err, ORDO_EINVAL,
		                    "--seats %s: expected auto, adapt, all or a count in 1..4096",
		                    arg);
	return 0;
}

int harness_parse(const struct ordo_app_kernel *k, int argc, char **argv, struct ordo_app_cfg *c)
{
	*c = (struct ordo_app_cfg){.wl_spec = k->default_wl,
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
	bool ok;
	if (!(c->ordo_app_opts = harness_opts_new(k, &ok)) && !ok) {
		fprintf(stderr, "%s: out of memory\n", ordo_cli_prog);
		return 3;
	}
	struct ordo_cli_opt all[160];
	int na = 0;
	const struct ordo_cli_opt *tabs[] = {ordo_app_opts,
	                                     k->query == ORDO_APP_QUERY_SOURCE ? source_opts
	                                     : k->query == ORDO_APP_QUERY_PAIR ? pair_opts
	                                                                       : NULL,
	                                     k->opts, ordo_cli_load_opts};
	for (size_t t = 0; t < sizeof tabs / sizeof *tabs; t++)
		for (const struct ordo_cli_opt *o = tabs[t]; o && o->name; o++)
			if (na < 159)
				all[na++] = *o;
	all[na] = (struct ordo_cli_opt){0};
	struct option lopts[160];
	char sopts[96];
	ordo_cli_getopt_tables(all, lopts, sopts, sizeof sopts);
	int ch;
	unsigned char seen[160] = {0};
	bool verify_given = false;
	while ((ch = ordo_cli_next(argc, argv, sopts, lopts, all, seen)) != -1) {
		const char *arg = optarg && optarg[0] == '=' ? optarg + 1 : optarg; /* -t=2 */
		const int r = ordo_app_option(k, c, ch, arg, argv, &verify_given);
		if (r >= 0)
			return r;
	}
	return ordo_app_check_args(k, c, argc, argv);
}

void *harness_opts_new(const struct ordo_app_kernel *k, bool *ok)
{
	*ok = true;
	if (!k->opts_size)
		return NULL;
	void *o = calloc(1, k->opts_size);
	if (!o)
		*ok = false;
	else if (k->opts_defaults)
		memcpy(o, k->opts_defaults, k->opts_size);
	return o;
}

int harness_opts_set(const struct ordo_app_kernel *k, void *opts, const char *const *kv,
                     struct ordo_err *err)
{
	for (; kv && *kv; kv++) {
		const char *eq = strchr(*kv, '=');
		const size_t len = eq ? (size_t)(eq - *kv) : strlen(*kv);
		const struct ordo_cli_opt *o = k->opts;
		while (o && o->name && (strlen(o->name) != len || strncmp(o->name, *kv, len)))
			o++;
		if (!o || !o->name || !k->option)
			return ordo_err_set(err, ORDO_EINVAL, "%s has no option '%.*s'", k->name,
			                    (int)len, *kv);
		if (!eq && o->arg)
			return ordo_err_set(err, ORDO_EINVAL, "option '%s' needs a value ('%s=%s')",
			                    o->name, o->name, o->arg);
		int rc = k->option(opts, o->key, eq ? eq + 1 : NULL, err);
		if (rc)
			return rc;
	}
	return 0;
}

void harness_galois_aliases(int argc, char **argv)
{
	ordo_cli_galois_aliases(argc, argv, galois_aliases);
}
