/* cli.c - shared command-line handling of the ordo binaries (see ordo_cli.h). */
#include "ordo_cli.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ordo_git_rev.h"
#include "ordo_util.h"

const char *ordo_cli_prog = "ordo";

void ordo_cli_print_version(void)
{
	printf("%s (ordo) %s, git %s\nbuild: %s\n", ordo_cli_prog, ORDO_VERSION, ORDO_GIT_REV,
	       ORDO_BUILD_OPTS);
}

void ordo_cli_getopt_tables(const struct ordo_cli_opt *opts, struct option *lo, char *so,
                            size_t socap)
{
	size_t k = 0, s = 0;
	for (; opts[k].name; k++) {
		lo[k] = (struct option){opts[k].name, opts[k].arg ? required_argument : no_argument,
		                        NULL, opts[k].key};
		if (opts[k].key < 256 && s + 3 < socap) {
			so[s++] = (char)opts[k].key;
			if (opts[k].arg)
				so[s++] = ':';
		}
	}
	lo[k] = (struct option){0, 0, 0, 0};
	so[s] = 0;
}

/* Edit distance of a and b (at most 64 characters of each), for suggestions. */
static int edit_distance(const char *a, const char *b)
{
	int prev[65], cur[65];
	const int n = (int)strnlen(a, 64), m = (int)strnlen(b, 64);
	for (int j = 0; j <= m; j++)
		prev[j] = j;
	for (int i = 1; i <= n; i++) {
		cur[0] = i;
		for (int j = 1; j <= m; j++) {
			const int sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
			const int del = prev[j] + 1, ins = cur[j - 1] + 1;
			cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
		}
		memcpy(prev, cur, sizeof(int) * (size_t)(m + 1));
	}
	return prev[m];
}

/* "; did you mean --NAME?" for the option nearest to `word` (its text after the dashes,
 * up to '='), when one is within two edits; else "". */
static void suggestion(const char *word, const struct ordo_cli_opt *opts, char *buf, size_t cap)
{
	char w[65];
	size_t k = 0;
	while (word[k] == '-')
		k++;
	snprintf(w, sizeof w, "%.*s", (int)strcspn(word + k, "="), word + k);
	int best = 3;
	const char *name = NULL;
	for (int i = 0; opts[i].name; i++) {
		const int d = edit_distance(w, opts[i].name);
		if (d < best)
			best = d, name = opts[i].name;
	}
	if (name)
		snprintf(buf, cap, "; did you mean --%s?", name);
	else
		snprintf(buf, cap, "; --help lists them");
}

int ordo_cli_next(int argc, char **argv, const char *so, const struct option *lo,
                  const struct ordo_cli_opt *opts, unsigned char *seen)
{
	opterr = 0;
	int li = -1;
	int ch = getopt_long(argc, argv, so, lo, &li);
	if (ch == -1)
		return -1;
	/* a long option is spelled out: getopt_long also takes unambiguous prefixes, which
	 * ordo refuses (a prefix unique today is ambiguous once an option is added, and a
	 * record's command should read as the options' names) */
	if (ch != '?' && li >= 0 && optind >= 1 && optind <= argc) {
		/* the option's own word: before its value when that was the next word (getopt
		 * moves the words it has read to the front, so they sit just before optind) */
		const char *text = optarg && optind >= 2 && optarg == argv[optind - 1]
		                       ? argv[optind - 2]
		                       : argv[optind - 1];
		if (!strncmp(text, "--", 2) && strcspn(text + 2, "=") < strlen(lo[li].name)) {
			fprintf(stderr,
			        "%s: '%s': write the option's whole name, --%s (ordo takes no "
			        "abbreviations)\n",
			        ordo_cli_prog, text, lo[li].name);
			return '?';
		}
	}
	if (ch == '?') {
		const char *what = optind > 0 && optind <= argc ? argv[optind - 1] : "?";
		const struct ordo_cli_opt *o = NULL;
		for (int k = 0; optopt && opts[k].name; k++)
			if (opts[k].key == optopt)
				o = &opts[k];
		if (o && o->arg)
			fprintf(stderr, "%s: --%s needs a value (%s)\n", ordo_cli_prog, o->name,
			        o->arg);
		else if (optopt && optopt < 256 && what[0] == '-' && what[1] != '-')
			fprintf(stderr, "%s: unknown option '-%c'\n", ordo_cli_prog, optopt);
		else {
			char hint[96];
			suggestion(what, opts, hint, sizeof hint);
			fprintf(stderr, "%s: unknown option '%s'%s\n", ordo_cli_prog, what, hint);
		}
		return '?';
	}
	for (int k = 0; opts[k].name; k++)
		if (opts[k].key == ch) {
			if (seen[k]++) {
				fprintf(stderr,
				        "%s: --%s given twice; give it once (ordo takes one value "
				        "per option)\n",
				        ordo_cli_prog, opts[k].name);
				return '?';
			}
			break;
		}
	return ch;
}

enum { HELP_WIDTH = 80 }; /* --help wraps its lines at word boundaries to this width */

/* Prints the words of text[0..len) from column `col`, wrapping at HELP_WIDTH to
 * column `indent`. */
static void print_words(const char *text, size_t len, int col, int indent)
{
	const char *p = text, *end = text + len;
	const int start = col;
	while (p < end) {
		const char *sp = memchr(p, ' ', (size_t)(end - p));
		int n = sp ? (int)(sp - p) : (int)(end - p);
		if (col > start && col + 1 + n > HELP_WIDTH) {
			printf("\n%*s", indent, "");
			col = indent;
		} else if (col > start) {
			putchar(' ');
			col++;
		}
		printf("%.*s", n, p);
		col += n;
		p += n;
		while (p < end && *p == ' ')
			p++;
	}
	printf("\n");
}

/* "  LEFT   help text", the help wrapped under its first line. */
static void print_wrapped(const char *left, const char *help)
{
	enum { INDENT = 25 };
	int col = printf("  %-*s", INDENT - 3, left);
	if (col >= INDENT) {
		printf("\n");
		col = 0;
	}
	printf("%*s", INDENT - col, "");
	print_words(help, strlen(help), INDENT, INDENT);
}

void ordo_cli_print_help(const char *usage, const struct ordo_cli_opt *const *tables, int ntables)
{
	for (const char *line = usage; *line;) { /* each line wrapped, continued indented */
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		if (len)
			print_words(line, len, 0, 2);
		else
			printf("\n");
		line += len + (nl != NULL);
	}
	for (int t = 0; t < ntables; t++) {
		printf("\n");
		for (const struct ordo_cli_opt *o = tables[t]; o->name; o++) {
			char left[64];
			if (o->key < 256)
				snprintf(left, sizeof left, "-%c, --%s%s%s", o->key, o->name,
				         o->arg ? " " : "", o->arg ? o->arg : "");
			else
				snprintf(left, sizeof left, "    --%s%s%s", o->name,
				         o->arg ? " " : "", o->arg ? o->arg : "");
			print_wrapped(left, o->help);
		}
	}
}

void ordo_cli_galois_aliases(int argc, char **argv, const char *const *aliases)
{
	for (int i = 1; i < argc; i++) {
		char *a = argv[i];
		if (a[0] != '-' || a[1] == '-' || a[1] == 0 || a[2] == 0)
			continue;
		for (const char *const *p = aliases; *p; p++) {
			const char *eq = strchr(*p, '=');
			size_t gl = (size_t)(eq - *p);
			if (strncmp(a + 1, *p, gl) || (a[1 + gl] && a[1 + gl] != '='))
				continue;
			const char *rest = a + 1 + gl;
			size_t need = 2 + strlen(eq + 1) + strlen(rest) + 1;
			char *na = malloc(need);
			if (!na)
				return;
			snprintf(na, need, "--%s%s", eq + 1, rest);
			argv[i] = na; /* lives until exit */
			break;
		}
	}
}

enum {
	L_FORMAT = 300,
	L_SYM,
	L_DEDUP,
	L_LOOPS,
	L_RW,
	L_COORDS,
	L_WCOORDS,
	L_COMPACT,
	L_IDMAP,
	L_MTXREAL,
	L_WSEED,
	L_BUDGET,
	L_NOCOORDS,
	L_COMPRESS,
	L_SPILL,
	L_REORDER,
	L_VERIFY_MAPPED,
};

const struct ordo_cli_opt ordo_cli_load_opts[] = {
    {"input-format", L_FORMAT, "FMT",
     "force the input format (`help` lists them; default: detect from the content)"},
    {"symmetrize", 's', NULL, "add the reverse of every arc (undirected graphs)"},
    {"dedup", L_DEDUP, NULL, "keep one arc per node pair, the lightest"},
    {"keep-self-loops", L_LOOPS, NULL, "keep u->u arcs (default: removed and counted)"},
    {"random-weights", L_RW, "LO:HI",
     "draw weights uniform in [LO,HI], e.g. 1:255 (without it, unweighted arcs weigh 1)"},
    {"weight-seed", L_WSEED, "S", "seed of --random-weights (default 1)"},
    {"coords", L_COORDS, "FILE",
     "node coordinates: DIMACS .co or one 'x y' line per node (default for a DIMACS .gr: "
     "its sibling .co if there is one)"},
    {"no-coords", L_NOCOORDS, NULL,
     "do not read the sibling .co of a DIMACS .gr (ordo-convert: nor write one beside a "
     "DIMACS output)"},
    {"weights-from-coords", L_WCOORDS, NULL,
     "weight = rounded Euclidean length between the endpoints' coordinates"},
    {"compact-ids", L_COMPACT, NULL, "edge lists: renumber the ids that occur as 0..n-1"},
    {"id-map", L_IDMAP, "FILE",
     "write 'new old' id pairs to FILE: of --compact-ids, or of a renumbered graph's order"},
    {"mtx-real", L_MTXREAL, "round|scale:F",
     "Matrix Market real values: round them, or multiply by F then round"},
    {"compress", L_COMPRESS, NULL,
     "hold the graph as a compressed CSR (sorted, byte-coded lists: 3-4 bytes per weighted "
     "arc instead of 8-9); a compressed .ordo file loads compressed without it"},
    {"spill-dir", L_SPILL, "DIR",
     "with --compress, from a text file: keep the arcs read in a temporary file in DIR "
     "(deleted at once) instead of memory, so peak memory is about the compressed graph"},
    {"reorder", L_REORDER, "ORDER",
     "renumber the nodes for locality once loaded: rcm, bfs, degree or hilbert (needs "
     "coordinates); ids given and printed stay the input's, and a native file written "
     "keeps them"},
    {"mem-budget", L_BUDGET, "BYTES",
     "refuse a file whose header declares a graph needing more, e.g. 4G (default: this "
     "machine's memory)"},
    {"verify-mapped", L_VERIFY_MAPPED, NULL,
     "a mappable .ordo file (ordo-convert --mappable): also verify its checksums, reading "
     "every page (its structure is always checked; other .ordo files verify theirs always)"},
    {NULL, 0, NULL, NULL},
};

/* --input-format: 1, or -1 after a message (`help` prints the table and exits). */
static int input_format(const char *arg, struct ordo_load_opts *lo)
{
	if (!strcmp(arg, "help")) {
		ordo_format_print_table(stdout, ORDO_FORMAT_GRAPH | ORDO_FORMAT_READ);
		exit(0);
	}
	int f = ordo_format_from_name(arg);
	if (f < 0 || (f && !(ordo_format_info(f)->flags & ORDO_FORMAT_GRAPH))) {
		char names[256];
		fprintf(
		    stderr, "%s: --input-format %s: expected auto or one of: %s\n", ordo_cli_prog,
		    arg,
		    ordo_format_names(ORDO_FORMAT_GRAPH | ORDO_FORMAT_READ, names, sizeof names));
		return -1;
	}
	lo->format = f;
	return 1;
}

/* --random-weights LO:HI: 1, or -1 after a message. */
static int random_weights(const char *arg, struct ordo_load_opts *lo)
{
	char *colon = strchr(arg, ':');
	int64_t a, b;
	char left[32];
	if (!colon || (size_t)(colon - arg) >= sizeof left)
		goto bad_rw;
	memcpy(left, arg, (size_t)(colon - arg));
	left[colon - arg] = 0;
	if (!ordo_parse_i64(left, &a, false) || !ordo_parse_i64(colon + 1, &b, false) || a < 1 ||
	    b < a || b > UINT32_MAX)
		goto bad_rw;
	lo->build.random_weights = true;
	lo->build.wlo = (uint32_t)a;
	lo->build.whi = (uint32_t)b;
	return 1;
bad_rw:
	fprintf(stderr, "%s: --random-weights %s: expected LO:HI with 1 <= LO <= HI < 2^32\n",
	        ordo_cli_prog, arg);
	return -1;
}

/* --mtx-real round|scale:F: 1, or -1 after a message. */
static int mtx_real(const char *arg, struct ordo_load_opts *lo)
{
	if (!strcmp(arg, "round")) {
		lo->mtx_real = ORDO_MTX_REAL_ROUND;
		return 1;
	}
	if (!strncmp(arg, "scale:", 6)) {
		char *end;
		double f = strtod(arg + 6, &end);
		if (!*end && end != arg + 6 && f > 0) {
			lo->mtx_real = ORDO_MTX_REAL_SCALE;
			lo->mtx_scale = f;
			return 1;
		}
	}
	fprintf(stderr, "%s: --mtx-real %s: expected round or scale:FACTOR (FACTOR > 0)\n",
	        ordo_cli_prog, arg);
	return -1;
}

int ordo_cli_load_option(int key, const char *arg, struct ordo_load_opts *lo)
{
	switch (key) {
	case L_FORMAT:
		return input_format(arg, lo);
	case 's':
		lo->build.symmetrize = true;
		return 1;
	case L_DEDUP:
		lo->build.dedup = true;
		return 1;
	case L_LOOPS:
		lo->build.keep_self_loops = true;
		return 1;
	case L_RW:
		return random_weights(arg, lo);
	case L_BUDGET: {
		int64_t v;
		if (!ordo_parse_i64(arg, &v, true) || v < 1) {
			fprintf(stderr,
			        "%s: --mem-budget %s: expected a positive byte count (k, M, G "
			        "suffixes)\n",
			        ordo_cli_prog, arg);
			return -1;
		}
		lo->mem_budget = (uint64_t)v;
		return 1;
	}
	case L_WSEED: {
		int64_t s;
		if (!ordo_parse_i64(arg, &s, false) || s < 0) {
			fprintf(stderr, "%s: --weight-seed %s: expected a non-negative integer\n",
			        ordo_cli_prog, arg);
			return -1;
		}
		lo->build.seed = (uint64_t)s;
		return 1;
	}
	case L_COORDS:
		lo->coords = arg;
		return 1;
	case L_WCOORDS:
		lo->weights_from_coords = true;
		return 1;
	case L_NOCOORDS:
		lo->no_sibling_coords = true;
		return 1;
	case L_COMPRESS:
		lo->build.compress = true;
		return 1;
	case L_SPILL:
		lo->spill_dir = arg;
		return 1;
	case L_VERIFY_MAPPED:
		lo->verify_mapped = true;
		return 1;
	case L_REORDER:
		lo->reorder = ordo_order_from_name(arg);
		if (lo->reorder < 0 || !strcmp(arg, "none")) {
			fprintf(stderr, "%s: --reorder %s: expected rcm, bfs, degree or hilbert\n",
			        ordo_cli_prog, arg);
			return -1;
		}
		return 1;
	case L_COMPACT:
		lo->compact_ids = true;
		return 1;
	case L_IDMAP:
		lo->id_map_out = arg;
		return 1;
	case L_MTXREAL:
		return mtx_real(arg, lo);
	}
	return 0;
}

void ordo_cli_progress(void *user, const char *path, uint64_t done, uint64_t total)
{
	double *start = user;
	if (!isatty(2) || ordo_now() - *start < 1.0)
		return;
	fprintf(stderr, "\rloading %s: %3.0f%% (%llu MB)  ", path,
	        total ? 100.0 * (double)done / (double)total : 0.0,
	        (unsigned long long)(done >> 20));
	fflush(stderr);
}

void ordo_cli_dir_of(const char *path, char *dir, size_t cap)
{
	snprintf(dir, cap, "%s", path);
	char *slash = strrchr(dir, '/');
	if (slash)
		*(slash == dir ? slash + 1 : slash) = 0;
	else
		snprintf(dir, cap, ".");
}

int ordo_cli_check_output_path(const char *opt, const char *path)
{
	struct stat sb;
	if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
		fprintf(stderr, "%s: %s %s: %s, not a file; give a file name\n", ordo_cli_prog, opt,
		        path, S_ISDIR(sb.st_mode) ? "a directory" : "not a regular file");
		return 2;
	}
	char dir[4096];
	ordo_cli_dir_of(path, dir, sizeof dir);
	if (stat(dir, &sb) || !S_ISDIR(sb.st_mode)) {
		fprintf(stderr,
		        "%s: %s %s: the folder %s does not exist (ordo creates no folders)\n",
		        ordo_cli_prog, opt, path, dir);
		return 2;
	}
	if (access(dir, W_OK)) {
		fprintf(stderr, "%s: %s %s: cannot write in %s: %s\n", ordo_cli_prog, opt, path,
		        dir, strerror(errno));
		return 3;
	}
	return 0;
}

int ordo_cli_fail(const char *prog, const struct ordo_err *err)
{
	fprintf(stderr, "%s: %s\n", prog, err->msg);
	return ordo_exit_status(err->code);
}

int ordo_cli_parse_int(const char *opt, const char *arg, int64_t lo, int64_t hi, int64_t *out,
                       struct ordo_err *err)
{
	if (!arg || !ordo_parse_i64(arg, out, true) || *out < lo || *out > hi)
		return ordo_err_set(err, ORDO_EINVAL, "%s %s: expected an integer in %lld..%lld",
		                    opt, arg ? arg : "", (long long)lo, (long long)hi);
	return 0;
}

int ordo_cli_parse_double(const char *opt, const char *arg, bool zero_ok, double *out,
                          struct ordo_err *err)
{
	char *end = NULL;
	const double x = arg ? strtod(arg, &end) : 0;
	if (!arg || end == arg || *end || !(zero_ok ? x >= 0 : x > 0) || x > 1e9)
		return ordo_err_set(err, ORDO_EINVAL, "%s %s: expected a number %s 0", opt,
		                    arg ? arg : "", zero_ok ? ">=" : ">");
	*out = x;
	return 0;
}

int ordo_cli_parse_choice(const char *opt, const char *arg, const char *const *names, int *out,
                          struct ordo_err *err)
{
	int k = 0;
	for (; names[k]; k++)
		if (arg && !strcmp(arg, names[k])) {
			*out = k;
			return 0;
		}
	char list[256] = "";
	size_t at = 0;
	for (int i = 0; i < k && at < sizeof list; i++)
		at += (size_t)snprintf(list + at, sizeof list - at, "%s%s",
		                       i == 0       ? ""
		                       : i == k - 1 ? " or "
		                                    : ", ",
		                       names[i]);
	return ordo_err_set(err, ORDO_EINVAL, "%s %s: expected %s", opt, arg ? arg : "", list);
}

bool ordo_cli_int(const char *prog, const char *opt, const char *arg, int64_t lo, int64_t hi,
                  int64_t *out)
{
	struct ordo_err err = {0};
	if (!ordo_cli_parse_int(opt, arg, lo, hi, out, &err))
		return true;
	fprintf(stderr, "%s: %s\n", prog, err.msg);
	return false;
}

/* The one-line report of a load or a generation, on stderr. */
static void load_report(const char *what, const char *input, const struct ordo_graph *g,
                        const struct ordo_load_info *info)
{
	fprintf(stderr, "%s %s", what, input);
	if (info->format != ORDO_FMT_AUTO)
		fprintf(stderr, " (%s%s)", ordo_format_name(info->format),
		        info->compressed ? ", zstd" : "");
	fprintf(stderr, ": %u nodes, %llu arcs%s in %.3f s", g->n, (unsigned long long)g->m,
	        ordo_graph_weighted(g) ? ", weighted" : ", unweighted", info->seconds);
	if (ordo_graph_compressed(g))
		fprintf(stderr, "; compressed CSR, %.2f bytes per arc",
		        g->m ? (double)ordo_graph_csr_bytes(g) / (double)g->m : 0.0);
	if (g->map)
		fprintf(stderr, "; mapped (%.1f MiB shared through the page cache)",
		        (double)g->map_bytes / (1 << 20));
	if (info->text_bytes)
		fprintf(stderr, " (parse %.3f s = %.0f MB/s, build %.3f s)", info->parse_seconds,
		        (double)info->text_bytes / 1e6 / info->parse_seconds, info->build_seconds);
	if (info->build.self_loops_removed)
		fprintf(stderr, "; %llu self-loops removed",
		        (unsigned long long)info->build.self_loops_removed);
	if (info->build.duplicates_removed)
		fprintf(stderr, "; %llu duplicate arcs removed",
		        (unsigned long long)info->build.duplicates_removed);
	if (info->notes[0])
		fprintf(stderr, "; %s", info->notes);
	fprintf(stderr, "\n");
}

/* A mapped graph (the native format's mappable layout) shares its file: when another
 * process truncates it while this one runs, a read of a page past the new end is
 * SIGBUS. The binaries then say what happened instead of dying with a bare "Bus
 * error": the message is made when the mapping is made (the handler may only write
 * and exit), and the exit status is 3, as for an I/O failure. */
static char bus_msg[600];
static size_t bus_len;

static void on_bus(int sig)
{
	(void)sig;
	ssize_t r = write(2, bus_msg, bus_len);
	(void)r;
	_exit(3);
}

static void watch_mapping(const char *path)
{
	int n = snprintf(bus_msg, sizeof bus_msg,
	                 "%s: bus error reading %s, which this run maps: the file was truncated "
	                 "or rewritten by another process while the run used it (a mapped "
	                 "graph shares the file; load it without mapping, or keep it whole)\n",
	                 ordo_cli_prog, path);
	bus_len = n < 0 ? 0 : (size_t)n < sizeof bus_msg ? (size_t)n : sizeof bus_msg - 1;
	struct sigaction sa = {.sa_handler = on_bus};
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}

int ordo_cli_load_graph(const char *path, const char *gen, struct ordo_load_opts *lo, bool quiet,
                        struct ordo_graph **g, char *input_name, size_t cap, double *load_seconds,
                        int *format)
{
	if (format)
		*format = ORDO_FMT_AUTO;
	struct ordo_err err = {0};
	struct ordo_load_info info;
	double t0 = ordo_now();
	int rc;
	if (path) {
		lo->progress = ordo_cli_progress;
		lo->progress_user = &t0;
		rc = ordo_load(path, lo, g, &info, &err);
		if (isatty(2) && ordo_now() - t0 >= 1.0)
			fprintf(stderr, "\r%*s\r", 60, "");
		snprintf(input_name, cap, "%s", path);
	} else {
		char resolved[256];
		rc = ordo_load_gen(gen, lo, g, resolved, sizeof resolved, &info, &err);
		snprintf(input_name, cap, "gen:%s", resolved);
	}
	if (rc)
		return ordo_cli_fail(ordo_cli_prog, &err);
	if ((*g)->map)
		watch_mapping(path);
	*load_seconds = info.seconds;
	if (format)
		*format = info.format;
	if (!quiet)
		load_report(path ? "loaded" : "generated", input_name, *g, &info);
	return 0;
}
