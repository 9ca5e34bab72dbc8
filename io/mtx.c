/*
 * mtx.c - Matrix Market coordinate files.
 *   `%%MatrixMarket matrix coordinate FIELD SYMMETRY` (case-insensitive), `%` comments,
 *   `rows cols nnz`, then nnz lines `i j [value]` (1-based). FIELD pattern (unweighted),
 *   integer (non-negative, 32-bit) or real (only with an explicit rounding: round, or
 *   scale by a factor then round); complex is rejected. SYMMETRY general, or symmetric
 *   (only one triangle is stored: load() symmetrises, so both arcs of an entry get the
 *   same weight, random weights included);
 *   skew-symmetric and hermitian are rejected. The matrix must be square.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "io_internal.h"

enum { F_PATTERN, F_INTEGER, F_REAL };

struct mtx_st {
	int state; /* 0 banner, 1 size line, 2 done */
	int field;
	bool symmetric;
	uint64_t n, nnz, size_line;
	int real_mode;
	double scale;
	struct io_text_fmt *fmt;
};

static bool word(const char **q, const char *e, char *out, size_t cap)
{
	*q = io_skip_ws(*q, e);
	size_t k = 0;
	while (*q < e && **q != ' ' && **q != '\t' && **q != '\r') {
		if (k + 1 < cap)
			out[k++] = **q;
		(*q)++;
	}
	out[k] = 0;
	return k > 0;
}

/* The banner line, '%%MatrixMarket matrix coordinate FIELD SYMMETRY': 1, or an
 * ORDO_E* code with msg set. */
static int mtx_banner(struct mtx_st *st, const char *q, const char *e, char *msg)
{
	char w[5][32];
	for (int i = 0; i < 5; i++)
		word(&q, e, w[i], sizeof w[i]);
	if (strcasecmp(w[0], "%%MatrixMarket") || strcasecmp(w[1], "matrix")) {
		snprintf(msg, IO_MSG,
		         "expected '%%%%MatrixMarket matrix ...' banner, found '%.40s'", w[0]);
		return ORDO_EFORMAT;
	}
	if (strcasecmp(w[2], "coordinate")) {
		snprintf(msg, IO_MSG,
		         "expected the 'coordinate' (sparse) layout, found '%s' (dense "
		         "arrays are not graphs)",
		         w[2]);
		return ORDO_EUNSUPPORTED;
	}
	if (!strcasecmp(w[3], "pattern"))
		st->field = F_PATTERN;
	else if (!strcasecmp(w[3], "integer"))
		st->field = F_INTEGER;
	else if (!strcasecmp(w[3], "real") || !strcasecmp(w[3], "double"))
		st->field = F_REAL;
	else if (!strcasecmp(w[3], "complex")) {
		snprintf(msg, IO_MSG, "complex values cannot be edge weights");
		return ORDO_EUNSUPPORTED;
	} else {
		snprintf(msg, IO_MSG, "expected field pattern|integer|real, found '%s'", w[3]);
		return ORDO_EFORMAT;
	}
	if (!strcasecmp(w[4], "general"))
		st->symmetric = false;
	else if (!strcasecmp(w[4], "symmetric"))
		st->symmetric = true;
	else if (!strcasecmp(w[4], "skew-symmetric") || !strcasecmp(w[4], "hermitian")) {
		snprintf(msg, IO_MSG,
		         "%s matrices are not supported (implied negative or complex weights)",
		         w[4]);
		return ORDO_EUNSUPPORTED;
	} else {
		snprintf(msg, IO_MSG, "expected symmetry general|symmetric, found '%s'", w[4]);
		return ORDO_EFORMAT;
	}
	if (st->field == F_REAL && st->real_mode == ORDO_MTX_REAL_REJECT) {
		snprintf(msg, IO_MSG,
		         "real values need an explicit conversion to integer weights: "
		         "--mtx-real round or --mtx-real scale:FACTOR");
		return ORDO_EUNSUPPORTED;
	}
	st->fmt->weighted_chain = st->field != F_PATTERN;
	st->state = 1;
	return 1;
}

static int mtx_header(void *vst, const char *p, const char *e, uint64_t line, char *msg)
{
	struct mtx_st *st = vst;
	if (!p) {
		if (st->state == 2)
			return 0;
		snprintf(msg, IO_MSG, "expected %s, found end of file",
		         st->state == 0 ? "a %%MatrixMarket banner"
		                        : "the size line 'rows cols nnz'");
		return ORDO_EFORMAT;
	}
	if (st->state == 2)
		return 0;
	const char *q = p;
	if (st->state == 0)
		return mtx_banner(st, q, e, msg);
	q = io_skip_ws(q, e);
	if (q == e || *q == '%')
		return 1;
	uint64_t rows, cols;
	int rc = io_hfield(&q, e, "row count", 0, ORDO_MAX_NODES, &rows, msg);
	if (!rc)
		rc = io_hfield(&q, e, "column count", 0, ORDO_MAX_NODES, &cols, msg);
	if (!rc)
		rc = io_hfield(&q, e, "entry count", 0, UINT64_MAX / 2, &st->nnz, msg);
	if (rc)
		return rc;
	if (io_skip_ws(q, e) != e) {
		snprintf(msg, IO_MSG, "expected end of line after 'rows cols nnz'");
		return ORDO_EFORMAT;
	}
	if (rows != cols) {
		snprintf(msg, IO_MSG, "expected a square matrix, found %llu x %llu",
		         (unsigned long long)rows, (unsigned long long)cols);
		return ORDO_EUNSUPPORTED;
	}
	char what[128];
	snprintf(what, sizeof what, "the size line declares %llu nodes and %llu entries",
	         (unsigned long long)rows, (unsigned long long)st->nnz);
	rc = io_header_memory(
	    what, 8 * (rows + 1) + (st->nnz > UINT64_MAX / 64 ? UINT64_MAX : 40 * st->nnz), msg);
	if (rc)
		return rc;
	st->n = rows;
	st->size_line = line;
	st->state = 2;
	return 1;
}

static void mtx_parse(void *vst, struct io_piece *pc)
{
	struct mtx_st *st = vst;
	const char *p = pc->p, *end = pc->end;
	uint64_t line = pc->first_line, entries = 0;
	char tk[48];
	for (; p < end; line++) {
		const char *e = io_eol(p, end);
		const char *q = io_skip_ws(p, e);
		p = e < end ? e + 1 : end;
		if (q == e || *q == '%')
			continue;
		uint64_t i, j, w = 1;
		if (!io_field(pc, line, &q, e, "row index", 1, st->n, &i) ||
		    !io_field(pc, line, &q, e, "column index", 1, st->n, &j))
			break;
		if (st->field == F_INTEGER) {
			if (!io_field(pc, line, &q, e, "integer weight", 0, UINT32_MAX, &w))
				break;
		} else if (st->field == F_REAL) {
			q = io_skip_ws(q, e);
			const char *s = q;
			double d;
			if (io_parse_double(&q, e, &d)) {
				io_token(s, e, tk, sizeof tk);
				io_fail(pc, line, ORDO_EFORMAT, "expected a real value, found %s",
				        tk);
				break;
			}
			double r =
			    nearbyint(st->real_mode == ORDO_MTX_REAL_SCALE ? d * st->scale : d);
			if (!(r >= 0 && r <= UINT32_MAX)) {
				io_token(s, e, tk, sizeof tk);
				io_fail(pc, line, ORDO_ERANGE,
				        "value %s gives weight %.17g, outside 0..4294967295", tk,
				        r);
				break;
			}
			w = (uint64_t)r;
		}
		if (!io_line_end(pc, line, q, e, "the entry"))
			break;
		if (!ordo_chain_push(&pc->chain, (uint32_t)(i - 1), (uint32_t)(j - 1), (uint32_t)w))
			break;
		entries++;
	}
	pc->cnt[0] = entries;
}

static int read_mtx(struct io_in *in, const char *path, const struct ordo_load_opts *o,
                    struct io_arcs *out, struct ordo_load_info *info, struct ordo_err *err)
{
	struct io_text_fmt fmt = {.header = mtx_header, .parse = mtx_parse, .collects_arcs = true};
	struct mtx_st st = {.fmt = &fmt, .real_mode = o->mtx_real, .scale = o->mtx_scale};
	struct io_text_result res;
	int rc = io_text_run(in, path, &fmt, &st, o->threads, o, &res, err);
	info->text_bytes = res.text_bytes;
	if (rc)
		return rc;
	if (res.cnt[0] != st.nnz) {
		ordo_chain_free(&res.arcs);
		return ordo_err_set(
		    err, ORDO_EFORMAT,
		    "%s:%llu: the size line promises %llu entries, the file has %llu", path,
		    (unsigned long long)st.size_line, (unsigned long long)st.nnz,
		    (unsigned long long)res.cnt[0]);
	}
	out->chain = res.arcs;
	out->n = st.n;
	out->symmetric = st.symmetric;
	return 0;
}

static bool sniff_mtx(const unsigned char *buf, uint64_t len, uint64_t file_bytes, bool compressed)
{
	(void)file_bytes, (void)compressed;
	const char *p = (const char *)buf, *e = p + len;
	while (p < e && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
		p++; /* blank lines before the banner */
	static const char banner[] = "%%MatrixMarket";
	return e - p >= (long)sizeof banner - 1 && !strncasecmp(p, banner, sizeof banner - 1);
}

const struct io_format io_format_mtx = {
    .info = {.name = "mtx",
             .aliases = "",
             .exts = "mtx",
             .summary = "Matrix Market coordinate pattern|integer|real, general|symmetric",
             .flags =
                 ORDO_FORMAT_GRAPH | ORDO_FORMAT_ONE_BASED | ORDO_FORMAT_READ | ORDO_FORMAT_WRITE},
    .sniff = sniff_mtx,
    .read_arcs = read_mtx,
    .write = io_write_text};
