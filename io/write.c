/*
 * write.c - text writers: DIMACS .gr and .co, METIS .graph and .xyz, edge lists and
 * Matrix Market. Nodes are formatted in parallel, batch by batch, into per-thread
 * buffers that are written in node order, so the output is identical for every thread
 * count. Output goes through io_out: a temporary file renamed at the end (zstd when
 * the name ends in .zst).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "io_internal.h"

struct obuf {
	char *p;
	size_t len, cap;
	bool oom;
};

static void ob_reserve(struct obuf *b, size_t more)
{
	if (b->len + more <= b->cap)
		return;
	size_t cap = (b->cap ? b->cap * 2 : 1 << 16);
	while (cap < b->len + more)
		cap *= 2;
	char *p = realloc(b->p, cap);
	if (!p) {
		b->oom = true;
		return;
	}
	b->p = p;
	b->cap = cap;
}

static inline char *put_i64(char *s, int64_t v)
{
	if (v < 0) {
		*s++ = '-';
		return io_put_u64(s, (uint64_t)(-(v + 1)) + 1);
	}
	return io_put_u64(s, (uint64_t)v);
}

/* room for one line of up to 4 numbers */
#define LINE_MAX_BYTES 128

static void fmt_coord(struct obuf *b, const struct ordo_graph *g, uint32_t u, bool co)
{
	ob_reserve(b, LINE_MAX_BYTES);
	if (b->oom)
		return;
	char *s = b->p + b->len;
	if (co) {
		memcpy(s, "v ", 2);
		s = io_put_u64(s + 2, (uint64_t)u + 1);
		*s++ = ' ';
	}
	if (g->coord_kind == ORDO_COORD_INT32) {
		const int32_t *c = g->coord;
		s = put_i64(s, c[2 * (size_t)u]);
		*s++ = ' ';
		s = put_i64(s, c[2 * (size_t)u + 1]);
	} else {
		const double *c = g->coord;
		if (co) {
			s = put_i64(s, llround(c[2 * (size_t)u]));
			*s++ = ' ';
			s = put_i64(s, llround(c[2 * (size_t)u + 1]));
		} else {
			s += snprintf(s, 60, "%.17g %.17g", c[2 * (size_t)u], c[2 * (size_t)u + 1]);
		}
	}
	if (!co) {
		memcpy(s, " 0", 2);
		s += 2;
	}
	*s++ = '\n';
	b->len = (size_t)(s - b->p);
}

static void fmt_node(struct obuf *b, const struct ordo_graph *g, uint32_t u, int fmt)
{
	if (fmt == ORDO_FMT_CO || fmt == ORDO_FMT_XYZ) {
		fmt_coord(b, g, u, fmt == ORDO_FMT_CO);
		return;
	}
	uint64_t lo = g->off[u], hi = g->off[u + 1];
	if (fmt == ORDO_FMT_METIS) {
		ob_reserve(b, (hi - lo) * 24 + 2);
		if (b->oom)
			return;
		char *s = b->p + b->len;
		for (uint64_t e = lo; e < hi; e++) {
			if (e > lo)
				*s++ = ' ';
			s = io_put_u64(s, (uint64_t)g->dst[e] + 1);
			if (g->w) {
				*s++ = ' ';
				s = io_put_u64(s, g->w[e]);
			}
		}
		*s++ = '\n';
		b->len = (size_t)(s - b->p);
		return;
	}
	ob_reserve(b, (hi - lo) * 40);
	if (b->oom)
		return;
	char *s = b->p + b->len;
	bool one = fmt != ORDO_FMT_EDGELIST; /* 1-based */
	for (uint64_t e = lo; e < hi; e++) {
		if (fmt == ORDO_FMT_DIMACS) {
			memcpy(s, "a ", 2);
			s += 2;
		}
		s = io_put_u64(s, (uint64_t)u + one);
		*s++ = ' ';
		s = io_put_u64(s, (uint64_t)g->dst[e] + one);
		if (g->w || fmt == ORDO_FMT_DIMACS) {
			*s++ = ' ';
			s = io_put_u64(s, g->w ? g->w[e] : 1);
		}
		*s++ = '\n';
	}
	b->len = (size_t)(s - b->p);
}

/* Every arc has a reverse arc of the same weight (METIS stores undirected graphs): the
 * graph's mark, or the check over its arcs (ordo_graph_arcs_symmetric). */
static bool symmetric(const struct ordo_graph *g)
{
	return (g->flags & ORDO_GRAPH_SYMMETRIC) || ordo_graph_arcs_symmetric(g);
}

int io_write_text(const char *path, int fmt, const struct ordo_graph *g,
                  const struct ordo_save_opts *o, struct ordo_err *err)
{
	if ((fmt == ORDO_FMT_CO || fmt == ORDO_FMT_XYZ) && g->coord_kind == ORDO_COORD_NONE)
		return ordo_err_set(err, ORDO_EINVAL, "%s: the graph has no coordinates to write",
		                    path);
	if (fmt == ORDO_FMT_METIS && !symmetric(g))
		return ordo_err_set(
		    err, ORDO_EINVAL,
		    "%s: METIS stores undirected graphs; this graph has arcs without "
		    "a reverse arc of the same weight (load it with --symmetrize)",
		    path);
	struct io_out *out;
	int rc = io_text_out_open(path, o, &out, err);
	if (rc)
		return rc;
	char head[256];
	int hl = 0;
	switch (fmt) {
	case ORDO_FMT_DIMACS:
		hl = snprintf(head, sizeof head, "c written by ordo\n%sp sp %u %llu\n",
		              g->flags & ORDO_GRAPH_SYMMETRIC ? IO_SYM_DIMACS "\n" : "", g->n,
		              (unsigned long long)g->m);
		break;
	case ORDO_FMT_CO:
		hl = snprintf(head, sizeof head, "c written by ordo (unit: %s)\np aux sp co %u\n",
		              g->coord_unit[0] ? g->coord_unit : "unknown", g->n);
		break;
	case ORDO_FMT_METIS:
		hl = snprintf(head, sizeof head, "%% written by ordo\n%u %llu%s\n", g->n,
		              (unsigned long long)(g->m / 2), g->w ? " 1" : "");
		break;
	case ORDO_FMT_MTX:
		hl = snprintf(head, sizeof head,
		              "%%%%MatrixMarket matrix coordinate %s general\n%% written by "
		              "ordo\n%u %u %llu\n",
		              g->w ? "integer" : "pattern", g->n, g->n, (unsigned long long)g->m);
		break;
	case ORDO_FMT_EDGELIST:
		hl = snprintf(head, sizeof head, "# written by ordo: %u nodes, %llu arcs, %s%s\n",
		              g->n, (unsigned long long)g->m, g->w ? "u v weight" : "u v",
		              g->flags & ORDO_GRAPH_SYMMETRIC ? IO_SYM_WORD : "");
		break;
	default:
		break;
	}
	rc = io_out_write(out, head, (uint64_t)hl, err);
	int T = o->threads > 0 ? o->threads : omp_get_max_threads();
	struct obuf *bufs = calloc((size_t)T, sizeof *bufs);
	if (!bufs && !rc)
		rc = ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	const uint64_t batch = 1 << 14;
	for (uint64_t base = 0; !rc && base < g->n; base += batch * (uint64_t)T) {
#pragma omp parallel for num_threads(T) schedule(static, 1)
		for (int t = 0; t < T; t++) {
			struct obuf *b = &bufs[t];
			b->len = 0;
			uint64_t lo = base + batch * (uint64_t)t;
			uint64_t hi = lo + batch < g->n ? lo + batch : g->n;
			for (uint64_t u = lo; u < hi && !b->oom; u++)
				fmt_node(b, g, (uint32_t)u, fmt);
		}
		for (int t = 0; t < T && !rc; t++) {
			if (bufs[t].oom)
				rc = ordo_err_set(err, ORDO_ENOMEM, "out of memory");
			else
				rc = io_out_write(out, bufs[t].p, bufs[t].len, err);
		}
	}
	if (bufs)
		for (int t = 0; t < T; t++)
			free(bufs[t].p);
	free(bufs);
	int rc2 = io_out_close(out, rc == 0, err);
	return rc ? rc : rc2;
}
