/*
 * cz_internal.h - the compressed CSR's encoder, shared by compress.c and the builder
 * (internal to graph/).
 */
#ifndef ORDO_CZ_INTERNAL_H
#define ORDO_CZ_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "ordo_graph.h"

/* One encoding job's bytes. */
struct ordo_cz_chunk {
	uint8_t *buf;
	uint64_t bytes;
	uint32_t lo, hi; /* its nodes */
};

/* Node u's bytes for its d arcs a[] (target << 32 | weight, sorted), gap-coded or
 * source-relative below ORDO_CZ_GROUP_MIN arcs, grouped from there; flags are the
 * graph's cz_flags. Returns their count; with out NULL, only counts. */
uint64_t ordo_cz_node_code(uint8_t *out, uint32_t u, const uint64_t *a, uint64_t d, bool srcrel,
                           uint32_t flags, uint32_t wbase);
/* The cz_flags for a graph whose weights span wbase..wmax. */
uint32_t ordo_cz_weight_flags(bool weighted, uint32_t wbase, uint32_t wmax);
/* Encodes nodes [lo, hi), whose arcs (target << 32 | weight, each list sorted) are
 * pairs[loff[u-lo] .. loff[u-lo+1]), into a new buffer: each block of 16 nodes in the
 * shorter of its two codes. Writes node u's length to len[u - lo] and block b's mode
 * bit (b counted from lo / 16) to modes; lo must be a multiple of 128, so that mode
 * bytes are whole (callers pass modes + lo / 128). False when out of memory. */
bool ordo_cz_encode_range(uint32_t lo, uint32_t hi, const uint64_t *loff, const uint64_t *pairs,
                          uint32_t flags, uint32_t wbase, uint64_t *len, uint8_t *modes,
                          struct ordo_cz_chunk *out);
/* Places the chunks' nodes (freeing each chunk) in g's byte stream, padded where a
 * block needs a shift, and indexes it from len (n + 1 entries; the node lengths, padded
 * on return) and the mode bits. g->n, m, cz_wbase and cz_flags are set. */
int ordo_cz_assemble(struct ordo_graph *g, struct ordo_cz_chunk *ch, uint64_t nch, uint64_t *len,
                     const uint8_t *modes, int threads, struct ordo_err *err);
/* Frees what is left of the chunks, and the array. */
void ordo_cz_free_chunks(struct ordo_cz_chunk *ch, uint64_t nch);

#endif
