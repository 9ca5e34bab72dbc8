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

static int read_exact(struct io_in *in, const char *path, void *buf, uint64_t len, uint64_t at,
                      const char *what, struct ordo_err *err)
{
	int64_t r = io_in_read(in, buf, len, err);
	if (r < 0)
		return (int)r;
	if ((uint64_t)r != len)
		return ordo_err_set(
		    err, ORDO_EFORMAT,
		    "%s: byte %llu: expected %llu bytes of %s, found %lld (truncated "
		    "file)",
		    path, (unsigned long long)(at + (uint64_t)r), (unsigned long long)len, what,
		    (long long)r);
	return 0;
}

int io_read_galois(struct io_in *in, const char *path, struct ordo_graph **out,
                   struct ordo_err *err)
{
	*out = NULL;
	uint64_t h[4];
	int rc = read_exact(in, path, h, sizeof h, 0, "header", err);
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
	if (m > (1ull << 40) || (!io_in_compressed(in) && need != io_in_file_bytes(in)))
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
	rc = read_exact(in, path, g->off + 1, 8 * n, at, "offsets", err);
	at += 8 * n;
	if (!rc)
		rc = read_exact(in, path, g->dst, 4 * m, at, "destinations", err);
	at += 4 * m;
	if (!rc && (m & 1)) {
		uint32_t pad;
		rc = read_exact(in, path, &pad, 4, at, "padding", err);
		at += 4;
	}
	if (!rc && h[1])
		rc = read_exact(in, path, g->w, 4 * m, at, "edge data", err);
	if (!rc) {
		char extra;
		int64_t r = io_in_read(in, &extra, 1, err);
		if (r > 0)
			rc = ordo_err_set(err, ORDO_EFORMAT,
			                  "%s: byte %llu: expected end of file, found more data",
			                  path, (unsigned long long)(need));
		else if (r < 0)
			rc = (int)r;
	}
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

int io_write_galois(const char *path, const struct ordo_graph *g, const struct ordo_save_opts *o,
                    struct ordo_err *err)
{
	(void)o;
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
