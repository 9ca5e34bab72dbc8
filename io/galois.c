/*
 * galois.c - Galois binary CSR `.gr`, version 1 (libgalois FileGraph), for interop.
 * Little-endian: u64 version (1), u64 sizeof(edge data) (0 or 4 here), u64 numNodes,
 * u64 numEdges; u64 outIdx[numNodes] (end offset of each node's arcs); u32
 * dests[numEdges]; 4 bytes of padding when numEdges is odd; then u32 edge data.
 * Version 2 (64-bit destinations) is recognised and rejected with a clear message.
 */
#include <stdlib.h>
#include <string.h>

#include "io_internal.h"

static int read_galois_in(struct io_in *in, const char *path, struct ordo_graph **out,
                          struct ordo_err *err)
{
	*out = NULL;
	uint64_t h[4];
	int rc = io_read_exact(in, path, h, sizeof h, 0, "header", err);
	if (rc)
		return rc;
	if (h[0] == 2)
		return ordo_err_set(err, ORDO_EUNSUPPORTED,
		                    "%s: byte 0: Galois .gr version 2 (64-bit node ids) is not "
		                    "supported; ordo uses 32-bit ids",
		                    path);
	if (h[0] != 1)
		return ordo_err_set(err, ORDO_EFORMAT,
		                    "%s: byte 0: expected Galois .gr version 1, found version %llu",
		                    path, (unsigned long long)h[0]);
	if (h[1] != 0 && h[1] != 4)
		return ordo_err_set(
		    err, ORDO_EUNSUPPORTED,
		    "%s: byte 8: expected edge data of 0 or 4 bytes (uint32 weights), "
		    "found %llu",
		    path, (unsigned long long)h[1]);
	uint64_t n = h[2], m = h[3];
	if (n > ORDO_MAX_NODES)
		return ordo_err_set(err, ORDO_ERANGE, "%s: byte 16: %llu nodes exceed 32-bit ids",
		                    path, (unsigned long long)n);
	uint64_t need = 32 + 8 * n + 4 * m + ((m & 1) ? 4 : 0) + (h[1] ? 4 * m : 0);
	if (m > (1ull << 40) ||
	    (!io_in_compressed(in) && io_in_regular(in) && need != io_in_file_bytes(in)))
		return ordo_err_set(
		    err, ORDO_EFORMAT,
		    "%s: byte 16: header says %llu nodes and %llu edges (%llu bytes), "
		    "the file has %llu bytes",
		    path, (unsigned long long)n, (unsigned long long)m, (unsigned long long)need,
		    (unsigned long long)io_in_file_bytes(in));
	rc = io_check_memory(path, "the graph", 8 * n + 8 * m, err);
	if (rc)
		return rc;
	struct ordo_graph *g;
	rc = ordo_graph_alloc((uint32_t)n, m, h[1] != 0, &g, err);
	if (rc)
		return rc;
	uint64_t at = 32;
	rc = io_read_exact(in, path, g->off + 1, 8 * n, at, "offsets", err);
	at += 8 * n;
	if (!rc)
		rc = io_read_exact(in, path, g->dst, 4 * m, at, "destinations", err);
	at += 4 * m;
	if (!rc && (m & 1)) {
		uint32_t pad;
		rc = io_read_exact(in, path, &pad, 4, at, "padding", err);
		at += 4;
	}
	if (!rc && h[1])
		rc = io_read_exact(in, path, g->w, 4 * m, at, "edge data", err);
	if (!rc)
		rc = io_expect_end(in, path, need, err);
	for (uint64_t u = 0; !rc && u < n; u++)
		if (g->off[u + 1] < g->off[u] || g->off[u + 1] > m)
			rc = ordo_err_set(err, ORDO_EFORMAT,
			                  "%s: byte %llu: offset of node %llu is %llu, expected "
			                  "%llu..%llu",
			                  path, (unsigned long long)(32 + 8 * u),
			                  (unsigned long long)u, (unsigned long long)g->off[u + 1],
			                  (unsigned long long)g->off[u], (unsigned long long)m);
	if (!rc && g->off[n] != m)
		rc = ordo_err_set(err, ORDO_EFORMAT,
		                  "%s: byte %llu: last offset is %llu, expected numEdges %llu",
		                  path, (unsigned long long)(32 + 8 * (n ? n - 1 : 0)),
		                  (unsigned long long)g->off[n], (unsigned long long)m);
	for (uint64_t e = 0; !rc && e < m; e++)
		if (g->dst[e] >= n)
			rc = ordo_err_set(err, ORDO_EFORMAT,
			                  "%s: byte %llu: destination %u of edge %llu is not below "
			                  "numNodes %llu",
			                  path, (unsigned long long)(32 + 8 * n + 4 * e), g->dst[e],
			                  (unsigned long long)e, (unsigned long long)n);
	if (rc) {
		ordo_graph_free(g);
		return rc;
	}
	*out = g;
	return 0;
}

static int read_galois(struct io_in *in, const char *path, const struct ordo_load_opts *opts,
                       struct ordo_graph **out, struct ordo_load_info *info, struct ordo_err *err)
{
	(void)opts;
	info->file_bytes = io_in_file_bytes(in);
	return read_galois_in(in, path, out, err);
}

static int write_galois(const char *path, int fmt, const struct ordo_graph *g,
                        const struct ordo_save_opts *o, struct ordo_err *err)
{
	(void)o, (void)fmt;
	struct io_out *out;
	int rc = io_out_open(path, 0, &out, err);
	if (rc)
		return rc;
	uint64_t h[4] = {1, g->w ? 4 : 0, g->n, g->m};
	rc = io_out_write(out, h, sizeof h, err);
	if (!rc)
		rc = io_out_write(out, g->off + 1, 8 * (uint64_t)g->n, err);
	if (!rc)
		rc = io_out_write(out, g->dst, 4 * g->m, err);
	if (!rc && (g->m & 1)) {
		uint32_t pad = 0;
		rc = io_out_write(out, &pad, 4, err);
	}
	if (!rc && g->w)
		rc = io_out_write(out, g->w, 4 * g->m, err);
	int rc2 = io_out_close(out, rc == 0, err);
	return rc ? rc : rc2;
}

static bool sniff_galois(const unsigned char *buf, uint64_t len, uint64_t file_bytes,
                         bool compressed)
{
	(void)file_bytes, (void)compressed;
	uint64_t w0, w1;
	if (len < 16)
		return false;
	memcpy(&w0, buf, 8);
	memcpy(&w1, buf + 8, 8);
	return (w0 == 1 || w0 == 2) && w1 <= 8 && memchr(buf, 0, len);
}

const struct io_format io_format_galois = {
    .info = {.name = "galois",
             .aliases = "ggr",
             .exts = "ggr sgr tgr",
             .summary = "Galois binary CSR .gr version 1 (uint32 weights or none)",
             .flags =
                 ORDO_FORMAT_GRAPH | ORDO_FORMAT_BINARY | ORDO_FORMAT_READ | ORDO_FORMAT_WRITE},
    .sniff = sniff_galois,
    .read_graph = read_galois,
    .write = write_galois};
