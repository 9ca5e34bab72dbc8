// verdict.hpp - the lines the SSSP peer drivers print after a trial (GAPBS's words, so that
// bench/sssp_peers.py reads every peer's output with one parser). Returns 1 for a failed
// trial, else 0.
#ifndef ORDO_PEER_VERDICT_H
#define ORDO_PEER_VERDICT_H
#include <cstddef>
#include <cstdio>

static inline int peer_verdict(double secs, size_t wrong) {
  printf("Trial Time: %.6f\n", secs);
  if (wrong) {
    printf("Verification: FAIL (%zu distances differ from Dijkstra's)\n", wrong);
    return 1;
  }
  printf("Verification: PASS\n");
  return 0;
}

#endif
