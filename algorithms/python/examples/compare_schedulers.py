#!/usr/bin/env python3
"""Loads a road graph, runs SSSP with three schedulers at 1 and 2 threads, checks each
answer against SciPy's Dijkstra, prints time and work ratio, and plots them.

    PYTHONPATH=build/python python3 algorithms/python/examples/compare_schedulers.py \
        [GRAPH] [--out compare.png]

GRAPH defaults to the 40 x 30 road sample in inputs/samples (its .co comes along)."""
import argparse
import os

import numpy as np
import scipy.sparse.csgraph as cg

import ordo

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "..", "..", "..", "inputs", "samples", "road-40x30.gr")

ap = argparse.ArgumentParser(description=__doc__,
                             formatter_class=argparse.RawDescriptionHelpFormatter)
ap.add_argument("graph", nargs="?", default=SAMPLE)
ap.add_argument("--schedulers", default="obim,smq:pq=bucket,mq-opt")
ap.add_argument("--sources", type=int, default=5, help="trials (random sources)")
ap.add_argument("--out", default="compare.png")
args = ap.parse_args()

g = ordo.load(args.graph)
print(g)
rng = np.random.default_rng(1)
sources = rng.integers(0, g.n, args.sources)
ref = {int(s): cg.dijkstra(g.to_scipy(), indices=int(s)) for s in sources}

rows = []
for wl in args.schedulers.split(","):
    for threads in (1, 2):
        results = ordo.sssp(g, sources, scheduler=wl, threads=threads)
        for s, r in zip(sources, results):
            d = r.dist.astype(float)
            d[r.dist == ordo.DIST_INF] = np.inf
            assert np.array_equal(d, ref[int(s)]), (wl, threads, s)
        t = np.median([r.record["time_s"] for r in results]) * 1e3
        w = np.median([r.record["work_ratio"] for r in results])
        rows.append((wl, threads, t, w))
        print("%-18s %d thread%s  %8.2f ms  work %.3f  (verified against SciPy)" % (
            wl, threads, "s" if threads > 1 else " ", t, w))

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("matplotlib is not installed: no plot")
    raise SystemExit(0)
fig, axes = plt.subplots(1, 2, figsize=(10, 4))
for wl in args.schedulers.split(","):
    rs = [r for r in rows if r[0] == wl]
    axes[0].plot([r[1] for r in rs], [r[2] for r in rs], "o-", label=wl)
    axes[1].plot([r[1] for r in rs], [r[3] for r in rs], "o-", label=wl)
axes[0].set_ylabel("median time, ms")
axes[1].set_ylabel("work ratio (tasks / Dijkstra's)")
for ax in axes:
    ax.set_xlabel("threads")
    ax.set_xticks([1, 2])
    ax.grid(True, alpha=0.3)
axes[0].set_ylim(bottom=0)
axes[1].legend()
fig.suptitle("SSSP on %s" % os.path.basename(args.graph))
fig.tight_layout()
fig.savefig(args.out)
print("wrote", args.out)
