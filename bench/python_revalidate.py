#!/usr/bin/python3
"""What a borrowed graph's check before each run costs (issue 43, item 2).

A graph made from the caller's arrays (Graph.from_csr without copy) has its offsets
and ids checked again before every call (ordo_graph_validate, in parallel), so that
memory written through another view is an error, not a crash; copy=True skips it.
This times ordo.sssp on the same R-MAT graph both ways, interleaved, and prints the
medians and their ratio. Usage (from the repository root, after the build):

    PYTHONPATH=build/python /usr/bin/python3 bench/python_revalidate.py [SCALE] [ROUNDS]
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

import ordo

scale = int(sys.argv[1]) if len(sys.argv) > 1 else 20
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "rmat.ordo")
    subprocess.run(["build/algorithms/ordo-gen", "rmat:scale=%d,ef=16" % scale, "-o", path],
                   check=True, stdout=subprocess.DEVNULL)
    base = ordo.load(path)
p, i, w = (a.copy() for a in base.csr())
borrowed = ordo.Graph.from_csr(p, i, w, symmetric=True)
owned = ordo.Graph.from_csr(p, i, w, symmetric=True, copy=True)
assert borrowed.borrowed and not owned.borrowed
for threads in (1, 2):
    times = {"borrowed": [], "copy": []}
    for _ in range(rounds):
        for name, g in (("borrowed", borrowed), ("copy", owned)):
            t0 = time.perf_counter()
            ordo.sssp(g, 0, threads=threads, verify=False)
            times[name].append(time.perf_counter() - t0)
    b, c = statistics.median(times["borrowed"]), statistics.median(times["copy"])
    print("rmat scale %d (n %d, m %d), %d threads, %d rounds: sssp call %.4f s borrowed, "
          "%.4f s copy=True, ratio %.3f" % (scale, borrowed.n, borrowed.m, threads, rounds,
                                            b, c, b / c))
