/*
 * ordo_gen.h - the graph generators (road, grid, R-MAT).
 * Part of the graph module; ordo_graph.h includes it.
 */
#ifndef ORDO_GEN_H
#define ORDO_GEN_H

#include "ordo_csr.h"

/* ---- Generators (ordo-gen) -----------------------------------------------------
 * spec: "road:W=..,H=..,seed=..", "rmat:scale=..,ef=..,seed=..,wlo=..,whi=..",
 * "grid:W=..,H=..,lo=..,hi=..,seed=..". Output depends only on the spec. */
int ordo_generate(const char *spec, int threads, struct ordo_graph **out, char *resolved,
                  size_t resolved_cap, struct ordo_err *err);
struct ordo_spill;

/* The same, compressed when `compress`: R-MAT arcs wait packed and go straight into the
 * compressed builder (the plain graph never exists, so the peak is about the compressed
 * graph plus the packed arcs; with a spill file (ordo_spill_open, may be NULL) the
 * packed arcs wait there instead, and the peak is about the compressed graph plus one
 * partition); the lattices are converted after. */
int ordo_generate_as(const char *spec, int threads, bool compress, struct ordo_spill *spill,
                     struct ordo_graph **out, char *resolved, size_t resolved_cap,
                     struct ordo_err *err);
/* Lists the generators and their parameters, one per line, into buf. */
void ordo_generate_help(char *buf, size_t cap);
/* What generating `spec` makes, before any of it is made: nodes, arcs (for a road
 * graph, the expected count from its keep and diag rates) and the bytes of its CSR
 * plus what the generation holds besides (coordinates, R-MAT's drawn arcs), so that a
 * caller can refuse it under a memory budget. EINVAL for a bad spec, as generating. */
int ordo_generate_size(const char *spec, uint64_t *nodes, uint64_t *arcs, uint64_t *bytes,
                       struct ordo_err *err);

#endif
