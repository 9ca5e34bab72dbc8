/* app_records.c - what a run reports: records for machines, built from one table of
 * fields (record_fields) that drives the CSV header, the CSV rows and the JSON lines
 * alike, the --out file's checks, and the human report. The record format is the
 * contract ordo-bench reads: algorithms/APPS.md, "Records", lists the fields. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app_internal.h"

enum { FK_STR, FK_U64, FK_F64, FK_G64, FK_NULL, FK_LIST, FK_ULIST }; /* G64: a real, %.9g */

struct field {
	const char *name;
	int kind;
	int prec; /* FK_F64, FK_LIST: decimals */
	const char *s;
	uint64_t u;
	double d;
	const float *v;    /* FK_LIST: u values; JSON [a,b], csv "a;b" */
	const uint64_t *w; /* FK_ULIST: likewise, integers */
};

/* Room for every field: the fixed ones, the figures, and one column per counter name
 * of every registered scheduler. A record that would not fit stops the program rather
 * than lose a field (record_fields checks before each one). */
#define MAX_FIELDS 128

static void fields_overflow(void)
{
	fprintf(stderr, "%s: internal error: a record has more than %d fields\n", ordo_cli_prog,
	        MAX_FIELDS);
	abort();
}

void harness_stat_columns(struct ordo_app_run *r)
{
	for (int i = 0; i < ordo_scheduler_count(); i++)
		for (int s = 0; s < ORDO_SCHED_STATS; s++) {
			const char *nm = ordo_scheduler_at(i)->stat_names[s];
			bool seen = !nm;
			for (int j = 0; j < r->nstat && !seen; j++)
				seen = !strcmp(r->stat_col[j], nm);
			if (!seen && r->nstat < ORDO_SCHED_STATS * 16) {
				r->stat_col[r->nstat] = nm;
				snprintf(r->stat_key[r->nstat], sizeof r->stat_key[0], "wl_%s", nm);
				r->nstat++;
			}
		}
}

#define F_S(n, v)                                                                \
	do {                                                                     \
		if (nf >= MAX_FIELDS)                                            \
			fields_overflow();                                       \
		f[nf++] = (struct field){.name = (n), .kind = FK_STR, .s = (v)}; \
	} while (0)
#define F_U(n, v)                                                                          \
	do {                                                                               \
		if (nf >= MAX_FIELDS)                                                      \
			fields_overflow();                                                 \
		f[nf++] = (struct field){.name = (n), .kind = FK_U64, .u = (uint64_t)(v)}; \
	} while (0)
#define F_D(n, v, p)                                                                          \
	do {                                                                                  \
		if (nf >= MAX_FIELDS)                                                         \
			fields_overflow();                                                    \
		f[nf++] = (struct field){.name = (n), .kind = FK_F64, .d = (v), .prec = (p)}; \
	} while (0)
#define F_L(n, vals, count, p)                                                             \
	do {                                                                               \
		if (nf >= MAX_FIELDS)                                                      \
			fields_overflow();                                                 \
		f[nf++] = (struct field){                                                  \
		    .name = (n), .kind = FK_LIST, .v = (vals), .u = (count), .prec = (p)}; \
	} while (0)
#define F_UL(n, vals, count)                                                                  \
	do {                                                                                  \
		if (nf >= MAX_FIELDS)                                                         \
			fields_overflow();                                                    \
		f[nf++] =                                                                     \
		    (struct field){.name = (n), .kind = FK_ULIST, .w = (vals), .u = (count)}; \
	} while (0)
#define F_N(n)                                                          \
	do {                                                            \
		if (nf >= MAX_FIELDS)                                   \
			fields_overflow();                              \
		f[nf++] = (struct field){.name = (n), .kind = FK_NULL}; \
	} while (0)

/* A trial's work ratio and speedup over its sequential baseline (0 when undefined);
 * the records, the human report and the summary all use these. */
double harness_work(const struct trial *t)
{
	return t->base.tasks ? (double)t->rs.tasks / (double)t->base.tasks : 0;
}

/* The useful-work ratio: the tasks that did work (all but the empty ones, those that
 * found their work done or stale) over the baseline's tasks. */
double harness_useful(const struct trial *t)
{
	return t->base.tasks ? (double)(t->rs.tasks - t->rs.empty) / (double)t->base.tasks : 0;
}

double harness_speedup(const struct trial *t)
{
	return t->rs.seconds > 0 ? t->base.seconds / t->rs.seconds : 0;
}

/* A baseline that ran under a millisecond is timer noise and thread start-up, not a base
 * for a speedup: the human report says so instead of printing a ratio like 900x (the
 * record keeps the raw ratio with the baseline's time beside it). */
static void speedup_text(char *buf, size_t size, double base_s, double speedup)
{
	if (base_s < MIN_BASELINE_S)
		snprintf(buf, size, "- (baseline under 1 ms)");
	else
		snprintf(buf, size, "%.2fx", speedup);
}

/* Node u's id in the input (what the user gave and sees); u when no graph is held. */
static uint32_t input_id(const struct ordo_app_run *r, uint32_t u)
{
	return r->g ? ordo_graph_orig_of(r->g, u) : u;
}

/* The executor's fields of a trial, from f[nf] on; returns the new count. */
static int executor_fields(const struct trial *t, struct field *f, int nf)
{
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
	/* seats (runtime/seats.h): workers allowed to run at the start and the end, times a
	 * worker parked, tasks parking workers handed over; idle workers' CPU seconds and
	 * sleeps on the idle bell; tasks' own loops shared with the run's workers, and the
	 * items other workers ran */
	if (timed) {
		F_U("seats", t->rs.seats_start);
		F_U("seats_end", t->rs.seats_end);
		F_U("parks", t->rs.parks);
		F_U("handed_over", t->rs.handed_over);
		F_D("idle_cpu_s", t->rs.idle_cpu_s, 4);
		F_U("idle_sleeps", t->rs.idle_sleeps);
		F_U("task_loops", t->rs.task_loops);
		F_U("loop_items_helped", t->rs.loop_items_helped);
	} else {
		F_N("seats");
		F_N("seats_end");
		F_N("parks");
		F_N("handed_over");
		F_N("idle_cpu_s");
		F_N("idle_sleeps");
		F_N("task_loops");
		F_N("loop_items_helped");
	}
	return nf;
}

/* The scheduler's counters, one field each, from f[nf] on; returns the new count. */
static int scheduler_fields(const struct ordo_app_run *r, const struct trial *t, struct field *f,
                            int nf)
{
	for (int i = 0; i < r->nstat; i++) {
		int s = -1;
		for (int j = 0; r->ops && j < ORDO_SCHED_STATS; j++)
			if (r->ops->stat_names[j] && !strcmp(r->ops->stat_names[j], r->stat_col[i]))
				s = j;
		if (s >= 0 && r->sched_used)
			F_U(r->stat_key[i], t->rs.wl_stat[s]);
		else
			F_N(r->stat_key[i]);
	}
	return nf;
}

/* A log2 histogram's bins up to its last non-empty one. */
static uint64_t hist_len(const uint64_t *h)
{
	uint64_t n = 65;
	while (n > 1 && !h[n - 1])
		n--;
	return n;
}

/* --sim's fields (null for a real run): the spec, steps, and the pops' rank error and
 * the popped tasks' delays (means, maxima, log2 histograms). */
static int sim_fields(const struct ordo_app_run *r, const struct trial *t, struct field *f, int nf)
{
	const struct ordo_sim_stats *sim = &t->rs.sim;
	static const char *const names[] = {"rank_mean",  "rank_max",  "rank_hist",
	                                    "delay_mean", "delay_max", "delay_hist"};
	if (!sim->workers) {
		F_N("sim");
		F_N("sim_steps");
	} else {
		F_S("sim", r->sim_spec);
		F_U("sim_steps", sim->steps);
	}
	const uint64_t pops = sim->pops ? sim->pops : 1;
	for (int k = 0; k < 6; k++) {
		const bool rank = k < 3, on = sim->workers && (rank ? sim->ranked : sim->delayed);
		if (!on)
			F_N(names[k]);
		else if (k % 3 == 0)
			F_D(names[k],
			    (double)(rank ? sim->rank_sum : sim->delay_sum) / (double)pops, 4);
		else if (k % 3 == 1)
			F_U(names[k], rank ? sim->rank_max : sim->delay_max);
		else
			F_UL(names[k], rank ? sim->rank_hist : sim->delay_hist,
			     hist_len(rank ? sim->rank_hist : sim->delay_hist));
	}
	return nf;
}

/* The one table of record fields; t == NULL gives the names only (header). */
static int record_fields(const struct ordo_app_run *r, int trial_no, const struct trial *t,
                         struct field *f)
{
	static const struct trial none;
	if (!t)
		t = &none;
	const struct ordo_app_kernel *k = r->k;
	int nf = 0;
	F_S("algorithm", k->name);
	F_S("input", r->input);
	F_U("n", r->g ? r->g->n : 0);
	F_U("m", r->g ? r->g->m : 0);
	F_S("scheduler", r->sched);
	F_U("threads", r->topo.nthreads);
	F_U("lookahead", t->rs.lookahead);
	F_U("batch", t->rs.batch);
	F_U("seed", r->cfg->seed);
	F_U("trial", trial_no);
	if (k->query != ORDO_APP_QUERY_NONE)
		F_U("source", input_id(r, t->q.source));
	else
		F_N("source");
	if (k->query == ORDO_APP_QUERY_PAIR)
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
	F_D("work_ratio", harness_work(t), 6);
	F_D("baseline_time_s", t->base.seconds, 6);
	F_D("speedup", harness_speedup(t), 4);
	F_U("tasks_thread_min", t->rs.tasks_min);
	F_U("tasks_thread_median", t->rs.tasks_median);
	F_U("tasks_thread_max", t->rs.tasks_max);
	nf = executor_fields(t, f, nf);
	if (r->hinted) /* the scheduler's delta came from the graph (ordo_delta_hint); added at
	                * the group's end, as the records' contract says */
		F_U("delta_from_graph", (uint64_t)r->hint_shift);
	else
		F_N("delta_from_graph");
	F_D("useful_ratio", harness_useful(t), 6); /* the group's end, as delta_from_graph */
	nf = sim_fields(r, t, f, nf);
	for (int i = 0; k->figures[i]; i++) {
		uint64_t v;
		double d;
		if (ordo_check_get(&t->chk, k->figures[i], &v))
			F_U(k->figures[i], v);
		else if (ordo_check_get_real(&t->chk, k->figures[i], &d))
			f[nf++] = (struct field){.name = k->figures[i], .kind = FK_G64, .d = d};
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
	nf = scheduler_fields(r, t, f, nf);
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
	case FK_G64:
		if (isfinite(f->d))
			fprintf(fp, "%.9g", f->d);
		else
			fputs(json ? "null" : "", fp);
		break;
	case FK_LIST:
		fputs(json ? "[" : "\"", fp);
		for (uint64_t i = 0; i < f->u; i++)
			fprintf(fp, "%s%.*f", i ? (json ? "," : ";") : "", f->prec,
			        (double)f->v[i]);
		fputs(json ? "]" : "\"", fp);
		break;
	case FK_ULIST:
		fputs(json ? "[" : "\"", fp);
		for (uint64_t i = 0; i < f->u; i++)
			fprintf(fp, "%s%llu", i ? (json ? "," : ";") : "",
			        (unsigned long long)f->w[i]);
		fputs(json ? "]" : "\"", fp);
		break;
	default:
		if (json)
			fputs("null", fp);
	}
}

static void csv_header_line(const struct ordo_app_run *r, char *buf, size_t cap)
{
	struct field f[MAX_FIELDS];
	int nf = record_fields(r, 0, NULL, f);
	size_t len = 0;
	buf[0] = 0;
	for (int i = 0; i < nf && len < cap; i++)
		len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? "," : "", f[i].name);
}

static void put_csv_header(FILE *fp, const struct ordo_app_run *r)
{
	char h[4096];
	csv_header_line(r, h, sizeof h);
	fprintf(fp, "%s\n", h);
}

void harness_record(FILE *fp, int fmt, const struct ordo_app_run *r, int trial_no,
                    const struct trial *t)
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

int harness_check_out(struct ordo_app_run *r)
{
	const char *path = r->cfg->out_path;
	struct stat sb;
	/* a directory opens for reading and reads as empty: refuse it here, before the
	 * graph is loaded, not when the first record cannot be appended */
	if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
		fprintf(stderr, "%s: --out %s: %s, not a file; give a file name\n", ordo_cli_prog,
		        path, S_ISDIR(sb.st_mode) ? "a directory" : "not a regular file");
		return 2;
	}
	FILE *fp = fopen(path, "r");
	if (!fp) {
		if (errno != ENOENT) {
			fprintf(stderr, "%s: --out %s: cannot read it: %s\n", ordo_cli_prog, path,
			        strerror(errno));
			return 3;
		}
		char dir[4096];
		ordo_cli_dir_of(path, dir, sizeof dir);
		if (access(dir, W_OK)) {
			fprintf(stderr, "%s: --out %s: cannot create it in %s: %s\n", ordo_cli_prog,
			        path, dir, strerror(errno));
			return 3;
		}
		return 0;
	}
	char line[4096] = "";
	bool empty = !fgets(line, sizeof line, fp);
	fclose(fp);
	if (access(path, W_OK)) {
		fprintf(stderr, "%s: --out %s: cannot append to it: %s\n", ordo_cli_prog, path,
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
		        ordo_cli_prog, path, is_json ? "json" : "csv",
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
			        ordo_cli_prog, path, r->k->name);
			return 2;
		}
		r->fout_has_header = true;
	}
	return 0;
}

int harness_emit(struct ordo_app_run *r, int trial_no, const struct trial *t)
{
	const struct ordo_app_cfg *c = r->cfg;
	if (r->mout) {
		if (trial_no == 1 && c->fmt == F_CSV)
			put_csv_header(r->mout, r);
		harness_record(r->mout, c->fmt, r, trial_no, t);
	}
	if (c->out_path) {
		if (!r->fout) {
			r->fout = fopen(c->out_path, "a");
			if (!r->fout) {
				fprintf(stderr, "%s: --out %s: cannot open for appending: %s\n",
				        ordo_cli_prog, c->out_path, strerror(errno));
				return 3;
			}
			if (c->out_fmt == F_CSV && !r->fout_has_header)
				put_csv_header(r->fout, r);
		}
		harness_record(r->fout, c->out_fmt, r, trial_no, t);
		if (ferror(r->fout)) {
			fprintf(stderr, "%s: --out %s: write failed\n", ordo_cli_prog, c->out_path);
			return 3;
		}
	}
	return 0;
}

/* ---- human report ---- */

void harness_human_trial(const struct ordo_app_run *r, int i, const struct trial *t)
{
	FILE *f = r->hout;
	const struct ordo_app_kernel *k = r->k;
	fprintf(f, "trial %d:", i);
	if (k->query != ORDO_APP_QUERY_NONE)
		fprintf(f, " source %u", input_id(r, t->q.source));
	if (k->query == ORDO_APP_QUERY_PAIR)
		fprintf(f, " target %u", input_id(r, t->q.target));
	char sp[64];
	speedup_text(sp, sizeof sp, t->base.seconds, harness_speedup(t));
	fprintf(f,
	        "  time %.4f s  tasks %llu (empty %llu)  baseline %llu  work %.3f (useful %.3f)  "
	        "speedup %s  per-thread tasks %llu/%llu/%llu",
	        t->rs.seconds, (unsigned long long)t->rs.tasks, (unsigned long long)t->rs.empty,
	        (unsigned long long)t->base.tasks, harness_work(t), harness_useful(t), sp,
	        (unsigned long long)t->rs.tasks_min, (unsigned long long)t->rs.tasks_median,
	        (unsigned long long)t->rs.tasks_max);
	for (int s = 0; r->sched_used && s < ORDO_SCHED_STATS; s++)
		if (r->ops->stat_names[s])
			fprintf(f, "  %s %llu", r->ops->stat_names[s],
			        (unsigned long long)t->rs.wl_stat[s]);
	if (t->rs.seats_start && t->rs.seats_start < t->rs.threads)
		fprintf(f, "  seats %d", t->rs.seats_start);
	if (t->rs.parks)
		fprintf(f, "  parked %llu times, %llu tasks handed over, seats at the end %d",
		        (unsigned long long)t->rs.parks, (unsigned long long)t->rs.handed_over,
		        t->rs.seats_end);
	const struct ordo_sim_stats *sim = &t->rs.sim;
	if (sim->workers) {
		fprintf(f, "\n         simulated (--sim %s): %llu steps", r->sim_spec,
		        (unsigned long long)sim->steps);
		if (sim->ranked && sim->pops)
			fprintf(f, ", rank error mean %.2f max %llu",
			        (double)sim->rank_sum / (double)sim->pops,
			        (unsigned long long)sim->rank_max);
		else if (!sim->ranked)
			fprintf(f, ", rank error not measured (a priority above 2^24)");
		if (sim->delayed && sim->pops)
			fprintf(f, ", delay max %llu (mean = rank's)",
			        (unsigned long long)sim->delay_max);
		if (sim->unmatched)
			fprintf(f, ", %llu pops of tasks never pushed",
			        (unsigned long long)sim->unmatched);
		uint64_t lo = UINT64_MAX, hi = 0;
		for (int w = 0; w < sim->workers && w < 64; w++) {
			lo = sim->worker_steps[w] < lo ? sim->worker_steps[w] : lo;
			hi = sim->worker_steps[w] > hi ? sim->worker_steps[w] : hi;
		}
		fprintf(f, ", steps per worker %llu-%llu%s", (unsigned long long)lo,
		        (unsigned long long)hi, sim->workers > 64 ? " (the first 64)" : "");
	}
	fprintf(f, "\n        ");
	for (int j = 0; k->figures[j]; j++) {
		uint64_t v;
		double d;
		if (ordo_check_get(&t->chk, k->figures[j], &v))
			fprintf(f, " %s %llu ", k->figures[j], (unsigned long long)v);
		else if (ordo_check_get_real(&t->chk, k->figures[j], &d))
			fprintf(f, " %s %.3g ", k->figures[j], d);
	}
	fprintf(f, " verification %s", t->verdict);
	if (t->chk.mismatches)
		fprintf(f, " (%llu mismatch%s; first: %s)", (unsigned long long)t->chk.mismatches,
		        t->chk.mismatches == 1 ? "" : "es", t->chk.first);
	fprintf(f, "\n");
}
