// galois_prpush.cc - a driver around Galois 6's pagerank-push (IntelligentSoftwareSystems/Galois,
// lonestar/analytics/cpu/pagerank/PageRank-push.cpp unmodified), for bench/galois_ops.py.
// The app prints its 20 highest ranks and its time (Timer_0); issue 46 compares PageRank at
// equal accuracy, so this driver replaces only that printout: after the timed run it measures
// the L1 distance of all the ranks, scaled to sum 1, from reference ranks. bench/galois_ops.py
// compiles it with the flags Galois' own build used for pagerank-push-cpu.
//
//   ORDO_REF_RANKS=ref.f64 galois_prpush FILE.gr -t=N [-tolerance=T] [-algo=Async|Sync]
//
// ref.f64 holds the graph's n reference ranks as raw little-endian doubles, summing to 1.
// Prints Galois' STAT lines (Timer_0 among them) and "L1: X". Galois' ranks are unscaled
// (each node starts with residual 1 - alpha); a dangling node's lost rank scales away, as
// both solve x = alpha P^T x + c 1.
#include <cmath>
#include <cstdio>
#include <vector>

#include "ref_ranks.hpp"

#include "Lonestar/BoilerPlate.h"
// Galois' constants header, its printTop renamed: the app's call after the timed run
// reaches the printTop below.
#define printTop galois_print_top
#include "PageRank-constants.h"
#undef printTop

template <typename Graph>
void printTop(Graph& graph, unsigned = 0) {
  const std::vector<double> ref = ref_ranks((long)graph.size(), "galois_prpush", false);
  double sum = 0, l1 = 0;
  for (auto v : graph)
    sum += graph.getData(v).value;
  size_t i = 0;
  for (auto v : graph)
    l1 += std::fabs(graph.getData(v).value / sum - ref[i++]);
  printf("\nL1: %.6e\n", l1); // the app's last line has no newline
  fflush(stdout);
}

#include "PageRank-push.cpp"
