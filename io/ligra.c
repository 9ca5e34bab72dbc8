/*
 * ligra.c - Ligra's adjacency text format (also GBBS's and the PBBS tools'), read and
 * written:
 *
 *   AdjacencyGraph            or  WeightedAdjacencyGraph
 *   n
 *   m
 *   n lines: the offset of each node's first arc (0, non-decreasing, at most m)
 *   m lines: the target of each arc (0-based, below n)
 *   m lines: the weight of each arc (weighted form only)
 *
 * Ligra splits the file into words, so n and m may also share a line; every value
 * after them is on a line of its own, as Ligra's and GBBS's writers put it, so a line
 * number names the value. Blank lines may follow the last value, nowhere else. The
 * file does not say whether the graph is symmetric (Ligra's -s flag does): it is read
 * as directed; --symmetrize or an app that needs it symmetrises. Weights must be
 * non-negative (ordo's are unsigned). Values are parsed in parallel by the text driver
 * straight into the graph's arrays: record r is offset r, then target r - n, then
 * weight r - n - m.
 */
#include <stdlib.h>
#include <string.h>

#include "io_internal.h"

struct ligra_st {
	int stage; /* header values seen: 0 none, 1 name, 2 n, 3 m */
	bool weighted;
	uint64_t n, m, total; /* total = n + m (+ m) values after the header */
	uint64_t data_line;   /* file line of value 0 */
	struct ordo_graph *g; /* allocated once n and m are known */
};

static const char *const kName[2] = {"AdjacencyGraph", "WeightedAdjacencyGraph"};

static int ligra_header(void *vst, const char *p, const char *e, uint64_t line, char *msg)
{
	struct ligra_st *st = vst;
	if (!p && st->stage == 3) {
		st->data_line = line; /* no values: n = m = 0 */
		return 0;
	}
	if (!p) {
		snprintf(msg, IO_MSG, "expected %s, found end of file",
		         st->stage == 0   ? "AdjacencyGraph or WeightedAdjacencyGraph"
		         : st->stage == 1 ? "the node count n"
		                          : "the arc count m");
		return ORDO_EFORMAT;
	}
	const char *q = io_skip_ws(p, e);
	if (st->stage == 0) {
		for (int k = 0; k < 2; k++) {
			size_t len = strlen(kName[k]);
			if ((size_t)(e - q) >= len && !memcmp(q, kName[k], len) &&
			    io_blank(q + len, e)) {
				st->weighted = k == 1;
				st->stage = 1;
				return 1;
			}
		}
		char tk[48];
		io_token(q, e, tk, sizeof tk);
		snprintf(msg, IO_MSG, "expected AdjacencyGraph or WeightedAdjacencyGraph, found %s",
		         tk);
		return ORDO_EFORMAT;
	}
	if (st->stage == 3) {
		st->data_line = line;
		return 0; /* this line is value 0 */
	}
	if (q == e) {
		snprintf(msg, IO_MSG, "expected %s, found a blank line",
		         st->stage == 1 ? "the node count n" : "the arc count m");
		return ORDO_EFORMAT;
	}
	while (st->stage < 3 && !io_blank(q, e)) {
		uint64_t *v = st->stage == 1 ? &st->n : &st->m;
		int rc = st->stage == 1
		             ? io_hfield(&q, e, "the node count n", 0, ORDO_MAX_NODES, v, msg)
		             : io_hfield(&q, e, "the arc count m", 0, UINT64_MAX / 16, v, msg);
		if (rc)
			return rc;
		st->stage++;
	}
	if (!io_blank(q, e)) {
		char tk[48];
		io_token(io_skip_ws(q, e), e, tk, sizeof tk);
		snprintf(msg, IO_MSG, "expected end of line after the arc count m, found %s", tk);
		return ORDO_EFORMAT;
	}
	if (st->stage == 3) {
		const uint64_t bytes = 8 * (st->n + 1) + (st->weighted ? 8 : 4) * st->m;
		int rc = io_header_memory("the graph", bytes, msg);
		if (rc)
			return rc;
		struct ordo_err err;
		if (ordo_graph_alloc((uint32_t)st->n, st->m, st->weighted, &st->g, &err)) {
			snprintf(msg, IO_MSG, "%s", err.msg);
			return ORDO_ENOMEM;
		}
		st->total = st->n + st->m * (st->weighted ? 2 : 1);
	}
	return 1;
}

/* What record r is, for messages. */
static void what_of(const struct ligra_st *st, uint64_t r, char *buf, size_t cap)
{
	if (r < st->n)
		snprintf(buf, cap, "the offset of node %llu", (unsigned long long)r);
	else if (r < st->n + st->m)
		snprintf(buf, cap, "the target of arc %llu", (unsigned long long)(r - st->n));
	else
		snprintf(buf, cap, "the weight of arc %llu",
		         (unsigned long long)(r - st->n - st->m));
}

static void ligra_parse(void *vst, struct io_piece *pc)
{
	struct ligra_st *st = vst;
	struct ordo_graph *g = st->g;
	const char *p = pc->p, *end = pc->end;
	uint64_t line = pc->first_line, r = pc->first_record;
	for (; p < end; line++, r++) {
		const char *e = io_eol(p, end);
		const char *q = io_skip_ws(p, e);
		p = e < end ? e + 1 : end;
		if (r >= st->total) {
			if (q == e)
				continue; /* blank lines after the last value */
			char tk[48];
			io_token(q, e, tk, sizeof tk);
			io_fail(pc, line, ORDO_EFORMAT,
			        "expected end of file after the %llu values the header announces "
			        "(n = %llu, m = %llu), found %s",
			        (unsigned long long)st->total, (unsigned long long)st->n,
			        (unsigned long long)st->m, tk);
			return;
		}
		const char *what = r < st->n           ? "a node's offset"
		                   : r < st->n + st->m ? "an arc's target node id"
		                                       : "an arc's weight";
		uint64_t v;
		const uint64_t hi = r < st->n           ? st->m
		                    : r < st->n + st->m ? (st->n ? st->n - 1 : 0)
		                                        : UINT32_MAX;
		if (r >= st->n && r < st->n + st->m && st->n == 0) {
			io_fail(pc, line, ORDO_ERANGE, "expected no arcs in a graph of 0 nodes");
			return;
		}
		if (!io_field(pc, line, &q, e, what, 0, hi, &v) ||
		    !io_line_end(pc, line, q, e, what))
			return;
		if (r < st->n)
			g->off[r] = v;
		else if (r < st->n + st->m)
			g->dst[r - st->n] = (uint32_t)v;
		else
			g->w[r - st->n - st->m] = (uint32_t)v;
	}
}

static int read_ligra(struct io_in *in, const char *path, const struct ordo_load_opts *o,
                      struct ordo_graph **out, struct ordo_load_info *info, struct ordo_err *err)
{
	*out = NULL;
	int rc;
	info->file_bytes = io_in_file_bytes(in);
	struct io_text_fmt fmt = {.header = ligra_header, .parse = ligra_parse};
	struct ligra_st st = {.stage = 0};
	struct io_text_result res;
	rc = io_text_run(in, path, &fmt, &st, o->threads, NULL, &res, err);
	info->text_bytes = res.text_bytes;
	struct ordo_graph *g = st.g;
	if (!rc && res.records < st.total) {
		char what[64];
		what_of(&st, res.records, what, sizeof what);
		rc = ordo_err_set(err, ORDO_EFORMAT,
		                  "%s:%llu: expected %s (the header announces n = %llu, m = %llu: "
		                  "%llu values), found end of file",
		                  path, (unsigned long long)(st.data_line + res.records), what,
		                  (unsigned long long)st.n, (unsigned long long)st.m,
		                  (unsigned long long)st.total);
	}
	if (!rc) {
		g->off[st.n] = st.m;
		for (uint64_t u = 0; u < st.n && !rc; u++)
			if (u == 0 ? g->off[0] != 0 : g->off[u] < g->off[u - 1])
				rc = ordo_err_set(err, ORDO_EFORMAT,
				                  "%s:%llu: expected the offset of node %llu to be "
				                  "%s %llu, found %llu",
				                  path, (unsigned long long)(st.data_line + u),
				                  (unsigned long long)u,
				                  u == 0 ? "exactly" : "at least",
				                  u == 0 ? 0ull : (unsigned long long)g->off[u - 1],
				                  (unsigned long long)g->off[u]);
	}
	if (rc) {
		ordo_graph_free(g);
		return rc;
	}
	*out = g;
	return 0;
}

/* Appends the decimal lines of v[0..count) (u64 or u32) to the output. */
static int put_lines(struct io_out *out, const void *v, bool wide, uint64_t count, char *buf,
                     size_t cap, struct ordo_err *err)
{
	size_t len = 0;
	for (uint64_t i = 0; i < count; i++) {
		if (len + 24 > cap) {
			int rc = io_out_write(out, buf, len, err);
			if (rc)
				return rc;
			len = 0;
		}
		uint64_t x = wide ? ((const uint64_t *)v)[i] : ((const uint32_t *)v)[i];
		char *s = io_put_u64(buf + len, x);
		*s++ = '\n';
		len = (size_t)(s - buf);
	}
	return io_out_write(out, buf, len, err);
}

static int write_ligra(const char *path, int fmt, const struct ordo_graph *g,
                       const struct ordo_save_opts *o, struct ordo_err *err)
{
	(void)fmt;
	struct io_out *out;
	int rc = io_text_out_open(path, o, &out, err);
	if (rc)
		return rc;
	char *buf = malloc(1 << 20);
	if (!buf)
		rc = ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	if (!rc) {
		int len = snprintf(buf, 1 << 20, "%s\n%u\n%llu\n", kName[g->w != NULL], g->n,
		                   (unsigned long long)g->m);
		rc = io_out_write(out, buf, (uint64_t)len, err);
	}
	if (!rc)
		rc = put_lines(out, g->off, true, g->n, buf, 1 << 20, err);
	if (!rc)
		rc = put_lines(out, g->dst, false, g->m, buf, 1 << 20, err);
	if (!rc && g->w)
		rc = put_lines(out, g->w, false, g->m, buf, 1 << 20, err);
	free(buf);
	int rc2 = io_out_close(out, rc == 0, err);
	return rc ? rc : rc2;
}

static bool sniff_ligra(const unsigned char *buf, uint64_t len, uint64_t file_bytes,
                        bool compressed)
{
	(void)file_bytes, (void)compressed;
	const char *p = (const char *)buf, *e = p + len;
	while (p < e && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
		p++;
	for (int k = 0; k < 2; k++) {
		size_t l = strlen(kName[k]);
		if ((size_t)(e - p) > l && !memcmp(p, kName[k], l) &&
		    (p[l] == '\n' || p[l] == '\r' || p[l] == ' ' || p[l] == '\t'))
			return true;
	}
	return false;
}

const struct io_format io_format_ligra = {
    .info = {.name = "ligra",
             .aliases = "adj",
             .exts = "adj",
             .summary = "Ligra/GBBS (Weighted)AdjacencyGraph: n, m, offsets, targets",
             .flags = ORDO_FORMAT_GRAPH | ORDO_FORMAT_READ | ORDO_FORMAT_WRITE},
    .sniff = sniff_ligra,
    .read_graph = read_ligra,
    .write = write_ligra};
