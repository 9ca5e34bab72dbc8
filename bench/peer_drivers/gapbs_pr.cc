// gapbs_pr.cc - a driver around GAPBS's pr (sbeamer/gapbs, src/pr.cc unmodified), for
// bench/pagerank_accuracy.py. GAPBS's pr prints its time and its top five scores; issue 46
// compares PageRank at equal accuracy, so this driver runs GAPBS's own PageRankPullGS as
// its main would and measures the L1 distance of the scores, scaled to sum 1, from
// reference ranks. Built outside the tree with GAPBS's own flags:
//
//   g++ -std=c++11 -O3 -Wall -fopenmp -I$GAPBS/src bench/peer_drivers/gapbs_pr.cc -o gapbs_pr
//
//   ORDO_REF_RANKS=ref.f64 gapbs_pr -f FILE.sg [-n K] [-i I] [-t EPS]
//
// FILE.sg is GAPBS's serialized graph; ref.f64 holds the graph's reference ranks as raw
// little-endian doubles (at least n of them; see ref_ranks.hpp). For each of the K trials this prints "Trial Time:
// SECONDS" (PageRankPullGS alone, as GAPBS's BenchmarkKernel times it) and "L1: X", the L1
// distance of its scores, scaled to sum 1, from the reference (a dangling node's lost rank
// scales away: both solve x = d P^T x + c 1/n). Threads: OMP_NUM_THREADS.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "ref_ranks.hpp"

#define main gapbs_pr_main
#include "pr.cc"
#undef main

int main(int argc, char *argv[]) {
  CLPageRank cli(argc, argv, "pagerank", 1e-4, 20);
  if (!cli.ParseArgs())
    return 2;
  Builder b(cli);
  Graph g = b.MakeGraph();
  const std::vector<double> ref = ref_ranks(g.num_nodes(), "gapbs_pr", true);
  for (int trial = 0; trial < cli.num_trials(); trial++) {
    const auto t0 = std::chrono::steady_clock::now();
    pvector<ScoreT> scores = PageRankPullGS(g, cli.max_iters(), cli.tolerance());
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    double sum = 0, l1 = 0;
    for (NodeID v = 0; v < g.num_nodes(); v++)
      sum += scores[v];
    for (NodeID v = 0; v < g.num_nodes(); v++)
      l1 += std::fabs(scores[v] / sum - ref[v]);
    printf("Trial Time: %.6f\nL1: %.6e\n", s, l1);
    fflush(stdout);
  }
  return 0;
}
