/* outputs.c - see outputs.h. */
#include "outputs.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <omp.h>

#include "ordo_util.h"

const struct ordo_cli_opt out_common_opts[] = {
    {"output", 'o', "FILE", "output file (format from its extension unless --to)"},
    {"to", O_TO, "FMT", "output format (`help` lists them; default: from the extension)"},
    {"coords-out", O_COORDS_OUT, "FILE", "also write the coordinates (.co or .xyz by name)"},
    {"zstd-level", O_LEVEL, "L", "zstd level of native sections and .zst outputs (default 3)"},
    {"mappable", O_MAPPABLE, NULL,
     "native output: store the graph as it is held in memory, uncompressed, so that every "
     "process loads it by mmap with no copy and shares one copy through the page cache"},
    {"threads", 't', "N", "threads (default: all CPUs available)"},
    {"seed", O_SEED, "S", "seed of --random-weights (same as --weight-seed; default 1)"},
    {"info", O_INFO, NULL, "print a summary of the graph (no output file needed)"},
    {"help", 'h', NULL, "this help"},
    {"version", O_VERSION, NULL, "version, git revision and build options"},
    {NULL, 0, NULL, NULL},
};

void out_summary(const struct ordo_graph *g, const char *name)
{
	uint64_t dmin = UINT64_MAX, dmax = 0, isolated = 0;
	uint32_t wmin = UINT32_MAX, wmax = 0;
	for (uint32_t u = 0; u < g->n; u++) {
		uint64_t d = ordo_graph_degree(g, u);
		dmin = d < dmin ? d : dmin;
		dmax = d > dmax ? d : dmax;
		isolated += d == 0;
	}
	if (ordo_graph_weighted(g))
		for (uint32_t u = 0; u < g->n; u++) {
			uint32_t v, w;
			for (struct ordo_arcs a = ordo_graph_arcs(g, u);
			     ordo_arcs_next(&a, &v, &w);) {
				wmin = w < wmin ? w : wmin;
				wmax = w > wmax ? w : wmax;
			}
		}
	printf("graph %s\n  nodes %u\n  arcs %llu\n  average out-degree %.3f (min %llu, max "
	       "%llu, %llu with none)\n",
	       name, g->n, (unsigned long long)g->m, g->n ? (double)g->m / g->n : 0.0,
	       (unsigned long long)(g->n ? dmin : 0), (unsigned long long)dmax,
	       (unsigned long long)isolated);
	if (ordo_graph_weighted(g))
		printf("  weights %u..%u\n", g->m ? wmin : 0, g->m ? wmax : 0);
	else
		printf("  unweighted\n");
	if (g->ids_sparse)
		printf("  sparse input ids %u..%u kept (each node keeps its edge-list id)\n",
		       ordo_graph_orig_of(g, ordo_graph_node_at(g, 0)),
		       ordo_graph_orig_of(g, ordo_graph_node_at(g, g->n - 1)));
	else if (g->orig_id)
		printf("  node order renumbered (each node keeps its input id)\n");
	printf("  coordinates %s%s%s%s\n",
	       g->coord_kind == ORDO_COORD_NONE    ? "none"
	       : g->coord_kind == ORDO_COORD_INT32 ? "int32"
	                                           : "double",
	       g->coord_unit[0] ? " (" : "", g->coord_unit, g->coord_unit[0] ? ")" : "");
	const double bytes = (double)ordo_graph_csr_bytes(g);
	printf("  %s %.1f MiB, %.2f bytes per arc%s\n",
	       ordo_graph_compressed(g) ? "compressed CSR" : "CSR", bytes / (1 << 20),
	       g->m ? bytes / (double)g->m : 0.0,
	       (g->flags & ORDO_GRAPH_SYMMETRIC) ? ", symmetric" : "");
	if (g->map)
		printf("  mapped from a mappable file, %.1f MiB, shared with every process "
		       "mapping it\n",
		       (double)g->map_bytes / (1 << 20));
	if (ordo_graph_compressed(g))
		printf("  %llu blocks of 16 nodes padded for hubs, %llu bytes of arcs\n",
		       (unsigned long long)g->cz_nwide, (unsigned long long)g->cz_bytes);
}

/* The files of one output set (a .gr and its .co, a --coords-out file) are written
 * under staging names beside their final names and renamed together at the end, so a
 * failed or interrupted run leaves none of them: not a complete .gr without its .co. */
static char staged[MAX_OUTPUTS][4096];
static volatile sig_atomic_t nstaged;

/* "dir/name.ext" -> "dir/.ordo-part-PID-name.ext": the extension is kept, since it tells
 * a .zst output to be compressed. */
static bool staging_name(const char *path, char *buf, size_t cap)
{
	const char *base = strrchr(path, '/');
	size_t dir = base ? (size_t)(base - path) + 1 : 0;
	int n =
	    snprintf(buf, cap, "%.*s.ordo-part-%ld-%s", (int)dir, path, (long)getpid(), path + dir);
	return n > 0 && (size_t)n < cap;
}

static int save(const char *path, int fmt, const struct ordo_graph *g,
                const struct ordo_save_opts *so)
{
	struct ordo_err err = {0};
	double t0 = ordo_now();
	int k = nstaged;
	if (k == MAX_OUTPUTS || !staging_name(path, staged[k], sizeof staged[k])) {
		fprintf(stderr, "%s: %s: path too long\n", ordo_cli_prog, path);
		return 2;
	}
	nstaged = k + 1; /* the handler removes it from now on, whatever state it is in */
	fmt = fmt == ORDO_FMT_AUTO ? ordo_format_for_output(path) : fmt;
	int rc = ordo_save(staged[k], fmt, g, so, &err);
	if (rc) {
		/* the message names the file the user asked for */
		char *at = strstr(err.msg, staged[k]);
		if (at) {
			char msg[sizeof err.msg];
			snprintf(msg, sizeof msg, "%.*s%s%s", (int)(at - err.msg), err.msg, path,
			         at + strlen(staged[k]));
			snprintf(err.msg, sizeof err.msg, "%s", msg);
		}
		return ordo_cli_fail(ordo_cli_prog, &err);
	}
	fprintf(stderr, "wrote %s (%s) in %.3f s\n", path, ordo_format_name(fmt), ordo_now() - t0);
	if (g->orig_id && fmt != ORDO_FMT_NATIVE)
		fprintf(stderr,
		        "note: %s numbers the nodes 0..n-1 in their order here; only the native "
		        "format keeps their input ids (--id-map FILE writes them)\n",
		        path);
	return 0;
}

static void remove_staged(void)
{
	for (int i = 0; i < nstaged; i++)
		unlink(staged[i]);
}

/* Every file of the set is complete: rename them all to their final names, with
 * SIGINT/SIGTERM held off so that the set lands whole. */
static int publish(const char *const *finals, int n)
{
	sigset_t block, old;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old);
	int rc = 0;
	for (int i = 0; i < n && !rc; i++)
		if (rename(staged[i], finals[i])) {
			fprintf(stderr, "%s: %s: rename failed: %s\n", ordo_cli_prog, finals[i],
			        strerror(errno));
			for (int j = 0; j < i; j++)
				unlink(finals[j]);
			rc = 3;
		}
	if (rc)
		remove_staged();
	nstaged = 0;
	sigprocmask(SIG_SETMASK, &old, NULL);
	return rc;
}

/* SIGINT/SIGTERM: remove the temporary file of the output being written and the staged
 * files of the set, then die of the signal as usual. */
static void on_signal(int sig)
{
	ordo_io_remove_pending();
	remove_staged();
	signal(sig, SIG_DFL);
	raise(sig);
}

void out_init(struct out_cfg *c)
{
	*c = (struct out_cfg){.to = ORDO_FMT_AUTO};
	ordo_load_opts_init(&c->lo);
	ordo_save_opts_init(&c->so);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
}

int out_option(struct out_cfg *c, int key, const char *arg)
{
	int64_t v;
	switch (key) {
	case 'o':
		c->out = arg;
		return OUT_HANDLED;
	case O_TO:
		if (!strcmp(arg, "help")) {
			ordo_format_print_table(stdout, ORDO_FORMAT_WRITE);
			return OUT_DONE;
		}
		c->to = ordo_format_from_name(arg);
		if (c->to <= 0 || !(ordo_format_info(c->to)->flags & ORDO_FORMAT_WRITE)) {
			char names[256];
			fprintf(stderr, "%s: --to %s: expected one of: %s\n", ordo_cli_prog, arg,
			        ordo_format_names(ORDO_FORMAT_WRITE, names, sizeof names));
			return 2;
		}
		return OUT_HANDLED;
	case O_COORDS_OUT:
		c->coords_out = arg;
		return OUT_HANDLED;
	case O_LEVEL:
		if (!ordo_cli_int(ordo_cli_prog, "--zstd-level", arg, 1, 19, &v))
			return 2;
		c->so.zstd_level = (int)v;
		return OUT_HANDLED;
	case 't':
		if (!ordo_cli_int(ordo_cli_prog, "--threads", arg, 1, 4096, &v))
			return 2;
		c->lo.threads = c->so.threads = (int)v;
		return OUT_HANDLED;
	case O_INFO:
		c->info = true;
		return OUT_HANDLED;
	case O_MAPPABLE:
		c->so.mappable = true;
		return OUT_HANDLED;
	case O_SEED:
		if (!ordo_cli_int(ordo_cli_prog, "--seed", arg, 0, INT64_MAX, &v))
			return 2;
		c->lo.build.seed = (uint64_t)v;
		return OUT_HANDLED;
	case O_VERSION:
		ordo_cli_print_version();
		return OUT_DONE;
	default:
		return OUT_NOT_MINE;
	}
}

int out_run(struct out_cfg *c, const char *in, bool gen)
{
	/* refused before anything is read: an output the extension does not name, and an
	 * output that is the input itself (it would be replaced while being the only copy) */
	const int fmt = !c->out ? 0 : c->to ? c->to : ordo_format_for_output(c->out);
	if (c->so.mappable && fmt != ORDO_FMT_NATIVE) {
		fprintf(stderr, "%s: --mappable: only a native (.ordo) output can be mapped%s%s\n",
		        ordo_cli_prog, c->out ? "; this one is " : "",
		        c->out ? ordo_format_name(fmt) : "");
		return 2;
	}
	int bad = c->out ? ordo_cli_check_output_path("-o", c->out) : 0;
	if (!bad && c->coords_out)
		bad = ordo_cli_check_output_path("--coords-out", c->coords_out);
	if (bad)
		return bad;
	if (c->out && !c->to && ordo_format_of_extension(c->out) < 0) {
		fprintf(stderr,
		        "%s: -o %s: the extension names no format (`--to help` lists them); give "
		        "--to FMT\n",
		        ordo_cli_prog, c->out);
		return 2;
	}
	struct stat si, so_;
	if (c->out && !gen && stat(in, &si) == 0 && stat(c->out, &so_) == 0 &&
	    si.st_dev == so_.st_dev && si.st_ino == so_.st_ino) {
		fprintf(stderr, "%s: -o %s is the input itself; write to another file\n",
		        ordo_cli_prog, c->out);
		return 2;
	}
	if (c->lo.threads)
		omp_set_num_threads(c->lo.threads);
	struct ordo_graph *g;
	char name[512];
	double secs;
	int rc = ordo_cli_load_graph(gen ? NULL : in, gen ? in : NULL, &c->lo, false, &g, name,
	                             sizeof name, &secs, NULL);
	if (rc)
		return rc;
	if (c->info)
		out_summary(g, name);
	if (c->coords_out && g->coord_kind == ORDO_COORD_NONE) {
		fprintf(stderr,
		        "%s: --coords-out %s: %s has no coordinates (give them with --coords)\n",
		        ordo_cli_prog, c->coords_out, name);
		ordo_graph_free(g);
		return 2;
	}
	const char *finals[MAX_OUTPUTS];
	char co[4096];
	int nout = 0;
	if (c->out) {
		rc = save(c->out, fmt, g, &c->so);
		finals[nout++] = c->out;
		if (!rc && fmt == ORDO_FMT_DIMACS && g->coord_kind != ORDO_COORD_NONE &&
		    !c->lo.no_sibling_coords && !c->coords_out) {
			/* the sibling .co of a DIMACS .gr */
			if (!ordo_sibling_co(c->out, co, sizeof co)) {
				fprintf(stderr, "%s: %s: path too long\n", ordo_cli_prog, c->out);
				rc = 2;
			} else {
				rc = save(co, ORDO_FMT_CO, g, &c->so);
				finals[nout++] = co;
			}
		}
		if (!rc && c->coords_out) {
			rc = save(c->coords_out,
			          ordo_format_for_output(c->coords_out) == ORDO_FMT_XYZ
			              ? ORDO_FMT_XYZ
			              : ORDO_FMT_CO,
			          g, &c->so);
			finals[nout++] = c->coords_out;
		}
		if (!rc)
			rc = publish(finals, nout);
		else
			remove_staged();
	}
	ordo_graph_free(g);
	return rc;
}

int out_exit_status(int r)
{
	if (r == OUT_HANDLED)
		return -1;
	if (r == OUT_DONE)
		return 0;
	if (r == OUT_NOT_MINE)
		fprintf(stderr, "Try '%s --help'.\n", ordo_cli_prog);
	return 2;
}

int out_finish(struct out_cfg *c, int argc, char **argv, bool gen)
{
	const char *in = optind < argc ? argv[optind++] : NULL;
	if (!c->out && optind < argc)
		c->out = argv[optind++];
	if (optind < argc || !in || (!c->out && !c->info)) {
		fprintf(stderr, "usage: %s %s [-o] OUT [options]; try '%s --help'\n", ordo_cli_prog,
		        gen ? "SPEC" : "IN", ordo_cli_prog);
		return 2;
	}
	return out_run(c, in, gen);
}
