/*
 * fuzz_load - libFuzzer target for every reader: the input bytes become a file (memfd),
 * loaded with the format the first byte picks (or detected; bit 7: checksums resealed;
 * 7 and 15: Ligra and GAPBS).
 * A load must either fail with an error code and message, or give a graph that passes
 * ordo_graph_validate; it must never crash, hang, leak or read out of bounds (built
 * with ASan + UBSan).
 * Run by tests/fuzz_test.sh for a bounded time per seed corpus.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ordo_io.h"

void io_native_reseal(unsigned char *bytes, size_t len); /* io_internal.h */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	static const int formats[] = {ORDO_FMT_AUTO,     ORDO_FMT_DIMACS, ORDO_FMT_METIS,
	                              ORDO_FMT_EDGELIST, ORDO_FMT_MTX,    ORDO_FMT_GALOIS,
	                              ORDO_FMT_NATIVE,   ORDO_FMT_AUTO};
	/* 7: the formats added with the table, bit 3 picks which */
	int fmt = (data[0] & 7) == 7 ? ((data[0] & 8) ? ORDO_FMT_GAPBS : ORDO_FMT_LIGRA)
	                             : formats[data[0] & 7];
	int fd = memfd_create("fuzz", 0);
	if (fd < 0)
		return 0;
	/* bit 7: recompute a native file's checksums, so that mutations reach the checks
	 * behind them (the forged-kind crash sat there) */
	unsigned char *body = malloc(size);
	if (!body) {
		close(fd);
		return 0;
	}
	memcpy(body, data + 1, size - 1);
	if (data[0] & 128)
		io_native_reseal(body, size - 1);
	ssize_t wrote = write(fd, body, size - 1);
	free(body);
	if (wrote != (ssize_t)(size - 1)) {
		close(fd);
		return 0;
	}
	char path[64];
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	struct ordo_load_opts o;
	ordo_load_opts_init(&o);
	o.format = fmt;
	o.threads = 1;
	/* a legal header may declare a graph of gigabytes: refuse it at the header rather
	 * than time out allocating (the CLI's --mem-budget) */
	o.mem_budget = (uint64_t)256 << 20;
	/* (the loader refuses a rounding mode for any other format) */
	o.mtx_real =
	    fmt == ORDO_FMT_MTX && (data[0] & 8) ? ORDO_MTX_REAL_ROUND : ORDO_MTX_REAL_REJECT;
	o.build.dedup = (data[0] & 16) != 0;
	o.build.symmetrize = (data[0] & 32) != 0;
	o.build.compress = (data[0] & 64) != 0; /* the compressed builder and check */
	struct ordo_graph *g = NULL;
	struct ordo_err e = {0};
	int rc = ordo_load(path, &o, &g, NULL, &e);
	if (rc == 0) {
		if (ordo_graph_validate(g, &e))
			abort(); /* a loaded graph must be well formed */
		ordo_graph_free(g);
	} else if (g || e.msg[0] == 0) {
		abort(); /* errors leave no graph and always explain themselves */
	}
	close(fd);
	return 0;
}
