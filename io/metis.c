/*
 * metis.c - METIS / DIMACS 10 `.graph` files and their `.xyz` coordinates.
 *   `%` comment lines; header `n m [fmt [ncon]]`; then exactly one line per node
 *   (node i = i-th non-comment line after the header, 1-based neighbours). fmt is up to
 *   three digits: last = edge weights, middle = vertex weights (ncon of them, default
 *   1), first = vertex sizes. Every undirected edge appears in both endpoints' lines,
 *   so the adjacency entries must total 2m. An empty line is a node with no
 *   neighbours (METIS semantics), so blank lines are only skipped after the n-th node.
 *   .xyz: line i = `x y [z]` of node i (real numbers; x and y are kept).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io_internal.h"

struct metis_st {
	bool have_header, ew;
	uint64_t n, m, vw, vsize, header_line;
	struct io_text_fmt *fmt;
};

static int metis_header(void *vst, const char *p, const char *e, uint64_t line, char *msg)
{
	struct metis_st *st = vst;
	if (!p) {
		if (st->have_header)
			return 0;
		snprintf(msg, IO_MSG,
		         "expected a METIS header 'n m [fmt [ncon]]', found end of file");
		return ORDO_EFORMAT;
	}
	const char *q = io_skip_ws(p, e);
	if (st->have_header)
		return 0;
	if (q < e && *q == '%')
		return 1;
	if (q == e)
		return 1; /* blank lines before the header */
	int rc = io_hfield(&q, e, "node count n", 0, ORDO_MAX_NODES, &st->n, msg);
	if (!rc)
		rc = io_hfield(&q, e, "edge count m", 0, UINT64_MAX / 2, &st->m, msg);
	if (rc)
		return rc;
	q = io_skip_ws(q, e);
	uint64_t fmt = 0, ncon = 0;
	if (q < e) {
		const char *s = q;
		while (s < e && (*s == '0' || *s == '1'))
			s++;
		if (s == q || s - q > 3 || (s < e && *s != ' ' && *s != '\t' && *s != '\r')) {
			char tk[48];
			io_token(q, e, tk, sizeof tk);
			snprintf(msg, IO_MSG,
			         "expected fmt of up to 3 binary digits (e.g. 011), found %s", tk);
			return ORDO_EFORMAT;
		}
		for (const char *d = q; d < s; d++)
			fmt = fmt * 10 + (uint64_t)(*d - '0');
		q = s;
		rc = 0;
		q = io_skip_ws(q, e);
		if (q < e) {
			rc = io_hfield(&q, e, "ncon", 1, 1000, &ncon, msg);
			if (rc)
				return rc;
		}
		q = io_skip_ws(q, e);
		if (q != e) {
			char tk[48];
			io_token(q, e, tk, sizeof tk);
			snprintf(msg, IO_MSG, "expected end of the header line, found %s", tk);
			return ORDO_EFORMAT;
		}
	}
	char what[128];
	snprintf(what, sizeof what, "the header declares %llu nodes and %llu edges",
	         (unsigned long long)st->n, (unsigned long long)st->m);
	rc = io_header_memory(
	    what, 8 * (st->n + 1) + (st->m > UINT64_MAX / 64 ? UINT64_MAX : 40 * st->m), msg);
	if (rc)
		return rc;
	st->ew = fmt % 10 == 1;
	st->vw = (fmt / 10) % 10 == 1 ? (ncon ? ncon : 1) : 0;
	st->vsize = fmt / 100 == 1;
	st->have_header = true;
	st->header_line = line;
	st->fmt->weighted_chain = st->ew;
	return 1;
}

static void metis_count(void *vst, struct io_piece *pc)
{
	(void)vst;
	io_count_records(pc, "%", true); /* an empty line is a node without neighbours */
}

static void metis_parse(void *vst, struct io_piece *pc)
{
	struct metis_st *st = vst;
	const char *p = pc->p, *end = pc->end;
	uint64_t line = pc->first_line, node = pc->first_record, arcs = 0;
	for (; p < end; line++) {
		const char *e = io_eol(p, end);
		const char *q = io_skip_ws(p, e);
		p = e < end ? e + 1 : end;
		if (q < e && *q == '%')
			continue;
		if (node >= st->n) {
			if (q == e)
				continue; /* trailing blank lines */
			io_fail(pc, line, ORDO_EFORMAT,
			        "expected %llu node lines (header, line %llu), found more",
			        (unsigned long long)st->n, (unsigned long long)st->header_line);
			break;
		}
		uint64_t skip = st->vsize + st->vw, x;
		bool ok = true;
		for (uint64_t k = 0; k < skip && ok; k++)
			ok = io_field(pc, line, &q, e,
			              k < st->vsize ? "vertex size" : "vertex weight", 0,
			              UINT64_MAX, &x);
		while (ok && (q = io_skip_ws(q, e)) < e) {
			uint64_t v, w = 1;
			ok = io_field(pc, line, &q, e, "neighbour id", 1, st->n, &v);
			if (ok && st->ew) {
				if (io_skip_ws(q, e) == e) {
					ok = io_fail(pc, line, ORDO_EFORMAT,
					             "expected an edge weight after neighbour %llu "
					             "(fmt has edge weights), found end of line",
					             (unsigned long long)v);
					break;
				}
				ok = io_field(pc, line, &q, e, "edge weight", 0, UINT32_MAX, &w);
			}
			if (ok && !ordo_chain_push(&pc->chain, (uint32_t)node, (uint32_t)(v - 1),
			                           (uint32_t)w))
				ok = false;
			arcs += ok;
		}
		if (!ok)
			break;
		node++;
	}
	pc->cnt[0] = arcs;
}

static int read_metis(struct io_in *in, const char *path, const struct ordo_load_opts *o,
                      struct io_arcs *out, struct ordo_load_info *info, struct ordo_err *err)
{
	struct io_text_fmt fmt = {.header = metis_header,
	                          .count = metis_count,
	                          .parse = metis_parse,
	                          .collects_arcs = true};
	struct metis_st st = {.fmt = &fmt};
	struct io_text_result res;
	int rc = io_text_run(in, path, &fmt, &st, o->threads, o, &res, err);
	info->text_bytes = res.text_bytes;
	if (rc)
		return rc;
	const char *why = NULL;
	if (res.records < st.n)
		why = "node lines";
	else if (res.cnt[0] != 2 * st.m)
		why = "adjacency entries";
	if (why) {
		ordo_chain_free(&res.arcs);
		return ordo_err_set(
		    err, ORDO_EFORMAT,
		    "%s:%llu: the header promises %llu nodes and %llu edges (%llu adjacency "
		    "entries), found %llu node lines and %llu entries (%s differ)",
		    path, (unsigned long long)st.header_line, (unsigned long long)st.n,
		    (unsigned long long)st.m, (unsigned long long)(2 * st.m),
		    (unsigned long long)(res.records < st.n ? res.records : st.n),
		    (unsigned long long)res.cnt[0], why);
	}
	out->chain = res.arcs;
	out->n = st.n;
	return 0;
}

/* ---- .xyz ---- */
struct xyz_st {
	double *xy;
	uint64_t n;
};

static void xyz_count(void *vst, struct io_piece *pc)
{
	(void)vst;
	io_count_records(pc, "%#", false);
}

static void xyz_parse(void *vst, struct io_piece *pc)
{
	struct xyz_st *st = vst;
	const char *p = pc->p, *end = pc->end;
	uint64_t line = pc->first_line, node = pc->first_record;
	char tk[48];
	for (; p < end; line++) {
		const char *e = io_eol(p, end);
		const char *q = io_skip_ws(p, e);
		p = e < end ? e + 1 : end;
		if (q == e || *q == '%' || *q == '#')
			continue;
		if (node >= st->n) {
			io_fail(pc, line, ORDO_EFORMAT,
			        "expected %llu coordinate lines (one per node), found more",
			        (unsigned long long)st->n);
			break;
		}
		double c[3];
		int k = 0;
		for (; k < 3 && (q = io_skip_ws(q, e)) < e; k++) {
			if (io_parse_double(&q, e, &c[k]) || !isfinite(c[k])) {
				io_token(q, e, tk, sizeof tk);
				io_fail(pc, line, ORDO_EFORMAT,
				        "expected a real coordinate, found %s", tk);
				return;
			}
		}
		if (k < 2) {
			io_fail(pc, line, ORDO_EFORMAT, "expected 'x y [z]', found %d field%s", k,
			        k == 1 ? "" : "s");
			return;
		}
		if (!io_line_end(pc, line, q, e, "the coordinates"))
			return;
		st->xy[2 * node] = c[0];
		st->xy[2 * node + 1] = c[1];
		node++;
	}
}

static int read_xyz(struct io_in *in, const char *path, struct ordo_graph *g, int threads,
                    struct ordo_err *err)
{
	int rc = ordo_graph_alloc_coords(g, ORDO_COORD_DOUBLE, err);
	if (rc)
		return rc;
	struct xyz_st st = {.xy = g->coord, .n = g->n};
	struct io_text_fmt fmt = {.count = xyz_count, .parse = xyz_parse};
	struct io_text_result res;
	rc = io_text_run(in, path, &fmt, &st, threads, NULL, &res, err);
	if (!rc && res.records != g->n)
		rc = ordo_err_set(
		    err, ORDO_EFORMAT,
		    "%s:%llu: expected %u coordinate lines (one per node), found %llu", path,
		    (unsigned long long)res.lines, g->n, (unsigned long long)res.records);
	if (rc) {
		free(g->coord);
		g->coord = NULL;
		g->coord_kind = ORDO_COORD_NONE;
		return rc;
	}
	g->coord_unit[0] = 0;
	return 0;
}

const struct io_format io_format_metis = {
    .info = {.name = "metis",
             .aliases = "",
             .exts = "graph metis",
             .summary = "METIS / DIMACS 10: n m [fmt], one adjacency line per node (1-based)",
             .flags =
                 ORDO_FORMAT_GRAPH | ORDO_FORMAT_ONE_BASED | ORDO_FORMAT_READ | ORDO_FORMAT_WRITE},
    .read_arcs = read_metis,
    .write = io_write_text};

const struct io_format io_format_xyz = {
    .info = {.name = "xyz",
             .aliases = "",
             .exts = "xyz",
             .summary = "coordinates, one x y [z] line per node (METIS companion)",
             .flags = ORDO_FORMAT_COORDS | ORDO_FORMAT_READ | ORDO_FORMAT_WRITE},
    .read_coords = read_xyz,
    .write = io_write_text};
