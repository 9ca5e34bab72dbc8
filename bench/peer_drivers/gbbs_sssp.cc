// gbbs_sssp.cc - a driver around GBBS's delta-stepping (the copy of GBBS vendored in
// ucrparlay/Parallel-KCore, baselines/gbbs; its DeltaStepping.h unmodified) that checks
// the distances it returns, for bench/sssp_peers.py. GBBS's own DeltaStepping main prints
// only a time. Built outside the tree, after GBBS's makefile has built its libraries
// (`make ROOTDIR=../../../` in benchmarks/PositiveWeightSSSP/DeltaStepping):
//
//   g++ -std=c++17 -O3 -DNDEBUG -DGBBSLONG -DAMORTIZEDPD -DUSEMALLOC -mcx16 -march=native \
//       -pthread -I$GBBS -I$GBBS/external/parlaylib/include bench/peer_drivers/gbbs_sssp.cc \
//       -I$GBBS/benchmarks/PositiveWeightSSSP/DeltaStepping -o gbbs_sssp \
//       -Wl,--start-group $GBBS/bin/gbbs/*.a $GBBS/bin/gbbs/encodings/*.a -Wl,--end-group
//
//   gbbs_sssp FILE.adj [-r SOURCE] [-n TRIALS] [-d DELTA]
//
// FILE.adj is a symmetric WeightedAdjacencyGraph (ordo-convert writes one). Every trial's
// distances are checked against a binary-heap Dijkstra here; the lines printed are
// "Trial Time: SECONDS" and "Verification: PASS". Threads: PARLAY_NUM_THREADS.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

#define WEIGHTED 1
#include "DeltaStepping.h"
#include "verdict.hpp"

using G_t = gbbs::symmetric_graph<gbbs::symmetric_vertex, gbbs::intE>;

static std::vector<long long> dijkstra(G_t &G, gbbs::uintE s) {
  std::vector<long long> d(G.n, -1);
  using item = std::pair<long long, gbbs::uintE>;
  std::priority_queue<item, std::vector<item>, std::greater<item>> pq;
  d[s] = 0;
  pq.push({0, s});
  while (!pq.empty()) {
    auto [du, u] = pq.top();
    pq.pop();
    if (du != d[u]) continue;
    G.get_vertex(u).out_neighbors().map(
        [&](gbbs::uintE, gbbs::uintE v, gbbs::intE w) {
          long long nd = du + w;
          if (d[v] < 0 || nd < d[v]) {
            d[v] = nd;
            pq.push({nd, v});
          }
        },
        false);
  }
  return d;
}

int main(int argc, char *argv[]) {
  long source = 0, trials = 5;
  double delta = 1.0;
  int c;
  while ((c = getopt(argc, argv, "r:n:d:h")) != -1) {
    switch (c) {
      case 'r': source = atol(optarg); break;
      case 'n': trials = atol(optarg); break;
      case 'd': delta = atof(optarg); break;
      default:
        fprintf(stderr, "usage: %s FILE.adj [-r SOURCE] [-n TRIALS] [-d DELTA]\n", argv[0]);
        return c == 'h' ? 0 : 2;
    }
  }
  if (optind + 1 != argc || trials < 1 || !(delta > 0)) {
    fprintf(stderr, "usage: %s FILE.adj [-r SOURCE] [-n TRIALS] [-d DELTA]\n", argv[0]);
    return 2;
  }
  auto G = gbbs::gbbs_io::read_weighted_symmetric_graph<gbbs::intE>(argv[optind], false,
                                                                    false);
  if (source < 0 || (size_t)source >= G.n) {
    fprintf(stderr, "gbbs_sssp: source %ld is not a node of %s (n %zu)\n", source,
            argv[optind], (size_t)G.n);
    return 2;
  }
  printf("Graph: n %zu m %zu delta %g threads %zu\n", (size_t)G.n, (size_t)G.m, delta,
         parlay::num_workers());
  auto expect = dijkstra(G, (gbbs::uintE)source);
  int bad_trials = 0;
  for (long t = 0; t < trials; t++) {
    gbbs::timer tm;
    tm.start();
    auto dist = gbbs::DeltaStepping(G, (gbbs::uintE)source, delta, 32);  // -nb's default
    double secs = tm.stop();
    size_t wrong = 0;
    const auto far = std::numeric_limits<gbbs::intE>::max();
    for (size_t i = 0; i < G.n; i++)
      wrong += expect[i] < 0 ? dist[i] != far : dist[i] != expect[i];
    bad_trials += peer_verdict(secs, wrong);
  }
  return bad_trials ? 1 : 0;
}
