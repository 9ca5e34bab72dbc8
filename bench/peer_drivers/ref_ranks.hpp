// ref_ranks.hpp - the reference ranks the PageRank peer drivers measure against: the file
// named by ORDO_REF_RANKS, raw little-endian doubles summing to 1 (bench/ligra_pagerank.py
// writes them). With `cut`, a file longer than the graph's n nodes is cut to its first n,
// scaled to sum 1: a builder that numbers nodes up to the largest id with an arc (GAPBS's)
// leaves out trailing nodes without arcs, which change no other node's rank but the scale.
#ifndef ORDO_PEER_REF_RANKS_H
#define ORDO_PEER_REF_RANKS_H
#include <cstdio>
#include <cstdlib>
#include <vector>

static inline std::vector<double> ref_ranks(long n, const char *who, bool cut) {
  const char *path = getenv("ORDO_REF_RANKS");
  if (!path) {
    fprintf(stderr, "%s: set ORDO_REF_RANKS to the reference ranks' file\n", who);
    exit(2);
  }
  std::vector<double> r;
  FILE *f = fopen(path, "rb");
  double x;
  while (f && fread(&x, sizeof x, 1, f) == 1)
    r.push_back(x);
  if (!f || ferror(f) || (long)r.size() < n || ((long)r.size() > n && !cut)) {
    fprintf(stderr, "%s: %s is not %ld doubles%s\n", who, path, n, cut ? " or more" : "");
    exit(2);
  }
  fclose(f);
  if ((long)r.size() > n) {
    fprintf(stderr, "%s: the graph has %ld nodes, the reference %zu: its first %ld taken, "
            "scaled to sum 1\n", who, n, r.size(), n);
    r.resize(n);
    double sum = 0;
    for (double v : r)
      sum += v;
    for (double &v : r)
      v /= sum;
  }
  return r;
}

#endif
