#!/usr/bin/env python3
"""The Python package measured (issue 33), side by side in one run:

1. call overhead: `ordo.sssp` from Python against the `sssp` binary on the same graph,
   scheduler, threads and sources (kernel time from both records, and the wall time of
   the Python call around it), interleaved rounds;
2. hand-over: `Graph.from_scipy` of the graph as a SciPy CSR matrix (time, peak memory
   of the process) against `ordo.load` of the native file;
3. what a Python user gets: ordo's `sssp` beside `scipy.sparse.csgraph.dijkstra` and
   NetworkX's `single_source_dijkstra_path_length` on the same graph and source (NetworkX
   only below --nx-max-arcs arcs).

    PYTHONPATH=build/python python3 bench/python.py bench/data/road2k.ordo \
        [--rounds 3] [--threads 1,2] [--wl smq:pq=bucket]

Prints Markdown tables (medians, with min-max) for bench/RESULTS.md.
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time

import numpy as np

import ordo

HERE = os.path.dirname(os.path.abspath(__file__))


def rss_mib():
    """This process's resident memory now (not its peak), MiB."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def med(v):
    return statistics.median(v)


def rng(v):
    return "%.1f (%.1f-%.1f)" % (med(v), min(v), max(v))


def overhead(args, path, name, g, sources, threads):
    """1. The kernel from the binary and from Python, interleaved."""
    kern = {}
    for rnd in range(args.rounds):
        for t in threads:
            cmd = [os.path.join(args.bin, "sssp"), path, "--wl", args.wl, "-t", str(t),
                   "--format", "json", "-q", "--no-verify"]
            for s in sources:
                p = subprocess.run(cmd + ["-r", str(s), "-n", "1"], capture_output=True,
                                   text=True, check=True)
                rec = json.loads(p.stdout.strip().splitlines()[-1])
                kern.setdefault(("binary", t), []).append(rec["time_s"] * 1e3)
            for s in sources:
                t0 = time.perf_counter()
                r = ordo.sssp(g, s, scheduler=args.wl, threads=t, verify=False)
                wall = (time.perf_counter() - t0) * 1e3
                kern.setdefault(("python", t), []).append(r.record["time_s"] * 1e3)
                kern.setdefault(("python call", t), []).append(
                    wall - r.record["time_s"] * 1e3 - r.record["baseline_time_s"] * 1e3)
    print("\n**%s: SSSP kernel time from the binary and from Python** (`%s`, %d "
          "sources x %d rounds; ms, median (min-max))\n" % (name, args.wl, args.trials,
                                                             args.rounds))
    print("| threads | binary kernel | Python kernel | Python / binary | the call's own "
          "time beyond kernel and baseline |")
    print("|---|---|---|---|---|")
    for t in threads:
        b, p, c = kern[("binary", t)], kern[("python", t)], kern[("python call", t)]
        print("| %d | %s | %s | %.3f | %s |" % (t, rng(b), rng(p), med(p) / med(b), rng(c)))


def hand_over(args, path, name, g):
    """2. A graph handed over from SciPy, against loading the file; returns A."""
    A = g.to_scipy()
    A.indptr = A.indptr.astype(np.int64)
    A.indices = A.indices.astype(np.int32)
    A.data = A.data.astype(np.int32)
    hand, load, hand_mb, load_mb = [], [], [], []
    for _ in range(args.rounds):
        r0 = rss_mib()
        t0 = time.perf_counter()
        h = ordo.Graph.from_scipy(A, symmetric=g.symmetric)
        hand.append((time.perf_counter() - t0) * 1e3)
        hand_mb.append(rss_mib() - r0)
        assert h.borrowed and not h.conversions, h.conversions
        del h
        r0 = rss_mib()
        t0 = time.perf_counter()
        h = ordo.load(path)
        load.append((time.perf_counter() - t0) * 1e3)
        load_mb.append(rss_mib() - r0)
        del h
    checked = []
    for _ in range(args.rounds):
        t0 = time.perf_counter()
        h = ordo.Graph.from_scipy(A)
        checked.append((time.perf_counter() - t0) * 1e3)
        del h
    mb = g._g._bytes() / 2**20
    print("\n**%s: a graph handed over from SciPy** (ms, median (min-max); the "
          "graph's arrays %.0f MiB)\n" % (name, mb))
    print("| way in | time ms | resident memory it added, MiB | copy |")
    print("|---|---|---|---|")
    print("| `Graph.from_scipy(A, symmetric=...)` (int64 indptr, int32 indices and "
          "data) | %s | %.0f | none (borrowed) |" % (rng(hand), med(hand_mb)))
    print("| `Graph.from_scipy(A)` (symmetry checked in C, per-node sorts) | %s | - | "
          "none (borrowed) |" % rng(checked))
    print("| `ordo.load` of the native file | %s | %.0f | the file's |" % (
        rng(load), med(load_mb)))
    return A


def beside_peers(args, name, g, A, sources, threads):
    """3. One SSSP from Python, beside SciPy and NetworkX."""
    import scipy.sparse as sp
    import scipy.sparse.csgraph as cg
    # csgraph takes 32-bit index arrays
    A32 = sp.csr_matrix((A.data, A.indices, A.indptr.astype(np.int32)), shape=A.shape)
    s = sources[0]
    sc, od = [], {t: [] for t in threads}
    for _ in range(args.rounds):
        t0 = time.perf_counter()
        ref = cg.dijkstra(A32, indices=s)
        sc.append((time.perf_counter() - t0) * 1e3)
        for t in threads:
            t0 = time.perf_counter()
            r = ordo.sssp(g, s, scheduler=args.wl, threads=t, verify=False)
            od[t].append((time.perf_counter() - t0) * 1e3 - r.record["baseline_time_s"]
                         * 1e3)
    d = r.dist.astype(float)
    d[r.dist == ordo.DIST_INF] = np.inf
    assert np.array_equal(d, ref)
    nx_ms = None
    if g.m <= args.nx_max_arcs:
        import networkx as nx
        G = nx.from_scipy_sparse_array(A32, create_using=nx.DiGraph)
        t0 = time.perf_counter()
        nx.single_source_dijkstra_path_length(G, s)
        nx_ms = (time.perf_counter() - t0) * 1e3
    print("\n**%s: one SSSP from Python, the same answer three ways** (wall ms of the "
          "call; ordo's without its verification baseline)\n" % name)
    print("| library | ms | ordo's speedup |")
    print("|---|---|---|")
    for t in threads:
        print("| ordo `%s`, %d thread%s | %s | - |" % (args.wl, t, "s" if t > 1 else "",
                                                    rng(od[t])))
    best = min(med(v) for v in od.values())
    print("| `scipy.sparse.csgraph.dijkstra` | %s | %.1fx |" % (rng(sc), med(sc) / best))
    if nx_ms is not None:
        print("| NetworkX `single_source_dijkstra_path_length` | %.0f (1 run) | %.1fx |"
              % (nx_ms, nx_ms / best))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("graphs", nargs="+")
    ap.add_argument("--bin", default=os.path.join(HERE, "..", "build", "algorithms"))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--trials", type=int, default=3)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--wl", default="smq:pq=bucket")
    ap.add_argument("--nx-max-arcs", type=int, default=12_000_000)
    args = ap.parse_args()
    threads = [int(t) for t in args.threads.split(",")]
    print("machine: %s, %d CPUs; python %s; numpy %s" % (
        os.uname().nodename, os.cpu_count(), sys.version.split()[0], np.__version__))
    for path in args.graphs:
        name = os.path.basename(path)
        g = ordo.load(path, symmetrize=False)
        # sources among the nodes with arcs (R-MAT leaves many isolated), as the binaries
        # draw them
        with_arcs = np.flatnonzero(g.degree() > 0)
        sources = [int(s) for s in np.random.default_rng(7).choice(with_arcs, args.trials)]
        overhead(args, path, name, g, sources, threads)
        A = hand_over(args, path, name, g)
        beside_peers(args, name, g, A, sources, threads)
        print("\npeak RSS of this process so far: %.0f MiB" % (
            resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024))


if __name__ == "__main__":
    main()
