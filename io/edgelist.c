/*
 * edgelist.c - SNAP and plain edge lists: one arc `u v` or `u v w` per line, 0-based
 * ids separated by spaces or tabs; `#` and `%` comment lines and blank lines anywhere.
 * The first arc line fixes the column count (2 = unweighted, 3 = weighted); every
 * other arc line must have the same. Ids must fit 32 bits (at most 2^32 - 2).
 */
#include <stdlib.h>
#include <string.h>

#include "io_internal.h"

struct el_st {
	bool started, weighted;
	uint64_t declared_n; /* from ordo's own header "# written by ordo: N nodes, M arcs" */
	uint64_t declared_m; /* UINT64_MAX: no header declared it */
	bool both_ways;      /* the header ends with IO_SYM_WORD */
	uint64_t first_line;
	struct io_text_fmt *fmt; /* the header decides whether its chains carry weights */
};

static bool el_comment(const char *q)
{
	return *q == '#' || *q == '%';
}

static int el_header(void *vst, const char *p, const char *e, uint64_t line, char *msg)
{
	struct el_st *st = vst;
	(void)msg;
	if (!p)
		return 0; /* no arcs at all: an empty graph */
	const char *q = io_skip_ws(p, e);
	static const char mark[] = "# written by ordo: ";
	if ((size_t)(e - q) > sizeof mark && !memcmp(q, mark, sizeof mark - 1)) {
		/* ordo's writer states n, so trailing isolated nodes survive a round trip */
		char *end;
		unsigned long long n = strtoull(q + sizeof mark - 1, &end, 10);
		if (end < e && !strncmp(end, " nodes,", 7) && n <= ORDO_MAX_NODES) {
			st->declared_n = n;
			/* and M arcs: a file cut at a line end is then told from a whole one */
			char *end2;
			unsigned long long m = strtoull(end + 7, &end2, 10);
			if (end2 > end + 7 && end2 < e && !strncmp(end2, " arcs", 5))
				st->declared_m = m;
			const char *t = e;
			while (t > q && (t[-1] == '\r' || t[-1] == ' '))
				t--;
			const size_t k = strlen(IO_SYM_WORD);
			st->both_ways = (size_t)(t - q) > k && !memcmp(t - k, IO_SYM_WORD, k);
		}
	}
	if (q == e || el_comment(q))
		return 1;
	/* first arc line: count fields */
	int fields = 0;
	while (q < e) {
		fields++;
		while (q < e && *q != ' ' && *q != '\t' && *q != '\r')
			q++;
		q = io_skip_ws(q, e);
	}
	st->weighted = fields >= 3;
	st->fmt->weighted_chain = st->weighted;
	st->first_line = line;
	st->started = true;
	return 0;
}

static void el_parse(void *vst, struct io_piece *pc)
{
	struct el_st *st = vst;
	const char *p = pc->p, *end = pc->end;
	uint64_t line = pc->first_line, arcs = 0;
	const bool weighted = st->weighted;
	for (; p < end; line++) {
		const char *e = io_eol(p, end);
		const char *q = io_skip_ws(p, e);
		p = e < end ? e + 1 : end;
		if (q == e || el_comment(q))
			continue;
		uint64_t u, v, w = 1;
		if (!io_field(pc, line, &q, e, "source node id", 0, ORDO_MAX_NODES - 1, &u) ||
		    !io_field(pc, line, &q, e, "target node id", 0, ORDO_MAX_NODES - 1, &v))
			break;
		if (weighted) {
			if (io_skip_ws(q, e) == e) {
				io_fail(pc, line, ORDO_EFORMAT,
				        "expected a weight (the first arc line, %llu, has 3 "
				        "fields), found end of line",
				        (unsigned long long)st->first_line);
				break;
			}
			if (!io_field(pc, line, &q, e, "arc weight", 0, UINT32_MAX, &w))
				break;
		}
		if (!io_line_end(pc, line, q, e,
		                 weighted ? "the weight"
		                          : "the target id (the first arc line has 2 fields)"))
			break;
		if (!ordo_chain_push(&pc->chain, (uint32_t)u, (uint32_t)v, (uint32_t)w))
			break;
		arcs++;
	}
	pc->cnt[0] = arcs;
}

static int read_edgelist(struct io_in *in, const char *path, const struct ordo_load_opts *o,
                         struct io_arcs *out, struct ordo_load_info *info, struct ordo_err *err)
{
	struct io_text_fmt fmt = {.header = el_header, .parse = el_parse, .collects_arcs = true};
	struct el_st st = {.fmt = &fmt, .declared_m = UINT64_MAX};
	struct io_text_result res;
	int rc = io_text_run(in, path, &fmt, &st, o->threads, o, &res, err);
	info->text_bytes = res.text_bytes;
	if (!rc && st.declared_m != UINT64_MAX && res.cnt[0] != st.declared_m) {
		ordo_chain_free(&res.arcs);
		rc =
		    ordo_err_set(err, ORDO_EFORMAT,
		                 "%s: line %llu: expected %llu arcs, as the header line '# written "
		                 "by ordo: ...' declares, found %llu (%s)",
		                 path, (unsigned long long)res.lines,
		                 (unsigned long long)st.declared_m, (unsigned long long)res.cnt[0],
		                 res.cnt[0] < st.declared_m ? "truncated file?" : "lines added?");
	}
	if (rc)
		return rc;
	out->chain = res.arcs;
	out->n = st.declared_n; /* 0: max id + 1 (or remapped with compact_ids) */
	out->both_ways = st.both_ways;
	return 0;
}

const struct io_format io_format_edgelist = {
    .info = {.name = "edgelist",
             .aliases = "snap el",
             .exts = "txt el wel edges edgelist tsv snap",
             .summary = "SNAP / plain: u v [w] per line, # or % comments (0-based)",
             .flags =
                 ORDO_FORMAT_GRAPH | ORDO_FORMAT_RAW_IDS | ORDO_FORMAT_READ | ORDO_FORMAT_WRITE},
    .read_arcs = read_edgelist,
    .write = io_write_text};
