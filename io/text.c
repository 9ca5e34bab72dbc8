/*
 * text.c - the parallel chunked text driver shared by all text readers.
 *
 * The input is read in chunks of CHUNK bytes (decompressing zstd on the way); each
 * chunk is cut after its last '\n' and the tail carried into the next one, so no line
 * is ever split. Header lines go one at a time to the format's header(); the rest of
 * each chunk is split into one piece per thread at line ends. A first parallel pass
 * counts each piece's lines and records, a prefix sum gives every piece its first file
 * line and record number, and the second parallel pass parses. Pieces append arcs to
 * their own chains, which are concatenated in file order: the result does not depend
 * on the thread count. The first error in file order is reported.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "io_internal.h"
#include "ordo_util.h"

#define CHUNK (32u << 20)

bool io_fail(struct io_piece *pc, uint64_t line, int code, const char *fmt, ...)
{
	if (pc->err_line)
		return false;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(pc->err, sizeof pc->err, fmt, ap);
	va_end(ap);
	pc->err_line = line;
	pc->err_code = code;
	return false;
}

void io_token(const char *p, const char *e, char *buf, size_t cap)
{
	const char *q = p;
	while (q < e && *q != '\n' && *q != '\r' && *q != ' ' && *q != '\t' && (size_t)(q - p) < 24)
		q++;
	if (q == p) {
		snprintf(buf, cap, "end of line");
		return;
	}
	size_t k = 0;
	if (cap < 4)
		return;
	buf[k++] = '\'';
	for (const char *s = p; s < q && k + 2 < cap; s++)
		buf[k++] = (*s >= 32 && *s < 127) ? *s : '?';
	buf[k++] = '\'';
	buf[k < cap ? k : cap - 1] = 0;
}

int io_parse_double(const char **pp, const char *e, double *v)
{
	char tmp[64];
	const char *p = *pp, *q = p;
	while (q < e && *q != ' ' && *q != '\t' && *q != '\r' && *q != '\n')
		q++;
	size_t len = (size_t)(q - p);
	if (len == 0 || len >= sizeof tmp)
		return -1;
	memcpy(tmp, p, len);
	tmp[len] = 0;
	char *end;
	double d = strtod(tmp, &end);
	if (*end || d != d)
		return -1;
	*v = d;
	*pp = q;
	return 0;
}

void io_count_records(struct io_piece *pc, const char *comments, bool blank_is_record)
{
	uint64_t lines = 0, recs = 0;
	for (const char *p = pc->p; p < pc->end;) {
		const char *e = io_eol(p, pc->end);
		const char *q = io_skip_ws(p, e);
		lines++;
		recs += q < e ? strchr(comments, *q) == NULL : blank_is_record;
		p = e < pc->end ? e + 1 : pc->end;
	}
	pc->lines = lines;
	pc->records = recs;
}

static void default_count(void *st, struct io_piece *pc)
{
	(void)st;
	uint64_t lines = 0;
	const char *p = pc->p;
	while (p < pc->end) {
		const char *q = memchr(p, '\n', (size_t)(pc->end - p));
		if (!q)
			break;
		lines++;
		p = q + 1;
	}
	if (p < pc->end)
		lines++; /* last line without '\n' */
	pc->lines = pc->records = lines;
}

/* The driver's state across chunks. */
struct drive {
	struct io_text_fmt *fmt;
	void *st;
	const char *path;
	const struct ordo_load_opts *opts;
	struct io_piece *pcs;
	int T;
	uint64_t line, record; /* file line and record number of the next unparsed byte */
	bool in_header;
};

/* Hands header lines of [*p, end) to the format one at a time until it says the header
 * is complete; *p moves past the lines it consumed. */
static int header_lines(struct drive *d, const char **p, const char *end,
                        struct io_text_result *res, struct ordo_err *err)
{
	char msg[IO_MSG];
	while (d->in_header && *p < end) {
		const char *e = io_eol(*p, end);
		int h = d->fmt->header(d->st, *p, e, d->line, msg);
		if (h < 0)
			return ordo_err_set(err, h, "%s:%llu: %s", d->path,
			                    (unsigned long long)d->line, msg);
		if (h == 0) {
			d->in_header = false;
			ordo_chain_init(&res->arcs, d->fmt->weighted_chain);
			break;
		}
		d->line++;
		*p = e < end ? e + 1 : end;
	}
	return 0;
}

/* Parses [p, end), whole lines, in one piece per thread: a parallel pass counts each
 * piece's lines and records, a prefix sum gives each its first line and record, a
 * second parallel pass parses; the pieces' arcs are appended to res in file order, and
 * the first error in file order is returned. */
static int parse_span(struct drive *d, const char *p, const char *end, struct io_text_result *res,
                      struct ordo_err *err)
{
	const int T = d->T;
	struct io_piece *pcs = d->pcs;
	/* split into pieces at line ends */
	uint64_t len = (uint64_t)(end - p);
	const char *s = p;
	for (int t = 0; t < T; t++) {
		const char *e = t == T - 1 ? end : p + len * (uint64_t)(t + 1) / T;
		if (e < s)
			e = s;
		if (e < end && t < T - 1) {
			const char *nl = memchr(e, '\n', (size_t)(end - e));
			e = nl ? nl + 1 : end;
		}
		struct io_piece *pc = &pcs[t];
		memset(pc, 0, sizeof *pc);
		pc->p = s;
		pc->end = e;
		ordo_chain_init(&pc->chain, d->fmt->weighted_chain);
		/* bound for a compressed graph: pack the arcs as they come */
		pc->chain.pack = d->opts && d->opts->build.compress;
		pc->chain.spill = pc->chain.pack ? d->opts->build.spill : NULL;
		s = e;
	}
#pragma omp parallel for num_threads(T) schedule(static, 1)
	for (int t = 0; t < T; t++) {
		if (d->fmt->count)
			d->fmt->count(d->st, &pcs[t]);
		else
			default_count(d->st, &pcs[t]);
	}
	for (int t = 0; t < T; t++) {
		pcs[t].first_line = d->line;
		pcs[t].first_record = d->record;
		d->line += pcs[t].lines;
		d->record += pcs[t].records;
	}
#pragma omp parallel for num_threads(T) schedule(static, 1)
	for (int t = 0; t < T; t++) {
		if (pcs[t].p < pcs[t].end)
			d->fmt->parse(d->st, &pcs[t]);
		ordo_chain_seal(&pcs[t].chain);
	}
	int rc = 0;
	for (int t = 0; t < T; t++) {
		struct io_piece *pc = &pcs[t];
		if (!rc && pc->err_line)
			rc = ordo_err_set(err, pc->err_code ? pc->err_code : ORDO_EFORMAT,
			                  "%s:%llu: %s", d->path, (unsigned long long)pc->err_line,
			                  pc->err);
		if (!rc && pc->chain.oom)
			rc = ordo_err_set(err, ORDO_ENOMEM, "%s: out of memory reading arcs",
			                  d->path);
		for (int k = 0; k < 4; k++)
			res->cnt[k] += pc->cnt[k];
		ordo_chain_concat(&res->arcs, &pc->chain);
	}
	res->lines = d->line - 1;
	res->records = d->record;
	return rc;
}

/* Where a chunk of `have` bytes is cut: after its last '\n' (everything at EOF), with
 * NUL bytes and over-long lines refused. */
static int cut_chunk(const struct drive *d, const char *buf, uint64_t have, bool eof, uint64_t *cut,
                     struct ordo_err *err)
{
	*cut = have;
	if (!eof) {
		const char *nl = memrchr(buf, '\n', have);
		if (!nl)
			return ordo_err_set(err, ORDO_EFORMAT, "%s:%llu: line longer than %u MiB",
			                    d->path, (unsigned long long)d->line, CHUNK >> 20);
		*cut = (uint64_t)(nl - buf) + 1;
	}
	const char *z = memchr(buf, 0, *cut);
	if (z) {
		uint64_t l = d->line;
		for (const char *s = buf; s < z; s++)
			l += *s == '\n';
		return ordo_err_set(err, ORDO_EFORMAT,
		                    "%s:%llu: expected text, found a NUL byte (binary data?)",
		                    d->path, (unsigned long long)l);
	}
	return 0;
}

int io_text_run(struct io_in *in, const char *path, struct io_text_fmt *fmt, void *st, int threads,
                const struct ordo_load_opts *opts, struct io_text_result *res, struct ordo_err *err)
{
	struct drive d = {.fmt = fmt,
	                  .st = st,
	                  .path = path,
	                  .opts = opts,
	                  .T = threads > 0 ? threads : omp_get_max_threads(),
	                  .line = 1,
	                  .in_header = fmt->header != NULL};
	memset(res, 0, sizeof *res);
	char *buf = malloc(CHUNK + 1);
	d.pcs = calloc((size_t)d.T, sizeof *d.pcs);
	if (!buf || !d.pcs) {
		free(buf), free(d.pcs);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	}
	uint64_t have = 0;
	bool eof = false;
	int rc = 0;
	double last_progress = ordo_now();
	ordo_chain_init(&res->arcs, fmt->weighted_chain);
	while (!rc) {
		if (!eof && have < CHUNK) {
			int64_t r = io_in_read(in, buf + have, CHUNK - have, err);
			if (r < 0) {
				rc = (int)r;
				break;
			}
			if ((uint64_t)r < CHUNK - have)
				eof = true;
			have += (uint64_t)r;
			res->text_bytes += (uint64_t)r;
		}
		if (have == 0)
			break;
		uint64_t cut;
		if ((rc = cut_chunk(&d, buf, have, eof, &cut, err)))
			break;
		const char *p = buf, *end = buf + cut;
		if ((rc = header_lines(&d, &p, end, res, err)))
			break;
		if (!d.in_header && p < end && (rc = parse_span(&d, p, end, res, err)))
			break;
		memmove(buf, buf + cut, have - cut);
		have -= cut;
		if (opts && opts->progress && ordo_now() - last_progress > 0.5) {
			opts->progress(opts->progress_user, path, io_in_file_pos(in),
			               io_in_file_bytes(in));
			last_progress = ordo_now();
		}
		if (eof && have == 0)
			break;
	}
	if (!rc && d.in_header) {
		/* the whole file was header (or empty): let the format complain */
		char msg[IO_MSG];
		int h = fmt->header(st, NULL, NULL, d.line, msg);
		if (h < 0)
			rc = ordo_err_set(err, h, "%s:%llu: %s", path, (unsigned long long)d.line,
			                  msg);
	}
	res->lines = d.line - 1;
	free(buf);
	if (rc) {
		for (int t = 0; t < d.T; t++)
			ordo_chain_free(&d.pcs[t].chain);
		ordo_chain_free(&res->arcs);
	}
	free(d.pcs);
	return rc;
}

static int field_msg(int r, const char *q, const char *e, const char *what, uint64_t lo,
                     uint64_t hi, uint64_t v, char *msg)
{
	char tk[48];
	io_token(q, e, tk, sizeof tk);
	if (r == -3)
		return snprintf(msg, IO_MSG, "expected %s (non-negative), found negative %s", what,
		                tk),
		       ORDO_ERANGE;
	if (r == -2)
		return snprintf(msg, IO_MSG, "%s %s does not fit in 64 bits", what, tk),
		       ORDO_ERANGE;
	if (r == -1) {
		/* digits then a comma or semicolon: a CSV file, which no text format here is */
		const char *sep = q;
		while (sep < e && *sep >= '0' && *sep <= '9')
			sep++;
		if (sep > q && sep < e && (*sep == ',' || *sep == ';'))
			return snprintf(
			           msg, IO_MSG,
			           "expected %s, found %s: fields separated by '%c' (text graphs "
			           "separate them by spaces or tabs: tr '%c' ' ' < FILE)",
			           what, tk, *sep, *sep),
			       ORDO_EFORMAT;
		return snprintf(msg, IO_MSG, "expected %s, found %s", what, tk), ORDO_EFORMAT;
	}
	return snprintf(msg, IO_MSG, "%s %llu out of range (expected %llu..%llu)", what,
	                (unsigned long long)v, (unsigned long long)lo, (unsigned long long)hi),
	       ORDO_ERANGE;
}

bool io_field_fail(struct io_piece *pc, uint64_t line, const char **q, const char *e,
                   const char *what, uint64_t lo, uint64_t hi, uint64_t *v)
{
	const char *s = io_skip_ws(*q, e);
	int r = io_parse_u64(&s, e, v);
	char msg[IO_MSG];
	int code = field_msg(r, io_skip_ws(*q, e), e, what, lo, hi, *v, msg);
	return io_fail(pc, line, code, "%s", msg);
}

int io_hfield(const char **q, const char *e, const char *what, uint64_t lo, uint64_t hi,
              uint64_t *v, char *msg)
{
	const char *s = io_skip_ws(*q, e);
	int r = io_parse_u64(&s, e, v);
	if (r == 0 && *v >= lo && *v <= hi) {
		*q = s;
		return 0;
	}
	return field_msg(r, io_skip_ws(*q, e), e, what, lo, hi, *v, msg);
}

bool io_line_end(struct io_piece *pc, uint64_t line, const char *q, const char *e,
                 const char *after)
{
	q = io_skip_ws(q, e);
	if (__builtin_expect(q == e, 1))
		return true;
	char tk[48];
	io_token(q, e, tk, sizeof tk);
	return io_fail(pc, line, ORDO_EFORMAT, "expected end of line after %s, found %s", after,
	               tk);
}
