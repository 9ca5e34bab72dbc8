/*
 * apps_check.h - the app checks shared by the Criterion suite (test_apps) and the plain
 * driver over the real graphs of ../shared/inputs (apps_inputs): every registered
 * scheduler at 1, 2 and 4 threads (and 16 where asked), each run verified against the
 * exact sequential baseline. Each returns 0, or -1 with a message.
 */
#ifndef ORDO_TEST_APPS_CHECK_H
#define ORDO_TEST_APPS_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "ordo_graph.h"

/* BFS levels from a fixed-seed source with every scheduler, and in the frontier mode
 * (push, pull and Beamer's rule) from three sources. */
int apps_bfs_all(const struct ordo_graph *g, const char *what, int maxT, char *msg, size_t cap);
/* Frontier runs so far that handed their frontier to a scheduler (a round pushed first:
 * a graph whose first round is pulled finishes in rounds). */
extern uint64_t apps_bfs_handoffs;
/* A* on `pairs` fixed-seed reachable pairs (g needs coordinates), distances against
 * Dijkstra; the default heuristic scale is checked to be consistent on every arc. */
int apps_astar_all(const struct ordo_graph *g, const char *what, int maxT, int pairs, char *msg,
                   size_t cap);
/* Minimum spanning forest (g symmetric) against Kruskal. */
int apps_mst_all(const struct ordo_graph *g, const char *what, int maxT, char *msg, size_t cap);
/* k-core numbers (g symmetric) against Batagelj-Zaversnik: every scheduler with the
 * bounds operator, then level-synchronous peeling. */
int apps_kcore_all(const struct ordo_graph *g, const char *what, int maxT, char *msg, size_t cap);
/* Connected components (g symmetric) against union-find: every scheduler with label
 * propagation, then Afforest with 0, 1 and 2 sampling rounds. */
int apps_cc_all(const struct ordo_graph *g, const char *what, int maxT, char *msg, size_t cap);
/* PageRank (damping 0.85) within tol in L1 of a power iteration: the sequential push,
 * then every scheduler, each given wl_params where it has them and they are not its
 * defaults (NULL: none; ORDO_PAGERANK_WL_PARAMS: as the pagerank binary runs them), then
 * the pull sweeps. */
int apps_pagerank_all(const struct ordo_graph *g, const char *what, int maxT, double tol,
                      const char *wl_params, char *msg, size_t cap);
/* SSSP's live form (ordo_sssp_live) with every scheduler at 1, 2, 4 and maxT threads, a
 * different grain at each, against Dijkstra. */
int apps_sssp_live_all(const struct ordo_graph *g, const char *what, int maxT, char *msg,
                       size_t cap);

/* A ladder of H rails of W nodes (arcs of weight 1 along a rail, all ties) joined by
 * rungs heavier further along (1000 + column), symmetric. A rail of a few thousand
 * nodes is an MST component whose segment scans run in parts (MST_SCAN_CHUNK), and its
 * lightest fronts, the leftmost rungs, sit in one part: that part's floor alone says
 * what the merged list left out (checked builds check the list). Its forest weighs
 * H (W - 1) + 1000 (H - 1). */
int apps_ladder(uint32_t W, uint32_t H, struct ordo_graph **out, char *msg, size_t cap);

/* The same sequential answers (Dijkstra distances and BFS levels from the first picked
 * source; on symmetric graphs the forest and every core number) on a plain graph and
 * its compressed copy. */
int apps_same_answers(const struct ordo_graph *plain, const struct ordo_graph *compressed,
                      const char *what, char *msg, size_t cap);

#endif
