// ligra_prdelta.cc - a driver around Ligra's PageRankDelta (jshun/ligra, apps/PageRankDelta.C
// unmodified), for bench/ligra_pagerank.py. Ligra's app frees its ranks and prints only its
// time; issue 46 compares PageRank at equal accuracy, so this driver keeps the ranks of each
// run and measures their L1 distance from reference ranks. Built outside the tree:
//
//   g++ -std=c++14 -fopenmp -march=native -O3 -DOPENMP -DBYTERLE -I$LIGRA/ligra \
//       -I$LIGRA/apps bench/peer_drivers/ligra_prdelta.cc -o ligra_prdelta
//
//   ORDO_REF_RANKS=ref.f64 ligra_prdelta [-rounds K] [-maxiters I] FILE.adj
//
// FILE.adj is Ligra's AdjacencyGraph; ref.f64 holds the graph's n reference ranks as raw
// little-endian doubles, summing to 1. Ligra's main runs the app once untimed, then K times;
// for each run this prints "Trial Time: SECONDS" (the app's run alone) and "L1: X", the L1
// distance of its ranks, scaled to sum 1, from the reference (a dangling node's lost rank
// scales away: both solve x = d P^T x + c 1/n). Threads: OMP_NUM_THREADS.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "ligra.h"
#include "ref_ranks.hpp"

// PageRankDelta's Compute, renamed; its free(p) is where its ranks would be lost, so the
// first pointer it frees after each run starts is kept (p, freed first), the rest freed.
static double *kept_ranks;
static void keep_first(void *x) {
  if (!kept_ranks)
    kept_ranks = static_cast<double *>(x);
  else
    free(x);
}
#define Compute ligra_prdelta_compute
#define free(x) keep_first(x)
#include "PageRankDelta.C"
#undef free
#undef Compute

template <class vertex>
void Compute(graph<vertex> &GA, commandLine P) {
  static std::vector<double> ref = ref_ranks(GA.n, "ligra_prdelta", false);
  kept_ranks = nullptr;
  const auto t0 = std::chrono::steady_clock::now();
  ligra_prdelta_compute(GA, P);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  double sum = 0, l1 = 0;
  for (long i = 0; i < GA.n; i++)
    sum += kept_ranks[i];
  for (long i = 0; i < GA.n; i++)
    l1 += std::fabs(kept_ranks[i] / sum - ref[i]);
  free(kept_ranks);
  printf("Trial Time: %.6f\nL1: %.6e\n", s, l1);
  fflush(stdout);
}
