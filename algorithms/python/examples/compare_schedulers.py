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
        ts = [r.record["time_s"] * 1e3 for r in results]
        ws = [r.record["work_ratio"] for r in results]
        t, w = np.median(ts), np.median(ws)
        rows.append(dict(wl=wl, threads=threads, t=t, t_lo=min(ts), t_hi=max(ts), w=w,
                         w_lo=min(ws), w_hi=max(ws)))
        print("%-18s %d thread%s  %8.2f ms  work %.3f  (verified against SciPy)" % (
            wl, threads, "s" if threads > 1 else " ", t, w))

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("matplotlib is not installed: no plot")
    raise SystemExit(0)
# grouped bars (one group per thread count, one bar per scheduler), each with the
# fastest-slowest trial as its error bar, so that schedulers never hide each other
wls = args.schedulers.split(",")
fig, axes = plt.subplots(1, 2, figsize=(10, 4))
width = 0.8 / len(wls)
described = {"file": os.path.basename(args.out), "panels": []}
for ax, key, label in ((axes[0], "t", "median time, ms (bars: fastest-slowest trial)"),
                       (axes[1], "w", "work ratio (tasks / Dijkstra's)")):
    bars = []
    for k, wl in enumerate(wls):
        rs = [r for r in rows if r["wl"] == wl]
        x = np.arange(len(rs)) + (k - (len(wls) - 1) / 2) * width
        y = np.array([r[key] for r in rs])
        err = np.array([[r[key] - r[key + "_lo"] for r in rs], [r[key + "_hi"] - r[key] for r in rs]])
        ax.bar(x, y, width, yerr=err, capsize=3, label=wl)
        bars += [dict(scheduler=wl, threads=r["threads"], height=float(r[key]),
                      low=float(r[key + "_lo"]), high=float(r[key + "_hi"])) for r in rs]
    ax.set_xticks(range(2), ["1 thread", "2 threads"])
    ax.set_ylabel(label)
    ax.set_ylim(bottom=0)
    ax.grid(True, axis="y", alpha=0.3)
    described["panels"].append(dict(ylabel=label, xticks=["1 thread", "2 threads"], bars=bars))
axes[1].axhline(1.0, color="gray", lw=0.8)  # Dijkstra's work
# one legend below both panels, clear of every bar
handles, labels = axes[0].get_legend_handles_labels()
leg = fig.legend(handles, labels, loc="lower center", ncol=len(wls), fontsize=9,
                 frameon=False)
described["legend"] = [t.get_text() for t in leg.get_texts()]
fig.suptitle("SSSP on %s, %d sources" % (os.path.basename(args.graph), len(sources)))
fig.tight_layout(rect=(0, 0.07, 1, 1))
fig.savefig(args.out)
# what the figure shows, read back from the drawn axes: a test (and a reader without an
# image viewer) checks it
import json  # noqa: E402
with open(os.path.splitext(args.out)[0] + ".json", "w") as f:
    json.dump(described, f, indent=1)
print("wrote", args.out)
