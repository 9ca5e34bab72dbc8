/*
 * gapbs.c - the GAP Benchmark Suite's serialized graphs, .sg (unweighted) and .wsg
 * (weighted), read and written. Little-endian, no magic:
 *
 *   bool  directed                      1 byte, 0 or 1
 *   int64 m                             arcs of the out-CSR (both directions of an
 *                                       undirected graph)
 *   int64 n
 *   int64 out_offsets[n + 1]            0 .. m, non-decreasing
 *   out_neighbours[m]                   .sg: int32 target; .wsg: {int32 target, int32 w}
 *   if directed: in_offsets[n + 1] and in_neighbours[m], the same shapes
 *
 * The size of the file follows from the header, and that is how a file is recognised
 * (and .sg told from .wsg: the neighbour width is the one that makes the size exact;
 * for m = 0 the extension decides). ordo reads the out-CSR and checks every offset and
 * target; the in-CSR of a directed file is skipped (ordo builds its own transpose when
 * an app pulls). directed = 0 is the file's claim that the graph is symmetric, as
 * GAPBS's builder makes it; the loader checks it (load.c, whole_graph_rules: a graph
 * whose arcs do not match their reverses is read as directed, with a note) and drops
 * self-loops as for every format. Weights
 * must be non-negative (ordo's are unsigned); ids and weights written must fit int32.
 */
#include <stdlib.h>
#include <string.h>

#include "io_internal.h"

#define HEAD 17 /* bool + two int64 */

/* Bytes a file with this header has, for neighbour records of `nb` bytes; 0 when the
 * header's numbers are out of any possible range. */
static uint64_t sg_bytes(bool directed, uint64_t n, uint64_t m, uint64_t nb)
{
	if (n > ORDO_MAX_NODES || m > (1ull << 40))
		return 0;
	return HEAD + (directed ? 2 : 1) * (8 * (n + 1) + nb * m);
}

struct sg_head {
	bool directed, weighted;
	uint64_t n, m;
};

/* Reads the header from 17 bytes; returns false when no neighbour width makes the
 * file size exact. The extension settles m = 0 (both widths fit). */
static bool sg_decode(const unsigned char *b, uint64_t file_bytes, const char *path,
                      struct sg_head *h)
{
	if (b[0] > 1)
		return false;
	int64_t m, n;
	memcpy(&m, b + 1, 8);
	memcpy(&n, b + 9, 8);
	if (m < 0 || n < 0)
		return false;
	h->directed = b[0];
	h->n = (uint64_t)n;
	h->m = (uint64_t)m;
	const uint64_t plain = sg_bytes(h->directed, h->n, h->m, 4);
	const uint64_t wide = sg_bytes(h->directed, h->n, h->m, 8);
	if (!plain || (file_bytes != plain && file_bytes != wide))
		return false;
	h->weighted =
	    file_bytes == wide && (file_bytes != plain || (path && io_has_ext(path, "wsg")));
	return true;
}

static bool sniff_gapbs(const unsigned char *buf, uint64_t len, uint64_t file_bytes,
                        bool compressed)
{
	struct sg_head h;
	return !compressed && len >= HEAD && sg_decode(buf, file_bytes, NULL, &h);
}

/* The message for a header sg_decode refused: a bad flag, sizes out of range, or a file
 * whose size is not the header's layout. */
static int bad_header(const unsigned char *b, uint64_t size, const char *path, struct ordo_err *err)
{
	int64_t m, n;
	memcpy(&m, b + 1, 8);
	memcpy(&n, b + 9, 8);
	return b[0] > 1 ? ordo_err_set(err, ORDO_EFORMAT,
	                               "%s: byte 0: expected the directed flag, 0 or 1, found %u",
	                               path, b[0])
	       : (m < 0 || n < 0 || (uint64_t)n > ORDO_MAX_NODES || (uint64_t)m > (1ull << 40))
	           ? ordo_err_set(err, ORDO_ERANGE,
	                          "%s: byte 1: expected m and n within 0..2^40 and "
	                          "0..%llu, found m = %lld, n = %lld",
	                          path, (unsigned long long)ORDO_MAX_NODES, (long long)m,
	                          (long long)n)
	           : ordo_err_set(err, ORDO_EFORMAT,
	                          "%s: byte 0: header says %s, n = %lld, m = %lld: expected "
	                          "%llu bytes (.sg) or %llu (.wsg), the file has %llu "
	                          "(truncated?)",
	                          path, b[0] ? "directed" : "undirected", (long long)n,
	                          (long long)m,
	                          (unsigned long long)sg_bytes(b[0], (uint64_t)n, (uint64_t)m, 4),
	                          (unsigned long long)sg_bytes(b[0], (uint64_t)n, (uint64_t)m, 8),
	                          (unsigned long long)size);
}

/* A weighted file's {target, weight} pairs into g's two arrays, a chunk at a time, from
 * byte `at`. */
static int read_pairs(struct io_in *in, const char *path, struct ordo_graph *g, uint64_t m,
                      uint64_t at, struct ordo_err *err)
{
	int rc = 0;
	enum { CH = 1 << 16 };
	uint32_t *pairs = malloc(8 * CH);
	if (!pairs)
		rc = ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	for (uint64_t e = 0; !rc && e < m; e += CH) {
		const uint64_t k = m - e < CH ? m - e : CH;
		rc = io_read_exact(in, path, pairs, 8 * k, at + 8 * e, "the out-neighbours", err);
		for (uint64_t i = 0; !rc && i < k; i++) {
			g->dst[e + i] = pairs[2 * i];
			g->w[e + i] = pairs[2 * i + 1];
			if ((int32_t)pairs[2 * i + 1] < 0)
				rc = ordo_err_set(
				    err, ORDO_ERANGE,
				    "%s: byte %llu: expected a non-negative weight for "
				    "arc %llu, found %d",
				    path, (unsigned long long)(at + 8 * (e + i) + 4),
				    (unsigned long long)(e + i), (int32_t)pairs[2 * i + 1]);
		}
	}
	free(pairs);
	return rc;
}

static int read_gapbs(struct io_in *in, const char *path, const struct ordo_load_opts *o,
                      struct ordo_graph **out, struct ordo_load_info *info, struct ordo_err *err)
{
	(void)o;
	*out = NULL;
	int rc = 0;
	if (!io_in_regular(in))
		return ordo_err_set(err, ORDO_EUNSUPPORTED,
		                    "%s: a GAPBS file from a pipe: its layout is checked against "
		                    "the file's size; give the file itself",
		                    path);
	const uint64_t size = info->file_bytes = io_in_file_bytes(in);
	struct ordo_graph *g = NULL;
	unsigned char b[HEAD];
	struct sg_head h = {.n = 0};
	if (io_in_compressed(in))
		rc = ordo_err_set(err, ORDO_EUNSUPPORTED,
		                  "%s: a zstd-compressed GAPBS file; decompress it first", path);
	if (!rc)
		rc = io_read_exact(in, path, b, HEAD, 0, "the header (directed, m, n)", err);
	if (!rc && !sg_decode(b, size, path, &h))
		rc = bad_header(b, size, path, err);
	if (!rc)
		rc = io_check_memory(path, "the graph", 8 * (h.n + 1) + (h.weighted ? 8 : 4) * h.m,
		                     err);
	if (!rc)
		rc = ordo_graph_alloc((uint32_t)h.n, h.m, h.weighted, &g, err);
	uint64_t at = HEAD;
	if (!rc)
		rc = io_read_exact(in, path, g->off, 8 * (h.n + 1), at, "the out-offsets", err);
	for (uint64_t u = 0; !rc && u <= h.n; u++)
		if (g->off[u] > h.m || (u && g->off[u] < g->off[u - 1]) || (u == 0 && g->off[0]) ||
		    (u == h.n && g->off[u] != h.m))
			rc = ordo_err_set(
			    err, ORDO_EFORMAT,
			    "%s: byte %llu: expected the offset of node %llu %s, found "
			    "%lld",
			    path, (unsigned long long)(at + 8 * u), (unsigned long long)u,
			    u == 0     ? "to be 0"
			    : u == h.n ? "(the end) to be m"
			               : "to be at least the one before and at most m",
			    (long long)g->off[u]);
	at += 8 * (h.n + 1);
	if (!rc && !h.weighted)
		rc = io_read_exact(in, path, g->dst, 4 * h.m, at, "the out-neighbours", err);
	if (!rc && h.weighted)
		rc = read_pairs(in, path, g, h.m, at, err);
	for (uint64_t e = 0; !rc && e < h.m; e++)
		if (g->dst[e] >= h.n)
			rc = ordo_err_set(
			    err, ORDO_EFORMAT,
			    "%s: byte %llu: expected the target of arc %llu below n = "
			    "%llu, found %d",
			    path, (unsigned long long)(at + (h.weighted ? 8 : 4) * e),
			    (unsigned long long)e, (unsigned long long)h.n, (int32_t)g->dst[e]);
	/* the in-CSR of a directed file: its size was checked with the header; skipped */
	if (rc) {
		ordo_graph_free(g);
		return rc;
	}
	if (!h.directed)
		g->flags |= ORDO_GRAPH_SYMMETRIC;
	*out = g;
	return 0;
}

/* Writes one CSR: offsets, then targets (with weights when `weighted`). */
static int put_csr(struct io_out *out, const struct ordo_graph *g, bool weighted,
                   struct ordo_err *err)
{
	int rc = io_out_write(out, g->off, 8 * ((uint64_t)g->n + 1), err);
	if (!rc && !weighted)
		return io_out_write(out, g->dst, 4 * g->m, err);
	enum { CH = 1 << 16 };
	uint32_t *pairs = rc ? NULL : malloc(8 * CH);
	if (!rc && !pairs)
		rc = ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	for (uint64_t e = 0; !rc && e < g->m; e += CH) {
		const uint64_t k = g->m - e < CH ? g->m - e : CH;
		for (uint64_t i = 0; i < k; i++) {
			pairs[2 * i] = g->dst[e + i];
			pairs[2 * i + 1] = g->w ? g->w[e + i] : 1;
		}
		rc = io_out_write(out, pairs, 8 * k, err);
	}
	free(pairs);
	return rc;
}

static int write_gapbs(const char *path, int fmt, const struct ordo_graph *g,
                       const struct ordo_save_opts *o, struct ordo_err *err)
{
	(void)fmt;
	/* .wsg: weighted (weight 1 where g has none); .sg: unweighted (g's weights, if any,
	 * are not written); another name: as g is */
	const bool weighted = io_has_ext(path, "wsg") || (!io_has_ext(path, "sg") && g->w);
	if (g->n > (uint32_t)INT32_MAX)
		return ordo_err_set(err, ORDO_ERANGE,
		                    "%s: %u nodes do not fit GAPBS's 32-bit signed ids", path,
		                    g->n);
	for (uint64_t e = 0; weighted && g->w && e < g->m; e++)
		if (g->w[e] > (uint32_t)INT32_MAX)
			return ordo_err_set(
			    err, ORDO_ERANGE,
			    "%s: arc %llu has weight %u, above GAPBS's int32 weights", path,
			    (unsigned long long)e, g->w[e]);
	const bool directed = !(g->flags & ORDO_GRAPH_SYMMETRIC);
	struct ordo_graph *in = NULL;
	int rc = 0;
	if (directed && (rc = ordo_graph_transposed_weighted(g, o->threads, &in, err)))
		return rc;
	struct io_out *out = NULL;
	if (!rc)
		rc = io_out_open(path, 0, &out, err);
	if (!rc) {
		unsigned char head[HEAD] = {directed};
		const int64_t m = (int64_t)g->m, n = (int64_t)g->n;
		memcpy(head + 1, &m, 8);
		memcpy(head + 9, &n, 8);
		rc = io_out_write(out, head, HEAD, err);
		if (!rc)
			rc = put_csr(out, g, weighted, err);
		if (!rc && directed)
			rc = put_csr(out, in, weighted, err);
		int rc2 = io_out_close(out, rc == 0, err);
		rc = rc ? rc : rc2;
	}
	ordo_graph_free(in);
	return rc;
}

const struct io_format io_format_gapbs = {
    .info = {.name = "gapbs",
             .aliases = "sg wsg",
             .exts = "sg wsg",
             .summary = "GAPBS serialized CSR: .sg unweighted, .wsg weighted (int32)",
             .flags =
                 ORDO_FORMAT_GRAPH | ORDO_FORMAT_BINARY | ORDO_FORMAT_READ | ORDO_FORMAT_WRITE},
    .sniff = sniff_gapbs,
    .read_graph = read_gapbs,
    .write = write_gapbs};
