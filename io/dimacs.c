/*
 * dimacs.c - DIMACS 9th challenge shortest-path files.
 *   .gr: `c` comment lines, one `p sp N M` line, then M lines `a u v w` (1-based ids,
 *        integer weights); comments and blank lines may appear anywhere.
 *   .co: `c` comments, `p aux sp co N`, then N lines `v id x y` (integers, one per node).
 * Strict: exactly one `p` line before any arc, ids in 1..N, weights 0..2^32-1, exactly M
 * arcs (N coordinates, each node once), nothing after the last field of a line.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "io_internal.h"
#include "ordo_util.h"

struct dimacs_st {
	bool have_p, co;
	uint64_t n, m, p_line;
	uint64_t expect_n; /* .co: the graph's node count */
	bool both_ways;    /* .gr: ordo's symmetric line (IO_SYM_DIMACS) */
	char unit[32];     /* .co: unit named by a "(unit: X)" comment, as ordo writes */
	/* .co */
	int32_t *xy;
	_Atomic unsigned char *seen;
};

static bool is_comment(const char *p, const char *e)
{
	return *p == 'c' && (p + 1 == e || p[1] == ' ' || p[1] == '\t' || p[1] == '\r');
}

static int gr_header(void *vst, const char *p, const char *e, uint64_t line, char *msg)
{
	struct dimacs_st *st = vst;
	if (!p) {
		if (st->have_p)
			return 0;
		snprintf(msg, IO_MSG, "expected a '%s' line, found end of file",
		         st->co ? "p aux sp co N" : "p sp N M");
		return ORDO_EFORMAT;
	}
	p = io_skip_ws(p, e);
	if (p < e && is_comment(p, e) && st->co) {
		const char *u = memmem(p, (size_t)(e - p), "(unit: ", 7);
		if (u) {
			u += 7;
			size_t k = 0;
			while (u + k < e && u[k] != ')' && k + 1 < sizeof st->unit)
				k++;
			memcpy(st->unit, u, k);
			st->unit[k] = 0;
		}
	}
	if (p < e && is_comment(p, e) && !st->co && (size_t)(e - p) >= strlen(IO_SYM_DIMACS) &&
	    !memcmp(p, IO_SYM_DIMACS, strlen(IO_SYM_DIMACS)))
		st->both_ways = true;
	if (p == e || is_comment(p, e))
		return 1;
	if (st->have_p)
		return 0;
	char tk[48];
	if (*p != 'p') {
		io_token(p, e, tk, sizeof tk);
		snprintf(msg, IO_MSG, "expected a '%s' line before the first %s, found %s",
		         st->co ? "p aux sp co N" : "p sp N M", st->co ? "coordinate" : "arc", tk);
		return ORDO_EFORMAT;
	}
	const char *q = io_skip_ws(p + 1, e);
	const char *want = st->co ? "aux sp co" : "sp";
	/* compare the words of `want` one by one, whitespace-separated */
	const char *w = want;
	while (*w) {
		const char *we = strchr(w, ' ');
		size_t wl = we ? (size_t)(we - w) : strlen(w);
		if ((size_t)(e - q) < wl || memcmp(q, w, wl) ||
		    (q + wl < e && q[wl] != ' ' && q[wl] != '\t')) {
			io_token(q, e, tk, sizeof tk);
			snprintf(msg, IO_MSG, "expected 'p %s ...', found problem type %s", want,
			         tk);
			return ORDO_EFORMAT;
		}
		q = io_skip_ws(q + wl, e);
		w += wl + (we ? 1 : 0);
	}
	int rc = io_hfield(&q, e, "node count N", 0, ORDO_MAX_NODES, &st->n, msg);
	if (rc)
		return rc;
	if (!st->co) {
		rc = io_hfield(&q, e, "arc count M", 0, UINT64_MAX, &st->m, msg);
		if (rc)
			return rc;
		char what[128];
		snprintf(what, sizeof what, "the p line declares %llu nodes and %llu arcs",
		         (unsigned long long)st->n, (unsigned long long)st->m);
		uint64_t need = 8 * (st->n + 1), arcs;
		if (!ordo_mul_ok(st->m, 20, &arcs) || __builtin_add_overflow(need, arcs, &need))
			need = UINT64_MAX;
		rc = io_header_memory(what, need, msg);
		if (rc)
			return rc;
	} else if (st->n != st->expect_n) {
		snprintf(msg, IO_MSG,
		         "expected coordinates for the graph's %llu nodes, found N=%llu",
		         (unsigned long long)st->expect_n, (unsigned long long)st->n);
		return ORDO_EFORMAT;
	}
	q = io_skip_ws(q, e);
	if (q != e) {
		io_token(q, e, tk, sizeof tk);
		snprintf(msg, IO_MSG, "expected end of line after the p line, found %s", tk);
		return ORDO_EFORMAT;
	}
	st->have_p = true;
	st->p_line = line;
	return 1;
}

static void gr_parse(void *vst, struct io_piece *pc)
{
	struct dimacs_st *st = vst;
	const char *p = pc->p, *end = pc->end;
	const uint64_t n = st->n;
	uint64_t line = pc->first_line, arcs = 0;
	char tk[48];
	for (; p < end; line++) {
		const char *e = io_eol(p, end);
		const char *q = io_skip_ws(p, e);
		p = e < end ? e + 1 : end;
		if (q == e)
			continue;
		if (__builtin_expect(*q == 'a' && q + 1 < e && (q[1] == ' ' || q[1] == '\t'), 1)) {
			uint64_t u, v, w;
			q++;
			if (!io_field(pc, line, &q, e, "arc tail (node id)", 1, n, &u) ||
			    !io_field(pc, line, &q, e, "arc head (node id)", 1, n, &v) ||
			    !io_field(pc, line, &q, e, "arc weight", 0, UINT32_MAX, &w) ||
			    !io_line_end(pc, line, q, e, "the arc weight"))
				break;
			if (!ordo_chain_push(&pc->chain, (uint32_t)(u - 1), (uint32_t)(v - 1),
			                     (uint32_t)w))
				break;
			arcs++;
			continue;
		}
		if (is_comment(q, e))
			continue;
		if (*q == 'p') {
			io_fail(pc, line, ORDO_EFORMAT,
			        "expected 'a u v w', found a second p line (the first is line "
			        "%llu)",
			        (unsigned long long)st->p_line);
			break;
		}
		io_token(q, e, tk, sizeof tk);
		io_fail(pc, line, ORDO_EFORMAT, "expected 'a u v w' or a 'c' comment, found %s",
		        tk);
		break;
	}
	pc->cnt[0] = arcs;
}

static int read_dimacs(struct io_in *in, const char *path, const struct ordo_load_opts *o,
                       struct io_arcs *out, struct ordo_load_info *info, struct ordo_err *err)
{
	struct dimacs_st st = {0};
	struct io_text_fmt fmt = {
	    .header = gr_header, .parse = gr_parse, .weighted_chain = true, .collects_arcs = true};
	struct io_text_result res;
	int rc = io_text_run(in, path, &fmt, &st, o->threads, o, &res, err);
	info->text_bytes = res.text_bytes;
	if (rc)
		return rc;
	if (res.cnt[0] != st.m) {
		ordo_chain_free(&res.arcs);
		return ordo_err_set(err, ORDO_EFORMAT,
		                    "%s:%llu: the p line promises %llu arcs, but the file has %llu",
		                    path, (unsigned long long)st.p_line, (unsigned long long)st.m,
		                    (unsigned long long)res.cnt[0]);
	}
	out->chain = res.arcs;
	out->n = st.n;
	out->both_ways = st.both_ways;
	return 0;
}

/* ---- .co ---- */

static void co_parse(void *vst, struct io_piece *pc)
{
	struct dimacs_st *st = vst;
	const char *p = pc->p, *end = pc->end;
	uint64_t line = pc->first_line, cnt = 0;
	char tk[48];
	for (; p < end; line++) {
		const char *e = io_eol(p, end);
		const char *q = io_skip_ws(p, e);
		p = e < end ? e + 1 : end;
		if (q == e || is_comment(q, e))
			continue;
		if (*q != 'v' || q + 1 == e || (q[1] != ' ' && q[1] != '\t')) {
			io_token(q, e, tk, sizeof tk);
			io_fail(pc, line, ORDO_EFORMAT, "expected 'v id x y', found %s", tk);
			break;
		}
		q++;
		uint64_t id;
		if (!io_field(pc, line, &q, e, "node id", 1, st->n, &id))
			break;
		int64_t c[2];
		bool ok = true;
		for (int k = 0; k < 2 && ok; k++) {
			q = io_skip_ws(q, e);
			bool neg = q < e && *q == '-';
			uint64_t v;
			const char *s = q + neg;
			if (io_parse_u64(&s, e, &v) || v > (neg ? 2147483648ull : 2147483647ull)) {
				io_token(q, e, tk, sizeof tk);
				io_fail(pc, line, ORDO_EFORMAT,
				        "expected a 32-bit integer %s coordinate, found %s",
				        k ? "y" : "x", tk);
				ok = false;
				break;
			}
			c[k] = neg ? -(int64_t)v : (int64_t)v;
			q = s;
		}
		if (!ok || !io_line_end(pc, line, q, e, "the y coordinate"))
			break;
		if (atomic_exchange_explicit(&st->seen[id - 1], 1, memory_order_relaxed)) {
			io_fail(pc, line, ORDO_EFORMAT,
			        "expected each node once, found a second line for node %llu",
			        (unsigned long long)id);
			break;
		}
		st->xy[2 * (id - 1)] = (int32_t)c[0];
		st->xy[2 * (id - 1) + 1] = (int32_t)c[1];
		cnt++;
	}
	pc->cnt[0] = cnt;
}

static int read_co(struct io_in *in, const char *path, struct ordo_graph *g, int threads,
                   struct ordo_err *err)
{
	struct dimacs_st st = {.co = true};
	int rc = ordo_graph_alloc_coords(g, ORDO_COORD_INT32, err);
	if (rc)
		return rc;
	st.xy = g->coord;
	st.seen = calloc((size_t)g->n + 1, 1);
	if (!st.seen)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	/* the header callback rejects an N other than the graph's before any line is
	 * stored, so ids checked against st.n always index inside xy */
	struct io_text_fmt fmt = {.header = gr_header, .parse = co_parse};
	struct io_text_result res;
	st.expect_n = g->n;
	rc = io_text_run(in, path, &fmt, &st, threads, NULL, &res, err);
	if (!rc && res.cnt[0] != g->n)
		rc = ordo_err_set(
		    err, ORDO_EFORMAT, "%s:%llu: expected %u coordinate lines, found %llu", path,
		    (unsigned long long)res.lines, g->n, (unsigned long long)res.cnt[0]);
	free((void *)st.seen);
	if (rc) {
		free(g->coord);
		g->coord = NULL;
		g->coord_kind = ORDO_COORD_NONE;
		return rc;
	}
	/* DIMACS 9 coordinates are longitude/latitude in microdegrees unless said otherwise */
	snprintf(g->coord_unit, sizeof g->coord_unit, "%s", st.unit[0] ? st.unit : "microdeg");
	return 0;
}

const struct io_format io_format_dimacs = {
    .info = {.name = "dimacs",
             .aliases = "gr",
             .exts = "gr",
             .summary = "DIMACS 9 shortest paths: p sp N M, a u v w (1-based)",
             .flags =
                 ORDO_FORMAT_GRAPH | ORDO_FORMAT_ONE_BASED | ORDO_FORMAT_READ | ORDO_FORMAT_WRITE},
    .read_arcs = read_dimacs,
    .write = io_write_text};

const struct io_format io_format_co = {
    .info = {.name = "co",
             .aliases = "",
             .exts = "co",
             .summary = "DIMACS 9 coordinates: p aux sp co N, v id x y",
             .flags =
                 ORDO_FORMAT_COORDS | ORDO_FORMAT_ONE_BASED | ORDO_FORMAT_READ | ORDO_FORMAT_WRITE},
    .read_coords = read_co,
    .write = io_write_text};
