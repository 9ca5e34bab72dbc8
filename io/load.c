/*
 * load.c - format detection and the ordo_load / ordo_save entry points.
 *
 * Detection looks at the content first: the zstd magic (then at the decompressed
 * text), then each format's own content test in table order (ordo_formats.h: ordo's
 * magic, the Galois header, a GAPBS header whose sizes match the file, the Matrix
 * Market banner, Ligra's first word), then the shape of the first lines of text:
 * DIMACS `c`/`p sp`/`a` lines, `p aux sp co`/`v` lines, and for bare number lines the
 * field counts (an edge list has the same count on every line; a METIS header is
 * followed by adjacency lines of varying length). Only where the content cannot tell
 * (a METIS file whose lines all look alike; a file whose content test failed but whose
 * extension names its format) does the extension decide.
 *
 * A load is five steps (read_input, raw_ids, build, coords, finish): the file's
 * content, then the CSR with every build option, then what is added to it.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <omp.h>

#include "io_internal.h"
#include "ordo_util.h"

void ordo_load_opts_init(struct ordo_load_opts *o)
{
	memset(o, 0, sizeof *o);
	o->build.wlo = 1;
	o->build.whi = 255;
	o->build.seed = 1;
	o->mtx_scale = 1.0;
}

void ordo_save_opts_init(struct ordo_save_opts *o)
{
	memset(o, 0, sizeof *o);
	o->zstd_level = 3;
}

static int fields_of(const char *p, const char *e, bool *numeric, bool *real)
{
	int f = 0;
	p = io_skip_ws(p, e);
	while (p < e) {
		const char *s = p;
		while (p < e && *p != ' ' && *p != '\t' && *p != '\r')
			p++;
		for (const char *c = s; c < p; c++) {
			if (*c == '.' || *c == 'e' || *c == 'E')
				*real = true;
			else if ((*c < '0' || *c > '9') && *c != '-' && *c != '+')
				*numeric = false;
		}
		f++;
		p = io_skip_ws(p, e);
	}
	return f;
}

/* ext: the format the file name suggests (-1: none); *guessed: an edge list only
 * because nothing else fits (the name does not say so, and the first line that is not
 * a comment is not numbers) */
static int detect_text(const char *buf, uint64_t len, bool full, int ext, int *fmt, bool *guessed)
{
	const char *p = buf, *end = buf + len;
	bool hash = false, percent = false, dimacs_c = false;
	int first_fields = -1, lines = 0, varying = 0;
	const bool ext_metis = ext == ORDO_FMT_METIS, ext_el = ext == ORDO_FMT_EDGELIST;
	while (p < end) {
		const char *e = io_eol(p, end);
		if (e == end && !full)
			break; /* incomplete last line of the sample */
		const char *q = io_skip_ws(p, e);
		p = e + 1;
		if (q == e)
			continue;
		if (lines == 0 && (*q == 'c' || *q == 'p' || *q == 'a' || *q == 'v') &&
		    (q + 1 == e || q[1] == ' ' || q[1] == '\t' || q[1] == '\r')) {
			if (*q == 'c') {
				dimacs_c = true;
				continue;
			}
			if (*q == 'v') {
				*fmt = ORDO_FMT_CO;
				return 0;
			}
			if (*q == 'p') {
				const char *r = io_skip_ws(q + 1, e);
				*fmt = (e - r >= 3 && !strncmp(r, "aux", 3)) ? ORDO_FMT_CO
				                                             : ORDO_FMT_DIMACS;
				return 0;
			}
			*fmt = ORDO_FMT_DIMACS;
			return 0;
		}
		if (*q == '#') {
			hash = true;
			continue;
		}
		if (*q == '%') {
			percent = true;
			continue;
		}
		bool numeric = true, real = false;
		int f = fields_of(q, e, &numeric, &real);
		if (!numeric) {
			*guessed = lines == 0 && !ext_el && !ext_metis && ext != ORDO_FMT_XYZ;
			break;
		}
		if (lines == 0)
			first_fields = f;
		else if (f != first_fields)
			varying++;
		if (++lines >= 64)
			break;
	}
	if (lines == 0 && dimacs_c) {
		*fmt = ORDO_FMT_DIMACS; /* only 'c' lines: DIMACS without its p line */
		return 0;
	}
	if (lines == 0) {
		/* only comments (or nothing): an empty edge list unless % says METIS */
		*fmt = ext_metis || (percent && !hash) ? ORDO_FMT_METIS : ORDO_FMT_EDGELIST;
		return 0;
	}
	if (ext_metis || (!hash && !ext_el && varying && first_fields >= 2 && first_fields <= 4)) {
		*fmt = ORDO_FMT_METIS;
		return 0;
	}
	if (ext == ORDO_FMT_XYZ) {
		*fmt = ORDO_FMT_XYZ;
		return 0;
	}
	*fmt = ORDO_FMT_EDGELIST;
	return 0;
}

/* The format of the input `in` is read from, from its first bytes (io_in_peek) and
 * its name; *compressed: zstd. */
static int detect_in(struct io_in *in, const char *path, int *fmt, bool *compressed, bool *guessed,
                     struct ordo_err *err)
{
	*guessed = false;
	*compressed = io_in_compressed(in);
	const unsigned char *peek;
	uint64_t len;
	int rc = io_in_peek(in, &peek, &len, err);
	if (rc)
		return rc;
	const char *buf = (const char *)peek;
	const uint64_t io_file_bytes = io_in_file_bytes(in);
	int sniffed = -1;
	const int ext_fmt = ordo_format_of_extension(path);
	for (int f = 1; f < ORDO_FMT_COUNT && sniffed < 0; f++)
		if (io_format(f)->sniff &&
		    io_format(f)->sniff(peek, len, io_file_bytes, *compressed))
			sniffed = f;
	if (sniffed >= 0) {
		if (*compressed && (io_format(sniffed)->info.flags & ORDO_FORMAT_BINARY))
			rc = ordo_err_set(err, ORDO_EUNSUPPORTED,
			                  "%s: a zstd-compressed %s file; decompress it first%s",
			                  path, ordo_format_name(sniffed),
			                  sniffed == ORDO_FMT_NATIVE
			                      ? " (its sections are compressed already)"
			                      : "");
		*fmt = sniffed;
	} else if (len == 0) {
		rc = ordo_err_set(err, ORDO_EFORMAT,
		                  "%s: empty file: expected a graph (no format can be detected)",
		                  path);
	} else if (ext_fmt > 0 && io_format(ext_fmt)->sniff) {
		/* its content test failed, but the name says what it should be: that
		 * format's reader says what is wrong with it */
		*fmt = ext_fmt;
	} else if (memchr(buf, 0, len)) {
		rc = ordo_err_set(err, ORDO_EFORMAT,
		                  "%s: byte %llu: binary data that is neither an ordo native file "
		                  "(magic ORDOGRPH), a Galois .gr (version 1 header) nor a GAPBS "
		                  ".sg/.wsg (its size must match its header)",
		                  path,
		                  (unsigned long long)((const char *)memchr(buf, 0, len) - buf));
	} else {
		rc = detect_text(buf, len, len < IO_PEEK, ext_fmt, fmt, guessed);
	}
	return rc;
}

int ordo_detect_format(const char *path, int *fmt, bool *compressed, struct ordo_err *err)
{
	struct io_in *in;
	int rc = io_in_open(path, &in, err);
	bool guessed;
	if (!rc)
		rc = detect_in(in, path, fmt, compressed, &guessed, err);
	io_in_close(in);
	return rc;
}

int ordo_load_coords(const char *path, struct ordo_graph *g, int threads, struct ordo_err *err)
{
	int fmt = 0;
	bool z, guessed;
	struct io_in *in;
	int rc = io_in_open(path, &in, err);
	if (!rc && (rc = detect_in(in, path, &fmt, &z, &guessed, err)))
		io_in_close(in);
	if (rc)
		return rc;
	const struct io_format *f = io_format(fmt);
	if (f && f->read_coords)
		rc = f->read_coords(in, path, g, threads, err);
	else
		rc = ordo_err_set(err, ORDO_EINVAL,
		                  "%s: a %s file, not coordinates (expected DIMACS .co or .xyz)",
		                  path, ordo_format_name(fmt));
	io_in_close(in);
	if (!rc && g->orig_id) { /* the file lists the input's nodes: put them in g's order */
		const size_t sz = 2 * (g->coord_kind == ORDO_COORD_INT32 ? 4 : 8);
		char *c = ordo_alloc_huge(((size_t)g->n + 1) * sz);
		if (!c)
			return ordo_err_set(err, ORDO_ENOMEM, "out of memory for coordinates");
		for (uint32_t u = 0; u < g->n; u++)
			memcpy(c + (size_t)u * sz, (char *)g->coord + (size_t)g->orig_id[u] * sz,
			       sz);
		ordo_graph_free_array(g, g->coord);
		g->coord = c;
	}
	return rc;
}

bool ordo_sibling_co(const char *gr_path, char *buf, size_t cap)
{
	size_t len = strlen(gr_path);
	if (len + 8 > cap)
		return false;
	memcpy(buf, gr_path, len + 1);
	bool z = len > 4 && !strcmp(buf + len - 4, ".zst");
	if (z)
		buf[len - 4] = 0;
	char *dot = strrchr(buf, '.');
	char *sl = strrchr(buf, '/');
	if (dot && (!sl || dot > sl))
		*dot = 0;
	strcat(buf, z ? ".co.zst" : ".co");
	return true;
}

static void note(struct ordo_load_info *info, const char *fmt, const char *s)
{
	size_t used = strlen(info->notes);
	snprintf(info->notes + used, sizeof info->notes - used, "%s", used ? "; " : "");
	used = strlen(info->notes);
	snprintf(info->notes + used, sizeof info->notes - used, fmt, s);
}

/* Step 1 of a load: the input's content, as arcs (text formats) or a graph read
 * whole, from `in`, the one open of the input (its first bytes were the sniff's). */
static int read_input(struct io_in *in, const char *path, const struct io_format *f,
                      const struct ordo_load_opts *opts, struct ordo_graph **g,
                      struct io_arcs *arcs, struct ordo_load_info *info, struct ordo_err *err)
{
	if (f->read_graph)
		return f->read_graph(in, path, opts, g, info, err);
	info->file_bytes = io_in_file_bytes(in);
	return f->read_arcs(in, path, opts, arcs, info, err);
}

/* Step 1b, for a graph read whole from another tool's format (GAPBS, Galois, Ligra):
 * the rules the builder applies to arcs read as text. Self-loops are dropped (counted)
 * unless kept; a file's claim of symmetry (GAPBS's undirected flag) is checked, and a
 * graph whose arcs do not match their reverses is read as directed, with a note (an
 * app that needs a symmetric graph then symmetrises it and says so). ordo's own native
 * format is written with these rules applied, its symmetry flag by ordo itself. */
static int whole_graph_rules(const char *path, const struct io_format *f,
                             const struct ordo_load_opts *opts, struct ordo_graph *g,
                             struct ordo_load_info *info, struct ordo_err *err)
{
	(void)path, (void)err;
	if (f == &io_format_native || g->cz || g->map)
		return 0;
	if (!opts->build.keep_self_loops)
		info->build.self_loops_removed += ordo_graph_drop_self_loops(g);
	if ((g->flags & ORDO_GRAPH_SYMMETRIC) && !ordo_graph_arcs_symmetric(g)) {
		g->flags &= ~(uint32_t)ORDO_GRAPH_SYMMETRIC;
		note(info, "%s",
		     "the file says undirected, but some arc lacks its reverse of the same "
		     "weight: read as directed");
	}
	return 0;
}

/* Step 2, for formats whose ids are kept as they are (n = largest id + 1): refuse a
 * handful of arcs with a huge id (a mistyped id or a sparse numbering: gigabytes of
 * offsets for isolated nodes is not what anyone wants silently), or compact them. */
static int raw_ids(const char *path, const struct ordo_load_opts *opts, struct io_arcs *arcs,
                   struct ordo_load_info *info, struct ordo_err *err)
{
	const struct ordo_edge_chain *c = &arcs->chain;
	if (opts->compact_ids) {
		/* with a renumbering the map is the final order's, written after it */
		int rc = io_compact_ids(&arcs->chain, &arcs->n, &arcs->ids,
		                        opts->reorder ? NULL : opts->id_map_out, path, err);
		if (!rc)
			note(info, "%s", "ids compacted");
		return rc;
	}
	if (c->count && (uint64_t)c->max_id + 1 > (1u << 24) &&
	    (uint64_t)c->max_id + 1 > 16 * c->count)
		return ordo_err_set(err, ORDO_ERANGE,
		                    "%s: the largest node id is %u but there are only %llu arcs: "
		                    "keeping ids would make %llu mostly isolated nodes; renumber "
		                    "them with --compact-ids",
		                    path, c->max_id, (unsigned long long)c->count,
		                    (unsigned long long)c->max_id + 1);
	return 0;
}

/* What a load option asks of ordo_graph_prepare; `built`: the arcs went through the
 * builder with the build options already, so only what follows a build is left. */
static struct ordo_prep prep_of(const struct ordo_load_opts *opts, bool built)
{
	struct ordo_prep p = {.build = opts->build,
	                      .weights_from_coords = opts->weights_from_coords,
	                      .reorder = opts->reorder};
	p.build.threads = opts->threads;
	if (built)
		p.build.symmetrize = p.build.dedup = p.build.random_weights = false;
	return p;
}

/* Step 3, for arcs read: the CSR with every build option, compressed straight away
 * unless weights from coordinates or a renumbering come first. */
static int build(const char *path, const struct io_format *f, const struct ordo_load_opts *opts,
                 struct io_arcs *arcs, struct ordo_graph **out, struct ordo_load_info *info,
                 struct ordo_err *err)
{
	double tb = ordo_now();
	const struct ordo_prep p = prep_of(opts, false);
	struct ordo_build_opts bo = p.build;
	bo.compress = ordo_prep_builds_compressed(&p);
	if (arcs->symmetric) {
		bo.symmetrize = true; /* one arc per edge in the file: its reverse is added */
		note(info, "%s", "symmetric (declared by the file)");
	}
	bo.n = arcs->n; /* edge lists: n from ordo's own header, else (0) the largest id + 1 */
	const bool mark = arcs->both_ways && !arcs->symmetric && !bo.symmetrize;
	if (mark)
		bo.compress = false; /* checked on the plain arcs; the preparation compresses */
	int rc = ordo_graph_build(&arcs->chain, &bo, out, &info->build, err);
	if (rc) {
		free(arcs->ids);
		arcs->ids = NULL;
	}
	if (!rc && arcs->ids) { /* compacted: each node keeps its input id */
		rc = ordo_graph_set_ids(*out, arcs->ids, err);
		arcs->ids = NULL;
		if (rc) {
			ordo_graph_free(*out);
			*out = NULL;
		}
	}
	if (!rc && mark) {
		if (ordo_graph_arcs_symmetric(*out)) {
			(*out)->flags |= ORDO_GRAPH_SYMMETRIC;
			note(info, "%s", "symmetric (as ordo wrote it; checked)");
		} else {
			note(
			    info, "%s",
			    "the header says symmetric, but some arc lacks its reverse of the same "
			    "weight: read as directed");
		}
	}
	if (rc) {
		ordo_err_prefix(err, "%s: ", path);
		if (rc == ORDO_ERANGE && (f->info.flags & ORDO_FORMAT_RAW_IDS) && arcs->n &&
		    !opts->compact_ids) {
			size_t len = strlen(err->msg);
			snprintf(err->msg + len, sizeof err->msg - len,
			         " (n from the file's header line '# written by ordo: %llu nodes')",
			         (unsigned long long)arcs->n);
		}
		return rc;
	}
	info->build_seconds = ordo_now() - tb;
	return 0;
}

/* Step 4: coordinates, from opts->coords or a DIMACS graph's sibling .co. */
static int coords(const char *path, int fmt, const struct ordo_load_opts *opts,
                  struct ordo_graph *g, struct ordo_load_info *info, struct ordo_err *err)
{
	const char *file = opts->coords;
	char sibling[4096];
	if (!file && fmt == ORDO_FMT_DIMACS && !opts->no_sibling_coords &&
	    ordo_sibling_co(path, sibling, sizeof sibling) && access(sibling, R_OK) == 0) {
		file = sibling; /* written beside it by ordo-convert, or the 9th Challenge's */
		note(info, "coordinates from %s", sibling);
	}
	if (!file)
		return 0;
	if (g->ids_sparse)
		return ordo_err_set(err, ORDO_EINVAL,
		                    "%s: coordinates (%s) number the nodes 1..n, but this graph "
		                    "keeps the edge list's sparse ids (--compact-ids)",
		                    path, file);
	int rc = ordo_load_coords(file, g, opts->threads, err);
	if (rc && file == sibling) {
		size_t len = strlen(err->msg);
		snprintf(err->msg + len, sizeof err->msg - len,
		         " (the sibling coordinate file of %s; --no-coords skips it)", path);
	}
	return rc;
}

/* The checks a file and a generated graph share: options that would be ignored or that
 * contradict each other are refused, naming them. */
static int check_opts(const struct ordo_load_opts *opts, struct ordo_err *err)
{
	if (opts->spill_dir && !opts->build.compress)
		return ordo_err_set(err, ORDO_EINVAL,
		                    "a spill directory (--spill-dir %s) is for a compressed build: "
		                    "add --compress",
		                    opts->spill_dir);
	if (opts->spill_dir && opts->reorder)
		return ordo_err_set(err, ORDO_EINVAL,
		                    "renumbering (--reorder) builds the plain graph first, so a "
		                    "spill directory (--spill-dir) would not lower the peak; "
		                    "drop one of them");
	if (opts->reorder < ORDO_ORDER_NONE || opts->reorder > ORDO_ORDER_HILBERT)
		return ordo_err_set(err, ORDO_EINVAL, "unknown node order %d", opts->reorder);
	if (opts->build.random_weights && opts->weights_from_coords)
		return ordo_err_set(err, ORDO_EINVAL,
		                    "--random-weights and --weights-from-coords both set the "
		                    "weights; choose one");
	return 0;
}

/* A load's body: a file's (load) or a generator's (gen); what names the input. */
typedef int load_body(const char *what, const struct ordo_load_opts *opts, struct ordo_graph **out,
                      struct ordo_load_info *info, char *resolved, size_t cap,
                      struct ordo_err *err);

/* Runs body with the spill file opts asks for, open around it, and the memory budget;
 * the spill's figure goes to the notes. */
static int with_spill(load_body *body, const char *what, const struct ordo_load_opts *opts,
                      struct ordo_graph **out, struct ordo_load_info *info, char *resolved,
                      size_t cap, struct ordo_err *err)
{
	struct ordo_load_opts with = *opts;
	struct ordo_spill *sp = NULL;
	if (opts->spill_dir) {
		int rc = ordo_spill_open(opts->spill_dir, &sp, err);
		if (rc)
			return rc;
		with.build.spill = sp;
	}
	uint64_t old = io_set_budget(opts->mem_budget);
	memset(info, 0, sizeof *info);
	int rc = body(what, &with, out, info, resolved, cap, err);
	io_set_budget(old);
	if (sp) {
		if (rc) {
			ordo_spill_describe(sp, err); /* a failed write is the cause, not memory */
		} else if (ordo_spill_bytes(sp)) {
			char text[300];
			snprintf(text, sizeof text, "%.1f MiB of packed arcs spilled to %s",
			         ordo_spill_bytes(sp) / 1048576.0, opts->spill_dir);
			note(info, "%s", text);
		}
		ordo_spill_close(sp);
	}
	return rc;
}

static load_body load, gen;

int ordo_load(const char *path, const struct ordo_load_opts *opts, struct ordo_graph **out,
              struct ordo_load_info *info_out, struct ordo_err *err)
{
	struct ordo_load_opts dflt;
	if (!opts) {
		ordo_load_opts_init(&dflt);
		opts = &dflt;
	}
	*out = NULL;
	struct ordo_load_info info;
	int rc = check_opts(opts, err);
	if (!rc)
		rc = with_spill(load, path, opts, out, &info, NULL, 0, err);
	if (!rc && info_out)
		*info_out = info;
	return rc;
}

int ordo_load_gen(const char *spec, const struct ordo_load_opts *opts, struct ordo_graph **out,
                  char *resolved, size_t cap, struct ordo_load_info *info_out, struct ordo_err *err)
{
	struct ordo_load_opts dflt;
	if (!opts) {
		ordo_load_opts_init(&dflt);
		opts = &dflt;
	}
	*out = NULL;
	const char *file_only = opts->coords                    ? "--coords"
	                        : opts->compact_ids             ? "--compact-ids"
	                        : opts->mtx_real                ? "--mtx-real"
	                        : opts->id_map_out              ? "--id-map"
	                        : opts->format != ORDO_FMT_AUTO ? "--input-format"
	                                                        : NULL;
	if (file_only)
		return ordo_err_set(err, ORDO_EINVAL,
		                    "%s applies to input files, not to a generated graph (gen:%s); "
		                    "write it with ordo-gen and load the file",
		                    file_only, spec);
	struct ordo_load_info info;
	int rc = check_opts(opts, err);
	if (!rc)
		rc = with_spill(gen, spec, opts, out, &info, resolved, cap, err);
	if (!rc && info_out)
		*info_out = info;
	return rc;
}

/* The last step of both: ordo_graph_prepare, its figures and notes into info. */
static int prepare(const char *what, const struct ordo_prep *p, struct ordo_graph **g,
                   struct ordo_load_info *info, struct ordo_err *err)
{
	struct ordo_prep_info pi;
	int rc = ordo_graph_prepare(g, p, true, &pi, err);
	if (rc) {
		ordo_err_prefix(err, "%s: ", what);
		return rc;
	}
	if (pi.rebuilt) {
		info->build = pi.build;
		info->build_seconds += pi.rebuild_seconds;
	}
	if (pi.notes[0])
		note(info, "%s", pi.notes);
	return 0;
}

static int gen(const char *spec, const struct ordo_load_opts *opts, struct ordo_graph **out,
               struct ordo_load_info *info, char *resolved, size_t cap, struct ordo_err *err)
{
	const double t0 = ordo_now();
	const struct ordo_prep p = prep_of(opts, false);
	/* straight into the compressed form when nothing else is asked (see ordo_gen.h) */
	const bool direct = ordo_prep_builds_compressed(&p) && !p.build.symmetrize &&
	                    !p.build.dedup && !p.build.random_weights;
	info->format = ORDO_FMT_AUTO;
	/* the budget covers generating: its size is stated before anything is made */
	uint64_t nodes, arcs, bytes;
	int rc = ordo_generate_size(spec, &nodes, &arcs, &bytes, err);
	if (!rc) {
		char what[160];
		snprintf(what, sizeof what, "a graph of %llu nodes and about %llu arcs",
		         (unsigned long long)nodes, (unsigned long long)arcs);
		rc = io_check_memory(spec, what, bytes, err);
	}
	if (!rc)
		rc = ordo_generate_as(spec, opts->threads, direct,
		                      direct ? opts->build.spill : NULL, out, resolved, cap, err);
	if (!rc)
		rc = prepare(spec, &p, out, info, err);
	info->seconds = ordo_now() - t0;
	return rc;
}

static int load_from(struct io_in *in, const char *path, const struct ordo_load_opts *opts,
                     struct ordo_graph **out, struct ordo_load_info *info, double t0,
                     struct ordo_err *err);

/* A file's load: the steps above, in order. */
static int load(const char *path, const struct ordo_load_opts *opts, struct ordo_graph **out,
                struct ordo_load_info *info, char *resolved, size_t cap, struct ordo_err *err)
{
	(void)resolved, (void)cap;
	double t0 = ordo_now();
	/* one open, one read: the format is sniffed from the stream that is then read, so
	 * a pipe (a FIFO, '-' for standard input) works like a file */
	struct io_in *in;
	int rc = io_in_open(path, &in, err);
	if (rc)
		return rc;
	if (!strcmp(path, "-"))
		path = "standard input";
	rc = load_from(in, path, opts, out, info, t0, err);
	io_in_close(in);
	return rc;
}

/* load's steps once the input is open. */
static int load_from(struct io_in *in, const char *path, const struct ordo_load_opts *opts,
                     struct ordo_graph **out, struct ordo_load_info *info, double t0,
                     struct ordo_err *err)
{
	int fmt = opts->format;
	bool z = io_in_compressed(in), guessed = false;
	/* a format given (--input-format) is not second-guessed by the sniff */
	int rc = fmt == ORDO_FMT_AUTO ? detect_in(in, path, &fmt, &z, &guessed, err) : 0;
	if (rc)
		return rc;
	info->format = fmt;
	info->compressed = z;
	const struct io_format *f = io_format(fmt);
	if (!f)
		return ordo_err_set(err, ORDO_EINVAL, "%s: unknown format %d", path, fmt);
	if (f->read_coords)
		return ordo_err_set(err, ORDO_EINVAL,
		                    "%s: a coordinate file (%s), not a graph; pass it as the "
		                    "coordinates of a graph (--coords)",
		                    path, ordo_format_name(fmt));
	/* options for one format given for a file of another would be ignored: refused */
	if (opts->compact_ids && !(f->info.flags & ORDO_FORMAT_RAW_IDS))
		return ordo_err_set(err, ORDO_EINVAL,
		                    "%s: --compact-ids renumbers edge-list ids, but this is a %s "
		                    "file (its ids are dense already)",
		                    path, ordo_format_name(fmt));
	if (opts->mtx_real && fmt != ORDO_FMT_MTX)
		return ordo_err_set(
		    err, ORDO_EINVAL,
		    "%s: --mtx-real applies to Matrix Market files, but this is a %s "
		    "file",
		    path, ordo_format_name(fmt));
	struct ordo_graph *g = NULL;
	struct io_arcs arcs = {.n = 0};
	ordo_chain_init(&arcs.chain, false);
	rc = read_input(in, path, f, opts, &g, &arcs, info, err);
	if (!rc && !g && (f->info.flags & ORDO_FORMAT_RAW_IDS))
		rc = raw_ids(path, opts, &arcs, info, err);
	if (rc == ORDO_EFORMAT && guessed) { /* say what it was taken for, and why */
		const size_t k = strlen(err->msg);
		snprintf(err->msg + k, sizeof err->msg - k,
		         " (read as an edge list: neither its name nor its first lines name a "
		         "graph format; --input-format says which it is)");
	}
	if (rc) {
		ordo_chain_free(&arcs.chain);
		free(arcs.ids);
		return rc;
	}
	if (g && (rc = whole_graph_rules(path, f, opts, g, info, err))) {
		ordo_graph_free(g);
		return rc;
	}
	info->parse_seconds = ordo_now() - t0;
	/* arcs read go through the builder with the build options (compressed straight
	 * away when nothing follows); a graph read whole is rebuilt by the preparation */
	const bool built = !g;
	if (built && (rc = build(path, f, opts, &arcs, &g, info, err)))
		return rc;
	if ((rc = coords(path, fmt, opts, g, info, err))) {
		ordo_graph_free(g);
		return rc;
	}
	if (built && opts->build.random_weights)
		note(info, "%s", ordo_random_weights_note(&info->build));
	const struct ordo_prep p = prep_of(opts, built);
	if ((rc = prepare(path, &p, &g, info, err)))
		return rc;
	if (opts->id_map_out && (!opts->compact_ids || opts->reorder) &&
	    (rc = io_write_order_map(g, path, opts->id_map_out, err))) {
		ordo_graph_free(g);
		return rc;
	}
	info->seconds = ordo_now() - t0;
	*out = g;
	return 0;
}

int ordo_save(const char *path, int format, const struct ordo_graph *g,
              const struct ordo_save_opts *opts, struct ordo_err *err)
{
	struct ordo_save_opts dflt;
	if (!opts) {
		ordo_save_opts_init(&dflt);
		opts = &dflt;
	}
	if (format == ORDO_FMT_AUTO)
		format = ordo_format_for_output(path);
	const struct io_format *f = io_format(format);
	if (!f || !f->write)
		return ordo_err_set(err, ORDO_EINVAL, "%s: ordo cannot write the %s format (%d)",
		                    path, ordo_format_name(format), format);
	if (g->cz && !f->writes_compressed) {
		/* other formats list arcs: write them from a plain copy */
		struct ordo_graph *plain;
		int rc = ordo_graph_decompress(g, opts->threads, &plain, err);
		if (rc)
			return rc;
		rc = f->write(path, format, plain, opts, err);
		ordo_graph_free(plain);
		return rc;
	}
	return f->write(path, format, g, opts, err);
}
