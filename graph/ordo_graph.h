/*
 * ordo_graph.h - the graph module in one include: the CSR graph every ordo algorithm
 * runs on (ordo_csr.h: the struct, its accessors, its life cycle and conversions) and
 * the module's other headers:
 *   ordo_arcs.h   arc iteration, the compressed decoder, prefetch stages
 *   ordo_edges.h  edge streams (chains of blocks) and the builder, transforms
 *   ordo_order.h  node orders (renumbering) and source picking
 *   ordo_gen.h    the generators
 */
#ifndef ORDO_GRAPH_H
#define ORDO_GRAPH_H

#include "ordo_arcs.h"    /* IWYU pragma: export */
#include "ordo_csr.h"     /* IWYU pragma: export */
#include "ordo_edges.h"   /* IWYU pragma: export */
#include "ordo_gen.h"     /* IWYU pragma: export */
#include "ordo_order.h"   /* IWYU pragma: export */
#include "ordo_prepare.h" /* IWYU pragma: export */

#endif
