/* app.c - the common driver of the ordo binaries (see app.h). */
#include "app.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <omp.h>

#include "ordo_util.h"

enum {
	A_GEN = 500,
	A_WL,
	A_SEED,
	A_VERIFY,
	A_NOVERIFY,
	A_FORMAT,
	A_OUT,
	A_BIND,
	A_FAKE,
	A_LOOKAHEAD,
	A_HELP,
	A_DELTA,
};

static const struct cli_opt app_opts[] = {
    {"file", 'f', "FILE", "input graph (also accepted as the positional argument)"},
    {"gen", A_GEN, "SPEC", "generate the input instead (see ordo-gen --help)"},
    {"threads", 't', "N", "worker threads (default: every CPU of the affinity mask)"},
    {"wl", A_WL, "SPEC", "scheduler NAME:key=value,... ('--wl help' lists them)"},
    {"delta", 'd', "D", "bucket shift for bucketed schedulers when SPEC omits it"},
    {"source", 'r', "NODE", "source node, 0-based (default: a fixed-seed random node with arcs)"},
    {"trials", 'n', "K", "trials (default 3); without -r each trial draws the next source"},
    {"seed", A_SEED, "S", "seed of sources and scheduler RNGs (default 1)"},
    {"verify", 'v', NULL, "check every trial against the sequential baseline (default)"},
    {"no-verify", A_NOVERIFY, NULL, "skip the check (the baseline still runs for work ratio)"},
    {"format", A_FORMAT, "FMT", "text (default), json (JSON lines) or csv records on stdout"},
    {"out", A_OUT, "FILE", "append the records to FILE (csv unless --format json)"},
    {"bind", A_BIND, "MODE", "none (default: respect the inherited mask), compact, scatter"},
    {"numa-fake", A_FAKE, "N", "split threads into N virtual NUMA nodes (or ORDO_FAKE_NUMA)"},
    {"lookahead", A_LOOKAHEAD, "K",
     "tasks a worker holds to prefetch their data in stages, 0..7 (0: none; default: the "
     "algorithm's)"},
    {"quiet", 'q', NULL, "no human-readable report"},
    {"help", A_HELP, NULL, "this help"},
    {NULL, 0, NULL, NULL},
};

static const char *const galois_aliases[] = {"startNode=source",
                                             "delta=delta",
                                             "noverify=no-verify",
                                             "t=threads",
                                             "statFile=out",
                                             "wl=wl",
                                             NULL};

enum { F_TEXT, F_JSON, F_CSV };

struct trial {
	uint32_t source;
	struct ordo_run_stats rs;
	uint64_t base_tasks;
	double base_time;
	struct ordo_check chk;
	const char *verdict;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 32)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

struct run_info {
	const char *alg, *input, *sched;
	const struct ordo_graph *g;
	int threads;
	uint64_t seed;
	double load_s;
	const struct ordo_wl_ops *ops;
};

static const char *csv_header =
    "algorithm,input,n,m,scheduler,threads,lookahead,seed,trial,source,load_s,time_s,tasks,"
    "empty_tasks,pushes,failed_pops,baseline_tasks,work_ratio,baseline_time_s,speedup,"
    "tasks_thread_min,tasks_thread_median,tasks_thread_max,reached,max_dist,verify,"
    "work_counters,sched_stat_names,sched_stat1,sched_stat2,sched_stat3,sched_stat4\n";

static void record(FILE *f, int fmt, const struct run_info *ri, const char *trial,
                   const struct trial *t)
{
	double work = t->base_tasks ? (double)t->rs.tasks / (double)t->base_tasks : 0;
	double speedup = t->rs.seconds > 0 ? t->base_time / t->rs.seconds : 0;
#ifdef ORDO_COUNT_WORK
	const char *counters = "on";
#else
	const char *counters = "off";
#endif
	if (fmt == F_JSON) {
		fprintf(f, "{\"algorithm\":");
		json_str(f, ri->alg);
		fprintf(f, ",\"input\":");
		json_str(f, ri->input);
		fprintf(f, ",\"n\":%u,\"m\":%llu,\"scheduler\":", ri->g->n,
		        (unsigned long long)ri->g->m);
		json_str(f, ri->sched);
		fprintf(
		    f,
		    ",\"threads\":%d,\"lookahead\":%u,\"seed\":%llu,\"trial\":\"%s\",\"source\":%u,"
		    "\"load_s\":%.6f,"
		    "\"time_s\":%.6f,\"tasks\":%llu,\"empty_tasks\":%llu,\"pushes\":%llu,"
		    "\"failed_pops\":%llu,\"baseline_tasks\":%llu,\"work_ratio\":%.6f,"
		    "\"baseline_time_s\":%.6f,\"speedup\":%.4f,\"tasks_thread_min\":%llu,"
		    "\"tasks_thread_median\":%llu,\"tasks_thread_max\":%llu,\"reached\":%llu,"
		    "\"max_dist\":%llu,\"verify\":\"%s\",\"work_counters\":\"%s\",\"sched_stats\":"
		    "{",
		    ri->threads, t->rs.lookahead, (unsigned long long)ri->seed, trial, t->source,
		    ri->load_s, t->rs.seconds, (unsigned long long)t->rs.tasks,
		    (unsigned long long)t->rs.empty, (unsigned long long)t->rs.pushes,
		    (unsigned long long)t->rs.failed_pops, (unsigned long long)t->base_tasks, work,
		    t->base_time, speedup, (unsigned long long)t->rs.tasks_min,
		    (unsigned long long)t->rs.tasks_median, (unsigned long long)t->rs.tasks_max,
		    (unsigned long long)t->chk.reached, (unsigned long long)t->chk.max_dist,
		    t->verdict, counters);
		bool first = true;
		for (int k = 0; k < ORDO_WL_STATS; k++)
			if (ri->ops->stat_names[k]) {
				fprintf(f, "%s\"%s\":%llu", first ? "" : ",",
				        ri->ops->stat_names[k],
				        (unsigned long long)t->rs.wl_stat[k]);
				first = false;
			}
		fprintf(f, "}}\n");
		return;
	}
	char names[128] = "";
	for (int k = 0; k < ORDO_WL_STATS; k++)
		if (ri->ops->stat_names[k])
			snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
			         names[0] ? ";" : "", ri->ops->stat_names[k]);
	fprintf(f,
	        "%s,\"%s\",%u,%llu,\"%s\",%d,%u,%llu,%s,%u,%.6f,%.6f,%llu,%llu,%llu,%llu,%llu,%.6f,"
	        "%.6f,%.4f,%llu,%llu,%llu,%llu,%llu,%s,%s,%s,%llu,%llu,%llu,%llu\n",
	        ri->alg, ri->input, ri->g->n, (unsigned long long)ri->g->m, ri->sched, ri->threads,
	        t->rs.lookahead, (unsigned long long)ri->seed, trial, t->source, ri->load_s,
	        t->rs.seconds, (unsigned long long)t->rs.tasks, (unsigned long long)t->rs.empty,
	        (unsigned long long)t->rs.pushes, (unsigned long long)t->rs.failed_pops,
	        (unsigned long long)t->base_tasks, work, t->base_time, speedup,
	        (unsigned long long)t->rs.tasks_min, (unsigned long long)t->rs.tasks_median,
	        (unsigned long long)t->rs.tasks_max, (unsigned long long)t->chk.reached,
	        (unsigned long long)t->chk.max_dist, t->verdict, counters, names,
	        (unsigned long long)t->rs.wl_stat[0], (unsigned long long)t->rs.wl_stat[1],
	        (unsigned long long)t->rs.wl_stat[2], (unsigned long long)t->rs.wl_stat[3]);
}

static void human(FILE *f, const struct run_info *ri, int i, const struct trial *t)
{
	double work = t->base_tasks ? (double)t->rs.tasks / (double)t->base_tasks : 0;
	fprintf(f,
	        "trial %d: source %u  time %.4f s  tasks %llu (empty %llu)  baseline %llu  work "
	        "%.3f  speedup %.2fx  per-thread tasks %llu/%llu/%llu",
	        i + 1, t->source, t->rs.seconds, (unsigned long long)t->rs.tasks,
	        (unsigned long long)t->rs.empty, (unsigned long long)t->base_tasks, work,
	        t->rs.seconds > 0 ? t->base_time / t->rs.seconds : 0,
	        (unsigned long long)t->rs.tasks_min, (unsigned long long)t->rs.tasks_median,
	        (unsigned long long)t->rs.tasks_max);
	for (int k = 0; k < ORDO_WL_STATS; k++)
		if (ri->ops->stat_names[k])
			fprintf(f, "  %s %llu", ri->ops->stat_names[k],
			        (unsigned long long)t->rs.wl_stat[k]);
	fprintf(f, "\n         reached %llu  max distance %llu  verification %s",
	        (unsigned long long)t->chk.reached, (unsigned long long)t->chk.max_dist,
	        t->verdict);
	if (t->chk.mismatches)
		fprintf(f, " (%llu nodes differ; node %u: %llu, expected %llu)",
		        (unsigned long long)t->chk.mismatches, t->chk.first_bad,
		        (unsigned long long)t->chk.got, (unsigned long long)t->chk.want);
	fprintf(f, "\n");
}

int app_main(const struct app_kernel *k, int argc, char **argv)
{
	const char *slash = strrchr(argv[0], '/');
	cli_prog = slash ? slash + 1 : argv[0];
	cli_galois_aliases(argc, argv, galois_aliases);
	struct ordo_load_opts lo;
	ordo_load_opts_init(&lo);
	const char *file = NULL, *gen = NULL, *wl_spec = k->default_wl, *out_path = NULL;
	int64_t threads = 0, source = -1, trials = 3, seed = 1, fake = 0, delta = -1,
	        lookahead = -1;
	int fmt = F_TEXT, bind = ORDO_BIND_NONE;
	bool verify = true, quiet = false;
	struct cli_opt all[64];
	int na = 0;
	for (const struct cli_opt *o = app_opts; o->name; o++)
		all[na++] = *o;
	for (const struct cli_opt *o = cli_load_opts; o->name; o++)
		all[na++] = *o;
	all[na] = (struct cli_opt){0};
	struct option lopts[64];
	char sopts[64];
	cli_getopt_tables(all, lopts, sopts, sizeof sopts);
	int c;
	while ((c = getopt_long(argc, argv, sopts, lopts, NULL)) != -1) {
		const char *arg = optarg && optarg[0] == '=' ? optarg + 1 : optarg; /* -t=2 */
		switch (c) {
		case 'f':
			file = arg;
			break;
		case A_GEN:
			gen = arg;
			break;
		case 't':
			if (!cli_int(cli_prog, "--threads", arg, 1, 4096, &threads))
				return 2;
			break;
		case A_WL:
			if (!strcmp(arg, "help")) {
				ordo_wl_print_help(stdout);
				return 0;
			}
			wl_spec = arg;
			break;
		case 'd':
			if (!cli_int(cli_prog, "--delta", arg, 0, 63, &delta))
				return 2;
			break;
		case 'r':
			if (!cli_int(cli_prog, "--source", arg, 0, UINT32_MAX - 1, &source))
				return 2;
			break;
		case 'n':
			if (!cli_int(cli_prog, "--trials", arg, 1, 100000, &trials))
				return 2;
			break;
		case A_SEED:
			if (!cli_int(cli_prog, "--seed", arg, 0, INT64_MAX, &seed))
				return 2;
			break;
		case 'v':
			verify = true;
			break;
		case A_NOVERIFY:
			verify = false;
			break;
		case A_FORMAT:
			if (!strcmp(arg, "text"))
				fmt = F_TEXT;
			else if (!strcmp(arg, "json"))
				fmt = F_JSON;
			else if (!strcmp(arg, "csv"))
				fmt = F_CSV;
			else {
				fprintf(stderr, "%s: --format %s: expected text, json or csv\n",
				        cli_prog, arg);
				return 2;
			}
			break;
		case A_OUT:
			out_path = arg;
			break;
		case A_BIND:
			if (!strcmp(arg, "none"))
				bind = ORDO_BIND_NONE;
			else if (!strcmp(arg, "compact"))
				bind = ORDO_BIND_COMPACT;
			else if (!strcmp(arg, "scatter"))
				bind = ORDO_BIND_SCATTER;
			else {
				fprintf(stderr,
				        "%s: --bind %s: expected none, compact or scatter\n",
				        cli_prog, arg);
				return 2;
			}
			break;
		case A_FAKE:
			if (!cli_int(cli_prog, "--numa-fake", arg, 1, 1024, &fake))
				return 2;
			break;
		case A_LOOKAHEAD:
			if (!cli_int(cli_prog, "--lookahead", arg, 0, ORDO_MAX_LOOKAHEAD,
			             &lookahead))
				return 2;
			break;
		case 'q':
			quiet = true;
			break;
		case A_HELP: {
			char usage[512];
			snprintf(
			    usage, sizeof usage,
			    "usage: %s [options] [FILE]\n%s with a pluggable scheduler, verified "
			    "against the exact sequential baseline.\nWithout FILE or --gen it runs "
			    "on the generated graph %s.\nGalois spellings -startNode, -delta, "
			    "-noverify, -t=N are accepted.",
			    cli_prog, k->name, k->default_gen);
			const struct cli_opt *tabs[2] = {app_opts, cli_load_opts};
			cli_print_help(usage, tabs, 2);
			printf("\n");
			ordo_wl_print_help(stdout);
			return 0;
		}
		default: {
			int r = cli_load_option(c, arg, &lo);
			if (r == 1)
				break;
			if (r == 0)
				fprintf(stderr, "Try '%s --help'.\n", cli_prog);
			return 2;
		}
		}
	}
	if (optind < argc && !file)
		file = argv[optind++];
	if (optind < argc) {
		fprintf(stderr, "%s: unexpected argument '%s'; try '%s --help'\n", cli_prog,
		        argv[optind], cli_prog);
		return 2;
	}
	if (file && gen) {
		fprintf(stderr, "%s: give an input file or --gen, not both\n", cli_prog);
		return 2;
	}
	/* --out FILE gets csv records unless --format json; stdout keeps its own format
	 * (the human report by default) */
	FILE *mout = fmt == F_TEXT ? NULL : stdout; /* machine records */
	FILE *hout = fmt == F_TEXT ? stdout : stderr;
	if (quiet)
		hout = NULL;

	struct ordo_err err = {0};
	struct ordo_topology topo;
	int rc = ordo_topology_init(&topo, (int)threads, (int)fake, bind, &err);
	if (rc)
		return cli_fail(cli_prog, &err);
	lo.threads = topo.nthreads;
	/* validate the scheduler before the (possibly long) load */
	char ov[64] = "";
	if (delta >= 0)
		snprintf(ov, sizeof ov, "delta=%lld", (long long)delta);
	{
		const struct ordo_wl_ops *ops;
		int64_t params[ORDO_MAX_PARAMS];
		rc = ordo_worklist_resolve(wl_spec, &ops, params, NULL, 0, &err);
		if (rc) {
			ordo_topology_free(&topo);
			return cli_fail(cli_prog, &err);
		}
	}
	FILE *fout = NULL;
	const int file_fmt = fmt == F_JSON ? F_JSON : F_CSV; /* --out: csv unless json */
	if (out_path) {
		fout = fopen(out_path, "a");
		if (!fout) {
			fprintf(stderr, "%s: %s: cannot open for appending\n", cli_prog, out_path);
			ordo_topology_free(&topo);
			return 3;
		}
	}
	struct ordo_graph *g = NULL;
	char input[512];
	double load_s = 0;
	rc = cli_load_graph(file, file ? NULL : (gen ? gen : k->default_gen), &lo, quiet, &g, input,
	                    sizeof input, &load_s);
	if (rc) {
		ordo_topology_free(&topo);
		if (fout)
			fclose(fout);
		return rc;
	}
	int status = 0;
	void *st = NULL;
	struct trial *tr = calloc((size_t)trials, sizeof *tr);
	struct ordo_worklist wl = {0};
	if (!tr || (rc = k->init(&st, g, &err))) {
		status = tr ? cli_fail(cli_prog, &err) : 3;
		goto out;
	}
	if (g->n == 0 || g->m == 0) {
		fprintf(stderr, "%s: %s has no arcs: nothing to run\n", cli_prog, input);
		status = 2;
		goto out;
	}
	if (source >= (int64_t)g->n) {
		fprintf(stderr, "%s: --source %lld: the graph has nodes 0..%u\n", cli_prog,
		        (long long)source, g->n - 1);
		status = 2;
		goto out;
	}
	struct run_info ri = {.alg = k->name,
	                      .input = input,
	                      .g = g,
	                      .threads = topo.nthreads,
	                      .seed = (uint64_t)seed,
	                      .load_s = load_s};
	uint32_t last_src = UINT32_MAX;
	char sched[256] = "";
	uint64_t base_tasks = 0;
	double base_time = 0;
	if (fout && ftell(fout) == 0 && file_fmt == F_CSV)
		fputs(csv_header, fout);
	if (mout && fmt == F_CSV)
		fputs(csv_header, mout);
	for (int64_t i = 0; i < trials; i++) {
		struct trial *t = &tr[i];
		t->source = source >= 0 ? (uint32_t)source
		                        : ordo_pick_source(g, (uint64_t)seed, (uint64_t)i);
		if (t->source != last_src) {
			double t0 = ordo_now();
			if ((rc = k->baseline(st, t->source, &base_tasks, &err))) {
				status = cli_fail(cli_prog, &err);
				goto out;
			}
			base_time = ordo_now() - t0;
			last_src = t->source;
		}
		t->base_tasks = base_tasks;
		t->base_time = base_time;
		rc = ordo_worklist_create(wl_spec, ov, &topo, (uint64_t)seed + (uint64_t)i, &wl,
		                          &err);
		if (rc) {
			status = cli_fail(cli_prog, &err);
			goto out;
		}
		snprintf(sched, sizeof sched, "%s", wl.spec); /* wl is destroyed before records */
		ri.sched = sched;
		ri.ops = wl.ops;
		if (i == 0 && hout)
			fprintf(hout,
			        "%s on %s (%u nodes, %llu arcs) with %s, %d threads (%d NUMA "
			        "node%s%s), seed %lld\n",
			        k->name, input, g->n, (unsigned long long)g->m, wl.spec,
			        topo.nthreads, topo.nnodes, topo.nnodes == 1 ? "" : "s",
			        topo.fake ? ", fake" : "", (long long)seed);
		struct ordo_exec_opts eo = {.topo = &topo, .seed = (uint64_t)seed + (uint64_t)i};
		if (lookahead >= 0)
			eo.lookahead = lookahead ? (unsigned)lookahead : ORDO_LOOKAHEAD_OFF;
		rc = k->run(st, t->source, &wl, &eo, &t->rs, &err);
		ordo_worklist_destroy(&wl);
		if (rc) {
			status = cli_fail(cli_prog, &err);
			goto out;
		}
		bool ok = k->verify(st, &t->chk);
		t->verdict = verify ? (ok ? "PASS" : "FAIL") : "SKIP";
		if (verify && !ok)
			status = 1;
		if (hout)
			human(hout, &ri, (int)i, t);
		char tn[24];
		snprintf(tn, sizeof tn, "%lld", (long long)i + 1);
		if (mout)
			record(mout, fmt, &ri, tn, t);
		if (fout)
			record(fout, file_fmt, &ri, tn, t);
	}
	{
		/* summary: medians over trials */
		double *v = malloc((size_t)trials * sizeof *v), tm, wm, bm;
		for (int64_t i = 0; i < trials; i++)
			v[i] = tr[i].rs.seconds;
		tm = median(v, (int)trials);
		for (int64_t i = 0; i < trials; i++)
			v[i] = tr[i].base_tasks ? (double)tr[i].rs.tasks / tr[i].base_tasks : 0;
		wm = median(v, (int)trials);
		for (int64_t i = 0; i < trials; i++)
			v[i] = tr[i].base_time;
		bm = median(v, (int)trials);
		free(v);
		if (hout)
			fprintf(
			    hout,
			    "summary: median time %.4f s over %lld trial%s  work ratio %.3f  "
			    "speedup vs sequential baseline %.2fx (baseline %.4f s)  load %.3f s  "
			    "verification %s\n",
			    tm, (long long)trials, trials == 1 ? "" : "s", wm, tm > 0 ? bm / tm : 0,
			    bm, load_s,
			    !verify  ? "SKIPPED"
			    : status ? "FAIL"
			             : "PASS");
	}
out:
	if (st)
		k->fini(st);
	free(tr);
	ordo_graph_free(g);
	ordo_topology_free(&topo);
	if (fout)
		fclose(fout);
	return status;
}
