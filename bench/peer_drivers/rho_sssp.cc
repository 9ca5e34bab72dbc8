// rho_sssp.cc - a node-0 driver around Parallel-SSSP's rho-stepping (ucrparlay/Parallel-SSSP,
// the solver header unmodified), for bench/sssp_peers.py. Parallel-SSSP's own main times ten
// hashed sources; issue 48 compares every peer from one source. Built outside the tree:
//
//   g++ -std=c++17 -O3 -mcx16 -march=native -pthread -I$PSSP -I$PSSP/parlaylib/include \
//       bench/peer_drivers/rho_sssp.cc -o rho_sssp
//
//   rho_sssp FILE.wsg [-r SOURCE] [-n TRIALS] [-p RHO] [-s]
//
// FILE.wsg is GAPBS's weighted serialized graph (its converter's -wb); -s says its arcs come
// in both directions with equal weights (the yardsticks do), which lets the solver pull. Every
// trial's distances are checked against the package's own Dijkstra; the lines printed are
// "Trial Time: SECONDS" and "Verification: PASS" (GAPBS's words, so one parser reads both).
// Threads: PARLAY_NUM_THREADS.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "dijkstra.h"
#include "sssp.h"
#include "verdict.hpp"

int main(int argc, char *argv[]) {
  long source = 0, trials = 5;
  size_t rho = 1 << 20;
  bool sym = false;
  int c;
  while ((c = getopt(argc, argv, "r:n:p:sh")) != -1) {
    switch (c) {
      case 'r': source = atol(optarg); break;
      case 'n': trials = atol(optarg); break;
      case 'p': rho = strtoull(optarg, nullptr, 10); break;
      case 's': sym = true; break;
      default:
        fprintf(stderr, "usage: %s FILE.wsg [-r SOURCE] [-n TRIALS] [-p RHO] [-s]\n",
                argv[0]);
        return c == 'h' ? 0 : 2;
    }
  }
  if (optind + 1 != argc || trials < 1) {
    fprintf(stderr, "usage: %s FILE.wsg [-r SOURCE] [-n TRIALS] [-p RHO] [-s]\n", argv[0]);
    return 2;
  }
  std::string path = argv[optind];
  if (path.size() < 4 || path.compare(path.size() - 4, 4, ".wsg")) {
    fprintf(stderr, "rho_sssp: %s: expected GAPBS's .wsg file\n", path.c_str());
    return 2;
  }
  Graph G(true, false);  // the converter writes a directed .wsg; -s tells the truth after
  G.read_gapbs_format(path.c_str());
  G.symmetrized = sym;
  if (source < 0 || (size_t)source >= G.n) {
    fprintf(stderr, "rho_sssp: source %ld is not a node of %s (n %zu)\n", source,
            path.c_str(), G.n);
    return 2;
  }
  printf("Graph: n %zu m %zu rho %zu threads %zu\n", G.n, G.m, rho, num_workers());
  auto expect = dijkstra(source, G);
  Rho_Stepping solver(G, rho);
  solver.set_sd_scale(G.m / G.n);  // as Parallel-SSSP's main sets it
  int bad_trials = 0;
  for (long t = 0; t < trials; t++) {
    internal::timer tm;
    auto dist = solver.sssp(source);
    tm.stop();
    size_t wrong = 0;
    for (size_t i = 0; i < G.n; i++) wrong += dist[i] != expect[i];
    bad_trials += peer_verdict(tm.total_time(), wrong);
  }
  return bad_trials ? 1 : 0;
}
